/**
 * The suite effect of a candidate on a metric (active tokens, agent time, tool calls, cost), on the
 * log scale, with a hierarchical bootstrap interval that covers the effect over scenarios, not only
 * over these scenarios' runs.
 *
 * Per scenario: θ_s = mean(log candidate) - mean(log baseline) over the stable runs, the log of the
 * ratio of geometric means. Runs are skewed (one agent loop can take ten times the tokens of the
 * next), and logs keep one such run from deciding a scenario; a ratio is what a reduction is. A value
 * of 0 has no log: it is replaced by half the smallest positive value of the scenario, and a scenario
 * with no positive value has no effect. Small counts (tool calls) take the log of the ratio of plain
 * means instead (see Average).
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
  /** The log ratio of the modes' averages: mean(log c) - mean(log b), or log(mean c) - log(mean b). */
  theta: number
  /** The sampling variance of theta from the scenario's own runs (small-sample corrected); 0 with one unit. */
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
 * How a scenario's runs of one mode are averaged before the ratio is taken. `geometric`: the mean of
 * the logs (skewed continuous figures: tokens, time, cost). `arithmetic`: the plain mean, for small
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
}

function scaleOf(average: Average, base: ArrayLike<number>, cand: ArrayLike<number>): Scale | null {
  if (average === 'arithmetic') {
    const meanOf = (values: ArrayLike<number>) => {
      let total = 0
      for (let i = 0; i < values.length; i++) total += values[i]!
      return total / values.length
    }
    if (!(meanOf(base) > 0 && meanOf(cand) > 0)) return null
    return {
      transform: (values, out) => {
        out.set(values)
        return out
      },
      theta: (c, b) => Math.log(c) - Math.log(b), gradient: (c, b) => [1 / c, -1 / b]}
  }
  let smallest = Infinity
  for (const values of [base, cand]) for (let i = 0; i < values.length; i++) if (values[i]! > 0 && values[i]! < smallest) smallest = values[i]!
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

/** The per-scenario effect of the candidate, or null when either mode has no run, or the average has no ratio (no positive value). */
export function scenarioEffect(base: SideSample, cand: SideSample, average: Average = 'geometric'): ScenarioEffect | null {
  if (base.values.length === 0 || cand.values.length === 0) return null
  const scale = scaleOf(average, base.values, cand.values)
  if (!scale) return null
  const paired = sharedBlocks(base.blocks, cand.blocks) > 0
  // Unpaired, a small side's runs are kept by its resampler; otherwise they are read during the call only.
  const tb = scale.transform(base.values, workArray('base', base.values.length, !paired && base.values.length <= EXACT_RESAMPLE_LIMIT))
  const tc = scale.transform(cand.values, workArray('cand', cand.values.length, !paired && cand.values.length <= EXACT_RESAMPLE_LIMIT))
  return paired ? pairedEffect(scale, tb, base.blocks, tc, cand.blocks) : unpairedEffect(scale, tb, tc)
}

/** The distinct keys, sorted ascending, in the reused buffer `name` (read them before its next use). */
function distinctSorted(name: string, ...sides: ArrayLike<number>[]): Float64Array {
  const keys = workArray(name, sides.reduce((n, side) => n + side.length, 0), false)
  let n = 0
  for (const side of sides) for (let i = 0; i < side.length; i++) keys[n++] = side[i]!
  keys.sort()
  let m = 0
  for (let i = 0; i < n; i++) if (m === 0 || keys[i] !== keys[m - 1]) keys[m++] = keys[i]!
  return keys.subarray(0, m)
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
  const base = distinctSorted('base keys', baseBlocks)
  const cand = distinctSorted('cand keys', candBlocks)
  let shared = 0
  for (let i = 0; i < cand.length; i++) if (sortedIndexOf(base, cand[i]!) >= 0) shared++
  return shared
}

/**
 * The blocks of both modes' runs numbered 0..m-1. Few blocks (resampled one by one, so the order is
 * part of the seeded draw): in the order first seen. Many: in key order, found by bisection.
 */
function blockNumbering(baseBlocks: ArrayLike<number>, candBlocks: ArrayLike<number>): {m: number; blockOf: (key: number) => number} {
  const keys = distinctSorted('block keys', baseBlocks, candBlocks)
  if (keys.length > EXACT_RESAMPLE_LIMIT) return {m: keys.length, blockOf: (key) => sortedIndexOf(keys, key)}
  const index = new Map<number, number>()
  for (const blocks of [baseBlocks, candBlocks]) for (let i = 0; i < blocks.length; i++) if (!index.has(blocks[i]!)) index.set(blocks[i]!, index.size)
  return {m: index.size, blockOf: (key) => index.get(key)!}
}

/** Runs grouped by iteration block and resampled block by block. */
function pairedEffect(scale: Scale, tb: Float64Array, baseBlocks: ArrayLike<number>, tc: Float64Array, candBlocks: ArrayLike<number>): ScenarioEffect {
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
    const influence = (gc * (cSum[k]! - cCount[k]! * meanC)) / tc.length + (gb * (bSum[k]! - bCount[k]! * meanB)) / tb.length
    plugIn += influence * influence
  }
  const variance = m > 1 ? (plugIn * m) / (m - 1) : 0
  const factor = plugIn > 0 ? Math.sqrt(variance / plugIn) : 0
  const deviation =
    variance === 0 ? () => 0 : m > EXACT_RESAMPLE_LIMIT ? normalDeviation(variance) : blockDeviation(scale, theta, factor, {bSum, bCount, cSum, cCount})
  return {theta, variance, paired: true, units: m, df: Math.max(0, m - 1), deviation}
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
function blockDeviation(scale: Scale, theta: number, factor: number, sums: {bSum: Float64Array; bCount: Float64Array; cSum: Float64Array; cCount: Float64Array}): (random: Random) => number {
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
  const plugIn = (gc * gc * qc) / tc.length ** 2 + (gb * gb * qb) / tb.length ** 2
  const factor = plugIn > 0 ? Math.sqrt(variance / plugIn) : 0
  const drawB = resampledMean(tb, meanB, qb / tb.length ** 2)
  const drawC = resampledMean(tc, meanC, qc / tc.length ** 2)
  const deviation = (random: Random) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const drawn = scale.theta(drawC(random), drawB(random))
      if (Number.isFinite(drawn)) return (drawn - theta) * factor
    }
    return 0
  }
  return {theta, variance, paired: false, units: Math.min(tb.length, tc.length), df: Math.max(0, tb.length + tc.length - 2), deviation: variance === 0 ? () => 0 : deviation}
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
}

