/**
 * The suite effect of a candidate on a metric (active tokens, agent time, tool calls, cost), on the
 * log scale, with a hierarchical bootstrap interval that covers the effect over scenarios, not only
 * over these scenarios' runs.
 *
 * Per scenario: θ_s = loc(log candidate) - loc(log baseline) over the stable runs, the log of the
 * ratio of the modes' typical runs. Runs are skewed (one agent loop can take ten times the tokens of
 * the next), and logs tame such a run; a ratio is what a reduction is. A value of 0 has no log: it is
 * replaced by half the smallest positive value of the scenario, and a scenario with no positive value
 * has no effect. Small counts (tool calls) take the log of the ratio of plain averages instead (see
 * Average); where either mode's mean is 0, half a count is added to every run of the scenario
 * (CONTINUITY_CORRECTION), so a scenario the candidate regressed from 0 counts against it.
 *
 * loc is a robust location, Huber's M-estimate (robustInPlace): logs alone left one run at 100x the
 * others in 5 moving its scenario by e^0.92. Each run is replaced by its pseudo-observation, whose
 * mean is the estimate and whose variance is its sandwich variance, so everything below (pairing,
 * bootstrap, normal approximation) reads means as before and the interval is the robust estimate's.
 * Where no run lies beyond HUBER_K robust SDs, the runs are kept as they are: the plain mean.
 *
 * Resolution: a cell of equal runs has no spread, and would give a zero-width interval that decides
 * with certainty. θ_s's variance is floored at that of runs one count (one step of the metric's
 * resolution) apart (resolutionVariance).
 *
 * Order: each mode's runs are put in a canonical order (block key, then value) and blocks numbered
 * in key order, so the seeded bootstrap does not depend on the order of the rows.
 *
 * Pairing: where the runner interleaved the modes, a baseline run and a candidate run of the same
 * iteration block (run id + iteration) shared their time (API latency, provider load). Such blocks are
 * resampled whole, so whatever the two runs share cancels in the interval; scenarios whose modes
 * share no block (the predecessors ran one mode after the other) resample each mode on its own.
 *
 * Suite: θ = mean over scenarios of θ_s (each scenario weighs the same, as in the predecessors'
 * stratified rule), reduction % = (1 - e^θ) × 100.
 *
 * Interval: a two-stage bootstrap, scenarios then runs. Resampling both stages as they are counts the
 * within-scenario noise twice (the spread of the θ_s already holds it); resampling scenarios only
 * ignores that they are few. So, as in Davison & Hinkley (1997, §3.8) and Carpenter, Goldstein &
 * Rasbash (2003), the first stage resamples scenario effects shrunk towards θ so that their spread is
 * the between-scenario variance alone, τ² = max(0, s² - v̄) (s²: the variance of the θ_s, v̄: their
 * mean within-scenario variance), rescaled by S/(S - 1); the second stage adds each picked scenario's
 * own run-level deviation, rescaled by n/(n - 1) so a cell of 5 runs is not read as if it were exact.
 * The replicates' variance is then (τ² + v̄) / S, the variance of θ over scenarios and runs, and the
 * interval is their central percentiles at the confidence asked, widened about θ by t_ν / z: with few
 * scenarios τ² is itself uncertain, and a normal-theory width would cover the suite effect 85% of the
 * time, not 95%, when scenarios differ a lot. ν is the degrees of freedom of the variance estimate
 * used: where τ² > 0, τ² + v̄ is s² itself (v̄ cancels), the spread of S scenario effects, with S - 1
 * degrees of freedom however precise the runs; where τ² is 0 (s² ≤ v̄), it is v̄, with the runs' ν_w.
 * (Adding τ² with S - 1 and v̄ with ν_w by Satterthwaite counts freedom s² does not have: with 4
 * scenarios that differ by about their run noise or more, one-sided misses of up to 6.5% in the gate's
 * simulation instead of 2.5%; this count: at most 3.7%.) The price is width where scenarios are
 * alike: with 4 scenarios, t_3 about half the time.
 *
 * Estimand: the above is the `population` estimand, the effect over scenarios like these (a release
 * claim about GitHub work in general). The `suite` estimand is the effect on these scenarios, as a PR
 * gate on a fixed, hand-picked suite asks it: the scenarios are fixed (fixed effects), only their runs
 * are resampled, so the replicates' variance is Σ v_s / S², with the runs' degrees of freedom. The
 * between-scenario spread is then not a source of error but a fact about the suite, reported beside
 * the estimate (τ, a prediction interval for a scenario like these, the worst scenario).
 *
 * Cost: a cell of at most EXACT_RESAMPLE_LIMIT resampling units is resampled row by row; a larger
 * one draws its deviation from the normal distribution with its variance (the bootstrap distribution
 * of a mean of hundreds of runs is normal to within the replicates' own noise), so a million rows
 * bootstrap in O(resamples × scenarios).
 */
