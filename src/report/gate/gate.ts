/**
 * The dual gate: reliability checks on all of the candidate's rows, efficiency checks on the stable
 * sample, each judged against the profile's threshold.
 *
 * `decision: ci` (sound): a check passes only when its whole interval clears the threshold, fails
 * when the whole interval is on the wrong side, and is inconclusive when it straddles. It refuses to
 * call either from cells with fewer than MIN_CI_RUNS runs (stable runs, for efficiency): such an
 * interval says more than the runs do. Reliability checks apply sized one-sided rules at 5%
 * (reliability-rules.ts: exact binomial tests at the limits, the success drop's non-inferiority
 * test), each verdict stating its rule; reductions the bootstrap's interval for the profile's
 * estimand (compare.ts): `suite` (these scenarios) or `population` (scenarios like them, refused
 * below MIN_POPULATION_SCENARIOS).
 *
 * `decision: point` (the predecessors' rule): the point value decides, and efficiency is judged on
 * their figure, the median over scenarios of the per-scenario reduction of the medians.
 *
 * Either way: a check with no data on either side is skipped; one mode with data and the other
 * without (cost in the baseline's rows only) is inconclusive with the reason, never a silent pass;
 * latency is the agent's time, the harness's share reported beside it.
 *
 * Fallbacks (runs where the candidate's tool layer failed and gh did the work) are informational: the
 * comparison carries each mode's counts and the candidate's rate, shown beside the reliability checks;
 * a check judges the rate only where the profile sets max_fallback_rate_pct (off by default).
 */
import type {Profile, ThresholdKey, Thresholds} from '../../schemas/profile.js'
import type {Comparison, Estimate, Reduction} from '../aggregate/compare.js'
import {MIN_POPULATION_SCENARIOS, type Estimand} from '../../stats/log-ratio.js'
import {minimumDetectableEffect} from './mde.js'
import {POINT_LEVEL, pointCutoff, rateDetectable, reductionDetectable, successDetectable} from './detectable.js'
import {
  judgeRate,
  judgeRateAtLook,
  judgeSuccessDrop,
  rateLimits,
  reliabilityLevel,
  type RuleOutcome,
  type SequentialLook,
} from './reliability-rules.js'
import type {GateDocument} from '../aggregate/report-schema.js'

export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'skipped'
export type Decision = 'point' | 'ci'

export type GateCheck = GateDocument['checks'][number]
export type CheckName = GateCheck['name']

export const EXIT_CODES = {pass: 0, fail: 1, inconclusive: 3} as const

/** The reason of a check whose interval straddles its threshold. */
export const STRADDLES = 'the interval straddles the threshold'

/** Under decision ci, cells with fewer runs than this decide nothing. */
export const MIN_CI_RUNS = 3

/** The estimand of a profile that names none: a PR gate's, the effect on these scenarios. */
export const DEFAULT_ESTIMAND: Estimand = 'suite'

/**
 * The relative tolerance of every comparison with a threshold: a value within a billionth of it
 * (at least 1e-9 absolute) is at it. Figures are computed in floating point: an exact 20% reduction
 * is (1 - e^log(0.8)) × 100 = 19.999999999999996, and a drop of exactly 3 points (97 of 100 against
 * 100 of 100) -3.0000000000000027, and failed `>= 20` and `>= -3`.
 */
const THRESHOLD_TOLERANCE = 1e-9

/** Whether `value` is on the passing side of `threshold` (or at it, within THRESHOLD_TOLERANCE): the one comparison every check's verdict uses. */
export function clearsThreshold(value: number, operator: Operator, threshold: number): boolean {
  const slack = THRESHOLD_TOLERANCE * Math.max(1, Math.abs(threshold))
  return operator === '>=' ? value >= threshold - slack : value <= threshold + slack
}

export interface ResolvedThresholds {
  profile: string
  decision: Decision
  /** What the reductions judge; absent: DEFAULT_ESTIMAND. */
  estimand?: Estimand
  min_samples: number
  thresholds: Thresholds
  /** The per-model override applied, if any. */
  override: string | null
}

/** The profile's thresholds, with the override for `model` laid over them when the profile has one. */
export function resolveThresholds(
  profile: Profile,
  model: string | undefined,
  decision?: Decision,
): ResolvedThresholds {
  const override = model ? profile.overrides?.[model] : undefined
  return {
    profile: profile.name,
    decision: decision ?? override?.decision ?? profile.decision,
    estimand: override?.estimand ?? profile.estimand ?? DEFAULT_ESTIMAND,
    min_samples: override?.min_samples ?? profile.min_samples,
    thresholds: {...profile.thresholds, ...override?.thresholds},
    override: override ? model! : null,
  }
}