/** The suite effect over scenario effects, with its two-stage bootstrap interval (see the file's comment). */
export function suiteEffect(effects: readonly ScenarioEffect[], options: {confidence: number; resamples: number; seed: number}): SuiteEffect {
  const count = effects.length
  if (count === 0) return {theta: Number.NaN, interval: [Number.NaN, Number.NaN], between: Number.NaN, within: Number.NaN, scenarios: 0, df: Number.NaN}
  const theta = effects.reduce((a, e) => a + e.theta, 0) / count
  const within = effects.reduce((a, e) => a + e.variance, 0) / count
  const spread = count > 1 ? effects.reduce((a, e) => a + (e.theta - theta) ** 2, 0) / (count - 1) : 0
  const between = Math.max(0, spread - within)
  const shrink = spread > 0 ? Math.sqrt((count * between) / ((count - 1) * spread)) : 0
  const centres = Float64Array.from(effects, (e) => theta + shrink * (e.theta - theta))
  const deviations = effects.map((e) => e.deviation)
  const replicate = (random: Random): number => {
    let total = 0
    for (let j = 0; j < count; j++) {
      const s = count === 1 ? 0 : Math.floor(random() * count)
      total += centres[s]! + deviations[s]!(random)
    }
    return total / count
  }
  const {interval} = bootstrap(replicate, options)
  const withinDf = effects.reduce((a, e) => a + e.df, 0)
  // The degrees of freedom of the variance estimate used (see the file's comment): s²'s, or v̄'s.
  const df = between > 0 ? count - 1 : withinDf
  const widen = df > 0 ? tOfConfidence(options.confidence, df) / zOfConfidence(options.confidence) : 1
  const widened: [number, number] = [theta + widen * (interval[0] - theta), theta + widen * (interval[1] - theta)]
  return {theta, interval: widened, between, within, scenarios: count, df}
}

/** A log ratio as a reduction in %: (1 - e^θ) × 100 (positive: the candidate spends less). */
export function reductionOfLogRatio(theta: number): number {
  return (1 - Math.exp(theta)) * 100
}

/** A reduction in % as a log ratio: log(1 - r / 100); NaN at or beyond a 100% reduction. */
export function logRatioOfReduction(reductionPct: number): number {
  return reductionPct < 100 ? Math.log(1 - reductionPct / 100) : Number.NaN
}
