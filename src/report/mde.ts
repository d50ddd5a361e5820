/**
 * The minimum detectable effect of a check: how far from its threshold the true value must lie for
 * this many runs with this spread to give a decisive verdict (interval clear of the threshold) 80% of
 * the time at 95% confidence. It is the usual (z_0.975 + z_0.80) x SE, with the standard error read off
 * the check's seeded bootstrap interval by the normal approximation SE = (high - low) / (2 x 1.96).
 * A check closer to its threshold than its MDE will often come out inconclusive under decision ci:
 * more repetitions shrink the MDE roughly as 1 / sqrt(runs).
 */
export const Z_CONFIDENCE = 1.959964 // two-sided 95%
export const Z_POWER = 0.841621 // 80% power

/** MDE in the units of the interval; null when there is no finite interval. */
export function minimumDetectableEffect(interval: ReadonlyArray<number | null> | null | undefined): number | null {
  if (!interval || interval.length !== 2) return null
  const [low, high] = interval
  if (typeof low !== 'number' || typeof high !== 'number' || !Number.isFinite(low) || !Number.isFinite(high)) return null
  const se = (high - low) / (2 * Z_CONFIDENCE)
  return (Z_CONFIDENCE + Z_POWER) * se
}

/** One sentence for the markdown under a table that shows MDEs. */
export const MDE_NOTE =
  'MDE (minimum detectable effect): how far from the threshold the true value must lie for this many runs with this spread to give a decisive verdict 80% of the time at 95% confidence — (1.96 + 0.84) × SE, with SE = the bootstrap interval’s width / (2 × 1.96), a normal approximation. A value nearer its threshold than its MDE is likely to be inconclusive; more repetitions shrink it roughly as 1/√runs.'
