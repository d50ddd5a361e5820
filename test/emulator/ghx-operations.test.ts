// The GraphQL the ghx CLI (0.8.0) sends, against the sandbox: every operation's field selection, written
// here as plain GitHub API GraphQL (nothing is read from ghx), validated against the schema the sandbox
// serves, and executed; then the fields and mutations ghx needed that the sandbox lacked, checked against
// GitHub's behaviour one by one.
import {execFile} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import {resolve} from 'import-meta-resolve'
import {
  OperationTypeNode,
  OverlappingFieldsCanBeMergedRule,
  parse,
  specifiedRules,
  validate,
  type OperationDefinitionNode,
} from 'graphql'
import {githubSchema} from '../../src/emulator/core/graphql-schema.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

const PAGE = 'pageInfo { endCursor hasNextPage }'
const ISSUE_CORE = 'id number title state url'
const REACTION_GROUPS =
  'reactionGroups { content viewerHasReacted reactors(first: 100) { totalCount nodes { __typename ... on User { login } ... on Bot { login } ... on Organization { login } ... on Mannequin { login } } } }'
const ASSIGNABLE_USERS = `assignableUsers(first: 100, after: $usersAfter) { ${PAGE} nodes { id login } }`
const REPO_LABELS = `labels(first: 100) { ${PAGE} nodes { id name } }`
const RELEASE = 'databaseId tagName name isDraft isPrerelease url tagCommit { oid } createdAt publishedAt'
const R = 'repository(owner: $owner, name: $name)'
const RV = '$owner: String!, $name: String!'

