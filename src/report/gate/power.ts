/**
 * The whole gate's power by formula, for the planner: how likely a candidate at `target` times every
 * efficiency threshold, with the given reliability, passes every check of a design of S scenarios x R
 * repetitions. It is the product of the checks' chances (treated as independent; tokens and cost move
 * together, so the product errs low), each check's from the normal approximation of its estimate:
 *
 * - a reduction: P = Φ(d / SE - z), d the distance on the log scale between the threshold's ratio and
 *   the target's; SE² = 2σ² / (S·R) under the suite estimand (runs only), (τ² + 2σ²/R) / S under the
 *   population's with z its t_{S-1} (src/stats/log-ratio.ts); σ² a run's log variance (tool calls,
 *   Poisson: 1 / the mean count; cost: half the tokens' SD, as real rows price it);
 * - a rate: exactly, P(count <= the sized rule's pass_max) at n = S·R (reliability-rules.ts);
 * - the success drop: the paired test the gate uses on the runner's blocks (one run of each mode), the
 *   candidate as successful as the baseline: P = Φ((margin·√n - z_{1-α}·σ₀) / σ₁), σ₁² = q the share of
 *   discordant blocks, σ₀² Tango's variance at the margin (q's restricted maximum likelihood there). It
 *   gives the exact test's power within half a point (80 pairs at 95% success, latent correlation
 *   0 / 0.3 / 0.6 / 0.9: 91.5 / 93.1 / 95.9 / 99.5% against 91.3 / 93.0 / 95.9 / 99.4% enumerated); the
 *   unpaired formula it replaces, 2p(1 - p) / n, said 96.6% whatever the pairing.
 *
 * The simulator (simulate.ts) confirms it on the chosen design.
 */
import type {Thresholds} from '../../schemas/profile.js'
import {binomialCdf, sizedRule} from '../../stats/binomial.js'
import {
  logRatioOfReduction,
  MIN_POPULATION_SCENARIOS,
  reductionOfLogRatio,
  type Estimand,
} from '../../stats/log-ratio.js'
import {normalCdf, normalQuantile, tOfConfidence, zOfConfidence} from '../../stats/special.js'
import {rateLimits} from './reliability-rules.js'
import {DEFAULT_MODEL, SIMULATED_TOOL_CALLS, type CandidateReliability} from './candidate-model.js'

export interface PowerModel {
  /** Run-to-run log SD of active tokens and agent time. */
  log_sd: number
  /** The baseline's mean tool calls a run. */
  tool_calls: number
  /** The mean over scenarios of 1 / the baseline's mean tool calls a run there: a run's Poisson log variance. */
  tool_calls_inverse: number
  /** SD of the effect between scenarios, log scale (population estimand only). */
  scenario_spread: number
  baseline_success_pct: number
  /** The share of blocks whose two runs differ in success (one succeeded, the other not): what the paired test's error is made of. */
  success_discordance: number
  reliability: CandidateReliability
}

/** The power model of the simulator's defaults (what real suites show). */
export function defaultPowerModel(): PowerModel {
  const m = DEFAULT_MODEL
  return {
    log_sd: Math.sqrt(Math.log(1 + (m.cv_pct / 100) ** 2)),
    tool_calls: (SIMULATED_TOOL_CALLS[0] + SIMULATED_TOOL_CALLS[1]) / 2,
    // The mean of 1 / x for x uniform over the range.
    tool_calls_inverse:
      Math.log(SIMULATED_TOOL_CALLS[1] / SIMULATED_TOOL_CALLS[0]) / (SIMULATED_TOOL_CALLS[1] - SIMULATED_TOOL_CALLS[0]),
    scenario_spread: m.scenario_spread,
    baseline_success_pct: m.baseline_success_pct,
    success_discordance: discordanceOf(m.baseline_success_pct / 100, m.success_correlation),
    reliability: m.candidate_reliability,
  }
}

const REDUCTIONS = [
  ['efficiency_tokens_active_reduction', 'min_tokens_active_reduction_pct'],
  ['efficiency_latency_reduction', 'min_latency_reduction_pct'],
  ['efficiency_tool_call_reduction', 'min_tool_call_reduction_pct'],
  ['efficiency_cost_reduction', 'min_cost_reduction_pct'],
] as const

const Z_POWER = 0.841621

/** What a suite is sized for: a candidate at twice every efficiency threshold passing the whole gate 80% of the time. */
export const PLANNED_TARGET = 2
const PLANNED_POWER = 0.8

/** The largest design the planner's searches try. */
export const LARGEST_DESIGN = {scenarios: 50, repetitions: 200} as const

