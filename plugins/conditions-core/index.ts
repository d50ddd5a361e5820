/**
 * The built-in checkpoint conditions. Paths are dotted (items.0.state, labels.length); a null or
 * non-object intermediate resolves to undefined; equality is strict; substring only on strings.
 * A condition without `path` judges the whole task result: list tasks return arrays, so count
 * conditions apply to them directly (the predecessors wrapped lists in envelopes, and counts never passed).
 */
import {definePlugin, type Condition, type ConditionResult, type ConditionSpec} from 'ghx-bench'

const pathParam = {
  type: 'string',
  minLength: 1,
  description: 'dotted path into the result; absent = the whole result',
} as const
const scalar = {type: ['string', 'number', 'boolean', 'null']} as const

/** Dot-notation lookup: numeric segments index arrays, `length` works on arrays, not on strings. */
export function resolvePath(value: unknown, path: string | undefined): unknown {
  if (path === undefined || path === '') return value
  let current: unknown = value
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    if (!Object.prototype.hasOwnProperty.call(current, segment) && !(Array.isArray(current) && segment === 'length')) {
      return undefined
    }
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

function label(path: string | undefined): string {
  return path ?? 'result'
}

function show(value: unknown): string {
  if (value === undefined) return 'missing'
  const text = JSON.stringify(value)
  return text.length > 80 ? text.slice(0, 77) + '...' : text
}

function result(passed: boolean, expected: unknown, actual: unknown, message: string): ConditionResult {
  return {passed, expected, actual, message}
}

function describeShape(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array of ${value.length}`
  return `${typeof value === 'object' ? 'an object' : typeof value} ${show(value)}`
}

interface PathParams {
  path?: string
}

const nonEmpty: Condition<PathParams> = {
  name: 'non_empty',
  description: 'an array with at least one element, or any value that is not null or missing',
  paramsSchema: {type: 'object', additionalProperties: false, properties: {path: pathParam}},
  evaluate(actual, {path}) {
    const value = resolvePath(actual, path)
    const passed = Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined
    return result(passed, 'non-empty', value, `${label(path)} is ${describeShape(value)}, expected non-empty`)
  },
}

const empty: Condition<PathParams> = {
  name: 'empty',
  description: 'an empty array, null or missing',
  paramsSchema: {type: 'object', additionalProperties: false, properties: {path: pathParam}},
  evaluate(actual, {path}) {
    const value = resolvePath(actual, path)
    const passed = Array.isArray(value) ? value.length === 0 : value === null || value === undefined
    return result(passed, 'empty', value, `${label(path)} is ${describeShape(value)}, expected empty`)
  },
}

function countCondition(
  name: string,
  operator: '>=' | '==',
  test: (n: number, v: number) => boolean,
): Condition<PathParams & {value: number}> {
  return {
    name,
    description: `an array whose length is ${operator} value`,
    paramsSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['value'],
      properties: {path: pathParam, value: {type: 'integer', minimum: 0}},
    },
    evaluate(actual, {path, value}) {
      const list = resolvePath(actual, path)
      const expected = `${operator} ${value}`
      if (!Array.isArray(list)) {
        return result(
          false,
          expected,
          list,
          `${label(path)} is ${describeShape(list)}, expected an array with length ${expected}`,
        )
      }
      const passed = test(list.length, value)
      return result(passed, expected, list.length, `${label(path)}.length is ${list.length}, expected ${expected}`)
    },
  }
}

function fieldCondition<V>(
  name: string,
  description: string,
  valueSchema: Record<string, unknown>,
  expectedText: (v: V) => string,
  test: (field: unknown, v: V) => boolean,
  valueKey = 'value',
): Condition<{path?: string} & Record<string, unknown>> {
  return {
    name,
    description,
    paramsSchema: {
      type: 'object',
      additionalProperties: false,
      required: [valueKey],
      properties: {path: pathParam, [valueKey]: valueSchema},
    },
    evaluate(actual, params) {
      const field = resolvePath(actual, params.path)
      const expected = params[valueKey] as V
      const passed = test(field, expected)
      return result(
        passed,
        expectedText(expected),
        field,
        `${label(params.path)} is ${show(field)}, expected ${expectedText(expected)}`,
      )
    },
  }
}

const fieldEquals = fieldCondition<unknown>(
  'field_equals',
  'the field equals value (strict)',
  scalar,
  show,
  (f, v) => f === v,
)
const fieldContains = fieldCondition<string>(
  'field_contains',
  'the field is a string that contains value (case-sensitive)',
  {type: 'string'},
  (v) => `a string containing ${show(v)}`,
  (f, v) => typeof f === 'string' && f.includes(v),
)
const fieldGte = fieldCondition<number>(
  'field_gte',
  'the field is a number >= value',
  {type: 'number'},
  (v) => `>= ${v}`,
  (f, v) => typeof f === 'number' && f >= v,
)
const fieldLte = fieldCondition<number>(
  'field_lte',
  'the field is a number <= value',
  {type: 'number'},
  (v) => `<= ${v}`,
  (f, v) => typeof f === 'number' && f <= v,
)
const fieldIn = fieldCondition<unknown[]>(
  'field_in',
  'the field equals one of values (strict)',
  {type: 'array', minItems: 1, items: scalar},
  (v) => `one of ${show(v)}`,
  (f, v) => v.includes(f),
  'values',
)

const fieldMatches: Condition<{path?: string; pattern: string; flags?: string}> = {
  name: 'field_matches',
  description: 'the field is a string matching the regular expression pattern',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['pattern'],
    // Each flag at most once ("ii" is refused by RegExp): checked when the scenario loads, not when the check runs.
    properties: {
      path: pathParam,
      pattern: {type: 'string', format: 'regex'},
      flags: {type: 'string', pattern: '^(?!.*(.).*\\1)[imsu]*$'},
    },
  },
  evaluate(actual, {path, pattern, flags}) {
    const field = resolvePath(actual, path)
    const expected = `/${pattern}/${flags ?? ''}`
    const passed = typeof field === 'string' && new RegExp(pattern, flags).test(field)
    return result(passed, expected, field, `${label(path)} is ${show(field)}, expected to match ${expected}`)
  },
}

const nestedConditionSchema = {type: 'object', required: ['type'], properties: {type: {type: 'string'}}} as const

const quantifierSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition'],
  properties: {
    path: pathParam,
    where: {...nestedConditionSchema, description: 'only elements that pass this condition are judged'},
    condition: nestedConditionSchema,
  },
} as const

type QuantifierParams = {path?: string; where?: ConditionSpec; condition: ConditionSpec}

/**
 * every / some over the array at path, optionally only over elements that pass `where`. `every`
 * fails on no elements: a vacuous pass is how the predecessors' checks came to be trivially true.
 */
function quantifier(name: 'every' | 'some'): Condition<QuantifierParams> {
  return {
    name,
    description: `${name === 'every' ? 'every (and at least one)' : 'at least one'} element of the array at path passes condition; where filters the elements first`,
    paramsSchema: quantifierSchema,
    evaluate(actual, {path, where, condition}, context) {
      const value = resolvePath(actual, path)
      const expected = `${name} element${where ? ` where ${where.type}` : ''}: ${condition.type}`
      if (!Array.isArray(value)) {
        return result(false, expected, value, `${label(path)} is ${describeShape(value)}, expected an array`)
      }
      const list = where ? value.filter((element) => context.evaluate(where, element).passed) : value
      if (list.length === 0) {
        return result(
          false,
          expected,
          value,
          `${label(path)} has no elements${where ? ` that pass ${where.type}` : ''}`,
        )
      }
      const outcomes = list.map((element) => context.evaluate(condition, element))
      const failedAt = outcomes.findIndex((o) => !o.passed)
      const passedAt = outcomes.findIndex((o) => o.passed)
      if (name === 'every') {
        const passed = failedAt < 0
        const message = passed
          ? `all ${list.length} elements of ${label(path)} pass ${condition.type}`
          : `${label(path)}[${failedAt}]: ${outcomes[failedAt]!.message}`
        return result(passed, expected, list, message)
      }
      const passed = passedAt >= 0
      const message = passed
        ? `${label(path)}[${passedAt}] passes ${condition.type}`
        : `none of the ${list.length} elements of ${label(path)} passes ${condition.type}`
      return result(passed, expected, list, message)
    },
  }
}

/*
 * Truth conditions: the answer (`{{answer}}`, filled in once the agent is done) judged against what
 * GitHub holds (the task result). Arms spell the same fact their own way (gh's OPEN, REST's open; a
 * label as {name} or as its name), so values are compared by identity: text trimmed and case-folded,
 * a number and its digits alike, an object by its name, login, number, tag or id.
 */
const IDENTITY_KEYS = ['name', 'login', 'number', 'tagName', 'tag_name', 'id', 'databaseId']

/** A value's identity for comparison; undefined for null, missing, or an object with no identifying key. */
export function identityOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim().toLowerCase()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'object' && !Array.isArray(value)) {
    const key = IDENTITY_KEYS.find(
      (k) => (value as Record<string, unknown>)[k] !== undefined && (value as Record<string, unknown>)[k] !== null,
    )
    return key ? identityOf((value as Record<string, unknown>)[key]) : undefined
  }
  return undefined
}

/** An answer's list: the list itself, or the `items` / `nodes` of a page ({items, pageInfo}). */
function listOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value
  if (value && typeof value === 'object') {
    for (const key of ['items', 'nodes']) {
      const inner = (value as Record<string, unknown>)[key]
      if (Array.isArray(inner)) return inner
    }
  }
  return undefined
}

const keysOf = (list: unknown[], key: string | undefined) =>
  list.map((item) => identityOf(key && item && typeof item === 'object' ? resolvePath(item, key) : item))

const sameItems: Condition<{
  path?: string
  value?: unknown
  key?: string
  match?: 'exact' | 'contains' | 'within'
  min?: number
}> = {
  name: 'same_items',
  description:
    'the list at path and value (a list, or a page’s items; usually "{{answer}}") name the same items by key (exact), value names every item of the list (contains), or every item of value is in the list (within); the side checked (the list for exact and contains, value for within) must have at least min items (default 1), so that an empty answer cannot be right',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['value'],
    properties: {
      path: pathParam,
      value: {description: 'the other list, usually "{{answer}}", "{{answer.items}}" or "{{input.labels}}"'},
      key: {
        type: 'string',
        minLength: 1,
        description: 'dotted path of each item’s identity (number, id, name); absent: the item’s own identity',
      },
      match: {enum: ['exact', 'contains', 'within'], default: 'exact'},
      min: {type: 'integer', minimum: 0, default: 1},
    },
  },
  evaluate(actual, {path, value, key, match = 'exact', min = 1}) {
    const truth = resolvePath(actual, path)
    if (!Array.isArray(truth))
      return result(false, 'a list', truth, `${label(path)} is ${describeShape(truth)}, expected a list`)
    const held = keysOf(truth, key)
    const list = listOf(value)
    const shown = `${match} ${show(held)}`
    if (!list) return result(false, shown, value, `the value is ${describeShape(value)}, expected a list`)
    const given = keysOf(list, key)
    const checked = match === 'within' ? given : held
    if (checked.length < min) {
      return result(
        false,
        shown,
        given,
        `${match === 'within' ? 'the value' : label(path)} has ${checked.length} item(s), fewer than ${min}: the check cannot tell a right answer from an empty one`,
      )
    }
    const missing = match === 'within' ? [] : held.filter((k) => !given.includes(k))
    const extra = match === 'contains' ? [] : given.filter((k) => !held.includes(k))
    const passed = missing.length === 0 && extra.length === 0 && !given.includes(undefined)
    const problems = [
      missing.length ? `lacks ${show(missing)}` : '',
      extra.length ? `names ${show(extra)}, which ${label(path)} does not hold` : '',
      given.includes(undefined) ? `has items without ${key ?? 'an identity'}` : '',
    ]
    return result(
      passed,
      shown,
      given,
      passed
        ? `the value and ${label(path)} agree (${match}, ${held.length} item(s))`
        : `the value ${problems.filter(Boolean).join(' and ')}`,
    )
  },
}

const agreesWith: Condition<{path?: string; value?: unknown}> = {
  name: 'agrees_with',
  description:
    'the field at path and value (usually from the answer: "{{answer.title}}") are the same fact: equal identities, or lists of the same identities in any order; a missing or null side never agrees',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['value'],
    properties: {path: pathParam, value: {description: 'the value to agree with'}},
  },
  evaluate(actual, {path, value}) {
    const field = resolvePath(actual, path)
    const identities = (v: unknown) => (Array.isArray(v) ? v.map(identityOf).sort() : [identityOf(v)])
    const [truth, given] = [identities(field), identities(value)]
    const passed =
      Array.isArray(field) === Array.isArray(value) &&
      !truth.includes(undefined) &&
      !given.includes(undefined) &&
      JSON.stringify(truth) === JSON.stringify(given)
    return result(
      passed,
      show(field),
      value,
      passed
        ? `${label(path)} agrees: ${show(field)}`
        : `${label(path)} is ${show(field)}, the answer says ${show(value)}`,
    )
  },
}

const mentionedIn: Condition<{path?: string; text?: unknown; min_length?: number}> = {
  name: 'mentioned_in',
  description:
    'the value at path (a text, or each item of a list by its identity) appears in text (usually "{{final_text}}" or "{{answer}}"; an object is read as its JSON), case and spacing aside; an empty list or a value shorter than min_length (default 1) never passes',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      path: pathParam,
      text: {description: 'where the value must appear'},
      min_length: {type: 'integer', minimum: 1, default: 1},
    },
  },
  evaluate(actual, {path, text, min_length = 1}) {
    const field = resolvePath(actual, path)
    const haystack = identityOf(typeof text === 'string' ? text : JSON.stringify(text ?? null)) ?? ''
    const needles = (Array.isArray(field) ? field : [field]).map(identityOf)
    const absent = needles.filter((n) => n === undefined || n.length < min_length || !haystack.includes(n))
    const passed = needles.length > 0 && absent.length === 0
    return result(
      passed,
      `mentions ${show(field)}`,
      typeof text === 'string' ? text : (text ?? null),
      passed
        ? `the answer mentions ${label(path)}`
        : needles.length === 0
          ? `${label(path)} is an empty list: nothing to look for`
          : `the answer does not mention ${show(absent.map((n) => n ?? null))}`,
    )
  },
}

/** `{type: not, condition: {...}}`: passes when the nested condition fails. */
const not: Condition<{condition: ConditionSpec}> = {
  name: 'not',
  description: 'passes when condition fails',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['condition'],
    properties: {condition: nestedConditionSchema},
  },
  evaluate(actual, {condition}, context) {
    const inner = context.evaluate(condition, actual)
    return result(
      !inner.passed,
      `not (${show(inner.expected)})`,
      inner.actual,
      inner.passed ? `expected not: ${inner.message}` : `as expected, not: ${inner.message}`,
    )
  },
}

/** `{type: custom, scorer: NAME, params: {...}}`: the condition a plugin registered under NAME. */
const custom: Condition<{scorer: string; params?: Record<string, unknown>}> = {
  name: 'custom',
  description: 'calls the condition registered under scorer, with params',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['scorer'],
    properties: {scorer: {type: 'string', minLength: 1}, params: {type: 'object'}},
  },
  evaluate(actual, {scorer, params}, context) {
    return context.evaluate({...params, type: scorer}, actual)
  },
}

export default definePlugin({
  apiVersion: 1,
  name: 'conditions-core',
  version: '1.0.0',
  conditions: [
    nonEmpty,
    empty,
    countCondition('count_gte', '>=', (n, v) => n >= v),
    countCondition('count_eq', '==', (n, v) => n === v),
    fieldEquals,
    fieldContains,
    fieldGte,
    fieldLte,
    fieldMatches,
    fieldIn,
    sameItems,
    agreesWith,
    mentionedIn,
    quantifier('every'),
    quantifier('some'),
    not,
    custom,
  ],
})
