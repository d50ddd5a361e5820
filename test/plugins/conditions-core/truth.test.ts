// The truth conditions: an answer judged against what GitHub holds, as each arm spells it.
import {expect} from 'chai'
import type {ConditionSpec} from 'ghx-bench'
import conditionsCore, {identityOf} from '../../../plugins/conditions-core/index.js'
import {PluginRegistry} from '../../../src/plugins/registry.js'

const registry = new PluginRegistry()
registry.register(conditionsCore, 'built-in', 'conditions-core', 'plugins/conditions-core/index.ts')
const check = (spec: ConditionSpec, actual: unknown) => registry.evaluate(spec, actual)

// What the issue.list read task returns, and what three arms answer for the same open issues.
const openIssues = [
  {number: 3, title: 'Crash on start', state: 'OPEN', labels: ['bug']},
  {number: 5, title: 'Add dark mode', state: 'OPEN', labels: ['enhancement']},
]
const ghAnswer = [
  {number: 5, title: 'Add dark mode', state: 'OPEN', labels: [{id: 'L1', name: 'enhancement'}]},
  {number: 3, title: 'Crash on start', state: 'OPEN', labels: []},
]
const ghxAnswer = {
  items: [
    {id: 'I_3', number: 3, title: 'Crash on start', state: 'OPEN', url: 'u'},
    {id: 'I_5', number: 5, title: 'Add dark mode', state: 'OPEN', url: 'u'},
  ],
  pageInfo: {hasNextPage: false, endCursor: null},
}

describe('conditions-core: truth conditions', () => {
  it('identityOf: text case-folded and trimmed, digits alike, objects by name, login, number or id', () => {
    expect(identityOf('  OPEN ')).to.equal('open')
    expect(identityOf(5)).to.equal(identityOf('5'))
    expect(identityOf({id: 'L1', name: 'Enhancement'})).to.equal('enhancement')
    expect(identityOf({login: 'octocat'})).to.equal('octocat')
    expect(identityOf({color: 'fff'})).to.equal(undefined)
    expect(identityOf(null)).to.equal(undefined)
  })

  describe('same_items', () => {
    it('passes the arms’ answers that name the same items, whatever their shape (a list, a page)', () => {
      for (const answer of [ghAnswer, ghxAnswer])
        expect(check({type: 'same_items', value: answer, key: 'number'}, openIssues).passed).to.equal(true)
    })
    it('fails an empty answer, an echoed input, a made-up item and a missing one, saying which', () => {
      expect(check({type: 'same_items', value: [], key: 'number'}, openIssues).message).to.match(/lacks \["3","5"\]/)
      expect(
        check({type: 'same_items', value: {owner: 'o', name: 'r', state: 'open'}, key: 'number'}, openIssues).message,
      ).to.match(/expected a list/)
      const madeUp = check({type: 'same_items', value: [...ghAnswer, {number: 99}], key: 'number'}, openIssues)
      expect(madeUp.passed).to.equal(false)
      expect(madeUp.message).to.match(/names \["99"\]/)
      expect(check({type: 'same_items', value: [{number: 3}], key: 'number'}, openIssues).passed).to.equal(false)
    })
    it('contains: extra items allowed; within: every item of value must be held', () => {
      expect(
        check({type: 'same_items', value: [...ghAnswer, {number: 99}], key: 'number', match: 'contains'}, openIssues)
          .passed,
      ).to.equal(true)
      expect(
        check(
          {type: 'same_items', path: 'labels', value: ['enhancement'], match: 'within'},
          {labels: ['bench-fixture', 'enhancement']},
        ).passed,
      ).to.equal(true)
      expect(
        check(
          {type: 'same_items', path: 'labels', value: ['wontfix'], match: 'within'},
          {labels: ['bench-fixture', 'enhancement']},
        ).passed,
      ).to.equal(false)
    })
    it('an empty truth (or an empty value under within) never passes: the check could not tell right from empty', () => {
      const none = check({type: 'same_items', value: [], key: 'number'}, [])
      expect(none.passed).to.equal(false)
      expect(none.message).to.match(/fewer than 1: the check cannot tell a right answer from an empty one/)
      expect(check({type: 'same_items', path: 'labels', value: [], match: 'within'}, {labels: ['a']}).passed).to.equal(
        false,
      )
      expect(check({type: 'same_items', value: [], key: 'number', min: 0}, []).passed).to.equal(true)
    })
    it('fails when the value is missing (no answer: null)', () => {
      expect(check({type: 'same_items', value: null, key: 'number'}, openIssues).passed).to.equal(false)
    })
  })

  describe('agrees_with', () => {
    it('the same fact in another spelling agrees: OPEN and open, 5 and "5", label objects and names in any order', () => {
      expect(check({type: 'agrees_with', path: 'state', value: 'open'}, {state: 'OPEN'}).passed).to.equal(true)
      expect(check({type: 'agrees_with', path: 'number', value: '5'}, {number: 5}).passed).to.equal(true)
      expect(
        check(
          {type: 'agrees_with', path: 'labels', value: [{name: 'enhancement'}, {name: 'bug'}]},
          {labels: ['bug', 'enhancement']},
        ).passed,
      ).to.equal(true)
    })
    it('a different fact, a missing answer field, or a list against a scalar disagrees', () => {
      expect(
        check({type: 'agrees_with', path: 'title', value: 'title of issue.view'}, {title: 'Crash on start'}).passed,
      ).to.equal(false)
      expect(check({type: 'agrees_with', path: 'title', value: null}, {title: 'Crash on start'}).passed).to.equal(false)
      expect(check({type: 'agrees_with', path: 'title', value: null}, {title: null}).passed).to.equal(false)
      expect(check({type: 'agrees_with', path: 'labels', value: 'bug'}, {labels: ['bug']}).passed).to.equal(false)
      expect(
        check({type: 'agrees_with', path: 'labels', value: ['bug']}, {labels: ['bug', 'enhancement']}).passed,
      ).to.equal(false)
    })
  })

  describe('mentioned_in', () => {
    const run = {jobs: [{name: 'test', conclusion: 'FAILURE'}], failedStep: 'Run unit tests'}
    it('finds the value in a text or in an answer read as JSON, case and spacing aside', () => {
      expect(
        check(
          {type: 'mentioned_in', path: 'failedStep', text: 'The job test failed at the step "run  unit tests".'},
          run,
        ).passed,
      ).to.equal(true)
      expect(check({type: 'mentioned_in', path: 'jobs', text: {diagnosis: 'job TEST failed'}}, run).passed).to.equal(
        true,
      )
    })
    it('fails a text that does not mention it, an empty list, or a value below min_length', () => {
      const missing = check({type: 'mentioned_in', path: 'failedStep', text: 'Done: 2 step(s) completed.'}, run)
      expect(missing.passed).to.equal(false)
      expect(missing.message).to.match(/does not mention \["run unit tests"\]/)
      expect(check({type: 'mentioned_in', path: 'none', text: 'x'}, {none: []}).passed).to.equal(false)
      expect(check({type: 'mentioned_in', path: 'id', text: 'run 7 failed', min_length: 3}, {id: 7}).passed).to.equal(
        false,
      )
    })
  })
})
