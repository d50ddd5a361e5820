import {expect} from 'chai'
import type {Condition, ConditionSpec} from 'ghx-bench'
import {testCondition} from 'ghx-bench/plugin-kit'
import conditionsCore, {resolvePath} from '../../../plugins/conditions-core/index.js'
import {PluginRegistry} from '../../../src/plugins/registry.js'

const registry = new PluginRegistry()
registry.register(conditionsCore, 'built-in', 'conditions-core', 'plugins/conditions-core/index.ts')
const check = (spec: ConditionSpec, actual: unknown) => registry.evaluate(spec, actual)

// What list and object tasks return: lists are arrays (not envelopes), so counts apply directly.
const threads = [
  {id: 't1', line: 2, isResolved: true, comments: [{body: 'seed'}]},
  {id: 't2', line: 18, isResolved: false, comments: [{body: 'seed'}, {body: 'reply'}]},
]
const issue = {
  number: 7,
  state: 'OPEN',
  title: 'Crash on start',
  labels: ['bench-fixture', 'enhancement'],
  milestone: null,
}

describe('conditions-core', () => {
  describe('dot paths', () => {
    it('walks objects and arrays, and length works on arrays only', () => {
      expect(resolvePath(threads, '1.comments.1.body')).to.equal('reply')
      expect(resolvePath(issue, 'labels.length')).to.equal(2)
      expect(resolvePath(issue, 'title.length')).to.equal(undefined)
    })
    it('resolves through null or non-objects to undefined', () => {
      expect(resolvePath(issue, 'milestone.title')).to.equal(undefined)
      expect(resolvePath(issue, 'state.x')).to.equal(undefined)
      expect(resolvePath(issue, 'constructor')).to.equal(undefined)
    })
  })

  it('non_empty and empty judge arrays by length and other values by presence', () => {
    expect(check({type: 'non_empty'}, threads).passed).to.equal(true)
    expect(check({type: 'non_empty'}, []).passed).to.equal(false)
    expect(check({type: 'non_empty', path: 'milestone'}, issue).passed).to.equal(false)
    expect(check({type: 'empty'}, []).passed).to.equal(true)
    expect(check({type: 'empty', path: 'nothing'}, issue).passed).to.equal(true)
    expect(check({type: 'empty'}, threads).message).to.equal('result is an array of 2, expected empty')
  })

  it('count_gte and count_eq pass on real list results and explain themselves', () => {
    const result = check({type: 'count_gte', value: 3}, threads)
    expect(result).to.deep.equal({
      passed: false,
      expected: '>= 3',
      actual: 2,
      message: 'result.length is 2, expected >= 3',
    })
    expect(check({type: 'count_eq', value: 2}, threads).passed).to.equal(true)
    expect(check({type: 'count_eq', path: 'labels', value: 2}, issue).message).to.equal(
      'labels.length is 2, expected == 2',
    )
  })

  it('count conditions fail on a non-array, saying what they found', () => {
    const result = check({type: 'count_gte', value: 1}, {items: threads})
    expect(result.passed).to.equal(false)
    expect(result.message).to.match(/^result is an object .*, expected an array with length >= 1$/)
  })

  it('field_equals is strict; field_contains only matches strings', () => {
    expect(check({type: 'field_equals', path: 'number', value: 7}, issue).passed).to.equal(true)
    expect(check({type: 'field_equals', path: 'number', value: '7'}, issue).passed).to.equal(false)
    expect(check({type: 'field_equals', path: 'missing', value: null}, issue).passed).to.equal(false)
    expect(check({type: 'field_equals', path: 'milestone', value: null}, issue).passed).to.equal(true)
    expect(check({type: 'field_contains', path: 'title', value: 'Crash'}, issue).passed).to.equal(true)
    expect(check({type: 'field_contains', path: 'number', value: '7'}, issue).passed).to.equal(false)
    expect(check({type: 'field_equals', path: 'state', value: 'CLOSED'}, issue).message).to.equal(
      'state is "OPEN", expected "CLOSED"',
    )
  })

  it('field_gte, field_lte, field_matches and field_in', () => {
    expect(check({type: 'field_gte', path: 'number', value: 7}, issue).passed).to.equal(true)
    expect(check({type: 'field_lte', path: 'number', value: 6}, issue).passed).to.equal(false)
    expect(check({type: 'field_gte', path: 'title', value: 1}, issue).passed).to.equal(false)
    expect(check({type: 'field_matches', path: 'title', pattern: '^crash', flags: 'i'}, issue).passed).to.equal(true)
    expect(check({type: 'field_in', path: 'state', values: ['OPEN', 'CLOSED']}, issue).passed).to.equal(true)
  })

  it('every and some apply a condition to each element, optionally filtered by where', () => {
    expect(
      check(
        {type: 'every', path: 'labels', condition: {type: 'field_in', values: ['bench-fixture', 'enhancement']}},
        issue,
      ).passed,
    ).to.equal(true)
    expect(
      check({type: 'some', path: 'labels', condition: {type: 'field_equals', value: 'bug'}}, issue).passed,
    ).to.equal(false)
    const replied = {
      type: 'every',
      where: {type: 'field_gte', path: 'line', value: 18},
      condition: {type: 'field_gte', path: 'comments.length', value: 2},
    }
    expect(check(replied, threads).passed).to.equal(true)
    const failing = check({type: 'every', condition: {type: 'field_equals', path: 'isResolved', value: true}}, threads)
    expect(failing.message).to.equal('result[1]: isResolved is false, expected true')
  })

  it('every fails when no element is left to judge (no vacuous pass)', () => {
    expect(check({type: 'every', condition: {type: 'non_empty'}}, []).message).to.equal('result has no elements')
    const none = check(
      {type: 'every', where: {type: 'field_gte', path: 'line', value: 100}, condition: {type: 'non_empty'}},
      threads,
    )
    expect(none.passed).to.equal(false)
  })

  it('not inverts a condition', () => {
    expect(
      check(
        {type: 'not', condition: {type: 'some', path: 'labels', condition: {type: 'field_equals', value: 'triage'}}},
        issue,
      ).passed,
    ).to.equal(true)
  })

  it('custom calls the condition a plugin registered under the scorer name, with its params', () => {
    const withPlugin = new PluginRegistry()
    withPlugin.register(conditionsCore, 'built-in', 'conditions-core', 'x')
    withPlugin.register(
      {
        apiVersion: 1,
        name: 'scorers',
        version: '1.0.0',
        conditions: [
          {
            name: 'title_has_prefix',
            paramsSchema: {type: 'object', required: ['prefix'], properties: {prefix: {type: 'string'}}},
            evaluate: (actual, params: {prefix: string}) => {
              const title = (actual as {title: string}).title
              return {
                passed: title.startsWith(params.prefix),
                expected: params.prefix,
                actual: title,
                message: `title is ${title}`,
              }
            },
          },
        ],
      },
      'path',
      './scorers.js',
      '/x/scorers.js',
    )
    expect(
      withPlugin.evaluate({type: 'custom', scorer: 'title_has_prefix', params: {prefix: 'Crash'}}, issue).passed,
    ).to.equal(true)
    expect(
      withPlugin.evaluate({type: 'custom', scorer: 'title_has_prefix', params: {prefix: 'Bug'}}, issue).passed,
    ).to.equal(false)
  })
})

