/**
 * Paired pass/fail outcomes of two modes on the same blocks (one scenario × iteration, run side by
 * side): the discordant pairs and the exact McNemar test, and Holm's step-down adjustment of a family
 * of p-values (one per scenario), which holds the family-wise error rate at α under any dependence.
 *
 * Exact McNemar: under "no difference", each discordant pair is pass→fail or fail→pass with
 * probability ½, so with b and c of them the two-sided p-value is min(1, 2·P(X <= min(b, c))) for
 * X ~ Binomial(b + c, ½); with no discordant pair it is 1. Concordant pairs say nothing either way.
 * Tango's score interval of the difference of the paired rates is the gate's paired success test.
 */
import {bernoulliDivergence, binomialCdf, binomialLogPmf, binomialLowerTail} from './binomial.js'

/** Two-sided exact McNemar p-value from the discordant counts. */
export function exactMcNemar(passToFail: number, failToPass: number): number {
  const n = passToFail + failToPass
  if (n === 0) return 1
  return Math.min(1, 2 * binomialCdf(Math.min(passToFail, failToPass), n, 0.5))
}

/** Holm's adjusted p-values, in the input's order: the i-th smallest times (m - i), kept monotone, at most 1. */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length
  const order = pValues.map((p, index) => ({p, index})).sort((a, b) => a.p - b.p || a.index - b.index)
  const adjusted = new Array<number>(m)
  let running = 0
  order.forEach(({p, index}, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p))
    adjusted[index] = running
  })
  return adjusted
}

/**
 * Tango's score interval (Tango 1998, Statistics in Medicine 17:891) for the difference of two paired
 * proportions, first minus second, from n pairs of which `gained` passed the first way only and `lost`
 * the second way only (fail→pass and pass→fail, the first being the later mode). The score statistic
 * of δ₀ is T(δ₀) = (gained − lost − nδ₀) / √(n(2q̂ + δ₀(1 − δ₀))), q̂ the maximum-likelihood share of
 * pass→fail pairs when the difference is δ₀ (a quadratic's root); the interval is the δ₀ where
 * |T(δ₀)| < z. Concordant pairs enter only through n: what a pair shares (its scenario, its moment)
 * cancels, which two independent rates' intervals (Newcombe's) cannot use. [NaN, NaN] for n = 0.
 */
export function tangoInterval(gained: number, lost: number, pairs: number, z: number): [number, number] {
  if (pairs === 0) return [Number.NaN, Number.NaN]
  const estimate = (gained - lost) / pairs
  // T falls as δ₀ rises, from +∞ near -1 to -∞ near 1: each bound is a bisection on a side of the estimate.
  const bound = (from: number, to: number, target: number) => {
    let low = from
    let high = to
    for (let i = 0; i < 60; i++) {
      const mid = (low + high) / 2
      if (tangoScore(gained, lost, pairs, mid) > target) low = mid
      else high = mid
    }
    return (low + high) / 2
  }
  return [estimate <= -1 ? -1 : bound(-1, estimate, z), estimate >= 1 ? 1 : bound(estimate, 1, -z)]
}

/** Tango's score statistic of δ₀ (see tangoInterval); ±Infinity where its variance vanishes (δ₀ at ±1). */
function tangoScore(gained: number, lost: number, pairs: number, delta: number): number {
  const a = 2 * pairs
  const b = -gained - lost + (2 * pairs - gained + lost) * delta
  const c = -lost * delta * (1 - delta)
  const lostShare = (Math.sqrt(Math.max(0, b * b - 4 * a * c)) - b) / (2 * a)
  const variance = pairs * (2 * lostShare + delta * (1 - delta))
  const numerator = gained - lost - pairs * delta
  if (variance <= 0) return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity
  return numerator / Math.sqrt(variance)
}

/** Points of the grid over the share of discordant pairs, the nuisance the exact test maximises over. */
const NUISANCE_GRID = 200

/**
 * The nuisance grid at the margin: NUISANCE_GRID + 1 shares of pass→fail pairs (`lost`) from `margin` to
 * (1 + margin) / 2, each with the fail→pass share `lost − margin` and the tied share of the rest.
 */
function nuisanceGrid(margin: number): {lost: number; gained: number; tied: number}[] {
  const highest = (1 + margin) / 2
  return Array.from({length: NUISANCE_GRID + 1}, (_, g) => {
    const lost = margin + ((highest - margin) * g) / NUISANCE_GRID
    return {lost, gained: lost - margin, tied: Math.max(0, 1 - 2 * lost + margin)}
  })
}

