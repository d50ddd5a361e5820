// Check runs an App reports on a commit (POST check-runs), beside Actions' jobs: GitHub's shape in
// REST, its rules (a completed run needs a conclusion), and the commit's checks in GraphQL's rollup
// and in gh pr checks.
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: reported check runs', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  it('creates a check run on a commit, lists and gets it; a completed one needs a conclusion', async () => {
    const created = await s.reviewer.rest.checks.create({
      ...base,
      head_sha: s.prHeadSha,
      name: 'ci/build',
      status: 'completed',
      conclusion: 'success',
      details_url: 'https://ci.example/build/1',
      output: {title: 'Build passed', summary: 'All 12 steps passed.'},
    })
    expect(created.status).to.equal(201)
    expect(created.data).to.deep.include({
      head_sha: s.prHeadSha,
      name: 'ci/build',
      status: 'completed',
      conclusion: 'success',
      details_url: 'https://ci.example/build/1',
    })
    expect(created.data.output).to.deep.include({title: 'Build passed', summary: 'All 12 steps passed.', text: null})
    const listed = await s.agent.rest.checks.listForRef({...base, ref: 'bench-bugs'})
    expect(listed.data.check_runs.map((run) => run.id)).to.deep.equal([created.data.id])
    expect((await s.agent.rest.checks.get({...base, check_run_id: created.data.id})).data.name).to.equal('ci/build')
    const refused = await failure(
      s.reviewer.rest.checks.create({...base, head_sha: s.prHeadSha, name: 'ci/x', status: 'completed'}),
    )
    expect(refused.status).to.equal(422)
  })

  it('is a context of the head commit’s status check rollup, and gh pr checks reports it', async function () {
    type Rollup = {state: string; contexts: {nodes: Array<{name: string; conclusion: string}>}}
    const data = await s.agent.graphql<{
      repository: {pullRequest: {commits: {nodes: Array<{commit: {statusCheckRollup: Rollup}}>}}}
    }>(
      `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") { pullRequest(number: $n) { commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { nodes { ... on CheckRun { name conclusion } } } } } } } } } }`,
      {n: s.pr},
    )
    const rollup = data.repository.pullRequest.commits.nodes[0]!.commit.statusCheckRollup
    expect(rollup.state).to.equal('SUCCESS')
    expect(rollup.contexts.nodes).to.deep.equal([{name: 'ci/build', conclusion: 'SUCCESS'}])
    skipWithoutGh(this)
    const checks = await (await ghFor(s.sandbox))(['pr', 'checks', String(s.pr), '-R', `${OWNER}/${REPO}`])
    expect(checks.code, checks.stderr).to.equal(0)
    expect(checks.stdout).to.match(/^ci\/build\tpass\t/m)
  })
})