import {bootstrap, EXACT_RESAMPLE_LIMIT} from './bootstrap.js'
import {normalDraw, type Random} from './random.js'
import {tOfConfidence, zOfConfidence} from './special.js'

/** One mode's stable runs of a scenario: present values and, aligned, their iteration block keys. */
export interface SideSample {
  values: ArrayLike<number>
  blocks: ArrayLike<number>
}

export interface ScenarioEffect {
  /** The log ratio of the modes' robust averages: loc(log c) - loc(log b), or log(loc c) - log(loc b). */
  theta: number
  /** The sampling variance of theta from the scenario's own runs (small-sample corrected), at least the resolution's floor. */
  variance: number
  /** Whether the two modes' runs were paired by iteration block. */
  paired: boolean
  /** Resampling units: blocks when paired, else the smaller mode's runs. */
  units: number
  /** Degrees of freedom of `variance`: blocks - 1 when paired, else runs - 2. */
  df: number
  /** One run-level bootstrap deviation θ* - θ, scaled so that its variance is `variance`. */
  deviation: (random: Random) => number
}

/**
 * How a scenario's runs of one mode are averaged before the ratio is taken (each robustly: see
 * robustInPlace). `geometric`: the mean of the logs (skewed figures: tokens, time, cost). `arithmetic`: the plain mean, for small
 * counts (tool calls), whose log is no good: a run with 0 or 1 call has no useful log, and the
 * geometric mean of a Poisson count falls short of its mean by more the smaller the count, which
 * would read as a reduction that is not there.
 */
export type Average = 'geometric' | 'arithmetic'

/** The scale runs are summed on, and θ from the two modes' means on it, with its partial derivatives. */
interface Scale {
  /** The values on the scale, into `out`. */
  transform: (values: ArrayLike<number>, out: Float64Array) => Float64Array
  theta: (meanC: number, meanB: number) => number
  gradient: (meanC: number, meanB: number) => [number, number]
  /** One step of the measurement's resolution (one count) at `at`, on the scale: how far apart two runs one count apart lie. */
  step: (at: number) => number
}

/**
 * Half a count: added to every run of a scenario (both modes) whose plain mean is 0 in either mode, so
 * that the ratio exists (the continuity correction of a log ratio of counts, as Haldane's for odds).
 */
export const CONTINUITY_CORRECTION = 0.5

