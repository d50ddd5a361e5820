import {expect} from 'chai'
import {priceOf, tokensOf} from '../../src/results/usage.js'

describe('run figures', () => {
  it('active tokens are total minus cache reads', () => {
    expect(tokensOf({input: 100, output: 20, reasoning: 5, cache_read: 300, cache_write: 10})).to.deep.equal({
      input: 100,
      output: 20,
      reasoning: 5,
      cache_read: 300,
      cache_write: 10,
      total: 435,
      active: 135,
    })
  })

  it('prices usage per million tokens; reasoning at the output price, cache at its own price or the input price', () => {
    const usage = {input: 1_000_000, output: 100_000, reasoning: 100_000, cache_read: 2_000_000, cache_write: 0}
    expect(priceOf(usage, {input: 2, output: 8})).to.be.closeTo(2 + 1.6 + 4, 1e-9)
    expect(priceOf(usage, {input: 2, output: 8, cache_read: 0.5})).to.be.closeTo(2 + 1.6 + 1, 1e-9)
  })
})
