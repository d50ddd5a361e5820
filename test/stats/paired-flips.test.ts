import {expect} from 'chai'
import {
  exactMcNemar,
  holmAdjust,
  pairedNonInferiority,
  pairedScore,
  sequentialPairedRules,
  tangoInterval,
} from '../../src/stats/paired-flips.js'
import {binomialLogPmf} from '../../src/stats/binomial.js'
import {incompleteBeta} from '../../src/stats/special.js'

// An independent computation: the binomial tail summed from exact integer binomial coefficients (BigInt).
function exactTail(k: number, n: number): number {
  let coefficient = 1n
  let sum = 0n
  for (let i = 0; i <= k; i++) {
    if (i > 0) coefficient = (coefficient * BigInt(n - i + 1)) / BigInt(i)
    sum += coefficient
  }
  return Number((sum * 10n ** 18n) / 2n ** BigInt(n)) / 1e18
}

describe('paired flips: exact McNemar and Holm', () => {
  it('equals the exact binomial computation for every split of up to 40 discordant pairs', () => {
    for (let n = 1; n <= 40; n++) {
      for (let b = 0; b <= n; b++) {
        const expected = Math.min(1, 2 * exactTail(Math.min(b, n - b), n))
        expect(exactMcNemar(b, n - b)).to.be.closeTo(expected, 1e-12)
      }
    }
  })

  it('gives the textbook values: 0 vs 6 discordant pairs is p = 1/32; none is p = 1', () => {
    expect(exactMcNemar(0, 6)).to.be.closeTo(2 / 64, 1e-15)
    expect(exactMcNemar(6, 0)).to.be.closeTo(2 / 64, 1e-15)
    expect(exactMcNemar(3, 3)).to.equal(1)
    expect(exactMcNemar(0, 0)).to.equal(1)
  })

  it('adjusts by Holm’s step-down rule, monotone, in the input order', () => {
    // m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06 (kept monotone), 0.5
    expect(holmAdjust([0.03, 0.5, 0.01, 0.02])).to.deep.equal([0.06, 0.5, 0.04, 0.06])
    expect(holmAdjust([0.4, 0.9])).to.deep.equal([0.8, 0.9])
    expect(holmAdjust([])).to.deep.equal([])
  })
})

// Tango's statistic by an independent route: the share of pass→fail pairs under "the difference is δ"
// found by maximising the multinomial likelihood numerically (golden-section search), not by the
// quadratic's root.
function independentTango(gained: number, lost: number, n: number, delta: number): number {
  const logLikelihood = (q: number) =>
    (gained > 0 ? gained * Math.log(q + delta) : 0) +
    (lost > 0 ? lost * Math.log(q) : 0) +
    (n - gained - lost > 0 ? (n - gained - lost) * Math.log(1 - 2 * q - delta) : 0)
  let low = Math.max(0, -delta) + 1e-15
  let high = (1 - delta) / 2 - 1e-15
  const ratio = (Math.sqrt(5) - 1) / 2
  for (let i = 0; i < 200; i++) {
    const a = high - ratio * (high - low)
    const b = low + ratio * (high - low)
    if (logLikelihood(a) < logLikelihood(b)) low = a
    else high = b
  }
  const q = (low + high) / 2
  return (gained - lost - n * delta) / Math.sqrt(n * (2 * q + delta * (1 - delta)))
}

