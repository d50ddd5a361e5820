// The planner's power of the success check: the paired test the gate applies to the runner's blocks,
// checked against the gate's own verdicts on simulated paired rows (the real comparison and test).
import path from 'node:path'
import {expect} from 'chai'
import {loadProfile} from '../../../src/catalogue/profiles.js'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../../src/report/aggregate/compare.js'
import {evaluateGate} from '../../../src/report/gate/gate.js'
import {
  correlationOfDiscordance,
  designPower,
  discordanceOf,
  pairedSuccessPower,
} from '../../../src/report/gate/power.js'
import {syntheticRows} from '../../../src/report/gate/simulate.js'
import {DEFAULT_MODEL, REALISTIC_RELIABILITY} from '../../../src/report/gate/candidate-model.js'
import {PACKAGE_ROOT} from '../../../src/shared/package-paths.js'
import {mulberry32} from '../../../src/stats/random.js'

// verify_pr's limits, as the built-in profile states them.
const {thresholds: THRESHOLDS} = await loadProfile('verify_pr', path.join(PACKAGE_ROOT, 'suites'))

/** The gate's success verdicts on `datasets` simulated 4 x 20 designs, the candidate as successful as the baseline (95%). */
function successPassShare(correlation: number, datasets: number): number {
  let passes = 0
  for (let d = 0; d < datasets; d++) {
    const rows = syntheticRows(mulberry32(7000 + d), {
      scenarios: 4,
      repetitions: 20,
      point: 'double',
      group: 'efficiency',
      thresholds: THRESHOLDS,
      model: {...DEFAULT_MODEL, success_correlation: correlation},
      estimand: 'suite',
    })
    const aggregate = emptyAggregate()
    for (const row of rows) addRow(aggregate, row)
    const comparison = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'candidate',
      minSamples: 3,
      seed: d,
      resamples: 20,
      estimand: 'suite',
    })
    const {checks} = evaluateGate(comparison, {
      profile: 'verify_pr',
      decision: 'ci',
      estimand: 'suite',
      min_samples: 3,
      thresholds: THRESHOLDS,
      override: null,
    })
    if (checks.find((c) => c.name === 'reliability_success_rate_non_inferior')!.verdict === 'pass') passes++
  }
  return passes / datasets
}

describe('the planner’s power of the paired success test', () => {
  it('gives the share of discordant blocks of the simulator’s latent model, and back', () => {
    // Independent runs at 95%: 2 × 0.95 × 0.05.
    expect(discordanceOf(0.95, 0)).to.be.closeTo(0.095, 1e-6)
    expect(discordanceOf(0.95, 0.3)).to.be.within(0.08, 0.09)
    expect(discordanceOf(0.95, 1)).to.equal(0)
    expect(correlationOfDiscordance(0.95, discordanceOf(0.95, 0.3))).to.be.closeTo(0.3, 1e-6)
    // More discordance than independence gives is the model's nearest: independence.
    expect(correlationOfDiscordance(0.95, 0.2)).to.be.closeTo(0, 1e-6)
  })

  it('matches the exact test’s power enumerated at 80 pairs (docs/gate.md) within a point', () => {
    const exact = {0: 0.913, 0.3: 0.93, 0.6: 0.959, 0.9: 0.994}
    for (const [correlation, power] of Object.entries(exact))
      expect(pairedSuccessPower(discordanceOf(0.95, Number(correlation)), 0.12, 80, 0.05), correlation).to.be.closeTo(
        power,
        0.01,
      )
  })

  it('agrees with the gate’s verdicts on simulated paired runs, where the unpaired formula said 96.6% at any correlation', function () {
    this.timeout(120_000)
    const datasets = 400
    for (const correlation of [0, 0.9]) {
      const model = {
        log_sd: 0.3,
        tool_calls: 6.5,
        tool_calls_inverse: 1 / 6.5,
        scenario_spread: 0.3,
        baseline_success_pct: 95,
        success_discordance: discordanceOf(0.95, correlation),
        reliability: REALISTIC_RELIABILITY,
      }
      const planned = designPower(THRESHOLDS, model, 'suite', 4, 20, 2).checks.reliability_success_rate_non_inferior!
      const measured = successPassShare(correlation, datasets)
      // Three standard errors of the measured share.
      const tolerance = 3 * Math.sqrt((planned * (1 - planned)) / datasets) + 0.005
      expect(measured, `correlation ${correlation}: planned ${planned}`).to.be.closeTo(planned, tolerance)
    }
  })
})