type Group = GateCheck['group']
type Operator = '>=' | '<='

/** What a check judges: its estimate, and which cells it stands on. */
interface CheckSpec {
  name: CheckName
  group: Group
  estimate: Estimate | Reduction | null
  operator: Operator
  key: ThresholdKey
  threshold: number
  /** Cells below MIN_CI_RUNS, named, for the ci refusal; empty when none. */
  smallCells: string[]
  detail: string
  /** Whether the value is a count (coverage): exact, no interval, no refusal. */
  count?: boolean
  /** Decision ci: the sized rule's outcome (a reliability check), which decides in place of the interval. */
  sized?: RuleOutcome
  /** Decision ci: why the check may not decide at all (the population estimand below its scenarios). */
  refusal?: string
}

/** The value a decision judges: point judges the predecessors' figure where there is one. */
function judgedValue(estimate: Estimate | Reduction, decision: Decision): number | null {
  if (decision === 'point' && 'median_of_scenarios' in estimate && estimate.median_of_scenarios !== undefined)
    return estimate.median_of_scenarios
  return estimate.value
}

export function judgeCheck(spec: CheckSpec, decision: Decision): {verdict: Verdict; reason: string | null} {
  const {estimate, operator, threshold} = spec
  const missing = estimate && 'missing' in estimate ? (estimate.missing ?? null) : null
  if (missing) return {verdict: 'inconclusive', reason: missing}
  const value = estimate ? judgedValue(estimate, decision) : null
  if (!estimate || value === null) return {verdict: 'skipped', reason: 'no data in either mode'}
  const passes = (x: number) => clearsThreshold(x, operator, threshold)
  if (decision === 'point' || spec.count) return {verdict: passes(value) ? 'pass' : 'fail', reason: null}
  if (spec.smallCells.length > 0) {
    const shown =
      spec.smallCells.slice(0, 5).join(', ') +
      (spec.smallCells.length > 5 ? `, … ${spec.smallCells.length - 5} more` : '')
    return {verdict: 'inconclusive', reason: `decision ci needs ${MIN_CI_RUNS} runs per cell; fewer in ${shown}`}
  }
  if (spec.refusal) return {verdict: 'inconclusive', reason: spec.refusal}
  if (spec.sized) return {verdict: spec.sized.verdict, reason: spec.sized.reason}
  const [low, high] = estimate.interval ?? []
  if (typeof low !== 'number' || typeof high !== 'number')
    return {verdict: 'inconclusive', reason: 'no interval could be computed'}
  if (passes(low) && passes(high)) return {verdict: 'pass', reason: null}
  if (!passes(low) && !passes(high)) return {verdict: 'fail', reason: null}
  return {verdict: 'inconclusive', reason: STRADDLES}
}

/** Cells (scenario/mode) of `modes` with fewer than MIN_CI_RUNS runs, as named in a check's reason. */
function smallCells(
  comparison: Comparison,
  sides: Array<'baseline' | 'candidate'>,
  stable: boolean,
  onlyEligible: boolean,
): string[] {
  const out: string[] = []
  for (const s of comparison.scenarios) {
    if (onlyEligible && !s.eligible) continue
    for (const side of sides) {
      const runs = stable ? s[`${side}_stable_runs`] : (s[`${side}_runs`] ?? s[`${side}_stable_runs`])
      // A mode with no run of the scenario at all is not a cell of this check.
      if (runs > 0 && runs < MIN_CI_RUNS) out.push(`${s.scenario_id}/${comparison[side]} (${runs})`)
    }
  }
  return out
}

function reductionDetail(r: Reduction, label: string, decision: Decision): string {
  const worst = r.worst_scenario ? `; worst scenario ${r.worst_scenario} ${num(r.worst_pct)}%` : ''
  if (decision === 'point') {
    const ci = r.interval
      ? `; decision ci's estimate ${num(r.value)}% [${num(r.interval[0])}, ${num(r.interval[1])}]`
      : ''
    return `median over ${r.scenarios} scenarios of the reduction of the medians, ${label}${worst}${ci}`
  }
  const paired = r.paired_scenarios ? `, ${r.paired_scenarios} paired by iteration block` : ''
  const median =
    r.median_of_scenarios === null || r.median_of_scenarios === undefined
      ? ''
      : `; median over scenarios ${num(r.median_of_scenarios)}%`
  const estimand = r.estimand === 'suite' ? 'on these scenarios' : 'over scenarios like these'
  const spread =
    r.between_sd === null || r.between_sd === undefined
      ? ''
      : `; spread between scenarios τ ${r.between_sd.toFixed(2)} (log scale)`
  const prediction = r.prediction_interval
    ? `, a scenario like these [${num(r.prediction_interval[0])}, ${num(r.prediction_interval[1])}]%`
    : ''
  return `geometric-mean reduction ${estimand} (${r.scenarios} scenarios${paired}), ${label}${median}${worst}${spread}${prediction}`
}