describe('conditions-core through the plugin kit’s condition tester', () => {
  // Tested by name, with the params a scenario writes: the tester checks them against the condition's own schema.
  const named = (name: string) => conditionsCore.conditions.find((c) => c.name === name) as unknown as Condition

  it('count_gte: verdicts, messages and expected; params its schema refuses when the scenario loads', () => {
    const results = testCondition(named('count_gte'), [
      {
        actual: threads,
        params: {value: 2},
        passed: true,
        message: 'result.length is 2, expected >= 2',
        expected: '>= 2',
      },
      {actual: issue, params: {path: 'labels', value: 3}, passed: false, message: 'labels.length is 2, expected >= 3'},
      {actual: {items: threads}, params: {value: 1}, passed: false, message: /expected an array with length >= 1$/},
      {name: 'no value', params: {}, refused: true},
      {name: 'a negative count', params: {value: -1}, refused: true},
      {name: 'a misspelt key', params: {value: 1, paht: 'labels'}, refused: true},
    ])
    expect(results.map((r) => r.actual)).to.deep.equal([2, 2, {items: threads}])
  })

  it('field_matches: a pattern that is no regular expression, or a flag given twice, is refused before any run', () => {
    testCondition(named('field_matches'), [
      {actual: issue, params: {path: 'title', pattern: '^crash', flags: 'i'}, passed: true},
      {params: {pattern: '('}, refused: true},
      {params: {pattern: 'a', flags: 'ii'}, refused: true},
    ])
  })

  it('every, not and custom judge the nested conditions of the registry they are tested with', () => {
    const all = conditionsCore.conditions
    testCondition(
      named('every'),
      [
        {
          actual: threads,
          params: {
            where: {type: 'field_gte', path: 'line', value: 18},
            condition: {type: 'field_gte', path: 'comments.length', value: 2},
          },
          passed: true,
        },
        {
          actual: threads,
          params: {condition: {type: 'field_equals', path: 'isResolved', value: true}},
          passed: false,
          message: 'result[1]: isResolved is false, expected true',
        },
        {actual: [], params: {condition: {type: 'non_empty'}}, passed: false, message: 'result has no elements'},
      ],
      {conditions: all},
    )
    testCondition(
      named('not'),
      [{actual: issue, params: {condition: {type: 'field_equals', path: 'state', value: 'CLOSED'}}, passed: true}],
      {conditions: all},
    )
    // Without the nested condition in the registry, the verdict says what is unknown.
    testCondition(named('custom'), [
      {actual: issue, params: {scorer: 'nope'}, passed: false, message: 'unknown condition "nope"'},
    ])
  })
})
