/**
 * Assertions of an atomic scenario: the agent's final answer must be a result envelope that keeps the
 * mode's envelope contract (envelope.ts; ghx's by default). The envelope is found in the final message
 * (a fenced or bare JSON object, the last one that has `ok`), then checked in the predecessors' order
 * (anchor-notes §2.2): output validity, outcome, tool-call minimum and maximum, attempt trace. The
 * first failure is the message. A required field must be present and not null.
 */
import type {EnvelopeContract} from '../plugins/api.js'
import type {AtomicScenario} from '../schemas/scenario.js'
import {envelopeViolation, extractEnvelope, type Envelope} from './envelope.js'
import {isObject} from '../shared/is-object.js'

export {extractEnvelope} from './envelope.js'

export interface AssertionResult {
  passed: boolean
  output_valid: boolean
  /** The first failed check, for the row's error message. */
  message: string | null
  envelope: Envelope | null
  route_used: string | null
  /** Entries of meta.attempts with status error: the tool layer's own retries. */
  internal_retries: number
}

const present = (value: Record<string, unknown>, field: string) => value[field] !== undefined && value[field] !== null

/** Fields of `value` that are missing or null. */
const missingFields = (value: Record<string, unknown>, fields: readonly string[]) =>
  fields.filter((f) => !present(value, f))

/** Whether the envelope keeps the contract and has the fields the scenario asks for. */
function validity(
  envelope: Envelope | null,
  assertions: AtomicScenario['assertions'],
  contract: EnvelopeContract,
): string | null {
  if (!envelope) return 'the final answer holds no result envelope {"ok": …}'
  const broken = envelopeViolation(envelope, contract.schema)
  if (broken) return broken
  const missing = missingFields(envelope as unknown as Record<string, unknown>, assertions.required_fields ?? [])
  if (missing.length > 0) return `envelope has no ${missing.map((f) => `"${f}"`).join(', ')} (or it is null)`
  if (envelope.ok === true) {
    const {data} = envelope
    if (assertions.data_type === 'array' && !Array.isArray(data)) return 'envelope.data is not an array'
    if (assertions.data_type === 'object' && !isObject(data)) return 'envelope.data is not an object'
    const dataFields = assertions.required_data_fields ?? []
    if (dataFields.length > 0) {
      if (!isObject(data)) return 'envelope.data is not an object'
      const lacking = missingFields(data, dataFields)
      if (lacking.length > 0) return `envelope.data lacks ${lacking.join(', ')} (missing or null)`
    }
  }
  // route_used is asked only of tool layers that report routes (ghx); others have none to report.
  const metaFields = (assertions.required_meta_fields ?? []).filter((f) => contract.reportsRoutes || f !== 'route_used')
  if (metaFields.length > 0) {
    if (!isObject(envelope.meta)) return 'envelope.meta is not an object'
    const lacking = missingFields(envelope.meta, metaFields)
    if (lacking.length > 0) return `envelope.meta lacks ${lacking.join(', ')}`
  }
  return null
}

export function checkAssertions(
  scenario: AtomicScenario,
  finalText: string,
  toolCalls: number,
  contract: EnvelopeContract = {},
): AssertionResult {
  const {assertions} = scenario
  const envelope = extractEnvelope(finalText)
  const meta = isObject(envelope?.meta) ? envelope.meta : {}
  const attempts = Array.isArray(meta.attempts) ? (meta.attempts as unknown[]) : []
  const routeUsed = typeof meta.route_used === 'string' ? meta.route_used : null
  const base = {
    envelope,
    route_used: routeUsed,
    internal_retries: attempts.filter((a) => isObject(a) && a.status === 'error').length,
  }
  const invalid = validity(envelope, assertions, contract)
  const outputValid = invalid === null
  const fail = (message: string): AssertionResult => ({...base, passed: false, output_valid: outputValid, message})
  // expect_valid_output of the predecessors is always true here: an invalid envelope fails.
  if (invalid) return fail(invalid)
  if (assertions.expected_outcome === 'success') {
    if (envelope!.ok !== true)
      return fail(`expected success, the envelope reports an error: ${JSON.stringify(envelope!.error)}`)
  } else {
    if (!isObject(envelope!.error)) return fail('expected an error, the envelope reports none')
    if (assertions.expected_error_code && envelope!.error.code !== assertions.expected_error_code) {
      return fail(`expected error code ${assertions.expected_error_code}, got ${String(envelope!.error.code)}`)
    }
  }
  if (contract.reportsRoutes && assertions.expected_route_used && routeUsed !== assertions.expected_route_used) {
    return fail(`expected route ${assertions.expected_route_used}, meta.route_used is ${routeUsed ?? 'absent'}`)
  }
  const min = assertions.min_tool_calls
  if (assertions.require_tool_calls && toolCalls < min)
    return fail(`${toolCalls} tool call(s), expected at least ${min}`)
  if (assertions.max_tool_calls !== undefined && toolCalls > assertions.max_tool_calls)
    return fail(`${toolCalls} tool calls, expected at most ${assertions.max_tool_calls}`)
  if (assertions.require_attempt_trace && attempts.length === 0) return fail('meta.attempts is empty: no attempt trace')
  return {...base, passed: true, output_valid: true, message: null}
}
