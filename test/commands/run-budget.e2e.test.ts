// `ghx-bench run --budget` through the bin on the embedded default (sandbox, oracle): the run stops starting
// paired blocks at the budget, finishes those started, records the rest as not run, and the run, the gate
// and a resumed run say so: incomplete (exit 3), never failed. Bad syntax: test/commands/run-budget.test.ts.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import type {RunInfo} from '../../src/results/run-info.js'
import {makeProject, runCli} from '../support/cli.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

const SMOKE = path.join(SUITES, 'smoke.yml')
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)

describe('ghx-bench run --budget (bin, sandbox + oracle)', function () {
  this.timeout(360_000)

  it('stops cleanly: whole blocks run, the rest not run, exit 3 naming the budget; the gate says the same; a resume runs the rest', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    // smoke: 6 blocks, 10 runs (4 blocks under both modes, 2 under agent_direct alone).
    const run = await runCli(['run', SMOKE, '--budget', 'runs=5', '--run-id', 'capped'], {cwd: dir, env: {CI: '1'}})
    expect(run.code, run.stderr + run.stdout).to.equal(3)
    const info = JSON.parse(await readFile(path.join(dir, 'results', 'capped', 'run.json'), 'utf8')) as RunInfo
    const notRun = info.not_run!
    expect(notRun).to.deep.include({reason: 'budget', budget: 'runs=5', planned_blocks: 6})
    expect(notRun.detail).to.match(/^the next block needs [12] runs, which would bring the total to [67] \(budget 5\)$/)
    const rows = rowsOf(dir, 'capped')
    expect(rows.length).to.be.within(1, 5)
    // Every row passed: the runs left out are missing, never failures.
    expect(rows.every((row) => row.outcome === 'pass')).to.equal(true)
    const ran = new Set(rows.map((row) => `${row.scenario_id}/${row.iteration}`))
    expect(notRun.blocks.filter((block) => ran.has(block))).to.deep.equal([])
    expect(ran.size + notRun.blocks.length).to.equal(6)
    // Whole blocks: a block that ran ran under every mode that applies to it.
    const applicable = (scenario: string) => (['workflow-run-view-001', 'release-list-001'].includes(scenario) ? 1 : 2)
    for (const block of ran)
      expect(
        rows.filter((row) => `${row.scenario_id}/${row.iteration}` === block),
        block,
      ).to.have.length(applicable(block.split('/')[0]!))
    const reason = `incomplete: ${notRun.blocks.length} of 6 blocks of run capped not run (budget runs=5: ${notRun.detail})`
    expect(run.stdout).to.include(`budget runs=5: ${notRun.blocks.length} of 6 blocks not run`)
    expect(lastLine(run.stdout)).to.equal(`verdict: INCONCLUSIVE (exit 3): ${reason}`)

    const gate = await runCli(['gate', '--run-id', 'capped', '--profile', 'verify_pr'], {cwd: dir})
    expect(gate.code, gate.stderr + gate.stdout).to.equal(3)
    expect(lastLine(gate.stdout)).to.equal(`verdict: INCONCLUSIVE (exit 3): ${reason}`)

    // Resumed without a budget: the blocks left out run, and the run is complete.
    const resumed = await runCli(['run', SMOKE, '--run-id', 'capped'], {cwd: dir, env: {CI: '1'}})
    expect(resumed.code, resumed.stderr + resumed.stdout).to.equal(0)
    expect(rowsOf(dir, 'capped')).to.have.length(10)
    const after = JSON.parse(await readFile(path.join(dir, 'results', 'capped', 'run.json'), 'utf8')) as RunInfo
    expect(after.not_run).to.equal(undefined)
    expect(lastLine(resumed.stdout)).to.equal('verdict: PASS (exit 0): no gate: all 10 runs passed')
  })
})
