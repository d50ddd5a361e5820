// The exact binomial tests behind the reliability checks' sized rules: a candidate exactly at its
// limit passes at most α of the time at every size (summed exactly over the counts, no sampling), the
// rule is the largest such, and the Clopper-Pearson bounds give the same verdict as the rule.
import {expect} from 'chai'
import {
  binomialCdf,
  binomialLogPmf,
  binomialUpperTail,
  clopperPearson,
  runsToCertify,
  sequentialSizedRules,
  sizedRule,
} from '../../src/stats/binomial.js'
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

  it('the one-pass rule is the two tail functions’ rule, count for count: every n up to 2,000 at the profiles’ limits', function () {
    // About 5 s alone: 2,000 sizes x 13 limits, each against the tails' own sums.
    this.timeout(120_000)
    // The rule as the tails define it (the walks up and down that sizedRule once made, over binomialCdf's own sums).
    const byTheTails = (n: number, limit: number, alpha: number) => {
      const cdf: number[] = []
      let total = 0
      for (let k = 0; k < n; k++) cdf.push(Math.min(1, (total += Math.exp(binomialLogPmf(n, k, limit)))))
      const cdfAt = (k: number) => (k < 0 ? 0 : k >= n ? 1 : cdf[k]!)
      let passMax = -1
      while (passMax < n && cdfAt(passMax + 1) <= alpha) passMax++
      let failMin = n + 1
      while (failMin > 0 && (failMin - 1 <= 0 ? 1 : 1 - cdfAt(failMin - 2)) <= alpha) failMin--
      return {pass_max: passMax, fail_min: failMin}
    }
    // verify_pr's and verify_release's limits, the issues' examples, and the ends.
    const limits = [0.004, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.12, 0.15, 0.5, 0]
    for (const limit of limits)
      for (const alpha of limit === 0.02 || limit === 0.1 ? [0.05, 0.0177] : [0.05])
        for (let n = 0; n <= 2000; n++)
          expect(sizedRule(n, limit, alpha), `n ${n}, limit ${limit}, α ${alpha}`).to.deep.equal(
            byTheTails(n, limit, alpha),
          )
    // runsToCertify by bisection: the first n at which `count` events certify, as a walk up n finds it.
    for (const limit of [0.004, 0.02, 0.1, 0.5])
      for (let count = 0; count <= 30; count++) {
        const found = runsToCertify(limit, 0.05, count)
        expect(binomialCdf(count, found, limit), `${limit} ${count}`).to.be.at.most(0.05)
        expect(binomialCdf(count, found - 1, limit) > 0.05 || found - 1 <= count, `${limit} ${count}`).to.equal(true)
      }
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

  describe('the exact group-sequential rule (run --until-decided)', () => {
    /** P(pass at some look), P(fail at some look) at rate p, every sequence of n runs enumerated: no DP, no sampling. */
    function enumerated(runs: number[], rules: Array<{pass_max: number; fail_min: number}>, p: number) {
      const n = runs.at(-1)!
      let pass = 0
      let fail = 0
      for (let sequence = 0; sequence < 2 ** n; sequence++) {
        let events = 0
        let probability = 1
        let verdict: 'pass' | 'fail' | null = null
        let look = 0
        for (let run = 0; run < n; run++) {
          const event = (sequence >> run) & 1
          events += event
          probability *= event ? p : 1 - p
          if (verdict === null && run + 1 === runs[look]) {
            if (events <= rules[look]!.pass_max) verdict = 'pass'
            else if (events >= rules[look]!.fail_min) verdict = 'fail'
            look++
          }
        }
        if (verdict === 'pass') pass += probability
        if (verdict === 'fail') fail += probability
      }
      return {pass, fail}
    }

    it('spends exactly what it is given: enumerating every sequence of runs, a candidate at its limit passes (and fails) at most α in all', () => {
      for (const [runs, limit] of [
        [[6, 10, 14, 18], 0.2],
        [[5, 8, 12, 16], 0.3],
        [[8, 12, 16], 0.12],
      ] as Array<[number[], number]>) {
        const spent = runs.map((n) => 0.05 * (n / runs.at(-1)!) ** 1.5)
        const rules = sequentialSizedRules(runs, limit, spent)
        const {pass, fail} = enumerated(runs, rules, limit)
        expect(pass, `${runs} ${limit}`).to.be.at.most(0.05 + 1e-12)
        expect(fail, `${runs} ${limit}`).to.be.at.most(0.05 + 1e-12)
        // The largest such: one more event passing at the last look would overspend.
        const looser = rules.map((rule, k) => (k === rules.length - 1 ? {...rule, pass_max: rule.pass_max + 1} : rule))
        if (looser.at(-1)!.pass_max < looser.at(-1)!.fail_min)
          expect(enumerated(runs, looser, limit).pass, `${runs} ${limit}`).to.be.above(spent.at(-1)!)
      }
    })

    it('is the fixed rule at one look, and passes no events where each look alone would at its share of the error', () => {
      expect(sequentialSizedRules([80], 0.1, [0.05])).to.deep.equal([sizedRule(80, 0.1, 0.05)])
      // 4 scenarios at 5, 8, 10 repetitions of the default plan (power spending of 5%): a 10% limit.
      const runs = [20, 32, 40]
      const spent = [5, 8, 10].map((r) => 0.05 * (r / 20) ** 1.5)
      const rules = sequentialSizedRules(runs, 0.1, spent)
      // No timeout in 40 runs passes: 0.9^40 = 1.5% of a candidate at the limit, within the 1.77% spent by then.
      expect(rules[2]!.pass_max).to.equal(0)
      // The look's own share (spent[2] - spent[1]: 0.51%) would not pass it, and nor did the rule before (99.01% confidence: 0.99%).
      expect(sizedRule(40, 0.1, spent[2]! - spent[1]!).pass_max).to.equal(-1)
      expect(sizedRule(40, 0.1, 1 - 0.9901).pass_max).to.equal(-1)
    })
  })
})
