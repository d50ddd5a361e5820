// `ghx-bench run --dry-run` forecasts what the plan will spend from the previous runs of the suite and
// model, and on the embedded default before any run from the oracle's recorded counts; there (sandbox,
// oracle) the next run spends within 10% of it.
import path from 'node:path'
import {expect} from 'chai'
import type {Forecast} from '../../src/runner/forecast.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

const SMOKE = path.join(SUITES, 'smoke.yml')
const PART = ['--scenario', 'repo-view-001', '--scenario', 'issue-view-001', '--scenario', 'release-list-001']

describe('ghx-bench run --dry-run: the forecast', function () {
  this.timeout(360_000)

  it('is within 10% of the tokens the run then spends, and says which runs it comes from', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const dryRun = async (...flags: string[]) => {
      const result = await runCliInProcess(['run', SMOKE, '--dry-run', ...flags], {cwd: dir})
      expect(result.code, result.stderr).to.equal(0)
      return result.stdout
    }
    const spentBy = (runId: string) => {
      const rows = rowsOf(dir, runId)
      expect(rows).to.have.length(5)
      return {
        total: rows.reduce((n, row) => n + row.tokens.total, 0),
        input: rows.reduce((n, row) => n + row.tokens.input, 0),
        output: rows.reduce((n, row) => n + row.tokens.output, 0),
      }
    }
    const within10 = (
      forecast: Forecast,
      spent: ReturnType<typeof spentBy>,
      keys: ReadonlyArray<'total' | 'input' | 'output'> = ['total', 'input', 'output'],
    ) => {
      for (const key of keys) expect(Math.abs(forecast.tokens[key] - spent[key]) / spent[key], key).to.be.at.most(0.1)
    }
    // Nothing stored yet: the scripted oracle's counts recorded with the catalogue forecast it.
    const recorded = (JSON.parse(await dryRun(...PART, '--json')) as {forecast: Forecast}).forecast
    expect(recorded).to.deep.include({from_runs: [], runs: 5, unforecast: []})
    expect(recorded.from_recorded).to.include({runs: 5})
    expect(await dryRun(...PART)).to.match(
      /forecast from the oracle's recorded counts for 5 run\(s\) \(suites\/oracle-counts.json: run /,
    )
    // Another model's runs are not the oracle's: nothing to forecast them from, said.
    expect(await dryRun(...PART, '--model', 'noop')).to.include(
      'forecast: no previous run of this suite and model in results_dir',
    )
    const first = await runCliInProcess(['run', SMOKE, ...PART, '--run-id', 'first'], {cwd: dir})
    expect(first.code, first.stderr + first.stdout).to.equal(0)
    // The counts are the main job's (full-seeded's fixtures in the repository); this project seeds smoke's only, so
    // answers that list what the repository holds are shorter here: the totals (what a budget counts) hold to 10%.
    within10(recorded, spentBy('first'), ['total', 'input'])
    const {forecast} = JSON.parse(await dryRun(...PART, '--json')) as {forecast: Forecast}
    // 3 scenarios x 2 modes, release-list-001 not applicable to mcp: 5 runs in 3 blocks.
    expect(forecast).to.deep.include({from_runs: ['first'], runs: 5, blocks: 3, unforecast: [], cost_usd: null})
    const text = await dryRun(...PART)
    expect(text).to.include(
      'plan: 3 scenarios x 2 modes x 1 providers x 1 repetitions: 5 runs in 3 paired blocks (1 scenario x mode pair(s) not applicable)',
    )
    expect(text).to.include('forecast from 1 previous run(s) of this suite and model (first), each cell')
    expect(text).to.match(/tokens \d+ \(input \d+, output \d+\), cost not known \(no price for the model in pricing\)/)
    const second = await runCliInProcess(['run', SMOKE, ...PART, '--run-id', 'second'], {cwd: dir})
    expect(second.code, second.stderr + second.stdout).to.equal(0)
    within10(forecast, spentBy('second'))
    expect(forecast.wall_ms).to.be.above(0)
  })
})
