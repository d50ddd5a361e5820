// GitHub's search over the sandbox's state: the qualifiers gh and agents send, REST and GraphQL.
import {expect} from 'chai'
import {RequestError} from '@octokit/request-error'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const R = `${OWNER}/${REPO}`
const base = {owner: OWNER, repo: REPO}

describe('sandbox: search', function () {
  this.timeout(30_000)
  let s: Seeded
  let docs: number
  let gfi: number
  let draft: number

  before(async () => {
    s = await seedSandbox()
    const {agent, reviewer} = s
    await agent.rest.issues.createMilestone({...base, title: 'Sprint 1'})
    await agent.rest.issues.update({
      ...base,
      issue_number: s.issue,
      labels: ['triage', 'bug'],
      milestone: 1,
      assignees: ['ghx-bench-agent'],
    })
    await reviewer.rest.issues.createComment({
      ...base,
      issue_number: s.issue,
      body: 'Stack trace mentions the parser. @ghx-bench-agent',
    })
    docs = (
      await agent.rest.issues.create({
        ...base,
        title: 'Docs typo',
        body: 'The README says teh.',
        labels: ['documentation'],
      })
    ).data.number
    await agent.rest.issues.update({...base, issue_number: docs, state: 'closed', state_reason: 'not_planned'})
    gfi = (await reviewer.rest.issues.create({...base, title: 'Add a verbose flag', labels: ['good first issue']})).data
      .number
    const main = await agent.rest.git.getRef({...base, ref: 'heads/main'})
    await agent.rest.git.createRef({...base, ref: 'refs/heads/agent-draft', sha: main.data.object.sha})
    await agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'src/start.ts',
      message: 'Start faster',
      content: Buffer.from('export const start = 1\n').toString('base64'),
      branch: 'agent-draft',
    })
    draft = (
      await agent.rest.pulls.create({
        ...base,
        title: 'Faster start',
        head: 'agent-draft',
        base: 'main',
        draft: true,
        body: 'Fixes #1',
      })
    ).data.number
    await agent.rest.pulls.requestReviewers({...base, pull_number: draft, reviewers: ['ghx-bench-reviewer']})
  })
  after(() => s.sandbox.close())

  async function issues(q: string, params: Record<string, string> = {}): Promise<number[]> {
    const response = await s.agent.request('GET /search/issues', {q, ...params})
    return response.data.items.map((i) => i.number)
  }
  async function status(run: () => Promise<unknown>): Promise<{status: number; message: string}> {
    try {
      await run()
      return {status: 200, message: ''}
    } catch (error) {
      if (!(error instanceof RequestError)) throw error
      const data = error.response?.data as {message?: string; errors?: Array<{message?: string}>} | undefined
      return {status: error.status, message: data?.errors?.[0]?.message ?? data?.message ?? ''}
    }
  }

  it('issues: kind, state, labels (quoted, lists, excluded), milestone, assignee, author, no:, reason', async () => {
    expect(await issues(`repo:${R} is:issue is:open`)).to.have.members([s.issue, gfi])
    expect(await issues(`repo:${R} is:pr`)).to.have.members([s.pr, draft])
    expect(await issues(`repo:${R} type:issue state:closed`)).to.deep.equal([docs])
    expect(await issues(`repo:${R} label:"good first issue"`)).to.deep.equal([gfi])
    expect(await issues(`repo:${R} label:bug,documentation`)).to.have.members([s.issue, docs])
    expect(await issues(`repo:${R} label:bug label:triage`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} is:issue -label:bug`)).to.have.members([docs, gfi])
    expect(await issues(`repo:${R} milestone:"Sprint 1"`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} assignee:@me`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} author:ghx-bench-reviewer is:issue`)).to.deep.equal([gfi])
    expect(await issues(`repo:${R} is:issue no:label`)).to.deep.equal([])
    expect(await issues(`repo:${R} is:issue is:open no:assignee`)).to.deep.equal([gfi])
    expect(await issues(`repo:${R} is:issue no:milestone`)).to.have.members([docs, gfi])
    expect(await issues(`repo:${R} reason:"not planned"`)).to.deep.equal([docs])
    expect(await issues(`repo:${R} mentions:@me`)).to.deep.equal([s.issue])
    // The reviewer also commented on their pull request's diff: review comments count.
    expect(await issues(`repo:${R} commenter:ghx-bench-reviewer`)).to.have.members([s.issue, s.pr])
    expect(await issues(`repo:${R} involves:ghx-bench-reviewer is:issue`)).to.have.members([s.issue, gfi])
  })

  it('issues: words in the title, body and comments, or where in: says', async () => {
    expect(await issues(`repo:${R} parser`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} parser in:title`)).to.deep.equal([])
    expect(await issues(`repo:${R} parser in:comments`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} "says teh" in:body`)).to.deep.equal([docs])
    expect(await issues(`repo:${R} crash OR typo`)).to.have.members([s.issue, docs])
    expect(await issues(`repo:${R} NOT crash is:issue`)).to.have.members([docs, gfi])
  })

  it('pull requests: draft, review, head, base, status, linked', async () => {
    expect(await issues(`repo:${R} is:pr draft:true`)).to.deep.equal([draft])
    expect(await issues(`repo:${R} is:pr is:draft`)).to.deep.equal([draft])
    expect(await issues(`repo:${R} is:pr draft:false`)).to.deep.equal([s.pr])
    expect(await issues(`repo:${R} is:pr review:required`)).to.deep.equal([draft])
    // The seeded pull request has the reviewer's inline comment (a review); the draft none.
    expect(await issues(`repo:${R} is:pr review:none`)).to.deep.equal([draft])
    expect(await issues(`repo:${R} is:pr review-requested:ghx-bench-reviewer`)).to.deep.equal([draft])
    expect(await issues(`repo:${R} head:bench-bugs base:main`)).to.deep.equal([s.pr])
    expect(await issues(`repo:${R} is:pr status:success`)).to.deep.equal([])
    await s.agent.rest.repos.createCommitStatus({...base, sha: s.prHeadSha, state: 'failure', context: 'ci'})
    expect(await issues(`repo:${R} is:pr status:failure`)).to.deep.equal([s.pr])
    expect(await issues(`repo:${R} is:issue linked:pr`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} is:pr linked:issue`)).to.deep.equal([draft])
    await s.reviewer.rest.pulls.createReview({...base, pull_number: draft, event: 'APPROVE'})
    expect(await issues(`repo:${R} is:pr review:approved`)).to.deep.equal([draft])
    expect(await issues(`repo:${R} is:pr reviewed-by:ghx-bench-reviewer`)).to.have.members([s.pr, draft])
  })

  it('issues: numbers, dates, sorting', async () => {
    expect(await issues(`repo:${R} comments:>0`)).to.deep.equal([s.issue])
    expect(await issues(`repo:${R} comments:0 is:issue`)).to.have.members([docs, gfi])
    const today = new Date().toISOString().slice(0, 10)
    expect(await issues(`repo:${R} is:issue created:${today}`)).to.have.length(3)
    expect(await issues(`repo:${R} is:issue created:<2000-01-01`)).to.deep.equal([])
    expect(await issues(`repo:${R} is:issue created:2000-01-01..*`)).to.have.length(3)
    // Newest first by default; sort= and order= (or the sort: qualifier) choose.
    expect(await issues(`repo:${R} is:issue`)).to.deep.equal([gfi, docs, s.issue])
    expect(await issues(`repo:${R} is:issue`, {sort: 'created', order: 'asc'})).to.deep.equal([s.issue, docs, gfi])
    expect(await issues(`repo:${R} is:issue sort:created-asc`)).to.deep.equal([s.issue, docs, gfi])
    expect((await issues(`repo:${R} is:issue sort:comments-desc`))[0]).to.equal(s.issue)
  })

  it('issues: legacy search ORs repositories, advanced search ANDs them and takes parentheses', async () => {
    await s.agent.rest.repos.createForAuthenticatedUser({name: 'other', auto_init: true})
    const other = (
      await s.agent.rest.issues.create({owner: 'ghx-bench-agent', repo: 'other', title: 'Crash elsewhere'})
    ).data.number
    const both = await s.agent.request('GET /search/issues', {q: `crash repo:${R} repo:ghx-bench-agent/other`})
    expect(both.data.items.map((i) => i.repository_url.split('/repos/')[1])).to.have.members([
      R,
      'ghx-bench-agent/other',
    ])
    expect(await issues(`crash repo:${R} repo:ghx-bench-agent/other`, {advanced_search: 'true'})).to.deep.equal([])
    expect(await issues(`crash (repo:${R} OR repo:ghx-bench-agent/other)`, {advanced_search: 'true'})).to.have.members([
      s.issue,
      other,
    ])
    expect(
      await issues(`repo:${R} is:issue (label:bug OR label:documentation)`, {advanced_search: 'true'}),
    ).to.have.members([s.issue, docs])
  })

  it('answers GitHub’s 422 for a repository or user that does not exist, 501 for teams, and pages with Link', async () => {
    expect(await status(() => s.agent.request('GET /search/issues', {q: 'repo:nobody/nothing crash'}))).to.deep.equal({
      status: 422,
      message:
        'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.',
    })
    expect(
      await status(() => s.agent.request('GET /search/issues', {q: `repo:${R} author:no-such-user`})),
    ).to.deep.equal({
      status: 422,
      message:
        'The listed users cannot be searched either because the users do not exist or you do not have permission to view the users.',
    })
    expect((await status(() => s.agent.request('GET /search/issues', {q: ''}))).status).to.equal(422)
    expect(
      (await status(() => s.agent.request('GET /search/issues', {q: `repo:${R} team-review-requested:ghx-bench/core`})))
        .status,
    ).to.equal(501)
    const page = await s.agent.request('GET /search/issues', {q: `repo:${R}`, per_page: 1})
    expect(page.data.total_count).to.equal(5)
    expect(page.data.incomplete_results).to.equal(false)
    expect(page.data.items).to.have.length(1)
    expect(page.headers.link).to.include('rel="next"')
    const matched = await s.agent.request('GET /search/issues', {
      q: `repo:${R} parser`,
      headers: {accept: 'application/vnd.github.text-match+json'},
    })
    expect(matched.data.items[0]!.text_matches![0]).to.include({property: 'comments.body', object_type: 'Issue'})
  })

  it('repositories, code, commits, users, labels', async () => {
    const repos = await s.agent.request('GET /search/repositories', {q: 'sandbox user:ghx-bench'})
    expect(repos.data.items.map((r) => r.full_name)).to.deep.equal([R])
    expect(
      (await s.agent.request('GET /search/repositories', {q: 'fixtures in:description'})).data.items.map(
        (r) => r.full_name,
      ),
    ).to.include(R)
    expect(
      (await s.agent.request('GET /search/repositories', {q: 'language:typescript user:ghx-bench'})).data.total_count,
    ).to.equal(1)
    const code = await s.agent.request('GET /search/code', {q: `fixtures repo:${R} extension:md`})
    expect(code.data.items.map((i) => i.path)).to.deep.equal(['README.md'])
    expect((await s.agent.request('GET /search/code', {q: `fixtures repo:${R} path:src`})).data.items).to.deep.equal([])
    expect((await status(() => s.agent.request('GET /search/code', {q: `repo:${R}`}))).status).to.equal(422)
    const commits = await s.agent.request('GET /search/commits', {q: `initial repo:${R}`})
    expect(commits.data.items.map((c) => c.commit.message)).to.deep.equal(['Initial commit'])
    expect(
      (await s.agent.request('GET /search/commits', {q: `repo:${R} hash:${commits.data.items[0]!.sha.slice(0, 7)}`}))
        .data.total_count,
    ).to.equal(1)
    expect((await s.agent.request('GET /search/users', {q: 'reviewer'})).data.items.map((u) => u.login)).to.deep.equal([
      'ghx-bench-reviewer',
    ])
    const repo = (await s.agent.rest.repos.get(base)).data
    expect(
      (await s.agent.request('GET /search/labels', {repository_id: repo.id, q: 'good'})).data.items.map((l) => l.name),
    ).to.deep.equal(['good first issue'])
  })

  it('GraphQL: search of ISSUE, ISSUE_ADVANCED, REPOSITORY and USER, with counts, pages and text matches', async () => {
    type Result = {
      search: {
        issueCount: number
        repositoryCount: number
        userCount: number
        discussionCount: number
        pageInfo: {hasNextPage: boolean; endCursor: string}
        edges: Array<{
          cursor: string
          textMatches: Array<{property: string; highlights: Array<{text: string}>}>
          node: {__typename: string; number?: number; nameWithOwner?: string; login?: string}
        }>
      }
    }
    const query = `query($q: String!, $type: SearchType!, $after: String) { search(query: $q, type: $type, first: 1, after: $after) {
      issueCount repositoryCount userCount discussionCount pageInfo { hasNextPage endCursor }
      edges { cursor textMatches { property highlights { text } } node { __typename ... on Issue { number } ... on PullRequest { number } ... on Repository { nameWithOwner } ... on User { login } } } } }`
    const first = await s.agent.graphql<Result>(query, {q: `repo:${R} is:open crash`, type: 'ISSUE'})
    expect(first.search.issueCount).to.equal(1)
    expect(first.search.edges[0]!.node).to.deep.equal({__typename: 'Issue', number: s.issue})
    expect(first.search.edges[0]!.textMatches[0]!.highlights[0]!.text).to.equal('Crash')
    const prs = await s.agent.graphql<Result>(query, {q: `repo:${R} is:pr`, type: 'ISSUE'})
    expect(prs.search.issueCount).to.equal(2)
    expect(prs.search.pageInfo.hasNextPage).to.equal(true)
    const next = await s.agent.graphql<Result>(query, {
      q: `repo:${R} is:pr`,
      type: 'ISSUE',
      after: prs.search.pageInfo.endCursor,
    })
    expect(next.search.edges[0]!.node.__typename).to.equal('PullRequest')
    expect(next.search.pageInfo.hasNextPage).to.equal(false)
    const advanced = await s.agent.graphql<Result>(query, {
      q: `repo:${R} (label:bug OR label:documentation) is:closed`,
      type: 'ISSUE_ADVANCED',
    })
    expect(advanced.search.edges.map((e) => e.node.number)).to.deep.equal([docs])
    const repos = await s.agent.graphql<Result>(query, {q: 'sandbox', type: 'REPOSITORY'})
    expect(repos.search.repositoryCount).to.equal(1)
    expect(repos.search.edges[0]!.node.nameWithOwner).to.equal(R)
    const users = await s.agent.graphql<Result>(query, {q: 'ghx-bench-reviewer', type: 'USER'})
    expect(users.search.edges[0]!.node).to.deep.equal({__typename: 'User', login: 'ghx-bench-reviewer'})
    expect((await s.agent.graphql<Result>(query, {q: 'anything', type: 'DISCUSSION'})).search.discussionCount).to.equal(
      0,
    )
    // GraphQL finds nothing where REST answers 422.
    expect(
      (await s.agent.graphql<Result>(query, {q: 'repo:nobody/nothing', type: 'ISSUE'})).search.issueCount,
    ).to.equal(0)
  })

  it('GraphQL: Repository.issues(filterBy:) as GitHub documents IssueFilters', async () => {
    type Result = {repository: {issues: {nodes: Array<{number: number}>}}}
    const list = async (filterBy: Record<string, unknown>) =>
      (
        await s.agent.graphql<Result>(
          'query($f: IssueFilters) { repository(owner: "ghx-bench", name: "sandbox") { issues(first: 20, filterBy: $f) { nodes { number } } } }',
          {f: filterBy},
        )
      ).repository.issues.nodes.map((n) => n.number)
    expect(await list({mentioned: 'ghx-bench-agent'})).to.deep.equal([s.issue])
    expect(await list({states: ['CLOSED']})).to.deep.equal([docs])
    expect(await list({milestoneNumber: '1'})).to.deep.equal([s.issue])
    expect(await list({milestoneNumber: null})).to.have.members([docs, gfi])
    expect(await list({assignee: '*'})).to.deep.equal([s.issue])
    expect(await list({labels: ['good first issue']})).to.deep.equal([gfi])
    expect(await list({since: '2999-01-01T00:00:00Z'})).to.deep.equal([])
  })
})
