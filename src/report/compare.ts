/**
 * A candidate mode against the baseline mode: the reliability rates of the candidate and the
 * efficiency reductions on the stable sample, each with a seeded stratified bootstrap interval.
 * The report's deltas and the gate's checks are both this one computation.
 *
 * Efficiency follows the predecessors' stratified rule: per eligible scenario (at least min_samples
 * stable rows in both modes) the median of each mode, the reduction (b - c) / b * 100 where b > 0,
 * and the suite value the median of those reductions. Cost is judged by its worst scenario.
 */
import {bootstrap, medianSampler, rateSampler, type CellSampler} from '../stats/bootstrap.js'
import {reductionPct} from '../stats/descriptive.js'
import {finite, percentileOfSorted} from '../stats/quantiles.js'
import type {Random} from '../stats/random.js'
import type {FromSchema} from 'json-schema-to-ts'
import type {comparisonSchema} from './report-schema.js'
import {modeCells, stableSorted, type Aggregate, type Cell} from './aggregate.js'

export type Comparison = FromSchema<typeof comparisonSchema>
export type Estimate = Comparison['reliability']['success_rate']
export type ScenarioComparison = Comparison['scenarios'][number]
type Reduction = Comparison['efficiency']['tokens_active_reduction_pct']
type CostReduction = NonNullable<Comparison['efficiency']['cost_reduction_pct']>

export const EFFICIENCY_METRICS = ['tokens_active', 'latency_wall', 'tool_calls', 'cost'] as const
export type EfficiencyMetric = (typeof EFFICIENCY_METRICS)[number]

export interface CompareOptions {
  baseline: string
  candidate: string
  minSamples: number
  seed: number
  resamples: number
}

type RateField = 'successes' | 'output_valid' | 'runner_failures' | 'timeouts' | 'retried'

export function compareModes(aggregate: Aggregate, options: CompareOptions): Comparison {
  const base = modeCells(aggregate, options.baseline)
  const cand = modeCells(aggregate, options.candidate)
  const boot = (offset: number, replicate: (random: Random) => number): [number | null, number | null] => {
    const [low, high] = bootstrap(replicate, {seed: options.seed + offset, resamples: options.resamples}).interval
    return [finite(low), finite(high)]
  }
  const rate = (cells: Cell[], field: RateField, offset: number): Estimate => {
    const pooled = pooledRate(cells, field)
    return {value: finite(pooled.value * 100), interval: boot(offset, (random) => pooled.draw(random) * 100)}
  }
  const success = rate(cand, 'successes', 2)
  const pooled = pooledRate(base, 'successes')
  const candPooled = pooledRate(cand, 'successes')
  const delta: Estimate = {
    value: finite((candPooled.value - pooled.value) * 100),
    interval: boot(1, (random) => (candPooled.draw(random) - pooled.draw(random)) * 100),
  }

  const baseByScenario = new Map(base.map((c) => [c.scenario, c]))
  const candByScenario = new Map(cand.map((c) => [c.scenario, c]))
  const scenarioIds = [...new Set([...baseByScenario.keys(), ...candByScenario.keys()])].sort()
  const scenarios = scenarioIds.map((id) => scenarioComparison(id, baseByScenario.get(id), candByScenario.get(id), options.minSamples))
  const eligible = scenarios.filter((s) => s.eligible)
  const reduction = (metric: EfficiencyMetric, offset: number, combine: 'median' | 'min'): CostReduction => {
    const defined = eligible.filter((s) => s.reduction_pct[metric] !== null)
    const pairs = defined.map((s): [CellSampler, CellSampler] => [
      medianSampler(stableSorted(baseByScenario.get(s.scenario_id)!, metric)),
      medianSampler(stableSorted(candByScenario.get(s.scenario_id)!, metric)),
    ])
    const values = defined.map((s) => s.reduction_pct[metric]!)
    const value = combineValues(values, combine)
    const worst = combine === 'min' && defined.length > 0 ? defined[values.indexOf(value)]!.scenario_id : null
    const interval = defined.length === 0 ? null : boot(offset, replicateReductions(pairs, combine))
    return {value: finite(value), interval, scenarios: defined.length, worst_scenario: worst}
  }
  const withoutWorst = ({worst_scenario: _w, ...rest}: CostReduction): Reduction => rest
  const cost = reduction('cost', 13, 'min')
  return {
    baseline: options.baseline,
    candidate: options.candidate,
    min_samples: options.minSamples,
    reliability: {
      success_rate_delta_pp: delta,
      success_rate: success,
      output_validity_rate: rate(cand, 'output_valid', 3),
      runner_failure_rate: rate(cand, 'runner_failures', 4),
      timeout_stall_rate: rate(cand, 'timeouts', 5),
      retry_rate: rate(cand, 'retried', 6),
    },
    efficiency: {
      total_scenarios: scenarioIds.length,
      eligible_scenarios: eligible.length,
      coverage_pct: {value: scenarioIds.length === 0 ? null : (eligible.length / scenarioIds.length) * 100, interval: null},
      tokens_active_reduction_pct: withoutWorst(reduction('tokens_active', 10, 'median')),
      latency_reduction_pct: withoutWorst(reduction('latency_wall', 11, 'median')),
      tool_call_reduction_pct: withoutWorst(reduction('tool_calls', 12, 'median')),
      cost_reduction_pct: aggregate.has_cost && cost.scenarios > 0 ? cost : null,
    },
    scenarios,
  }
}

