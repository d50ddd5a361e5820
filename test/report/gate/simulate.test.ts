// The gate's simulator: synthetic datasets put each group of checks where it says (a wrong dataset
// would make every table wrong), the same seed gives the same table, and a small run of the real gate
// over them already shows its shape: no false pass at the threshold, decisions at twice it. The big
// table is `ghx-bench simulate` / `npm run bench`.
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../../src/report/aggregate/compare.js'
import {
  falsePassShare,
  powerShare,
  renderSimulationMarkdown,
  rightVerdict,
  simulateFixed,
  simulateSequential,
  syntheticRows,
  wholeFalsePass,
  type Point,
} from '../../../src/report/gate/simulate.js'
import {DEFAULT_MODEL, REALISTIC_RELIABILITY} from '../../../src/report/gate/candidate-model.js'
import {rowSchema} from '../../../src/results/row-schema.js'
import {priceOf} from '../../../src/results/usage.js'
import {compileSchema} from '../../../src/shared/schema-validator.js'
import {mulberry32} from '../../../src/stats/random.js'
import {normalCdf, normalQuantile} from '../../../src/stats/special.js'
import {DEFAULT_RESAMPLES} from '../../../src/stats/bootstrap.js'
import {SIMULATION_DEFAULTS} from '../../../src/app/simulate.js'

const THRESHOLDS = {
  max_success_rate_drop_pct: 3,
  min_output_validity_rate_pct: 97,
  max_runner_failure_rate_pct: 5,
  max_timeout_stall_rate_pct: 2,
  max_retry_rate_pct: 15,
  min_efficiency_coverage_pct: 80,
  min_tokens_active_reduction_pct: 15,
  min_latency_reduction_pct: 15,
  min_tool_call_reduction_pct: 20,
  min_cost_reduction_pct: 10,
}
const OPTIONS = {
  thresholds: THRESHOLDS,
  minSamples: 3,
  decision: 'ci' as const,
  scenarios: [4],
  datasets: 12,
  thresholdDatasets: 24,
  seed: 5,
  resamples: 300,
  model: DEFAULT_MODEL,
  estimand: 'suite' as const,
}