function scaleOf(average: Average, base: ArrayLike<number>, cand: ArrayLike<number>, resolution: number): Scale | null {
  if (average === 'arithmetic') {
    const meanOf = (values: ArrayLike<number>) => {
      let total = 0
      for (let i = 0; i < values.length; i++) total += values[i]!
      return total / values.length
    }
    // A mode without a single call has no ratio: half a count added to every run of both modes gives
    // it one, so a scenario the baseline solves without a call and the candidate with two counts
    // against the candidate (log 2.5/0.5) instead of leaving the suite unseen.
    const shift = meanOf(base) > 0 && meanOf(cand) > 0 ? 0 : CONTINUITY_CORRECTION * resolution
    return {
      transform: (values, out) => {
        for (let i = 0; i < values.length; i++) out[i] = values[i]! + shift
        return out
      },
      theta: (c, b) => Math.log(c) - Math.log(b),
      gradient: (c, b) => [1 / c, -1 / b],
      step: () => resolution,
    }
  }
  let smallest = Infinity
  for (const values of [base, cand])
    for (let i = 0; i < values.length; i++) if (values[i]! > 0 && values[i]! < smallest) smallest = values[i]!
  if (!Number.isFinite(smallest)) return null
  // A 0 has no log: half the smallest positive value of the scenario stands in for it.
  const floor = smallest / 2
  return {
    transform: (values, out) => {
      for (let i = 0; i < values.length; i++) out[i] = Math.log(values[i]! > 0 ? values[i]! : floor)
      return out
    },
    theta: (c, b) => c - b,
    gradient: () => [1, -1],
    step: (at) => Math.log1p(resolution / Math.exp(at)),
  }
}

const sum = (values: Float64Array): number => values.reduce((a, b) => a + b, 0)

/** Buffers reused by every call for what it reads only while it runs: a report computes thousands of effects. */
const workBuffers = new Map<string, Float64Array>()

/** A zeroed array of `length`: its own when `kept` (a resampler holds it), else a view of a reused buffer. */
function workArray(name: string, length: number, kept: boolean): Float64Array {
  if (kept) return new Float64Array(length)
  let buffer = workBuffers.get(name)
  if (!buffer || buffer.length < length) {
    buffer = new Float64Array(length)
    workBuffers.set(name, buffer)
  }
  return buffer.subarray(0, length).fill(0)
}

/** A reused index buffer, for sorting a side's runs. */
let indexBuffer = new Uint32Array(0)

/**
 * A side's runs in a canonical order, by block key, then value (in reused buffers: read them before
 * their next use). What the seeded bootstrap draws is then a function of the runs, not of the order
 * the rows came in (an unpaired cell's runs are drawn by position).
 */
function canonicalOrder(side: SideSample, name: string): {values: Float64Array; blocks: Float64Array} {
  const n = side.values.length
  const values = workArray(`${name} values`, n, false)
  const blocks = workArray(`${name} blocks`, n, false)
  const {values: v, blocks: k} = side
  let ordered = true
  for (let i = 1; i < n && ordered; i++) ordered = k[i - 1]! < k[i]! || (k[i - 1] === k[i] && v[i - 1]! <= v[i]!)
  if (ordered) {
    for (let i = 0; i < n; i++) {
      values[i] = v[i]!
      blocks[i] = k[i]!
    }
    return {values, blocks}
  }
  if (indexBuffer.length < n) indexBuffer = new Uint32Array(n)
  const order = indexBuffer.subarray(0, n)
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((a, b) => k[a]! - k[b]! || v[a]! - v[b]!)
  for (let i = 0; i < n; i++) {
    values[i] = v[order[i]!]!
    blocks[i] = k[order[i]!]!
  }
  return {values, blocks}
}

/**
 * Huber's tuning constant, in robust standard deviations (1.4826 × the median absolute deviation):
 * a run further than this from the scenario's location counts as if it were this far. 2 leaves a
 * normal sample almost untouched (a run lies beyond 2 SD 5% of the time; 99% efficiency against the mean)
 * and caps what one runaway run can do: one run at 100× the others' tokens in 5 used to move its
 * scenario by e^0.92 (log 100 / 5), now by e^0.18 on average (runs of 30% CV; e^0.41 at most in 19 of 20).
 */
const HUBER_K = 2

