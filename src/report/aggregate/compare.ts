/**
 * A candidate mode against the baseline mode: the reliability rates of the candidate and the
 * efficiency reductions on the stable sample, each with an interval. The report's deltas and the
 * gate's checks are both this one computation.
 *
 * Rates: the candidate's rates over all its runs with Wilson score intervals, the success-rate
 * difference with Newcombe's interval (src/stats/rates.ts): neither has zero width, whatever the
 * count. Efficiency (src/stats/log-ratio.ts): per eligible scenario (at least min_samples stable runs
 * in both modes) the log ratio of the modes' geometric means (tool calls, small counts: plain
 * means), each robust (Huber's), its variance floored at the metric's RESOLUTION, paired by
 * iteration block where the runner interleaved the modes (blocks numbered by run id, not by the rows' order); the suite value is the mean over scenarios, as a reduction in %, with a
 * hierarchical bootstrap interval (scenarios, then runs). The latency judged is the agent's time; the
 * harness's own time (wall - agent) is reported beside it, with the wall-latency reduction. Cost is a
 * reduction like the others, its worst scenario shown beside it.
 *
 * Each reduction also carries the predecessors' figure, `median_of_scenarios`: per scenario the
 * reduction of the medians, (b - c) / b × 100 where b > 0, and the median over scenarios. `--decision
 * point` judges that figure, so their published numbers reproduce.
 */
import {bootstrap, type CellSampler} from '../../stats/bootstrap.js'
import {reductionPct} from '../../stats/descriptive.js'
import {
  reductionOfLogRatio,
  scenarioEffect,
  sharedBlocks,
  suiteEffect,
  type Average,
  type Estimand,
  type ScenarioEffect,
} from '../../stats/log-ratio.js'
import {finite, percentileOfSorted} from '../../stats/quantiles.js'
import {exactMcNemar, holmAdjust, tangoInterval} from '../../stats/paired-flips.js'
import {newcombeInterval, wilsonInterval} from '../../stats/rates.js'
import {zOfConfidence} from '../../stats/special.js'
import type {FromSchema} from 'json-schema-to-ts'
import type {comparisonSchema} from './report-schema.js'
import {
  anyPositive,
  canonicalBlockKeys,
  modeCells,
  runRanks,
  stableMedian,
  stableSample,
  withAllSorted,
  type Aggregate,
  type Cell,
} from './aggregate.js'

export type Comparison = FromSchema<typeof comparisonSchema>
export type Estimate = Comparison['reliability']['success_rate']
export type Reduction = Comparison['efficiency']['tokens_active_reduction_pct']
type ScenarioComparison = Comparison['scenarios'][number]

/** The metrics compared per scenario; the gate judges all but latency_wall. */
export const EFFICIENCY_METRICS = ['tokens_active', 'latency_agent', 'latency_wall', 'tool_calls', 'cost'] as const
export type EfficiencyMetric = (typeof EFFICIENCY_METRICS)[number]

export const DEFAULT_CONFIDENCE = 0.95

/**
 * The smallest difference between two runs a metric's rows tell apart: counts (tokens, tool calls) and
 * milliseconds by 1, cost by a millionth of a dollar (about an input token's price). It floors a
 * scenario's variance, so a cell of equal runs does not read as infinitely precise (src/stats/log-ratio.ts).
 */
const RESOLUTION: Record<EfficiencyMetric, number> = {
  tokens_active: 1,
  latency_agent: 1,
  latency_wall: 1,
  tool_calls: 1,
  cost: 1e-6,
}

/** Tool calls are small counts: their runs are averaged plainly (src/stats/log-ratio.ts says why); the rest geometrically. */
function averageOf(metric: EfficiencyMetric): Average {
  return metric === 'tool_calls' ? 'arithmetic' : 'geometric'
}

export interface CompareOptions {
  baseline: string
  candidate: string
  minSamples: number
  seed: number
  resamples: number
  /** Confidence of every interval (default 0.95); a sequential look asks for a higher one. */
  confidence?: number
  /** What the reductions' intervals cover (src/stats/log-ratio.ts): these scenarios, or scenarios like them (default). */
  estimand?: Estimand
}

type RateField = 'successes' | 'output_valid' | 'runner_failures' | 'timeouts' | 'retried'

/** Bootstrap seed offsets, one per reduction, so each interval has its own stream (the seed is recorded). */
const SEED_OFFSETS: Record<EfficiencyMetric, number> = {
  tokens_active: 10,
  latency_agent: 11,
  tool_calls: 12,
  cost: 13,
  latency_wall: 14,
}

