/**
 * Assertions of an atomic scenario: the agent's final answer must be the result envelope
 * {ok, data, error, meta}. The envelope is found in the final message (a fenced or bare JSON object,
 * the last one that has `ok`), then checked in the predecessors' order (anchor-notes §2.2): output
 * validity, outcome, tool-call minimum and maximum, attempt trace. The first failure is the message.
 */
import type {AtomicScenario} from '../spec/schemas/scenario.js'

export interface Envelope {
  ok: unknown
  data?: unknown
  error?: unknown
  meta?: unknown
}

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

/** Every balanced top-level {...} in a text, in order (strings and escapes respected). */
function jsonObjects(text: string): string[] {
  const found: string[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"' && depth > 0) inString = true
    else if (c === '{') {
      if (depth++ === 0) start = i
    } else if (c === '}' && depth > 0 && --depth === 0) found.push(text.slice(start, i + 1))
  }
  return found
}

/** The last JSON object in the text that looks like an envelope (has `ok`). */
export function extractEnvelope(text: string): Envelope | null {
  const candidates = jsonObjects(text).reverse()
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate)
      if (value && typeof value === 'object' && !Array.isArray(value) && 'ok' in value) return value
    } catch {
      // not JSON; keep looking
    }
  }
  return null
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** Whether the envelope has the shape and fields the scenario asks for. */
function validity(envelope: Envelope | null, assertions: AtomicScenario['assertions'], mode: string): string | null {
  if (!envelope) return 'the final answer holds no result envelope {ok, data, error, meta}'
  if (typeof envelope.ok !== 'boolean') return 'envelope.ok is not a boolean'
  for (const field of assertions.required_fields ?? ['ok', 'data', 'error', 'meta']) {
    if (!(field in envelope)) return `envelope has no "${field}"`
  }
  if (envelope.ok) {
    const {data} = envelope
    if (assertions.data_type === 'array' && !Array.isArray(data)) return 'envelope.data is not an array'
    if (assertions.data_type === 'object' && !isObject(data)) return 'envelope.data is not an object'
    const dataFields = assertions.required_data_fields ?? []
    if (dataFields.length > 0) {
      if (!isObject(data)) return 'envelope.data is not an object'
      const missing = dataFields.filter((f) => !(f in data))
      if (missing.length > 0) return `envelope.data lacks ${missing.join(', ')}`
    }
  }
  // route_used is ghx's own field; other tool layers have no routes to report.
  const metaFields = (assertions.required_meta_fields ?? []).filter((f) => mode === 'ghx' || f !== 'route_used')
  if (metaFields.length > 0) {
    if (!isObject(envelope.meta)) return 'envelope.meta is not an object'
    const missing = metaFields.filter((f) => !(f in (envelope.meta as object)))
    if (missing.length > 0) return `envelope.meta lacks ${missing.join(', ')}`
  }
  return null
}

export function checkAssertions(scenario: AtomicScenario, finalText: string, toolCalls: number, mode: string): AssertionResult {
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
  const invalid = validity(envelope, assertions, mode)
  const outputValid = invalid === null
  const fail = (message: string): AssertionResult => ({...base, passed: false, output_valid: outputValid, message})
  // expect_valid_output of the predecessors is always true here: an invalid envelope fails.
  if (invalid) return fail(invalid)
  if (assertions.expected_outcome === 'success') {
    if (!(envelope!.ok === true && envelope!.error === null)) return fail(`expected success, the envelope reports an error: ${JSON.stringify(envelope!.error)}`)
  } else {
    if (!isObject(envelope!.error)) return fail('expected an error, the envelope reports none')
    if (assertions.expected_error_code && envelope!.error.code !== assertions.expected_error_code) {
      return fail(`expected error code ${assertions.expected_error_code}, got ${String(envelope!.error.code)}`)
    }
  }
  if (mode === 'ghx' && assertions.expected_route_used && routeUsed !== assertions.expected_route_used) {
    return fail(`expected route ${assertions.expected_route_used}, meta.route_used is ${routeUsed ?? 'absent'}`)
  }
  const min = assertions.min_tool_calls ?? 1
  if ((assertions.require_tool_calls ?? true) && toolCalls < min) return fail(`${toolCalls} tool call(s), expected at least ${min}`)
  if (assertions.max_tool_calls !== undefined && toolCalls > assertions.max_tool_calls) return fail(`${toolCalls} tool calls, expected at most ${assertions.max_tool_calls}`)
  if (assertions.require_attempt_trace && attempts.length === 0) return fail('meta.attempts is empty: no attempt trace')
  return {...base, passed: true, output_valid: true, message: null}
}