/**
 * A side's runs (on the scale) replaced in place by Huber's pseudo-observations: the location μ is
 * the Huber M-estimate (scale s from the median absolute deviation, never below one step of the
 * measurement's resolution, so a cell of equal runs but one is not read as infinitely precise), and
 * each run becomes μ + s·ψ(r)/P, r = (x - μ)/s, ψ(r) = r clipped to ±HUBER_K, P the share of runs
 * not clipped. Their mean is μ and their variance / n is Huber's (sandwich) variance of μ, so the
 * point value, the pairing by block and the bootstrap all read the robust estimate through the same
 * means as before (Huber 1981, §7.7 for pseudo-observations). Where no run is clipped the runs are
 * left as they are, to the bit: the plain mean is then the M-estimate.
 */
function robustInPlace(values: Float64Array, scale: Scale): Float64Array {
  const n = values.length
  if (n < 3) return values
  const scratch = workArray('robust', n, false)
  scratch.set(values)
  const median = medianInPlace(scratch)
  for (let i = 0; i < n; i++) scratch[i] = Math.abs(values[i]! - median)
  const mad = medianInPlace(scratch)
  const s = Math.max(1.4826 * mad, scale.step(median))
  if (!(s > 0) || !Number.isFinite(s)) return values
  const fence = HUBER_K * s
  // No run beyond the fence from the plain mean: the mean solves Huber's equation (Σψ = 0), it is the M-estimate.
  let mean = 0
  for (let i = 0; i < n; i++) mean += values[i]!
  mean /= n
  let clipped = 0
  for (let i = 0; i < n; i++) if (Math.abs(values[i]! - mean) > fence) clipped++
  if (clipped === 0) return values
  // Iteratively reweighted means from the median: each step's weights min(1, k/|r|) give a run at most k·s of pull.
  let mu = median
  for (let iteration = 0; iteration < 100; iteration++) {
    let weighted = 0
    let weights = 0
    for (let i = 0; i < n; i++) {
      const distance = Math.abs(values[i]! - mu)
      const w = distance <= fence ? 1 : fence / distance
      weighted += w * values[i]!
      weights += w
    }
    const next = weighted / weights
    const done = Math.abs(next - mu) <= 1e-12 * s
    mu = next
    if (done) break
  }
  let inside = 0
  for (let i = 0; i < n; i++) if (Math.abs(values[i]! - mu) <= fence) inside++
  if (inside === n) return values
  const share = Math.max(inside, 1) / n
  for (let i = 0; i < n; i++) {
    const r = Math.max(-HUBER_K, Math.min(HUBER_K, (values[i]! - mu) / s))
    values[i] = mu + (s * r) / share
  }
  return values
}

/** The median of `a` (reordered), by selection: linear time, where a cell of 10,000 runs sorted twice per metric cost a report half again. */
function medianInPlace(a: Float64Array): number {
  const n = a.length
  const upper = selectInPlace(a, n >> 1)
  if (n % 2) return upper
  // The lower middle is the largest value left of the upper one.
  let lower = -Infinity
  for (let i = 0; i < n >> 1; i++) if (a[i]! > lower) lower = a[i]!
  return (lower + upper) / 2
}

/** The k-th smallest value of `a` (0-based), `a` partitioned around it (Hoare's selection, the middle of three as pivot). */
function selectInPlace(a: Float64Array, k: number): number {
  let low = 0
  let high = a.length - 1
  while (high > low) {
    const middle = (low + high) >>> 1
    const [x, y, z] = [a[low]!, a[middle]!, a[high]!]
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y
    let i = low
    let j = high
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        const t = a[i]!
        a[i++] = a[j]!
        a[j--] = t
      }
    }
    if (k <= j) high = j
    else if (k >= i) low = i
    else break
  }
  return a[k]!
}

/**
 * The per-scenario effect of the candidate, or null when either mode has no run, or a geometric
 * average has no positive value in either mode. `resolution`: the smallest difference the metric
 * records (1 for counts: tokens, tool calls; 1 for milliseconds), which floors the variance.
 */