export function compareModes(aggregate: Aggregate, options: CompareOptions): Comparison {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE
  const estimand = options.estimand ?? 'population'
  const z = zOfConfidence(confidence)
  const base = modeCells(aggregate, options.baseline)
  const cand = modeCells(aggregate, options.candidate)
  const pooled = (cells: Cell[], field: RateField) => ({
    count: cells.reduce((n, c) => n + c[field], 0),
    runs: cells.reduce((n, c) => n + c.runs, 0),
  })
  const rate = (field: RateField): Estimate => {
    const {count, runs} = pooled(cand, field)
    const [low, high] = wilsonInterval(count, runs, z)
    return {
      value: runs === 0 ? null : (count / runs) * 100,
      interval: runs === 0 ? null : [low * 100, high * 100],
      runs,
      count,
      method: 'wilson',
    }
  }
  const fallbacks = (cells: Cell[]) => ({
    runs: cells.reduce((n, c) => n + c.runs, 0),
    recorded: cells.reduce((n, c) => n + c.fallback_recorded, 0),
    fallbacks: cells.reduce((n, c) => n + c.fallbacks, 0),
    passes: cells.reduce((n, c) => n + c.fallback_passes, 0),
  })
  const candFallbacks = fallbacks(cand)
  const [fallbackLow, fallbackHigh] = wilsonInterval(candFallbacks.fallbacks, candFallbacks.recorded, z)
  const candSuccess = pooled(cand, 'successes')
  const baseSuccess = pooled(base, 'successes')
  const paired = successPairs(base, cand)
  // Paired runs (the runner's blocks, one run of each mode): Tango's interval, where what a block shares cancels.
  const [low, high] = paired
    ? tangoInterval(paired.fail_to_pass, paired.pass_to_fail, paired.pairs, z)
    : newcombeInterval(candSuccess.count, candSuccess.runs, baseSuccess.count, baseSuccess.runs, z)
  const delta: Estimate = {
    value:
      candSuccess.runs === 0 || baseSuccess.runs === 0
        ? null
        : (candSuccess.count / candSuccess.runs - baseSuccess.count / baseSuccess.runs) * 100,
    interval: Number.isFinite(low) ? [low * 100, high * 100] : null,
    runs: Math.min(candSuccess.runs, baseSuccess.runs),
    // The counts, for the gate's one-sided non-inferiority test (gate.ts).
    count: candSuccess.count,
    candidate_runs: candSuccess.runs,
    baseline_count: baseSuccess.count,
    baseline_runs: baseSuccess.runs,
    paired,
    method: paired ? 'tango' : 'newcombe',
  }

  const baseByScenario = new Map(base.map((c) => [c.scenario, c]))
  const candByScenario = new Map(cand.map((c) => [c.scenario, c]))
  const scenarioIds = [...new Set([...baseByScenario.keys(), ...candByScenario.keys()])].sort()
  const ranks = runRanks(aggregate)
  const compared = scenarioIds.map((id) =>
    scenarioComparison(id, baseByScenario.get(id), candByScenario.get(id), options.minSamples, ranks),
  )
  const scenarios = withHolm(compared.map((c) => c.summary))
  const eligible = compared.filter((c) => c.summary.eligible)
  const reduction = (metric: EfficiencyMetric): Reduction => {
    const withEffect = eligible.filter((c) => c.effects[metric] !== null)
    const suite = suiteEffect(
      withEffect.map((c) => c.effects[metric]!),
      {confidence, resamples: options.resamples, seed: options.seed + SEED_OFFSETS[metric], estimand},
    )
    const medians = eligible.map((c) => c.summary.reduction_pct[metric] ?? null).filter((v): v is number => v !== null)
    let worst: {scenario: string; pct: number} | null = null
    for (const c of eligible) {
      const pct = c.summary.reduction_pct[metric] ?? null
      if (pct !== null && (worst === null || pct < worst.pct)) worst = {scenario: c.summary.scenario_id, pct}
    }
    const [thetaLow, thetaHigh] = suite.interval
    const missing = missingSide(base, cand, metric, options)
    // A mode without the metric (cost 0 or null in every run) has no ratio: no value to show, the reason instead.
    if (missing)
      return {
        value: null,
        interval: null,
        scenarios: 0,
        paired_scenarios: 0,
        median_of_scenarios: null,
        worst_scenario: null,
        worst_pct: null,
        missing,
        log_variance: null,
        estimand,
        between_sd: null,
        prediction_interval: null,
      }
    const [predictionLow, predictionHigh] = suite.prediction
    return {
      value: finite(reductionOfLogRatio(suite.theta)),
      // A higher log ratio is a smaller reduction: the bounds swap.
      interval:
        Number.isFinite(thetaLow) && Number.isFinite(thetaHigh)
          ? [reductionOfLogRatio(thetaHigh), reductionOfLogRatio(thetaLow)]
          : null,
      scenarios: withEffect.length,
      paired_scenarios: withEffect.filter((c) => c.effects[metric]!.paired).length,
      median_of_scenarios:
        medians.length === 0 ? null : finite(percentileOfSorted(Float64Array.from(medians).sort(), 50)),
      worst_scenario: worst?.scenario ?? null,
      worst_pct: worst?.pct ?? null,
      missing: null,
      log_variance:
        suite.scenarios === 0
          ? null
          : {between: finite(suite.between), within: finite(suite.within), df: finite(suite.df)},
      estimand,
      between_sd: suite.scenarios === 0 ? null : finite(Math.sqrt(suite.between)),
      prediction_interval:
        Number.isFinite(predictionLow) && Number.isFinite(predictionHigh)
          ? [reductionOfLogRatio(predictionHigh), reductionOfLogRatio(predictionLow)]
          : null,
    }
  }
  const costPresent = [anyPositive(base, 'cost'), anyPositive(cand, 'cost')]
  const harness = (cells: Cell[]) => finite(stableMedian(cells, 'latency_harness'))
  return {
    baseline: options.baseline,
    candidate: options.candidate,
    min_samples: options.minSamples,
    confidence,
    reliability: {
      success_rate_delta_pp: delta,
      success_rate: rate('successes'),
      output_validity_rate: rate('output_valid'),
      runner_failure_rate: rate('runner_failures'),
      timeout_stall_rate: rate('timeouts'),
      retry_rate: rate('retried'),
      // Over the runs that record it: rows before the field say nothing either way.
      fallback_rate: {
        value: candFallbacks.recorded === 0 ? null : (candFallbacks.fallbacks / candFallbacks.recorded) * 100,
        interval: candFallbacks.recorded === 0 ? null : [fallbackLow * 100, fallbackHigh * 100],
        runs: candFallbacks.recorded,
        method: 'wilson',
      },
      fallbacks: {baseline: fallbacks(base), candidate: candFallbacks},
    },
    efficiency: {
      total_scenarios: scenarioIds.length,
      eligible_scenarios: eligible.length,
      coverage_pct: {
        value: scenarioIds.length === 0 ? null : (eligible.length / scenarioIds.length) * 100,
        interval: null,
        method: 'count',
      },
      tokens_active_reduction_pct: reduction('tokens_active'),
      latency_reduction_pct: reduction('latency_agent'),
      tool_call_reduction_pct: reduction('tool_calls'),
      // Skipped only when neither mode has a cost; one mode without is inconclusive (`missing` says why).
      cost_reduction_pct: costPresent.some(Boolean) ? reduction('cost') : null,
      latency_wall_reduction_pct: reduction('latency_wall'),
      harness_latency_ms: {baseline: harness(base), candidate: harness(cand)},
    },
    scenarios,
    github_api: apiCostOf(base, cand),
    success_flips: flippedScenarios(scenarios, confidence),
  }
}

