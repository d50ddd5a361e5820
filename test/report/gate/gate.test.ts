import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../../src/report/aggregate/compare.js'
import {clearsThreshold, evaluateGate, judgeCheck, resolveThresholds} from '../../../src/report/gate/gate.js'
import {capacity, gateSizeWarnings, judgeSuccessDrop} from '../../../src/report/gate/reliability-rules.js'
import {logGamma} from '../../../src/stats/special.js'
import {syntheticRows} from '../../../src/report/gate/simulate.js'
import {DEFAULT_MODEL} from '../../../src/report/gate/candidate-model.js'
import {MIN_POPULATION_SCENARIOS, reductionOfLogRatio} from '../../../src/stats/log-ratio.js'
import {pairedNonInferiority, tangoInterval} from '../../../src/stats/paired-flips.js'
import {mulberry32} from '../../../src/stats/random.js'
import {fromGhxRouter} from '../../../src/results/importers.js'
import {loadProfile} from '../../../src/catalogue/profiles.js'
import type {Row} from '../../../src/results/row-schema.js'
import {makeRow} from '../../support/rows.js'
import {PROJECT_ROOT} from '../../support/cli.js'
import {sharedPath, skipWithoutShared} from '../../support/shared.js'

const ROUTER = sharedPath('datasets', 'ghx-router-codex-5.3')

interface RawRouterRow {
  mode: string
  scenario_id: string
  success: boolean
  output_valid: boolean
  error: {type: string} | null
  latency_ms_wall: number
  tool_calls: number
  tokens: {total: number; cache_read: number}
}