export function scenarioEffect(
  base: SideSample,
  cand: SideSample,
  average: Average = 'geometric',
  resolution = 1,
): ScenarioEffect | null {
  if (base.values.length === 0 || cand.values.length === 0) return null
  const scale = scaleOf(average, base.values, cand.values, resolution)
  if (!scale) return null
  const b = canonicalOrder(base, 'base sample')
  const c = canonicalOrder(cand, 'cand sample')
  const paired = sharedOfAscending(b.blocks, c.blocks) > 0
  // Unpaired, a small side's runs are kept by its resampler; otherwise they are read during the call only.
  const tb = robustInPlace(
    scale.transform(b.values, workArray('base', b.values.length, !paired && b.values.length <= EXACT_RESAMPLE_LIMIT)),
    scale,
  )
  const tc = robustInPlace(
    scale.transform(c.values, workArray('cand', c.values.length, !paired && c.values.length <= EXACT_RESAMPLE_LIMIT)),
    scale,
  )
  return paired ? pairedEffect(scale, tb, b.blocks, tc, c.blocks) : unpairedEffect(scale, tb, tc)
}

/**
 * The variance floor of θ: that of a scenario whose runs, in each mode, all agree but one, which is
 * one step of the resolution (one count) off: the run variance step²/n, the mean's step²/n². Equal
 * runs are a measurement at the resolution, not an infinitely precise one: 5 calls in every baseline
 * run and 3 in every candidate run gave the interval [40%, 40%] and an MDE of 0, a certainty five
 * runs cannot give. The floor is the smallest spread the data could hide (a Wilson interval's width at
 * 0 of n plays the same part for rates); a cell that varies more than that is unaffected.
 */
function resolutionVariance(scale: Scale, meanC: number, nc: number, meanB: number, nb: number): number {
  const [gc, gb] = scale.gradient(meanC, meanB)
  return ((gc * scale.step(meanC)) / nc) ** 2 + ((gb * scale.step(meanB)) / nb) ** 2
}

/** The distinct keys, sorted ascending, in the reused buffer `name` (read them before its next use). */
function distinctSorted(name: string, side: ArrayLike<number>): Float64Array {
  const keys = workArray(name, side.length, false)
  for (let i = 0; i < side.length; i++) keys[i] = side[i]!
  keys.sort()
  let m = 0
  for (let i = 0; i < side.length; i++) if (m === 0 || keys[i] !== keys[m - 1]) keys[m++] = keys[i]!
  return keys.subarray(0, m)
}

/** The distinct keys of two ascending arrays, merged ascending, in the reused buffer `name`: linear, no sort. */
function mergeDistinct(name: string, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const keys = workArray(name, a.length + b.length, false)
  let i = 0
  let j = 0
  let m = 0
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!
    if (m === 0 || keys[m - 1] !== next) keys[m++] = next
  }
  return keys.subarray(0, m)
}

/** How many distinct keys two ascending arrays share. */
function sharedOfAscending(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let i = 0
  let j = 0
  let shared = 0
  while (i < a.length && j < b.length) {
    const key = Math.min(a[i]!, b[j]!)
    if (a[i] === key && b[j] === key) shared++
    while (i < a.length && a[i] === key) i++
    while (j < b.length && b[j] === key) j++
  }
  return shared
}

/** The index of `key` in a sorted array, by bisection; -1 when it is not there. */
function sortedIndexOf(sorted: Float64Array, key: number): number {
  let low = 0
  let high = sorted.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    if (sorted[middle]! < key) low = middle + 1
    else if (sorted[middle]! > key) high = middle - 1
    else return middle
  }
  return -1
}

/**
 * How many distinct blocks of the candidate's runs the baseline's runs share. Typed arrays and
 * bisection, not a Set: a report counts this for cells of tens of thousands of runs, and Sets that
 * size filled the collector's old space by the hundred MB.
 */
