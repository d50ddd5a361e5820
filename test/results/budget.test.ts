// A run's budget: its syntax, and whether what comes next (a look at the average so far, a block by its
// forecast) would overrun it.
import {expect} from 'chai'
import {atAverage, budgetOverrun, budgetText, parseBudget} from '../../src/results/budget.js'

describe('the budget', () => {
  it('is read from runs=N, tokens=N, cost=USD and time=DURATION, alone, comma-separated or repeated', () => {
    expect(parseBudget(['runs=400', 'tokens=2000000,cost=5.5', 'time=1h30m'])).to.deep.equal({
      runs: 400,
      tokens: 2_000_000,
      cost_usd: 5.5,
      ms: 5_400_000,
    })
    expect(budgetText({runs: 400, tokens: 2_000_000, cost_usd: 5.5, ms: 5_400_000})).to.equal(
      'runs=400,tokens=2000000,cost=5.5,time=1h30m',
    )
    expect(parseBudget([])).to.deep.equal({})
    for (const bad of ['minutes=3', 'runs=0', 'runs=2.5', 'tokens=lots', 'cost=-1', 'time=90', 'time=0s', 'runs'])
      expect(parseBudget([bad]), bad).to.equal(
        `expected runs=N, tokens=N, cost=USD or time=DURATION (as 90s, 15m, 1h30m), got "${bad}"`,
      )
  })

  it('is overrun when what was spent and what comes next add up to more than one of its limits', () => {
    const spent = {runs: 40, tokens: 400_000, cost_usd: 2, ms: 600_000}
    const look = (runs: number) => atAverage(spent, runs)
    expect(look(80)).to.deep.equal({runs: 80, tokens: 800_000, cost_usd: 4, ms: 1_200_000})
    expect(budgetOverrun({runs: 100}, spent, look(40), 'the next look')).to.equal(null)
    expect(budgetOverrun({runs: 100}, spent, look(80), 'the next look')).to.equal(
      'the next look needs 80 runs, which would bring the total to 120 (budget 100)',
    )
    expect(budgetOverrun({tokens: 1_000_000}, spent, look(80), 'the next look')).to.equal(
      'the next look would bring the tokens to about 1200000 (budget 1000000)',
    )
    expect(budgetOverrun({cost_usd: 5}, spent, look(40), 'the next look')).to.equal(null)
    expect(budgetOverrun({cost_usd: 5}, spent, look(80), 'the next look')).to.equal(
      'the next look would bring the cost to about $6.00 (budget $5)',
    )
    expect(budgetOverrun({ms: 1_500_000}, spent, look(80), 'the next block')).to.equal(
      'the next block would bring the time to about 30m00s (budget 25m00s)',
    )
    // Exactly at the limit fits.
    expect(budgetOverrun({tokens: 1_200_000}, spent, look(80), 'the next look')).to.equal(null)
    // Nothing spent yet: nothing to average, so a look is expected to spend nothing but its runs.
    expect(atAverage({runs: 0, tokens: 0, cost_usd: 0, ms: 0}, 10)).to.deep.equal({
      runs: 10,
      tokens: 0,
      cost_usd: 0,
      ms: 0,
    })
  })
})
