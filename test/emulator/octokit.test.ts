// Octokit, unmodified, against the sandbox: REST through baseUrl, GraphQL through octokit.graphql.
import {expect} from 'chai'
import {Octokit} from '@octokit/rest'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: Octokit', () => {
  let s: Seeded
  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  it('reads and writes issues, labels and comments', async () => {
    const issue = await s.agent.rest.issues.get({...base, issue_number: s.issue})
    expect(issue.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).to.deep.equal([
      'triage',
      'feature-request',
    ])
    await s.agent.rest.issues.removeLabel({...base, issue_number: s.issue, name: 'triage'})
    await s.agent.rest.issues.addLabels({...base, issue_number: s.issue, labels: ['enhancement']})
    await s.agent.rest.issues.createComment({
      ...base,
      issue_number: s.issue,
      body: 'Triaged — tracking as enhancement.',
    })
    const after = await s.agent.rest.issues.get({...base, issue_number: s.issue})
    expect(after.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).to.deep.equal([
      'feature-request',
      'enhancement',
    ])
    expect(after.data.comments).to.equal(1)
    const closed = await s.agent.rest.issues.update({
      ...base,
      issue_number: s.issue,
      state: 'closed',
      state_reason: 'not_planned',
    })
    expect(closed.data).to.include({state: 'closed', state_reason: 'not_planned'})
    await s.agent.rest.issues.update({...base, issue_number: s.issue, state: 'open'})
  })

  it('paginates with Link headers, as octokit.paginate follows them', async () => {
    for (let i = 0; i < 7; i++) await s.agent.rest.issues.create({...base, title: `Paged ${i}`})
    const pages: number[] = []
    for await (const page of s.agent.paginate.iterator(s.agent.rest.issues.listForRepo, {
      ...base,
      per_page: 3,
      state: 'all',
    }))
      pages.push(page.data.length)
    expect(pages.reduce((a, b) => a + b, 0)).to.equal(9) // the seeded issue, the PR and 7 more
    expect(pages[0]).to.equal(3)
  })

  it('serves a pull request with real files, a patch and a diff, reviews and review comments', async () => {
    const files = await s.agent.rest.pulls.listFiles({...base, pull_number: s.pr})
    expect(files.data.map((f) => [f.filename, f.status, f.additions])).to.deep.equal([
      ['src/utils/stats.ts', 'added', 12],
    ])
    expect(files.data[0]!.patch).to.match(/^@@ -0,0 \+1,12 @@\n\+export function average/)
    const diff = await s.agent.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...base,
      pull_number: s.pr,
      mediaType: {format: 'diff'},
    })
    expect(diff.data).to.match(
      /^diff --git a\/src\/utils\/stats.ts b\/src\/utils\/stats.ts\nnew file mode 100644\nindex 0000000\.\.[0-9a-f]{7}\n--- \/dev\/null\n\+\+\+ b\/src\/utils\/stats.ts\n@@/,
    )
    const review = await s.agent.rest.pulls.createReview({
      ...base,
      pull_number: s.pr,
      event: 'REQUEST_CHANGES',
      body: 'Three bugs.',
      comments: [4, 8, 12].map((line) => ({path: 'src/utils/stats.ts', line, body: `bug on line ${line}`})),
    })
    expect(review.data.state).to.equal('CHANGES_REQUESTED')
    const comments = await s.agent.rest.pulls.listReviewComments({...base, pull_number: s.pr})
    expect(comments.data.map((c) => c.line)).to.deep.equal([2, 4, 8, 12])
  })

  it('refuses a review comment on a line outside the diff with GitHub’s 422', async () => {
    const error = await s.agent.rest.pulls
      .createReviewComment({
        ...base,
        pull_number: s.pr,
        body: 'x',
        path: 'src/utils/stats.ts',
        line: 99,
        side: 'RIGHT',
        commit_id: s.prHeadSha,
      })
      .catch((e: {status: number; response: {data: {message: string; errors: Array<{message: string}>}}}) => e)
    expect(error).to.have.property('status', 422)
    expect((error as {response: {data: {errors: Array<{message: string}>}}}).response.data.errors[0]!.message).to.equal(
      'pull_request_review_thread.line must be part of the diff',
    )
  })

  it('resolves and unresolves review threads through GraphQL, and lists them', async () => {
    const resolve = await s.agent.graphql<{resolveReviewThread: {thread: {isResolved: boolean}}}>(
      'mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }',
      {id: s.threadIds[0]},
    )
    expect(resolve.resolveReviewThread.thread.isResolved).to.equal(true)
    const reply = await s.agent.graphql<{addPullRequestReviewThreadReply: {comment: {body: string}}}>(
      'mutation($id: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: "Fixed."}) { comment { body } } }',
      {id: s.threadIds[0]},
    )
    expect(reply.addPullRequestReviewThreadReply.comment.body).to.equal('Fixed.')
    const threads = await s.agent.graphql<{
      repository: {pullRequest: {reviewThreads: {nodes: Array<{isResolved: boolean; comments: {totalCount: number}}>}}}
    }>(
      'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { reviewThreads(first: 50) { nodes { isResolved comments(first: 10) { totalCount } } } } } }',
      {n: s.pr},
    )
    expect(threads.repository.pullRequest.reviewThreads.nodes[0]).to.deep.equal({
      isResolved: true,
      comments: {totalCount: 2},
    })
  })

  it('runs a dispatched workflow through queued, in progress and completed; the rerun of failed jobs succeeds', async () => {
    const first = await waitForRun(s.agent, s.runId)
    expect(first).to.include({conclusion: 'failure', run_attempt: 1})
    const jobs = await s.agent.rest.actions.listJobsForWorkflowRun({...base, run_id: s.runId})
    const failed = jobs.data.jobs.find((j) => j.conclusion === 'failure')!
    expect(failed.name).to.equal('verify')
    const log = await s.agent.rest.actions.downloadJobLogsForWorkflowRun({...base, job_id: failed.id})
    expect(String(log.data)).to.include('Error: simulated failure on attempt 1 (seed test)')
    await s.agent.rest.actions.reRunWorkflowFailedJobs({...base, run_id: s.runId})
    const queued = await s.agent.rest.actions.getWorkflowRun({...base, run_id: s.runId})
    expect(queued.data.run_attempt).to.equal(2)
    expect(queued.data.status).to.be.oneOf(['queued', 'in_progress'])
    expect(await waitForRun(s.agent, s.runId)).to.include({conclusion: 'success', run_attempt: 2})
  })

  it('creates, updates and publishes a draft release', async () => {
    const updated = await s.agent.rest.repos.updateRelease({...base, release_id: s.releaseId, body: 'Notes.'})
    expect(updated.data).to.include({draft: true, body: 'Notes.', published_at: null})
    const published = await s.agent.rest.repos.updateRelease({...base, release_id: s.releaseId, draft: false})
    expect(published.data.draft).to.equal(false)
    expect(published.data.published_at).to.be.a('string')
    const byTag = await s.agent.rest.repos.getReleaseByTag({...base, tag: 'v0.1.0-bench'})
    expect(byTag.data.id).to.equal(s.releaseId)
  })

  it('keeps Projects v2 through GraphQL: create, add an issue, set a single-select field', async () => {
    const viewer = await s.agent.graphql<{viewer: {id: string; login: string}}>('{ viewer { id login } }')
    const created = await s.agent.graphql<{
      createProjectV2: {
        projectV2: {
          id: string
          number: number
          fields: {nodes: Array<{id: string; name: string; options?: Array<{id: string; name: string}>}>}
        }
      }
    }>(
      'mutation($owner: ID!) { createProjectV2(input: {ownerId: $owner, title: "GHX Bench Fixtures"}) { projectV2 { id number fields(first: 10) { nodes { ... on ProjectV2FieldCommon { id name } ... on ProjectV2SingleSelectField { options { id name } } } } } } }',
      {owner: viewer.viewer.id},
    )
    const project = created.createProjectV2.projectV2
    const issue = await s.agent.rest.issues.get({...base, issue_number: s.issue})
    const added = await s.agent.graphql<{addProjectV2ItemById: {item: {id: string}}}>(
      'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
      {p: project.id, c: issue.data.node_id},
    )
    const status = project.fields.nodes.find((f) => f.name === 'Status')!
    await s.agent.graphql(
      'mutation($p: ID!, $i: ID!, $f: ID!, $o: String!) { updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f, value: {singleSelectOptionId: $o}}) { projectV2Item { id } } }',
      {p: project.id, i: added.addProjectV2ItemById.item.id, f: status.id, o: status.options![2]!.id},
    )
    const items = await s.agent.graphql<{
      user: {projectV2: {items: {nodes: Array<{fieldValueByName: {name: string}; content: {number: number}}>}}}
    }>(
      'query($n: Int!) { user(login: "ghx-bench-agent") { projectV2(number: $n) { items(first: 10) { nodes { content { ... on Issue { number } } fieldValueByName(name: "Status") { ... on ProjectV2ItemFieldSingleSelectValue { name } } } } } } }',
      {n: project.number},
    )
    expect(items.user.projectV2.items.nodes).to.deep.equal([
      {content: {number: s.issue}, fieldValueByName: {name: 'Done'}},
    ])
  })

  it('answers GitHub’s 401 without a token, 404 for an unknown route, 501 naming an operation it does not model', async () => {
    const anonymous = new Octokit({baseUrl: s.sandbox.url, log: {debug() {}, info() {}, warn() {}, error() {}}})
    const unauth = await anonymous.rest.issues
      .get({...base, issue_number: s.issue})
      .catch((e: {status: number; response: {data: unknown}}) => e)
    expect(unauth).to.deep.include({status: 401})
    expect((unauth as {response: {data: unknown}}).response.data).to.deep.include({
      message: 'Requires authentication',
      documentation_url: 'https://docs.github.com/rest',
    })
    const unknown = await s.agent.request('GET /nope/nothing').catch((e: {status: number}) => e)
    expect(unknown).to.have.property('status', 404)
    const unmodelled = await s.agent.rest.reactions
      .createForRelease({...base, release_id: s.releaseId, content: 'heart'})
      .catch((e: {status: number; response: {data: {message: string}}}) => e)
    expect(unmodelled).to.have.property('status', 501)
    expect((unmodelled as {response: {data: {message: string}}}).response.data.message).to.equal(
      `ghx-bench sandbox does not model reactions/create-for-release (POST /repos/ghx-bench/sandbox/releases/${s.releaseId}/reactions)`,
    )
  })

  it('sends the headers clients read: rate limits and a request id', async () => {
    const response = await s.agent.rest.repos.get(base)
    expect(response.headers).to.include.keys(
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-used',
      'x-github-request-id',
    )
    expect(response.data.full_name).to.equal('ghx-bench/sandbox')
  })

  it('serves the Enterprise layout: REST under /api/v3 and GraphQL at /api/graphql', async () => {
    const ghes = new Octokit({auth: s.sandbox.token, baseUrl: `${s.sandbox.url}/api/v3`})
    const repo = await ghes.rest.repos.get(base)
    expect(repo.data.url).to.equal(`${s.sandbox.url}/api/v3/repos/ghx-bench/sandbox`)
    const viewer = await ghes.graphql<{viewer: {login: string}}>('{ viewer { login } }')
    expect(viewer.viewer.login).to.equal('ghx-bench-agent')
  })

  it('fails an invalid GraphQL query as GitHub does, before running it', async () => {
    const error = await s.agent
      .graphql(
        '{ repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: 1) { reviewThredz { totalCount } } } }',
      )
      .catch((e: {errors: Array<{message: string}>}) => e)
    expect((error as {errors: Array<{message: string}>}).errors[0]!.message).to.equal(
      'Cannot query field "reviewThredz" on type "PullRequest". Did you mean "reviewThreads"?',
    )
  })

  it('names a GraphQL field it does not model with HTTP 501', async () => {
    const error = await s.agent
      .graphql('{ repository(owner: "ghx-bench", name: "sandbox") { deployKeys(first: 1) { totalCount } } }')
      .catch((e: {status: number; message: string}) => e)
    expect(error).to.have.property('status', 501)
    expect((error as {message: string}).message).to.include('ghx-bench sandbox does not model Repository.deployKeys')
  })
})