describe('paired flips: Tango’s score interval and the exact non-inferiority test', () => {
  const z95 = 1.959963984540054

  it('gives the published interval of Cavo et al. (2012): 6 and 16 discordant of 161 pairs, −0.0621 [−0.1240, −0.0054]', () => {
    // Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8: the table 59, 6 / 16, 80.
    const [low, high] = tangoInterval(6, 16, 161, z95)
    expect(low).to.be.closeTo(-0.124, 5e-5)
    expect(high).to.be.closeTo(-0.0054, 5e-5)
  })

  it('bounds each interval where the score statistic of an independent computation is ±z', () => {
    for (const [gained, lost, n] of [
      [6, 16, 161],
      [0, 0, 40],
      [3, 0, 20],
      [1, 9, 80],
      [12, 4, 120],
    ] as const) {
      const [low, high] = tangoInterval(gained, lost, n, 1.6448536269514722)
      expect(independentTango(gained, lost, n, low), `${gained}/${lost}/${n} low`).to.be.closeTo(
        1.6448536269514722,
        1e-4,
      )
      expect(independentTango(gained, lost, n, high), `${gained}/${lost}/${n} high`).to.be.closeTo(
        -1.6448536269514722,
        1e-4,
      )
      expect(low).to.be.below((gained - lost) / n)
      expect(high).to.be.above((gained - lost) / n)
    }
  })

  it('the exact test’s p-values equal a brute-force sum over every outcome of n pairs at each nuisance value', () => {
    const n = 12
    const margin = 0.12
    const logFactorial = (k: number) => {
      let s = 0
      for (let i = 2; i <= k; i++) s += Math.log(i)
      return s
    }
    const trinomial = (b: number, c: number, p12: number, p21: number) =>
      Math.exp(
        logFactorial(n) -
          logFactorial(b) -
          logFactorial(c) -
          logFactorial(n - b - c) +
          (b > 0 ? b * Math.log(Math.max(0, p12)) : 0) +
          (c > 0 ? c * Math.log(p21) : 0) +
          (n - b - c > 0 ? (n - b - c) * Math.log(Math.max(0, 1 - p12 - p21)) : 0),
      )
    for (const [gained, lost] of [
      [0, 0],
      [2, 1],
      [0, 4],
      [5, 0],
    ] as const) {
      const seen = independentTango(gained, lost, n, -margin)
      let favourable = 0
      let unfavourable = 0
      // The same nuisance grid as the test's: 201 points from the margin to (1 + margin) / 2.
      for (let g = 0; g <= 200; g++) {
        const p21 = margin + (((1 + margin) / 2 - margin) * g) / 200
        const p12 = p21 - margin
        let up = 0
        let down = 0
        for (let b = 0; b <= n; b++)
          for (let c = 0; c <= n - b; c++) {
            const t = independentTango(b, c, n, -margin)
            const p = trinomial(b, c, p12, p21)
            if (t >= seen - 1e-6) up += p
            if (t <= seen + 1e-6) down += p
          }
        favourable = Math.max(favourable, up)
        unfavourable = Math.max(unfavourable, down)
      }
      const exact = pairedNonInferiority(gained, lost, n, margin)
      expect(exact.non_inferior, `${gained}/${lost}`).to.be.closeTo(Math.min(1, favourable), 1e-9)
      expect(exact.inferior, `${gained}/${lost}`).to.be.closeTo(Math.min(1, unfavourable), 1e-9)
    }
  })

  it('sums only the counts that can matter: equal to the sum over every count of every nuisance point, up to 2,000 pairs', () => {
    // The sum term by term over every count gained (each conditional tail by the incomplete beta), as the test
    // was computed before it skipped the counts beyond Chernoff's bounds: quadratic in the pairs.
    const everyCount = (gained: number, lost: number, n: number, margin: number) => {
      const seen = pairedScore(gained, lost, n, margin)
      const slack = 1e-9 * Math.max(1, Math.abs(seen))
      const tail = (k: number, m: number, p: number) => (k < 0 ? 0 : k >= m ? 1 : incompleteBeta(1 - p, m - k, k + 1))
      // For each count gained, the largest count lost at least as favourable and the smallest at least as unfavourable.
      const passMax: number[] = []
      const failMin: number[] = []
      for (let b = 0; b <= n; b++) {
        let c = -1
        while (c < n - b && pairedScore(b, c + 1, n, margin) >= seen - slack) c++
        passMax.push(c)
        c = n - b + 1
        while (c > 0 && pairedScore(b, c - 1, n, margin) <= seen + slack) c--
        failMin.push(c)
      }
      let favourable = 0
      let unfavourable = 0
      for (let g = 0; g <= 200; g++) {
        const lostShare = margin + (((1 + margin) / 2 - margin) * g) / 200
        const gainedShare = lostShare - margin
        const conditional = Math.min(1, lostShare / (1 - gainedShare))
        let up = 0
        let down = 0
        for (let b = 0; b <= n; b++) {
          const weight = Math.exp(binomialLogPmf(n, b, gainedShare))
          if (weight < 1e-15) continue
          up += weight * tail(passMax[b]!, n - b, conditional)
          down += weight * (1 - tail(failMin[b]! - 1, n - b, conditional))
        }
        favourable = Math.max(favourable, up)
        unfavourable = Math.max(unfavourable, down)
      }
      return {non_inferior: Math.min(1, favourable), inferior: Math.min(1, unfavourable)}
    }
    const cases = [40, 300].flatMap((n) =>
      [0.03, 0.08, 0.12].flatMap((margin) => [0, 0.01, 0.05].map((gainedRate) => ({n, margin, gainedRate}))),
    )
    cases.push({n: 2000, margin: 0.03, gainedRate: 0.03})
    for (const {n, margin, gainedRate} of cases) {
      const gained = Math.round(n * gainedRate)
      // At the test's edge (about 1.6 deviations inside the margin), on the margin, and far on either side.
      const edge = Math.round(gained + margin * n - 1.645 * Math.sqrt(2 * gained + margin * n))
      for (const lost of [Math.max(0, edge), Math.round(gained + margin * n), gained, Math.min(n - gained, 3 * edge)]) {
        const fast = pairedNonInferiority(gained, lost, n, margin)
        const full = everyCount(gained, lost, n, margin)
        const what = `n ${n}, margin ${margin}, ${gained} gained, ${lost} lost`
        expect(fast.non_inferior, what).to.be.closeTo(full.non_inferior, 1e-13)
        expect(fast.inferior, what).to.be.closeTo(full.inferior, 1e-13)
      }
    }
  })

  it('passes a candidate at the margin at most 5% of the time at 20 pairs, where Tango’s normal approximation passes it 6–7%', () => {
    // Baseline 95%, candidate 83% (12 points down), the two modes' success correlated in a block (latent
    // normal scale) or not: every outcome of 20 pairs enumerated with its probability.
    const n = 20
    const logFactorial = (k: number) => {
      let s = 0
      for (let i = 2; i <= k; i++) s += Math.log(i)
      return s
    }
    // P(both succeed) at correlations 0 and 0.9 (bivariate normal at Φ⁻¹(0.83), Φ⁻¹(0.95)), computed aside.
    for (const both of [0.83 * 0.95, 0.828]) {
      const p12 = 0.83 - both
      const p21 = 0.95 - both
      let exactPasses = 0
      let approximatePasses = 0
      for (let b = 0; b <= n; b++)
        for (let c = 0; c <= n - b; c++) {
          const p = Math.exp(
            logFactorial(n) -
              logFactorial(b) -
              logFactorial(c) -
              logFactorial(n - b - c) +
              (b > 0 ? b * Math.log(p12) : 0) +
              c * Math.log(p21) +
              (n - b - c) * Math.log(1 - p12 - p21),
          )
          if (pairedNonInferiority(b, c, n, 0.12).non_inferior <= 0.05) exactPasses += p
          if (tangoInterval(b, c, n, 1.6448536269514722)[0] >= -0.12) approximatePasses += p
        }
      expect(exactPasses, `P(both) ${both}`).to.be.at.most(0.05)
      expect(approximatePasses, `P(both) ${both}`).to.be.above(0.05)
    }
  })
})