export function sharedBlocks(baseBlocks: ArrayLike<number>, candBlocks: ArrayLike<number>): number {
  return sharedOfAscending(distinctSorted('base keys', baseBlocks), distinctSorted('cand keys', candBlocks))
}

/**
 * The blocks of both modes' runs (each side's keys ascending, as canonicalOrder leaves them) numbered
 * 0..m-1 in key order (found by bisection). Blocks are
 * resampled one by one, so their numbering is part of the seeded draw: numbered in the order first
 * seen, as they were, the same rows shuffled could get another verdict (2 in 400, issue 26).
 */
function blockNumbering(
  baseBlocks: ArrayLike<number>,
  candBlocks: ArrayLike<number>,
): {m: number; blockOf: (key: number) => number} {
  const keys = mergeDistinct('block keys', baseBlocks, candBlocks)
  return {m: keys.length, blockOf: (key) => sortedIndexOf(keys, key)}
}

/** Runs grouped by iteration block and resampled block by block. */
function pairedEffect(
  scale: Scale,
  tb: Float64Array,
  baseBlocks: ArrayLike<number>,
  tc: Float64Array,
  candBlocks: ArrayLike<number>,
): ScenarioEffect {
  const {m, blockOf} = blockNumbering(baseBlocks, candBlocks)
  // A small cell's block sums are kept by its resampler; a large one's are read during the call only.
  const kept = m <= EXACT_RESAMPLE_LIMIT
  const bSum = workArray('bSum', m, kept)
  const bCount = workArray('bCount', m, kept)
  const cSum = workArray('cSum', m, kept)
  const cCount = workArray('cCount', m, kept)
  for (let i = 0; i < tb.length; i++) {
    const k = blockOf(baseBlocks[i]!)
    bSum[k] = bSum[k]! + tb[i]!
    bCount[k] = bCount[k]! + 1
  }
  for (let i = 0; i < tc.length; i++) {
    const k = blockOf(candBlocks[i]!)
    cSum[k] = cSum[k]! + tc[i]!
    cCount[k] = cCount[k]! + 1
  }
  const meanB = sum(tb) / tb.length
  const meanC = sum(tc) / tc.length
  const theta = scale.theta(meanC, meanB)
  const [gc, gb] = scale.gradient(meanC, meanB)
  // The ideal bootstrap's variance of theta, by linearisation: the sum of squared block influences.
  let plugIn = 0
  for (let k = 0; k < m; k++) {
    const influence =
      (gc * (cSum[k]! - cCount[k]! * meanC)) / tc.length + (gb * (bSum[k]! - bCount[k]! * meanB)) / tb.length
    plugIn += influence * influence
  }
  const variance = m > 1 ? (plugIn * m) / (m - 1) : 0
  const df = Math.max(0, m - 1)
  const floor = resolutionVariance(scale, meanC, tc.length, meanB, tb.length)
  // Runs that agree to within the resolution: resampling them says nothing; the floor's normal stands in.
  if (!(variance > floor))
    return {theta, variance: floor, paired: true, units: m, df, deviation: normalDeviation(floor)}
  const factor = Math.sqrt(variance / plugIn)
  const deviation =
    m > EXACT_RESAMPLE_LIMIT
      ? normalDeviation(variance)
      : blockDeviation(scale, theta, factor, {bSum, bCount, cSum, cCount})
  return {theta, variance, paired: true, units: m, df, deviation}
}

/**
 * A deviation drawn from the normal distribution of the given variance. Made apart from the resamplers
 * below, so that the closure a large cell keeps for the suite's bootstrap holds no array of its runs.
 */
function normalDeviation(variance: number): (random: Random) => number {
  const sd = Math.sqrt(variance)
  return (random) => sd * normalDraw(random)
}

