import {expect} from 'chai'
import {scenarioSchema, type AtomicScenario} from '../../src/schemas/scenario.js'
import {applyDefaults} from '../../src/shared/schema-validator.js'
import {checkAssertions, extractEnvelope} from '../../src/verify/assertions.js'

/** A scenario as the catalogue reads it: with the schema's defaults (require_tool_calls, min_tool_calls 1). */
function scenario(assertions: Partial<AtomicScenario['assertions']> = {}): AtomicScenario {
  return applyDefaults(scenarioSchema, {
    type: 'atomic',
    id: 'pr-view-001',
    name: 'view',
    task: 'pr.view',
    input: {},
    assertions: {
      expected_outcome: 'success',
      required_data_fields: ['number', 'title'],
      data_type: 'object',
      min_tool_calls: 1,
      max_tool_calls: 3,
      ...assertions,
    },
  }) as AtomicScenario
}

// Real ghx 0.8.0 prints exactly this shape (no error, no meta) for `ghx run`.
const good = '{"ok":true,"data":{"number":3,"title":"t"}}'
const ghxFailure =
  '{"ok":false,"error":{"code":"NOT_FOUND","message":"Could not resolve to a PullRequest with the number of 9."}}'
const ghxVerbose = JSON.stringify(
  {
    ok: true,
    data: {number: 3, title: 't'},
    meta: {capability_id: 'pr.view', route_used: 'graphql', reason: 'CARD_PREFERRED'},
  },
  null,
  2,
)

describe('atomic assertions', () => {
  it('finds the envelope in prose and fences, taking the last object with `ok`', () => {
    const text = `Here you go: {"not": "it"}\n\`\`\`json\n${good}\n\`\`\`\nDone {"x": "}{"}`
    expect(extractEnvelope(text)).to.deep.equal(JSON.parse(good))
    expect(extractEnvelope('no json here')).to.equal(null)
    expect(extractEnvelope('{"ok": true, "data": {"s": "a \\" } brace"}}')).to.deep.equal({
      ok: true,
      data: {s: 'a " } brace'},
    })
  })

  it('passes a valid envelope within the tool-call bounds: ghx compact, ghx --verbose, and the predecessors’ four fields', () => {
    expect(checkAssertions(scenario(), good, 2)).to.include({passed: true, output_valid: true, message: null})
    expect(checkAssertions(scenario(), `Done.\n${ghxVerbose}\n`, 2)).to.include({
      passed: true,
      output_valid: true,
      route_used: 'graphql',
    })
    expect(
      checkAssertions(scenario(), JSON.stringify({ok: true, data: {number: 3, title: 't'}, error: null, meta: {}}), 2),
    ).to.include({passed: true})
  })

  it('holds the envelope to its contract: data xor error, required fields present and not null', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['ok not boolean', {ok: 'yes', data: {}}, /envelope\.ok must be boolean/],
      ['success without data', {ok: true}, /has no "data"/],
      ['success with null data', {ok: true, data: null}, /data is null/],
      [
        'success with an error',
        {ok: true, data: {number: 3, title: 't'}, error: {code: 'X', message: 'y'}},
        /envelope\.error must be null/,
      ],
      ['failure without error', {ok: false, data: null}, /has no "error"/],
      [
        'failure with data',
        {ok: false, data: {number: 3}, error: {code: 'X', message: 'y'}},
        /envelope\.data must be null/,
      ],
      ['error without code', {ok: false, error: {message: 'y'}}, /has no "code"/],
      ['required data field null', {ok: true, data: {number: 3, title: null}}, /data lacks title/],
    ]
    for (const [name, envelope, message] of cases) {
      const result = checkAssertions(scenario(), JSON.stringify(envelope), 2)
      expect(result.output_valid, name).to.equal(false)
      expect(result.message, name).to.match(message)
    }
    expect(checkAssertions(scenario({required_fields: ['meta']}), good, 2).message).to.match(/envelope has no "meta"/)
  })

  it('takes a third-party tool layer’s own envelope contract', () => {
    // A layer whose envelope always carries a request id in meta, and data even on failure.
    const contract = {
      schema: {
        type: 'object',
        required: ['ok', 'data', 'meta'],
        properties: {
          ok: {type: 'boolean'},
          data: {},
          meta: {type: 'object', required: ['request_id'], properties: {request_id: {type: 'string'}}},
        },
      },
    }
    const theirs = '{"ok":true,"data":{"number":3,"title":"t"},"meta":{"request_id":"r1"}}'
    expect(checkAssertions(scenario(), theirs, 1, contract).message).to.equal(null)
    expect(checkAssertions(scenario(), good, 1, contract).message).to.match(/has no "meta"/)
    expect(
      checkAssertions(scenario(), '{"ok":true,"data":{"number":3,"title":"t"},"meta":{}}', 1, contract).message,
    ).to.match(/meta has no "request_id"/)
  })

  it('checks in the predecessors’ order: validity, outcome, min and max tool calls, attempt trace', () => {
    const cases: Array<[string, Partial<AtomicScenario['assertions']>, string, number, RegExp, boolean]> = [
      ['no envelope', {}, 'I could not do it', 2, /no result envelope/, false],
      ['missing data field', {}, '{"ok":true,"data":{"number":3}}', 2, /data lacks title/, false],
      ['wrong data type', {data_type: 'array', required_data_fields: []}, good, 2, /not an array/, false],
      ['error reported', {}, ghxFailure, 2, /expected success/, true],
      ['too few calls', {}, good, 0, /0 tool call\(s\), expected at least 1/, true],
      ['too many calls', {}, good, 4, /4 tool calls, expected at most 3/, true],
      ['no attempt trace', {require_attempt_trace: true}, good, 2, /no attempt trace/, true],
    ]
    for (const [name, assertions, text, calls, message, valid] of cases) {
      const result = checkAssertions(scenario(assertions), text, calls)
      expect(result.passed, name).to.equal(false)
      expect(result.output_valid, name).to.equal(valid)
      expect(result.message, name).to.match(message)
    }
  })

  it('expected errors must carry the expected code; route_used is only asked of layers that report routes', () => {
    expect(
      checkAssertions(scenario({expected_outcome: 'expected_error', expected_error_code: 'NOT_FOUND'}), ghxFailure, 1)
        .passed,
    ).to.equal(true)
    expect(
      checkAssertions(scenario({expected_outcome: 'expected_error', expected_error_code: 'AUTH'}), ghxFailure, 1)
        .message,
    ).to.match(/expected error code AUTH/)
    const withMeta = scenario({required_meta_fields: ['route_used'], expected_route_used: 'cli'})
    expect(checkAssertions(withMeta, good, 1).passed).to.equal(true)
    const ghx = checkAssertions(
      withMeta,
      JSON.stringify({
        ok: true,
        data: {number: 1, title: 't'},
        meta: {route_used: 'graphql', attempts: [{status: 'error'}, {status: 'ok'}]},
      }),
      1,
      {reportsRoutes: true},
    )
    expect(ghx.message).to.match(/expected route cli/)
    expect(ghx.route_used).to.equal('graphql')
    expect(ghx.internal_retries).to.equal(1)
  })
})
