// The suite effect on the log ratio with its hierarchical bootstrap interval. The coverage checks
// draw seeded synthetic suites with a known effect and count how often the interval misses it on
// each side: an interval that ignored the spread between scenarios, the small cells, or the pairing
// would miss too often (or, double-counting noise, too rarely) and fail here.
import {expect} from 'chai'
import {
  CONTINUITY_CORRECTION,
  logRatioOfReduction,
  reductionOfLogRatio,
  scenarioEffect,
  sharedBlocks,
  suiteEffect,
  type ScenarioEffect,
} from '../../src/stats/log-ratio.js'
import {mulberry32, normalDraw, type Random} from '../../src/stats/random.js'

interface SuiteModel {
  scenarios: number
  runs: number
  /** SD of the effect between scenarios (log scale). */
  spread: number
  /** SD of a run (log scale) and of the block the two modes share. */
  noise: number
  block: number
  paired: boolean
}

/** One synthetic suite with true effect `theta`: per scenario, `runs` blocks of one run of each mode. */
function suite(random: Random, theta: number, model: SuiteModel): ScenarioEffect[] {
  return Array.from({length: model.scenarios}, () => {
    const level = Math.log(5000) + normalDraw(random)
    const effect = theta + model.spread * normalDraw(random)
    const base = {values: [] as number[], blocks: [] as number[]}
    const cand = {values: [] as number[], blocks: [] as number[]}
    for (let i = 0; i < model.runs; i++) {
      const shared = model.block * normalDraw(random)
      base.values.push(Math.exp(level + shared + model.noise * normalDraw(random)))
      base.blocks.push(i)
      cand.values.push(Math.exp(level + effect + shared + model.noise * normalDraw(random)))
      cand.blocks.push(model.paired ? i : 1000 + i)
    }
    return scenarioEffect(base, cand)!
  })
}

/** The share of suites whose interval lies wholly above, and wholly below, the true effect. */
function misses(model: SuiteModel, datasets: number, seed: number): {above: number; below: number} {
  const random = mulberry32(seed)
  const theta = Math.log(0.85)
  let above = 0
  let below = 0
  for (let d = 0; d < datasets; d++) {
    const {interval} = suiteEffect(suite(random, theta, model), {confidence: 0.95, resamples: 400, seed: d})
    if (interval[0] > theta) above++
    if (interval[1] < theta) below++
  }
  return {above: above / datasets, below: below / datasets}
}

