/**
 * Special functions: log-gamma (Lanczos), the regularized incomplete beta function (continued
 * fraction, modified Lentz), which gives Student's t distribution, and the normal distribution.
 */

const LANCZOS = [
  676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
]

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const z = x - 1
  let sum = 0.99999999999980993
  for (let i = 0; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i + 1)
  const t = z + LANCZOS.length - 0.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  // Converges in O(sqrt(max(a, b))) steps near the mean; the cap only guards against a runaway.
  for (let m = 1; m <= 100_000; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-14) break
  }
  return h
}

/** I_x(a, b), the regularized incomplete beta function. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(x, a, b)) / a
    : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b
}

/** The standard normal CDF Φ(x), from the complementary error function (W. J. Cody's rational fits via erfc). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2)
}

/** erfc(x) to about 1e-14 relative (Numerical Recipes' Chebyshev fit, erfccheb). */
function erfc(x: number): number {
  const z = Math.abs(x)
  const t = 2 / (2 + z)
  const ty = 4 * t - 2
  const coefficients = [
    -1.3026537197817094, 6.419697923564902e-1, 1.9476473204185836e-2, -9.561514786808631e-3, -9.46595344482036e-4,
    3.66839497852761e-4, 4.2523324806907e-5, -2.0278578112534e-5, -1.624290004647e-6, 1.30365583558e-6, 1.5626441722e-8,
    -8.5238095915e-8, 6.529054439e-9, 5.059343495e-9, -9.91364156e-10, -2.27365122e-10, 9.6467911e-11, 2.394038e-12,
    -6.886027e-12, 8.94487e-13, 3.13092e-13, -1.12708e-13, 3.81e-16, 7.106e-15, -1.523e-15, -9.4e-17, 1.21e-16,
    -2.8e-17,
  ]
  let d = 0
  let dd = 0
  for (let j = coefficients.length - 1; j > 0; j--) {
    const previous = d
    d = ty * d - dd + coefficients[j]!
    dd = previous
  }
  const value = t * Math.exp(-z * z + 0.5 * (coefficients[0]! + ty * d) - dd)
  return x >= 0 ? value : 2 - value
}

/**
 * The standard normal quantile Φ⁻¹(p) (Acklam's rational approximation, then one Halley step on
 * normalCdf): accurate to about 1e-13, enough for any confidence level a gate uses.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : Number.NaN
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ]
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1]
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ]
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416]
  const low = 0.02425
  let x: number
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p))
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
  } else if (p <= 1 - low) {
    const q = p - 0.5
    const r = q * q
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p))
    x =
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
  }
  const e = normalCdf(x) - p
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2)
  return x - u / (1 + (x * u) / 2)
}

/** The two-sided z of a confidence level (0.95 -> 1.959964). */
export function zOfConfidence(confidence: number): number {
  return normalQuantile(1 - (1 - confidence) / 2)
}

/** P(T <= t) for Student's t with `df` degrees of freedom (df may be fractional). */
export function studentTCdf(t: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e7) return normalCdf(t)
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? 1 - tail : tail
}

/** tOfConfidence's answers by confidence and df: the planner asks the same few thousands of times. */
const tMemo = new Map<string, number>()

/** The two-sided t of a confidence level at `df` degrees of freedom, by bisection on studentTCdf. */
export function tOfConfidence(confidence: number, df: number): number {
  const key = `${confidence} ${df}`
  let t = tMemo.get(key)
  if (t === undefined) {
    t = bisectT(confidence, df)
    // Bounded: a long simulation asks for many df; the common ones come back at once.
    if (tMemo.size > 10_000) tMemo.clear()
    tMemo.set(key, t)
  }
  return t
}

function bisectT(confidence: number, df: number): number {
  const target = 1 - (1 - confidence) / 2
  if (!Number.isFinite(df) || df > 1e7) return zOfConfidence(confidence)
  let low = 0
  let high = 1
  while (studentTCdf(high, df) < target) high *= 2
  for (let i = 0; i < 100 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2
    if (studentTCdf(mid, df) < target) low = mid
    else high = mid
  }
  return (low + high) / 2
}
