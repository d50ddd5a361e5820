// Rate intervals: Wilson for one rate, Newcombe for a difference. Their error rates are computed
// exactly, by summing the binomial probabilities of the counts whose interval misses: no sampling
// noise, so a wrong formula fails here however it errs.
import {expect} from 'chai'
import {newcombeInterval, wilsonInterval} from '../../src/stats/rates.js'
import {logGamma} from '../../src/stats/special.js'

const pmf = (n: number, k: number, p: number): number =>
  p === 0
    ? k === 0
      ? 1
      : 0
    : p === 1
      ? k === n
        ? 1
        : 0
      : Math.exp(logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p))

/** P(the interval lies wholly above p) and P(wholly below p), exactly. */
function wilsonMisses(n: number, p: number): {above: number; below: number} {
  let above = 0
  let below = 0
  for (let k = 0; k <= n; k++) {
    const [low, high] = wilsonInterval(k, n)
    if (low > p) above += pmf(n, k, p)
    if (high < p) below += pmf(n, k, p)
  }
  return {above, below}
}

describe('rate intervals', () => {
  it('Wilson has no zero width from any count, and at 0 of n its upper bound is z² / (n + z²)', () => {
    for (const n of [1, 3, 5, 20, 80]) {
      for (const k of [0, n]) {
        const [low, high] = wilsonInterval(k, n)
        expect(high - low, `${k} of ${n}`).to.be.above(0.04)
      }
      expect(wilsonInterval(0, n)[1]).to.be.closeTo(1.959964 ** 2 / (n + 1.959964 ** 2), 1e-6)
    }
  })

  it('Wilson covers the gate’s rates: at most 3% wrong on the passing side at every size the gate sees', () => {
    // The passing side of a limit check (rate <= p) is an upper bound below p.
    for (const p of [0.02, 0.05, 0.15, 0.5]) {
      for (const n of [20, 40, 80, 100, 200, 400]) {
        const {above, below} = wilsonMisses(n, p)
        expect(below, `p ${p}, n ${n}`).to.be.at.most(0.03)
        expect(above + below, `p ${p}, n ${n}`).to.be.at.most(0.1)
      }
    }
  })

  it('Newcombe’s difference interval: the published example, no zero width at 0% vs 0%, and its error rate', () => {
    // Newcombe (1998), table II, example (a): 56/70 vs 48/80 -> [0.0524, 0.3339].
    const [low, high] = newcombeInterval(56, 70, 48, 80)
    expect(low).to.be.closeTo(0.0524, 5e-4)
    expect(high).to.be.closeTo(0.3339, 5e-4)
    const [zeroLow, zeroHigh] = newcombeInterval(0, 20, 0, 20)
    expect(zeroLow).to.be.below(-0.1)
    expect(zeroHigh).to.be.above(0.1)
    // At a true difference of -3 points (the success check's limit), the chance the interval lies wholly
    // above -3 points (a false pass), exactly over both binomials.
    const n = 80
    const [p1, p2] = [0.92, 0.95]
    let falsePass = 0
    for (let k1 = 0; k1 <= n; k1++) {
      const w1 = pmf(n, k1, p1)
      if (w1 < 1e-12) continue
      for (let k2 = 0; k2 <= n; k2++) if (newcombeInterval(k1, n, k2, n)[0] > p1 - p2) falsePass += w1 * pmf(n, k2, p2)
    }
    expect(falsePass).to.be.at.most(0.03)
    expect(falsePass).to.be.above(0.005)
  })
})
