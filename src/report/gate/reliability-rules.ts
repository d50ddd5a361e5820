/**
 * The sized rules of the reliability checks under `decision: ci`, at one-sided level α (5% at the
 * gate's 95%; at a sequential look, 1 - that look's confidence):
 *
 * - a rate with a limit (runner failures, timeouts, retries, fallbacks, and output validity as its
 *   share of invalid outputs): the one-sided exact binomial test at the limit (src/stats/binomial.ts);
 *   at a look, its exact group-sequential version, 5% spent over the looks (judgeRateAtLook).
 *   With n runs it passes with at most k events, k the largest count a candidate exactly at the limit
 *   reaches no more than α of the time, and fails from the count a candidate at the limit exceeds no
 *   more than α of the time. A candidate at its limit passes at most α of the time, at any n.
 * - the success rate against the baseline's: non-inferiority with the profile's drop as its margin,
 *   one-sided at α, with an interval at 1 - 2α: pass when its lower bound is above -margin, fail when
 *   its upper bound is below; Newcombe's hybrid score interval of two independent rates. Where the
 *   runner paired the runs (one of each mode per iteration block), the paired test: Tango's score
 *   statistic with its exact unconditional p-value (src/stats/paired-flips.ts), each side at α, its
 *   interval Tango's; a block's shared moment or scenario difficulty then cancels. At a look its pass
 *   side is the exact group-sequential version (sequentialPairedRules), its fail side the look's level.
 *
 * The Wilson intervals of the comparison answered "where is the rate?" at 95% two-sided; they passed
 * a 2% limit only after about 190 runs without a single timeout, and a 3-point drop only after 125 to
 * 427 runs per mode, so no built-in suite could pass. A limit that these runs cannot certify at all
 * is said so (`capacity`), by the verdict, the profile's statement and validate, never left to be
 * found by never passing.
 */
import type {Thresholds} from '../../schemas/profile.js'
import {spentAlpha, type SpendingFunction} from '../../stats/alpha-spending.js'
import {clopperPearson, runsToCertify, sequentialSizedRules, sizedRule, type SizedRule} from '../../stats/binomial.js'
import {newcombeInterval} from '../../stats/rates.js'
import {
  pairedNonInferiority,
  pairedScore,
  SEQUENTIAL_PAIRED_MAX_PAIRS,
  sequentialPairedRules,
  tangoInterval,
} from '../../stats/paired-flips.js'
import {zOfConfidence} from '../../stats/special.js'

/** The one-sided level of the reliability rules at a comparison's confidence: 5% at 95%. */
export function reliabilityLevel(confidence: number): number {
  return 1 - confidence
}

/** A rate check's limit in the shape the test reads: events (or, for a floor such as validity, non-events) at most `limit` (a fraction). */
export interface RateLimit {
  /** What an event is, in the rule's words: "timeouts", "invalid outputs". */
  events: string
  limit: number
  /** Whether the check's value is the complement of the events' share (validity: 100 - invalid %). */
  complement: boolean
}

export interface RuleOutcome {
  verdict: 'pass' | 'fail' | 'inconclusive'
  reason: string | null
  /** The rule's interval, in the check's units (%). */
  interval: [number, number]
  rule: string
  /** A rate's rule at these runs (the counts it passes with and fails from): what it can detect is read from it (detectable.ts). */
  cutoffs?: SizedRule
}

const pct = (fraction: number) => `${Number((100 * fraction).toPrecision(6))}%`

/** The rule's text at n runs: what passes, what fails, or that nothing can pass. */
function describeRateRule(
  limit: RateLimit,
  runs: number,
  alpha: number,
  sized: SizedRule = sizedRule(runs, limit.limit, alpha),
  spentOver = '',
): string {
  const test = `exact binomial test of ${limit.events} at most ${pct(limit.limit)}, one-sided ${pct(alpha)}${spentOver}`
  if (limit.limit >= 1) return `${test}: passes whatever the count`
  if (sized.pass_max < 0)
    return `${test}: ${runs} runs cannot pass it (with none, it takes ${runsToCertify(limit.limit, alpha)} runs)`
  const fails = sized.fail_min <= runs ? `, fails from ${sized.fail_min}` : ''
  return `${test}: passes with at most ${sized.pass_max} in ${runs}${fails}`
}