const num = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(1)

export function evaluateGate(
  comparison: Comparison,
  resolved: ResolvedThresholds,
  /** A look of `run --until-decided`: the rates' sized rules and the paired success test spend their error over the looks exactly (reliability-rules.ts). */
  look?: SequentialLook,
  /**
   * Whether each check says what it could detect (`detectable`): the gate's documents do; the simulator's
   * thousands of gates do not read it, and the success check's costs some 20 ms.
   */
  options: {detectable?: boolean} = {},
): {checks: GateCheck[]; verdict: Exclude<Verdict, 'skipped'>} {
  const t = resolved.thresholds
  const {reliability: r, efficiency: e} = comparison
  const {decision} = resolved
  const c = comparison.candidate
  const candidateCells = smallCells(comparison, ['candidate'], false, false)
  const stableCells = smallCells(comparison, ['baseline', 'candidate'], true, true)
  const harness = e.harness_latency_ms
  const harnessNote = harness
    ? `; beside it, harness ms per run ${num(harness.baseline)} → ${num(harness.candidate)}`
    : ''
  const wall = e.latency_wall_reduction_pct
  const wallNote = wall
    ? `; wall-latency reduction ${num(decision === 'point' ? (wall.median_of_scenarios ?? wall.value) : wall.value)}% (not judged)`
    : ''
  // Under ci a rate's interval is its sized rule's (Clopper-Pearson), named in the check's rule.
  const wilson = decision === 'ci' ? '' : ' (Wilson interval)'
  const specs: CheckSpec[] = [
    {
      name: 'reliability_success_rate_non_inferior',
      group: 'reliability',
      estimate: r.success_rate_delta_pp,
      operator: '>=',
      key: 'max_success_rate_drop_pct',
      threshold: -t.max_success_rate_drop_pct,
      smallCells: smallCells(comparison, ['baseline', 'candidate'], false, false),
      detail: `${c} success rate minus ${comparison.baseline}'s, in points${decision === 'ci' ? '' : r.success_rate_delta_pp?.method === 'tango' ? ' (Tango interval, paired)' : ' (Newcombe interval)'}`,
    },
    {
      name: 'reliability_output_validity',
      group: 'reliability',
      estimate: r.output_validity_rate,
      operator: '>=',
      key: 'min_output_validity_rate_pct',
      threshold: t.min_output_validity_rate_pct,
      smallCells: candidateCells,
      detail: `% of ${c} runs with valid output${wilson}`,
    },
    {
      name: 'reliability_runner_failure_rate',
      group: 'reliability',
      estimate: r.runner_failure_rate,
      operator: '<=',
      key: 'max_runner_failure_rate_pct',
      threshold: t.max_runner_failure_rate_pct,
      smallCells: candidateCells,
      detail: `% of ${c} runs the runner could not complete${wilson}`,
    },
    {
      name: 'reliability_timeout_stall_rate',
      group: 'reliability',
      estimate: r.timeout_stall_rate,
      operator: '<=',
      key: 'max_timeout_stall_rate_pct',
      threshold: t.max_timeout_stall_rate_pct,
      smallCells: candidateCells,
      detail: `% of ${c} runs that timed out or stalled${wilson}`,
    },
    {
      name: 'reliability_retry_rate',
      group: 'reliability',
      estimate: r.retry_rate,
      operator: '<=',
      key: 'max_retry_rate_pct',
      threshold: t.max_retry_rate_pct,
      smallCells: candidateCells,
      detail: `% of ${c} runs that needed a retry${wilson}`,
    },
    // Judged only where the profile asks for it; else shown beside the checks (the comparison's fallbacks).
    ...(t.max_fallback_rate_pct === undefined
      ? []
      : [
          {
            name: 'reliability_fallback_rate',
            group: 'reliability',
            estimate: r.fallback_rate ?? null,
            operator: '<=',
            key: 'max_fallback_rate_pct',
            threshold: t.max_fallback_rate_pct,
            smallCells: candidateCells,
            detail: `% of ${c} runs (of those that record it) resting on a fallback: its tool layer failed, a later gh call did the work${wilson}`,
          } satisfies CheckSpec,
        ]),
    {
      name: 'efficiency_coverage',
      group: 'efficiency',
      estimate: e.coverage_pct,
      operator: '>=',
      key: 'min_efficiency_coverage_pct',
      threshold: t.min_efficiency_coverage_pct,
      smallCells: [],
      count: true,
      detail: `${e.eligible_scenarios} of ${e.total_scenarios} scenarios have >= ${comparison.min_samples} stable runs in both modes`,
    },
    {
      name: 'efficiency_tokens_active_reduction',
      group: 'efficiency',
      estimate: e.tokens_active_reduction_pct,
      operator: '>=',
      key: 'min_tokens_active_reduction_pct',
      threshold: t.min_tokens_active_reduction_pct,
      smallCells: stableCells,
      detail: reductionDetail(e.tokens_active_reduction_pct, 'active tokens', decision),
    },
    {
      name: 'efficiency_latency_reduction',
      group: 'efficiency',
      estimate: e.latency_reduction_pct,
      operator: '>=',
      key: 'min_latency_reduction_pct',
      threshold: t.min_latency_reduction_pct,
      smallCells: stableCells,
      detail: reductionDetail(e.latency_reduction_pct, 'agent time', decision) + wallNote + harnessNote,
    },
    {
      name: 'efficiency_tool_call_reduction',
      group: 'efficiency',
      estimate: e.tool_call_reduction_pct,
      operator: '>=',
      key: 'min_tool_call_reduction_pct',
      threshold: t.min_tool_call_reduction_pct,
      smallCells: stableCells,
      detail: reductionDetail(e.tool_call_reduction_pct, 'tool calls', decision),
    },
    {
      name: 'efficiency_cost_reduction',
      group: 'efficiency',
      estimate: e.cost_reduction_pct,
      operator: '>=',
      key: 'min_cost_reduction_pct',
      threshold: t.min_cost_reduction_pct,
      smallCells: stableCells,
      detail: e.cost_reduction_pct
        ? reductionDetail(e.cost_reduction_pct, 'cost', decision)
        : 'no row of either mode has a cost',
    },
  ]
  const confidence = comparison.confidence ?? 0.95
  const alpha = reliabilityLevel(confidence)
  if (decision === 'ci') for (const spec of specs) decideBySize(spec, comparison, resolved, alpha, look)
  const checks = specs.map((spec): GateCheck => {
    const {verdict, reason} = judgeCheck(spec, decision)
    // A sized rule's interval is one-sided at α each end: a two-sided 1 - 2α interval.
    const mde = spec.count
      ? null
      : spec.sized
        ? minimumDetectableEffect(spec.sized.interval, 1 - 2 * alpha)
        : minimumDetectableEffect(spec.estimate?.interval, confidence)
    const value = spec.estimate ? judgedValue(spec.estimate, decision) : null
    // Under point a reduction is judged on the predecessors' figure, which the interval (of decision ci's estimate) is not about.
    const ownInterval = !(
      decision === 'point' &&
      spec.estimate &&
      'median_of_scenarios' in spec.estimate &&
      spec.estimate.median_of_scenarios !== undefined
    )
    return {
      name: spec.name,
      group: spec.group,
      value,
      operator: spec.operator,
      threshold: spec.threshold,
      interval: spec.sized?.interval ?? (ownInterval ? (spec.estimate?.interval ?? null) : null),
      verdict,
      reason,
      // The rule in the detail too: every renderer shows the detail.
      detail: spec.sized ? `${spec.detail}; ${spec.sized.rule}` : spec.detail,
      rule: spec.sized?.rule ?? null,
      mde,
      ...(options.detectable ? {detectable: detectableOf(spec, comparison, resolved, alpha, look, mde)} : {}),
    }
  })
  return {checks, verdict: overallVerdict(checks)}
}

