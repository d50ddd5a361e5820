// The sequential rule of run --until-decided: each look's confidence, when to stop (a decided gate, a
// failed check, nothing left to wait for, the last look) and the flags' text (the budget: test/results/budget.test.ts).
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {compareModes, type Comparison} from '../../../src/report/aggregate/compare.js'
import {evaluateGate, type GateCheck} from '../../../src/report/gate/gate.js'
import {judgeSuccessDrop} from '../../../src/report/gate/reliability-rules.js'
import {
  checkStates,
  decideLook,
  DEFAULT_LOOKS,
  freezeVerdicts,
  lookConfidences,
  parseLooks,
  projectedInterval,
  type SequentialPlan,
} from '../../../src/report/gate/sequential.js'
import type {Row} from '../../../src/results/row-schema.js'
import {makeRow} from '../../support/rows.js'

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
const PLAN: SequentialPlan = {looks: [5, 10, 20], alpha: 0.05, spending: 'power'}

type RowOf = (mode: string, i: number) => Partial<Row> & {activeTokens?: number}

/** The comparison of `iterations` of both modes in 4 scenarios, at `confidence`. */
function comparisonOf(iterations: number, confidence: number | undefined, row: RowOf): Comparison {
  const aggregate = emptyAggregate()
  for (const scenario of ['a-001', 'b-001', 'c-001', 'd-001']) {
    for (let i = 1; i <= iterations; i++)
      for (const mode of ['agent_direct', 'ghx'])
        addRow(aggregate, makeRow({scenario_id: scenario, mode, iteration: i, ...row(mode, i)}))
  }
  return compareModes(aggregate, {
    baseline: 'agent_direct',
    candidate: 'ghx',
    minSamples: 3,
    seed: 1,
    resamples: 1000,
    confidence,
  })
}

/** The gate over `iterations` of both modes in 4 scenarios, at a look's confidence. */
function gateAt(iterations: number, look: number, row: RowOf) {
  const comparison = comparisonOf(iterations, lookConfidences(PLAN)[look], row)
  return {
    comparison,
    ...evaluateGate(comparison, {
      profile: 'p',
      decision: 'ci',
      min_samples: 3,
      override: null,
      thresholds: {
        ...THRESHOLDS,
        max_timeout_stall_rate_pct: 40,
        max_runner_failure_rate_pct: 40,
        max_retry_rate_pct: 40,
        min_output_validity_rate_pct: 60,
        max_success_rate_drop_pct: 40,
      },
    }),
  }
}

// A clear candidate: half the tokens, time and tool calls, with run-to-run noise.
const clear = (mode: string, i: number): Partial<Row> & {activeTokens: number} => {
  const noise = 1 + ((i * 37) % 11) / 40
  return mode === 'ghx'
    ? {
        activeTokens: Math.round(500 * noise),
        latency_ms_agent: 4000 * noise,
        tool_calls: {total: 2 + (i % 2), failed: 0},
      }
    : {
        activeTokens: Math.round(1000 * noise),
        latency_ms_agent: 8000 * noise,
        tool_calls: {total: 5 + (i % 2), failed: 0},
      }
}