/**
 * The success of the two modes' runs as pairs: every run of either mode in a block (one scenario ×
 * iteration of one run id) with exactly one run of the other mode, as the runner interleaves them;
 * null when any run is not so paired (modes run one after the other, a run missing or repeated), and
 * the success difference is then that of two independent rates.
 */
function successPairs(base: Cell[], cand: Cell[]): Estimate['paired'] {
  const baseByScenario = new Map(base.map((cell) => [cell.scenario, cell]))
  if (base.length !== cand.length || base.length === 0) return null
  const total = {pairs: 0, pass_to_fail: 0, fail_to_pass: 0}
  for (const candidate of cand) {
    const baseline = baseByScenario.get(candidate.scenario)
    if (!baseline || baseline.runs !== candidate.runs) return null
    // A cell read back without its runs' success (an aggregate view that kept counts only) cannot be paired.
    if ([baseline, candidate].some((cell) => cell.succeeded.length !== cell.blocks.length)) return null
    const flips = blockFlips(baseline, candidate, 'succeeded', true)
    if (!flips) return null
    total.pairs += flips.pairs
    total.pass_to_fail += flips.pass_to_fail
    total.fail_to_pass += flips.fail_to_pass
  }
  return total
}

/**
 * Two cells' runs matched by block, each judged by one per-run flag: the pairs and the discordant ones.
 * `strict`: every run must have exactly one partner (else null); otherwise runs without one are left out.
 */
