/**
 * Rates and their intervals. Wilson's score interval stays inside [0, 1] and behaves at 0 and n
 * successes, where the normal interval and a bootstrap of a constant collapse to no width: Wilson's
 * width is never 0 for n >= 1 (at 0 of n its upper bound is z² / (n + z²)). Newcombe's hybrid score
 * interval for a difference of two rates is built from the two Wilson intervals, so it keeps that
 * property (Newcombe 1998, method 10).
 */

const Z_95 = 1.959963984540054

/** Wilson 95% score interval for successes out of n, as fractions; [NaN, NaN] for n = 0. */
export function wilsonInterval(successes: number, n: number, z = Z_95): [number, number] {
  if (n === 0) return [Number.NaN, Number.NaN]
  const p = successes / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/**
 * Newcombe's 95% (or `z`) interval for p1 - p2, two independent rates as fractions: with Wilson
 * intervals [l1, u1] and [l2, u2], low = d - sqrt((p1 - l1)² + (u2 - p2)²) and
 * high = d + sqrt((u1 - p1)² + (p2 - l2)²). [NaN, NaN] when either n is 0.
 */
export function newcombeInterval(
  successes1: number,
  n1: number,
  successes2: number,
  n2: number,
  z = Z_95,
): [number, number] {
  if (n1 === 0 || n2 === 0) return [Number.NaN, Number.NaN]
  const p1 = successes1 / n1
  const p2 = successes2 / n2
  const [l1, u1] = wilsonInterval(successes1, n1, z)
  const [l2, u2] = wilsonInterval(successes2, n2, z)
  const d = p1 - p2
  return [d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)]
}

/** n choose k as a float (exact for the small n of benchmark repetitions). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0
  let result = 1
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - Math.min(k, n - k) + i)) / i
  return result
}

/**
 * Unbiased pass@k (Chen et al. 2021): the chance that at least one of k runs drawn without replacement
 * from n runs with c successes passes: 1 - C(n-c, k) / C(n, k).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || n === 0) return Number.NaN
  return 1 - choose(n - c, k) / choose(n, k)
}

/** Unbiased pass^k (τ-bench): the chance that all of k runs drawn from the n pass: C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n || n === 0) return Number.NaN
  return choose(c, k) / choose(n, k)
}