/** The verdict of a rate's sized rule, `count` being the events (validity: the invalid outputs) in `runs`. */
export function judgeRate(
  limit: RateLimit,
  count: number,
  runs: number,
  alpha: number,
  sized = sizedRule(runs, limit.limit, alpha),
  spentOver = '',
): RuleOutcome {
  const [low, high] = clopperPearson(count, runs, alpha)
  const interval: [number, number] = limit.complement ? [100 * (1 - high), 100 * (1 - low)] : [100 * low, 100 * high]
  const rule = describeRateRule(limit, runs, alpha, sized, spentOver)
  if (limit.limit >= 1 || count <= sized.pass_max)
    return {verdict: 'pass', reason: null, interval, rule, cutoffs: sized}
  if (count >= sized.fail_min) return {verdict: 'fail', reason: null, interval, rule, cutoffs: sized}
  const reason =
    sized.pass_max < 0
      ? `${runs} runs cannot certify ${limit.events} at most ${pct(limit.limit)}: with none, it takes ${runsToCertify(limit.limit, alpha)} runs`
      : `${count} ${limit.events} in ${runs}: passes with at most ${sized.pass_max}, fails from ${sized.fail_min}`
  return {verdict: 'inconclusive', reason, interval, rule, cutoffs: sized}
}

/**
 * A look of `run --until-decided`: the plan's looks (repetitions per cell), this one's index, and the
 * spending function.
 */
export interface SequentialLook {
  looks: readonly number[]
  index: number
  spending: SpendingFunction
}

/** The one-sided level of a rate's rule, and of the paired success test's pass side, over all the looks of `run --until-decided`: the fixed design's. */
const SEQUENTIAL_ALPHA = reliabilityLevel(0.95)

/** Each look's count up to this one, in proportion to its repetitions (as planned: every cell runs each look's repetitions). */
function countsAtLooks(count: number, {looks, index}: SequentialLook): number[] {
  return looks.slice(0, index + 1).map((repetitions) => Math.round((count * repetitions) / looks[index]!))
}

/** The one-sided error the plan's spending function has spent by each look up to this one. */
function spentByLooks({looks, index, spending}: SequentialLook): number[] {
  const last = looks.at(-1)!
  return looks.slice(0, index + 1).map((repetitions) => spentAlpha(repetitions / last, SEQUENTIAL_ALPHA, spending))
}

/** How a rule at a look says what it spent. */
function spentOverLooks(look: SequentialLook, spent: readonly number[]): string {
  return ` in all, spent over the looks exactly (${look.spending} spending; look ${look.index + 1} of ${look.looks.length}, ${pct(spent[look.index]!)} spent by it)`
}

/**
 * A rate's sized rule at a look of `run --until-decided`: the exact group-sequential test (binomial.ts's
 * sequentialSizedRules), its one-sided 5% spent over the looks by the plan's spending function. Each
 * earlier look's runs are taken as this look's in proportion to its repetitions. The interval shown is
 * the one-sided 5% Clopper-Pearson interval.
 */
export function judgeRateAtLook(limit: RateLimit, count: number, runs: number, look: SequentialLook): RuleOutcome {
  const spent = spentByLooks(look)
  const sized = sequentialSizedRules(countsAtLooks(runs, look), limit.limit, spent).at(-1)!
  return judgeRate(limit, count, runs, SEQUENTIAL_ALPHA, sized, spentOverLooks(look, spent))
}

// The paired rules of a plan, by its pairs, margin and error spent: the simulator and every look of a run ask for the same ones.
const pairedRulesMemo = new Map<string, number[]>()

/**
 * The paired success test's pass threshold at a look of `run --until-decided`: the exact group-sequential
 * test (paired-flips.ts's sequentialPairedRules), its one-sided 5% spent over the looks as the rates'
 * is; null past SEQUENTIAL_PAIRED_MAX_PAIRS pairs, where the look's own level judges it.
 */
export function pairedPassAtLook(
  pairs: number,
  margin: number,
  look: SequentialLook,
): {threshold: number; spentOver: string} | null {
  if (pairs > SEQUENTIAL_PAIRED_MAX_PAIRS) return null
  const pairsAt = countsAtLooks(pairs, look)
  const spent = spentByLooks(look)
  const key = `${pairsAt.join(',')}|${margin}|${spent.join(',')}`
  let thresholds = pairedRulesMemo.get(key)
  if (!thresholds) pairedRulesMemo.set(key, (thresholds = sequentialPairedRules(pairsAt, margin, spent)))
  return {threshold: thresholds.at(-1)!, spentOver: spentOverLooks(look, spent)}
}

