import {expect} from 'chai'
import type {AtomicScenario} from '../../src/spec/schemas/scenario.js'
import {checkAssertions, extractEnvelope} from '../../src/verify/assertions.js'

function scenario(assertions: Partial<AtomicScenario['assertions']> = {}): AtomicScenario {
  return {
    type: 'atomic',
    id: 'pr-view-001',
    name: 'view',
    task: 'pr.view',
    input: {},
    assertions: {expected_outcome: 'success', required_fields: ['ok', 'data', 'error', 'meta'], required_data_fields: ['number', 'title'], data_type: 'object', min_tool_calls: 1, max_tool_calls: 3, ...assertions},
  }
}

const good = JSON.stringify({ok: true, data: {number: 3, title: 't'}, error: null, meta: {}})

describe('atomic assertions', () => {
  it('finds the envelope in prose and fences, taking the last object with `ok`', () => {
    const text = `Here you go: {"not": "it"}\n\`\`\`json\n${good}\n\`\`\`\nDone {"x": "}{"}`
    expect(extractEnvelope(text)).to.deep.equal(JSON.parse(good))
    expect(extractEnvelope('no json here')).to.equal(null)
    expect(extractEnvelope('{"ok": true, "data": {"s": "a \\" } brace"}}')).to.deep.equal({ok: true, data: {s: 'a " } brace'}})
  })

  it('passes a valid envelope within the tool-call bounds', () => {
    expect(checkAssertions(scenario(), good, 2, 'agent_direct')).to.include({passed: true, output_valid: true, message: null})
  })

  it('checks in the predecessors’ order: validity, outcome, min and max tool calls, attempt trace', () => {
    const cases: Array<[string, Partial<AtomicScenario['assertions']>, string, number, RegExp, boolean]> = [
      ['no envelope', {}, 'I could not do it', 2, /no result envelope/, false],
      ['missing data field', {}, JSON.stringify({ok: true, data: {number: 3}, error: null, meta: {}}), 2, /data lacks title/, false],
      ['wrong data type', {data_type: 'array', required_data_fields: []}, good, 2, /not an array/, false],
      ['error reported', {}, JSON.stringify({ok: false, data: null, error: {code: 'NOT_FOUND', message: 'x'}, meta: {}}), 2, /expected success/, true],
      ['too few calls', {}, good, 0, /0 tool call\(s\), expected at least 1/, true],
      ['too many calls', {}, good, 4, /4 tool calls, expected at most 3/, true],
      ['no attempt trace', {require_attempt_trace: true}, good, 2, /no attempt trace/, true],
    ]
    for (const [name, assertions, text, calls, message, valid] of cases) {
      const result = checkAssertions(scenario(assertions), text, calls, 'agent_direct')
      expect(result.passed, name).to.equal(false)
      expect(result.output_valid, name).to.equal(valid)
      expect(result.message, name).to.match(message)
    }
  })

  it('expected errors must carry the expected code; route_used is only asked of ghx', () => {
    const failing = JSON.stringify({ok: false, data: null, error: {code: 'NOT_FOUND', message: 'gone'}, meta: {route_used: 'graphql', attempts: [{status: 'error'}, {status: 'ok'}]}})
    expect(checkAssertions(scenario({expected_outcome: 'expected_error', expected_error_code: 'NOT_FOUND'}), failing, 1, 'agent_direct').passed).to.equal(true)
    expect(checkAssertions(scenario({expected_outcome: 'expected_error', expected_error_code: 'AUTH'}), failing, 1, 'agent_direct').message).to.match(/expected error code AUTH/)
    const withMeta = scenario({required_meta_fields: ['route_used'], expected_route_used: 'cli'})
    expect(checkAssertions(withMeta, good, 1, 'agent_direct').passed).to.equal(true)
    const ghx = checkAssertions(withMeta, JSON.stringify({ok: true, data: {number: 1, title: 't'}, error: null, meta: {route_used: 'graphql', attempts: [{status: 'error'}, {status: 'ok'}]}}), 1, 'ghx')
    expect(ghx.message).to.match(/expected route cli/)
    expect(ghx.route_used).to.equal('graphql')
    expect(ghx.internal_retries).to.equal(1)
  })
})