/** One document per GraphQL operation ghx 0.8.0 sends, by the capability that sends it: its variables and field selections. */
const GHX_OPERATIONS: Record<string, string> = {
  // repository
  'repo.view': `query(${RV}) { ${R} { id name nameWithOwner isPrivate stargazerCount forkCount url defaultBranchRef { name } } }`,
  'repo.labels.list': `query(${RV}, $first: Int!, $after: String) { ${R} { labels(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { id name description color isDefault } ${PAGE} } } }`,
  'repo.issue_types.list': `query(${RV}, $first: Int!, $after: String) { ${R} { issueTypes(first: $first, after: $after) { nodes { id name color isEnabled } ${PAGE} } } }`,
  // issue reads
  'issue.view': `query(${RV}, $issueNumber: Int!) { ${R} { issue(number: $issueNumber) { __typename ${ISSUE_CORE} body labels(first: 20) { nodes { name } } } } }`,
  'issue.list': `query(${RV}, $first: Int!, $after: String, $states: [IssueState!]) { ${R} { issues(first: $first, after: $after, states: $states, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { ${ISSUE_CORE} } ${PAGE} } } }`,
  'issue.comments.list': `query(${RV}, $issueNumber: Int!, $first: Int!, $after: String) { ${R} { issue(number: $issueNumber) { comments(first: $first, after: $after) { nodes { id body createdAt url author { login } } ${PAGE} } } } }`,
  'issue.relations.view': `query(${RV}, $issueNumber: Int!) { ${R} { issue(number: $issueNumber) { id number parent { id number } subIssues(first: 50) { nodes { id number } } blockedBy(first: 50) { nodes { id number } } } } }`,
  'issue.relations.prs.list': `query(${RV}, $issueNumber: Int!) { ${R} { issue(number: $issueNumber) { timelineItems(first: 50, itemTypes: [CONNECTED_EVENT]) { nodes { __typename ... on ConnectedEvent { subject { __typename ... on PullRequest { ${ISSUE_CORE} } } } } } } } }`,
  'issue (node id)': `query(${RV}, $issueNumber: Int!) { ${R} { issue(number: $issueNumber) { id } } }`,
  'issue.relations.parent.remove (lookup)':
    'query($issueId: ID!) { node(id: $issueId) { ... on Issue { id parent { id } } } }',
  'issue.assignees.* (lookup by number)': `query(${RV}, $issueNumber: Int!, $usersAfter: String) { ${R} { issue(number: $issueNumber) { id } ${ASSIGNABLE_USERS} } }`,
  'issue.assignees.* (lookup by id)': `query($issueId: ID!, $usersAfter: String) { node(id: $issueId) { ... on Issue { repository { ${ASSIGNABLE_USERS} } } } }`,
  'issue.labels.* (lookup by number)': `query(${RV}, $issueNumber: Int!) { ${R} { issue(number: $issueNumber) { id } ${REPO_LABELS} } }`,
  'issue.labels.* (lookup by id)': `query($issueId: ID!) { node(id: $issueId) { ... on Issue { repository { ${REPO_LABELS} } } } }`,
  'issue.milestone.set (lookup by number)': `query(${RV}, $issueNumber: Int!, $milestoneNumber: Int!) { ${R} { issue(number: $issueNumber) { id } milestone(number: $milestoneNumber) { id } } }`,
  'issue.milestone.set (lookup by id)':
    'query($issueId: ID!, $milestoneNumber: Int!) { node(id: $issueId) { ... on Issue { repository { milestone(number: $milestoneNumber) { id } } } } }',
  'issue.create (repository id)': `query(${RV}) { ${R} { id } }`,
  // issue writes
  'issue.create': `mutation($repositoryId: ID!, $title: String!, $body: String) { createIssue(input: {repositoryId: $repositoryId, title: $title, body: $body}) { issue { __typename ${ISSUE_CORE} } } }`,
  'issue.update':
    'mutation($issueId: ID!, $title: String, $body: String) { updateIssue(input: {id: $issueId, title: $title, body: $body}) { issue { id number title state url } } }',
  'issue.close': 'mutation($issueId: ID!) { closeIssue(input: {issueId: $issueId}) { issue { id number state } } }',
  'issue.reopen': 'mutation($issueId: ID!) { reopenIssue(input: {issueId: $issueId}) { issue { id number state } } }',
  'issue.delete': 'mutation($issueId: ID!) { deleteIssue(input: {issueId: $issueId}) { clientMutationId } }',
  'issue.comments.create':
    'mutation($issueId: ID!, $body: String!) { addComment(input: {subjectId: $issueId, body: $body}) { commentEdge { node { id body url } } } }',
  'issue.labels.add':
    'mutation($labelableId: ID!, $labelIds: [ID!]!) { addLabelsToLabelable(input: {labelableId: $labelableId, labelIds: $labelIds}) { labelable { ... on Issue { id labels(first: 50) { nodes { name } } } } } }',
  'issue.labels.remove':
    'mutation($labelableId: ID!, $labelIds: [ID!]!) { removeLabelsFromLabelable(input: {labelableId: $labelableId, labelIds: $labelIds}) { labelable { ... on Issue { id labels(first: 50) { nodes { name } } } } } }',
  'issue.labels.set':
    'mutation($issueId: ID!, $labelIds: [ID!]!) { updateIssue(input: {id: $issueId, labelIds: $labelIds}) { issue { id labels(first: 50) { nodes { name } } } } }',
  'issue.assignees.add':
    'mutation($assignableId: ID!, $assigneeIds: [ID!]!) { addAssigneesToAssignable(input: {assignableId: $assignableId, assigneeIds: $assigneeIds}) { assignable { ... on Issue { id assignees(first: 50) { nodes { login } } } } } }',
  'issue.assignees.remove':
    'mutation($assignableId: ID!, $assigneeIds: [ID!]!) { removeAssigneesFromAssignable(input: {assignableId: $assignableId, assigneeIds: $assigneeIds}) { assignable { ... on Issue { id assignees(first: 50) { nodes { login } } } } } }',
  'issue.assignees.set':
    'mutation($issueId: ID!, $assigneeIds: [ID!]!) { updateIssue(input: {id: $issueId, assigneeIds: $assigneeIds}) { issue { id assignees(first: 50) { nodes { login } } } } }',
  'issue.milestone.set':
    'mutation($issueId: ID!, $milestoneId: ID) { updateIssue(input: {id: $issueId, milestoneId: $milestoneId}) { issue { id milestone { number } } } }',
  'issue.relations.parent.set':
    'mutation($issueId: ID!, $parentIssueId: ID!) { addSubIssue(input: {issueId: $parentIssueId, subIssueId: $issueId}) { issue { id } subIssue { id } } }',
  'issue.relations.parent.remove':
    'mutation($issueId: ID!, $parentIssueId: ID!) { removeSubIssue(input: {issueId: $parentIssueId, subIssueId: $issueId}) { issue { id } subIssue { id } } }',
  'issue.relations.blocked_by.add':
    'mutation($issueId: ID!, $blockedByIssueId: ID!) { addBlockedBy(input: {issueId: $issueId, blockingIssueId: $blockedByIssueId}) { issue { id } blockingIssue { id } } }',
  'issue.relations.blocked_by.remove':
    'mutation($issueId: ID!, $blockedByIssueId: ID!) { removeBlockedBy(input: {issueId: $issueId, blockingIssueId: $blockedByIssueId}) { issue { id } blockingIssue { id } } }',
  // pull request reads
  'pr.view': `query(${RV}, $prNumber: Int!) { ${R} { pullRequest(number: $prNumber) { __typename ${ISSUE_CORE} body labels(first: 20) { nodes { name } } } } }`,
  'pr.list': `query(${RV}, $first: Int!, $after: String, $states: [PullRequestState!]) { ${R} { pullRequests(first: $first, after: $after, states: $states, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { ${ISSUE_CORE} } ${PAGE} } } }`,
  'pr (node id)': `query(${RV}, $prNumber: Int!) { ${R} { pullRequest(number: $prNumber) { id } } }`,
  'pr.assignees.* (lookup by number)': `query(${RV}, $prNumber: Int!, $usersAfter: String) { ${R} { pullRequest(number: $prNumber) { id } ${ASSIGNABLE_USERS} } }`,
  'pr.diff.files': `query(${RV}, $prNumber: Int!, $first: Int!, $after: String) { ${R} { pullRequest(number: $prNumber) { files(first: $first, after: $after) { nodes { path additions deletions } ${PAGE} } } } }`,
  'pr.merge.status': `query(${RV}, $prNumber: Int!) { ${R} { pullRequest(number: $prNumber) { mergeable mergeStateStatus reviewDecision isDraft state } } }`,
  'pr.reviews.list': `query(${RV}, $prNumber: Int!, $first: Int!, $after: String) { ${R} { pullRequest(number: $prNumber) { reviews(first: $first, after: $after) { nodes { id author { login } body state submittedAt url commit { oid } } ${PAGE} } } } }`,
  'pr.threads.list': `query(${RV}, $prNumber: Int!, $first: Int!, $after: String) { ${R} { pullRequest(number: $prNumber) { reviewThreads(first: $first, after: $after) { edges { cursor node { id path line startLine diffSide subjectType isResolved isOutdated viewerCanReply viewerCanResolve viewerCanUnresolve resolvedBy { login } comments(first: 20) { nodes { id body createdAt url author { login } } } } } ${PAGE} } } } }`,
  'pr.reactions.list': `query(${RV}, $prNumber: Int!) { ${R} { pullRequest(number: $prNumber) { id url ${REACTION_GROUPS} } } }`,
  'pr.comments.reactions.list (comments)': `query(${RV}, $prNumber: Int!, $first: Int!, $after: String) { ${R} { pullRequest(number: $prNumber) { comments(first: $first, after: $after) { ${PAGE} nodes { __typename id url author { login } ${REACTION_GROUPS} } } } } }`,
  'pr.comments.reactions.list (threads)': `query(${RV}, $prNumber: Int!, $first: Int!, $after: String) { ${R} { pullRequest(number: $prNumber) { reviewThreads(first: $first, after: $after) { ${PAGE} edges { cursor node { id comments(first: $first) { ${PAGE} nodes { __typename id url author { login } ${REACTION_GROUPS} } } } } } } } }`,
  'pr.comments.reactions.list (thread comments)': `query($threadId: ID!, $first: Int!, $after: String) { node(id: $threadId) { ... on PullRequestReviewThread { comments(first: $first, after: $after) { ${PAGE} nodes { __typename id url author { login } ${REACTION_GROUPS} } } } } }`,
  'pr.threads.* (thread state)':
    'query($threadId: ID!) { node(id: $threadId) { ... on PullRequestReviewThread { id isResolved } } }',
  // pull request writes
  'pr.create':
    'mutation($repositoryId: ID!, $baseRefName: String!, $headRefName: String!, $title: String!, $body: String, $draft: Boolean) { createPullRequest(input: {repositoryId: $repositoryId, baseRefName: $baseRefName, headRefName: $headRefName, title: $title, body: $body, draft: $draft}) { pullRequest { id number title state url isDraft } } }',
  'pr.update':
    'mutation($pullRequestId: ID!, $title: String, $body: String) { updatePullRequest(input: {pullRequestId: $pullRequestId, title: $title, body: $body}) { pullRequest { id number title state url isDraft } } }',
  'pr.close':
    'mutation($pullRequestId: ID!, $addComment: Boolean! = false, $commentBody: String! = "") { closePullRequest(input: {pullRequestId: $pullRequestId}) { pullRequest { id number state closed } } addComment(input: {subjectId: $pullRequestId, body: $commentBody}) @include(if: $addComment) { commentEdge { node { id } } } }',
  'pr.merge':
    'mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod) { mergePullRequest(input: {pullRequestId: $pullRequestId, mergeMethod: $mergeMethod}) { pullRequest { id number state merged mergedAt } } }',
  'pr.branch.update':
    'mutation($pullRequestId: ID!, $updateMethod: PullRequestBranchUpdateMethod) { updatePullRequestBranch(input: {pullRequestId: $pullRequestId, updateMethod: $updateMethod}) { pullRequest { id number } } }',
  'pr.assignees.add':
    'mutation($assignableId: ID!, $assigneeIds: [ID!]!) { addAssigneesToAssignable(input: {assignableId: $assignableId, assigneeIds: $assigneeIds}) { assignable { ... on PullRequest { id assignees(first: 50) { nodes { login } } } } } }',
  'pr.assignees.remove':
    'mutation($assignableId: ID!, $assigneeIds: [ID!]!) { removeAssigneesFromAssignable(input: {assignableId: $assignableId, assigneeIds: $assigneeIds}) { assignable { ... on PullRequest { id assignees(first: 50) { nodes { login } } } } } }',
  'pr.reviews.submit':
    'mutation($pullRequestId: ID!, $event: PullRequestReviewEvent!, $body: String, $threads: [DraftPullRequestReviewThread!]) { addPullRequestReview(input: {pullRequestId: $pullRequestId, event: $event, body: $body, threads: $threads}) { pullRequestReview { id state url body } } }',
  'pr.reviews.request':
    'mutation($pullRequestId: ID!, $userIds: [ID!]!, $reviewRequestsFirst: Int = 100) { requestReviews(input: {pullRequestId: $pullRequestId, userIds: $userIds}) { pullRequest { id number reviewRequests(first: $reviewRequestsFirst) { nodes { requestedReviewer { ... on User { login } ... on Team { slug } } } } } } }',
  'pr.threads.reply':
    'mutation($threadId: ID!, $body: String!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $threadId, body: $body}) { comment { id } } }',
  'pr.threads.resolve':
    'mutation($threadId: ID!) { resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } } }',
  'pr.threads.unresolve':
    'mutation($threadId: ID!) { unresolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } } }',
  // releases
  'release.list': `query(${RV}, $first: Int!, $after: String) { ${R} { releases(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { ${RELEASE} } ${PAGE} } } }`,
  'release.view': `query(${RV}, $tagName: String!) { ${R} { release(tagName: $tagName) { ${RELEASE} } } }`,
  // Projects v2
  'project_v2.user.view':
    'query($user: String!, $projectNumber: Int!) { user(login: $user) { projectV2(number: $projectNumber) { id title shortDescription public closed url } } }',
  'project_v2.org.view':
    'query($org: String!, $projectNumber: Int!) { organization(login: $org) { projectV2(number: $projectNumber) { id title shortDescription public closed url } } }',
  'project_v2.* (project id)':
    'query($login: String!, $projectNumber: Int!) { repositoryOwner(login: $login) { ... on ProjectV2Owner { projectV2(number: $projectNumber) { id } } } }',
  'project_v2.fields.list': `query($login: String!, $projectNumber: Int!, $first: Int!, $after: String) { repositoryOwner(login: $login) { ... on ProjectV2Owner { projectV2(number: $projectNumber) { fields(first: $first, after: $after) { nodes { ... on ProjectV2Field { id name dataType } ... on ProjectV2IterationField { id name dataType } ... on ProjectV2SingleSelectField { id name dataType options { id name } } } ${PAGE} } } } } }`,
  'project_v2.items.list': `query($login: String!, $projectNumber: Int!, $first: Int!, $after: String) { repositoryOwner(login: $login) { ... on ProjectV2Owner { projectV2(number: $projectNumber) { items(first: $first, after: $after) { nodes { id type content { ... on Issue { number title } ... on PullRequest { number title } ... on DraftIssue { title } } } ${PAGE} } } } } }`,
  'project_v2.items.issue.add (issue by URL)':
    'query($url: URI!) { resource(url: $url) { __typename ... on Issue { id } } }',
  'project_v2.items.issue.add':
    'mutation($projectId: ID!, $contentId: ID!) { addProjectV2ItemById(input: {projectId: $projectId, contentId: $contentId}) { item { id type } } }',
  'project_v2.items.field.update':
    'mutation($projectId: ID!, $itemId: ID!, $fieldId: ID!, $value: ProjectV2FieldValue!) { updateProjectV2ItemFieldValue(input: {projectId: $projectId, itemId: $itemId, fieldId: $fieldId, value: $value}) { projectV2Item { id } } }',
  'project_v2.items.issue.remove':
    'mutation($projectId: ID!, $itemId: ID!) { deleteProjectV2Item(input: {projectId: $projectId, itemId: $itemId}) { deletedItemId } }',
  // users
  'reviewers and assignees (user id)': 'query($login: String!) { user(login: $login) { id } }',
}