/**
 * A run's log variance of a metric in each mode, averaged over the scenarios, the candidate's at `ratio`
 * times the baseline's level. Tool calls are Poisson, a run's log variance 1 / its mean: the candidate's
 * own, larger when it makes fewer calls, and each scenario's (the mean of 1 / its calls, not 1 / the
 * mean of calls, which the small-count scenarios dominate). Under the suite estimand the scenarios'
 * effects deviate from the suite's log-normally with SD `scenario_spread`, so the candidate's 1 / calls
 * is e^(spread²/2) larger on average.
 */
function runVariances(
  check: (typeof REDUCTIONS)[number][0],
  model: PowerModel,
  ratio: number,
): {baseline: number; candidate: number} {
  if (check === 'efficiency_tool_call_reduction') {
    const baseline = model.tool_calls_inverse
    return {baseline, candidate: (baseline / ratio) * Math.exp(model.scenario_spread ** 2 / 2)}
  }
  const each = check === 'efficiency_cost_reduction' ? (0.5 * model.log_sd) ** 2 : model.log_sd ** 2
  return {baseline: each, candidate: each}
}

/**
 * The standard error of θ and the critical value its interval uses. Efficiency is measured on stable
 * runs only (success, valid output, no runner failure): each mode's share of them thins its runs, and
 * the interval is widened by t at the runs' degrees of freedom, as src/stats/log-ratio.ts does.
 */
function errorOf(
  check: (typeof REDUCTIONS)[number][0],
  model: PowerModel,
  estimand: Estimand,
  scenarios: number,
  repetitions: number,
  confidence: number,
  ratio: number,
): {se: number; critical: number} {
  const variances = runVariances(check, model, ratio)
  const r = model.reliability
  const baselineRuns = Math.max(1, (repetitions * model.baseline_success_pct) / 100)
  const candidateRuns = Math.max(
    1,
    ((((repetitions * model.baseline_success_pct) / 100) * (100 - r.runner_failure_pct)) / 100) *
      ((100 - r.invalid_pct) / 100),
  )
  const within = variances.baseline / baselineRuns + variances.candidate / candidateRuns
  if (estimand === 'suite') {
    const df = scenarios * Math.max(1, Math.min(baselineRuns, candidateRuns) - 1)
    return {se: Math.sqrt(within / scenarios), critical: tOfConfidence(confidence, df)}
  }
  return {
    se: Math.sqrt((model.scenario_spread ** 2 + within) / scenarios),
    critical: scenarios > 1 ? tOfConfidence(confidence, scenarios - 1) : Infinity,
  }
}

export interface DesignPower {
  scenarios: number
  repetitions: number
  /** The whole gate's chance to pass, and each check's. */
  power: number
  checks: Record<string, number>
}

/** The whole gate's power at S x R for a candidate at `target` times every efficiency threshold. */
export function designPower(
  t: Thresholds,
  model: PowerModel,
  estimand: Estimand,
  scenarios: number,
  repetitions: number,
  target: number,
  confidence = 0.95,
): DesignPower {
  const checks: Record<string, number> = {}
  for (const [check, key] of REDUCTIONS) {
    const threshold = t[key]
    const distance = logRatioOfReduction(threshold) - logRatioOfReduction(target * threshold)
    const ratio = Math.max(0.01, 1 - (target * threshold) / 100)
    const {se, critical} = errorOf(check, model, estimand, scenarios, repetitions, confidence, ratio)
    // The gate refuses the population estimand below its scenarios: nothing passes there.
    const refused = estimand === 'population' && scenarios < MIN_POPULATION_SCENARIOS
    checks[check] = refused ? 0 : Number.isFinite(distance) ? normalCdf(distance / se - critical) : 1
  }
  const runs = scenarios * repetitions
  const alpha = 1 - confidence
  const r = model.reliability
  const rates: Record<string, number> = {
    reliability_output_validity: r.invalid_pct,
    reliability_runner_failure_rate: r.runner_failure_pct,
    reliability_timeout_stall_rate: r.timeout_pct,
    reliability_retry_rate: r.retry_pct,
  }
  for (const [check, limit] of Object.entries(rateLimits(t))) {
    if (!limit || rates[check] === undefined) continue
    const rule = sizedRule(runs, limit.limit, alpha)
    checks[check] = limit.limit >= 1 ? 1 : rule.pass_max < 0 ? 0 : binomialCdf(rule.pass_max, runs, rates[check] / 100)
  }
  checks.reliability_success_rate_non_inferior = pairedSuccessPower(
    model.success_discordance,
    t.max_success_rate_drop_pct / 100,
    runs,
    alpha,
  )
  const power = Object.values(checks).reduce((a, b) => a * b, 1)
  return {scenarios, repetitions, power, checks}
}

/**
 * The chance that the paired non-inferiority test (margin a fraction, one-sided α) passes a candidate
 * as successful as the baseline, from n blocks of which a share `discordance` differ (see the file's comment).
 */
