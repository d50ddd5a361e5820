import {expect} from 'chai'
import {bootstrap, medianSampler, orderStatisticCdf, rateSampler} from '../../src/stats/bootstrap.js'
import {coefficientOfVariationPct, iqr, reductionPct} from '../../src/stats/descriptive.js'
import {mulberry32} from '../../src/stats/random.js'
import {choose, passAtK, passHatK, wilsonInterval} from '../../src/stats/rates.js'
import {binomialUpperTail, incompleteBeta, logGamma} from '../../src/stats/special.js'

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

  it('log-gamma, incomplete beta and binomial tails', () => {
    expect(logGamma(10)).to.be.closeTo(Math.log(362880), 1e-10)
    expect(incompleteBeta(0.5, 2, 3)).to.be.closeTo(11 / 16, 1e-12) // P(Bin(4, .5) >= 2)
    expect(binomialUpperTail(10, 0.3, 4)).to.be.closeTo(0.3503892, 1e-7)
  })

  it('the order-statistic distribution matches brute-force enumeration of resamples', () => {
    // n = 3, median = 2nd order statistic: P(X(2) <= v0) = 7/27, P(X(2) <= v1) = 20/27
    const cdf = orderStatisticCdf(3, 2)
    expect(cdf[0]).to.be.closeTo(7 / 27, 1e-12)
    expect(cdf[1]).to.be.closeTo(20 / 27, 1e-12)
    expect(cdf[2]).to.equal(1)
  })

  it('the fast median sampler agrees with row resampling on a large cell', () => {
    const values = Float64Array.from({length: 201}, (_, i) => i % 97)
    values.sort()
    const fast = medianSampler(values)
    const random = mulberry32(1)
    let sum = 0
    for (let i = 0; i < 4000; i++) sum += fast(random)
    const bruteRandom = mulberry32(2)
    let bruteSum = 0
    const scratch = new Float64Array(values.length)
    for (let i = 0; i < 400; i++) {
      for (let j = 0; j < values.length; j++) scratch[j] = values[Math.floor(bruteRandom() * values.length)]!
      scratch.sort()
      bruteSum += scratch[100]!
    }
    expect(sum / 4000).to.be.closeTo(bruteSum / 400, 1)
  })

  it('the rate sampler draws Binomial(n, p) / n', () => {
    const sample = rateSampler(30, 100)
    const random = mulberry32(3)
    let sum = 0
    for (let i = 0; i < 20000; i++) sum += sample(random)
    expect(sum / 20000).to.be.closeTo(0.3, 0.005)
  })

  it('a seeded bootstrap gives the same interval for the same seed', () => {
    const sorted = Float64Array.from([3, 5, 8, 9, 12, 15, 18, 21, 30])
    const median = medianSampler(sorted)
    const a = bootstrap((r) => median(r), {seed: 42, resamples: 2000})
    const b = bootstrap((r) => median(r), {seed: 42, resamples: 2000})
    const c = bootstrap((r) => median(r), {seed: 43, resamples: 2000})
    expect(a.interval).to.deep.equal(b.interval)
    expect(a.interval[0]).to.be.at.most(12)
    expect(a.interval[1]).to.be.at.least(12)
    expect(c.seed).to.equal(43)
  })
})
