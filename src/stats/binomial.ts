/**
 * Exact binomial tests of a rate against a limit: the sized rules of the reliability checks.
 *
 * A rate "at most p0" is certified by the one-sided exact test: with n runs, pass when the count x is
 * at most k, k the largest count with P(X <= k | n, p0) <= α. A candidate whose true rate is p0 then
 * passes at most α of the time, exactly, at every n (not only asymptotically, as a Wilson bound
 * would). It fails when P(X >= x | n, p0) <= α (the rate is above the limit at the same level), and
 * is inconclusive between. The same rule read as an interval is the one-sided Clopper-Pearson bound
 * at 1 - α: pass when the upper bound is below p0, fail when the lower bound is above it.
 *
 * At small n no count certifies a small limit at all: P(X = 0 | n, p0) = (1 - p0)^n > α until
 * n >= log α / log(1 - p0) (a 2% limit at α = 5%: 149 runs). `runsToCertify` says how many.
 */
import {incompleteBeta, logGamma} from './special.js'

/** log P(X = k) for X ~ Binomial(n, p). */
export function binomialLogPmf(n: number, k: number, p: number): number {
  if (p <= 0) return k === 0 ? 0 : -Infinity
  if (p >= 1) return k === n ? 0 : -Infinity
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p)
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0
  if (k >= n) return 1
  let total = 0
  for (let i = 0; i <= k; i++) total += Math.exp(binomialLogPmf(n, i, p))
  return Math.min(1, total)
}

/** P(X >= k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  return k <= 0 ? 1 : 1 - binomialCdf(k - 1, n, p)
}

/** A tail below this adds less to a p-value or a bound than the gate could ever read from it (it compares with α, prints 2 digits). */
const NEGLIGIBLE_TAIL = 1e-17

/** The Kullback-Leibler divergence of Bernoulli(x) from Bernoulli(p): Chernoff's exponent per trial. */
export function bernoulliDivergence(x: number, p: number): number {
  return (x === 0 ? 0 : x * Math.log(x / p)) + (x === 1 ? 0 : (1 - x) * Math.log((1 - x) / (1 - p)))
}

/**
 * P(X <= k) for X ~ Binomial(n, p): 0 or 1 where Chernoff's bound puts it within NEGLIGIBLE_TAIL of
 * them, else by the regularized incomplete beta (one evaluation, whatever k).
 */
export function binomialLowerTail(k: number, n: number, p: number): number {
  if (k < 0) return 0
  if (k >= n) return 1
  if (k < n * p && Math.exp(-n * bernoulliDivergence(k / n, p)) < NEGLIGIBLE_TAIL) return 0
  if (k + 1 > n * p && Math.exp(-n * bernoulliDivergence((k + 1) / n, p)) < NEGLIGIBLE_TAIL) return 1
  return incompleteBeta(1 - p, n - k, k + 1)
}

export interface SizedRule {
  /** Pass when the count is at most this; -1 when no count certifies the limit at this n. */
  pass_max: number
  /** Fail when the count is at least this; n + 1 when no count does. */
  fail_min: number
}

/**
 * The sized rule of "rate at most `limit`" (a fraction) over n runs, each side at one-sided level α.
 * One pass up the distribution: P(X <= k) only grows with k, so the pass side ends at the first count
 * whose cdf exceeds α and the fail side at the first whose upper tail beyond is at most α, which comes
 * a few deviations above n·limit. The sums are binomialCdf's own, term for term in the same order, so
 * the rule is the one the two tail functions define, in time linear in that count (not quadratic in n).
 */
export function sizedRule(n: number, limit: number, alpha: number): SizedRule {
  // cdf(k): binomialCdf(k, n, limit) exactly; cdf(k) for k >= n is 1.
  let total = 0
  let passMax: number | undefined
  let failMin: number | undefined
  for (let k = 0; k <= n && (passMax === undefined || failMin === undefined); k++) {
    const cdf = k >= n ? 1 : Math.min(1, (total += Math.exp(binomialLogPmf(n, k, limit))))
    if (passMax === undefined && cdf > alpha) passMax = k - 1
    // binomialUpperTail(k + 1) = 1 - cdf(k): the rule fails from the first k + 1 where that is at most α.
    if (failMin === undefined && 1 - cdf <= alpha) failMin = k + 1
  }
  // The upper tail of 0 is 1: a count of 0 fails only at α >= 1.
  if (failMin === 1 && alpha >= 1) failMin = 0
  return {pass_max: passMax ?? n, fail_min: failMin ?? n + 1}
}