/**
 * The exact unconditional test of non-inferiority of paired proportions (the approach of Hsueh, Liu &
 * Chen 2001, Biometrics 57:478, with Tango's statistic ordering the outcomes): H0 "the first is worse
 * than the second by `margin` or more" against "within it". Tango's statistic at −margin orders every
 * outcome (gained, lost) of n pairs; the p-value is the chance, under H0's boundary, of an outcome at
 * least as favourable as the one seen, the largest over the nuisance (the share of pass→fail pairs,
 * from `margin` to (1 + margin) / 2, on a grid of NUISANCE_GRID points). `non_inferior` is that
 * p-value; `inferior` the same for the other side (at least as unfavourable: evidence the first is
 * worse by more than the margin). Each is exact at every n, where Tango's normal approximation passes
 * a candidate at the margin up to 7.8% of the time at 20 pairs (one-sided 5%).
 */
export function pairedNonInferiority(
  gained: number,
  lost: number,
  pairs: number,
  margin: number,
): {non_inferior: number; inferior: number} {
  if (pairs === 0) return {non_inferior: 1, inferior: 1}
  const delta = -margin
  const seen = tangoScore(gained, lost, pairs, delta)
  const slack = 1e-9 * Math.max(1, Math.abs(seen))
  // For each count gained, T falls as the count lost rises: the outcomes at least as favourable are lost <= passMax[b],
  // those at least as unfavourable lost >= failMin[b]. Found when a grid point first needs them (NOT_FOUND before).
  const passMax = new Int32Array(pairs + 1).fill(NOT_FOUND)
  const failMin = new Int32Array(pairs + 1).fill(NOT_FOUND)
  const bounds = (b: number) => {
    const top = pairs - b
    const at = (c: number) => tangoScore(b, c, pairs, delta)
    // The last c with T >= seen (-1: none); the first c with T <= seen (top + 1: none).
    let low = -1
    let high = top + 1
    while (high - low > 1) {
      const mid = (low + high) >> 1
      if (at(mid) >= seen - slack) low = mid
      else high = mid
    }
    passMax[b] = low
    low = -1
    high = top + 1
    while (high - low > 1) {
      const mid = (low + high) >> 1
      if (at(mid) <= seen + slack) high = mid
      else low = mid
    }
    failMin[b] = high
  }
  let nonInferior = 0
  let inferior = 0
  for (const {lost: lostShare, gained: gainedShare} of nuisanceGrid(margin)) {
    // Given b gained, the lost count is Binomial(n - b, lostShare / (1 - gainedShare)).
    const conditional = gainedShare >= 1 ? 0 : Math.min(1, lostShare / (1 - gainedShare))
    let pass = 0
    let fail = 0
    const [from, to] = likelyCounts(pairs, gainedShare)
    for (let b = from; b <= to; b++) {
      const weight = Math.exp(binomialLogPmf(pairs, b, gainedShare))
      // Outcomes this unlikely add nothing the sum can tell from rounding.
      if (weight < 1e-15) continue
      if (passMax[b] === NOT_FOUND) bounds(b)
      const rest = pairs - b
      pass += weight * binomialLowerTail(passMax[b]!, rest, conditional)
      fail += weight * (1 - binomialLowerTail(failMin[b]! - 1, rest, conditional))
    }
    nonInferior = Math.max(nonInferior, pass)
    inferior = Math.max(inferior, fail)
  }
  return {non_inferior: Math.min(1, nonInferior), inferior: Math.min(1, inferior)}
}

const NOT_FOUND = -2

/** ln(1e15) + 1: beyond it Chernoff's bound puts a count's probability below the 1e-15 the test's sum leaves out. */
const WINDOW_EXPONENT = Math.log(1e15) + 1

/**
 * The counts of Binomial(n, p) whose probability can reach 1e-15: those outside have
 * P(X = k) <= exp(-n·D(k/n || p)) < 1e-15 / e (Chernoff), so the test's sum skips them as it would
 * have term by term. The divergence grows away from the mean on each side: each end a bisection.
 */
function likelyCounts(n: number, p: number): [number, number] {
  const mean = n * p
  const far = (k: number) => n * bernoulliDivergence(k / n, p) > WINDOW_EXPONENT
  let low = -1
  let high = Math.floor(mean)
  while (high - low > 1) {
    const mid = (low + high) >> 1
    if (far(mid)) low = mid
    else high = mid
  }
  const from = high
  low = Math.min(n, Math.ceil(mean))
  high = n + 1
  while (high - low > 1) {
    const mid = (low + high) >> 1
    if (far(mid)) high = mid
    else low = mid
  }
  return [from, low]
}

