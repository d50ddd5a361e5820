// run.json's record of the blocks a budget left out, said as the sentence the report and the gate give.
import {expect} from 'chai'
import {notRunSentence, type NotRun} from '../../src/results/run-info.js'

describe('run.json: blocks not run', () => {
  it('make the run incomplete, naming the budget and how many blocks did not run', () => {
    const notRun: NotRun = {
      reason: 'budget',
      budget: 'tokens=30000',
      detail: 'the next block would bring the tokens to about 35876 (budget 30000)',
      planned_blocks: 6,
      blocks: ['a/1', 'b/1'],
    }
    expect(notRunSentence([{run_id: 'r1', not_run: notRun}, {run_id: 'r2'}])).to.equal(
      'incomplete: 2 of 6 blocks of run r1 not run (budget tokens=30000: the next block would bring the tokens to about 35876 (budget 30000))',
    )
    expect(notRunSentence([{run_id: 'r2'}, {run_id: 'r3', not_run: null}])).to.equal(null)
  })
})
