/**
 * JSON Schema validation whose findings point into the source: every ajv error becomes one
 * Diagnostic at the offending key or value, worded for a person, with "did you mean" for typos.
 * The schemas ghx-bench itself reads at start (the project's documents, the built-in plugins') come
 * compiled ahead (schema-validators.generated.ts, `npm run schemas`): ajv is loaded, and a schema
 * compiled, only for one that is not among them (a third party's, or one changed since).
 */
import {createRequire} from 'node:module'
import type {Ajv2020, ErrorObject, Options, ValidateFunction} from 'ajv/dist/2020.js'
import {suggestionSuffix, type Diagnostic} from './diagnostics.js'
import {jsonSha256} from './digest.js'
import {PRECOMPILED} from './schema-validators.generated.js'
import {parsePointer, type SourceDocument} from './source-document.js'

type AnySchema = Record<string, unknown>

// ajv is CommonJS: required when a schema is first compiled, not when this module loads.
const require = createRequire(import.meta.url)

let sharedAjv: Ajv2020 | undefined
const compiled = new WeakMap<object, ValidateFunction>()

/**
 * The ajv that compiles a schema: explaining (every error, verbose, for compileSchema) or checking
 * (the first error only, for compileCheck). `code` is for the ahead-of-time compilation
 * (schema-precompile.ts), which must compile as this does.
 */
export function newAjv(explaining: boolean, code?: Options['code']): Ajv2020 {
  const {Ajv2020} = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
  const ajv = new Ajv2020({
    strict: true,
    allErrors: explaining,
    discriminator: true,
    verbose: explaining,
    allowUnionTypes: true,
    ...(code ? {code} : {}),
  })
  // ajv-formats is CommonJS: its callable is the module's default.
  ;(require('ajv-formats') as {default: (a: Ajv2020) => void}).default(ajv)
  return ajv
}

function ajv(): Ajv2020 {
  sharedAjv ??= newAjv(true)
  return sharedAjv
}

let checkingAjv: Ajv2020 | undefined
const checks = new WeakMap<object, ValidateFunction>()

/**
 * A yes/no validator: it stops at the first error and records none, several times faster than
 * compileSchema's (which collects every error, verbose, to explain them); for values read by the
 * million, explained by compileSchema's only when one fails.
 */
export function compileCheck(schema: object): ValidateFunction {
  let check = checks.get(schema)
  if (!check) {
    checkingAjv ??= newAjv(false)
    check = checkingAjv.compile(schema)
    checks.set(schema, check)
  }
  return check
}

export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = precompiled(schema) ?? ajv().compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * Throws what compileSchema would for a schema that does not compile (a plugin's, checked when it
 * loads); one compiled ahead is known to compile, and is not made until it validates something.
 */
export function checkCompiles(schema: object): void {
  if (!compiled.has(schema) && !PRECOMPILED.has(precompiledKey(schema) ?? '')) compileSchema(schema)
}

/** The validator compiled ahead for a schema of this very content, if there is one. */
function precompiled(schema: object): ValidateFunction | undefined {
  return PRECOMPILED.get(precompiledKey(schema) ?? '')?.()
}

/** What a schema compiled ahead is found by: its JSON's SHA-256. */
function precompiledKey(schema: object): string | undefined {
  try {
    return jsonSha256(schema)
  } catch {
    return undefined // not JSON (a cycle, a BigInt): ajv says what is wrong with it
  }
}

/**
 * Validates a value that lives at `basePointer` inside a document (a plugin's options or a
 * condition's params) and reports each error where it stands in the file.
 */
export function validateWithSchema(
  schema: object,
  value: unknown,
  document: SourceDocument,
  basePointer = '',
  what = '',
): Diagnostic[] {
  const validate = compileSchema(schema)
  if (validate(value)) return []
  return toDiagnostics(validate.errors ?? [], document, basePointer, what)
}