describe('gate simulation', () => {
  it('puts a group at its point: reductions at k x threshold over many runs, rates at k x their limit', () => {
    const rows = (point: Point, group: 'efficiency' | 'reliability') =>
      syntheticRows(mulberry32(1), {
        scenarios: 40,
        repetitions: 200,
        point,
        group,
        thresholds: THRESHOLDS,
        model: {...DEFAULT_MODEL, scenario_spread: 0},
      })
    const validate = compileSchema(rowSchema)
    const sample = rows('double', 'efficiency')
    expect(validate(sample[0]), JSON.stringify(validate.errors)).to.equal(true)
    const aggregate = emptyAggregate()
    for (const row of sample) addRow(aggregate, row)
    const e = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'candidate',
      minSamples: 3,
      seed: 1,
      resamples: 200,
    }).efficiency
    expect(e.tokens_active_reduction_pct.value).to.be.closeTo(30, 1)
    expect(e.latency_reduction_pct.value).to.be.closeTo(30, 1)
    expect(e.tool_call_reduction_pct.value).to.be.closeTo(40, 1.5)
    expect(e.cost_reduction_pct!.value).to.be.closeTo(20, 1)
    // The harness's share is slower for the candidate and does not enter the gate's latency.
    expect(e.harness_latency_ms!.candidate).to.be.above(e.harness_latency_ms!.baseline!)
    const candidate = rows('threshold', 'reliability').filter((r) => r.mode === 'candidate')
    const share = (pick: (r: (typeof candidate)[number]) => boolean) => candidate.filter(pick).length / candidate.length
    expect(share((r) => r.outcome === 'timeout')).to.be.closeTo(0.02, 0.003)
    // 8,000 runs: a share's SE is 0.0024 at 5%; 2.5 SEs.
    expect(share((r) => r.outcome === 'timeout' || r.outcome === 'infra_error')).to.be.closeTo(0.05, 0.006)
    expect(share((r) => !r.output_valid)).to.be.closeTo(0.03, 0.004)
    expect(share((r) => r.retries > 0)).to.be.closeTo(0.15, 0.006)
    expect(share((r) => r.success)).to.be.closeTo(0.92, 0.005)
  })

  it('prices each run’s tokens for its cost, which varies less than the active tokens, as in real rows', () => {
    // A small spread between scenarios: a cost effect far from the token effect is beyond what the mix absorbs (runTokens).
    const rows = syntheticRows(mulberry32(2), {
      scenarios: 6,
      repetitions: 300,
      point: 'threshold',
      group: 'efficiency',
      thresholds: THRESHOLDS,
      model: {...DEFAULT_MODEL, scenario_spread: 0.05},
    })
    for (const row of rows) {
      expect(row.cost_usd).to.be.closeTo(priceOf(row.tokens, DEFAULT_MODEL.tokens.price), 1e-12)
      expect(row.tokens.active).to.equal(row.tokens.input + row.tokens.output)
      expect(row.tokens.cache_read).to.be.at.least(0)
    }
    const logSd = (values: number[]) => {
      const logs = values.map(Math.log)
      const mean = logs.reduce((a, b) => a + b, 0) / logs.length
      return Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1))
    }
    for (const mode of ['agent_direct', 'candidate']) {
      for (const scenario of new Set(rows.map((r) => r.scenario_id))) {
        const runs = rows.filter((r) => r.mode === mode && r.scenario_id === scenario)
        const ratio = logSd(runs.map((r) => r.cost_usd!)) / logSd(runs.map((r) => r.tokens.active))
        // The published rows' cells: 0.1 to 1.0 of the active tokens' log SD, about half in the median.
        expect(ratio, `${mode} ${scenario}`).to.be.within(0.25, 0.7)
      }
    }
  })

  it('measures the gate with the gate’s own number of bootstrap resamples by default (one constant)', () => {
    // 2,000 against the gate's 10,000 made the simulated intervals' ends noisier than the gate's.
    expect(SIMULATION_DEFAULTS.resamples).to.equal(DEFAULT_RESAMPLES)
    expect(DEFAULT_RESAMPLES).to.equal(10_000)
  })

  it('the right verdict of each check at each point', () => {
    expect(rightVerdict({name: 'efficiency_tokens_active_reduction', group: 'efficiency'}, 'zero')).to.equal('fail')
    expect(rightVerdict({name: 'efficiency_tokens_active_reduction', group: 'efficiency'}, 'double')).to.equal('pass')
    expect(rightVerdict({name: 'reliability_timeout_stall_rate', group: 'reliability'}, 'double')).to.equal('fail')
    expect(rightVerdict({name: 'reliability_timeout_stall_rate', group: 'reliability'}, 'threshold')).to.equal(
      'not_pass',
    )
    expect(rightVerdict({name: 'efficiency_coverage', group: 'efficiency'}, 'threshold')).to.equal(null)
  })

  it('a small fixed design: the same table for the same seed, no false pass, efficiency decided at twice the threshold', function () {
    this.timeout(60_000)
    const cells = simulateFixed({...OPTIONS, repetitions: [20]})
    expect(simulateFixed({...OPTIONS, repetitions: [20]})).to.deep.equal(cells)
    expect(cells.map((c) => [c.point, c.datasets])).to.deep.equal([
      ['zero', 12],
      ['threshold', 24],
      ['double', 12],
    ])
    for (const cell of cells)
      for (const check of cell.checks)
        expect(falsePassShare(check, cell.point) ?? 0, `${check.name} at ${cell.point}`).to.be.at.most(0.1)
    const double = cells.find((c) => c.point === 'double')!
    const tokens = double.checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!
    expect(powerShare(tokens)).to.be.at.least(0.5)
    expect(tokens.counts.fail).to.equal(0)
    // A rate at twice its limit is never passed.
    expect(double.checks.filter((c) => c.group === 'reliability').every((c) => c.counts.pass === 0)).to.equal(true)
  })

  it('a small sequential design stops early at twice the threshold and renders the table', function () {
    this.timeout(60_000)
    const plan = {looks: [5, 10, 20], alpha: 0.05, spending: 'power' as const}
    const cells = simulateSequential({...OPTIONS, datasets: 10, thresholdDatasets: 10, plan})
    const tokens = cells
      .find((c) => c.point === 'double')!
      .checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!
    expect(tokens.mean_repetitions).to.be.below(20)
    expect(tokens.counts.fail).to.equal(0)
    const markdown = renderSimulationMarkdown({
      options: {...OPTIONS, datasets: 10, thresholdDatasets: 10, repetitions: [], plan},
      fixed: [],
      sequential: cells,
    })
    expect(markdown).to.include(
      '## --until-decided: looks at 5, 10, 20 repetitions per cell, power spending of α = 0.05',
    )
    expect(markdown).to.match(/\| active tokens \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| [\d.]+ \/ 0\.0 \/ [\d.]+ \|/)
  })

  it('the suite estimand’s truth is the suite’s own effect: the scenarios’ deviations centred on the point; the population’s are not', () => {
    // No run noise, no blocks: each scenario's agent-time ratio is its true effect.
    const model = {...DEFAULT_MODEL, cv_pct: 0, block_sd: 0, scenario_spread: 0.4}
    const meanLogRatio = (estimand: 'suite' | 'population') => {
      const rows = syntheticRows(mulberry32(11), {
        scenarios: 4,
        repetitions: 1,
        point: 'double',
        group: 'efficiency',
        thresholds: THRESHOLDS,
        model,
        estimand,
      })
      const scenarios = [...new Set(rows.map((r) => r.scenario_id))]
      const agent = (id: string, mode: string) =>
        rows.find((r) => r.scenario_id === id && r.mode === mode)!.latency_ms_agent!
      const logs = scenarios.map((id) => Math.log(agent(id, 'candidate') / agent(id, 'agent_direct')))
      return {mean: logs.reduce((a, b) => a + b, 0) / logs.length, spread: Math.max(...logs) - Math.min(...logs)}
    }
    const suite = meanLogRatio('suite')
    expect(suite.mean).to.be.closeTo(Math.log(0.7), 1e-9)
    expect(suite.spread).to.be.above(0.2)
    expect(Math.abs(meanLogRatio('population').mean - Math.log(0.7))).to.be.above(0.01)
  })

  it('the efficiency datasets, which give the whole gate, carry a realistic candidate’s failures; the spread defaults to real suites’', () => {
    expect(DEFAULT_MODEL.scenario_spread).to.equal(0.3)
    expect(REALISTIC_RELIABILITY).to.deep.include({timeout_pct: 0.4, runner_failure_pct: 1})
    const candidate = syntheticRows(mulberry32(3), {
      scenarios: 40,
      repetitions: 200,
      point: 'double',
      group: 'efficiency',
      thresholds: THRESHOLDS,
      model: DEFAULT_MODEL,
    }).filter((r) => r.mode === 'candidate')
    const share = (pick: (r: (typeof candidate)[number]) => boolean) => candidate.filter(pick).length / candidate.length
    expect(share((r) => r.outcome === 'timeout')).to.be.closeTo(0.004, 0.0015)
    expect(share((r) => r.outcome === 'timeout' || r.outcome === 'infra_error')).to.be.closeTo(0.01, 0.0025)
    expect(share((r) => r.success)).to.be.closeTo(0.95, 0.005)
  })

  it('draws the two modes’ success of a block correlated as the model says, each at its own rate', () => {
    // Both at their rates in every block: P(both succeed) is the bivariate normal's at the rates' quantiles,
    // computed here by integrating over the block's shared draw (Simpson's rule), independently of the simulation.
    const bothSucceed = (rho: number, p1: number, p2: number) => {
      const steps = 4000
      const h = 16 / steps
      let total = 0
      for (let i = 0; i <= steps; i++) {
        const u = -8 + i * h
        const weight = i === 0 || i === steps ? 1 : i % 2 ? 4 : 2
        const given = (p: number) =>
          rho === 1
            ? Number(u < normalQuantile(p))
            : normalCdf((normalQuantile(p) - Math.sqrt(rho) * u) / Math.sqrt(1 - rho))
        total += weight * (Math.exp((-u * u) / 2) / Math.sqrt(2 * Math.PI)) * given(p1) * given(p2)
      }
      return (total * h) / 3
    }
    for (const correlation of [0, 0.3, 0.8]) {
      const rows = syntheticRows(mulberry32(5), {
        scenarios: 40,
        repetitions: 200,
        point: 'threshold',
        group: 'reliability',
        thresholds: THRESHOLDS,
        model: {...DEFAULT_MODEL, success_correlation: correlation},
      })
      const baseline = new Map(
        rows.filter((r) => r.mode === 'agent_direct').map((r) => [`${r.scenario_id}/${r.iteration}`, r.success]),
      )
      const candidate = rows.filter((r) => r.mode === 'candidate')
      const both =
        candidate.filter((r) => r.success && baseline.get(`${r.scenario_id}/${r.iteration}`)).length / candidate.length
      // The candidate at the threshold: the baseline's 95% less the margin.
      const rate = 0.95 - THRESHOLDS.max_success_rate_drop_pct / 100
      expect(candidate.filter((r) => r.success).length / candidate.length, `${correlation}`).to.be.closeTo(rate, 0.005)
      expect(both, `${correlation}`).to.be.closeTo(bothSucceed(correlation, rate, 0.95), 0.005)
    }
    expect(DEFAULT_MODEL.success_correlation).to.equal(0.3)
  })

  it('the table gives the whole gate’s P(pass / fail / inconclusive) and bounds its false pass by the worst check’s', function () {
    this.timeout(60_000)
    const cells = simulateFixed({...OPTIONS, datasets: 6, thresholdDatasets: 6, repetitions: [20]})
    const bound = wholeFalsePass(cells)
    const worst = Math.max(
      ...cells.flatMap((cell) => cell.checks.map((check) => falsePassShare(check, cell.point) ?? 0)),
    )
    expect(bound).to.equal(worst)
    // At double a pass is right for a reduction: no false pass to bound.
    expect(
      wholeFalsePass([{point: 'double', checks: cells[2]!.checks.filter((c) => c.group === 'efficiency')}]),
    ).to.equal(null)
    const markdown = renderSimulationMarkdown({
      options: {...OPTIONS, datasets: 6, thresholdDatasets: 6, repetitions: [20], plan: null},
      fixed: cells,
      sequential: [],
    })
    expect(markdown).to.match(
      /\| \*\*the whole gate\*\* \(efficiency at the point, realistic reliability\) \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \| [\d.]+ \| [\d.]+ \| \|/,
    )
    expect(markdown).to.include('0.4% timeouts, 1% runner failures in all')
    expect(markdown).to.include('Estimand suite')
  })
})
