import {expect} from 'chai'
import {exactMcNemar, holmAdjust} from '../../src/stats/paired-flips.js'

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
