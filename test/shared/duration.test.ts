import {expect} from 'chai'
import {formatDuration, parseDuration} from '../../src/shared/duration.js'

describe('durations', () => {
  it('are written as 4s, 1m05s, 1h01m', () => {
    expect(formatDuration(4_400)).to.equal('4s')
    expect(formatDuration(65_000)).to.equal('1m05s')
    expect(formatDuration(3_700_000)).to.equal('1h01m')
    expect(formatDuration(Number.NaN)).to.equal('?')
  })

  it('are read from 90s, 15m, 1h30m, 2.5h; anything else is not one', () => {
    expect(parseDuration('90s')).to.equal(90_000)
    expect(parseDuration('15m')).to.equal(900_000)
    expect(parseDuration(' 1h30m ')).to.equal(5_400_000)
    expect(parseDuration('2.5h')).to.equal(9_000_000)
    for (const text of ['', '90', 'm', '1h 30m', '-5m', '5 min', '1d'])
      expect(parseDuration(text), text).to.equal(undefined)
  })
})