/** A deviation from resampling a small cell's blocks whole. */
function blockDeviation(
  scale: Scale,
  theta: number,
  factor: number,
  sums: {bSum: Float64Array; bCount: Float64Array; cSum: Float64Array; cCount: Float64Array},
): (random: Random) => number {
  const {bSum, bCount, cSum, cCount} = sums
  const m = bSum.length
  return (random) => {
    // A resample without a run of one mode (or with a zero mean) has no theta: draw again (rare unless blocks are lopsided).
    for (let attempt = 0; attempt < 20; attempt++) {
      let sb = 0
      let nb = 0
      let sc = 0
      let nc = 0
      for (let i = 0; i < m; i++) {
        const k = Math.floor(random() * m)
        sb += bSum[k]!
        nb += bCount[k]!
        sc += cSum[k]!
        nc += cCount[k]!
      }
      const drawn = nb > 0 && nc > 0 ? scale.theta(sc / nc, sb / nb) : Number.NaN
      if (Number.isFinite(drawn)) return (drawn - theta) * factor
    }
    return 0
  }
}

/** A side's resampled mean: row by row for a small side, else from the normal distribution. */
function resampledMean(values: Float64Array, mean: number, plugInVariance: number): (random: Random) => number {
  const n = values.length
  if (plugInVariance === 0) return () => mean
  if (n > EXACT_RESAMPLE_LIMIT) {
    const deviation = normalDeviation(plugInVariance)
    return (random) => mean + deviation(random)
  }
  return rowResampledMean(values)
}

/** A small side's mean over its runs drawn with replacement. */
function rowResampledMean(values: Float64Array): (random: Random) => number {
  const n = values.length
  return (random) => {
    let total = 0
    for (let i = 0; i < n; i++) total += values[Math.floor(random() * n)]!
    return total / n
  }
}

/** Each mode's runs resampled on their own (no block is shared). */
function unpairedEffect(scale: Scale, tb: Float64Array, tc: Float64Array): ScenarioEffect {
  const meanB = sum(tb) / tb.length
  const meanC = sum(tc) / tc.length
  const theta = scale.theta(meanC, meanB)
  const [gc, gb] = scale.gradient(meanC, meanB)
  const squares = (values: Float64Array, mean: number) => values.reduce((a, v) => a + (v - mean) ** 2, 0)
  const [qb, qc] = [squares(tb, meanB), squares(tc, meanC)]
  // Plug-in (ideal bootstrap) variance of a mean: Σ(x - m)² / n²; the unbiased one divides by n (n - 1).
  const unbiased = (q: number, n: number) => (n > 1 ? q / (n * (n - 1)) : 0)
  const variance = gc * gc * unbiased(qc, tc.length) + gb * gb * unbiased(qb, tb.length)
  const [units, df] = [Math.min(tb.length, tc.length), Math.max(0, tb.length + tc.length - 2)]
  const floor = resolutionVariance(scale, meanC, tc.length, meanB, tb.length)
  // Runs that agree to within the resolution: resampling them says nothing; the floor's normal stands in.
  if (!(variance > floor)) return {theta, variance: floor, paired: false, units, df, deviation: normalDeviation(floor)}
  const plugIn = (gc * gc * qc) / tc.length ** 2 + (gb * gb * qb) / tb.length ** 2
  const factor = Math.sqrt(variance / plugIn)
  const drawB = resampledMean(tb, meanB, qb / tb.length ** 2)
  const drawC = resampledMean(tc, meanC, qc / tc.length ** 2)
  const deviation = (random: Random) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const drawn = scale.theta(drawC(random), drawB(random))
      if (Number.isFinite(drawn)) return (drawn - theta) * factor
    }
    return 0
  }
  return {theta, variance, paired: false, units, df, deviation}
}

export interface SuiteEffect {
  /** Mean over scenarios of θ_s. */
  theta: number
  /** Interval of θ at the confidence asked; NaN bounds without scenarios. */
  interval: [number, number]
  /** τ², the variance of the effect between scenarios (0 with one scenario). */
  between: number
  /** v̄, the mean within-scenario variance of θ_s. */
  within: number
  scenarios: number
  /** Degrees of freedom of the interval's variance: S - 1 where the scenarios spread beyond their run noise, else the runs'. */
  df: number
  /** Where a scenario like these lies: θ ± t_{S-2} √(τ² + v̄ + SE²) (Higgins et al. 2009); NaN bounds below 3 scenarios. */
  prediction: [number, number]
}