describe('sequential rule', () => {
  // 4 scenarios × 10 repetitions of a clear candidate, the first `timeouts` of its runs timed out, judged at the third look of the default plan.
  const atThirdLook = (thresholds: Partial<typeof THRESHOLDS>, timeouts: number, sequential: boolean) => {
    const plan: SequentialPlan = {looks: [...DEFAULT_LOOKS], alpha: 0.05, spending: 'power'}
    let left = timeouts
    const comparison = comparisonOf(10, lookConfidences(plan)[2], (mode, i) => ({
      ...clear(mode, i),
      ...(mode === 'ghx' && left-- > 0 ? {outcome: 'timeout' as const, success: false} : {}),
    }))
    return evaluateGate(
      comparison,
      {profile: 'p', decision: 'ci', min_samples: 3, override: null, thresholds: {...THRESHOLDS, ...thresholds}},
      sequential ? {looks: plan.looks, index: 2, spending: plan.spending} : undefined,
    ).checks
  }

  it('judges a rate at a look by the exact group-sequential rule: no timeout in 40 runs passes a 10% limit at the third look', () => {
    const judged = (timeouts: number, sequential: boolean) =>
      atThirdLook({max_timeout_stall_rate_pct: 10}, timeouts, sequential).find(
        (check) => check.name === 'reliability_timeout_stall_rate',
      )!
    // 0.9^40 = 1.5% of candidates at the limit pass by then, within the 1.77% of 5% spent by the third look.
    const none = judged(0, true)
    expect(none.verdict).to.equal('pass')
    expect(none.rule).to.include('spent over the looks exactly (power spending; look 3 of 8, 1.76777% spent by it)')
    expect(none.rule).to.include('passes with at most 0 in 40')
    expect(judged(1, true).verdict).to.equal('inconclusive')
    // Judged alone at the look's own level (1 - 99.01%), as before, it could not pass.
    expect(judged(0, false).verdict).to.equal('inconclusive')
  })

  it('judges the paired success drop at a look by the exact group-sequential rule: 40 pairs without a flip pass a 12-point margin at the third look', () => {
    const judged = (timeouts: number, sequential: boolean) =>
      atThirdLook({max_success_rate_drop_pct: 12, max_timeout_stall_rate_pct: 40}, timeouts, sequential).find(
        (check) => check.name === 'reliability_success_rate_non_inferior',
      )!
    // Its exact p-value is 1.42%: within the 1.77% spent by the third look (no outcome at least as favourable passes more often).
    const none = judged(0, true)
    expect(none.verdict).to.equal('pass')
    expect(none.rule).to.include('spent over the looks exactly (power spending; look 3 of 8, 1.76777% spent by it)')
    expect(none.rule).to.include('paired: 40 blocks run by both modes, 0 pass→fail and 0 fail→pass')
    expect(none.rule).to.include(
      'Tango’s score statistic passes from 2.320 at this look by the exact group-sequential test',
    )
    // One pass→fail: its statistic falls below the look's threshold.
    const one = judged(1, true)
    expect(one.verdict).to.equal('inconclusive')
    expect(one.reason).to.match(/^Tango’s statistic is 1\.849 and passes from 2\.320 at this look/)
    // Judged alone at the look's own level (1 - 99.01%), as before, it could not pass.
    expect(judged(0, false).verdict).to.equal('inconclusive')
  })

  it('says so when no outcome of a look’s pairs can pass the paired success test', () => {
    const judged = judgeSuccessDrop(
      {
        candidate: 5,
        candidateRuns: 5,
        baseline: 5,
        baselineRuns: 5,
        paired: {pairs: 5, pass_to_fail: 0, fail_to_pass: 0},
      },
      12,
      1 - lookConfidences({looks: [...DEFAULT_LOOKS], alpha: 0.05, spending: 'power'})[0]!,
      (v) => v >= -12,
      {looks: DEFAULT_LOOKS, index: 0, spending: 'power'},
    )
    expect(judged.verdict).to.equal('inconclusive')
    expect(judged.rule).to.include('Tango’s score statistic passes from no value at this look')
    expect(judged.reason).to.match(/^Tango’s statistic is \d\.\d{3} and passes from no value at this look/)
  })

  it('each look’s confidence spends the error over the looks: above 95% at every look, one look is 95%', () => {
    const confidences = lookConfidences(PLAN)
    expect(confidences).to.have.length(3)
    for (const c of confidences) expect(c).to.be.within(0.95, 0.999)
    expect(lookConfidences({looks: [20], alpha: 0.05, spending: 'power'})[0]).to.be.closeTo(0.95, 1e-9)
    expect(DEFAULT_LOOKS).to.deep.equal([5, 8, 10, 12, 14, 16, 18, 20])
  })

  it('stops at the first look when every check is decided, passing', () => {
    const {checks, comparison, verdict} = gateAt(5, 0, clear)
    expect(verdict).to.equal('pass')
    expect(decideLook(checks, comparison, {plan: PLAN, look: 0})).to.deep.include({
      stop: true,
      reason: 'decided: every check',
    })
  })

  it('stops at once when a check fails, whatever is left undecided', () => {
    const {checks, comparison} = gateAt(5, 0, (mode, i) => ({
      ...clear(mode, i),
      activeTokens: clear(mode === 'ghx' ? 'agent_direct' : 'ghx', i).activeTokens,
    }))
    const decision = decideLook(checks, comparison, {plan: PLAN, look: 0})
    expect(decision.stop).to.equal(true)
    expect(decision.reason).to.equal('decided: efficiency_tokens_active_reduction failed')
  })

  it('waits for a check more runs can settle; not for one they cannot (0 timeouts against a 2% limit, 80 runs in all)', () => {
    // Tokens 14% down against a 15% threshold with noise: undecided, and close enough that 20 repetitions may settle it.
    const near = (mode: string, i: number) => ({
      ...clear(mode, i),
      activeTokens:
        mode === 'ghx'
          ? Math.round(clear('agent_direct', i).activeTokens * (0.78 + ((i * 13) % 7) / 50))
          : clear('agent_direct', i).activeTokens,
    })
    const {checks, comparison} = gateAt(5, 0, near)
    const states = checkStates(checks, comparison, {plan: PLAN, look: 0})
    expect(checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!.verdict).to.equal('inconclusive')
    expect(states.efficiency_tokens_active_reduction).to.equal('pending')
    expect(decideLook(checks, comparison, {plan: PLAN, look: 0})).to.deep.include({stop: false})
    // The built-in 2% timeout limit: 0 of 20 runs now, and even 0 of 80 at the last look leaves Wilson's bound above 2%.
    const strict = evaluateGate(comparison, {
      profile: 'p',
      decision: 'ci',
      min_samples: 3,
      override: null,
      thresholds: THRESHOLDS,
    })
    const strictStates = checkStates(strict.checks, comparison, {plan: PLAN, look: 0})
    expect(strictStates.reliability_timeout_stall_rate).to.equal('futile')
    // At the last look nothing is pending.
    const last = gateAt(20, 2, near)
    expect(decideLook(last.checks, last.comparison, {plan: PLAN, look: 2}).stop).to.equal(true)
  })

  it('coverage short of its threshold waits while looks remain (more runs make scenarios comparable)', () => {
    // Half the candidate's runs fail: with 5 iterations a scenario may have fewer than 3 stable runs.
    const {checks, comparison} = gateAt(4, 0, (mode, i) => ({
      ...clear(mode, i),
      ...(mode === 'ghx' && i % 2 === 0 ? {success: false, outcome: 'fail' as const} : {}),
    }))
    const coverage = checks.find((c) => c.name === 'efficiency_coverage')!
    expect(coverage.verdict).to.equal('fail')
    expect(checkStates(checks, comparison, {plan: PLAN, look: 0}).efficiency_coverage).to.equal('pending')
    expect(checkStates(checks, comparison, {plan: PLAN, look: 2}).efficiency_coverage).to.equal('decided')
  })

  it('looks as given: ascending positive repetitions', () => {
    expect(parseLooks('5, 10,20')).to.deep.equal([5, 10, 20])
    expect(parseLooks('10,5')).to.equal('looks must be ascending positive repetitions, got "10,5"')
    expect(parseLooks('5,x')).to.equal('expected repetitions per cell separated by commas (5,10,20), got "5,x"')
  })

  it('freezes each check’s verdict at its first decisive look: a later straddle does not reopen it, and the gate passes when the last open check does', () => {
    const check = (name: GateCheck['name'], verdict: GateCheck['verdict']): GateCheck => ({
      name,
      group: name.startsWith('efficiency') ? 'efficiency' : 'reliability',
      value: 1,
      operator: '>=',
      threshold: 0,
      interval: null,
      verdict,
      reason: null,
      detail: '',
    })
    // Look 1: tokens pass, timeouts cannot be certified yet.
    const first = freezeVerdicts(
      [check('efficiency_tokens_active_reduction', 'pass'), check('reliability_timeout_stall_rate', 'inconclusive')],
      {},
      0,
    )
    expect(first.verdict).to.equal('inconclusive')
    expect(first.frozen).to.deep.equal({efficiency_tokens_active_reduction: {verdict: 'pass', look: 1}})
    // Look 2: the tokens' interval straddles this time, timeouts pass: the gate passes on the frozen verdict.
    const second = freezeVerdicts(
      [check('efficiency_tokens_active_reduction', 'inconclusive'), check('reliability_timeout_stall_rate', 'pass')],
      first.frozen,
      1,
    )
    expect(second.verdict).to.equal('pass')
    expect(second.checks[0]).to.deep.include({
      verdict: 'pass',
      reason: 'decided at look 1, and frozen there (this look’s own verdict: inconclusive)',
    })
    expect(second.frozen).to.deep.equal({
      efficiency_tokens_active_reduction: {verdict: 'pass', look: 1},
      reliability_timeout_stall_rate: {verdict: 'pass', look: 2},
    })
    // The frozen map given is not changed.
    expect(first.frozen).to.deep.equal({efficiency_tokens_active_reduction: {verdict: 'pass', look: 1}})
    // Coverage, a count, is never frozen: short at the first look (a scenario not yet comparable), whole at the last, the gate passes.
    const short = freezeVerdicts(
      [check('efficiency_coverage', 'fail'), check('efficiency_tokens_active_reduction', 'pass')],
      {},
      0,
    )
    expect(short.frozen).to.deep.equal({efficiency_tokens_active_reduction: {verdict: 'pass', look: 1}})
    expect(
      freezeVerdicts(
        [check('efficiency_coverage', 'pass'), check('efficiency_tokens_active_reduction', 'inconclusive')],
        short.frozen,
        2,
      ).verdict,
    ).to.equal('pass')
    // A frozen fail stays a fail.
    expect(
      freezeVerdicts(
        [check('efficiency_tokens_active_reduction', 'pass')],
        {efficiency_tokens_active_reduction: {verdict: 'fail', look: 1}},
        2,
      ).verdict,
    ).to.equal('fail')
  })

  it('projects a reduction under the suite estimand from its runs alone: the spread between scenarios makes it futile only under the population’s', () => {
    const reduction = (estimand: 'suite' | 'population') => ({
      value: 30,
      interval: [20, 38],
      scenarios: 4,
      log_variance: {between: 0.3, within: 0.01, df: 60},
      estimand,
    })
    const comparisonOf = (estimand: 'suite' | 'population') =>
      ({efficiency: {tokens_active_reduction_pct: reduction(estimand)}, reliability: {}}) as unknown as Comparison
    const check: GateCheck = {
      name: 'efficiency_tokens_active_reduction',
      group: 'efficiency',
      value: 30,
      operator: '>=',
      threshold: 15,
      interval: [20, 38],
      verdict: 'inconclusive',
      reason: null,
      detail: '',
    }
    const suite = projectedInterval(check, comparisonOf('suite'), 4, 0.97)!
    const population = projectedInterval(check, comparisonOf('population'), 4, 0.97)!
    expect(suite[0]).to.be.above(15)
    expect(population[0]).to.be.below(15)
  })
})