export function pairedSuccessPower(discordance: number, margin: number, pairs: number, alpha: number): number {
  return pairedSuccessPowerAt({gained: discordance / 2, lost: discordance / 2}, margin, pairs, alpha)
}

/**
 * The chance that the paired non-inferiority test passes a candidate whose blocks go fail→pass a share
 * `gained` and pass→fail a share `lost` of the time (its success lost − gained below the baseline's):
 * Φ(((margin − d)·√n − z·σ₀) / σ₁), d = lost − gained, σ₁² = gained + lost − d² a block's variance,
 * σ₀² Tango's at the margin (the pass→fail share's restricted maximum likelihood there, from these shares).
 */
export function pairedSuccessPowerAt(
  shares: {gained: number; lost: number},
  margin: number,
  pairs: number,
  alpha: number,
): number {
  if (margin >= 1) return 1
  const {gained, lost} = shares
  const delta = -margin
  const b = -gained - lost + (2 - gained + lost) * delta
  const c = -lost * delta * (1 - delta)
  const lostShare = (Math.sqrt(Math.max(0, b * b - 8 * c)) - b) / 4
  const nullSd = Math.sqrt(2 * lostShare + delta * (1 - delta))
  const z = zOfConfidence(1 - 2 * alpha)
  const drop = lost - gained
  const sd = Math.sqrt(Math.max(0, gained + lost - drop * drop))
  const distance = (margin - drop) * Math.sqrt(pairs) - z * nullSd
  if (sd <= 0) return distance > 0 ? 1 : 0
  return normalCdf(distance / sd)
}

/**
 * P(both succeed) when two modes succeed with probabilities `first` and `second`, correlated `correlation`
 * on the latent normal scale (the simulator's model: a run succeeds when √ρ·u + √(1 − ρ)·e falls below
 * Φ⁻¹ of its rate, u its block's), integrated over u by Simpson's rule.
 */
export function jointSuccess(first: number, second: number, correlation: number): number {
  if (first <= 0 || second <= 0) return 0
  if (first >= 1) return second
  if (second >= 1) return first
  if (correlation >= 1) return Math.min(first, second)
  const [q1, q2] = [normalQuantile(first), normalQuantile(second)]
  const steps = 400
  const h = 16 / steps
  let both = 0
  for (let i = 0; i <= steps; i++) {
    const u = -8 + i * h
    const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2
    const spread = Math.sqrt(1 - correlation)
    const each =
      normalCdf((q1 - Math.sqrt(correlation) * u) / spread) * normalCdf((q2 - Math.sqrt(correlation) * u) / spread)
    both += (weight * Math.exp(-0.5 * u * u) * each) / Math.sqrt(2 * Math.PI)
  }
  return (both * h) / 3
}

/**
 * The share of blocks whose two runs differ in success when both modes succeed with probability
 * `success` and their successes are correlated `correlation` on the latent normal scale: 2(p − P(both succeed)).
 */
export function discordanceOf(success: number, correlation: number): number {
  if (success <= 0 || success >= 1) return 0
  return Math.max(0, 2 * (success - jointSuccess(success, success, correlation)))
}

/** The latent correlation (0..1) at which blocks differ in success a share `discordance` of the time: the simulator's parameter of a measured share. */
export function correlationOfDiscordance(success: number, discordance: number): number {
  // Discordance falls as the correlation rises: bisect; beyond independence's (negative correlation) the model's nearest is 0.
  let low = 0
  let high = 1
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2
    if (discordanceOf(success, mid) > discordance) low = mid
    else high = mid
  }
  return (low + high) / 2
}

/**
 * The design of fewest runs (S x R, S from `minScenarios` to `maxScenarios`, R from 3 to
 * `maxRepetitions`) whose whole-gate power reaches `goal`; null when none does.
 */
export function smallestDesign(
  t: Thresholds,
  model: PowerModel,
  estimand: Estimand,
  target: number,
  bounds: {minScenarios: number; maxScenarios: number; maxRepetitions: number},
  goal = 0.8,
): DesignPower | null {
  let best: DesignPower | null = null
  for (let s = bounds.minScenarios; s <= bounds.maxScenarios; s++) {
    // The most repetitions that could still beat the best: where even they fall short, so do fewer (the
    // rates' sized rules make power step a little as runs grow, never by the tens of points a scenario
    // count the population estimand cannot certify at any repetitions is short by).
    const cap = best
      ? Math.min(bounds.maxRepetitions, Math.ceil((best.scenarios * best.repetitions) / s) - 1)
      : bounds.maxRepetitions
    if (cap < 3 || designPower(t, model, estimand, s, cap, target).power < goal) continue
    for (let r = 3; r <= cap; r++) {
      if (best && s * r >= best.scenarios * best.repetitions) break
      const design = designPower(t, model, estimand, s, r, target)
      if (design.power >= goal) {
        best = design
        break
      }
    }
  }
  return best
}