/** `suite`: the effect on these scenarios (fixed effects); `population`: over scenarios like them (random effects). */
export type Estimand = 'suite' | 'population'

/**
 * Under decision ci the population estimand is refused with fewer scenarios: the spread between them
 * is then an estimate of 3 to 8 degrees of freedom, and either widens the interval past use (t_3 =
 * 3.18) or, assumed small, false-passes (issue 26: 9.7 / 21 / 33% at a spread of 0.1 / 0.2 / 0.4).
 */
export const MIN_POPULATION_SCENARIOS = 10

/** The suite effect over scenario effects, with its two-stage bootstrap interval (see the file's comment). */
export function suiteEffect(
  effects: readonly ScenarioEffect[],
  options: {confidence: number; resamples: number; seed: number; estimand?: Estimand},
): SuiteEffect {
  const count = effects.length
  const none: [number, number] = [Number.NaN, Number.NaN]
  if (count === 0)
    return {
      theta: Number.NaN,
      interval: none,
      between: Number.NaN,
      within: Number.NaN,
      scenarios: 0,
      df: Number.NaN,
      prediction: none,
    }
  const theta = effects.reduce((a, e) => a + e.theta, 0) / count
  const within = effects.reduce((a, e) => a + e.variance, 0) / count
  const spread = count > 1 ? effects.reduce((a, e) => a + (e.theta - theta) ** 2, 0) / (count - 1) : 0
  const between = Math.max(0, spread - within)
  const suite = options.estimand === 'suite'
  // The suite estimand keeps every scenario where it is (no first stage); the population's shrinks them to τ's spread.
  const shrink = suite ? 1 : spread > 0 ? Math.sqrt((count * between) / ((count - 1) * spread)) : 0
  const centres = Float64Array.from(effects, (e) => theta + shrink * (e.theta - theta))
  const deviations = effects.map((e) => e.deviation)
  const replicate = (random: Random): number => {
    let total = 0
    for (let j = 0; j < count; j++) {
      const s = suite ? j : count === 1 ? 0 : Math.floor(random() * count)
      total += centres[s]! + deviations[s]!(random)
    }
    return total / count
  }
  const {interval} = bootstrap(replicate, options)
  const withinDf = effects.reduce((a, e) => a + e.df, 0)
  // The degrees of freedom of the variance estimate used (see the file's comment): s²'s, or v̄'s; the suite's: the runs'.
  const df = !suite && between > 0 ? count - 1 : withinDf
  const widen = df > 0 ? tOfConfidence(options.confidence, df) / zOfConfidence(options.confidence) : 1
  const widened: [number, number] = [theta + widen * (interval[0] - theta), theta + widen * (interval[1] - theta)]
  const z = zOfConfidence(options.confidence)
  const standardError = (widened[1] - widened[0]) / (2 * widen * z)
  const half =
    count >= 3
      ? tOfConfidence(options.confidence, count - 2) * Math.sqrt(between + within + standardError ** 2)
      : Number.NaN
  return {theta, interval: widened, between, within, scenarios: count, df, prediction: [theta - half, theta + half]}
}

/** A log ratio as a reduction in %: (1 - e^θ) × 100 (positive: the candidate spends less). */
export function reductionOfLogRatio(theta: number): number {
  return (1 - Math.exp(theta)) * 100
}

/** A reduction in % as a log ratio: log(1 - r / 100); NaN at or beyond a 100% reduction. */
export function logRatioOfReduction(reductionPct: number): number {
  return reductionPct < 100 ? Math.log(1 - reductionPct / 100) : Number.NaN
}
