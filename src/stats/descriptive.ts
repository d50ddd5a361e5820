import {percentileOfSorted, sortedCopy} from './quantiles.js'

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += values[i]!
  return sum / values.length
}

/** Interquartile range p75 - p25. */
export function iqr(values: readonly number[]): number {
  const sorted = sortedCopy(values)
  return percentileOfSorted(sorted, 75) - percentileOfSorted(sorted, 25)
}

/**
 * Coefficient of variation in percent: population standard deviation / mean * 100 (ghx-router's
 * definition, kept so its figures reproduce). NaN for no values or a zero mean.
 */
export function coefficientOfVariationPct(values: ArrayLike<number>): number {
  const m = mean(values)
  if (!Number.isFinite(m) || m === 0) return Number.NaN
  let squares = 0
  for (let i = 0; i < values.length; i++) squares += (values[i]! - m) ** 2
  return (Math.sqrt(squares / values.length) / m) * 100
}

/** Relative reduction from baseline b to candidate c in percent; undefined (NaN) unless b > 0. */
export function reductionPct(baseline: number, candidate: number): number {
  return baseline > 0 ? ((baseline - candidate) / baseline) * 100 : Number.NaN
}
