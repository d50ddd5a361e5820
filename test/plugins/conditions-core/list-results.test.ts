// Count conditions on real list results: what GitHub-compatible list endpoints return (arrays), read
// from the sandbox with Octokit, judged by the built-in conditions.
import {expect} from 'chai'
import conditionsCore from '../../../plugins/conditions-core/index.js'
import {PluginRegistry} from '../../../src/plugins/registry.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

describe('conditions-core on real list results', () => {
  const registry = new PluginRegistry()
  registry.register(conditionsCore, 'built-in', 'conditions-core', 'plugins/conditions-core/index.ts')
  let s: Seeded
  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  it('count_gte, count_eq and every judge a list of review comments directly', async () => {
    const comments = (await s.agent.rest.pulls.listReviewComments({owner: OWNER, repo: REPO, pull_number: s.pr})).data
    expect(Array.isArray(comments)).to.equal(true)
    expect(registry.evaluate({type: 'count_eq', value: 1}, comments)).to.include({
      passed: true,
      message: 'result.length is 1, expected == 1',
    })
    expect(registry.evaluate({type: 'count_gte', value: 3}, comments)).to.include({
      passed: false,
      message: 'result.length is 1, expected >= 3',
    })
    expect(
      registry.evaluate(
        {type: 'every', condition: {type: 'field_equals', path: 'path', value: 'src/utils/stats.ts'}},
        comments,
      ).passed,
    ).to.equal(true)
    expect(
      registry.evaluate(
        {type: 'empty'},
        (await s.agent.rest.issues.listComments({owner: OWNER, repo: REPO, issue_number: s.issue})).data,
      ).passed,
    ).to.equal(true)
  })
})
