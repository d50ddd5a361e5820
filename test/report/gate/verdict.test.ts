// The verdict of rows that are part of a run (blocks a budget left out, shards missing): inconclusive,
// saying what is missing, whatever the gate or the runs say.
import {expect} from 'chai'
import {verdictOf, verdictLine} from '../../../src/report/gate/verdict.js'

describe('the verdict of an incomplete run', () => {
  const incomplete = 'incomplete: 3 of 8 blocks of run r not run (budget tokens=5000: …)'
  const failedRuns = {rows: 10, failures: {failed_runs: 2} as never, providers: undefined}
  const passedRuns = {rows: 10, failures: {failed_runs: 0} as never, providers: undefined}

  it('is inconclusive (exit 3), never a failure of the runs that did run nor a pass', () => {
    for (const report of [failedRuns, passedRuns]) {
      expect(verdictOf({gate: null, gateUncomputable: null, report})).to.not.include({exit_code: 3})
      const verdict = verdictOf({gate: null, gateUncomputable: null, report, incomplete})
      expect(verdict).to.deep.equal({verdict: 'inconclusive', exit_code: 3, by: 'runs', reason: incomplete})
      expect(verdictLine(verdict)).to.equal(`verdict: INCONCLUSIVE (exit 3): ${incomplete}`)
    }
    expect(verdictOf({gate: null, gateUncomputable: 'no rows were recorded', report: null, incomplete})).to.include({
      by: 'gate',
      reason: incomplete,
    })
  })
})
