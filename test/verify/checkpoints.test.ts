// The triage scenario's checkpoints, from the catalogue, against the sandbox: they fail before the
// work is done, each with its reason, and pass after it; polling waits for a state that arrives late.
import path from 'node:path'
import {expect} from 'chai'
import {createClient} from '../../src/github/client.js'
import {loadPlugins} from '../../src/plugins/loader.js'
import type {PluginRegistry} from '../../src/plugins/registry.js'
import {readSource} from '../../src/shared/source-document.js'
import type {WorkflowScenario} from '../../src/schemas/scenario.js'
import {evaluateCheckpoints, regradeCheckpoint} from '../../src/verify/checkpoints.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../support/sandbox.js'

describe('checkpoints', () => {
  let s: Seeded
  let registry: PluginRegistry
  let scenario: WorkflowScenario
  let variables: Record<string, unknown>

  before(async () => {
    s = await seedSandbox()
    registry = await loadPlugins({fromDir: PROJECT_ROOT, plugins: [], origin: 'test'})
    const parsed = await readSource(path.join(PROJECT_ROOT, 'suites', 'scenarios', 'issue-triage-comment-wf-001.yml'))
    scenario = parsed.document!.data as WorkflowScenario
    await s.agent.rest.issues.addLabels({owner: OWNER, repo: REPO, issue_number: s.issue, labels: ['bench-fixture']})
    variables = {owner: OWNER, repo: REPO, issue_number: s.issue}
  })
  after(() => s.sandbox.close())

  it('fail before the agent works, each with expected, actual, a reason and the raw result', async () => {
    const {octokit} = createClient({baseUrl: s.sandbox.url, token: s.sandbox.token, retries: 0})
    const results = await evaluateCheckpoints(scenario.assertions.checkpoints, {
      octokit,
      registry,
      variables,
      budgetMs: 0,
    })
    expect(results.map((r) => [r.name, r.passed])).to.deep.equal([
      ['comment_added', false],
      ['enhancement_added', false],
      ['triage_labels_removed', false],
    ])
    expect(results[0]!.message).to.equal('result has no elements')
    expect(results[1]!.message).to.equal('none of the 3 elements of labels passes field_equals')
    expect(results[2]!.message).to.equal(
      'labels[0]: result is "triage", expected to match /^(bench-fixture|bench-seed:.+|enhancement)$/',
    )
    expect(results[1]!.result).to.deep.include({
      number: s.issue,
      labels: ['triage', 'feature-request', 'bench-fixture'],
    })
  })

  it('pass once the issue is triaged; a checkpoint polls until a late change arrives', async () => {
    const {octokit} = createClient({baseUrl: s.sandbox.url, token: s.sandbox.token, retries: 0})
    const base = {owner: OWNER, repo: REPO, issue_number: s.issue}
    await s.agent.rest.issues.removeLabel({...base, name: 'triage'})
    await s.agent.rest.issues.removeLabel({...base, name: 'feature-request'})
    await s.agent.rest.issues.addLabels({...base, labels: ['enhancement']})
    // The comment lands while the first checkpoint is polling.
    setTimeout(() => void s.agent.rest.issues.createComment({...base, body: 'Triaged — tracking as enhancement.'}), 150)
    const results = await evaluateCheckpoints(scenario.assertions.checkpoints, {
      octokit,
      registry,
      variables,
      budgetMs: 5000,
      intervalMs: 50,
    })
    expect(
      results.every((r) => r.passed),
      JSON.stringify(results.map((r) => r.message)),
    ).to.equal(true)
    expect(results[0]!.polls).to.be.greaterThan(1)
  })

  it('a failing task is a failed checkpoint that names the error', async () => {
    const {octokit} = createClient({baseUrl: s.sandbox.url, token: s.sandbox.token, retries: 0})
    const [result] = await evaluateCheckpoints(scenario.assertions.checkpoints.slice(1, 2), {
      octokit,
      registry,
      variables: {...variables, issue_number: 9999},
      budgetMs: 0,
    })
    expect(result).to.include({passed: false, result: null})
    expect(result!.message).to.match(/^issue.view failed: Not Found/)
  })

  it('re-grades a stored result offline', () => {
    const checkpoint = scenario.assertions.checkpoints[1]!
    expect(regradeCheckpoint(checkpoint, {result: {labels: ['enhancement']}}, registry, variables).passed).to.equal(
      true,
    )
    expect(regradeCheckpoint(checkpoint, {result: {labels: []}}, registry, variables).passed).to.equal(false)
  })
})