function blockFlips(
  base: Cell,
  cand: Cell,
  flag: 'succeeded' | 'stable',
  strict: boolean,
): {pairs: number; pass_to_fail: number; fail_to_pass: number} | null {
  const baseline = new Map<number, boolean>()
  const baseKeys = base.blocks.values()
  const baseFlags = base[flag].values()
  for (let i = 0; i < baseKeys.length; i++) {
    if (strict && baseline.has(baseKeys[i]!)) return null
    baseline.set(baseKeys[i]!, baseFlags[i] === 1)
  }
  const candKeys = cand.blocks.values()
  const candFlags = cand[flag].values()
  const seen = new Set<number>()
  const flips = {pairs: 0, pass_to_fail: 0, fail_to_pass: 0}
  for (let i = 0; i < candKeys.length; i++) {
    const key = candKeys[i]!
    const baselinePassed = baseline.get(key)
    if (baselinePassed === undefined || seen.has(key)) {
      if (strict) return null
      continue
    }
    seen.add(key)
    flips.pairs++
    const candidatePassed = candFlags[i] === 1
    if (baselinePassed && !candidatePassed) flips.pass_to_fail++
    else if (!baselinePassed && candidatePassed) flips.fail_to_pass++
  }
  return flips
}

/** Each mode's median API cost per run over all its runs that record it, and the candidate's reduction. */
function apiCostOf(base: Cell[], cand: Cell[]): Comparison['github_api'] {
  const median = (cells: Cell[], metric: 'github_rest_requests' | 'github_graphql_points') =>
    withAllSorted(cells, metric, (sorted) => finite(percentileOfSorted(sorted, 50)))
  const sides = (metric: 'github_rest_requests' | 'github_graphql_points') => {
    const baseline = median(base, metric)
    const candidate = median(cand, metric)
    return {
      baseline,
      candidate,
      reduction_pct: baseline === null || candidate === null ? null : finite(reductionPct(baseline, candidate)),
    }
  }
  return {rest_requests: sides('github_rest_requests'), graphql_points: sides('github_graphql_points')}
}

type SuccessFlips = NonNullable<ScenarioComparison['success_flips']>

/** Each block both modes ran, whether each passed; the discordant blocks counted and tested (exact McNemar). */
function successFlips(base: Cell, cand: Cell): Omit<SuccessFlips, 'p_adjusted'> {
  const {pairs, pass_to_fail: passToFail, fail_to_pass: failToPass} = blockFlips(base, cand, 'stable', false)!
  return {
    paired_blocks: pairs,
    pass_to_fail: passToFail,
    fail_to_pass: failToPass,
    p_value: exactMcNemar(passToFail, failToPass),
  }
}

/** The scenarios' McNemar p-values adjusted by Holm's rule across the scenarios both modes ran. */
function withHolm(scenarios: ScenarioComparison[]): ScenarioComparison[] {
  const tested = scenarios.filter((s) => s.success_flips)
  const adjusted = holmAdjust(tested.map((s) => s.success_flips!.p_value))
  tested.forEach((s, i) => (s.success_flips!.p_adjusted = adjusted[i]!))
  return scenarios
}

function flippedScenarios(scenarios: ScenarioComparison[], confidence: number): Comparison['success_flips'] {
  const byP = scenarios
    .filter((s) => s.success_flips)
    .sort((a, b) => a.success_flips!.p_value - b.success_flips!.p_value || a.scenario_id.localeCompare(b.scenario_id))
  const ids = (keep: (flips: SuccessFlips) => boolean) =>
    byP.filter((s) => keep(s.success_flips!)).map((s) => s.scenario_id)
  return {
    method: 'exact McNemar on paired blocks; Holm across scenarios',
    pass_to_fail: ids((f) => f.pass_to_fail > f.fail_to_pass),
    fail_to_pass: ids((f) => f.fail_to_pass > f.pass_to_fail),
    significant: ids((f) => f.pass_to_fail !== f.fail_to_pass && f.p_adjusted < 1 - confidence),
  }
}