/**
 * The largest number of pairs at the last look for which sequentialPairedRules carries the outcomes'
 * distribution exactly: its work grows as the cube of the pairs (200: about a second). Beyond it the
 * gate judges each look by the fixed test at the look's own level, as the normal boundaries have it.
 */
export const SEQUENTIAL_PAIRED_MAX_PAIRS = 200

/**
 * The exact group-sequential version of pairedNonInferiority's pass side, for looks at `pairs` pairs
 * (cumulative, ascending) with the one-sided error `spent` by each look (cumulative; the last the
 * overall α): at look k the test passes when Tango's statistic at −margin is at least the k-th value
 * returned (+Infinity: no outcome of that look can pass), the smallest such threshold for which the
 * chance of passing at some look <= k, at the margin, is at most spent[k], the largest over the nuisance
 * (the share of pass→fail pairs, the grid of the fixed test). That chance is computed exactly by carrying
 * the (gained, lost) distribution of the outcomes not yet passed from pair to pair, for each point of
 * the grid. At one look it is the fixed test (pass when its p-value is at most α). Each look's fixed test
 * at its share of the error spends it as if the looks were apart; the counts of the later looks contain
 * the earlier ones', so their passes overlap and each look can pass nearer a single test's level. The
 * fail side is left to each look's fixed test: a failed outcome is not taken out of the distribution,
 * which can only overstate the chance of passing (the boundary is non-binding).
 */
export function sequentialPairedRules(pairs: readonly number[], margin: number, spent: readonly number[]): number[] {
  const last = pairs.at(-1) ?? 0
  const side = last + 1
  const delta = -margin
  const grid = nuisanceGrid(margin)
  // For each point of the grid, the chance of each (gained, lost) not yet passed, at index gained * side + lost.
  const open = grid.map(() => {
    const cells = new Float64Array(side * side)
    cells[0] = 1
    return cells
  })
  const passedSoFar = new Float64Array(grid.length)
  const thresholds: number[] = []
  let done = 0
  for (const [k, n] of pairs.entries()) {
    for (const [index, point] of grid.entries()) {
      const cells = open[index]!
      // One pair at a time, in place: each cell (gained, lost) from itself, (gained - 1, lost) and (gained, lost - 1), read before they change.
      for (let i = done + 1; i <= n; i++)
        for (let g = i; g >= 0; g--)
          for (let l = i - g; l >= 0; l--) {
            const at = g * side + l
            let mass = cells[at]! * point.tied
            if (g > 0) mass += cells[at - side]! * point.gained
            if (l > 0) mass += cells[at - 1]! * point.lost
            cells[at] = mass
          }
    }
    done = n
    // No pair yet, no evidence: nothing passes (Tango's statistic has no value at 0 pairs).
    if (n === 0) {
      thresholds.push(Infinity)
      continue
    }
    // The outcomes of this look from the most favourable down, those of equal statistic together.
    const outcomes: {at: number; score: number}[] = []
    for (let g = 0; g <= n; g++)
      for (let l = 0; l <= n - g; l++) outcomes.push({at: g * side + l, score: tangoScore(g, l, n, delta)})
    outcomes.sort((a, b) => b.score - a.score)
    const passing = Float64Array.from(passedSoFar)
    let threshold = Infinity
    let taken = 0
    while (taken < outcomes.length) {
      const score = outcomes[taken]!.score
      // ±Infinity (a margin of 0: no variance) groups only with itself.
      const floor = Number.isFinite(score) ? score - 1e-9 * Math.max(1, Math.abs(score)) : score
      let end = taken + 1
      while (end < outcomes.length && outcomes[end]!.score >= floor) end++
      const trial = Float64Array.from(passing)
      let worst = 0
      for (const [index, cells] of open.entries()) {
        for (let o = taken; o < end; o++) trial[index]! += cells[outcomes[o]!.at]!
        worst = Math.max(worst, trial[index]!)
      }
      if (worst > spent[k]!) break
      passing.set(trial)
      threshold = outcomes[end - 1]!.score
      taken = end
    }
    passedSoFar.set(passing)
    for (const cells of open) for (let o = 0; o < taken; o++) cells[outcomes[o]!.at] = 0
    thresholds.push(threshold)
  }
  return thresholds
}

/** Tango's statistic at −margin of an outcome: what sequentialPairedRules' thresholds are compared with. */
export function pairedScore(gained: number, lost: number, pairs: number, margin: number): number {
  return tangoScore(gained, lost, pairs, -margin)
}
