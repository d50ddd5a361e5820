/**
 * The sequential decision rule behind `run --until-decided`: repetitions are added in looks planned
 * in advance (5, 8, then every 2 repetitions to 20 per cell by default), the gate is judged after each, and the run stops
 * as soon as its verdict is settled, so a clear candidate costs fewer runs than a fixed design of the
 * largest look, and an unclear one no more.
 *
 * Error rate: judging after every look with 95% intervals would pass a candidate at its threshold
 * far more often than 2.5% of the time (a chance at every look instead of one). So the overall error α (5%,
 * two-sided: 2.5% of false passes, 2.5% of false fails) is spent across the looks by a Lan-DeMets
 * spending function of the information fraction t = repetitions / the last look's: by default the
 * power family α·t^1.5 (Kim & DeMets), or Pocock's type α·ln(1 + (e - 1)t) (spent evenly: more early
 * stops, less power at the last look) or O'Brien-Fleming's type 2 - 2Φ(z_{α/2} / √t) (little spent
 * early). The simulation chose the default (ghx-bench simulate, verify_pr, twice the thresholds,
 * each check counted alone, before issue 26: 38-43% fewer runs against Pocock's 44-48% and
 * O'Brien-Fleming's 30-36%). The whole gate, with verdicts frozen (below), passes a good candidate of
 * the verify-pr suite (6 scenarios) 93% of the time with 32% fewer runs than 20 fixed repetitions; at 4
 * scenarios it saves 14%, and no schedule can save 30% there: even a look at every repetition at the
 * fixed 95%, no error spent, saves 35% (bench/sequential-bound.ts; docs/gate.md).
 * The looks come every 2 repetitions after the second: with looks at 5, 8, 12, 16 and 20 the whole gate,
 * which stops at its slowest check, saved 27-29%; more looks cost one gate judgement each and their
 * error is still spent by the same function.
 * Look k is judged with intervals at the confidence of its group-sequential boundary, which accounts
 * for the looks sharing their runs (the default plan: 99.37%, 99.13%, 99.01%, 98.76%, 98.49%, 98.18%,
 * 97.85%, 97.49%; see src/stats/alpha-spending.ts); the rule needs nothing of an estimator but a valid
 * interval at each look.
 *
 * Frozen verdicts: a check's verdict is frozen at its first decisive look (freezeVerdicts), coverage's
 * excepted (a count, judged at each look as it stands): it is a group-sequential test of its own, stopped where its boundary was crossed, whose error the spending
 * function bounds; later looks, run for the checks still open, do not reopen it. Without freezing the
 * whole gate had to find every check decisive at one and the same look, and a good candidate ran to
 * the last look 96-100% of the time (issue 26: 0-4% of runs saved). A rate's sized rule is the exact
 * group-sequential binomial test of its 5% over the looks (reliability-rules.ts judgeRateAtLook), the
 * paired success test's pass side likewise (sequentialPairedRules); the unpaired success test and the
 * paired one's fail side are judged at each look at one-sided level 1 - the look's confidence.
 *
 * Stopping: after look k each check is
 * - decided: pass or fail at this look's confidence, or frozen at an earlier look (skipped checks count as decided);
 * - futile: not decided, and even were its true value 1.28 standard errors (of the estimate so far)
 *   better than estimated, its interval at the last look's confidence, projected to the last look's
 *   runs, would still straddle the threshold (a rate of 0% against a limit of 2% with 80 runs to
 *   come); or it lacks data on one side, which more runs of the same modes will not mend: it does not
 *   hold the run open, and ends inconclusive;
 * - pending: anything else (including a ci refusal for small cells, or coverage short of its
 *   threshold, while looks remain).
 * The run stops when a check has failed (the gate fails whatever the rest), when no check is pending,
 * at the last look, or when the next look would overrun the budget (src/results/budget.ts). A futility
 * stop only ever yields inconclusive, so it cannot raise the false-pass rate.
 */
import {groupSequentialBoundaries, type SpendingFunction} from '../../stats/alpha-spending.js'
import {logRatioOfReduction, reductionOfLogRatio} from '../../stats/log-ratio.js'
import {newcombeInterval, wilsonInterval} from '../../stats/rates.js'
import {tangoInterval} from '../../stats/paired-flips.js'
import {normalCdf, zOfConfidence} from '../../stats/special.js'
import type {Comparison, Estimate, Reduction} from '../aggregate/compare.js'
import {clearsThreshold, overallVerdict, type CheckName, type GateCheck, type Verdict} from './gate.js'
import {judgeSuccessDrop, reliabilityLevel} from './reliability-rules.js'
import {clopperPearson} from '../../stats/binomial.js'
import {suiteSchema} from '../../schemas/suite.js'

