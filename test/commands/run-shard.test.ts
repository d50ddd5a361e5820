// `ghx-bench run --shard i/N`: a bad spec is bad input said at once; a shard's plan is its blocks of the
// whole plan, balanced by a previous run's wall times with --shard-weights. Whole shards run in
// test/commands/shards.e2e.test.ts.
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'
import {sandboxConfig, SUITES} from '../support/sandbox-project.js'

const SMOKE = path.join(SUITES, 'smoke.yml')

describe('ghx-bench run --shard', function () {
  this.timeout(60_000)

  it('refuses 0/4, 5/4 and x with one clear message (exit 2), before loading anything, and a shard without --run-id', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    for (const spec of ['0/4', '5/4', 'x']) {
      const result = await runCliInProcess(['run', SMOKE, '--shard', spec], {cwd: dir})
      expect(result.code, spec).to.equal(2)
      expect(result.stderr).to.include(`--shard error: expected i/N`).and.include(JSON.stringify(spec))
      expect(result.stdout).to.equal('')
    }
    const unnamed = await runCliInProcess(['run', SMOKE, '--shard', '1/2'], {cwd: dir})
    expect(unnamed.code).to.equal(2)
    expect(unnamed.stderr).to.include('give every shard of the run the same --run-id')
  })

  it('plans its own blocks, balanced by a previous run’s wall times with --shard-weights', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    // A previous run where repo-view-001 took as long as the three others together.
    const weights = path.join(dir, 'previous.jsonl')
    const ms: Record<string, number> = {
      'repo-view-001': 30_000,
      'issue-view-001': 10_000,
      'pr-view-001': 10_000,
      'release-list-001': 10_000,
    }
    await writeFile(
      weights,
      Object.entries(ms)
        .map(([scenario_id, latency_ms_wall]) => JSON.stringify(makeRow({scenario_id, latency_ms_wall})) + '\n')
        .join(''),
    )
    const plan = async (...flags: string[]) => {
      const args = ['run', SMOKE, '--dry-run', '--json', '--mode', 'agent_direct', ...flags]
      for (const id of Object.keys(ms)) args.push('--scenario', id)
      const result = await runCliInProcess(args, {cwd: dir})
      expect(result.code, result.stderr).to.equal(0)
      return (JSON.parse(result.stdout) as {runs: Array<{scenario_id: string}>}).runs.map((r) => r.scenario_id).sort()
    }
    expect(await plan('--shard', '1/2', '--shard-weights', weights)).to.deep.equal(['repo-view-001'])
    expect(await plan('--shard', '2/2', '--shard-weights', weights)).to.deep.equal([
      'issue-view-001',
      'pr-view-001',
      'release-list-001',
    ])
    // By blocks: two each.
    expect(await plan('--shard', '1/2')).to.have.length(2)
  })
})