/** The fewest runs at which `count` events still certify "rate at most `limit`" at level α (Infinity for a limit of 0). */
export function runsToCertify(limit: number, alpha: number, count = 0): number {
  if (limit <= 0) return Infinity
  if (limit >= 1) return count + 1
  if (count === 0) return Math.max(1, Math.ceil(Math.log(alpha) / Math.log1p(-limit)))
  // P(X <= count | n) falls as n grows: the first n where it is at most α, by doubling then bisecting.
  const certifies = (runs: number) => binomialCdf(count, runs, limit) <= alpha
  let low = count
  let high = count + 1
  while (!certifies(high)) [low, high] = [high, high * 2]
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (certifies(mid)) high = mid
    else low = mid
  }
  return high
}

/**
 * The one-sided Clopper-Pearson bounds at level α of a rate with `count` events in n runs, as
 * fractions: [lower, upper] with P(X >= count | lower) = α and P(X <= count | upper) = α (0 and 1
 * at the ends). The sized rule's verdict is this interval's: pass when upper <= limit, fail when lower > limit.
 */
export function clopperPearson(count: number, n: number, alpha: number): [number, number] {
  if (n === 0) return [Number.NaN, Number.NaN]
  // f rises with p: bisect for the p where it reaches `target`.
  const solve = (f: (p: number) => number, target: number) => {
    let low = 0
    let high = 1
    for (let i = 0; i < 60; i++) {
      const mid = (low + high) / 2
      if (f(mid) < target) low = mid
      else high = mid
    }
    return (low + high) / 2
  }
  const lower = count === 0 ? 0 : solve((p) => 1 - binomialLowerTail(count - 1, n, p), alpha)
  const upper = count === n ? 1 : solve((p) => 1 - binomialLowerTail(count, n, p), 1 - alpha)
  return [lower, upper]
}

/**
 * The sized rules of "rate at most `limit`" judged at looks of n_1 < ... < n_K runs, the events counted
 * cumulatively (each look's runs include the earlier looks'), each side's error spent exactly: at look k
 * the rule passes with at most pass_max_k events, pass_max_k the largest count with
 * P(the rule passes at some look <= k | rate = limit) <= spent[k], and fails from fail_min_k, likewise.
 *
 * A count only grows, so the looks' pass events are nested far more than independent tests' would be
 * (no events by run 40 means none by run 32 either): the exact chance, computed by carrying the count's
 * distribution over the runs not yet decided from look to look, lets each look pass at nearly the level
 * a single test would, where boundaries from the normal approximation (or a Bonferroni split) spend the
 * error as if the looks were apart. `spent` is cumulative and ascending; its last value the overall α.
 */
export function sequentialSizedRules(runs: readonly number[], limit: number, spent: readonly number[]): SizedRule[] {
  const rules: SizedRule[] = []
  // The count's distribution over the runs neither passed nor failed yet: probabilities by count.
  let open = new Float64Array([1])
  let previous = 0
  let passed = 0
  let failed = 0
  for (const [k, n] of runs.entries()) {
    const added = n - previous
    previous = n
    const step = Array.from({length: added + 1}, (_, x) => Math.exp(binomialLogPmf(added, x, limit)))
    const next = new Float64Array(open.length + added)
    for (let x = 0; x < open.length; x++) {
      const mass = open[x]!
      if (mass === 0) continue
      for (let y = 0; y <= added; y++) next[x + y]! += mass * step[y]!
    }
    open = next
    const allowed = spent[k]!
    let passMax = -1
    let below = 0
    while (passMax < n && passed + below + open[passMax + 1]! <= allowed) below += open[++passMax]!
    let failMin = n + 1
    let above = 0
    while (failMin - 1 > passMax && failed + above + open[failMin - 1]! <= allowed) above += open[--failMin]!
    passed += below
    failed += above
    for (let x = 0; x <= passMax; x++) open[x] = 0
    for (let x = failMin; x <= n; x++) open[x] = 0
    rules.push({pass_max: passMax, fail_min: failMin})
  }
  return rules
}