/** Why a metric has no suite value although one mode has data: that mode's rows lack it. */
function missingSide(base: Cell[], cand: Cell[], metric: EfficiencyMetric, options: CompareOptions): string | null {
  // A positive value, not any: the predecessors wrote 0 for no cost.
  const present = [anyPositive(base, metric), anyPositive(cand, metric)]
  if (present[0] === present[1]) return null
  const lacking = present[0] ? options.candidate : options.baseline
  const what = metric === 'cost' ? 'a cost' : metric === 'latency_agent' ? 'an agent time' : `a ${metric} value`
  return `no ${lacking} run has ${what}, while ${present[0] ? options.baseline : options.candidate}'s do`
}

/** A cell's stable sample of a metric, its block keys with the runs numbered in run-id order (the bootstrap reads them). */
function sampleOf(cell: Cell, metric: EfficiencyMetric, side: 'baseline' | 'candidate', ranks: Float64Array | null) {
  const sample = stableSample(cell, metric, side)
  canonicalBlockKeys(sample.blocks, ranks)
  return sample
}

function scenarioComparison(
  id: string,
  base: Cell | undefined,
  cand: Cell | undefined,
  minSamples: number,
  ranks: Float64Array | null,
): {summary: ScenarioComparison; effects: Record<EfficiencyMetric, ScenarioEffect | null>} {
  const byMetric = <T>(pick: (metric: EfficiencyMetric) => T) =>
    Object.fromEntries(EFFICIENCY_METRICS.map((m) => [m, pick(m)])) as Record<EfficiencyMetric, T>
  const median = (cell: Cell | undefined, metric: EfficiencyMetric) =>
    cell ? stableMedian([cell], metric) : Number.NaN
  const b = byMetric((m) => median(base, m))
  const c = byMetric((m) => median(cand, m))
  const eligible = (base?.stable_runs ?? 0) >= minSamples && (cand?.stable_runs ?? 0) >= minSamples
  const effects = byMetric((m) =>
    eligible
      ? scenarioEffect(
          sampleOf(base!, m, 'baseline', ranks),
          sampleOf(cand!, m, 'candidate', ranks),
          averageOf(m),
          RESOLUTION[m],
        )
      : null,
  )
  const paired =
    base && cand
      ? sharedBlocks(
          stableSample(base, 'latency_wall', 'baseline').blocks,
          stableSample(cand, 'latency_wall', 'candidate').blocks,
        )
      : 0
  return {
    summary: {
      scenario_id: id,
      baseline_runs: base?.runs ?? 0,
      candidate_runs: cand?.runs ?? 0,
      baseline_stable_runs: base?.stable_runs ?? 0,
      candidate_stable_runs: cand?.stable_runs ?? 0,
      paired_blocks: paired,
      eligible,
      baseline: byMetric((m) => finite(b[m])),
      candidate: byMetric((m) => finite(c[m])),
      reduction_pct: byMetric((m) => (eligible ? finite(reductionPct(b[m], c[m])) : null)),
      effect_pct: byMetric((m) => (effects[m] ? finite(reductionOfLogRatio(effects[m].theta)) : null)),
      // Adjusted once every scenario is tested (withHolm).
      ...(base && cand ? {success_flips: {...successFlips(base, cand), p_adjusted: 1}} : {}),
    },
    effects,
  }
}

/**
 * A scenario's effect on one metric with its run-level bootstrap interval (the forest plot's rows):
 * the scenario's own runs resampled, as the suite interval's second stage does.
 */
export function scenarioInterval(
  base: Cell,
  cand: Cell,
  metric: EfficiencyMetric,
  options: {seed: number; resamples: number; confidence?: number},
): [number, number] | null {
  const effect = scenarioEffect(
    stableSample(base, metric, 'baseline'),
    stableSample(cand, metric, 'candidate'),
    averageOf(metric),
    RESOLUTION[metric],
  )
  if (!effect) return null
  const draw: CellSampler = (random) => effect.theta + effect.deviation(random)
  const [low, high] = bootstrap(draw, {...options, confidence: options.confidence ?? DEFAULT_CONFIDENCE}).interval
  return Number.isFinite(low) && Number.isFinite(high) ? [reductionOfLogRatio(high), reductionOfLogRatio(low)] : null
}