/** The smallest true reduction (%) each efficiency check detects with 80% power at S x R. */
export function detectableReductions(
  t: Thresholds,
  model: PowerModel,
  estimand: Estimand,
  scenarios: number,
  repetitions: number,
  confidence = 0.95,
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [check, key] of REDUCTIONS) {
    // The candidate's tool calls at the threshold's ratio: the detectable effect lies near it.
    const ratio = Math.max(0.01, 1 - t[key] / 100)
    const {se, critical} = errorOf(check, model, estimand, scenarios, repetitions, confidence, ratio)
    out[check] = reductionOfLogRatio(logRatioOfReduction(t[key]) - (critical + Z_POWER) * se)
  }
  return out
}

/**
 * How many repetitions at `scenarios` give the whole gate `goal` power for a candidate at `target`
 * times every efficiency threshold: the fewest up to `maxRepetitions` (null: none does).
 */
export function repetitionsFor(
  t: Thresholds,
  model: PowerModel,
  estimand: Estimand,
  scenarios: number,
  target: number,
  goal = 0.8,
  maxRepetitions = 1000,
): DesignPower | null {
  // Power rises with the repetitions but not strictly (a sized rule's count steps): the first that reaches the goal.
  for (let r = 1; r <= maxRepetitions; r++) {
    const design = designPower(t, model, estimand, scenarios, r, target)
    if (design.power >= goal) return design
  }
  return null
}

/** The step of the success margins `affordableMargin` tries, in points. */
const MARGIN_STEP = 0.5

/**
 * The tightest success margin (points, in steps of MARGIN_STEP up to 50) at which the whole gate has
 * `goal` power at S x R, the other limits as the profile has them; null when none up to 50 does.
 */
export function affordableMargin(
  t: Thresholds,
  model: PowerModel,
  estimand: Estimand,
  scenarios: number,
  repetitions: number,
  target: number,
  goal = 0.8,
): {margin: number; design: DesignPower} | null {
  for (let margin = MARGIN_STEP; margin <= 50; margin += MARGIN_STEP) {
    const design = designPower(
      {...t, max_success_rate_drop_pct: margin},
      model,
      estimand,
      scenarios,
      repetitions,
      target,
    )
    if (design.power >= goal) return {margin, design}
  }
  return null
}

/**
 * Why a suite is smaller than its profile needs, in one sentence (null when it is not): the whole-gate
 * power the planner gives the realistic good candidate (defaultPowerModel, twice every efficiency
 * threshold) at the suite's S x R is under 80%, with the design of fewest runs that reaches it.
 */
export function undersizedSuiteWarning(
  suite: string,
  profile: {name: string; thresholds: Thresholds; estimand?: Estimand},
  scenarios: number,
  repetitions: number,
): string | null {
  const model = defaultPowerModel()
  const estimand = profile.estimand ?? 'suite'
  const asWritten = designPower(profile.thresholds, model, estimand, scenarios, repetitions, PLANNED_TARGET)
  if (asWritten.power >= PLANNED_POWER) return null
  const more = repetitionsFor(
    profile.thresholds,
    model,
    estimand,
    scenarios,
    PLANNED_TARGET,
    PLANNED_POWER,
    LARGEST_DESIGN.repetitions,
  )
  const fewest = smallestDesign(profile.thresholds, model, estimand, PLANNED_TARGET, {
    minScenarios: scenarios,
    maxScenarios: Math.max(scenarios, LARGEST_DESIGN.scenarios),
    maxRepetitions: LARGEST_DESIGN.repetitions,
  })
  const needs = [
    more
      ? `${more.repetitions} repetitions at its ${scenarios} scenarios (${scenarios * more.repetitions} runs a mode)`
      : null,
    fewest && (!more || fewest.scenarios !== scenarios)
      ? `${fewest.scenarios} scenarios × ${fewest.repetitions} (${fewest.scenarios * fewest.repetitions} runs a mode)`
      : null,
  ].filter((need): need is string => need !== null)
  const fix =
    needs.length > 0
      ? `80% takes ${needs.join(', or ')}`
      : `no design up to ${LARGEST_DESIGN.scenarios} scenarios × ${LARGEST_DESIGN.repetitions} repetitions reaches 80%`
  return `suite ${suite} (${scenarios} scenarios × ${repetitions} repetitions) is smaller than its gate ${profile.name} needs: a good candidate (95% success, twice every efficiency threshold) passes it ${(100 * asWritten.power).toFixed(0)}% of the time by the planner; ${fix} (ghx-bench plan)`
}