export const DEFAULT_LOOKS: readonly number[] = [5, 8, 10, 12, 14, 16, 18, 20]
export const DEFAULT_SPENDING: Spending = 'power'
export const DEFAULT_ALPHA = 0.05
export type Spending = SpendingFunction

export interface SequentialPlan {
  /** Repetitions per cell at each look, ascending. */
  looks: number[]
  alpha: number
  spending: Spending
}

const confidenceCache = new Map<string, number[]>()

/**
 * The confidence of each look's intervals: 2Φ(c_k) - 1, c_k the look's group-sequential boundary for
 * the error the spending function allots it (src/stats/alpha-spending.ts). Computed once per plan.
 */
export function lookConfidences(plan: SequentialPlan): number[] {
  const key = `${plan.looks.join(',')}|${plan.alpha}|${plan.spending}`
  let confidences = confidenceCache.get(key)
  if (!confidences) {
    const last = plan.looks.at(-1)!
    const boundaries = groupSequentialBoundaries(
      plan.looks.map((n) => n / last),
      plan.alpha,
      plan.spending,
    )
    confidences = boundaries.map((c) => 2 * normalCdf(c) - 1)
    confidenceCache.set(key, confidences)
  }
  return confidences
}

/** Looks as given ("5,10,20"): positive integers, strictly ascending; an error message otherwise. */
export function parseLooks(text: string): number[] | string {
  const looks = text.split(',').map((part) => part.trim())
  if (looks.some((part) => !/^\d+$/.test(part)))
    return `expected repetitions per cell separated by commas (5,10,20), got "${text}"`
  const numbers = looks.map(Number)
  if (numbers[0]! < 1 || numbers.some((n, i) => i > 0 && n <= numbers[i - 1]!))
    return `looks must be ascending positive repetitions, got "${text}"`
  // A look is a suite's repetitions: no more than a suite may have.
  if (numbers.at(-1)! > suiteSchema.properties.repetitions.maximum)
    return `looks must be at most ${suiteSchema.properties.repetitions.maximum} repetitions (a suite's most), got "${text}"`
  return numbers
}

export type CheckState = 'decided' | 'futile' | 'pending'

export interface LookDecision {
  /** Stop after this look? */
  stop: boolean
  /** Why the run stops, or why it goes on. */
  reason: string
  states: Record<string, CheckState>
}

export interface LookContext {
  plan: SequentialPlan
  /** 0-based index of the look just judged. */
  look: number
}

/** The comparison's estimate behind a gate check. */
function estimateOf(name: GateCheck['name'], comparison: Comparison): Estimate | Reduction | null {
  const {reliability: r, efficiency: e} = comparison
  const estimates: Record<GateCheck['name'], Estimate | Reduction | null> = {
    reliability_success_rate_non_inferior: r.success_rate_delta_pp,
    reliability_output_validity: r.output_validity_rate,
    reliability_runner_failure_rate: r.runner_failure_rate,
    reliability_timeout_stall_rate: r.timeout_stall_rate,
    reliability_retry_rate: r.retry_rate,
    reliability_fallback_rate: r.fallback_rate ?? null,
    efficiency_coverage: e.coverage_pct,
    efficiency_tokens_active_reduction: e.tokens_active_reduction_pct,
    efficiency_latency_reduction: e.latency_reduction_pct,
    efficiency_tool_call_reduction: e.tool_call_reduction_pct,
    efficiency_cost_reduction: e.cost_reduction_pct,
  }
  return estimates[name]
}

/**
 * The futility margin: a check is waited for unless, with its true value Z_FUTILITY standard errors
 * (of the estimate so far) better than estimated, its interval at the last look would still straddle
 * the threshold. Measured from the current standard error, not the last look's, so an early, noisy
 * estimate does not end a check that more runs would settle (a plain conditional-power rule on the
 * estimate cost the simulation about 9 points of power at twice the threshold).
 */
const Z_FUTILITY = 1.2815515655446004 // Φ⁻¹(0.9)

