// `ghx-bench simulate` from the command line (in-process): its flags reach the simulation, its figures are
// those of a gate that decides (a gate that always passed, always failed or never decided would break
// them), --out writes the two files, and a bad flag exits 2 before any dataset is drawn. Small datasets
// keep it to seconds; the full table is `npm run bench` (bench/gate-error-rates.ts).
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {FixedDesignCell, SequentialCell, SimulationReport} from '../../src/report/gate/simulate.js'
import {runCliInProcess} from '../support/cli-in-process.js'

type Check = FixedDesignCell['checks'][number] | SequentialCell['checks'][number]

const checkOf = (cell: {checks: Check[]}, name: string): Check => {
  const check = cell.checks.find((c) => c.name === name)
  if (!check) throw new Error(`no check ${name} in ${cell.checks.map((c) => c.name).join(', ')}`)
  return check
}

const EFFICIENCY = [
  'efficiency_tokens_active_reduction',
  'efficiency_latency_reduction',
  'efficiency_tool_call_reduction',
  'efficiency_cost_reduction',
]

describe('ghx-bench simulate (CLI)', () => {
  it('measures the gate with the flags given: no false pass, decisions at twice the threshold, fewer runs when sequential', async function () {
    this.timeout(60_000)
    const args = [
      'simulate',
      '--scenarios',
      '4',
      '--repetitions',
      '20',
      '--datasets',
      '16',
      '--threshold-datasets',
      '24',
      '--seed',
      '7',
      '--resamples',
      '200',
    ]
    const result = await runCliInProcess([
      ...args,
      '--looks',
      '5,10,20',
      '--spending',
      'obrien-fleming',
      '--cv',
      '25',
      '--scenario-spread',
      '0.02',
      '--json',
    ])
    expect(result.code, result.stderr).to.equal(0)
    const report = JSON.parse(result.stdout) as SimulationReport
    expect(report.options).to.deep.include({
      scenarios: [4],
      repetitions: [20],
      datasets: 16,
      thresholdDatasets: 24,
      seed: 7,
      resamples: 200,
      decision: 'ci',
      minSamples: 3,
    })
    expect(report.options.model).to.deep.include({cv_pct: 25, scenario_spread: 0.02})
    expect(report.options.plan).to.deep.equal({looks: [5, 10, 20], alpha: 0.05, spending: 'obrien-fleming'})
    // verify_pr's thresholds (the config's gate.profile).
    expect(report.options.thresholds).to.deep.include({min_tokens_active_reduction_pct: 15, min_cost_reduction_pct: 10})

    expect(report.fixed.map((c) => [c.scenarios, c.repetitions, c.point, c.datasets])).to.deep.equal([
      [4, 20, 'zero', 16],
      [4, 20, 'threshold', 24],
      [4, 20, 'double', 16],
    ])
    const [zero, threshold, double] = report.fixed as [FixedDesignCell, FixedDesignCell, FixedDesignCell]
    for (const name of EFFICIENCY) {
      // No effect: never passed, mostly failed (20 repetitions see a 15% shortfall).
      expect(checkOf(zero, name).counts.pass, `${name} at zero`).to.equal(0)
      expect(checkOf(zero, name).counts.fail, `${name} at zero`).to.be.at.least(10)
      // At the threshold a pass is false: about 2.5% of the time, so at most 2 of 24.
      expect(checkOf(threshold, name).counts.pass, `${name} at the threshold`).to.be.at.most(2)
      // Twice the threshold: mostly passed, never failed, and the MDE is a figure between the two.
      expect(checkOf(double, name).counts.pass, `${name} at double`).to.be.at.least(10)
      expect(checkOf(double, name).counts.fail, `${name} at double`).to.equal(0)
    }
    for (const check of double.checks.filter((c) => c.group === 'reliability'))
      expect(check.counts.pass, `${check.name} at double`).to.equal(0)
    for (const check of zero.checks.filter((c) => c.group === 'reliability'))
      expect(check.counts.fail, `${check.name} at zero`).to.equal(0)
    const mde = (
      threshold.checks.find((c) => c.name === 'efficiency_tokens_active_reduction') as FixedDesignCell['checks'][number]
    ).mean_mde!
    expect(mde).to.be.within(5, 30)

    expect(report.sequential.map((c) => [c.scenarios, c.point, c.datasets])).to.deep.equal([
      [4, 'zero', 16],
      [4, 'threshold', 24],
      [4, 'double', 16],
    ])
    const sequentialDouble = report.sequential[2]!
    const tokens = checkOf(sequentialDouble, 'efficiency_tokens_active_reduction') as SequentialCell['checks'][number]
    expect(tokens.counts.pass).to.be.at.least(10)
    expect(tokens.mean_repetitions).to.be.below(20)
    for (const name of EFFICIENCY)
      expect(checkOf(report.sequential[1]!, name).counts.pass, `${name} at the threshold, sequential`).to.be.at.most(2)
  })

  it('prints the markdown tables and writes simulate.md and simulate.json to --out; --decision point never says inconclusive', async function () {
    this.timeout(60_000)
    const out = await mkdtemp(path.join(tmpdir(), 'ghx-bench-simulate-'))
    const result = await runCliInProcess([
      'simulate',
      '--profile',
      'verify_release',
      '--model',
      'openai/gpt-5.1-codex-mini',
      '--decision',
      'point',
      '--scenarios',
      '4',
      '--repetitions',
      '5',
      '--datasets',
      '8',
      '--resamples',
      '100',
      '--looks',
      'none',
      '--out',
      out,
    ])
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include(
      '# ghx-bench simulate: profile verify_release (thresholds for openai/gpt-5.1-codex-mini), min_samples 3',
    )
    expect(result.stdout).to.include(
      '## Gate error rates (decision point; seeded datasets per cell: 32 at the threshold, 8 at zero and at double; seed 1, 100 bootstrap resamples)',
    )
    expect(result.stdout).to.include('### 4 scenarios × 5 repetitions per cell (fixed)')
    expect(result.stdout).not.to.include('--until-decided')
    expect(result.stdout).to.include(`wrote ${path.join(out, 'simulate.md')}`)
    // Progress goes to stderr, never into the tables.
    expect(result.stderr).to.include('fixed designs: 100%')
    expect(await readFile(path.join(out, 'simulate.md'), 'utf8')).to.equal(
      result.stdout.slice(0, result.stdout.indexOf('wrote ')).trimEnd() + '\n',
    )
    const report = JSON.parse(await readFile(path.join(out, 'simulate.json'), 'utf8')) as SimulationReport
    expect(report.options.thresholds).to.deep.include({min_tokens_active_reduction_pct: 12, min_cost_reduction_pct: 15})
    expect(report.sequential).to.deep.equal([])
    // The predecessors' rule judges the point value: pass or fail, never inconclusive.
    for (const cell of report.fixed)
      for (const name of EFFICIENCY)
        expect(checkOf(cell, name).counts.inconclusive, `${name} at ${cell.point}`).to.equal(0)
  })

  it('exits 2 on a bad flag, naming it', async () => {
    const cases: Array<[string[], string]> = [
      [['--scenarios', '0'], '--scenarios'],
      [['--repetitions', '5,x'], '--repetitions'],
      [['--looks', '10,5'], 'looks must be ascending'],
      [['--cv', 'lots'], '--cv'],
      [['--scenario-spread', '-1'], '--scenario-spread'],
      [['--success-correlation', '1.5'], 'expected a number from 0 to 1, got "1.5"'],
      [['--decision', 'maybe'], 'decision'],
      [['--datasets', '0'], 'datasets'],
      [['--resamples', '10'], 'resamples'],
      [['--profile', 'verify_prr'], 'unknown profile "verify_prr"'],
    ]
    for (const [flags, message] of cases) {
      const result = await runCliInProcess(['simulate', ...flags])
      expect(result.code, `${flags.join(' ')}: ${result.stderr}`).to.equal(2)
      expect(result.stderr, flags.join(' ')).to.include(message)
      expect(result.stdout, flags.join(' ')).not.to.include('Gate error rates')
    }
  })
})
