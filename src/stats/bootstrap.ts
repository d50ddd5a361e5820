/**
 * Seeded, stratified bootstrap. A suite statistic (a median of per-scenario reductions, an overall
 * rate) is a function of per-cell statistics (a cell = one scenario under one mode). Each resample
 * draws every cell's statistic as if its rows were resampled with replacement within the cell, then
 * recomputes the suite statistic; the interval is the 2.5th and 97.5th percentile of the replicates.
 *
 * Drawing a cell's statistic does not always need its rows resampled one by one:
 * - a rate: the resampled success count is exactly Binomial(n, p);
 * - a median of n <= EXACT_RESAMPLE_LIMIT values: the rows are resampled and the median taken;
 * - a median of more values: the k-th order statistic of a resample is drawn from its exact
 *   distribution, P(X(k) <= v[j]) = P(Binomial(n, (j+1)/n) >= k), by inversion. For an even n the two
 *   middle order statistics are drawn from their exact marginals with one uniform (comonotone), which
 *   keeps the cost at O(log n) per draw where row resampling would cost O(n): this is what lets
 *   1,000,000 rows be bootstrapped 10,000 times in seconds.
 */
import {percentileOfSorted} from './quantiles.js'
import {mulberry32, type Random} from './random.js'
import {binomialUpperTail, logGamma} from './special.js'

export const DEFAULT_RESAMPLES = 10_000
export const DEFAULT_SEED = 42
export const EXACT_RESAMPLE_LIMIT = 64

/** Draws one bootstrap replicate of a cell statistic. */
export type CellSampler = (random: Random) => number

/** The inverse of a discrete CDF: the smallest index whose cumulative probability reaches u. */
function invert(cdf: Float64Array, u: number): number {
  let low = 0
  let high = cdf.length - 1
  while (low < high) {
    const mid = (low + high) >>> 1
    if (cdf[mid]! >= u) high = mid
    else low = mid + 1
  }
  return low
}

/** A bootstrap sampler of the median of `sorted` (ascending). Empty input draws NaN. */
export function medianSampler(sorted: Float64Array): CellSampler {
  const n = sorted.length
  if (n === 0) return () => Number.NaN
  if (n === 1) return () => sorted[0]!
  if (n <= EXACT_RESAMPLE_LIMIT) {
    const scratch = new Float64Array(n)
    return (random) => {
      for (let i = 0; i < n; i++) scratch[i] = sorted[Math.floor(random() * n)]!
      scratch.sort()
      return percentileOfSorted(scratch, 50)
    }
  }
  const lowerOrder = Math.floor((n + 1) / 2)
  const lower = orderStatisticCdf(n, lowerOrder)
  const upper = n % 2 === 0 ? orderStatisticCdf(n, lowerOrder + 1) : lower
  return (random) => {
    const u = random()
    return (sorted[invert(lower, u)]! + sorted[invert(upper, u)]!) / 2
  }
}

/** Below this, a cumulative probability is 0 (and within it of 1, is 1) for every draw a double can make. */
const NEGLIGIBLE = 1e-17

/**
 * P(X(k) <= v[j]) for j = 0..n-1, the distribution of the k-th order statistic of a resample. It rises
 * from ~0 to ~1 within some sqrt(n) of j = k: computed outward from there and filled in beyond.
 */
export function orderStatisticCdf(n: number, k: number): Float64Array {
  return cached(`order:${n}:${k}`, () => computeOrderStatisticCdf(n, k))
}

/** The CDFs depend only on (n, k) or (n, successes), and cells often share them: keep the recent ones. */
const cdfCache = new Map<string, Float64Array>()
function cached(key: string, compute: () => Float64Array): Float64Array {
  let cdf = cdfCache.get(key)
  if (!cdf) {
    if (cdfCache.size >= 512) cdfCache.delete(cdfCache.keys().next().value!)
    cdfCache.set(key, (cdf = compute()))
  }
  return cdf
}

function computeOrderStatisticCdf(n: number, k: number): Float64Array {
  const cdf = new Float64Array(n)
  const at = (j: number) => (j === n - 1 ? 1 : binomialUpperTail(n, (j + 1) / n, k))
  let low = k - 1
  for (; low >= 0; low--) {
    cdf[low] = at(low)
    if (cdf[low]! < NEGLIGIBLE) break
  }
  for (let j = k; j < n; j++) {
    cdf[j] = at(j)
    if (cdf[j]! > 1 - NEGLIGIBLE) {
      cdf.fill(1, j)
      break
    }
  }
  return cdf
}

/** A bootstrap sampler of a rate: successes out of n resampled, as a fraction. */
export function rateSampler(successes: number, n: number): CellSampler {
  if (n === 0) return () => Number.NaN
  const p = successes / n
  if (p === 0 || p === 1) return () => p
  if (n <= 64) {
    return (random) => {
      let count = 0
      for (let i = 0; i < n; i++) if (random() < p) count++
      return count / n
    }
  }
  const cdf = cached(`binomial:${n}:${successes}`, () => binomialCdf(n, p))
  return (random) => invert(cdf, random()) / n
}

/**
 * The Binomial(n, p) CDF. The probability mass is computed from the mode outward by the ratio
 * pmf(k+1) / pmf(k) = (n-k)/(k+1) * p/(1-p), until it is negligible, which costs O(sqrt(n)) terms.
 */
function binomialCdf(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1)
  const mode = Math.min(n, Math.floor((n + 1) * p))
  const odds = p / (1 - p)
  pmf[mode] = Math.exp(logGamma(n + 1) - logGamma(mode + 1) - logGamma(n - mode + 1) + mode * Math.log(p) + (n - mode) * Math.log1p(-p))
  for (let k = mode; k < n && pmf[k]! > NEGLIGIBLE * pmf[mode]; k++) pmf[k + 1] = (pmf[k]! * (n - k) * odds) / (k + 1)
  for (let k = mode; k > 0 && pmf[k]! > NEGLIGIBLE * pmf[mode]; k--) pmf[k - 1] = (pmf[k]! * k) / ((n - k + 1) * odds)
  const cdf = new Float64Array(n + 1)
  let total = 0
  for (let k = 0; k <= n; k++) cdf[k] = total += pmf[k]!
  for (let k = 0; k <= n; k++) cdf[k] = cdf[k]! / total
  return cdf
}

export interface BootstrapInterval {
  /** 95% percentile interval; NaN bounds when most replicates were undefined. */
  interval: [number, number]
  resamples: number
  seed: number
}

/**
 * Runs `resamples` replicates of a statistic; `replicate` receives the seeded random source and
 * draws what it needs from its cell samplers. Undefined (NaN) replicates are left out.
 */
export function bootstrap(replicate: (random: Random) => number, options: {resamples?: number; seed: number}): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const random = mulberry32(options.seed)
  const values = new Float64Array(resamples)
  let defined = 0
  for (let i = 0; i < resamples; i++) {
    const value = replicate(random)
    if (Number.isFinite(value)) values[defined++] = value
  }
  if (defined < resamples / 2) return {interval: [Number.NaN, Number.NaN], resamples, seed: options.seed}
  const sorted = values.subarray(0, defined).sort()
  return {interval: [percentileOfSorted(sorted, 2.5), percentileOfSorted(sorted, 97.5)], resamples, seed: options.seed}
}
