/**
 * The result envelope of an atomic scenario: what a tool layer (ghx) prints and what the agent's final
 * answer must be. The default contract is ghx's real one: `{"ok":true,"data":…}` or
 * `{"ok":false,"error":{"code","message"}}`, `data` xor `error` (a `null` counts as absent, so the
 * predecessors' four-field `{ok, data, error: null, meta}` also passes), `meta` optional. A mode may
 * declare its own envelope as a JSON Schema (Mode.envelopeSchema).
 */
import type {JsonSchema} from '../plugins/api.js'
import {compileSchema} from '../shared/schema-validator.js'
import {isObject} from '../shared/is-object.js'

export interface Envelope {
  ok: unknown
  data?: unknown
  error?: unknown
  meta?: unknown
}

/** ghx's envelope, as its CLI prints it (../shared/reference/ghx-cards/README.md). */
const GHX_ENVELOPE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['ok'],
  properties: {
    ok: {type: 'boolean'},
    error: {
      type: ['object', 'null'],
      required: ['code', 'message'],
      properties: {code: {type: 'string'}, message: {type: 'string'}},
    },
    meta: {type: ['object', 'null']},
  },
  if: {properties: {ok: {const: true}}},
  then: {
    required: ['data'],
    properties: {data: {not: {type: 'null'}}, error: {type: 'null'}},
  },
  else: {
    required: ['error'],
    properties: {data: {type: 'null'}, error: {type: 'object'}},
  },
}

/** Why the value breaks the contract, in one line; null when it keeps it. */
export function envelopeViolation(value: unknown, schema: JsonSchema = GHX_ENVELOPE_SCHEMA): string | null {
  const validate = compileSchema(schema)
  if (validate(value)) return null
  // Errors of the unconditional part first (ok is not a boolean), then of the branch ok chose.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if')
  const first = errors.find((e) => !/^#\/(then|else)\//.test(e.schemaPath)) ?? errors[0]
  if (!first) return 'the envelope breaks its contract'
  const where = first.instancePath ? `envelope${first.instancePath.replaceAll('/', '.')}` : 'envelope'
  if (first.keyword === 'required')
    return `${where} has no "${(first.params as {missingProperty: string}).missingProperty}"`
  if (first.keyword === 'not' && /\/data$/.test(first.instancePath)) return 'envelope.data is null on success'
  return `${where} ${first.message ?? 'is not valid'}`
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

/** The JSON objects of a text that have an `ok` field, in order: compact or pretty-printed envelopes. */
export function envelopesIn(text: string): Envelope[] {
  const out: Envelope[] = []
  for (const candidate of jsonObjects(text)) {
    try {
      const value: unknown = JSON.parse(candidate)
      if (isObject(value) && 'ok' in value) out.push(value as unknown as Envelope)
    } catch {
      // not JSON; keep looking
    }
  }
  return out
}

/** The last JSON object in the text that looks like an envelope (has `ok`). */
export function extractEnvelope(text: string): Envelope | null {
  return envelopesIn(text).at(-1) ?? null
}

/** The message of a failed envelope (`ok: false`), or null. */
export function envelopeFailure(envelope: Envelope): string | null {
  if (envelope.ok !== false) return null
  const error = isObject(envelope.error) ? envelope.error : {}
  const code = typeof error.code === 'string' ? error.code : 'ERROR'
  return `${code}: ${typeof error.message === 'string' ? error.message : 'the envelope reports ok: false'}`
}
