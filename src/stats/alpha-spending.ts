/**
 * Group-sequential boundaries from an α-spending function (Lan & DeMets 1983): a test looked at K
 * times, at information fractions t_1 < ... < t_K = 1, with two-sided boundaries ±c_k chosen so that
 * the chance of first crossing at look k under the null is α(t_k) - α(t_{k-1}); in all, α.
 *
 * The crossing probabilities are computed under the canonical joint distribution of the looks' z
 * statistics (Jennison & Turnbull 2000, ch. 19): the score S_k = Z_k √I_k has independent normal
 * increments, so corr(Z_i, Z_j) = √(t_i / t_j). The density of S on the continuation region is
 * carried from look to look by numerical integration (Simpson's rule on a grid), and each c_k is
 * found by bisection. When the looks are more correlated than that (part of the variance, such as
 * the spread between scenarios, does not shrink with more runs), the same boundaries cross less
 * often: they stay valid, if a little conservative (Šidák 1968).
 */
import {normalCdf, zOfConfidence} from './special.js'

export type SpendingFunction = 'power' | 'pocock' | 'obrien-fleming'

/** The exponent of the power family's α·t^ρ (Kim & DeMets 1987): between Pocock's type (ρ about 1) and O'Brien-Fleming's (ρ about 3). */
const POWER_FAMILY_RHO = 1.5

/** The error spent by information fraction t (0..1), for overall two-sided α. */
export function spentAlpha(fraction: number, alpha: number, spending: SpendingFunction): number {
  if (fraction <= 0) return 0
  const t = Math.min(1, fraction)
  // Pocock's type spends evenly (early stops are likely); O'Brien-Fleming's type spends little early;
  // the power family with ρ = 1.5 keeps more for the last look than Pocock's, for power at a fixed maximum.
  if (spending === 'power') return alpha * t ** POWER_FAMILY_RHO
  if (spending === 'pocock') return alpha * Math.log(1 + (Math.E - 1) * t)
  return 2 - 2 * normalCdf(zOfConfidence(1 - alpha) / Math.sqrt(t))
}

/** Grid points over the continuation region (odd, for Simpson's rule). */
const GRID = 801

const density = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)

/** Simpson weights for `n` (odd) equally spaced points with spacing h. */
function simpsonWeights(n: number, h: number): Float64Array {
  const weights = new Float64Array(n)
  for (let i = 0; i < n; i++) weights[i] = ((i === 0 || i === n - 1 ? 1 : i % 2 === 1 ? 4 : 2) * h) / 3
  return weights
}

/**
 * The two-sided z boundaries c_1..c_K of the looks at `fractions` (ascending, the last 1), so that
 * the null crosses first at look k with probability α(t_k) - α(t_{k-1}).
 */
export function groupSequentialBoundaries(
  fractions: readonly number[],
  alpha: number,
  spending: SpendingFunction,
): number[] {
  const increments = fractions.map(
    (t, k) => spentAlpha(t, alpha, spending) - (k === 0 ? 0 : spentAlpha(fractions[k - 1]!, alpha, spending)),
  )
  const boundaries: number[] = []
  // The sub-density of S_{k-1} on its continuation region, on a grid of points.
  let points: Float64Array = new Float64Array(0)
  let values: Float64Array = new Float64Array(0)
  let weights: Float64Array = new Float64Array(0)
  for (let k = 0; k < fractions.length; k++) {
    const info = fractions[k]!
    if (k === 0) {
      const c = zOfConfidence(1 - increments[0]!)
      boundaries.push(c)
    } else {
      const step = info - fractions[k - 1]!
      const sd = Math.sqrt(step)
      const crossing = (c: number) => {
        const edge = c * Math.sqrt(info)
        let total = 0
        for (let i = 0; i < points.length; i++) {
          const u = points[i]!
          total += weights[i]! * values[i]! * (normalCdf((-edge - u) / sd) + 1 - normalCdf((edge - u) / sd))
        }
        return total
      }
      // Crossing falls as c rises: bisect between a boundary that crosses too often and one that does not.
      let low = 0
      let high = 10
      for (let i = 0; i < 80; i++) {
        const mid = (low + high) / 2
        if (crossing(mid) > increments[k]!) low = mid
        else high = mid
      }
      boundaries.push((low + high) / 2)
    }
    if (k === fractions.length - 1) break
    // Carry the density to this look's continuation region |S_k| < c_k √I_k.
    const edge = boundaries[k]! * Math.sqrt(info)
    const h = (2 * edge) / (GRID - 1)
    const next = Float64Array.from({length: GRID}, (_, i) => -edge + i * h)
    const nextValues = new Float64Array(GRID)
    if (k === 0) for (let i = 0; i < GRID; i++) nextValues[i] = density(next[i]! / Math.sqrt(info)) / Math.sqrt(info)
    else {
      const sd = Math.sqrt(info - fractions[k - 1]!)
      for (let j = 0; j < GRID; j++) {
        let total = 0
        for (let i = 0; i < points.length; i++)
          total += weights[i]! * values[i]! * density((next[j]! - points[i]!) / sd)
        nextValues[j] = total / sd
      }
    }
    points = next
    values = nextValues
    weights = simpsonWeights(GRID, h)
  }
  return boundaries
}
