/**
 * Order statistics. Percentiles interpolate linearly at index p/100 * (n - 1), the predecessors'
 * definition, so reproduced figures match theirs. Empty input has no quantile: NaN, never 0.
 */

export function sortedCopy(values: readonly number[]): number[] {
  return Float64Array.from(values).sort() as unknown as number[]
}

/** Percentile p (0..100) of values already sorted ascending. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const index = (p / 100) * (n - 1)
  const lower = Math.floor(index)
  const upper = Math.ceil(index)
  const low = sorted[lower]!
  return low + (sorted[upper]! - low) * (index - lower)
}

export function percentile(values: readonly number[], p: number): number {
  return percentileOfSorted(sortedCopy(values), p)
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}

/** A finite number, or null: JSON has no NaN, and a figure with no data must not read as 0. */
export function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null
}