/**
 * A check's interval at `confidence` if the runs grew by `growth`, with its estimate moved
 * Z_FUTILITY current standard errors away from the threshold; null when it cannot be projected.
 */
export function projectedInterval(
  check: GateCheck,
  comparison: Comparison,
  growth: number,
  confidence: number,
): [number, number] | null {
  const z = zOfConfidence(confidence)
  const estimate = estimateOf(check.name, comparison)
  if (!estimate || estimate.value === null) return null
  // Which side of the threshold the estimate is on (at it, within the gate's tolerance: above).
  const away = clearsThreshold(estimate.value, '>=', check.threshold) ? 1 : -1
  if ('scenarios' in estimate) {
    if (!estimate.log_variance || !estimate.scenarios) return null
    const {between, within} = estimate.log_variance
    if (between === null || within === null) return null
    // More runs shrink each scenario's own noise; the spread between scenarios stays, and is no error under the suite estimand.
    const spread = estimate.estimand === 'suite' ? 0 : between
    const seNow = Math.sqrt((spread + within) / estimate.scenarios)
    const seLast = Math.sqrt((spread + within / growth) / estimate.scenarios)
    // A larger reduction is a smaller log ratio: away from the threshold in reduction is down in θ.
    const theta = logRatioOfReduction(estimate.value) - away * Z_FUTILITY * seNow
    return [reductionOfLogRatio(theta + z * seLast), reductionOfLogRatio(theta - z * seLast)]
  }
  const rate = estimate
  if (!rate.runs) return null
  const runs = Math.round(rate.runs * growth)
  const clamp = (p: number) => Math.min(1, Math.max(0, p))
  // Decision ci judges rates by their sized rules: projected as such (the rule's interval), the rest as the Wilson, Tango and Newcombe intervals.
  const sized = check.rule !== null && check.rule !== undefined
  const alpha = reliabilityLevel(confidence)
  if (rate.method === 'tango' && rate.paired) {
    // Paired: the discordant share kept, the difference moved by Z_FUTILITY of its standard error, as pairs at the last look.
    const {pairs, pass_to_fail: lost, fail_to_pass: gained} = rate.paired
    if (pairs === 0) return null
    const discordant = (gained + lost) / pairs
    const difference = (gained - lost) / pairs
    const seNow = Math.sqrt(Math.max(0, discordant - difference * difference) / pairs)
    const moved = Math.max(-discordant, Math.min(discordant, difference + away * Z_FUTILITY * seNow))
    const projectedPairs = Math.round(pairs * growth)
    const projected = {
      pairs: projectedPairs,
      fail_to_pass: Math.round((projectedPairs * (discordant + moved)) / 2),
      pass_to_fail: Math.round((projectedPairs * (discordant - moved)) / 2),
    }
    // The sized rule's interval (Tango's at 1 - 2α; its exact test decides much as the interval does), or the comparison's.
    const [low, high] = tangoInterval(
      projected.fail_to_pass,
      projected.pass_to_fail,
      projectedPairs,
      sized ? zOfConfidence(1 - 2 * alpha) : z,
    )
    return [low * 100, high * 100]
  }
  if (rate.method === 'newcombe' || rate.method === 'tango') {
    const candidateRate = comparison.reliability.success_rate.value
    if (candidateRate === null) return null
    const candidate = clamp(candidateRate / 100)
    const baseline = clamp(candidate - rate.value! / 100)
    const seNow = Math.sqrt((candidate * (1 - candidate) + baseline * (1 - baseline)) / rate.runs)
    const moved = clamp(candidate + away * Z_FUTILITY * seNow)
    if (sized)
      return judgeSuccessDrop(
        {
          candidate: Math.round(moved * runs),
          candidateRuns: runs,
          baseline: Math.round(baseline * runs),
          baselineRuns: runs,
        },
        -check.threshold,
        alpha,
        (v) => clearsThreshold(v, '>=', check.threshold),
      ).interval
    const [low, high] = newcombeInterval(moved * runs, runs, baseline * runs, runs, z)
    return [low * 100, high * 100]
  }
  if (rate.method !== 'wilson') return null
  const p = rate.value! / 100
  // A rate of 0 (or 1) has no spread to move by: its best case is itself.
  const moved = clamp(p + away * Z_FUTILITY * Math.sqrt((p * (1 - p)) / rate.runs))
  const [low, high] = sized
    ? clopperPearson(Math.round(moved * runs), runs, alpha)
    : wilsonInterval(moved * runs, runs, z)
  return [low * 100, high * 100]
}

