import {expect} from 'chai'
import {scenarioSchema, type Scenario} from '../../src/schemas/scenario.js'
import {applyDefaults} from '../../src/shared/schema-validator.js'
import {outputValidOf, stopOf, verdictOf} from '../../src/verify/verdict.js'

/** A scenario as the catalogue reads it, with the schema's defaults. */
const read = (value: object): Scenario => applyDefaults(scenarioSchema, value) as Scenario
const workflow = (expected: 'success' | 'expected_error' = 'success'): Scenario =>
  read({
    type: 'workflow',
    id: 'issue-triage-wf-001',
    name: 'triage',
    prompt: 'Triage it.',
    assertions: {
      expected_outcome: expected,
      checkpoints: [
        {name: 'labelled', task: 'issue.view', condition: {type: 'non_empty'}},
        {name: 'commented', task: 'issue.comments.list', condition: {type: 'non_empty'}},
      ],
    },
  })
const atomic = read({
  type: 'atomic',
  id: 'issue-view-001',
  name: 'view',
  task: 'issue.view',
  input: {},
  assertions: {expected_outcome: 'success'},
})
const checks = (labelled: boolean, commented: boolean) => [
  {name: 'labelled', passed: labelled},
  {name: 'commented', passed: commented},
]

describe('the verdict of a run', () => {
  it('a workflow passes when every checkpoint passes, and names the ones that failed otherwise', () => {
    expect(verdictOf({scenario: workflow(), stop: null, checkpoints: checks(true, true)})).to.deep.equal({
      outcome: 'pass',
      success: true,
      output_valid: true,
      error: null,
    })
    expect(verdictOf({scenario: workflow(), stop: null, checkpoints: checks(false, false)})).to.deep.equal({
      outcome: 'fail',
      success: false,
      // The checks judged the run: its output is valid, the work was not done.
      output_valid: true,
      error: {type: 'checkpoint_failed', message: 'Workflow checkpoint verification failed: labelled, commented'},
    })
  })

  it('expected_error: the run succeeds when not every checkpoint passes, and fails when they all do', () => {
    expect(verdictOf({scenario: workflow('expected_error'), stop: null, checkpoints: checks(true, false)})).to.include({
      outcome: 'pass',
      success: true,
    })
    const done = verdictOf({scenario: workflow('expected_error'), stop: null, checkpoints: checks(true, true)})
    expect(done).to.include({outcome: 'fail', success: false})
    expect(done.error).to.deep.equal({
      type: 'unexpected_success',
      message: 'expected_outcome is expected_error, and every checkpoint passed: labelled, commented',
    })
  })

  it('what stopped the agent fails the run first, whatever the checks say', () => {
    const stop = {type: 'max_turns' as const, message: 'the run reached its turn limit'}
    expect(verdictOf({scenario: workflow(), stop, checkpoints: checks(true, true)})).to.deep.equal({
      outcome: 'fail',
      success: false,
      output_valid: true,
      error: stop,
    })
    const planFailed = {type: 'reference_plan_failed' as const, message: 'reference plan step 2 (shell) failed: exit 1'}
    expect(
      verdictOf({
        scenario: atomic,
        stop: planFailed,
        assertion: {passed: true, output_valid: true, message: null},
        checkpoints: [],
      }).error,
    ).to.deep.equal(planFailed)
  })

  it('an atomic run is its envelope assertions: output_valid is the envelope’s validity', () => {
    expect(
      verdictOf({
        scenario: atomic,
        stop: null,
        assertion: {passed: true, output_valid: true, message: null},
        checkpoints: [],
      }),
    ).to.deep.equal({outcome: 'pass', success: true, output_valid: true, error: null})
    expect(
      verdictOf({
        scenario: atomic,
        stop: null,
        assertion: {passed: false, output_valid: true, message: '0 tool call(s), expected at least 1'},
        checkpoints: [],
      }),
    ).to.deep.equal({
      outcome: 'fail',
      success: false,
      output_valid: true,
      error: {type: 'assertion_failed', message: '0 tool call(s), expected at least 1'},
    })
    expect(
      verdictOf({
        scenario: atomic,
        stop: null,
        assertion: {passed: false, output_valid: false, message: 'no envelope'},
        checkpoints: [],
      }).output_valid,
    ).to.equal(false)
  })

  it('an atomic run with a valid envelope fails when a checkpoint fails: the answer’s shape alone proves nothing', () => {
    const passed = {passed: true, output_valid: true, message: null}
    expect(
      verdictOf({scenario: atomic, stop: null, assertion: passed, checkpoints: [{name: 'answer_true', passed: false}]}),
    ).to.deep.equal({
      outcome: 'fail',
      success: false,
      output_valid: true,
      error: {type: 'checkpoint_failed', message: 'Checkpoint verification failed: answer_true'},
    })
    expect(
      verdictOf({scenario: atomic, stop: null, assertion: passed, checkpoints: [{name: 'answer_true', passed: true}]})
        .success,
    ).to.equal(true)
    // The envelope is judged first: an invalid one is the error, whatever the checkpoints say.
    expect(
      verdictOf({
        scenario: atomic,
        stop: null,
        assertion: {passed: false, output_valid: false, message: 'no envelope'},
        checkpoints: [{name: 'answer_true', passed: false}],
      }).error?.type,
    ).to.equal('assertion_failed')
  })

  it('rows that reached no verdict are not valid output: timeouts and infrastructure errors', () => {
    expect(outputValidOf(workflow(), 'timeout')).to.equal(false)
    expect(outputValidOf(workflow(), 'infra_error')).to.equal(false)
    expect(outputValidOf(atomic, 'infra_error', {output_valid: true})).to.equal(true)
    expect(outputValidOf(atomic, 'timeout')).to.equal(false)
  })

  it('reads what stopped a stored run back from its error; a failed check is not a stop', () => {
    expect(stopOf({error: {type: 'max_tokens', message: 'the run reached its token limit'}})).to.deep.equal({
      type: 'max_tokens',
      message: 'the run reached its token limit',
    })
    expect(stopOf({error: {type: 'checkpoint_failed', message: 'x'}})).to.equal(null)
    expect(stopOf({error: null})).to.equal(null)
  })
})