export function validateDocument(schema: object, document: SourceDocument): Diagnostic[] {
  return validateWithSchema(schema, document.data, document)
}

function toDiagnostics(
  errors: ErrorObject[],
  document: SourceDocument,
  basePointer: string,
  what: string,
): Diagnostic[] {
  const kept = pruneAlternatives(errors)
  const seen = new Set<string>()
  const diagnostics: Diagnostic[] = []
  for (const error of kept) {
    const diagnostic = toDiagnostic(error, document, basePointer, what)
    const key = `${diagnostic.line}:${diagnostic.col}:${diagnostic.message}`
    if (!seen.has(key)) {
      seen.add(key)
      diagnostics.push(diagnostic)
    }
  }
  return diagnostics
}

function toDiagnostic(error: ErrorObject, document: SourceDocument, basePointer: string, what: string): Diagnostic {
  const pointer = basePointer + error.instancePath
  const where = describePath(pointer)
  const prefix = what ? `${what}: ` : ''
  const parentSchema = (error.parentSchema ?? {}) as AnySchema
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty)
      const known = Object.keys((parentSchema.properties as AnySchema | undefined) ?? {}).filter((k) => k !== '$schema')
      const at = where ? ` in ${where}` : ''
      return document.diagnostic(
        [...parsePointer(pointer), key],
        'unknown_key',
        `${prefix}unknown key "${key}"${at}${suggestionSuffix(key, known)}`,
        'key',
      )
    }
    case 'required': {
      const missing = String(error.params.missingProperty)
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where || 'the document'} is missing required key "${missing}"`,
      )
    }
    case 'discriminator': {
      const tag = String(error.params.tag)
      const value = error.params.tagValue
      const branches = ((parentSchema.oneOf as AnySchema[] | undefined) ?? [])
        .map((b) => ((b.properties as AnySchema | undefined)?.[tag] as AnySchema | undefined)?.const)
        .filter((v): v is string => typeof v === 'string')
      const at = pointer + '/' + tag
      if (typeof value !== 'string') {
        return document.diagnostic(at, 'schema', `${prefix}"${tag}" must be one of: ${branches.join(', ')}`)
      }
      return document.diagnostic(at, 'schema', `${prefix}unknown ${tag} "${value}"${suggestionSuffix(value, branches)}`)
    }
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map(String)
      const value = String(error.data)
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where} is "${value}", expected one of: ${allowed.join(', ')}${hintOnly(value, allowed)}`,
      )
    }
    case 'const':
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where} must be ${JSON.stringify(error.params.allowedValue)}`,
      )
    case 'type':
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where || 'the document'} must be ${String(error.params.type).split(',').map(article).join(' or ')}, not ${jsonType(error.data)}`,
      )
    case 'pattern': {
      const description =
        typeof parentSchema.description === 'string'
          ? parentSchema.description
          : `a value matching ${String(error.params.pattern)}`
      return document.diagnostic(pointer, 'schema', `${prefix}${where} "${String(error.data)}" is not ${description}`)
    }
    case 'propertyNames':
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where} has a key "${String(error.params.propertyName)}" that is not allowed`,
      )
    case 'anyOf':
    case 'oneOf': {
      const types = alternativeTypes(parentSchema, error.keyword)
      const detail = types.length > 0 ? `must be ${types.map(article).join(' or ')}` : 'does not match any allowed form'
      return document.diagnostic(pointer, 'schema', `${prefix}${where || 'the document'} ${detail}`)
    }
    case 'not':
      // A `not` says what is refused in its description (a key that excludes another).
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where || 'the document'} ${typeof parentSchema.description === 'string' ? parentSchema.description : (error.message ?? 'is invalid')}`,
      )
    default:
      return document.diagnostic(
        pointer,
        'schema',
        `${prefix}${where || 'the document'} ${error.message ?? 'is invalid'}`,
      )
  }
}

