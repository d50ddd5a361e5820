// summary.md goes into PR comments and step summaries: what an agent or a model wrote must not @mention
// anyone there (GitHub would notify the person, or every member of a team).
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../src/report/aggregate/aggregate.js'
import {plain, renderReportMarkdown} from '../../src/report/render/markdown.js'
import {buildReport} from '../../src/report/aggregate/summary.js'
import {makeRow} from '../support/rows.js'

/** GitHub's mention: an @ at the start or after a non-word character, then a login or org/team (see its docs). */
const MENTION = /(?:^|[^A-Za-z0-9_`])@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][A-Za-z0-9-]*)?/

describe('summary.md and @mentions', () => {
  it('an agent’s @user and @org/team in a failed run’s reason reach summary.md as text that mentions no one', () => {
    const aggregate = emptyAggregate()
    addRow(aggregate, makeRow({scenario_id: 'issue-view-001', mode: 'agent_direct'}))
    addRow(
      aggregate,
      makeRow({
        scenario_id: 'issue-view-001',
        mode: 'mcp',
        success: false,
        outcome: 'fail',
        error: {
          type: 'assertion_failed',
          message: 'final answer: "@octocat please review; cc @github/security-team (mail me at dev@example.com)"',
        },
        checkpoints: [
          {name: 'commented', passed: false, expected: 'non_empty', actual: null, message: 'pinged @hubot instead'},
        ],
      }),
    )
    const report = buildReport(aggregate, {
      inputs: ['results/run-1.jsonl'],
      warnings: ['@someone said so'],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
      notApplicable: [],
    })
    const markdown = renderReportMarkdown(report)
    for (const line of markdown.split('\n')) expect(line, line).to.not.match(MENTION)
    // Still readable: the text is all there, only a zero-width space (an entity GitHub renders as nothing) follows the @.
    expect(markdown).to.include(
      '"@&#8203;octocat please review; cc @&#8203;github/security-team (mail me at dev@&#8203;example.com)"',
    )
    expect(markdown).to.include('pinged @&#8203;hubot instead')
    expect(markdown).to.include('- @&#8203;someone said so')
  })

  it('an @ that starts no name is left as it is', () => {
    expect(plain('costs 3 @ 5 USD; @-sign; email@')).to.equal('costs 3 @ 5 USD; @-sign; email@')
  })
})