let routerRowsRead: RawRouterRow[] | undefined
/** ghx-router's published rows (../shared), read when a test first needs them. */
const routerRows = (): RawRouterRow[] =>
  (routerRowsRead ??= ['agent_direct', 'ghx'].flatMap((mode) =>
    readFileSync(path.join(ROUTER, `2026-02-25-${mode}-suite.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RawRouterRow),
  ))

// The predecessors' rule, written out from anchor-notes §5.4 on the raw rows, independently of src/:
// stable rows = success && output_valid && error.type != runner_error; per scenario the median of each
// mode; reduction (b - c) / b * 100 where b > 0; suite value = median of the per-scenario reductions.
function middle(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

function theirReduction(metric: (r: RawRouterRow) => number): number {
  const raw = routerRows()
  const stable = raw.filter((r) => r.success && r.output_valid && r.error?.type !== 'runner_error')
  const scenarios = [...new Set(raw.map((r) => r.scenario_id))]
  const reductions = scenarios.flatMap((id) => {
    const b = middle(stable.filter((r) => r.mode === 'agent_direct' && r.scenario_id === id).map(metric))
    const c = middle(stable.filter((r) => r.mode === 'ghx' && r.scenario_id === id).map(metric))
    return b > 0 ? [((b - c) / b) * 100] : []
  })
  return middle(reductions)
}

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
const resolved = (decision: 'ci' | 'point', minSamples = 3) => ({
  profile: 'p',
  decision,
  min_samples: minSamples,
  override: null,
  thresholds: THRESHOLDS,
})
const verdicts = (checks: Array<{name: string; verdict: string}>) =>
  Object.fromEntries(checks.map((c) => [c.name, c.verdict]))

/** Scenarios x iterations of both modes, one block per iteration (as the runner interleaves them). */
function paired(
  scenarios: string[],
  iterations: number,
  row: (mode: 'agent_direct' | 'ghx', scenario: string, i: number) => Partial<Row> & {activeTokens?: number},
) {
  const aggregate = emptyAggregate()
  for (const scenario of scenarios) {
    for (let i = 1; i <= iterations; i++)
      for (const mode of ['agent_direct', 'ghx'] as const)
        addRow(aggregate, makeRow({scenario_id: scenario, mode, iteration: i, ...row(mode, scenario, i)}))
  }
  return aggregate
}

describe('gate', () => {
  // ghx-router's rows, for the tests that read them (each leaves itself out without ../shared).
  const aggregate = emptyAggregate()
  before(() => {
    if (existsSync(ROUTER))
      for (const row of routerRows()) addRow(aggregate, fromGhxRouter(row as unknown as Record<string, unknown>))
  })

  it('reproduces the predecessors’ stratified reductions and verify_pr verdict on ghx-router’s data (--decision point)', async function () {
    skipWithoutShared(this, ROUTER)
    const profile = await loadProfile('verify_pr', path.join(PROJECT_ROOT, 'suites'))
    const thresholds = resolveThresholds(profile, 'openai/gpt-5.3-codex', 'point')
    expect(thresholds.override).to.equal('openai/gpt-5.3-codex')
    expect(thresholds.min_samples).to.equal(3)
    const comparison = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 42,
      resamples: 500,
    })
    const e = comparison.efficiency
    expect(e.tokens_active_reduction_pct.median_of_scenarios).to.be.closeTo(
      theirReduction((r) => r.tokens.total - r.tokens.cache_read),
      1e-9,
    )
    expect(e.latency_wall_reduction_pct!.median_of_scenarios).to.be.closeTo(
      theirReduction((r) => r.latency_ms_wall),
      1e-9,
    )
    expect(e.tool_call_reduction_pct.median_of_scenarios).to.be.closeTo(
      theirReduction((r) => r.tool_calls),
      1e-9,
    )
    // The published figures, rounded: 27.5 % active tokens, 22.4 % latency (wall), 16.7 % tool calls.
    expect(e.tokens_active_reduction_pct.median_of_scenarios!.toFixed(1)).to.equal('27.5')
    expect(e.latency_wall_reduction_pct!.median_of_scenarios!.toFixed(1)).to.equal('22.4')
    expect(e.tool_call_reduction_pct.median_of_scenarios!.toFixed(1)).to.equal('16.7')
    expect(e.coverage_pct.value).to.equal(100)

    const {checks, verdict} = evaluateGate(comparison, thresholds)
    const byName = verdicts(checks)
    // Their verify_pr for gpt-5.3-codex: tool calls need >= 20 % and got 16.7 %: FAIL. (Their cost check
    // also failed, on costs recorded as 0; here neither mode has a cost, so it is skipped, and the
    // verdict rests on tool calls alone and is the same.)
    expect(checks.find((c) => c.name === 'efficiency_tool_call_reduction')!.value!.toFixed(1)).to.equal('16.7')
    expect(byName.efficiency_tool_call_reduction).to.equal('fail')
    expect(byName.efficiency_tokens_active_reduction).to.equal('pass')
    expect(byName.efficiency_cost_reduction).to.equal('skipped')
    expect(byName.reliability_success_rate_non_inferior).to.equal('pass')
    expect(verdict).to.equal('fail')
    // Latency is judged on the agent's time (their rule used wall time, checkpoint polling and all); the wall figure is shown beside it.
    const latency = checks.find((c) => c.name === 'efficiency_latency_reduction')!
    expect(latency.value).to.be.closeTo(
      theirReduction((r) => (r as unknown as {latency_ms_agent: number}).latency_ms_agent),
      1e-9,
    )
    expect(latency.detail).to.include('wall-latency reduction 22.4%')
    // The point rule has no interval of its own: none is shown against its figure; the MDE still says what the data can resolve.
    expect(latency.interval).to.equal(null)
    expect(latency.mde).to.be.above(0)
  })

  it('under decision ci the same data is inconclusive: 4 scenarios that differ this much resolve nothing, and 5 runs certify no rate', function () {
    skipWithoutShared(this, ROUTER)
    const first = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 7,
      resamples: 2000,
    })
    const again = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 7,
      resamples: 2000,
    })
    expect(first.efficiency.tokens_active_reduction_pct.interval).to.deep.equal(
      again.efficiency.tokens_active_reduction_pct.interval,
    )
    const tokens = first.efficiency.tokens_active_reduction_pct
    // The scenarios' reductions run from -8% to 57%: most of the uncertainty is between scenarios.
    expect(tokens.log_variance!.between!).to.be.above(tokens.log_variance!.within!)
    expect(tokens.paired_scenarios).to.equal(0) // the predecessors ran each mode in a run of its own
    const [low, high] = tokens.interval as [number, number]
    expect(low).to.be.below(15)
    expect(high).to.be.above(15)
    const {checks, verdict} = evaluateGate(first, resolved('ci'))
    const byName = verdicts(checks)
    expect(byName.efficiency_tokens_active_reduction).to.equal('inconclusive')
    // 0 timeouts in 20 runs: the exact one-sided 95% bound is 1 - 0.05^(1/20) = 13.9%, not the bootstrap's 0%;
    // no count of 20 runs certifies a 2% limit at 5%, and the verdict says how many runs would.
    const timeouts = checks.find((c) => c.name === 'reliability_timeout_stall_rate')!
    expect(timeouts.interval![1]).to.be.closeTo(100 * (1 - 0.05 ** (1 / 20)), 1e-6)
    expect(timeouts.verdict).to.equal('inconclusive')
    expect(timeouts.reason).to.equal('20 runs cannot certify timeouts at most 2%: with none, it takes 149 runs')
    expect(timeouts.rule).to.include('exact binomial test of timeouts at most 2%, one-sided 5%')
    expect(timeouts.mde).to.be.above(10)
    expect(verdict).to.equal('inconclusive')
  })

  it('decision ci decides nothing from cells of fewer than 3 runs, and says which', () => {
    // Every run of the candidate uses half the tokens: a decisive effect, from 2 runs a cell.
    const small = paired(['a-001', 'b-001'], 2, (mode, _scenario, i) => ({
      activeTokens: (mode === 'ghx' ? 500 : 1000) + i,
    }))
    const comparison = compareModes(small, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 1,
      seed: 1,
      resamples: 500,
    })
    const {checks, verdict} = evaluateGate(comparison, resolved('ci', 1))
    const tokens = checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!
    expect(tokens.verdict).to.equal('inconclusive')
    expect(tokens.reason).to.equal(
      'decision ci needs 3 runs per cell; fewer in a-001/agent_direct (2), a-001/ghx (2), b-001/agent_direct (2), b-001/ghx (2)',
    )
    expect(checks.find((c) => c.name === 'reliability_runner_failure_rate')!.reason).to.include(
      'fewer in a-001/ghx (2)',
    )
    expect(verdict).to.equal('inconclusive')
    // The same rows under the point rule: decided.
    expect(verdicts(evaluateGate(comparison, resolved('point', 1)).checks).efficiency_tokens_active_reduction).to.equal(
      'pass',
    )
    // With 3 runs a cell, ci decides.
    const enough = paired(['a-001', 'b-001'], 3, (mode, _scenario, i) => ({
      activeTokens: (mode === 'ghx' ? 500 : 1000) + 7 * i,
    }))
    const decided = evaluateGate(
      compareModes(enough, {baseline: 'agent_direct', candidate: 'ghx', minSamples: 3, seed: 1, resamples: 500}),
      resolved('ci'),
    )
    expect(verdicts(decided.checks).efficiency_tokens_active_reduction).to.equal('pass')
  })

  it('judges cost like the other reductions, the worst scenario beside it', () => {
    const costs: Record<string, [number, number]> = {'a-001': [1.0, 0.5], 'b-001': [1.0, 0.95], 'c-001': [2.0, 1.0]}
    const agg = paired(Object.keys(costs), 3, (mode, scenario, i) => ({
      cost_usd: costs[scenario]![mode === 'ghx' ? 1 : 0] * (1 + i / 100),
    }))
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 1,
      seed: 1,
      resamples: 200,
    })
    const cost = comparison.efficiency.cost_reduction_pct!
    // Per scenario 50%, 5%, 50%: the median 50%, the geometric mean 1 - (0.5 x 0.95 x 0.5)^(1/3) = 38.1%.
    expect(cost.median_of_scenarios).to.be.closeTo(50, 1e-9)
    expect(cost.value).to.be.closeTo(100 * (1 - Math.cbrt(0.5 * 0.95 * 0.5)), 1e-9)
    expect(cost).to.deep.include({worst_scenario: 'b-001', scenarios: 3, missing: null})
    expect(cost.worst_pct).to.be.closeTo(5, 1e-9)
    const check = evaluateGate(comparison, resolved('point', 1)).checks.find(
      (c) => c.name === 'efficiency_cost_reduction',
    )!
    expect(check.verdict).to.equal('pass') // the worst scenario's 5% no longer decides it
    expect(check.detail).to.include('worst scenario b-001 5.0%')
  })

  it('cost in one mode’s rows only is inconclusive with the reason, never a pass; in neither, skipped', () => {
    // The candidate fails every efficiency check it has data for; its rows have no cost.
    const agg = paired(['a-001', 'b-001'], 3, (mode, _scenario, i) => ({
      cost_usd: mode === 'ghx' ? null : 0.1 + i / 100,
      activeTokens: 1000 + i,
    }))
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 1,
      seed: 1,
      resamples: 200,
    })
    expect(comparison.efficiency.cost_reduction_pct).to.deep.include({
      value: null,
      missing: "no ghx run has a cost, while agent_direct's do",
    })
    for (const decision of ['ci', 'point'] as const) {
      const cost = evaluateGate(comparison, resolved(decision, 1)).checks.find(
        (c) => c.name === 'efficiency_cost_reduction',
      )!
      expect(cost.verdict, decision).to.equal('inconclusive')
      expect(cost.reason, decision).to.equal("no ghx run has a cost, while agent_direct's do")
    }
    // Every other check passes under point: the missing cost keeps the gate from passing.
    const passing = paired(['a-001', 'b-001'], 3, (mode, _scenario, i) => ({
      cost_usd: mode === 'ghx' ? null : 0.1,
      activeTokens: mode === 'ghx' ? 400 + i : 1000 + i,
      latency_ms_agent: mode === 'ghx' ? 4000 + i : 9000 + i,
      tool_calls: {total: mode === 'ghx' ? 2 : 5, failed: 0},
    }))
    const gate = evaluateGate(
      compareModes(passing, {baseline: 'agent_direct', candidate: 'ghx', minSamples: 1, seed: 1, resamples: 200}),
      resolved('point', 1),
    )
    expect(gate.checks.filter((c) => c.verdict !== 'pass').map((c) => c.name)).to.deep.equal([
      'efficiency_cost_reduction',
    ])
    expect(gate.verdict).to.equal('inconclusive')
    // Neither mode has a cost: skipped, and the verdict rests on the rest.
    const none = paired(['a-001'], 3, () => ({cost_usd: null}))
    expect(
      compareModes(none, {baseline: 'agent_direct', candidate: 'ghx', minSamples: 1, seed: 1, resamples: 200})
        .efficiency.cost_reduction_pct,
    ).to.equal(null)
  })

  it('judges latency on the agent’s time, the harness’s own time reported beside it', () => {
    // The candidate's agent is faster, its harness slower (an MCP server starting): wall says worse, agent says better.
    const agg = paired(['a-001', 'b-001', 'c-001'], 4, (mode, _scenario, i) =>
      mode === 'ghx'
        ? {latency_ms_agent: 2120 + i, latency_ms_wall: 2120 + i + 5000, latency_ms_harness: 5000}
        : {latency_ms_agent: 2560 + i, latency_ms_wall: 2560 + i + 300, latency_ms_harness: 300},
    )
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 1,
      resamples: 500,
    })
    expect(comparison.efficiency.latency_reduction_pct.value).to.be.closeTo(17.1, 0.2)
    expect(comparison.efficiency.latency_wall_reduction_pct!.value).to.be.below(-100)
    expect(comparison.efficiency.harness_latency_ms).to.deep.equal({baseline: 300, candidate: 5000})
    const latency = evaluateGate(comparison, resolved('ci')).checks.find(
      (c) => c.name === 'efficiency_latency_reduction',
    )!
    expect(latency.verdict).to.equal('pass')
    expect(latency.detail).to.include('harness ms per run 300.0 → 5000.0')
  })

  it('counts runner failures and timeouts over all rows, with Wilson and Newcombe intervals of some width', () => {
    const agg = emptyAggregate()
    addRow(agg, makeRow({mode: 'agent_direct'}))
    addRow(agg, makeRow({mode: 'ghx', iteration: 1, success: false, output_valid: false, outcome: 'timeout'}))
    addRow(
      agg,
      makeRow({mode: 'ghx', iteration: 2, success: false, output_valid: false, outcome: 'infra_error', retries: 1}),
    )
    addRow(agg, makeRow({mode: 'ghx', iteration: 3}))
    addRow(agg, makeRow({mode: 'ghx', iteration: 4}))
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 1,
      seed: 1,
      resamples: 200,
    })
    const r = comparison.reliability
    expect(comparison.efficiency.cost_reduction_pct).to.equal(null)
    expect(r.runner_failure_rate).to.deep.include({value: 50, runs: 4, method: 'wilson'})
    expect(r.timeout_stall_rate.value).to.equal(25)
    expect(r.retry_rate.value).to.equal(25)
    expect(r.success_rate_delta_pp).to.deep.include({value: -50, method: 'newcombe', runs: 1})
    const [low, high] = r.success_rate_delta_pp.interval as [number, number]
    expect(low).to.be.below(-50)
    expect(high).to.be.above(-50)
    // 1 of 1 baseline success: Wilson is no point at 100%.
    expect(
      compareModes(agg, {baseline: 'ghx', candidate: 'agent_direct', minSamples: 1, seed: 1, resamples: 200})
        .reliability.success_rate.interval![0],
    ).to.be.below(30)
  })

  it('a value exactly at its threshold is at it: one comparison with a small relative tolerance', () => {
    // An exact 20% reduction computes as 19.999999999999996; a drop of exactly 3 points as -3.0000000000000027.
    const exact = reductionOfLogRatio(Math.log(0.8))
    expect(exact).to.be.below(20)
    expect(clearsThreshold(exact, '>=', 20)).to.equal(true)
    expect(clearsThreshold(20.000000000000004, '<=', 20)).to.equal(true)
    expect(clearsThreshold(19.99, '>=', 20)).to.equal(false)
    expect(clearsThreshold(0.000001, '<=', 0)).to.equal(false)
    const check = (interval: [number, number]) =>
      judgeCheck(
        {
          name: 'efficiency_tool_call_reduction',
          group: 'efficiency',
          estimate: {
            value: 25,
            interval,
            scenarios: 4,
            paired_scenarios: 4,
            median_of_scenarios: 25,
            worst_scenario: null,
            worst_pct: null,
            missing: null,
            log_variance: null,
          },
          operator: '>=',
          key: 'min_tool_call_reduction_pct',
          threshold: 20,
          smallCells: [],
          detail: '',
        },
        'ci',
      )
    expect(check([exact, 30]).verdict).to.equal('pass')
    // 97 successes in 100 runs against 100 in 100: exactly the 3-point drop verify_pr allows.
    const agg = emptyAggregate()
    for (let i = 1; i <= 100; i++) {
      addRow(agg, makeRow({mode: 'agent_direct', iteration: i}))
      addRow(agg, makeRow({mode: 'ghx', iteration: i, ...(i <= 3 ? {success: false, outcome: 'fail' as const} : {})}))
    }
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 1,
      seed: 1,
      resamples: 200,
    })
    expect(comparison.reliability.success_rate_delta_pp.value).to.be.below(-3)
    const drop = evaluateGate(comparison, resolved('point', 1)).checks.find(
      (c) => c.name === 'reliability_success_rate_non_inferior',
    )!
    expect(drop.verdict).to.equal('pass')
  })

  it('counts of equal runs give an interval of some width and an MDE, not [40, 40] decided with certainty', () => {
    // 5 calls in every baseline run, 3 in every candidate run, in three scenarios alike.
    const agg = paired(['a-001', 'b-001', 'c-001'], 5, (mode, _scenario, i) => ({
      activeTokens: 1000 + i,
      tool_calls: {total: mode === 'ghx' ? 3 : 5, failed: 0},
    }))
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 1,
      resamples: 2000,
    })
    const calls = evaluateGate(comparison, resolved('ci')).checks.find(
      (c) => c.name === 'efficiency_tool_call_reduction',
    )!
    expect(calls.value).to.be.closeTo(40, 1e-9)
    const [low, high] = calls.interval as [number, number]
    expect(high - low).to.be.above(5)
    expect(low).to.be.below(40)
    expect(high).to.be.above(40)
    expect(calls.mde).to.be.above(2)
  })

  it('a scenario with no call in one mode counts: a regression from 0 calls counts against the candidate', () => {
    // a-001: the baseline makes no call, the candidate 2 a run (3 in its last); b-001 and c-001: 5 calls down to 3 (4).
    const calls: Record<string, [number, number]> = {'a-001': [0, 2], 'b-001': [5, 3], 'c-001': [5, 3]}
    const agg = paired(Object.keys(calls), 5, (mode, scenario, i) => ({
      activeTokens: 1000 + i,
      tool_calls: {total: calls[scenario]![mode === 'ghx' ? 1 : 0] + (mode === 'ghx' && i === 5 ? 1 : 0), failed: 0},
    }))
    const comparison = compareModes(agg, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 1,
      resamples: 2000,
    })
    const reduction = comparison.efficiency.tool_call_reduction_pct
    expect(reduction.scenarios).to.equal(3)
    expect(comparison.scenarios.find((s) => s.scenario_id === 'a-001')!.effect_pct!.tool_calls).to.be.below(-200)
    // Dropped, a-001 left 36% (b and c alone: 3.2 calls against 5), a pass; counted, the suite regresses.
    expect(reduction.value).to.be.below(0)
    const check = evaluateGate(comparison, resolved('ci')).checks.find(
      (c) => c.name === 'efficiency_tool_call_reduction',
    )!
    expect(check.verdict).to.not.equal('pass')
    // The predecessors' figure is theirs: (b - c) / b has no value at b = 0, and they left the scenario out.
    expect(reduction.median_of_scenarios).to.be.closeTo(40, 1e-9) // the medians, 5 and 3
  })

  it('one candidate run at 100x its tokens moves the verdict far less than it did', () => {
    // Four scenarios of 5 paired runs, the candidate at 60% of the baseline's tokens, give or take 10%.
    const wiggle = (s: string, i: number, mode: string) =>
      1 + 0.1 * Math.sin(7 * i + 3 * s.charCodeAt(0) + (mode === 'ghx' ? 1 : 0))
    const tokens = (runaway: boolean) => (mode: 'agent_direct' | 'ghx', scenario: string, i: number) => ({
      activeTokens: Math.round(
        (mode === 'ghx' ? 6000 : 10000) *
          wiggle(scenario, i, mode) *
          (runaway && mode === 'ghx' && scenario === 'a-001' && i === 3 ? 100 : 1),
      ),
    })
    const gate = (runaway: boolean) => {
      const comparison = compareModes(paired(['a-001', 'b-001', 'c-001', 'd-001'], 5, tokens(runaway)), {
        baseline: 'agent_direct',
        candidate: 'ghx',
        minSamples: 3,
        seed: 1,
        resamples: 2000,
      })
      return evaluateGate(comparison, resolved('ci')).checks.find(
        (c) => c.name === 'efficiency_tokens_active_reduction',
      )!
    }
    const [clean, runaway] = [gate(false), gate(true)]
    expect(clean.value).to.be.closeTo(40, 1)
    expect(clean.verdict).to.equal('pass')
    // The mean of the logs moved the suite's θ by log(100) / 5 / 4 = 0.23: 40% became 24%, its interval
    // [-34%, 56%], inconclusive. Huber's location moves it by less than a point: 39% [36%, 42%].
    expect(clean.value! - runaway.value!).to.be.below(2)
    expect(runaway.verdict).to.equal('pass')
  })

  it('gives identical output for the same rows in any order (blocks numbered by run id and iteration, runs in a canonical order)', () => {
    const rows = syntheticRows(mulberry32(3), {
      scenarios: 4,
      repetitions: 6,
      point: 'double',
      group: 'efficiency',
      thresholds: THRESHOLDS,
      model: DEFAULT_MODEL,
    }).map((row) => ({
      ...row,
      // Two runs, the one whose id sorts last first in the file; scenario-01's candidate ran apart (unpaired).
      run_id: row.iteration <= 3 ? 'run-z' : 'run-a',
      iteration: row.scenario_id === 'scenario-01' && row.mode === 'candidate' ? row.iteration + 100 : row.iteration,
    }))
    const output = (order: Row[]) => {
      const aggregate = emptyAggregate()
      for (const row of order) addRow(aggregate, row)
      const comparison = compareModes(aggregate, {
        baseline: 'agent_direct',
        candidate: 'candidate',
        minSamples: 3,
        seed: 9,
        resamples: 500,
      })
      return JSON.stringify({comparison, gate: evaluateGate(comparison, resolved('ci'))})
    }
    const random = mulberry32(4)
    const shuffled = rows
      .map((row) => ({row, key: random()}))
      .sort((a, b) => a.key - b.key)
      .map(({row}) => row)
    const original = output(rows)
    expect(output(shuffled)).to.equal(original)
    expect(output([...rows].reverse())).to.equal(original)
  })

  describe('sized reliability rules (issue 26)', () => {
    /** 4 scenarios x 20 of both modes, the candidate with `events` runs of the given kind. */
    function reliabilityGate(events: number, outcome: 'timeout' | 'fail', thresholds = THRESHOLDS) {
      let left = events
      const aggregate = paired(['a-001', 'b-001', 'c-001', 'd-001'], 20, (mode) => {
        if (mode !== 'ghx' || left === 0) return {}
        left--
        return {outcome, success: false}
      })
      const comparison = compareModes(aggregate, {
        baseline: 'agent_direct',
        candidate: 'ghx',
        minSamples: 3,
        seed: 1,
        resamples: 200,
      })
      return evaluateGate(comparison, {...resolved('ci'), thresholds})
    }
    const sized = {
      ...THRESHOLDS,
      max_timeout_stall_rate_pct: 8,
      max_runner_failure_rate_pct: 10,
      max_success_rate_drop_pct: 12,
      min_output_validity_rate_pct: 90,
    }
    const check = (gate: ReturnType<typeof reliabilityGate>, name: string) => gate.checks.find((c) => c.name === name)!

    it('timeouts <= 8% at 80 runs: pass with at most 2, inconclusive between, fail from the count a candidate at 8% reaches 5% of the time', () => {
      const rule =
        'exact binomial test of timeouts at most 8%, one-sided 5%: passes with at most 2 in 80, fails from 12'
      expect(check(reliabilityGate(2, 'timeout', sized), 'reliability_timeout_stall_rate')).to.deep.include({
        verdict: 'pass',
        rule,
      })
      const three = check(reliabilityGate(3, 'timeout', sized), 'reliability_timeout_stall_rate')
      expect(three).to.deep.include({
        verdict: 'inconclusive',
        reason: '3 timeouts in 80: passes with at most 2, fails from 12',
      })
      expect(check(reliabilityGate(12, 'timeout', sized), 'reliability_timeout_stall_rate').verdict).to.equal('fail')
      // The predecessors' 2% limit: no count of 80 runs certifies it, and the verdict says so.
      expect(check(reliabilityGate(0, 'timeout'), 'reliability_timeout_stall_rate').reason).to.equal(
        '80 runs cannot certify timeouts at most 2%: with none, it takes 149 runs',
      )
      // Under point the rate itself decides, as the predecessors judged it.
      const point = evaluateGate(
        compareModes(
          paired(['a-001'], 5, () => ({})),
          {baseline: 'agent_direct', candidate: 'ghx', minSamples: 3, seed: 1, resamples: 200},
        ),
        resolved('point'),
      )
      expect(check(point, 'reliability_timeout_stall_rate')).to.deep.include({verdict: 'pass', rule: null})
    })

    it('output validity is judged as its share of invalid outputs', () => {
      const aggregate = paired(['a-001', 'b-001', 'c-001', 'd-001'], 20, (mode, _s, i) =>
        mode === 'ghx' && i === 1 ? {output_valid: false} : {},
      )
      const gate = evaluateGate(
        compareModes(aggregate, {baseline: 'agent_direct', candidate: 'ghx', minSamples: 3, seed: 1, resamples: 200}),
        {...resolved('ci'), thresholds: sized},
      )
      const validity = check(gate, 'reliability_output_validity')
      // 4 invalid of 80 (95% valid): at most 3 pass a 10% limit.
      expect(validity).to.deep.include({value: 95, verdict: 'inconclusive'})
      expect(validity.rule).to.include('invalid outputs at most 10%')
      expect(validity.interval![1]).to.be.at.most(100)
      expect(validity.interval![0]).to.be.below(95)
    })

    it('the success drop is a one-sided non-inferiority test: an equal candidate passes a 12-point margin at 80 runs, a candidate at the margin at most 5% of the time (exactly)', () => {
      // 76 of 80 against 80 of 80 is within the margin; 68 of 80 (15 points down) may or may not be. The runs are paired.
      expect(check(reliabilityGate(4, 'fail', sized), 'reliability_success_rate_non_inferior')).to.deep.include({
        verdict: 'pass',
        rule: 'non-inferiority of the success rate, margin 12 points, one-sided 5% (paired: 80 blocks run by both modes, 4 pass→fail and 0 fail→pass; Tango’s score statistic, its exact unconditional p-value; the interval Tango’s at 90%)',
      })
      expect(check(reliabilityGate(12, 'fail', sized), 'reliability_success_rate_non_inferior').verdict).to.equal(
        'inconclusive',
      )
      expect(check(reliabilityGate(30, 'fail', sized), 'reliability_success_rate_non_inferior').verdict).to.equal(
        'fail',
      )
      const n = 80
      const pmf = (k: number, p: number) =>
        Math.exp(logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p))
      let falsePass = 0
      let power = 0
      for (let c = 0; c <= n; c++) {
        for (let b = 0; b <= n; b++) {
          const passes =
            judgeSuccessDrop({candidate: c, candidateRuns: n, baseline: b, baselineRuns: n}, 12, 0.05, (v) => v >= -12)
              .verdict === 'pass'
          if (!passes) continue
          falsePass += pmf(c, 0.83) * pmf(b, 0.95)
          power += pmf(c, 0.95) * pmf(b, 0.95)
        }
      }
      expect(falsePass).to.be.at.most(0.05)
      expect(power).to.be.above(0.9)
    })

    it('the success drop uses the paired test where the runner paired the runs, Newcombe’s where it did not, and says which', () => {
      // The same outcomes: 4 scenarios x 20, the candidate failing 6 runs, the baseline 3 (blocks apart from the candidate's).
      const outcome = (mode: 'agent_direct' | 'ghx', s: string, i: number) =>
        (mode === 'ghx' && s === 'a-001' && i <= 6) || (mode === 'agent_direct' && s === 'b-001' && i <= 3)
          ? {success: false, outcome: 'fail' as const}
          : {}
      const pairedRows = paired(['a-001', 'b-001', 'c-001', 'd-001'], 20, outcome)
      // Modes run one after the other (the predecessors' rows): another run id, so no block holds both modes.
      const apart = emptyAggregate()
      for (const scenario of ['a-001', 'b-001', 'c-001', 'd-001'])
        for (let i = 1; i <= 20; i++)
          for (const mode of ['agent_direct', 'ghx'] as const)
            addRow(
              apart,
              makeRow({
                scenario_id: scenario,
                mode,
                iteration: i,
                run_id: `run-${mode}`,
                ...outcome(mode, scenario, i),
              }),
            )
      const gateOf = (aggregate: ReturnType<typeof emptyAggregate>) => {
        const comparison = compareModes(aggregate, {
          baseline: 'agent_direct',
          candidate: 'ghx',
          minSamples: 3,
          seed: 1,
          resamples: 200,
        })
        return {
          comparison,
          check: check(
            evaluateGate(comparison, {...resolved('ci'), thresholds: sized}),
            'reliability_success_rate_non_inferior',
          ),
        }
      }
      const both = gateOf(pairedRows)
      // Counted independently: 6 blocks the candidate failed alone, 3 the baseline failed alone, none both.
      expect(both.comparison.reliability.success_rate_delta_pp).to.deep.include({
        method: 'tango',
        paired: {pairs: 80, pass_to_fail: 6, fail_to_pass: 3},
      })
      expect(both.check.rule).to.include('paired: 80 blocks run by both modes, 6 pass→fail and 3 fail→pass')
      const expected = pairedNonInferiority(3, 6, 80, 0.12)
      expect(both.check.verdict).to.equal(expected.non_inferior <= 0.05 ? 'pass' : 'inconclusive')
      const [low, high] = tangoInterval(3, 6, 80, 1.6448536269514722)
      expect(both.check.interval![0]).to.be.closeTo(100 * low, 1e-9)
      expect(both.check.interval![1]).to.be.closeTo(100 * high, 1e-9)
      const alone = gateOf(apart)
      expect(alone.comparison.reliability.success_rate_delta_pp).to.deep.include({method: 'newcombe', paired: null})
      expect(alone.check.rule).to.include('Newcombe’s hybrid score interval at 90%, the runs not paired')
      // A block with two runs of a mode is no pair: the whole difference is judged unpaired.
      const repeated = paired(['a-001', 'b-001', 'c-001', 'd-001'], 20, outcome)
      addRow(repeated, makeRow({scenario_id: 'a-001', mode: 'ghx', iteration: 1}))
      expect(gateOf(repeated).comparison.reliability.success_rate_delta_pp.paired).to.equal(null)
    })

    it('a suite states what its gate can certify at its size, and warns when it cannot pass', () => {
      const profile = {name: 'verify_pr', decision: 'ci', estimand: 'suite', min_samples: 3, thresholds: sized}
      expect(gateSizeWarnings('verify-pr', profile, 6, 20, MIN_POPULATION_SCENARIOS, 3)).to.deep.equal([])
      const small = gateSizeWarnings('verify-pr', profile, 6, 5, MIN_POPULATION_SCENARIOS, 3)
      expect(
        small.some(
          (w) =>
            w.includes('reliability_timeout_stall_rate') &&
            w.includes('30 runs cannot pass it (with none, it takes 36 runs)'),
        ),
      ).to.equal(true)
      expect(
        gateSizeWarnings('r', {...profile, estimand: 'population'}, 6, 20, MIN_POPULATION_SCENARIOS, 3),
      ).to.deep.equal([
        'suite r has 6 scenarios: its gate verify_pr judges the population estimand, refused below 10 scenarios (add scenarios, or judge these with estimand suite)',
      ])
      expect(gateSizeWarnings('r', {...profile, decision: 'point'}, 1, 1, MIN_POPULATION_SCENARIOS, 3)).to.deep.equal(
        [],
      )
      const lines = capacity(sized, 80, 0.05)
      expect(lines.find((l) => l.check === 'reliability_runner_failure_rate')).to.deep.include({
        certifiable: true,
        rule: 'exact binomial test of runner failures at most 10%, one-sided 5%: passes with at most 3 in 80, fails from 14',
      })
    })
  })

  describe('the estimand (issue 26)', () => {
    it('suite: the effect on these scenarios, from their runs alone, with the spread, a prediction interval and the worst scenario beside it', async function () {
      skipWithoutShared(this, ROUTER)
      const options = {baseline: 'agent_direct', candidate: 'ghx', minSamples: 3, seed: 7, resamples: 2000}
      const suite = compareModes(aggregate, {...options, estimand: 'suite'})
      const population = compareModes(aggregate, {...options, estimand: 'population'})
      const [s, p] = [suite.efficiency.tokens_active_reduction_pct, population.efficiency.tokens_active_reduction_pct]
      expect(s.value).to.equal(p.value)
      expect(s.estimand).to.equal('suite')
      const [[sLow, sHigh], [pLow, pHigh]] = [s.interval as [number, number], p.interval as [number, number]]
      expect(sHigh - sLow).to.be.below((pHigh - pLow) / 2)
      // ghx-router's four scenarios differ by about 0.5 on the log scale (net of run noise).
      expect(s.between_sd).to.be.closeTo(Math.sqrt(s.log_variance!.between!), 1e-12)
      expect(s.between_sd).to.be.above(0.3)
      const [low, high] = s.prediction_interval as [number, number]
      expect(low).to.be.below(sLow)
      expect(high).to.be.above(sHigh)
      // On their rows the fixed-suite estimand passes tokens, latency and tool calls, which the population's leaves inconclusive.
      const profile = await loadProfile('verify_pr', path.join(PROJECT_ROOT, 'suites'))
      const thresholds = resolveThresholds(profile, 'openai/gpt-5.3-codex')
      expect(thresholds.estimand).to.equal('suite')
      const judged = verdicts(evaluateGate(suite, thresholds).checks)
      const populationJudged = verdicts(evaluateGate(population, {...thresholds, estimand: 'population'}).checks)
      for (const name of [
        'efficiency_tokens_active_reduction',
        'efficiency_latency_reduction',
        'efficiency_tool_call_reduction',
      ]) {
        expect(judged[name], name).to.equal('pass')
        expect(populationJudged[name], name).to.equal('inconclusive')
      }
      const tokens = evaluateGate(suite, thresholds).checks.find(
        (c) => c.name === 'efficiency_tokens_active_reduction',
      )!
      expect(tokens.detail).to.match(
        /on these scenarios .*worst scenario .*spread between scenarios τ 0\.\d\d .*a scenario like these \[/,
      )
    })

    it('population: refused below 10 scenarios under ci, with the reason', function () {
      skipWithoutShared(this, ROUTER)
      const comparison = compareModes(aggregate, {
        baseline: 'agent_direct',
        candidate: 'ghx',
        minSamples: 3,
        seed: 7,
        resamples: 500,
        estimand: 'population',
      })
      const tokens = evaluateGate(comparison, {...resolved('ci'), estimand: 'population'}).checks.find(
        (c) => c.name === 'efficiency_tokens_active_reduction',
      )!
      expect(tokens.verdict).to.equal('inconclusive')
      expect(tokens.reason).to.equal(
        'the population estimand (the effect over scenarios like these) needs at least 10 scenarios, and 4 compared: judge these scenarios with estimand suite, or add scenarios',
      )
      expect(
        evaluateGate(comparison, {...resolved('point'), estimand: 'population'}).checks.find(
          (c) => c.name === 'efficiency_tokens_active_reduction',
        )!.verdict,
      ).to.equal('pass')
    })
  })
})