/**
 * Decision ci: a reliability check's sized rule (reliability-rules.ts), and the population estimand's
 * refusal below MIN_POPULATION_SCENARIOS, set on its spec. A rate's count is read off the estimate
 * (older comparisons have none: value × runs).
 */
function decideBySize(
  spec: CheckSpec,
  comparison: Comparison,
  resolved: ResolvedThresholds,
  alpha: number,
  look: SequentialLook | undefined,
): void {
  const estimate = spec.estimate
  if (!estimate || estimate.value === null || ('missing' in estimate && estimate.missing)) return
  if ('scenarios' in estimate) {
    if ((resolved.estimand ?? DEFAULT_ESTIMAND) === 'population' && estimate.scenarios < MIN_POPULATION_SCENARIOS)
      spec.refusal = `the population estimand (the effect over scenarios like these) needs at least ${MIN_POPULATION_SCENARIOS} scenarios, and ${estimate.scenarios} compared: judge these scenarios with estimand suite, or add scenarios`
    return
  }
  const runs = estimate.runs ?? 0
  if (runs === 0) return
  if (spec.name === 'reliability_success_rate_non_inferior') {
    spec.sized = judgeSuccessDrop(
      successCounts(estimate, comparison),
      resolved.thresholds.max_success_rate_drop_pct,
      alpha,
      (v) => clearsThreshold(v, '>=', spec.threshold),
      look,
    )
    return
  }
  const limit = rateLimits(resolved.thresholds)[spec.name as keyof ReturnType<typeof rateLimits>]
  if (!limit) return
  const events = estimate.count ?? countOf(estimate.value, runs)
  const counted = limit.complement ? runs - events : events
  spec.sized = look ? judgeRateAtLook(limit, counted, runs, look) : judgeRate(limit, counted, runs, alpha)
}

