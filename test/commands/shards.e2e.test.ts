// A suite run whole on one machine and as two shards on two others (each its own project folder, as a CI
// matrix has), merged: the same runs with the same figures (timings aside; tokens within the few that the
// sandbox's timestamps in tool outputs make) and the same gate verdicts of tokens and tool calls. And a shard cut short and run again: only what it lacked runs, no row lost or twice.
import {cp, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {runProjectSuite} from '../../src/app/run.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {keyOf, rowsOf, sandboxConfig} from '../support/sandbox-project.js'

const SCENARIOS = ['repo-view-001', 'issue-view-001', 'pr-view-001']
const SUITE = `name: two-modes
scenarios: {ids: [${SCENARIOS.join(', ')}]}
modes: [agent_direct, mcp]
repetitions: 2
seed: 7
concurrency: 1
warmup: false
gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}
`

async function project(): Promise<string> {
  const files: Record<string, string> = {
    '.ghxbenchrc.yml': sandboxConfig('catalogue'),
    'catalogue/two-modes.yml': SUITE,
    'catalogue/profiles/verify_pr.yml': await readFile(
      path.join(PROJECT_ROOT, 'suites', 'profiles', 'verify_pr.yml'),
      'utf8',
    ),
  }
  for (const id of SCENARIOS)
    files[`catalogue/scenarios/${id}.yml`] = await readFile(
      path.join(PROJECT_ROOT, 'suites', 'scenarios', `${id}.yml`),
      'utf8',
    )
  return makeProject(files)
}

/** What a run's row says that does not depend on timing. */
const figures = (row: Row) => ({
  outcome: row.outcome,
  success: row.success,
  tokens: row.tokens,
  tool_calls: row.tool_calls,
  github_api_calls: row.github_api_calls,
  checkpoints: row.checkpoints.map((c) => ({name: c.name, passed: c.passed})),
})

interface GateFile {
  verdict: string
  checks: Array<{name: string; verdict: string}>
}
const gateOf = async (dir: string, runId: string) =>
  JSON.parse(await readFile(path.join(dir, 'reports', runId, 'gate.json'), 'utf8')) as GateFile

describe('sharded runs, merged', function () {
  this.timeout(300_000)

  it('are the unsharded run: the same runs, figures and verdicts of tokens and tool calls', async () => {
    const [whole, first, second, merging] = await Promise.all([project(), project(), project(), project()])
    const wholeRun = await runCliInProcess(['run', 'catalogue/two-modes.yml', '--run-id', 'whole'], {cwd: whole})
    for (const [dir, spec] of [
      [first, '1/2'],
      [second, '2/2'],
    ] as const) {
      const shard = await runCliInProcess(['run', 'catalogue/two-modes.yml', '--run-id', 'split', '--shard', spec], {
        cwd: dir,
      })
      expect(shard.code, shard.stderr).to.equal(0)
      // Uploaded and downloaded: each shard's results folder in a folder of its own.
      await cp(path.join(dir, 'results'), path.join(merging, 'downloaded', `shard-${spec[0]}`), {recursive: true})
    }
    const merged = await runCliInProcess(['merge', 'downloaded'], {cwd: merging})
    expect(merged.code, merged.stderr).to.equal(wholeRun.code)

    const wholeRows = new Map(rowsOf(whole, 'whole').map((row) => [keyOf(row), figures(row)]))
    const mergedRows = new Map(rowsOf(merging, 'split').map((row) => [keyOf(row), figures(row)]))
    expect(wholeRows.size).to.equal(SCENARIOS.length * 2 * 2)
    expect([...mergedRows.keys()].sort()).to.deep.equal([...wholeRows.keys()].sort())
    for (const [key, {tokens, ...row}] of wholeRows) {
      const {tokens: mergedTokens, ...merged} = mergedRows.get(key)!
      expect(merged, key).to.deep.equal(row)
      // Tool outputs carry the sandbox's timestamps (when each machine seeded it): a few tokens either way.
      expect(Math.abs(mergedTokens.total - tokens.total), key).to.be.at.most(tokens.total * 0.01)
    }

    const [wholeGate, mergedGate] = [await gateOf(whole, 'whole'), await gateOf(merging, 'split')]
    const untimed = (gate: GateFile) =>
      gate.checks.filter((c) => /token|tool_call|reliability/.test(c.name)).map((c) => [c.name, c.verdict])
    expect(untimed(mergedGate)).to.deep.equal(untimed(wholeGate))
  })

  it('cut short and run again, runs only what it lacked: no row lost or twice', async () => {
    const dir = await project()
    const controller = new AbortController()
    const options = {cwd: dir, suitePath: 'catalogue/two-modes.yml', runId: 'cut', shard: '2/2'}
    const cut = await runProjectSuite({...options, signal: controller.signal}, (event) => {
      if (event.type === 'run_finished') controller.abort()
    })
    expect(cut.summary.interrupted).to.equal(true)
    const recorded = cut.summary.completed
    const planned = cut.summary.runs.length
    expect(recorded).to.be.greaterThan(0).and.lessThan(planned)

    const again = await runProjectSuite(options)
    expect(again.summary.skipped).to.have.length(recorded)
    expect(again.summary.completed).to.equal(planned - recorded)
    const rows = rowsOf(dir, 'cut.shard-2-of-2')
    expect(rows).to.have.length(planned)
    expect(new Set(rows.map(keyOf)).size).to.equal(planned)
  })
})