describe('the exact group-sequential paired test', () => {
  it('is the fixed test at one look: passes exactly the outcomes whose exact p-value is at most α', () => {
    for (const n of [20, 30])
      for (const margin of [0.12, 0.2]) {
        const [threshold] = sequentialPairedRules([n], margin, [0.05])
        let passing = 0
        for (let gained = 0; gained <= n; gained++)
          for (let lost = 0; lost <= n - gained; lost++) {
            const p = pairedNonInferiority(gained, lost, n, margin).non_inferior
            if (Math.abs(p - 0.05) < 1e-9) continue
            const passes = pairedScore(gained, lost, n, margin) >= threshold!
            expect(passes, `${gained}/${lost} of ${n}, margin ${margin}: p ${p}`).to.equal(p <= 0.05)
            if (passes) passing++
          }
        expect(passing, `${n} ${margin}`).to.be.above(0)
      }
  })

  it('passes nothing at a look of no pairs, and the next look is then a single test at the error spent by it', () => {
    const [none, next] = sequentialPairedRules([0, 20], 0.12, [0.01, 0.05])
    expect(none).to.equal(Infinity)
    expect(next).to.equal(sequentialPairedRules([20], 0.12, [0.05])[0])
    // A margin of 0 (no drop allowed) has outcomes of no variance: still a threshold, never a stall.
    expect(sequentialPairedRules([10, 20], 0, [0.02, 0.05]).every(Number.isFinite)).to.equal(true)
  })

  it('spends at most the error given by each look over every sequence of pairs, and is the largest such rule', () => {
    // Every sequence of 10 pairs (each gained, lost or tied: 3^10), looks at 4, 7 and 10 pairs, Tango's
    // statistic by the independent route above; the chance at the margin summed over the sequences that
    // pass by each look, at every point of the test's nuisance grid.
    const looks = [4, 7, 10]
    const last = looks.at(-1)!
    const margin = 0.4
    const spent = [0.015, 0.03, 0.05]
    const rules = sequentialPairedRules(looks, margin, spent)
    expect(rules[1], 'something passes at the second look').to.be.below(Infinity)
    const scores = looks.map((n) =>
      Array.from({length: n + 1}, (_, g) =>
        Array.from({length: n + 1 - g}, (_, l) => independentTango(g, l, n, -margin)),
      ),
    )
    // By look, the sequences passing by it (under `thresholds`) counted by their final (gained, lost).
    const passingBy = (thresholds: readonly number[]) => {
      const counts = looks.map(() => Array.from({length: last + 1}, () => new Array<number>(last + 1).fill(0)))
      for (let code = 0; code < 3 ** last; code++) {
        let gained = 0
        let lost = 0
        let passed = false
        let rest = code
        let look = 0
        const passedBy: boolean[] = []
        for (let pair = 1; pair <= last; pair++) {
          const outcome = rest % 3
          rest = (rest - outcome) / 3
          if (outcome === 1) gained++
          if (outcome === 2) lost++
          if (pair === looks[look]) {
            passed ||= scores[look]![gained]![lost]! >= thresholds[look]! - 1e-6
            passedBy.push(passed)
            look++
          }
        }
        passedBy.forEach((by, k) => {
          if (by) counts[k]![gained]![lost]!++
        })
      }
      return counts
    }
    const worstChance = (counts: number[][]) => {
      let worst = 0
      for (let g = 0; g <= 200; g++) {
        const lostShare = margin + (((1 + margin) / 2 - margin) * g) / 200
        const gainedShare = lostShare - margin
        const tied = 1 - lostShare - gainedShare
        let chance = 0
        counts.forEach((row, gained) =>
          row.forEach((count, lost) => {
            if (count > 0)
              chance += count * gainedShare ** gained * lostShare ** lost * Math.max(0, tied) ** (last - gained - lost)
          }),
        )
        worst = Math.max(worst, chance)
      }
      return worst
    }
    const counts = passingBy(rules)
    looks.forEach((_, k) => expect(worstChance(counts[k]!), `look ${k + 1}`).to.be.at.most(spent[k]! + 1e-12))
    // The largest such: at each look, the next outcome below its threshold passing too would overspend.
    looks.forEach((n, k) => {
      const below = scores[k]!.flat().filter((score) => score < rules[k]! - 1e-6)
      if (below.length === 0) return
      const looser = rules.map((threshold, j) => (j === k ? Math.max(...below) : threshold))
      expect(worstChance(passingBy(looser)[k]!), `look ${k + 1} at ${n} pairs`).to.be.above(spent[k]!)
    })
  })
})