/** A count from its rate (%) over n runs: for older comparisons, which carry no counts. */
const countOf = (value: number, n: number) => Math.round((value / 100) * n)

/** The success check's counts (older comparisons have none: from the rates). */
function successCounts(estimate: Estimate, comparison: Comparison) {
  const runs = estimate.runs ?? 0
  const candidateRuns = estimate.candidate_runs ?? runs
  const baselineRuns = estimate.baseline_runs ?? runs
  const success = comparison.reliability.success_rate.value ?? 0
  return {
    candidate: estimate.count ?? countOf(success, candidateRuns),
    candidateRuns,
    baseline: estimate.baseline_count ?? countOf(success - (estimate.value ?? 0), baselineRuns),
    baselineRuns,
    paired: estimate.paired ?? null,
  }
}

/**
 * What the check could detect at this size (detectable.ts), by the rule its verdict applies: the sized
 * rule under ci (a look's own at a look), the point value under point; a reduction's from its MDE.
 */
function detectableOf(
  spec: CheckSpec,
  comparison: Comparison,
  resolved: ResolvedThresholds,
  alpha: number,
  look: SequentialLook | undefined,
  mde: number | null,
): GateCheck['detectable'] {
  const estimate = spec.estimate
  if (spec.count || !estimate || estimate.value === null || ('missing' in estimate && estimate.missing)) return null
  if ('scenarios' in estimate) return reductionDetectable(spec.threshold, mde, estimate.scenarios)
  const point = resolved.decision === 'point'
  if (spec.name === 'reliability_success_rate_non_inferior') {
    const counts = successCounts(estimate, comparison)
    return successDetectable({
      baseline: counts.baselineRuns === 0 ? 0 : counts.baseline / counts.baselineRuns,
      candidateRuns: counts.candidateRuns,
      baselineRuns: counts.baselineRuns,
      paired: counts.paired,
      margin: resolved.thresholds.max_success_rate_drop_pct / 100,
      alpha: point ? POINT_LEVEL : alpha,
      look: point ? undefined : look,
    })
  }
  const limit = rateLimits(resolved.thresholds)[spec.name as keyof ReturnType<typeof rateLimits>]
  const runs = estimate.runs ?? 0
  if (!limit || runs === 0) return null
  if (point)
    return rateDetectable(
      limit,
      runs,
      {pass_max: pointCutoff(limit, runs, (v) => clearsThreshold(v, spec.operator, spec.threshold))},
      'point',
      alpha,
    )
  const cutoffs = spec.sized?.cutoffs
  return cutoffs ? rateDetectable(limit, runs, cutoffs, look ? 'look' : 'fixed', alpha) : null
}

/** Fail when any check fails, else inconclusive when any is, else pass (skipped checks do not count). */
export function overallVerdict(checks: ReadonlyArray<{verdict: Verdict}>): Exclude<Verdict, 'skipped'> {
  const verdicts = new Set(checks.map((c) => c.verdict))
  return verdicts.has('fail') ? 'fail' : verdicts.has('inconclusive') ? 'inconclusive' : 'pass'
}
