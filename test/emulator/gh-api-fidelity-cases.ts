// The `gh api` calls of the gh fidelity suite (gh-fidelity.e2e.test.ts), in the proportion live agents
// send them (53 of 74 gh calls in the published sessions) and of the kinds they send: REST reads whole
// (each answer then validated against GitHub's OpenAPI description by the suite) or cut with --jq,
// --paginate over Link headers, -f/-F fields and typed -F values, nested `inputs[key]=` fields, JSON
// bodies through --input -, -X PATCH/PUT/DELETE, and GraphQL queries and mutations with variables
// (and `gh api graphql --paginate` over $endCursor).
import {expect} from 'chai'
import {OWNER, REPO, type Seeded} from '../support/sandbox.js'

export const R = `${OWNER}/${REPO}`

/** What the seeding made, for the commands to name. */
export interface Fixture {
  s: Seeded
  docsIssue: number
  gfiIssue: number
  draftPr: number
  approvedPr: number
  mergedPr: number
  failedJobId: number
  /** Ids the `gh api` calls name, read once the seeding is done. */
  ids: FixtureIds
  /** Made by the commands themselves, in order. */
  created: Record<string, number | string>
}

export interface FixtureIds {
  mainSha: string
  readmeBlobSha: string
  repoId: number
  repoNodeId: string
  issueNodeId: string
  issueCommentId: number
  reviewCommentId: number
  approvalId: number
  approvedPrNodeId: string
  bugLabelId: string
  agentNodeId: string
  reviewerNodeId: string
  checkRunId: number
  checkSuiteId: number
  gfiIssueId: number
}

export interface Case {
  args: (f: Fixture) => string[]
  /** What `--input -` reads. */
  input?: (f: Fixture) => string
  /** `gh issue status` and `gh pr status` answer --json with these groups, each a list of the fields asked for. */
  groups?: string[]
  /** Results the seeded state must give (a --json list that may be empty says so). */
  empty?: boolean
  check?: (out: string, f: Fixture) => void
}

export type Json = Record<string, unknown>

const lines = (out: string) => out.split('\n').filter(Boolean)
const json = <T = Json>(out: string) => JSON.parse(out) as T
const q = (query: string) => `query=${query}`
/** A REST read as agents send it: the path, then their flags. */
const get = (path: (f: Fixture) => string, ...flags: string[]) => ({args: (f: Fixture) => ['api', path(f), ...flags]})
const repo = (rest: string) => `repos/${R}${rest}`
/** The repository's variables, as agents pass them to a GraphQL query. */
const repoVars = ['-F', `owner=${OWNER}`, '-F', `name=${REPO}`]