function straddles(interval: [number, number], check: GateCheck): boolean {
  const passes = (x: number) => clearsThreshold(x, check.operator, check.threshold)
  return passes(interval[0]) !== passes(interval[1])
}

function missingOf(estimate: Estimate | Reduction | null): string | null {
  return estimate && 'missing' in estimate ? (estimate.missing ?? null) : null
}

/** Each check's state after a look (see the file's comment). */
export function checkStates(
  checks: readonly GateCheck[],
  comparison: Comparison,
  context: LookContext,
): Record<string, CheckState> {
  const {plan, look} = context
  const last = plan.looks.length - 1
  const growth = plan.looks[last]! / plan.looks[look]!
  const finalConfidence = lookConfidences(plan)[last]!
  const states: Record<string, CheckState> = {}
  for (const check of checks) {
    if (check.verdict === 'skipped') states[check.name] = 'decided'
    else if (check.name === 'efficiency_coverage')
      states[check.name] = check.verdict === 'pass' || look === last ? 'decided' : 'pending'
    else if (check.verdict === 'pass' || check.verdict === 'fail') states[check.name] = 'decided'
    else if (look === last) states[check.name] = 'futile'
    // One mode lacks the metric: more runs of the same modes will not supply it.
    else if (missingOf(estimateOf(check.name, comparison))) states[check.name] = 'futile'
    else {
      const projected = projectedInterval(check, comparison, growth, finalConfidence)
      states[check.name] = projected && straddles(projected, check) ? 'futile' : 'pending'
    }
  }
  return states
}

/** Verdicts frozen at their first decisive look: the check's name -> its verdict and the 1-based look. */
export type FrozenVerdicts = Partial<Record<CheckName, {verdict: 'pass' | 'fail'; look: number}>>

/**
 * A look's checks with the verdicts frozen at earlier looks laid over them, the verdicts decisive
 * for the first time at this look (`look`, 0-based) added to the frozen, and the whole gate's verdict
 * from the merged checks. Pure: `frozen` is not changed.
 */
export function freezeVerdicts(
  checks: readonly GateCheck[],
  frozen: FrozenVerdicts,
  look: number,
): {checks: GateCheck[]; frozen: FrozenVerdicts; verdict: Exclude<Verdict, 'skipped'>} {
  const next: FrozenVerdicts = {...frozen}
  const merged = checks.map((check) => {
    const earlier = frozen[check.name]
    if (earlier)
      return {
        ...check,
        verdict: earlier.verdict,
        reason: `decided at look ${earlier.look}, and frozen there (this look’s own verdict: ${check.verdict})`,
      }
    // Coverage is a count, not a test with an error to spend: it stands as each look has it. Frozen, a
    // scenario not yet comparable at the first look failed the gate at the last where all four were
    // (3.5% of good candidates at 4 scenarios, issue 26).
    if ((check.verdict === 'pass' || check.verdict === 'fail') && check.name !== 'efficiency_coverage')
      next[check.name] = {verdict: check.verdict, look: look + 1}
    return check
  })
  return {checks: merged, frozen: next, verdict: overallVerdict(merged)}
}

/** Whether to stop after a look, from its checks (judged at that look's confidence, frozen verdicts laid over them). */
export function decideLook(checks: readonly GateCheck[], comparison: Comparison, context: LookContext): LookDecision {
  const states = checkStates(checks, comparison, context)
  const failed = checks.filter((c) => c.verdict === 'fail' && states[c.name] === 'decided')
  if (failed.length > 0) return {stop: true, reason: `decided: ${failed.map((c) => c.name).join(', ')} failed`, states}
  const pending = Object.entries(states)
    .filter(([, state]) => state === 'pending')
    .map(([name]) => name)
  if (pending.length === 0) {
    const futile = Object.entries(states)
      .filter(([, state]) => state === 'futile')
      .map(([name]) => name)
    return {
      stop: true,
      reason:
        futile.length === 0
          ? 'decided: every check'
          : `every check decided except ${futile.join(', ')}, which more runs within the plan are not expected to settle`,
      states,
    }
  }
  if (context.look === context.plan.looks.length - 1)
    return {stop: true, reason: `the last look: ${pending.join(', ')} still undecided`, states}
  return {stop: false, reason: `undecided: ${pending.join(', ')}`, states}
}