/** The runs of the two modes as pairs (the runner's blocks): how many, and the discordant ones. */
export interface SuccessPairs {
  pairs: number
  pass_to_fail: number
  fail_to_pass: number
}

/**
 * The success-rate non-inferiority test: candidate minus baseline, in points, against -margin. Paired
 * runs (`paired`) are judged by Tango's score interval of the paired difference, the rest by
 * Newcombe's interval of two independent rates; the rule names the one used.
 */
export function judgeSuccessDrop(
  counts: {
    candidate: number
    candidateRuns: number
    baseline: number
    baselineRuns: number
    paired?: SuccessPairs | null
  },
  marginPoints: number,
  alpha: number,
  clears: (value: number) => boolean,
  /** A look of `run --until-decided`: the paired test's pass side spends its 5% over the looks exactly. */
  look?: SequentialLook,
): RuleOutcome {
  const z = zOfConfidence(1 - 2 * alpha)
  const {paired} = counts
  if (paired) {
    const {pairs, pass_to_fail: lost, fail_to_pass: gained} = paired
    const [low, high] = tangoInterval(gained, lost, pairs, z)
    const interval: [number, number] = [100 * low, 100 * high]
    const margin = marginPoints / 100
    const p = pairedNonInferiority(gained, lost, pairs, margin)
    const sequential = look ? pairedPassAtLook(pairs, margin, look) : null
    const blocks = `paired: ${pairs} blocks run by both modes, ${lost} pass→fail and ${gained} fail→pass`
    // A threshold of Infinity: no outcome of these pairs spends no more than this look allows.
    const passesFrom = (threshold: number) =>
      Number.isFinite(threshold) ? `passes from ${threshold.toFixed(3)}` : 'passes from no value'
    const rule = sequential
      ? `non-inferiority of the success rate, margin ${marginPoints} points, one-sided ${pct(SEQUENTIAL_ALPHA)}${sequential.spentOver} (${blocks}; Tango’s score statistic ${passesFrom(sequential.threshold)} at this look by the exact group-sequential test, fails by its exact unconditional p-value at ${pct(alpha)}; the interval Tango’s at ${pct(1 - 2 * alpha)})`
      : `non-inferiority of the success rate, margin ${marginPoints} points, one-sided ${pct(alpha)} (${blocks}; Tango’s score statistic, its exact unconditional p-value; the interval Tango’s at ${pct(1 - 2 * alpha)})`
    const score = pairedScore(gained, lost, pairs, margin)
    const passes = sequential ? score >= sequential.threshold : p.non_inferior <= alpha
    if (passes) return {verdict: 'pass', reason: null, interval, rule}
    if (p.inferior <= alpha) return {verdict: 'fail', reason: null, interval, rule}
    const reason = sequential
      ? `Tango’s statistic is ${score.toFixed(3)} and ${passesFrom(sequential.threshold)} at this look; the exact p-value of inferiority is ${p.inferior.toPrecision(2)} and fails at ${pct(alpha)}`
      : `the exact p-value of non-inferiority is ${p.non_inferior.toPrecision(2)}, of inferiority ${p.inferior.toPrecision(2)}; either decides at ${pct(alpha)}`
    return {
      verdict: 'inconclusive',
      reason,
      interval,
      rule,
    }
  }
  const [low, high] = newcombeInterval(counts.candidate, counts.candidateRuns, counts.baseline, counts.baselineRuns, z)
  const interval: [number, number] = [100 * low, 100 * high]
  const rule = `non-inferiority of the success rate, margin ${marginPoints} points, one-sided ${pct(alpha)} (Newcombe’s hybrid score interval at ${pct(1 - 2 * alpha)}, the runs not paired)`
  if (clears(interval[0])) return {verdict: 'pass', reason: null, interval, rule}
  if (!clears(interval[1])) return {verdict: 'fail', reason: null, interval, rule}
  return {verdict: 'inconclusive', reason: 'the one-sided interval reaches below the margin', interval, rule}
}

