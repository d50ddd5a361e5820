/**
 * The seeded bootstrap: `resamples` replicates of a statistic, each drawn by a function of the seeded
 * random source, and the central percentiles of the replicates as the interval. What a replicate
 * resamples is its caller's: src/stats/log-ratio.ts draws scenarios, then runs within them.
 * The predecessors' bootstrap used Math.random and gave a different interval on every run.
 */
import {percentileOfSorted} from './quantiles.js'
import {mulberry32, type Random} from './random.js'

export const DEFAULT_RESAMPLES = 10_000
export const DEFAULT_SEED = 42
/** Cells of at most this many resampling units are resampled row by row; larger ones by their normal approximation. */
export const EXACT_RESAMPLE_LIMIT = 64

/** Draws one bootstrap replicate of a statistic. */
export type CellSampler = (random: Random) => number

export interface BootstrapInterval {
  /** Percentile interval at the confidence asked (95% by default); NaN bounds when most replicates were undefined. */
  interval: [number, number]
  resamples: number
  seed: number
}

/**
 * Runs `resamples` replicates of a statistic; `replicate` receives the seeded random source and
 * draws what it needs from its cell samplers. Undefined (NaN) replicates are left out. The interval
 * is the central `confidence` share of the replicates (0.95: the 2.5th and 97.5th percentiles).
 */
export function bootstrap(
  replicate: (random: Random) => number,
  options: {resamples?: number; seed: number; confidence?: number},
): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const tail = ((1 - (options.confidence ?? 0.95)) / 2) * 100
  const random = mulberry32(options.seed)
  const values = new Float64Array(resamples)
  let defined = 0
  for (let i = 0; i < resamples; i++) {
    const value = replicate(random)
    if (Number.isFinite(value)) values[defined++] = value
  }
  if (defined < resamples / 2) return {interval: [Number.NaN, Number.NaN], resamples, seed: options.seed}
  const sorted = values.subarray(0, defined).sort()
  return {
    interval: [percentileOfSorted(sorted, tail), percentileOfSorted(sorted, 100 - tail)],
    resamples,
    seed: options.seed,
  }
}
