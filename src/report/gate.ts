/**
 * The dual gate: reliability checks on all of the candidate's rows, efficiency checks on the stable
 * sample, each judged against the profile's threshold. Under `decision: ci` a check whose 95% interval
 * straddles its threshold is inconclusive; under `decision: point` (the predecessors' rule) only the
 * point value counts. A check with no data is skipped, never silently passed or failed.
 */
import type {Profile, ThresholdKey, Thresholds} from '../catalogue/schemas/profile.js'
import type {Comparison, Estimate} from './compare.js'
import {minimumDetectableEffect} from './mde.js'
import type {GateDocument} from './report-schema.js'

export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'skipped'
export type Decision = 'point' | 'ci'

export type GateCheck = GateDocument['checks'][number]

export const EXIT_CODES = {pass: 0, fail: 1, inconclusive: 3} as const

export interface ResolvedThresholds {
  profile: string
  decision: Decision
  min_samples: number
  thresholds: Thresholds
  /** The per-model override applied, if any. */
  override: string | null
}

/** The profile's thresholds, with the override for `model` laid over them when the profile has one. */
export function resolveThresholds(profile: Profile, model: string | undefined, decision?: Decision): ResolvedThresholds {
  const override = model ? profile.overrides?.[model] : undefined
  return {
    profile: profile.name,
    decision: decision ?? override?.decision ?? profile.decision,
    min_samples: override?.min_samples ?? profile.min_samples,
    thresholds: {...profile.thresholds, ...override?.thresholds},
    override: override ? model! : null,
  }
}

function judge(estimate: Estimate | null, operator: '>=' | '<=', threshold: number, decision: Decision): Verdict {
  if (!estimate || estimate.value === null) return 'skipped'
  const passes = (x: number) => (operator === '>=' ? x >= threshold : x <= threshold)
  const [low, high] = estimate.interval ?? []
  if (decision === 'point' || typeof low !== 'number' || typeof high !== 'number') return passes(estimate.value) ? 'pass' : 'fail'
  if (passes(low) && passes(high)) return 'pass'
  if (!passes(low) && !passes(high)) return 'fail'
  return 'inconclusive'
}

export function evaluateGate(comparison: Comparison, resolved: ResolvedThresholds): {checks: GateCheck[]; verdict: Exclude<Verdict, 'skipped'>} {
  const t = resolved.thresholds
  const {reliability: r, efficiency: e} = comparison
  const spec: Array<[GateCheck['name'], GateCheck['group'], Estimate | null, '>=' | '<=', ThresholdKey, number, string]> = [
    ['reliability_success_rate_non_inferior', 'reliability', r.success_rate_delta_pp, '>=', 'max_success_rate_drop_pct', -t.max_success_rate_drop_pct, `${comparison.candidate} success rate minus ${comparison.baseline}'s, in points`],
    ['reliability_output_validity', 'reliability', r.output_validity_rate, '>=', 'min_output_validity_rate_pct', t.min_output_validity_rate_pct, `% of ${comparison.candidate} runs with valid output`],
    ['reliability_runner_failure_rate', 'reliability', r.runner_failure_rate, '<=', 'max_runner_failure_rate_pct', t.max_runner_failure_rate_pct, `% of ${comparison.candidate} runs the runner could not complete`],
    ['reliability_timeout_stall_rate', 'reliability', r.timeout_stall_rate, '<=', 'max_timeout_stall_rate_pct', t.max_timeout_stall_rate_pct, `% of ${comparison.candidate} runs that timed out or stalled`],
    ['reliability_retry_rate', 'reliability', r.retry_rate, '<=', 'max_retry_rate_pct', t.max_retry_rate_pct, `% of ${comparison.candidate} runs that needed a retry`],
    ['efficiency_coverage', 'efficiency', e.coverage_pct, '>=', 'min_efficiency_coverage_pct', t.min_efficiency_coverage_pct, `${e.eligible_scenarios} of ${e.total_scenarios} scenarios have >= ${comparison.min_samples} stable runs in both modes`],
    ['efficiency_tokens_active_reduction', 'efficiency', e.tokens_active_reduction_pct, '>=', 'min_tokens_active_reduction_pct', t.min_tokens_active_reduction_pct, `median over ${e.tokens_active_reduction_pct.scenarios} scenarios of the active-token reduction`],
    ['efficiency_latency_reduction', 'efficiency', e.latency_reduction_pct, '>=', 'min_latency_reduction_pct', t.min_latency_reduction_pct, `median over ${e.latency_reduction_pct.scenarios} scenarios of the wall-latency reduction`],
    ['efficiency_tool_call_reduction', 'efficiency', e.tool_call_reduction_pct, '>=', 'min_tool_call_reduction_pct', t.min_tool_call_reduction_pct, `median over ${e.tool_call_reduction_pct.scenarios} scenarios of the tool-call reduction`],
    [
      'efficiency_cost_reduction',
      'efficiency',
      e.cost_reduction_pct,
      '>=',
      'min_cost_reduction_pct',
      t.min_cost_reduction_pct,
      e.cost_reduction_pct
        ? `worst of ${e.cost_reduction_pct.scenarios} scenarios: ${e.cost_reduction_pct.worst_scenario}`
        : 'no row has a cost: skipped',
    ],
  ]
  const checks = spec.map(([name, group, estimate, operator, , threshold, detail]): GateCheck => {
    const verdict = judge(estimate, operator, threshold, resolved.decision)
    return {
      name,
      group,
      value: estimate?.value ?? null,
      operator,
      threshold,
      interval: estimate?.interval ?? null,
      verdict,
      detail: verdict === 'skipped' && estimate ? `${detail} (no data)` : detail,
      // The efficiency checks' MDE; a reliability check is a rate, whose interval says it.
      mde: group === 'efficiency' ? minimumDetectableEffect(estimate?.interval) : null,
    }
  })
  const verdicts = new Set(checks.map((c) => c.verdict))
  const verdict = verdicts.has('fail') ? 'fail' : verdicts.has('inconclusive') ? 'inconclusive' : 'pass'
  return {checks, verdict}
}