const RULES = specifiedRules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule)

/** Answers are compared whole with deep equality, not typed field by field. */
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- any GitHub answer

interface Answer<T> {
  status: number
  data: T
  errors?: Array<{type?: string; message: string; path?: unknown[]}>
  message?: string
}

describe('sandbox: the GraphQL ghx sends', function () {
  this.timeout(30_000)
  let s: Seeded
  let configDir: string
  const ids: Record<string, string> = {}
  let milestone: number
  /** An issue whose body mentions the seeded issue. */
  let second: number

  /** Posts a document as a client would; GitHub's status, data and errors. */
  async function gql<T = Json>(
    query: string,
    variables: Record<string, unknown> = {},
    token = s.sandbox.token,
  ): Promise<Answer<T>> {
    const response = await fetch(`${s.sandbox.url}/graphql`, {
      method: 'POST',
      headers: {authorization: `bearer ${token}`, 'content-type': 'application/json'},
      body: JSON.stringify({query, variables}),
    })
    return {status: response.status, ...((await response.json()) as Omit<Answer<T>, 'status'>)}
  }

  /** The data of a document that must succeed. */
  async function data<T = Json>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
    const answer = await gql<T>(query, variables, token)
    expect(answer.errors, JSON.stringify(answer.errors ?? answer.message)).to.equal(undefined)
    expect(answer.status).to.equal(200)
    return answer.data
  }

  async function nodeIdOf(number: number): Promise<string> {
    return (await s.agent.rest.issues.get({...base, issue_number: number})).data.node_id
  }

  before(async () => {
    s = await seedSandbox()
    configDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-'))
    milestone = (await s.agent.rest.issues.createMilestone({...base, title: 'v1'})).data.number
    second = (await s.agent.rest.issues.create({...base, title: 'Second issue', body: `Follows up on #${s.issue}.`}))
      .data.number
    ids.issue = await nodeIdOf(s.issue)
    ids.second = await nodeIdOf(second)
    ids.pr = await nodeIdOf(s.pr)
    ids.agent = (await data<{user: {id: string}}>('{ user(login: "ghx-bench-agent") { id } }')).user.id
    ids.reviewer = (await data<{user: {id: string}}>('{ user(login: "ghx-bench-reviewer") { id } }')).user.id
    const project = await data<{createProjectV2: {projectV2: {id: string; number: number}}}>(
      'mutation($o: ID!) { createProjectV2(input: {ownerId: $o, title: "Board"}) { projectV2 { id number } } }',
      {o: ids.agent},
    )
    ids.project = project.createProjectV2.projectV2.id
    ids.item = (
      await data<{addProjectV2ItemById: {item: {id: string}}}>(
        'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
        {p: ids.project, c: ids.issue},
      )
    ).addProjectV2ItemById.item.id
  })
  after(() => s.sandbox.close())

  it('every document ghx sends is valid against the schema the sandbox serves', () => {
    const invalid = Object.entries(GHX_OPERATIONS).flatMap(([name, document]) =>
      validate(githubSchema(), parse(document), RULES).map((e) => `${name}: ${e.message}`),
    )
    expect(invalid).to.deep.equal([])
  })

  it('answers every query ghx sends without an error', async () => {
    const variables = {
      owner: OWNER,
      name: REPO,
      issueNumber: s.issue,
      prNumber: s.pr,
      milestoneNumber: milestone,
      issueId: ids.issue,
      threadId: s.threadIds[0],
      first: 20,
      states: ['OPEN'],
      tagName: 'v0.1.0-bench',
      user: 'ghx-bench-agent',
      login: 'ghx-bench-agent',
      projectNumber: 1,
      url: `http://github.localhost/${OWNER}/${REPO}/issues/${s.issue}`,
    }
    const failed: string[] = []
    for (const [name, document] of Object.entries(GHX_OPERATIONS)) {
      const operation = parse(document).definitions[0] as OperationDefinitionNode
      if (operation.operation !== OperationTypeNode.QUERY || name === 'project_v2.org.view') continue
      const answer = await gql(document, variables)
      if (answer.status !== 200 || answer.errors)
        failed.push(`${name}: ${answer.status} ${JSON.stringify(answer.errors ?? answer.message)}`)
    }
    expect(failed).to.deep.equal([])
  })

  describe('repositories', () => {
    it('repo.view: star and fork counts (the sandbox has none, as its REST answers), the default branch', async () => {
      const {repository} = await data(GHX_OPERATIONS['repo.view']!, {owner: OWNER, name: REPO})
      const rest = await s.agent.rest.repos.get(base)
      expect(repository).to.deep.include({
        stargazerCount: rest.data.stargazers_count,
        forkCount: rest.data.forks_count,
        nameWithOwner: 'ghx-bench/sandbox',
        defaultBranchRef: {name: 'main'},
      })
      expect(repository.stargazerCount).to.equal(0)
    })

    it('labels: isDefault for the labels GitHub gives a new repository, ordered by creation unless asked otherwise', async () => {
      await s.agent.rest.issues.createLabel({...base, name: 'zz-custom', color: '000000'})
      const labels = async (orderBy?: string) =>
        (
          await data(
            `query { repository(owner: "ghx-bench", name: "sandbox") { labels(first: 100${orderBy ?? ''}) { nodes { name isDefault } } } }`,
          )
        ).repository.labels.nodes as Array<{name: string; isDefault: boolean}>
      const asc = await labels()
      expect(asc[0]).to.deep.equal({name: 'bug', isDefault: true})
      expect(asc.at(-1)).to.deep.equal({name: 'zz-custom', isDefault: false})
      expect(asc.find((l) => l.name === 'triage')).to.deep.equal({name: 'triage', isDefault: false})
      expect((await labels(', orderBy: {field: CREATED_AT, direction: DESC}'))[0]!.name).to.equal('zz-custom')
      expect((await labels(', orderBy: {field: NAME, direction: ASC}')).map((l) => l.name)).to.deep.equal(
        asc.map((l) => l.name).sort((a, b) => a.localeCompare(b)),
      )
      const rest = await s.agent.rest.issues.getLabel({...base, name: 'bug'})
      expect(rest.data.default).to.equal(true)
    })

    it('issue types (schema extension): the repository’s types, one by name, an issue’s type', async () => {
      const {repository} = await data(GHX_OPERATIONS['repo.issue_types.list']!, {owner: OWNER, name: REPO, first: 10})
      const rest = await s.agent.request('GET /repos/{owner}/{repo}/issue-types', base)
      expect(repository.issueTypes.nodes).to.deep.equal(
        rest.data.map((t) => ({id: t!.node_id, name: t!.name, color: t!.color!.toUpperCase(), isEnabled: true})),
      )
      const bug = await data(
        '{ repository(owner: "ghx-bench", name: "sandbox") { issueType(name: "bug") { name description } } }',
      )
      expect(bug.repository.issueType).to.deep.equal({name: 'Bug', description: 'An unexpected problem or behavior'})
      await s.agent.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        ...base,
        issue_number: s.issue,
        type: 'Bug',
      })
      const typed = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { issueType { id name color } } } }`,
      )
      expect(typed.repository.issue.issueType).to.deep.include({name: 'Bug', color: 'RED'})
      expect(
        (
          await data('query($id: ID!) { node(id: $id) { ... on IssueType { name } } }', {
            id: typed.repository.issue.issueType.id,
          })
        ).node,
      ).to.deep.equal({name: 'Bug'})
      await s.agent.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        ...base,
        issue_number: s.issue,
        type: null,
      })
    })

    it('repositoryOwner and resource(url:) resolve the sandbox’s users, repositories, issues and pull requests; other URLs are null', async () => {
      const owner = await data(
        '{ repositoryOwner(login: "ghx-bench-agent") { __typename login } missing: repositoryOwner(login: "nobody-here") { login } }',
      )
      expect(owner).to.deep.equal({repositoryOwner: {__typename: 'User', login: 'ghx-bench-agent'}, missing: null})
      const resource = async (url: string) =>
        (
          await data(
            'query($url: URI!) { resource(url: $url) { __typename ... on Issue { number } ... on PullRequest { number } ... on Repository { nameWithOwner } } }',
            {url},
          )
        ).resource
      expect(await resource(`http://github.localhost/${OWNER}/${REPO}/issues/${s.issue}`)).to.deep.equal({
        __typename: 'Issue',
        number: s.issue,
      })
      expect(await resource(`http://github.localhost/${OWNER}/${REPO}/pull/${s.pr}`)).to.deep.equal({
        __typename: 'PullRequest',
        number: s.pr,
      })
      expect(await resource(`http://github.localhost/${OWNER}/${REPO}`)).to.deep.equal({
        __typename: 'Repository',
        nameWithOwner: 'ghx-bench/sandbox',
      })
      expect(await resource(`http://github.localhost/${OWNER}/${REPO}/pull/${s.issue}`)).to.equal(null)
      expect(await resource(`https://github.com/${OWNER}/${REPO}/issues/${s.issue}`)).to.equal(null)
    })

    it('organization(login:) for a user answers GitHub’s NOT_FOUND error (the sandbox has no organizations)', async () => {
      const answer = await gql(GHX_OPERATIONS['project_v2.org.view']!, {org: 'ghx-bench-agent', projectNumber: 1})
      expect(answer.status).to.equal(200)
      expect(answer.data).to.deep.equal({organization: null})
      expect(answer.errors).to.have.length(1)
      expect(answer.errors![0]).to.deep.include({
        type: 'NOT_FOUND',
        path: ['organization'],
        message: "Could not resolve to an Organization with the login of 'ghx-bench-agent'.",
      })
    })
  })

  describe('issues', () => {
    it('issue.assignees.add / remove: addAssigneesToAssignable and removeAssigneesFromAssignable, on issues and pull requests', async () => {
      const added = await data(GHX_OPERATIONS['issue.assignees.add']!, {
        assignableId: ids.issue,
        assigneeIds: [ids.agent, ids.reviewer],
      })
      expect(added.addAssigneesToAssignable.assignable).to.deep.equal({
        id: ids.issue,
        assignees: {nodes: [{login: 'ghx-bench-agent'}, {login: 'ghx-bench-reviewer'}]},
      })
      const removed = await data(GHX_OPERATIONS['issue.assignees.remove']!, {
        assignableId: ids.issue,
        assigneeIds: [ids.agent],
      })
      expect(removed.removeAssigneesFromAssignable.assignable.assignees.nodes).to.deep.equal([
        {login: 'ghx-bench-reviewer'},
      ])
      expect(
        (await s.agent.rest.issues.get({...base, issue_number: s.issue})).data.assignees!.map((a) => a.login),
      ).to.deep.equal(['ghx-bench-reviewer'])
      const onPull = await data(GHX_OPERATIONS['pr.assignees.add']!, {assignableId: ids.pr, assigneeIds: [ids.agent]})
      expect(onPull.addAssigneesToAssignable.assignable).to.deep.equal({
        id: ids.pr,
        assignees: {nodes: [{login: 'ghx-bench-agent'}]},
      })
      await data(GHX_OPERATIONS['pr.assignees.remove']!, {assignableId: ids.pr, assigneeIds: [ids.agent]})
      await data(GHX_OPERATIONS['issue.assignees.set']!, {issueId: ids.issue, assigneeIds: []})
      const unknown = await gql(GHX_OPERATIONS['issue.assignees.add']!, {
        assignableId: ids.issue,
        assigneeIds: ['U_kwbm9ib2R5'],
      })
      expect(unknown.errors![0]!.message).to.match(/^Could not resolve to a User with the global id of/)
    })

    it('issue.milestone.set: updateIssue answers the milestone’s number (ghx’s `updated` is its own field, not GitHub’s)', async () => {
      const lookup = await data(GHX_OPERATIONS['issue.milestone.set (lookup by number)']!, {
        owner: OWNER,
        name: REPO,
        issueNumber: s.issue,
        milestoneNumber: milestone,
      })
      const set = await data(GHX_OPERATIONS['issue.milestone.set']!, {
        issueId: lookup.repository.issue.id,
        milestoneId: lookup.repository.milestone.id,
      })
      expect(set).to.deep.equal({updateIssue: {issue: {id: ids.issue, milestone: {number: milestone}}}})
      const cleared = await data(GHX_OPERATIONS['issue.milestone.set']!, {issueId: ids.issue, milestoneId: null})
      expect(cleared.updateIssue.issue.milestone).to.equal(null)
      const wrong = await gql(GHX_OPERATIONS['issue.milestone.set']!, {issueId: ids.issue, milestoneId: 'MI_kwOTk5OQ'})
      expect(wrong.errors![0]).to.include({
        type: 'NOT_FOUND',
        message: "Could not resolve to a Milestone with the global id of 'MI_kwOTk5OQ'",
      })
    })

    it('blocked-by dependencies (schema extension): add, read both ways with the summary, remove; one state with REST', async () => {
      await data(GHX_OPERATIONS['issue.relations.blocked_by.add']!, {issueId: ids.issue, blockedByIssueId: ids.second})
      const rest = await s.agent.request('GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', {
        ...base,
        issue_number: s.issue,
      })
      expect(rest.data.map((i: {number: number}) => i.number)).to.deep.equal([second])
      const read = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { blockedBy(first: 10) { totalCount nodes { number } } issueDependenciesSummary { blockedBy blocking totalBlockedBy totalBlocking } } blocker: issue(number: ${second}) { blocking(first: 10) { nodes { number } } } } }`,
      )
      expect(read.repository.issue).to.deep.equal({
        blockedBy: {totalCount: 1, nodes: [{number: second}]},
        issueDependenciesSummary: {blockedBy: 1, blocking: 0, totalBlockedBy: 1, totalBlocking: 0},
      })
      expect(read.repository.blocker.blocking.nodes).to.deep.equal([{number: s.issue}])
      const view = await data(GHX_OPERATIONS['issue.relations.view']!, {owner: OWNER, name: REPO, issueNumber: s.issue})
      expect(view.repository.issue.blockedBy.nodes).to.deep.equal([{id: ids.second, number: second}])
      const self = await gql(GHX_OPERATIONS['issue.relations.blocked_by.add']!, {
        issueId: ids.issue,
        blockedByIssueId: ids.issue,
      })
      expect(self.errors).to.have.length(1)
      const removed = await data(GHX_OPERATIONS['issue.relations.blocked_by.remove']!, {
        issueId: ids.issue,
        blockedByIssueId: ids.second,
      })
      expect(removed.removeBlockedBy).to.deep.equal({issue: {id: ids.issue}, blockingIssue: {id: ids.second}})
      const again = await gql(GHX_OPERATIONS['issue.relations.blocked_by.remove']!, {
        issueId: ids.issue,
        blockedByIssueId: ids.second,
      })
      expect(again.errors![0]).to.include({type: 'NOT_FOUND'})
    })

    it('blocked-by orders the most recently added first by default, as GitHub does', async () => {
      const third = await s.agent.rest.issues.create({...base, title: 'Third'})
      await data(GHX_OPERATIONS['issue.relations.blocked_by.add']!, {issueId: ids.issue, blockedByIssueId: ids.second})
      await s.agent.request('POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', {
        ...base,
        issue_number: s.issue,
        issue_id: third.data.id,
      })
      const order = async (orderBy = '') =>
        (
          (
            await data(
              `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { blockedBy(first: 10${orderBy}) { nodes { title } } } } }`,
            )
          ).repository.issue.blockedBy.nodes as Array<{title: string}>
        ).map((n) => n.title)
      expect(await order()).to.deep.equal(['Third', 'Second issue'])
      expect(await order(', orderBy: {field: DEPENDENCY_ADDED_AT, direction: ASC}')).to.deep.equal([
        'Second issue',
        'Third',
      ])
      expect(await order(', orderBy: {field: CREATED_AT, direction: ASC}')).to.deep.equal(['Second issue', 'Third'])
      await data(GHX_OPERATIONS['issue.relations.blocked_by.remove']!, {
        issueId: ids.issue,
        blockedByIssueId: ids.second,
      })
      await s.agent.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}', {
        ...base,
        issue_number: s.issue,
        issue_id: third.data.id,
      })
    })

    it('issue.relations.prs.list: timeline items — no connected events (web-only links), cross-references from mentions', async () => {
      const linked = await data(GHX_OPERATIONS['issue.relations.prs.list']!, {
        owner: OWNER,
        name: REPO,
        issueNumber: s.issue,
      })
      expect(linked.repository.issue.timelineItems.nodes).to.deep.equal([])
      await s.reviewer.rest.issues.createComment({...base, issue_number: s.pr, body: `Related: #${s.issue}`})
      const timeline = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { timelineItems(first: 10, itemTypes: [CROSS_REFERENCED_EVENT, CONNECTED_EVENT]) { totalCount nodes { __typename ... on CrossReferencedEvent { actor { login } willCloseTarget isCrossRepository source { __typename ... on PullRequest { number } ... on Issue { number } } target { ... on Issue { number } } } } } } } }`,
      )
      // Mentions in a body and in a comment; ordered by time (the sandbox's clock has whole seconds, so compare as a set).
      expect(timeline.repository.issue.timelineItems.totalCount).to.equal(2)
      expect(timeline.repository.issue.timelineItems.nodes).to.have.deep.members([
        {
          __typename: 'CrossReferencedEvent',
          actor: {login: 'ghx-bench-agent'},
          willCloseTarget: false,
          isCrossRepository: false,
          source: {__typename: 'Issue', number: second},
          target: {number: s.issue},
        },
        {
          __typename: 'CrossReferencedEvent',
          actor: {login: 'ghx-bench-reviewer'},
          willCloseTarget: false,
          isCrossRepository: false,
          source: {__typename: 'PullRequest', number: s.pr},
          target: {number: s.issue},
        },
      ])
      await s.reviewer.rest.pulls.update({...base, pull_number: s.pr, body: `Fixes #${s.issue}`})
      const closing = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { timelineItems(first: 10, itemTypes: [CROSS_REFERENCED_EVENT]) { nodes { ... on CrossReferencedEvent { willCloseTarget url source { ... on PullRequest { number } } } } } } } }`,
      )
      expect(
        closing.repository.issue.timelineItems.nodes.find((n: {source: {number?: number}}) => n.source.number === s.pr),
      ).to.deep.include({willCloseTarget: true})
      await s.reviewer.rest.pulls.update({...base, pull_number: s.pr, body: 'Adds helpers.'})
    })

    it('timeline items of recorded events (the labels the issue was created with), and without itemTypes', async () => {
      const labelled = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { timelineItems(first: 5, itemTypes: [LABELED_EVENT]) { totalCount nodes { ... on LabeledEvent { actor { login } label { name } } } } } } }`,
      )
      expect(labelled.repository.issue.timelineItems.nodes).to.deep.equal([
        {actor: {login: 'ghx-bench-agent'}, label: {name: 'triage'}},
        {actor: {login: 'ghx-bench-agent'}, label: {name: 'feature-request'}},
      ])
      const all = await gql(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { timelineItems(first: 50) { totalCount nodes { __typename } } } } }`,
      )
      expect(all.status).to.equal(200)
    })

    it('issue.delete: deleteIssue removes the issue and its relations; its number is not reused; a pull request cannot be deleted', async () => {
      const doomed = await s.agent.rest.issues.create({...base, title: 'Doomed'})
      await s.agent.request('POST /repos/{owner}/{repo}/issues/{issue_number}/sub_issues', {
        ...base,
        issue_number: s.issue,
        sub_issue_id: doomed.data.id,
      })
      await data(GHX_OPERATIONS['issue.delete']!, {issueId: doomed.data.node_id})
      const gone = await s.agent.rest.issues
        .get({...base, issue_number: doomed.data.number})
        .catch((e: {status: number}) => e)
      expect(gone).to.have.property('status', 404)
      const parent = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { issue(number: ${s.issue}) { subIssues(first: 5) { totalCount } } } }`,
      )
      expect(parent.repository.issue.subIssues.totalCount).to.equal(0)
      const next = await s.agent.rest.issues.create({...base, title: 'After'})
      expect(next.data.number).to.equal(doomed.data.number + 1)
      const pull = await gql(GHX_OPERATIONS['issue.delete']!, {issueId: ids.pr})
      expect(pull.errors![0]).to.include({type: 'NOT_FOUND'})
    })
  })

  describe('pull requests', () => {
    it('pr.update: updatePullRequest sets title, body, base, assignees, labels and milestone; an unknown base is refused', async () => {
      const labelId = (await s.agent.rest.issues.getLabel({...base, name: 'bug'})).data.node_id
      const milestoneId = (await s.agent.rest.issues.getMilestone({...base, milestone_number: milestone})).data.node_id
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      await s.agent.rest.git.createRef({...base, ref: 'refs/heads/release', sha: main.data.object.sha})
      const updated = await data(
        'mutation($id: ID!, $labels: [ID!], $users: [ID!], $m: ID) { updatePullRequest(input: {pullRequestId: $id, title: "Stats helpers", body: "Reworked.", baseRefName: "release", labelIds: $labels, assigneeIds: $users, milestoneId: $m}) { actor { login } pullRequest { title body baseRefName labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } milestone { number } } } }',
        {id: ids.pr, labels: [labelId], users: [ids.agent], m: milestoneId},
      )
      expect(updated.updatePullRequest).to.deep.equal({
        actor: {login: 'ghx-bench-agent'},
        pullRequest: {
          title: 'Stats helpers',
          body: 'Reworked.',
          baseRefName: 'release',
          labels: {nodes: [{name: 'bug'}]},
          assignees: {nodes: [{login: 'ghx-bench-agent'}]},
          milestone: {number: milestone},
        },
      })
      const rest = await s.agent.rest.pulls.get({...base, pull_number: s.pr})
      expect(rest.data.base.ref).to.equal('release')
      const ghx = await data(GHX_OPERATIONS['pr.update']!, {
        pullRequestId: ids.pr,
        title: 'Add stats helpers',
        body: 'Adds helpers.',
      })
      expect(ghx.updatePullRequest.pullRequest).to.deep.include({
        title: 'Add stats helpers',
        state: 'OPEN',
        isDraft: false,
      })
      const unknown = await gql(
        'mutation($id: ID!) { updatePullRequest(input: {pullRequestId: $id, baseRefName: "no-such-branch"}) { pullRequest { baseRefName } } }',
        {id: ids.pr},
      )
      expect(unknown.errors).to.have.length(1)
      await data(
        'mutation($id: ID!) { updatePullRequest(input: {pullRequestId: $id, baseRefName: "main", labelIds: [], assigneeIds: [], milestoneId: null}) { pullRequest { id } } }',
        {id: ids.pr},
      )
    })

    it('merge fields: no merge queue; mergeCommit once merged; potentialMergeCommit is null once merged and not modelled before', async () => {
      const before = await gql(
        `{ repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: ${s.pr}) { isInMergeQueue isMergeQueueEnabled mergeQueueEntry { id } mergeStateStatus mergeCommit { oid } } } }`,
      )
      expect(before.data).to.deep.equal({
        repository: {
          pullRequest: {
            isInMergeQueue: false,
            isMergeQueueEnabled: false,
            mergeQueueEntry: null,
            mergeStateStatus: 'CLEAN',
            mergeCommit: null,
          },
        },
      })
      const potential = await gql(
        `{ repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: ${s.pr}) { potentialMergeCommit { oid } } } }`,
      )
      expect(potential.status).to.equal(501)
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      const branch = `merge-me-${Date.now()}`
      await s.agent.rest.git.createRef({...base, ref: `refs/heads/${branch}`, sha: main.data.object.sha})
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'merge-me.txt',
        message: 'Add a file',
        content: Buffer.from('hi\n').toString('base64'),
        branch,
      })
      const pr = await s.agent.rest.pulls.create({...base, title: 'Merge me', head: branch, base: 'main'})
      await data(GHX_OPERATIONS['pr.merge']!, {pullRequestId: pr.data.node_id, mergeMethod: 'SQUASH'})
      const merged = await data(
        `{ repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: ${pr.data.number}) { merged mergeCommit { oid } potentialMergeCommit { oid } } } }`,
      )
      const rest = await s.agent.rest.pulls.get({...base, pull_number: pr.data.number})
      expect(merged.repository.pullRequest).to.deep.equal({
        merged: true,
        mergeCommit: {oid: rest.data.merge_commit_sha},
        potentialMergeCommit: null,
      })
    })

    it('a pull request behind its base is mergeable and CLEAN: GitHub says BEHIND only under a branch protection requiring up-to-date branches', async () => {
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      const branch = `behind-${Date.now()}`
      await s.agent.rest.git.createRef({...base, ref: `refs/heads/${branch}`, sha: main.data.object.sha})
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: `${branch}.txt`,
        message: 'Change',
        content: Buffer.from('x\n').toString('base64'),
        branch,
      })
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: `${branch}-main.txt`,
        message: 'Move main',
        content: Buffer.from('y\n').toString('base64'),
        branch: 'main',
      })
      const pr = await s.agent.rest.pulls.create({...base, title: 'Behind', head: branch, base: 'main'})
      const status = await data(GHX_OPERATIONS['pr.merge.status']!, {
        owner: OWNER,
        name: REPO,
        prNumber: pr.data.number,
      })
      expect(status.repository.pullRequest).to.deep.equal({
        mergeable: 'MERGEABLE',
        mergeStateStatus: 'CLEAN',
        reviewDecision: null,
        isDraft: false,
        state: 'OPEN',
      })
      expect((await s.agent.rest.pulls.get({...base, pull_number: pr.data.number})).data.mergeable_state).to.equal(
        'clean',
      )
      const updated = await data(GHX_OPERATIONS['pr.branch.update']!, {pullRequestId: pr.data.node_id})
      expect(updated.updatePullRequestBranch.pullRequest.number).to.equal(pr.data.number)
    })

    it('gh pr merge --delete-branch (gh 2.23 asks isInMergeQueue and isMergeQueueEnabled) merges and deletes the branch', async () => {
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      const branch = `gh-merge-${Date.now()}`
      await s.agent.rest.git.createRef({...base, ref: `refs/heads/${branch}`, sha: main.data.object.sha})
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: `${branch}.txt`,
        message: 'Change',
        content: Buffer.from('x\n').toString('base64'),
        branch,
      })
      const pr = await s.agent.rest.pulls.create({...base, title: 'Merged by gh', head: branch, base: 'main'})
      const result = await new Promise<{code: number; stderr: string}>((resolve) => {
        const child = execFile(
          'gh',
          ['pr', 'merge', String(pr.data.number), '-R', `${OWNER}/${REPO}`, '--squash', '--delete-branch'],
          {cwd: tmpdir(), env: {...process.env, ...s.sandbox.ghEnv(configDir)}, timeout: 20_000},
          (error, _stdout, stderr) => resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stderr}),
        )
        child.stdin!.end()
      })
      expect(result.code, result.stderr).to.equal(0)
      expect((await s.agent.rest.pulls.get({...base, pull_number: pr.data.number})).data.merged).to.equal(true)
      const deleted = await s.agent.rest.repos.getBranch({...base, branch}).catch((e: {status: number}) => e)
      expect(deleted).to.have.property('status', 404)
    })

    it('pr.close: closePullRequest, with the comment ghx adds in the same document', async () => {
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      const branch = `close-me-${Date.now()}`
      await s.agent.rest.git.createRef({...base, ref: `refs/heads/${branch}`, sha: main.data.object.sha})
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: `${branch}.txt`,
        message: 'Change',
        content: Buffer.from('x\n').toString('base64'),
        branch,
      })
      const pr = await s.agent.rest.pulls.create({...base, title: 'Close me', head: branch, base: 'main'})
      const closed = await data(GHX_OPERATIONS['pr.close']!, {
        pullRequestId: pr.data.node_id,
        addComment: true,
        commentBody: 'Superseded.',
      })
      expect(closed.closePullRequest.pullRequest).to.deep.include({
        number: pr.data.number,
        state: 'CLOSED',
        closed: true,
      })
      expect(closed.addComment.commentEdge.node.id).to.be.a('string')
      expect((await s.agent.rest.pulls.get({...base, pull_number: pr.data.number})).data).to.include({
        state: 'closed',
        merged: false,
        comments: 1,
      })
    })
  })

  describe('releases', () => {
    it('tagCommit: none for a draft (its tag does not exist yet); the commit the tag was made at once published, even after the branch moves', async () => {
      const list = await data(GHX_OPERATIONS['release.list']!, {owner: OWNER, name: REPO, first: 10})
      expect(list.repository.releases.nodes[0]).to.deep.include({
        tagName: 'v0.1.0-bench',
        isDraft: true,
        tagCommit: null,
      })
      await s.agent.rest.repos.updateRelease({...base, release_id: s.releaseId, draft: false})
      const head = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'after-release.txt',
        message: 'After the release',
        content: Buffer.from('z\n').toString('base64'),
        branch: 'main',
      })
      const view = await data(GHX_OPERATIONS['release.view']!, {owner: OWNER, name: REPO, tagName: 'v0.1.0-bench'})
      expect(view.repository.release).to.deep.include({isDraft: false, tagCommit: {oid: head}, databaseId: s.releaseId})
      const created = await s.agent.rest.repos.createRelease({...base, tag_name: 'v0.2.0-bench', name: 'Second'})
      const ordered = await data(
        '{ repository(owner: "ghx-bench", name: "sandbox") { releases(first: 5, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { databaseId } } } }',
      )
      expect(ordered.repository.releases.nodes.map((r: {databaseId: number}) => r.databaseId)).to.deep.equal([
        s.releaseId,
        created.data.id,
      ])
    })
  })

  describe('the served schema', () => {
    it('adds GitHub’s newer fields as an extension, which may not redefine what @octokit/graphql-schema already has', () => {
      const sdl = readFileSync(
        path.join(path.dirname(fileURLToPath(resolve('@octokit/graphql-schema', import.meta.url))), 'schema.graphql'),
        'utf8',
      )
      for (const name of ['IssueType', 'IssueDependenciesSummary', 'AddBlockedByPayload', 'RemoveBlockedByPayload']) {
        expect(sdl, name).not.to.match(new RegExp(`^(type|input|enum) ${name} `, 'm'))
        expect(githubSchema().getType(name), name).to.not.equal(undefined)
      }
      const issue = githubSchema().getType('Issue') as unknown as {getFields(): Record<string, unknown>}
      expect(Object.keys(issue.getFields())).to.include.members([
        'blockedBy',
        'blocking',
        'issueDependenciesSummary',
        'issueType',
      ])
    })
  })
})