/** A mode's rate over all its rows, and a stratified bootstrap draw of it (each scenario resampled alone). */
function pooledRate(cells: Cell[], field: RateField): {value: number; draw: CellSampler} {
  const runs = cells.reduce((sum, c) => sum + c.runs, 0)
  const samplers = cells.map((c) => rateSampler(c[field], c.runs))
  const weights = cells.map((c) => c.runs)
  return {
    value: cells.reduce((sum, c) => sum + c[field], 0) / runs,
    draw: (random) => {
      let sum = 0
      for (let i = 0; i < samplers.length; i++) sum += samplers[i]!(random) * weights[i]!
      return sum / runs
    },
  }
}

/** One replicate of a suite reduction: each scenario's medians drawn, reduced, then combined (no allocation). */
function replicateReductions(pairs: Array<[CellSampler, CellSampler]>, combine: 'median' | 'min'): (random: Random) => number {
  const buffer = new Float64Array(pairs.length)
  return (random) => {
    let count = 0
    for (const [baseline, candidate] of pairs) {
      const value = reductionPct(baseline(random), candidate(random))
      if (Number.isFinite(value)) buffer[count++] = value
    }
    if (count === 0) return Number.NaN
    const defined = buffer.subarray(0, count)
    return combine === 'min' ? Math.min(...defined) : percentileOfSorted(defined.sort(), 50)
  }
}

function combineValues(values: number[], combine: 'median' | 'min'): number {
  const defined = values.filter(Number.isFinite)
  if (defined.length === 0) return Number.NaN
  if (combine === 'min') return Math.min(...defined)
  return percentileOfSorted(Float64Array.from(defined).sort(), 50)
}

function scenarioComparison(id: string, base: Cell | undefined, cand: Cell | undefined, minSamples: number): ScenarioComparison {
  const medians = (cell: Cell | undefined) =>
    Object.fromEntries(EFFICIENCY_METRICS.map((m) => [m, cell ? percentileOfSorted(stableSorted(cell, m), 50) : Number.NaN])) as Record<EfficiencyMetric, number>
  const nullable = (values: Record<EfficiencyMetric, number>) =>
    Object.fromEntries(EFFICIENCY_METRICS.map((m) => [m, finite(values[m])])) as Record<EfficiencyMetric, number | null>
  const b = medians(base)
  const c = medians(cand)
  const eligible = (base?.stable_runs ?? 0) >= minSamples && (cand?.stable_runs ?? 0) >= minSamples
  return {
    scenario_id: id,
    baseline_stable_runs: base?.stable_runs ?? 0,
    candidate_stable_runs: cand?.stable_runs ?? 0,
    eligible,
    baseline: nullable(b),
    candidate: nullable(c),
    reduction_pct: nullable(Object.fromEntries(EFFICIENCY_METRICS.map((m) => [m, eligible ? reductionPct(b[m], c[m]) : Number.NaN])) as Record<EfficiencyMetric, number>),
  }
}