/** Reads of the seeded state, before any command changes it. */
export const API_READS: Case[] = [
  // REST, whole answers (validated against GitHub's description)
  get(() => repo('')),
  get((f) => repo(`/issues/${f.s.issue}`)),
  {
    ...get(() => repo('/issues?state=all&per_page=100')),
    check: (out) => expect(json<Json[]>(out)).to.have.length.at.least(4),
  },
  {
    ...get(() => repo('/issues?labels=bug')),
    check: (out, f) => expect(json<Json[]>(out).map((i) => i.number)).to.deep.equal([f.s.issue]),
  },
  {
    ...get(() => repo('/issues?assignee=ghx-bench-agent')),
    check: (out, f) => expect(json<Json[]>(out).map((i) => i.number)).to.include(f.s.issue),
  },
  {
    ...get(() => repo('/issues?creator=ghx-bench-reviewer')),
    check: (out, f) => expect(json<Json[]>(out).map((i) => i.number)).to.include(f.gfiIssue),
  },
  {
    ...get(() => repo('/issues?milestone=1')),
    check: (out, f) => expect(json<Json[]>(out).map((i) => i.number)).to.deep.equal([f.s.issue]),
  },
  {
    ...get(() => repo('/issues?state=closed')),
    check: (out, f) => expect(json<Json[]>(out).map((i) => i.number)).to.include(f.docsIssue),
  },
  get(() => repo('/issues?sort=updated&direction=desc&per_page=5')),
  get((f) => repo(`/issues/${f.s.issue}/comments`)),
  get((f) => repo(`/issues/${f.s.issue}/labels`)),
  get((f) => repo(`/issues/${f.s.issue}/timeline`)),
  get((f) => repo(`/issues/${f.s.issue}/events`)),
  get((f) => repo(`/issues/${f.s.issue}/reactions`)),
  get(() => repo('/issues/comments')),
  get((f) => repo(`/issues/comments/${f.ids.issueCommentId}`)),
  get(() => repo('/issues/events')),
  get(() => repo('/labels')),
  get(() => repo('/labels/bug')),
  get(() => repo('/milestones')),
  get(() => repo('/milestones/1')),
  get(() => repo('/assignees')),
  get(() => repo('/collaborators')),
  get(() => repo('/collaborators/ghx-bench-reviewer/permission')),
  get(() => repo('/pulls')),
  {
    ...get(() => repo('/pulls?state=closed')),
    check: (out, f) => expect(json<Json[]>(out).map((p) => p.number)).to.include(f.mergedPr),
  },
  {
    ...get(() => repo(`/pulls?head=${OWNER}:agent-errors`)),
    check: (out, f) => expect(json<Json[]>(out).map((p) => p.number)).to.deep.equal([f.approvedPr]),
  },
  get(() => repo('/pulls?base=main&sort=updated&direction=desc')),
  get((f) => repo(`/pulls/${f.s.pr}`)),
  get((f) => repo(`/pulls/${f.s.pr}/files`)),
  get((f) => repo(`/pulls/${f.s.pr}/commits`)),
  get((f) => repo(`/pulls/${f.approvedPr}/reviews`)),
  get((f) => repo(`/pulls/${f.approvedPr}/reviews/${f.ids.approvalId}`)),
  get((f) => repo(`/pulls/${f.approvedPr}/reviews/${f.ids.approvalId}/comments`)),
  get((f) => repo(`/pulls/comments/${f.ids.reviewCommentId}`)),
  get((f) => repo(`/pulls/${f.draftPr}/requested_reviewers`)),
  get(() => repo('/commits')),
  get(() => repo('/commits?sha=agent-empty&per_page=3')),
  get(() => repo('/commits/main')),
  get((f) => repo(`/commits/${f.s.prHeadSha}/statuses`)),
  get((f) => repo(`/commits/${f.s.prHeadSha}/check-suites`)),
  get((f) => repo(`/commits/${f.s.prHeadSha}/branches-where-head`)),
  get((f) => repo(`/commits/${f.s.prHeadSha}/comments`)),
  get((f) => repo(`/check-runs/${f.ids.checkRunId}`)),
  get((f) => repo(`/check-runs/${f.ids.checkRunId}/annotations`)),
  get((f) => repo(`/check-suites/${f.ids.checkSuiteId}`)),
  get(() => repo('/branches/main')),
  get(() => repo('/branches?per_page=100')),
  get(() => repo('/compare/main...agent-empty')),
  get(() => repo('/contents/README.md')),
  get(() => repo('/contents')),
  get(() => repo('/contents/src?ref=agent-empty')),
  get(() => repo('/git/ref/heads/main')),
  get(() => repo('/git/matching-refs/heads/agent')),
  get((f) => repo(`/git/commits/${f.ids.mainSha}`)),
  get(() => repo('/git/trees/main')),
  get((f) => repo(`/git/blobs/${f.ids.readmeBlobSha}`)),
  get(() => repo('/readme')),
  get(() => repo('/tags')),
  get(() => repo('/releases')),
  get(() => repo('/releases/latest')),
  get(() => repo('/releases/tags/v1.0.0')),
  get((f) => repo(`/releases/${f.s.releaseId}`)),
  get(() => repo('/actions/workflows')),
  get(() => repo('/actions/workflows/bench-rerun-failed.yml')),
  get(() => repo('/actions/workflows/bench-rerun-failed.yml/runs')),
  get(() => repo('/actions/runs')),
  get(() => repo('/actions/runs?status=failure')),
  get((f) => repo(`/actions/runs/${f.s.runId}`)),
  get((f) => repo(`/actions/runs/${f.s.runId}/jobs`)),
  get((f) => repo(`/actions/runs/${f.s.runId}/attempts/1`)),
  get((f) => repo(`/actions/jobs/${f.failedJobId}`)),
  get(() => repo('/actions/artifacts')),
  get(() => repo('/languages')),
  get(() => repo('/topics')),
  get(() => repo('/contributors')),
  get(() => repo('/forks')),
  get(() => 'user'),
  get(() => 'users/ghx-bench-reviewer'),
  get(() => 'user/repos'),
  get(() => `users/${OWNER}/repos`),
  get(() => 'rate_limit'),
  get(() => `search/issues?q=${encodeURIComponent(`repo:${R} is:issue label:bug`)}`),
  get(() => `search/issues?q=${encodeURIComponent(`repo:${R} is:issue is:closed`)}`),
  get(() => `search/repositories?q=${encodeURIComponent(`sandbox user:${OWNER}`)}`),
  get(() => `search/commits?q=${encodeURIComponent(`repo:${R} stats`)}`),
  get(() => 'search/users?q=ghx-bench'),
  get((f) => `search/labels?repository_id=${f.ids.repoId}&q=bug`),

  // REST, cut with --jq as agents do
  {
    ...get(() => repo('/issues?state=open'), '--jq', '.[] | {number, title, labels: [.labels[].name]}'),
    check: (out, f) => expect(lines(out).map((l) => json(l).number)).to.include(f.s.issue),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}`), '--jq', '.body'),
    check: (out) => expect(out.trim()).to.equal('It crashes.'),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}`), '--jq', '.assignees[].login'),
    check: (out) => expect(out.trim()).to.equal('ghx-bench-agent'),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}`), '--jq', '.milestone.title'),
    check: (out) => expect(out.trim()).to.equal('v1.0'),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}/labels`), '--jq', '.[].name'),
    check: (out) => expect(lines(out)).to.have.members(['triage', 'feature-request', 'bug']),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}/timeline`), '--jq', '.[] | select(.event == "labeled") | .label.name'),
    check: (out) => expect(lines(out)).to.include('bug'),
  },
  {
    ...get(() => repo('/issues/comments'), '--jq', '.[] | {id, body}'),
    check: (out) => expect(out).to.include('can you take a look?'),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}`), '--jq', '.mergeable_state'),
    check: (out) => expect(out.trim()).to.equal('clean'),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}`), '--jq', '.head.ref, .base.ref'),
    check: (out) => expect(lines(out)).to.deep.equal(['bench-bugs', 'main']),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}`), '--jq', '.user.login'),
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    ...get(() => repo('/pulls'), '--jq', '.[] | "\\(.number)\\t\\(.title)\\t\\(.head.ref)"'),
    check: (out, f) => expect(out).to.include(`${f.s.pr}\tAdd stats helpers\tbench-bugs`),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/files`), '--jq', '.[] | {filename, status, additions, deletions}'),
    check: (out) => expect(json(out)).to.deep.include({filename: 'src/utils/stats.ts', status: 'added'}),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/files`), '--jq', '.[].patch'),
    check: (out) => expect(out).to.match(/^@@ -0,0 \+1,\d+ @@/),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/comments`), '--jq', '.[] | {id, path, line, body, user: .user.login}'),
    check: (out) => expect(json(out)).to.deep.include({path: 'src/utils/stats.ts', line: 2, body: 'Is this right?'}),
  },
  {
    ...get((f) => repo(`/pulls/${f.approvedPr}/reviews`), '--jq', '.[] | {user: .user.login, state, submitted_at}'),
    check: (out) => expect(json(out)).to.deep.include({user: 'ghx-bench-reviewer', state: 'APPROVED'}),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/commits`), '--jq', '.[].commit.message'),
    check: (out) => expect(out.trim()).to.equal('Add stats'),
  },
  {
    ...get((f) => repo(`/commits/${f.s.prHeadSha}`), '--jq', '.files[].filename'),
    check: (out) => expect(out.trim()).to.equal('src/utils/stats.ts'),
  },
  {...get(() => repo('/commits/main'), '--jq', '.sha'), check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha)},
  {
    ...get(() => repo('/commits?path=README.md'), '--jq', '.[0].commit.message'),
    check: (out) => expect(out.trim()).to.not.equal(''),
  },
  {
    ...get(() => repo('/branches/main'), '--jq', '.commit.sha'),
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {
    ...get(() => repo('/git/ref/heads/main'), '--jq', '.object.sha'),
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {
    ...get(() => repo('/contents/src/empty.ts?ref=agent-empty'), '--jq', '.content | @base64d'),
    check: (out) => expect(out).to.equal('export const empty = (xs: number[]) => xs.length === 0\n\n'),
  },
  {
    ...get(() => repo('/contents/src?ref=agent-empty'), '--jq', '.[].name'),
    check: (out) => expect(lines(out)).to.include('empty.ts'),
  },
  {
    ...get(() => repo('/git/trees/main?recursive=1'), '--jq', '.tree[] | select(.type == "blob") | .path'),
    check: (out) => expect(lines(out)).to.include('README.md'),
  },
  {
    ...get(() => repo('/compare/main...agent-errors'), '--jq', '.status'),
    check: (out) => expect(out.trim()).to.equal('diverged'),
  },
  {
    ...get(() => repo('/actions/runs'), '--jq', '.workflow_runs[] | {id, name, status, conclusion}'),
    check: (out, f) => expect(lines(out).map((l) => json(l).id)).to.include(f.s.runId),
  },
  {
    ...get(() => repo('/actions/runs?status=failure'), '--jq', '.workflow_runs[0].id'),
    check: (out, f) => expect(out.trim()).to.equal(String(f.s.runId)),
  },
  {
    ...get((f) => repo(`/actions/runs/${f.s.runId}`), '--jq', '.conclusion'),
    check: (out) => expect(out.trim()).to.equal('failure'),
  },
  {
    ...get(
      (f) => repo(`/actions/jobs/${f.failedJobId}`),
      '--jq',
      '.steps[] | select(.conclusion == "failure") | .name',
    ),
    check: (out) => expect(out.trim()).to.not.equal(''),
  },
  {...get(() => repo('/releases'), '--jq', '.[].tag_name'), check: (out) => expect(lines(out)).to.include('v1.0.0')},
  {...get(() => repo('/tags'), '--jq', '.[].name'), check: (out) => expect(lines(out)).to.include('v1.0.0')},
  {
    ...get(() => repo('/labels'), '--jq', 'map(select(.name | test("bug"))) | .[].name'),
    check: (out) => expect(lines(out)).to.deep.equal(['bug']),
  },
  {
    ...get(() => repo('/milestones/1'), '--jq', '{title, open_issues, closed_issues}'),
    check: (out) => expect(json(out)).to.deep.equal({title: 'v1.0', open_issues: 1, closed_issues: 0}),
  },
  {
    ...get(() => repo('/assignees'), '--jq', '.[].login'),
    check: (out) => expect(lines(out)).to.include('ghx-bench-agent'),
  },
  {
    ...get(() => repo('/collaborators'), '--jq', '.[].login'),
    check: (out) => expect(lines(out)).to.include('ghx-bench-reviewer'),
  },
  {
    ...get((f) => repo(`/commits/${f.s.prHeadSha}/check-runs`), '--jq', '.check_runs[] | {name, conclusion}'),
    check: (out) => expect(json(out)).to.deep.include({name: 'ci/build', conclusion: 'success'}),
  },
  {
    ...get((f) => repo(`/commits/${f.s.prHeadSha}/status`), '--jq', '.statuses[] | {context, state}'),
    check: (out) => expect(json(out)).to.deep.equal({context: 'ci/lint', state: 'success'}),
  },
  {
    ...get(() => 'user', '--jq', '{login, type}'),
    check: (out) => expect(json(out)).to.deep.equal({login: 'ghx-bench-agent', type: 'User'}),
  },
  {
    ...get(() => 'users/ghx-bench-reviewer', '--jq', '.login'),
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    ...get(() => `search/issues?q=${encodeURIComponent(`repo:${R} is:issue is:open`)}`, '--jq', '.total_count'),
    check: (out) => expect(Number(out)).to.be.above(0),
  },
  {
    ...get(() => repo(''), '--jq', '{full_name, private, default_branch, open_issues_count}'),
    check: (out) => expect(json(out)).to.deep.include({full_name: R, default_branch: 'main'}),
  },
  {...get(() => 'rate_limit', '--jq', '.resources.core.remaining'), check: (out) => expect(Number(out)).to.be.above(0)},

  // REST, --paginate over GitHub's Link headers (small pages, so there are several)
  {
    ...get(() => repo('/issues?state=all&per_page=1'), '--paginate', '--jq', '.[].number'),
    check: (out, f) =>
      expect(lines(out).map(Number)).to.include.members([f.s.issue, f.docsIssue, f.gfiIssue, f.s.pr, f.draftPr]),
  },
  {
    ...get(() => repo('/pulls?state=all&per_page=2'), '--paginate', '--jq', '.[].number'),
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.pr, f.draftPr, f.approvedPr, f.mergedPr]),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/files`), '--paginate'),
    check: (out) => expect(json<Json[]>(out)).to.have.length(1),
  },
  {
    ...get((f) => repo(`/pulls/${f.s.pr}/comments`), '--paginate', '--jq', '.[].body'),
    check: (out) => expect(out.trim()).to.equal('Is this right?'),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}/comments?per_page=1`), '--paginate', '--jq', '.[].user.login'),
    check: (out) => expect(lines(out)).to.include('ghx-bench-reviewer'),
  },
  {
    ...get(() => repo('/commits?per_page=2'), '--paginate', '--jq', '.[].sha'),
    check: (out, f) => expect(lines(out)).to.include(f.ids.mainSha),
  },
  {
    ...get(() => repo('/branches?per_page=2'), '--paginate', '--jq', '.[].name'),
    check: (out) =>
      expect(lines(out)).to.include.members(['main', 'agent-draft', 'agent-errors', 'agent-empty', 'bench-bugs']),
  },
  {
    ...get(() => repo('/labels?per_page=3'), '--paginate', '--jq', '.[].name'),
    check: (out) =>
      expect(lines(out)).to.include.members(['bug', 'documentation', 'enhancement', 'good first issue', 'help wanted']),
  },
  {
    ...get((f) => repo(`/issues/${f.s.issue}/timeline?per_page=2`), '--paginate', '--jq', '.[].event'),
    check: (out) => expect(lines(out)).to.include.members(['labeled', 'milestoned', 'assigned']),
  },
  {
    ...get(() => repo('/actions/runs?per_page=1'), '--paginate', '--jq', '.workflow_runs[].id'),
    check: (out, f) => expect(lines(out).map(Number)).to.include(f.s.runId),
  },
  {
    ...get(() => repo('/releases?per_page=1'), '--paginate', '--jq', '.[].tag_name'),
    check: (out) => expect(lines(out)).to.include.members(['v1.0.0', 'v0.1.0-bench']),
  },
  {
    ...get(() => repo('/milestones?state=all'), '--paginate', '--jq', '.[].title'),
    check: (out) => expect(lines(out)).to.deep.equal(['v1.0']),
  },
  {
    ...get(
      () => `search/issues?q=${encodeURIComponent(`repo:${R}`)}&per_page=2`,
      '--paginate',
      '--jq',
      '.items[].number',
    ),
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.issue, f.docsIssue, f.s.pr]),
  },
  {
    ...get((f) => repo(`/pulls/${f.approvedPr}/reviews`), '--paginate', '--jq', '.[].state'),
    check: (out) => expect(out.trim()).to.equal('APPROVED'),
  },

  // GraphQL queries, with variables
  {
    args: () => ['api', 'graphql', '-f', q('query { viewer { login } }'), '--jq', '.data.viewer.login'],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-agent'),
  },
  {
    args: () => ['api', 'graphql', '-f', q('{ viewer { login name id } }')],
    check: (out) => expect(json<{data: {viewer: Json}}>(out).data.viewer.login).to.equal('ghx-bench-agent'),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id name nameWithOwner defaultBranchRef { name } isPrivate } }',
      ),
    ],
    check: (out, f) =>
      expect(json<{data: {repository: Json}}>(out).data.repository).to.deep.include({
        id: f.ids.repoNodeId,
        defaultBranchRef: {name: 'main'},
      }),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.issue}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { title body state labels(first: 10) { nodes { name } } assignees(first: 10) { nodes { login } } milestone { title } comments(first: 20) { nodes { body author { login } } } } } }',
      ),
      '--jq',
      '.data.repository.issue | {title, state, labels: [.labels.nodes[].name], milestone: .milestone.title}',
    ],
    check: (out) =>
      expect(json(out)).to.deep.equal({
        title: 'Crash on start',
        state: 'OPEN',
        labels: ['triage', 'feature-request', 'bug'],
        milestone: 'v1.0',
      }),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issues(first: 20, states: OPEN) { totalCount nodes { number title } } } }',
      ),
      '--jq',
      '.data.repository.issues.nodes[].number',
    ],
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.issue, f.gfiIssue]),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issues(first: 20, labels: ["bug"]) { nodes { number } } } }',
      ),
      '--jq',
      '.data.repository.issues.nodes[].number',
    ],
    check: (out, f) => expect(out.trim()).to.equal(String(f.s.issue)),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issues(first: 5, orderBy: {field: UPDATED_AT, direction: DESC}) { nodes { number updatedAt } } } }',
      ),
      '--jq',
      '.data.repository.issues.nodes | length',
    ],
    check: (out) => expect(Number(out)).to.be.above(0),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { title state isDraft mergeable mergeStateStatus reviewDecision headRefName baseRefName headRefOid } } }',
      ),
      '--jq',
      '.data.repository.pullRequest',
    ],
    check: (out, f) =>
      expect(json(out)).to.deep.include({
        state: 'OPEN',
        isDraft: false,
        mergeable: 'MERGEABLE',
        headRefName: 'bench-bugs',
        baseRefName: 'main',
        headRefOid: f.s.prHeadSha,
      }),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { files(first: 100) { nodes { path additions deletions changeType } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.files.nodes[0].path',
    ],
    check: (out) => expect(out.trim()).to.equal('src/utils/stats.ts'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.approvedPr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviews(first: 20) { nodes { state body author { login } submittedAt } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.reviews.nodes[] | {state, body, author: .author.login}',
    ],
    check: (out) => expect(json(out)).to.deep.equal({state: 'APPROVED', body: 'LGTM', author: 'ghx-bench-reviewer'}),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { commits(first: 20) { totalCount nodes { commit { oid messageHeadline } } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.commits.nodes[].commit.oid',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.s.prHeadSha),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.draftPr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewRequests(first: 10) { nodes { requestedReviewer { ... on User { login } } } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.reviewRequests.nodes[].requestedReviewer.login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.draftPr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { labels(first: 10) { nodes { name } } assignees(first: 10) { nodes { login } } closingIssuesReferences(first: 10) { nodes { number } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest | {labels: [.labels.nodes[].name], assignees: [.assignees.nodes[].login]}',
    ],
    check: (out) => expect(json(out)).to.deep.equal({labels: ['enhancement'], assignees: ['ghx-bench-agent']}),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequests(first: 20, states: OPEN) { nodes { number title author { login } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequests.nodes[].number',
    ],
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.pr, f.draftPr, f.approvedPr]),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequests(first: 20, states: MERGED) { nodes { number mergedAt } } } }',
      ),
      '--jq',
      '.data.repository.pullRequests.nodes[].number',
    ],
    check: (out, f) => expect(out.trim()).to.equal(String(f.mergedPr)),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { labels(first: 50) { nodes { id name color } } } }',
      ),
      '--jq',
      '.data.repository.labels.nodes[].name',
    ],
    check: (out) => expect(lines(out)).to.include.members(['bug', 'enhancement']),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { milestones(first: 10) { nodes { number title } } } }',
      ),
      '--jq',
      '.data.repository.milestones.nodes[0]',
    ],
    check: (out) => expect(json(out)).to.deep.equal({number: 1, title: 'v1.0'}),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { refs(refPrefix: "refs/heads/", first: 50) { nodes { name } } } }',
      ),
      '--jq',
      '.data.repository.refs.nodes[].name',
    ],
    check: (out) => expect(lines(out)).to.include.members(['main', 'bench-bugs']),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      'expr=agent-empty:src/empty.ts',
      '-f',
      q(
        'query($owner: String!, $name: String!, $expr: String!) { repository(owner: $owner, name: $name) { object(expression: $expr) { ... on Blob { text byteSize } } } }',
      ),
      '--jq',
      '.data.repository.object.text',
    ],
    check: (out) => expect(out).to.equal('export const empty = (xs: number[]) => xs.length === 0\n\n'),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { defaultBranchRef { target { ... on Commit { history(first: 5) { nodes { oid messageHeadline } } } } } } }',
      ),
      '--jq',
      '.data.repository.defaultBranchRef.target.history.nodes[0].oid',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ref(qualifiedName: "refs/heads/main") { target { oid } } } }',
      ),
      '--jq',
      '.data.repository.ref.target.oid',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {
    args: () => [
      'api',
      'graphql',
      '-f',
      `q=repo:${R} is:pr is:open`,
      '-f',
      q(
        'query($q: String!) { search(query: $q, type: ISSUE, first: 10) { issueCount nodes { ... on PullRequest { number title } } } }',
      ),
      '--jq',
      '.data.search.nodes[].number',
    ],
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.pr, f.approvedPr]),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.issueNodeId}`,
      '-f',
      q('query($id: ID!) { node(id: $id) { ... on Issue { number title } } }'),
      '--jq',
      '.data.node',
    ],
    check: (out, f) => expect(json(out)).to.deep.equal({number: f.s.issue, title: 'Crash on start'}),
  },
  {
    args: () => [
      'api',
      'graphql',
      '-f',
      'login=ghx-bench-reviewer',
      '-f',
      q('query($login: String!) { user(login: $login) { login id } }'),
      '--jq',
      '.data.user.login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { assignableUsers(first: 10) { nodes { login } } } }',
      ),
      '--jq',
      '.data.repository.assignableUsers.nodes[].login',
    ],
    check: (out) => expect(lines(out)).to.include.members(['ghx-bench-agent', 'ghx-bench-reviewer']),
  },
  {
    args: () => [
      'api',
      'graphql',
      ...repoVars,
      '-f',
      q(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { latestRelease { tagName } releases(first: 5) { nodes { tagName name isDraft } } } }',
      ),
      '--jq',
      '.data.repository.latestRelease.tagName',
    ],
    check: (out) => expect(out.trim()).to.equal('v1.0.0'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.issue}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { timelineItems(first: 20) { nodes { __typename } } } } }',
      ),
      '--jq',
      '.data.repository.issue.timelineItems.nodes[].__typename',
    ],
    check: (out) => expect(lines(out)).to.include('LabeledEvent'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { nodes { __typename ... on StatusContext { context state } ... on CheckRun { name conclusion } } } } } } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.commits.nodes[0].commit.statusCheckRollup.state',
    ],
    check: (out) => expect(out.trim()).to.equal('SUCCESS'),
  },
  {
    args: () => [
      'api',
      'graphql',
      '-f',
      q('query { rateLimit { limit remaining cost resetAt } }'),
      '--jq',
      '.data.rateLimit.remaining',
    ],
    check: (out) => expect(Number(out)).to.be.above(0),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issueOrPullRequest(number: $number) { __typename ... on PullRequest { title } ... on Issue { title } } } }',
      ),
      '--jq',
      '.data.repository.issueOrPullRequest',
    ],
    check: (out) => expect(json(out)).to.deep.equal({__typename: 'PullRequest', title: 'Add stats helpers'}),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      ...repoVars,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      q(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 20) { nodes { id isResolved isOutdated path line originalLine comments(first: 5) { nodes { databaseId body } } } } } } }',
      ),
      '--jq',
      '.data.repository.pullRequest.reviewThreads.nodes[0] | {path, line, isOutdated}',
    ],
    check: (out) => expect(json(out)).to.deep.equal({path: 'src/utils/stats.ts', line: 2, isOutdated: false}),
  },
  {
    args: () => [
      'api',
      'graphql',
      '--paginate',
      '-f',
      q(
        `query($endCursor: String) { repository(owner: "${OWNER}", name: "${REPO}") { issues(first: 1, after: $endCursor) { nodes { number } pageInfo { hasNextPage endCursor } } } }`,
      ),
      '--jq',
      '.data.repository.issues.nodes[].number',
    ],
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.issue, f.docsIssue, f.gfiIssue]),
  },
  {
    args: () => [
      'api',
      'graphql',
      '--paginate',
      '-f',
      q(
        `query($endCursor: String) { repository(owner: "${OWNER}", name: "${REPO}") { pullRequests(first: 2, after: $endCursor, states: OPEN) { nodes { number } pageInfo { hasNextPage endCursor } } } }`,
      ),
      '--jq',
      '.data.repository.pullRequests.nodes[].number',
    ],
    check: (out, f) => expect(lines(out).map(Number)).to.include.members([f.s.pr, f.draftPr, f.approvedPr]),
  },
  {
    args: () => [
      'api',
      'graphql',
      '-F',
      `owner=${OWNER}`,
      '-f',
      q('query($owner: String!) { user(login: $owner) { repositories(first: 10) { nodes { nameWithOwner } } } }'),
      '--jq',
      '.data.user.repositories.nodes[].nameWithOwner',
    ],
    check: (out) => expect(lines(out)).to.include(R),
  },
]

/** Changes, made on objects of their own (or on the seeded ones after every read of them). */
export const API_CHANGES: Case[] = [
  // REST: the issue the earlier `gh api` changes made, reopened and edited as agents do
  {
    args: (f) => ['api', '-X', 'PATCH', repo(`/issues/${f.created.apiIssue}`), '-f', 'state=open', '--jq', '.state'],
    check: (out) => expect(out.trim()).to.equal('open'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/issues/${f.created.apiIssue}`),
      '-f',
      'title=Crash when the config file is empty',
      '-f',
      'body=Steps: an empty config.',
    ],
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/issues/${f.created.apiIssue}`),
      '-F',
      'milestone=1',
      '--jq',
      '.milestone.number',
    ],
    check: (out) => expect(out.trim()).to.equal('1'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/issues/${f.created.apiIssue}`),
      '-f',
      'labels[]=bug',
      '-f',
      'labels[]=triage',
      '--jq',
      '[.labels[].name]',
    ],
    check: (out) => expect(json<string[]>(out)).to.have.members(['bug', 'triage']),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PUT',
      repo(`/issues/${f.created.apiIssue}/labels`),
      '-f',
      'labels[]=documentation',
      '--jq',
      '.[].name',
    ],
    check: (out) => expect(out.trim()).to.equal('documentation'),
  },
  {args: (f) => ['api', '-X', 'DELETE', repo(`/issues/${f.created.apiIssue}/labels`)]},
  {
    args: (f) => ['api', repo(`/issues/${f.created.apiIssue}/labels`), '--input', '-', '--jq', '.[].name'],
    input: () => JSON.stringify({labels: ['bug', 'help wanted']}),
    check: (out) => expect(lines(out)).to.have.members(['bug', 'help wanted']),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'DELETE',
      repo(`/issues/${f.created.apiIssue}/assignees`),
      '-f',
      'assignees[]=ghx-bench-agent',
      '--jq',
      '.assignees | length',
    ],
    check: (out) => expect(out.trim()).to.equal('0'),
  },
  {args: () => ['api', repo('/assignees/ghx-bench-reviewer')]},
  {
    args: (f) => ['api', repo(`/issues/${f.created.apiIssue}/comments`), '--input', '-', '--jq', '.id'],
    input: () => JSON.stringify({body: 'Root cause: the parser returns undefined.'}),
    check: (out, f) => {
      f.created.apiComment = Number(out.trim())
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/issues/comments/${f.created.apiComment}`),
      '-f',
      'body=Root cause: the parser returns undefined on empty input.',
      '--jq',
      '.body',
    ],
    check: (out) => expect(out.trim()).to.equal('Root cause: the parser returns undefined on empty input.'),
  },
  {
    args: (f) => [
      'api',
      repo(`/issues/comments/${f.created.apiComment}/reactions`),
      '-f',
      'content=heart',
      '--jq',
      '.id',
    ],
    check: (out, f) => {
      f.created.apiReaction = Number(out.trim())
    },
  },
  {
    args: (f) => ['api', repo(`/issues/comments/${f.created.apiComment}/reactions`), '--jq', '.[].content'],
    check: (out) => expect(out.trim()).to.equal('heart'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'DELETE',
      repo(`/issues/comments/${f.created.apiComment}/reactions/${f.created.apiReaction}`),
    ],
  },
  {args: (f) => ['api', '-X', 'DELETE', repo(`/issues/comments/${f.created.apiComment}`)]},
  {args: (f) => ['api', '-X', 'PUT', repo(`/issues/${f.created.apiIssue}/lock`), '-f', 'lock_reason=resolved']},
  {
    args: (f) => ['api', repo(`/issues/${f.created.apiIssue}`), '--jq', '{locked, active_lock_reason}'],
    check: (out) => expect(json(out)).to.deep.equal({locked: true, active_lock_reason: 'resolved'}),
  },
  {args: (f) => ['api', '-X', 'DELETE', repo(`/issues/${f.created.apiIssue}/lock`)]},
  {
    args: (f) => [
      'api',
      repo(`/issues/${f.created.apiIssue}/dependencies/blocked_by`),
      '-F',
      `issue_id=${f.ids.gfiIssueId}`,
      '--jq',
      '.number',
    ],
    check: (out, f) => expect(out.trim()).to.equal(String(f.gfiIssue)),
  },
  {
    args: (f) => ['api', repo(`/issues/${f.created.apiIssue}/dependencies/blocked_by`), '--jq', '.[].number'],
    check: (out, f) => expect(out.trim()).to.equal(String(f.gfiIssue)),
  },
  {
    args: () => [
      'api',
      repo('/issues'),
      '-f',
      'title=Typed fields',
      '-F',
      'milestone=1',
      '-f',
      'labels[]=bug',
      '-f',
      'assignees[]=ghx-bench-agent',
      '--jq',
      '{number, milestone: .milestone.number, labels: [.labels[].name]}',
    ],
    check: (out, f) => {
      const created = json<{number: number; milestone: number; labels: string[]}>(out)
      expect(created).to.deep.include({milestone: 1, labels: ['bug']})
      f.created.typedIssue = created.number
    },
  },

  // REST: labels, milestones, the repository
  {
    args: () => [
      'api',
      repo('/labels'),
      '-f',
      'name=api-label',
      '-f',
      'color=ededed',
      '-f',
      'description=Made through the API',
      '--jq',
      '.name',
    ],
    check: (out) => expect(out.trim()).to.equal('api-label'),
  },
  {
    args: () => [
      'api',
      '-X',
      'PATCH',
      repo('/labels/api-label'),
      '-f',
      'new_name=api-made',
      '-f',
      'color=0e8a16',
      '--jq',
      '.name',
    ],
    check: (out) => expect(out.trim()).to.equal('api-made'),
  },
  {args: () => ['api', '-X', 'DELETE', repo('/labels/api-made')]},
  {
    args: () => ['api', repo('/milestones'), '-f', 'title=v2.0', '-f', 'description=The next one', '--jq', '.number'],
    check: (out) => expect(Number(out)).to.be.above(1),
  },
  {
    args: () => [
      'api',
      '-X',
      'PATCH',
      repo(''),
      '-f',
      'description=The benchmark fixture repository',
      '--jq',
      '.description',
    ],
    check: (out) => expect(out.trim()).to.equal('The benchmark fixture repository'),
  },
  {
    args: () => [
      'api',
      '-X',
      'PUT',
      repo('/topics'),
      '-f',
      'names[]=benchmark',
      '-f',
      'names[]=fixtures',
      '--jq',
      '.names',
    ],
    check: (out) => expect(json(out)).to.deep.equal(['benchmark', 'fixtures']),
  },

  // REST: review comments and reviews on the seeded pull request, as agents post them
  {
    args: (f) => [
      'api',
      repo(`/pulls/${f.s.pr}/comments`),
      '-f',
      'body=This divides by zero on an empty array.',
      '-f',
      `commit_id=${f.s.prHeadSha}`,
      '-f',
      'path=src/utils/stats.ts',
      '-F',
      'line=4',
      '-f',
      'side=RIGHT',
      '--jq',
      '.id',
    ],
    check: (out, f) => {
      f.created.reviewComment = Number(out.trim())
    },
  },
  {
    args: (f) => [
      'api',
      repo(`/pulls/${f.s.pr}/comments/${f.created.reviewComment}/replies`),
      '-f',
      'body=Agreed, guarding it.',
      '--jq',
      '.in_reply_to_id',
    ],
    check: (out, f) => expect(out.trim()).to.equal(String(f.created.reviewComment)),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/pulls/comments/${f.created.reviewComment}`),
      '-f',
      'body=This divides by zero when the array is empty.',
      '--jq',
      '.body',
    ],
    check: (out) => expect(out.trim()).to.equal('This divides by zero when the array is empty.'),
  },
  {
    args: (f) => [
      'api',
      repo(`/pulls/comments/${f.created.reviewComment}/reactions`),
      '-f',
      'content=eyes',
      '--jq',
      '.content',
    ],
    check: (out) => expect(out.trim()).to.equal('eyes'),
  },
  {
    args: (f) => ['api', repo(`/pulls/comments/${f.created.reviewComment}/reactions`), '--jq', '.[].content'],
    check: (out) => expect(out.trim()).to.equal('eyes'),
  },
  {args: (f) => ['api', '-X', 'DELETE', repo(`/pulls/comments/${f.created.reviewComment}`)]},
  {
    args: (f) => ['api', repo(`/pulls/${f.s.pr}/reviews`), '-X', 'POST', '--input', '-', '--jq', '.state'],
    input: (f) =>
      JSON.stringify({
        commit_id: f.s.prHeadSha,
        event: 'REQUEST_CHANGES',
        body: 'Two bugs inline.',
        comments: [
          {path: 'src/utils/stats.ts', line: 4, side: 'RIGHT', body: 'Guard the empty array.'},
          {path: 'src/utils/stats.ts', line: 8, side: 'RIGHT', body: 'Missing await.'},
        ],
      }),
    check: (out) => expect(out.trim()).to.equal('CHANGES_REQUESTED'),
  },
  {
    args: (f) => ['api', repo(`/pulls/${f.s.pr}/reviews`), '-f', 'body=Pending notes', '--jq', '{id, state}'],
    check: (out, f) => {
      const review = json<{id: number; state: string}>(out)
      expect(review.state).to.equal('PENDING')
      f.created.pendingReview = review.id
    },
  },
  {
    args: (f) => [
      'api',
      repo(`/pulls/${f.s.pr}/reviews/${f.created.pendingReview}/events`),
      '-f',
      'event=COMMENT',
      '-f',
      'body=Notes submitted.',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('COMMENTED'),
  },
  {
    args: (f) => [
      'api',
      repo(`/pulls/${f.s.pr}/reviews`),
      '-f',
      'event=APPROVE',
      '-f',
      'body=Fixed, thanks.',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('APPROVED'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PUT',
      repo(`/pulls/${f.approvedPr}/reviews/${f.ids.approvalId}/dismissals`),
      '-f',
      'message=The branch changed.',
      '-f',
      'event=DISMISS',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('DISMISSED'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'DELETE',
      repo(`/pulls/${f.approvedPr}/requested_reviewers`),
      '-f',
      'reviewers[]=ghx-bench-reviewer',
      '--jq',
      '.requested_reviewers | length',
    ],
    check: (out) => expect(out.trim()).to.equal('0'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/pulls/${f.approvedPr}`),
      '-f',
      'body=Clearer messages for every error.',
      '--jq',
      '.body',
    ],
    check: (out) => expect(out.trim()).to.equal('Clearer messages for every error.'),
  },
  {
    args: (f) => ['api', '-X', 'PUT', repo(`/pulls/${f.approvedPr}/update-branch`), '--jq', '.message'],
    check: (out) => expect(out.trim()).to.equal('Updating pull request branch.'),
  },
  {
    args: (f) => [
      'api',
      repo(`/statuses/${f.s.prHeadSha}`),
      '-f',
      'state=failure',
      '-f',
      'context=ci/e2e',
      '-f',
      'description=3 failed',
      '-f',
      'target_url=https://ci.example/run/1',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('failure'),
  },

  // REST: a branch, files on it, and a release, through the git data and contents APIs
  {
    args: (f) => [
      'api',
      repo('/git/refs'),
      '-f',
      'ref=refs/heads/api-feature',
      '-f',
      `sha=${f.ids.mainSha}`,
      '--jq',
      '.object.sha',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {
    args: () => [
      'api',
      '-X',
      'PUT',
      repo('/contents/docs/feature.md'),
      '-f',
      'message=Describe the feature',
      '-f',
      `content=${Buffer.from('# Feature\n').toString('base64')}`,
      '-f',
      'branch=api-feature',
      '--jq',
      '.content.sha',
    ],
    check: (out, f) => {
      f.created.featureBlob = out.trim()
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PUT',
      repo('/contents/docs/feature.md'),
      '-f',
      'message=Expand the feature',
      '-f',
      `content=${Buffer.from('# Feature\n\nMore.\n').toString('base64')}`,
      '-f',
      'branch=api-feature',
      '-f',
      `sha=${f.created.featureBlob}`,
      '--jq',
      '.commit.message',
    ],
    check: (out) => expect(out.trim()).to.equal('Expand the feature'),
  },
  {
    args: () => ['api', repo('/contents/docs/feature.md?ref=api-feature'), '--jq', '.content | @base64d'],
    check: (out) => expect(out).to.equal('# Feature\n\nMore.\n\n'),
  },
  {
    args: () => ['api', repo('/contents/docs/feature.md?ref=api-feature'), '--jq', '.sha'],
    check: (out, f) => {
      f.created.featureBlob = out.trim()
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'DELETE',
      repo('/contents/docs/feature.md'),
      '-f',
      'message=Drop the feature notes',
      '-f',
      `sha=${f.created.featureBlob}`,
      '-f',
      'branch=api-feature',
      '--jq',
      '.content',
    ],
    // GitHub answers `"content": null`, which gh's --jq prints as an empty line.
    check: (out) => expect(out).to.equal('\n'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo('/git/refs/heads/api-feature'),
      '-f',
      `sha=${f.ids.mainSha}`,
      '-F',
      'force=true',
      '--jq',
      '.object.sha',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.ids.mainSha),
  },
  {args: () => ['api', '-X', 'DELETE', repo('/git/refs/heads/api-feature')]},
  {
    args: () => [
      'api',
      repo('/releases'),
      '-f',
      'tag_name=v1.2.0',
      '-f',
      'name=v1.2.0',
      '-f',
      'body=Faster.',
      '-F',
      'draft=false',
      '-f',
      'target_commitish=main',
      '--jq',
      '.id',
    ],
    check: (out, f) => {
      f.created.apiRelease = Number(out.trim())
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      repo(`/releases/${f.created.apiRelease}`),
      '-f',
      'body=Faster; smaller.',
      '--jq',
      '.body',
    ],
    check: (out) => expect(out.trim()).to.equal('Faster; smaller.'),
  },
  {args: (f) => ['api', '-X', 'DELETE', repo(`/releases/${f.created.apiRelease}`)]},
  {
    args: () => [
      'api',
      repo('/actions/workflows/bench-rerun-failed.yml/dispatches'),
      '-f',
      'ref=main',
      '-f',
      'inputs[seed_id]=api',
    ],
  },

  // GraphQL mutations with variables, on an issue of their own, then on the seeded pull requests
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `repo=${f.ids.repoNodeId}`,
      '-f',
      'title=Made through GraphQL',
      '-f',
      'body=A body.',
      '-f',
      q(
        'mutation($repo: ID!, $title: String!, $body: String) { createIssue(input: {repositoryId: $repo, title: $title, body: $body}) { issue { id number } } }',
      ),
      '--jq',
      '.data.createIssue.issue.id',
    ],
    check: (out, f) => {
      f.created.gqlIssue = out.trim()
    },
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-f',
      'body=A first comment.',
      '-f',
      q(
        'mutation($id: ID!, $body: String!) { addComment(input: {subjectId: $id, body: $body}) { commentEdge { node { id body } } } }',
      ),
      '--jq',
      '.data.addComment.commentEdge.node.id',
    ],
    check: (out, f) => {
      f.created.gqlComment = out.trim()
    },
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlComment}`,
      '-f',
      q(
        'mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "A first comment, edited."}) { issueComment { body } } }',
      ),
      '--jq',
      '.data.updateIssueComment.issueComment.body',
    ],
    check: (out) => expect(out.trim()).to.equal('A first comment, edited.'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlComment}`,
      '-f',
      q('mutation($id: ID!) { addReaction(input: {subjectId: $id, content: THUMBS_UP}) { reaction { content } } }'),
      '--jq',
      '.data.addReaction.reaction.content',
    ],
    check: (out) => expect(out.trim()).to.equal('THUMBS_UP'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlComment}`,
      '-f',
      q('mutation($id: ID!) { removeReaction(input: {subjectId: $id, content: THUMBS_UP}) { reaction { content } } }'),
      '--jq',
      '.data.removeReaction.reaction.content',
    ],
    check: (out) => expect(out.trim()).to.equal('THUMBS_UP'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlComment}`,
      '-f',
      q('mutation($id: ID!) { deleteIssueComment(input: {id: $id}) { clientMutationId } }'),
    ],
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-F',
      `label=${f.ids.bugLabelId}`,
      '-f',
      q(
        'mutation($id: ID!, $label: ID!) { addLabelsToLabelable(input: {labelableId: $id, labelIds: [$label]}) { labelable { ... on Issue { labels(first: 10) { nodes { name } } } } } }',
      ),
      '--jq',
      '.data.addLabelsToLabelable.labelable.labels.nodes[].name',
    ],
    check: (out) => expect(out.trim()).to.equal('bug'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-F',
      `label=${f.ids.bugLabelId}`,
      '-f',
      q(
        'mutation($id: ID!, $label: ID!) { removeLabelsFromLabelable(input: {labelableId: $id, labelIds: [$label]}) { labelable { ... on Issue { labels(first: 10) { totalCount } } } } }',
      ),
      '--jq',
      '.data.removeLabelsFromLabelable.labelable.labels.totalCount',
    ],
    check: (out) => expect(out.trim()).to.equal('0'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-F',
      `user=${f.ids.agentNodeId}`,
      '-f',
      q(
        'mutation($id: ID!, $user: ID!) { addAssigneesToAssignable(input: {assignableId: $id, assigneeIds: [$user]}) { assignable { ... on Issue { assignees(first: 5) { nodes { login } } } } } }',
      ),
      '--jq',
      '.data.addAssigneesToAssignable.assignable.assignees.nodes[].login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-agent'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-F',
      `user=${f.ids.agentNodeId}`,
      '-f',
      q(
        'mutation($id: ID!, $user: ID!) { removeAssigneesFromAssignable(input: {assignableId: $id, assigneeIds: [$user]}) { assignable { ... on Issue { assignees(first: 5) { totalCount } } } } }',
      ),
      '--jq',
      '.data.removeAssigneesFromAssignable.assignable.assignees.totalCount',
    ],
    check: (out) => expect(out.trim()).to.equal('0'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-f',
      'title=Made through GraphQL, renamed',
      '-f',
      q('mutation($id: ID!, $title: String!) { updateIssue(input: {id: $id, title: $title}) { issue { title } } }'),
      '--jq',
      '.data.updateIssue.issue.title',
    ],
    check: (out) => expect(out.trim()).to.equal('Made through GraphQL, renamed'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-f',
      q(
        'mutation($id: ID!) { closeIssue(input: {issueId: $id, stateReason: NOT_PLANNED}) { issue { state stateReason } } }',
      ),
      '--jq',
      '.data.closeIssue.issue',
    ],
    check: (out) => expect(json(out)).to.deep.equal({state: 'CLOSED', stateReason: 'NOT_PLANNED'}),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.created.gqlIssue}`,
      '-f',
      q('mutation($id: ID!) { reopenIssue(input: {issueId: $id}) { issue { state } } }'),
      '--jq',
      '.data.reopenIssue.issue.state',
    ],
    check: (out) => expect(out.trim()).to.equal('OPEN'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.approvedPrNodeId}`,
      '-f',
      q(
        'mutation($id: ID!) { updatePullRequest(input: {pullRequestId: $id, title: "Clearer error messages everywhere"}) { pullRequest { title } } }',
      ),
      '--jq',
      '.data.updatePullRequest.pullRequest.title',
    ],
    check: (out) => expect(out.trim()).to.equal('Clearer error messages everywhere'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.approvedPrNodeId}`,
      '-F',
      `user=${f.ids.reviewerNodeId}`,
      '-f',
      q(
        'mutation($id: ID!, $user: ID!) { requestReviews(input: {pullRequestId: $id, userIds: [$user]}) { pullRequest { reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } } } } } } }',
      ),
      '--jq',
      '.data.requestReviews.pullRequest.reviewRequests.nodes[].requestedReviewer.login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.approvedPrNodeId}`,
      '-f',
      q('mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }'),
      '--jq',
      '.data.convertPullRequestToDraft.pullRequest.isDraft',
    ],
    check: (out) => expect(out.trim()).to.equal('true'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.approvedPrNodeId}`,
      '-f',
      q(
        'mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }',
      ),
      '--jq',
      '.data.markPullRequestReadyForReview.pullRequest.isDraft',
    ],
    check: (out) => expect(out.trim()).to.equal('false'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.ids.approvedPrNodeId}`,
      '-f',
      'body=Looks right now.',
      '-f',
      q(
        'mutation($id: ID!, $body: String!) { addPullRequestReview(input: {pullRequestId: $id, event: COMMENT, body: $body}) { pullRequestReview { state body } } }',
      ),
      '--jq',
      '.data.addPullRequestReview.pullRequestReview.state',
    ],
    check: (out) => expect(out.trim()).to.equal('COMMENTED'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.s.threadIds[0]}`,
      '-f',
      q('mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }'),
      '--jq',
      '.data.unresolveReviewThread.thread.isResolved',
    ],
    check: (out) => expect(out.trim()).to.equal('false'),
  },
]