/** The rate limits of a profile's thresholds, by check (validity as its invalid share). */
export function rateLimits(
  t: Thresholds,
): Record<
  | 'reliability_output_validity'
  | 'reliability_runner_failure_rate'
  | 'reliability_timeout_stall_rate'
  | 'reliability_retry_rate'
  | 'reliability_fallback_rate',
  RateLimit | null
> {
  return {
    reliability_output_validity: {
      events: 'invalid outputs',
      limit: (100 - t.min_output_validity_rate_pct) / 100,
      complement: true,
    },
    reliability_runner_failure_rate: {
      events: 'runner failures',
      limit: t.max_runner_failure_rate_pct / 100,
      complement: false,
    },
    reliability_timeout_stall_rate: {events: 'timeouts', limit: t.max_timeout_stall_rate_pct / 100, complement: false},
    reliability_retry_rate: {events: 'retried runs', limit: t.max_retry_rate_pct / 100, complement: false},
    reliability_fallback_rate:
      t.max_fallback_rate_pct === undefined
        ? null
        : {events: 'fallbacks', limit: t.max_fallback_rate_pct / 100, complement: false},
  }
}

export interface CapacityLine {
  check: string
  rule: string
  /** Whether any count of these runs passes the check. */
  certifiable: boolean
}

/**
 * What a profile's reliability checks can certify with `runs` runs per mode at level α: each rate's
 * rule, and the success drop's smallest margin a candidate as reliable as a baseline at
 * `baselineSuccess` passes with `power`. Validate and plan print it; a check that cannot pass makes
 * the suite unable to pass its own gate.
 */
export function capacity(t: Thresholds, runs: number, alpha: number): CapacityLine[] {
  const lines: CapacityLine[] = []
  for (const [check, limit] of Object.entries(rateLimits(t))) {
    if (!limit) continue
    const sized = sizedRule(runs, limit.limit, alpha)
    lines.push({
      check,
      rule: describeRateRule(limit, runs, alpha, sized),
      certifiable: limit.limit >= 1 || sized.pass_max >= 0,
    })
  }
  // The success drop can pass at any size (a candidate far better than the baseline); what it can certify for an equal one is its MDE.
  const margin = t.max_success_rate_drop_pct
  // The runner pairs the runs it makes (a block: one run of each mode), so the gate sizes the paired test.
  const equal = judgeSuccessDrop(
    {
      candidate: runs,
      candidateRuns: runs,
      baseline: runs,
      baselineRuns: runs,
      paired: {pairs: runs, pass_to_fail: 0, fail_to_pass: 0},
    },
    margin,
    alpha,
    (v) => v >= -margin,
  )
  lines.push({
    check: 'reliability_success_rate_non_inferior',
    rule: `${equal.rule}: ${runs} blocks, every run successful in both modes, give a lower bound of ${equal.interval[0].toFixed(1)} points`,
    certifiable: equal.verdict === 'pass',
  })
  return lines
}

/**
 * Why a suite cannot pass its own gate at its size, one sentence a reason (none: it can): a
 * reliability check no count of its runs passes, a population estimand below its scenarios, or
 * (under ci) cells too small to decide. `validate` prints them as warnings.
 */
export function gateSizeWarnings(
  suite: string,
  profile: {name: string; decision: string; estimand?: string; min_samples: number; thresholds: Thresholds},
  scenarios: number,
  repetitions: number,
  minPopulationScenarios: number,
  minCiRuns: number,
): string[] {
  if (profile.decision !== 'ci') return []
  const runs = scenarios * repetitions
  const warnings = capacity(profile.thresholds, runs, reliabilityLevel(0.95))
    .filter((line) => !line.certifiable)
    .map(
      (line) =>
        `suite ${suite} (${scenarios} scenarios × ${repetitions} repetitions) cannot pass its gate ${profile.name}: ${line.check}: ${line.rule}`,
    )
  if (profile.estimand === 'population' && scenarios < minPopulationScenarios)
    warnings.push(
      `suite ${suite} has ${scenarios} scenarios: its gate ${profile.name} judges the population estimand, refused below ${minPopulationScenarios} scenarios (add scenarios, or judge these with estimand suite)`,
    )
  if (repetitions < Math.max(minCiRuns, profile.min_samples))
    warnings.push(
      `suite ${suite} runs ${repetitions} repetitions: decision ci decides nothing from cells of fewer than ${Math.max(minCiRuns, profile.min_samples)}`,
    )
  return warnings
}
