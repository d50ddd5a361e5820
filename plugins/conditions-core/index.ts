/**
 * The built-in checkpoint conditions. Paths are dotted (items.0.state, labels.length); a null or
 * non-object intermediate resolves to undefined; equality is strict; substring only on strings.
 * A condition without `path` judges the whole task result: list tasks return arrays, so count
 * conditions apply to them directly (the predecessors wrapped lists in envelopes, and counts never passed).
 */
import {definePlugin, type Condition, type ConditionResult, type ConditionSpec} from 'ghx-bench'

const pathParam = {type: 'string', minLength: 1, description: 'dotted path into the result; absent = the whole result'} as const
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

function countCondition(name: string, operator: '>=' | '==', test: (n: number, v: number) => boolean): Condition<PathParams & {value: number}> {
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
        return result(false, expected, list, `${label(path)} is ${describeShape(list)}, expected an array with length ${expected}`)
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
      return result(passed, expectedText(expected), field, `${label(params.path)} is ${show(field)}, expected ${expectedText(expected)}`)
    },
  }
}

const fieldEquals = fieldCondition<unknown>('field_equals', 'the field equals value (strict)', scalar, show, (f, v) => f === v)
const fieldContains = fieldCondition<string>(
  'field_contains',
  'the field is a string that contains value (case-sensitive)',
  {type: 'string'},
  (v) => `a string containing ${show(v)}`,
  (f, v) => typeof f === 'string' && f.includes(v),
)
const fieldGte = fieldCondition<number>('field_gte', 'the field is a number >= value', {type: 'number'}, (v) => `>= ${v}`, (f, v) => typeof f === 'number' && f >= v)
const fieldLte = fieldCondition<number>('field_lte', 'the field is a number <= value', {type: 'number'}, (v) => `<= ${v}`, (f, v) => typeof f === 'number' && f <= v)
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
    properties: {path: pathParam, pattern: {type: 'string', format: 'regex'}, flags: {type: 'string', pattern: '^(?!.*(.).*\\1)[imsu]*$'}},
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
        return result(false, expected, value, `${label(path)} has no elements${where ? ` that pass ${where.type}` : ''}`)
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
    return result(!inner.passed, `not (${show(inner.expected)})`, inner.actual, inner.passed ? `expected not: ${inner.message}` : `as expected, not: ${inner.message}`)
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
    quantifier('every'),
    quantifier('some'),
    not,
    custom,
  ],
})
