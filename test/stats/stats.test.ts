import {expect} from 'chai'
import {bootstrap} from '../../src/stats/bootstrap.js'
import {coefficientOfVariationPct, iqr, reductionPct} from '../../src/stats/descriptive.js'
import {choose, passAtK, passHatK, wilsonInterval} from '../../src/stats/rates.js'
import {
  incompleteBeta,
  logGamma,
  normalCdf,
  normalQuantile,
  studentTCdf,
  tOfConfidence,
  zOfConfidence,
} from '../../src/stats/special.js'

describe('statistics', () => {
  it('IQR and CV (population SD / mean x 100)', () => {
    // p75 of 1..8 sits at index 5.25 -> 6.25, p25 at 1.75 -> 2.75
    expect(iqr([1, 2, 3, 4, 5, 6, 7, 8])).to.be.closeTo(3.5, 1e-12)
    // mean 5, population SD 2
    expect(coefficientOfVariationPct([2, 4, 4, 4, 5, 5, 7, 9])).to.be.closeTo(40, 1e-12)
  })

  it('reductions are only defined for a positive baseline', () => {
    expect(reductionPct(200, 150)).to.equal(25)
    expect(Number.isNaN(reductionPct(0, 5))).to.equal(true)
  })

  it('Wilson interval for 8 of 10 and at the edges', () => {
    // p = .8, z^2/n = .38415: centre .71688, half-width .22658
    const [low, high] = wilsonInterval(8, 10)
    expect(low).to.be.closeTo(0.4902, 1e-4)
    expect(high).to.be.closeTo(0.9433, 1e-4)
    expect(wilsonInterval(0, 5)[0]).to.equal(0)
    expect(wilsonInterval(5, 5)[1]).to.be.closeTo(1, 1e-12)
  })

  it('unbiased pass@k and pass^k', () => {
    expect(choose(5, 2)).to.equal(10)
    expect(passAtK(5, 2, 2)).to.be.closeTo(1 - 3 / 10, 1e-12) // 1 - C(3,2)/C(5,2)
    expect(passHatK(5, 3, 2)).to.be.closeTo(3 / 10, 1e-12) // C(3,2)/C(5,2)
    expect(passHatK(5, 5, 5)).to.equal(1)
    expect(passHatK(5, 4, 5)).to.equal(0)
  })

  it('log-gamma and the incomplete beta function', () => {
    expect(logGamma(10)).to.be.closeTo(Math.log(362880), 1e-10)
    expect(incompleteBeta(0.5, 2, 3)).to.be.closeTo(11 / 16, 1e-12) // P(Bin(4, .5) >= 2)
  })

  it('a seeded bootstrap gives the same interval for the same seed, at the confidence asked', () => {
    const values = [3, 5, 8, 9, 12, 15, 18, 21, 30]
    const mean = (r: () => number) =>
      values.reduce((sum) => sum + values[Math.floor(r() * values.length)]!, 0) / values.length
    const a = bootstrap(mean, {seed: 42, resamples: 2000})
    const b = bootstrap(mean, {seed: 42, resamples: 2000})
    const wide = bootstrap(mean, {seed: 42, resamples: 2000, confidence: 0.99})
    expect(a.interval).to.deep.equal(b.interval)
    expect(a.interval[0]).to.be.below(13.4).and.above(8)
    expect(a.interval[1]).to.be.above(13.4).and.below(20)
    expect(wide.interval[0]).to.be.below(a.interval[0])
    expect(wide.interval[1]).to.be.above(a.interval[1])
  })

  it('the normal distribution and its quantiles, and Student’s t', () => {
    expect(normalCdf(0)).to.be.closeTo(0.5, 1e-15)
    expect(normalCdf(-3)).to.be.closeTo(0.0013498980316301, 1e-14)
    expect(normalCdf(1.959963984540054)).to.be.closeTo(0.975, 1e-14)
    for (const p of [1e-8, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999999])
      expect(normalCdf(normalQuantile(p))).to.be.closeTo(p, 1e-12 * Math.max(1, p * 1e3))
    expect(zOfConfidence(0.95)).to.be.closeTo(1.959963984540054, 1e-12)
    // Tables: t_{0.975} at 3 and 10 degrees of freedom.
    expect(tOfConfidence(0.95, 3)).to.be.closeTo(3.182446, 1e-5)
    expect(tOfConfidence(0.95, 10)).to.be.closeTo(2.228139, 1e-5)
    expect(studentTCdf(2, 5)).to.be.closeTo(0.9490303, 1e-6)
    expect(tOfConfidence(0.95, Infinity)).to.equal(zOfConfidence(0.95))
  })
})