describe('log-ratio suite effect', () => {
  it('per scenario: the log ratio of geometric means, or of plain means for counts; a 0 takes half the smallest value', () => {
    const effect = scenarioEffect({values: [100, 400], blocks: [1, 2]}, {values: [50, 200], blocks: [1, 2]})!
    expect(effect.theta).to.be.closeTo(Math.log(0.5), 1e-12)
    expect(effect.paired).to.equal(true)
    // Paired blocks with the same ratio in each: no run-level variance beyond the resolution's floor,
    // that of runs one count apart (the log of one count more at each mode's level, over n, squared).
    expect(effect.variance).to.be.closeTo((Math.log1p(1 / 200) / 2) ** 2 + (Math.log1p(1 / 100) / 2) ** 2, 1e-15)
    const counts = scenarioEffect(
      {values: [2, 4, 0], blocks: [1, 2, 3]},
      {values: [1, 2, 0], blocks: [1, 2, 3]},
      'arithmetic',
    )!
    expect(counts.theta).to.be.closeTo(Math.log(1 / 2), 1e-12)
    const zero = scenarioEffect({values: [2, 2], blocks: [1, 2]}, {values: [0, 2], blocks: [1, 2]})!
    expect(zero.theta).to.be.closeTo((Math.log(1) + Math.log(2)) / 2 - Math.log(2), 1e-12)
    expect(scenarioEffect({values: [0, 0], blocks: [1, 2]}, {values: [0], blocks: [1]})).to.equal(null)
    expect(scenarioEffect({values: [], blocks: []}, {values: [3], blocks: [1]})).to.equal(null)
    expect(reductionOfLogRatio(logRatioOfReduction(15))).to.be.closeTo(15, 1e-12)
  })

  it('an unpaired scenario’s variance is the two means’ sample variances over n, on the log scale', () => {
    const base = [10, 20, 40, 80]
    const cand = [5, 10, 20]
    const effect = scenarioEffect({values: base, blocks: [1, 2, 3, 4]}, {values: cand, blocks: [11, 12, 13]})!
    const logs = (values: number[]) => values.map(Math.log)
    const variance = (values: number[]) => {
      const m = values.reduce((a, b) => a + b, 0) / values.length
      return values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1)
    }
    expect(effect.paired).to.equal(false)
    expect(effect.variance).to.be.closeTo(variance(logs(base)) / 4 + variance(logs(cand)) / 3, 1e-12)
    // The run-level deviations are drawn with that variance.
    const random = mulberry32(5)
    let squares = 0
    for (let i = 0; i < 40_000; i++) squares += effect.deviation(random) ** 2
    expect(squares / 40_000).to.be.closeTo(effect.variance, 0.05 * effect.variance)
  })

  it('pairing by block cancels what the two modes’ runs share: a narrower interval, still covering', () => {
    const model = {scenarios: 4, runs: 10, spread: 0, noise: 0.1, block: 0.4}
    const random = mulberry32(9)
    const pairedWidth: number[] = []
    const unpairedWidth: number[] = []
    for (let d = 0; d < 30; d++) {
      const [low, high] = suiteEffect(suite(random, Math.log(0.8), {...model, paired: true}), {
        confidence: 0.95,
        resamples: 400,
        seed: d,
      }).interval
      pairedWidth.push(high - low)
      const [uLow, uHigh] = suiteEffect(suite(random, Math.log(0.8), {...model, paired: false}), {
        confidence: 0.95,
        resamples: 400,
        seed: d,
      }).interval
      unpairedWidth.push(uHigh - uLow)
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length
    // Run noise 0.1 against a shared 0.4: pairing takes out most of it (ignored, the two would be alike).
    expect(mean(pairedWidth)).to.be.below(mean(unpairedWidth) / 2)
    const {above, below} = misses({...model, paired: true}, 300, 4)
    expect(above + below).to.be.within(0.01, 0.1)
  })

  it('covers the suite effect on each side about 2.5% of the time: few scenarios, small cells, effects that differ', () => {
    // 4 scenarios x 5 runs, the effect varying a little between scenarios (the simulation's model).
    const small = misses({scenarios: 4, runs: 5, spread: 0.05, noise: 0.29, block: 0.1, paired: true}, 400, 1)
    // 4 scenarios whose effects differ a lot: fixed-scenario intervals miss this most.
    const spread = misses({scenarios: 4, runs: 20, spread: 0.2, noise: 0.29, block: 0.1, paired: true}, 400, 2)
    // 10 scenarios x 3 runs, unpaired (the predecessors ran one mode after the other).
    const unpaired = misses({scenarios: 10, runs: 3, spread: 0.05, noise: 0.29, block: 0, paired: false}, 400, 3)
    for (const [name, m] of Object.entries({small, spread, unpaired})) {
      expect(m.above, `${name} above`).to.be.within(0.01, 0.065)
      expect(m.below, `${name} below`).to.be.within(0.01, 0.065)
    }
  })

  it('two stages: the between-scenario spread is estimated net of run noise, and widens the interval when scenarios differ', () => {
    const fixed = (theta: number, variance: number): ScenarioEffect => ({
      theta,
      variance,
      paired: true,
      units: 20,
      df: 19,
      deviation: (random) => Math.sqrt(variance) * normalDraw(random),
    })
    // Scenario effects spread exactly as run noise alone would spread them: no between-scenario variance.
    const alike = suiteEffect([fixed(-0.1, 0.01), fixed(-0.2, 0.01), fixed(-0.3, 0.01)], {
      confidence: 0.95,
      resamples: 4000,
      seed: 1,
    })
    expect(alike.between).to.equal(0)
    expect(alike.within).to.be.closeTo(0.01, 1e-12)
    expect(alike.df).to.equal(3 * 19)
    // Eight scenarios, spread far beyond their run noise: the spread is between scenarios, and counts
    // with S - 1 degrees of freedom.
    const effects = Array.from({length: 8}, (_, i) => fixed(-0.1 - 0.05 * i, 0.0001))
    const differ = suiteEffect(effects, {confidence: 0.95, resamples: 20_000, seed: 1})
    const spread = 0.015 // the sample variance of -0.1, -0.15, ..., -0.45
    expect(differ.between).to.be.closeTo(spread - 0.0001, 1e-12)
    expect(differ.df).to.equal(7)
    // The half-width is t_7 x sqrt((τ² + v̄) / S): resampling the unshrunk effects would give 6% less.
    const half = (differ.interval[1] - differ.interval[0]) / 2
    expect(half).to.be.closeTo(2.365 * Math.sqrt(spread / 8), 0.025 * 2.365 * Math.sqrt(spread / 8))
  })

  it('counts the degrees of freedom of s² when scenarios spread a little beyond their run noise: S - 1, not the runs’', () => {
    const fixed = (theta: number, variance: number): ScenarioEffect => ({
      theta,
      variance,
      paired: true,
      units: 20,
      df: 19,
      deviation: (random) => Math.sqrt(variance) * normalDraw(random),
    })
    // Four scenarios whose spread (s² = 0.0125) is a quarter beyond their run noise (v̄ = 0.01): τ̂² + v̄
    // is s² itself, an estimate from 4 effects, so t_3 (3.18), where adding τ̂² (3 df) and v̄ (76 df) by
    // Satterthwaite would say 46 degrees of freedom and t of 2.01: too narrow by a third.
    const effects = Array.from({length: 4}, (_, i) => fixed(-0.2 + (i - 1.5) * Math.sqrt(0.0125 / (5 / 3)), 0.01))
    const suite = suiteEffect(effects, {confidence: 0.95, resamples: 20_000, seed: 4})
    expect(suite.between).to.be.closeTo(0.0025, 1e-12)
    expect(suite.df).to.equal(3)
    const half = (suite.interval[1] - suite.interval[0]) / 2
    const exact = 3.182 * Math.sqrt(0.0125 / 4)
    expect(half).to.be.closeTo(exact, 0.04 * exact)
  })

  it('is the same for the same seed, and a large cell bootstraps from its normal approximation', () => {
    const random = mulberry32(3)
    const big = Array.from({length: 10}, () => {
      const n = 5000
      return scenarioEffect(
        {
          values: Array.from({length: n}, () => Math.exp(normalDraw(random))),
          blocks: Array.from({length: n}, (_, i) => i),
        },
        {
          values: Array.from({length: n}, () => Math.exp(-0.2 + normalDraw(random))),
          blocks: Array.from({length: n}, (_, i) => i),
        },
      )!
    })
    const a = suiteEffect(big, {confidence: 0.95, resamples: 10_000, seed: 7})
    expect(suiteEffect(big, {confidence: 0.95, resamples: 10_000, seed: 7})).to.deep.equal(a)
    expect(a.theta).to.be.closeTo(-0.2, 0.02)
    // Within-scenario SE of a 5,000-pair mean: sqrt(2/5000) = 0.02 per scenario; the suite's about 0.02/sqrt(10).
    expect(a.interval[1] - a.interval[0]).to.be.below(0.05)
  })

  it('counts the blocks the modes share, and numbers a large cell’s blocks so that its rows’ order does not matter', () => {
    expect(sharedBlocks([3, 1, 2, 2], [2, 5, 3, 3])).to.equal(2)
    expect(sharedBlocks([1, 2], [3, 4])).to.equal(0)
    expect(sharedBlocks([], [1])).to.equal(0)
    const random = mulberry32(11)
    const n = 500
    const rows = Array.from({length: n}, (_, i) => ({
      block: 1000 - i,
      base: Math.exp(normalDraw(random)),
      cand: Math.exp(-0.1 + normalDraw(random)),
    }))
    const effectOf = (order: typeof rows) =>
      scenarioEffect(
        {values: order.map((r) => r.base), blocks: order.map((r) => r.block)},
        {values: order.map((r) => r.cand), blocks: order.map((r) => r.block)},
      )!
    const shuffled = [...rows].sort(() => random() - 0.5)
    const [a, b] = [effectOf(rows), effectOf(shuffled)]
    expect(a.paired).to.equal(true)
    expect(a.units).to.equal(n)
    expect(b.theta).to.be.closeTo(a.theta, 1e-12)
    expect(b.variance).to.be.closeTo(a.variance, 1e-12)
    // A different pairing of the same values is a different variance: the blocks are really used.
    const unpaired = scenarioEffect(
      {values: rows.map((r) => r.base), blocks: rows.map((r) => r.block)},
      {values: rows.map((r) => r.cand), blocks: rows.map((r) => -r.block)},
    )!
    expect(unpaired.paired).to.equal(false)
  })

  it('a cell of equal runs is a measurement at the resolution, not a certainty: its variance is floored', () => {
    // 5 calls in every baseline run, 3 in every candidate run: the interval was [40%, 40%] with an MDE of 0.
    const blocks = [1, 2, 3, 4, 5]
    const effect = scenarioEffect({values: [5, 5, 5, 5, 5], blocks}, {values: [3, 3, 3, 3, 3], blocks}, 'arithmetic')!
    expect(reductionOfLogRatio(effect.theta)).to.be.closeTo(40, 1e-9)
    // One run of five one call off: the run variance 1/5, the mean's 1/25, on the log scale (1/3)² and (1/5)² of it.
    const floor = (1 / 3 / 5) ** 2 + (1 / 5 / 5) ** 2
    expect(effect.variance).to.be.closeTo(floor, 1e-15)
    const random = mulberry32(1)
    let squares = 0
    for (let i = 0; i < 20_000; i++) squares += effect.deviation(random) ** 2
    expect(squares / 20_000).to.be.closeTo(floor, 0.05 * floor)
    const [low, high] = suiteEffect([effect], {confidence: 0.95, resamples: 4000, seed: 1})
      .interval.map(reductionOfLogRatio)
      .reverse() as [number, number]
    // Still a clear 40% against a 20% threshold, but an interval of some width: about ±2.3 SE on the log scale (t with 8 df).
    expect(low).to.be.within(25, 35)
    expect(high).to.be.within(45, 55)
    // Unpaired alike; and equal token counts in the thousands are floored too, if by little (one token in 8,000).
    expect(
      scenarioEffect({values: [5, 5, 5], blocks: [1, 2, 3]}, {values: [3, 3, 3], blocks: [11, 12, 13]}, 'arithmetic')!
        .variance,
    ).to.be.closeTo((1 / 3 / 3) ** 2 + (1 / 5 / 3) ** 2, 1e-15)
    expect(
      scenarioEffect({values: [8000, 8000, 8000], blocks: [1, 2, 3]}, {values: [6000, 6000, 6000], blocks: [1, 2, 3]})!
        .variance,
    ).to.be.above(0)
  })

  it('counts a mode with no call: half a count added to the scenario’s runs, so a regression from 0 counts against the candidate', () => {
    const blocks = [1, 2, 3, 4]
    // The baseline needs no call; the candidate makes 2 a run: 2.5 against 0.5, five times as many (-400%).
    const regressed = scenarioEffect({values: [0, 0, 0, 0], blocks}, {values: [2, 2, 2, 2], blocks}, 'arithmetic')!
    expect(regressed).to.not.equal(null)
    expect(regressed.theta).to.be.closeTo(Math.log((2 + CONTINUITY_CORRECTION) / CONTINUITY_CORRECTION), 1e-12)
    expect(reductionOfLogRatio(regressed.theta)).to.be.closeTo(-400, 1e-9)
    // Neither mode calls: no change, counted as such.
    expect(
      scenarioEffect({values: [0, 0, 0], blocks: [1, 2, 3]}, {values: [0, 0, 0], blocks: [1, 2, 3]}, 'arithmetic')!
        .theta,
    ).to.equal(0)
    // The candidate needs none where the baseline needed 1 in 2 runs of 4: 0.5 against 1.0 (the shift is the scenario's, both modes).
    expect(
      scenarioEffect({values: [1, 0, 1, 0], blocks}, {values: [0, 0, 0, 0], blocks}, 'arithmetic')!.theta,
    ).to.be.closeTo(Math.log(0.5 / 1.0), 1e-12)
    // Means above 0 in both modes: no correction.
    expect(
      scenarioEffect({values: [4, 6, 5, 5], blocks}, {values: [0, 2, 1, 1], blocks}, 'arithmetic')!.theta,
    ).to.be.closeTo(Math.log(1 / 5), 1e-12)
  })

  it('one runaway run moves its scenario far less than e^0.92: the per-scenario location is Huber’s', () => {
    const blocks = [1, 2, 3, 4, 5]
    const base = [9000, 11000, 10000, 12000, 8500]
    const cand = [6000, 7400, 6800, 8100, 5600]
    const clean = scenarioEffect({values: base, blocks}, {values: cand, blocks})!
    // The candidate's third run loops: 100 times its tokens. The mean of the logs moved by log(100) / 5 = 0.92.
    const runaway = scenarioEffect(
      {values: base, blocks},
      {values: cand.map((v, i) => (i === 2 ? 100 * v : v)), blocks},
    )!
    const meanLog = (values: number[]) => values.reduce((a, v) => a + Math.log(v), 0) / values.length
    expect(meanLog(cand.map((v, i) => (i === 2 ? 100 * v : v))) - meanLog(cand)).to.be.closeTo(Math.log(100) / 5, 1e-12)
    const moved = runaway.theta - clean.theta
    expect(moved).to.be.within(0, 0.2)
    // No run beyond 2 robust SDs: the plain mean of the logs, to the bit.
    expect(clean.theta).to.equal(meanLog(cand) - meanLog(base))
    // Its interval still knows the run was there: wider than without it.
    expect(runaway.variance).to.be.above(clean.variance)
    // Tool calls alike: one run of 60 calls among 4 to 6.
    const calls = scenarioEffect({values: [5, 6, 5, 4, 5], blocks}, {values: [3, 4, 60, 3, 4], blocks}, 'arithmetic')!
    expect(reductionOfLogRatio(calls.theta)).to.be.above(0)
  })

  it('gives the same effect and the same bootstrap whatever the order of the rows (small cells, paired or not)', () => {
    const random = mulberry32(21)
    for (const paired of [true, false]) {
      const rows = Array.from({length: 12}, (_, i) => ({
        block: 3 + i,
        base: Math.exp(normalDraw(random)),
        cand: Math.exp(-0.2 + normalDraw(random)),
      }))
      const effectOf = (order: typeof rows) =>
        scenarioEffect(
          {values: order.map((r) => r.base), blocks: order.map((r) => r.block)},
          {values: order.map((r) => r.cand), blocks: order.map((r) => (paired ? r.block : 100 + r.block))},
        )!
      const a = effectOf(rows)
      const b = effectOf([...rows].reverse())
      expect(a.paired).to.equal(paired)
      expect(b.theta).to.equal(a.theta)
      expect(b.variance).to.equal(a.variance)
      const draws = (effect: ScenarioEffect) => {
        const stream = mulberry32(5)
        return Array.from({length: 50}, () => effect.deviation(stream))
      }
      expect(draws(b)).to.deep.equal(draws(a))
    }
  })
})