/**
 * A `oneOf` between a string and an object (a mode given by name or with options) makes ajv
 * report every branch. Keep only the branch whose JSON type matches the value, which is the one the
 * user meant; report the alternatives only when no branch matches the type.
 */
function pruneAlternatives(errors: ErrorObject[]): ErrorObject[] {
  let result = errors
  for (const alternative of errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')) {
    const branches = ((alternative.parentSchema as AnySchema)[alternative.keyword] as AnySchema[] | undefined) ?? []
    const branchTypes = branches.map((b) => b.type)
    if (branchTypes.some((t) => t === undefined)) continue
    const actual = jsonType(alternative.data)
    const matching = new Set(
      branches.flatMap((b, i) => (b.type === actual || (b.type === 'number' && actual === 'integer') ? [i] : [])),
    )
    const base = alternative.schemaPath + '/'
    const branchErrors = result.filter((e) => e !== alternative && e.schemaPath.startsWith(base))
    const keep = branchErrors.filter((e) => matching.has(Number(e.schemaPath.slice(base.length).split('/')[0])))
    result = result.filter((e) => !branchErrors.includes(e) || keep.includes(e))
    if (keep.length > 0) result = result.filter((e) => e !== alternative)
  }
  return result
}

function alternativeTypes(schema: AnySchema, keyword: string): string[] {
  const branches = (schema[keyword] as AnySchema[] | undefined) ?? []
  return branches.map((b) => b.type).filter((t): t is string => typeof t === 'string')
}

function hintOnly(value: string, candidates: string[]): string {
  const hint = suggestionSuffix(value, candidates)
  return hint.startsWith(' (did you mean') ? hint : ''
}

/** `/assertions/checkpoints/2/condition` -> `assertions.checkpoints[2].condition` */
export function describePath(pointer: string): string {
  let text = ''
  for (const segment of parsePointer(pointer)) {
    text += typeof segment === 'number' ? `[${segment}]` : (text ? '.' : '') + segment
  }
  return text
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (Number.isInteger(value)) return 'integer'
  return typeof value
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

/**
 * The defaults pass: `value` with every `default` its schema declares filled in where the value has
 * no such property, the way a reader of the schema expects the document to be read. Objects are
 * walked through `properties` (a missing object with a `default` of `{}` gets its own properties'
 * defaults too), `additionalProperties` and the matching branch of a discriminated `oneOf`; arrays
 * through `items`. The value given is not changed: what is filled in is a copy. Validate first: the
 * pass does not check types, it only fills gaps.
 */
export function applyDefaults<T>(schema: object, value: T): T {
  return fill(schema as AnySchema, value) as T
}

function fill(schema: AnySchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items as AnySchema | undefined
    return items && typeof items === 'object' ? value.map((item) => fill(items, item)) : value
  }
  if (value === null || typeof value !== 'object') return value
  const branch = discriminatedBranch(schema, value as Record<string, unknown>)
  if (branch) return fill(branch, value)
  const properties = (schema.properties ?? {}) as Record<string, AnySchema>
  const extra = schema.additionalProperties
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const sub = properties[key] ?? (typeof extra === 'object' && extra !== null ? (extra as AnySchema) : undefined)
    result[key] = sub ? fill(sub, item) : item
  }
  for (const [key, sub] of Object.entries(properties)) {
    if (result[key] === undefined && 'default' in sub) result[key] = fill(sub, structuredClone(sub.default))
  }
  return result
}

/** The `oneOf` branch a discriminator's tag selects (the scenario's `type`), if the schema has one. */
function discriminatedBranch(schema: AnySchema, value: Record<string, unknown>): AnySchema | undefined {
  const tag = (schema.discriminator as {propertyName?: string} | undefined)?.propertyName
  if (!tag || !Array.isArray(schema.oneOf)) return undefined
  return (schema.oneOf as AnySchema[]).find(
    (b) => ((b.properties as AnySchema | undefined)?.[tag] as AnySchema | undefined)?.const === value[tag],
  )
}
