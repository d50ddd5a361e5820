// The exact binomial tests behind the reliability checks' sized rules: a candidate exactly at its
// limit passes at most α of the time at every size (summed exactly over the counts, no sampling), the
// rule is the largest such, and the Clopper-Pearson bounds give the same verdict as the rule.
import {expect} from 'chai'
import {binomialCdf, binomialUpperTail, clopperPearson, runsToCertify, sizedRule} from '../../src/stats/binomial.js'
import {logGamma} from '../../src/stats/special.js'

const pmf = (n: number, k: number, p: number): number =>
  Math.exp(logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p))

describe('binomial tests', () => {
  it('sums the binomial exactly', () => {
    let total = 0
    for (let k = 0; k <= 3; k++) total += pmf(40, k, 0.05)
    expect(binomialCdf(3, 40, 0.05)).to.be.closeTo(total, 1e-12)
    expect(binomialUpperTail(4, 40, 0.05)).to.be.closeTo(1 - total, 1e-12)
    expect(binomialCdf(-1, 40, 0.05)).to.equal(0)
    expect(binomialCdf(40, 40, 0.05)).to.equal(1)
  })

  it('a candidate at its limit passes at most α, and one more event would pass more: at every size and limit the gate sees', () => {
    for (const n of [20, 30, 48, 80, 120, 200]) {
      for (const limit of [0.02, 0.04, 0.08, 0.1, 0.15]) {
        const {pass_max: passMax, fail_min: failMin} = sizedRule(n, limit, 0.05)
        if (passMax >= 0) expect(binomialCdf(passMax, n, limit), `${n} ${limit}`).to.be.at.most(0.05)
        expect(binomialCdf(passMax + 1, n, limit), `${n} ${limit}`).to.be.above(0.05)
        // A candidate at its limit fails at most α of the time, and the fail count is the smallest such.
        expect(binomialUpperTail(failMin, n, limit)).to.be.at.most(0.05)
        expect(binomialUpperTail(failMin - 1, n, limit)).to.be.above(0.05)
      }
    }
  })

  it('the sizes of issue 26: 80 runs pass timeouts <= 8% with at most 2; a 2% limit takes 149 runs without one', () => {
    expect(sizedRule(80, 0.08, 0.05).pass_max).to.equal(2)
    expect(sizedRule(80, 0.02, 0.05).pass_max).to.equal(-1)
    expect(runsToCertify(0.02, 0.05)).to.equal(149)
    expect(sizedRule(148, 0.02, 0.05).pass_max).to.equal(-1)
    expect(sizedRule(149, 0.02, 0.05).pass_max).to.equal(0)
    // With one event: the first n where P(X <= 1) <= 5%.
    const withOne = runsToCertify(0.08, 0.05, 1)
    expect(binomialCdf(1, withOne, 0.08)).to.be.at.most(0.05)
    expect(binomialCdf(1, withOne - 1, 0.08)).to.be.above(0.05)
  })

  it('Clopper-Pearson bounds decide as the rule does', () => {
    for (const n of [30, 80]) {
      const rule = sizedRule(n, 0.1, 0.05)
      for (let count = 0; count <= n; count++) {
        const [low, high] = clopperPearson(count, n, 0.05)
        expect(high <= 0.1, `${count} of ${n}`).to.equal(count <= rule.pass_max)
        expect(low > 0.1, `${count} of ${n}`).to.equal(count >= rule.fail_min)
      }
    }
    expect(clopperPearson(0, 20, 0.05)[1]).to.be.closeTo(1 - 0.05 ** (1 / 20), 1e-9)
    const [low, high] = clopperPearson(20, 20, 0.05)
    expect(low).to.be.closeTo(0.05 ** (1 / 20), 1e-9)
    expect(high).to.equal(1)
  })
})
