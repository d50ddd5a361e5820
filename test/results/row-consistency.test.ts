// A row's success follows from its outcome and a pass from its checkpoints: a row that says otherwise is refused.
import {expect} from 'chai'
import {rowContradiction} from '../../src/results/row-consistency.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeRow} from '../support/rows.js'

const failed = [{name: 'label_added', passed: false, expected: true, actual: false}]
const held = [{name: 'label_added', passed: true, expected: true, actual: true}]

describe('row consistency', () => {
  it('accepts what a run writes: a pass, a failure, a timeout, an infrastructure error', () => {
    for (const row of [
      makeRow({checkpoints: held}),
      makeRow({
        outcome: 'fail',
        output_valid: true,
        checkpoints: failed,
        error: {type: 'checkpoint_failed', message: 'x'},
      }),
      makeRow({outcome: 'timeout', output_valid: false}),
      makeRow({outcome: 'infra_error', output_valid: false, error: {type: 'provider_error', message: 'x'}}),
      // A workflow expecting an error passes when its task was not done.
      makeRow({scenario_type: 'workflow', expected_outcome: 'expected_error', checkpoints: failed}),
    ])
      expect(rowContradiction(row), JSON.stringify(row.outcome)).to.equal(null)
  })

  it('refuses success on any outcome but pass, and a pass with an error, a failed checkpoint or an invalid output', () => {
    const cases: Array<[Partial<Row>, string]> = [
      [{outcome: 'fail', success: true}, 'success is true but the outcome is "fail"'],
      [{outcome: 'timeout', success: true}, 'success is true but the outcome is "timeout"'],
      [{outcome: 'pass', success: false}, 'success is false but the outcome is "pass"'],
      [{error: {type: 'checkpoint_failed', message: 'x'}}, 'the outcome is pass with an error ("checkpoint_failed")'],
      [{checkpoints: failed}, 'the outcome is pass but checkpoint(s) label_added failed'],
      [{scenario_type: 'workflow', checkpoints: failed}, 'the outcome is pass but checkpoint(s) label_added failed'],
      [
        {scenario_type: 'workflow', expected_outcome: 'expected_error', checkpoints: held},
        'expecting an error, yet every checkpoint passed',
      ],
      [{output_valid: false}, 'output_valid is false'],
    ]
    for (const [change, message] of cases) expect(rowContradiction(makeRow(change))).to.include(message)
  })
})
