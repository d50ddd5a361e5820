// `ghx-bench run --dry-run` forecasts what the plan will spend from the previous runs of the suite and
// model; on the embedded default (sandbox, oracle) the next run spends within 10% of it.
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
    // Nothing stored yet: nothing to forecast from, said.
    expect(await dryRun(...PART)).to.include('forecast: no previous run of this suite and model in results_dir')
    const first = await runCliInProcess(['run', SMOKE, ...PART, '--run-id', 'first'], {cwd: dir})
    expect(first.code, first.stderr + first.stdout).to.equal(0)
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
    const rows = rowsOf(dir, 'second')
    const spent = {
      total: rows.reduce((n, row) => n + row.tokens.total, 0),
      input: rows.reduce((n, row) => n + row.tokens.input, 0),
      output: rows.reduce((n, row) => n + row.tokens.output, 0),
    }
    expect(rows).to.have.length(5)
    for (const key of ['total', 'input', 'output'] as const)
      expect(Math.abs(forecast.tokens[key] - spent[key]) / spent[key], key).to.be.at.most(0.1)
    expect(forecast.wall_ms).to.be.above(0)
  })
})
