import {expect} from 'chai'
import {median, percentile} from '../../src/stats/quantiles.js'

describe('quantiles', () => {
  it('median is the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).to.equal(2)
    expect(median([4, 1, 3, 2])).to.equal(2.5)
  })

  it('percentiles interpolate linearly at p/100 * (n - 1)', () => {
    // n = 5: p90 sits at index 3.6, between 40 and 50.
    expect(percentile([10, 20, 30, 40, 50], 90)).to.be.closeTo(46, 1e-9)
    expect(percentile([10, 20, 30, 40, 50], 0)).to.equal(10)
    expect(percentile([10, 20, 30, 40, 50], 100)).to.equal(50)
  })

  it('has no quantile for no values', () => {
    expect(Number.isNaN(median([]))).to.equal(true)
  })
})
