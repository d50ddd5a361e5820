/**
 * The minimum detectable effect of a check: how far from its threshold the true value must lie for
 * this many runs with this spread to give a decisive verdict (interval clear of the threshold) 80% of
 * the time. It is the usual (z_conf + z_0.80) x SE, with the standard error read off the check's
 * interval by the normal approximation SE = (high - low) / (2 x z_conf), z_conf the interval's own
 * (1.96 at 95%; higher at a sequential look). A check closer to its threshold than its MDE will often
 * come out inconclusive under decision ci: more repetitions shrink the MDE roughly as 1 / sqrt(runs).
 */
import {zOfConfidence} from '../../stats/special.js'

const Z_CONFIDENCE = 1.959964 // two-sided 95%
const Z_POWER = 0.841621 // 80% power

/** MDE in the units of the interval; null when there is no finite interval. */
export function minimumDetectableEffect(
  interval: ReadonlyArray<number | null> | null | undefined,
  confidence = 0.95,
): number | null {
  if (!interval || interval.length !== 2) return null
  const [low, high] = interval
  if (typeof low !== 'number' || typeof high !== 'number' || !Number.isFinite(low) || !Number.isFinite(high))
    return null
  const z = confidence === 0.95 ? Z_CONFIDENCE : zOfConfidence(confidence)
  const se = (high - low) / (2 * z)
  return (z + Z_POWER) * se
}

/** One sentence for the markdown under a table that shows MDEs. */
export const MDE_NOTE =
  'MDE (minimum detectable effect): how far from the threshold the true value must lie for this many runs with this spread to give a decisive verdict 80% of the time — (z + 0.84) × SE, with SE = the interval’s width / (2 × z) and z that of the interval’s confidence (1.96 at 95%), a normal approximation. A value nearer its threshold than its MDE is likely to be inconclusive; more repetitions shrink it roughly as 1/√runs.'
