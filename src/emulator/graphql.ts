/**
 * GraphQL v4 over the same store as REST. Every query is parsed and validated against GitHub's
 * public schema (@octokit/graphql-schema, plus the fields GitHub added since its last release that
 * the sandbox models: schema-extension.ts) before it runs, so an invalid query fails as GitHub fails
 * it. Objects are plain resolver objects; a field the sandbox does not model raises an error that
 * names it (HTTP 501), never a silent null.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {resolve} from 'import-meta-resolve'
import {
  buildSchema,
  execute,
  extendSchema,
  GraphQLError,
  OverlappingFieldsCanBeMergedRule,
  parse,
  specifiedRules,
  validate,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql'
import {SandboxError} from './errors.js'
import {closesIssue} from './events.js'
import {timelineItems as timelineItemsOf} from './graphql-timeline.js'
import {blankIssuesEnabled, codeOfConduct, contactLinks, defaultTree, diskUsage, fundingLinks, issueTemplates, languages, license, primaryLanguage, pullRequestTemplates, securityPolicy} from './repo-meta.js'
import {SCHEMA_EXTENSION} from './schema-extension.js'
import {matchesIssueFilters, searchIssues, SearchInvalid, searchRepos, searchUsers, textMatches} from './search.js'
import type {Links} from './serialize.js'
import {nodeId, parseNodeId, type Store} from './store.js'
import type {Issue, Project, ProjectItem, Pull, Reaction, Repo, Review, ReviewComment, ReviewThread} from './state.js'

let schema: GraphQLSchema | undefined

/** GitHub's schema, built once per process (about a third of a second). */
export function githubSchema(): GraphQLSchema {
  if (!schema) {
    // The package's own entry parses its 5 MB JSON copy on import; read the SDL file beside it instead.
    const entry = fileURLToPath(resolve('@octokit/graphql-schema', import.meta.url))
    const idl = readFileSync(path.join(path.dirname(entry), 'schema.graphql'), 'utf8')
    // GitHub's published SDL defines one field twice; it is valid for queries, so skip SDL validation.
    // The extension is validated: it may not redefine a type or field the package already has.
    schema = extendSchema(buildSchema(idl, {assumeValidSDL: true}), parse(SCHEMA_EXTENSION))
  }
  return schema
}

class NotModelled extends GraphQLError {}

/**
 * The validation rules GitHub applies: the specification's, less OverlappingFieldsCanBeMerged, which
 * GitHub does not enforce across union members (gh's own `issue view` query selects `state` on both
 * Issue and PullRequest, whose enums differ, and GitHub answers it).
 */
const GITHUB_RULES = specifiedRules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule)

type Obj = Record<string, unknown>
type Args = Record<string, unknown>

interface Context {
  store: Store
  viewer: string
  links: Links
}

const fieldResolver: GraphQLFieldResolver<Obj, Context, Args> = (source, args, context, info) => {
  if (source === null || typeof source !== 'object' || !(info.fieldName in source)) {
    throw new NotModelled(`ghx-bench sandbox does not model ${info.parentType.name}.${info.fieldName}`)
  }
  const value = source[info.fieldName]
  return typeof value === 'function' ? (value as (a: Args, c: Context) => unknown).call(source, args, context) : value
}

// ---- connections ------------------------------------------------------------------------------

const cursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64')
const fromCursor = (value: unknown) => (typeof value === 'string' ? Number(Buffer.from(value, 'base64').toString().split(':')[1]) : undefined)

function connection<T>(items: T[], args: Args): Obj {
  let start = 0
  let end = items.length
  const after = fromCursor(args.after)
  const before = fromCursor(args.before)
  if (after !== undefined && Number.isFinite(after)) start = after + 1
  if (before !== undefined && Number.isFinite(before)) end = before
  if (typeof args.first === 'number') end = Math.min(end, start + args.first)
  if (typeof args.last === 'number') start = Math.max(start, end - args.last)
  const slice = items.slice(start, end)
  return {
    totalCount: items.length,
    nodes: slice,
    edges: slice.map((node, i) => ({node, cursor: cursor(start + i)})),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursor(start) : null,
      endCursor: slice.length ? cursor(end - 1) : null,
    },
  }
}

const empty = (args: Args) => connection([], args)
/** A string argument, or the fallback when it is absent or not a string. */
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback)
const upper = (value: string) => value.toUpperCase()

// ---- objects ----------------------------------------------------------------------------------

function actor(ctx: Context, login: string | null): Obj | null {
  if (login === null) return null
  const user = ctx.store.user(login)
  return {
    __typename: user.type === 'Bot' ? 'Bot' : 'User',
    id: nodeId('user', user.id),
    databaseId: user.id,
    login: user.login,
    name: user.name,
    url: `${ctx.links.html}/${user.login}`,
    avatarUrl: `${ctx.links.html}/avatars/${user.login}`,
    projectV2: ({number}: Args) => projectNode(ctx, ctx.store.project(user.login, Number(number))),
    projectsV2: (args: Args) => connection(ctx.store.state.projects.filter((p) => p.owner === user.login).map((p) => projectNode(ctx, p)), args),
  }
}

function labelNode(ctx: Context, repo: Repo, name: string): Obj {
  const label = ctx.store.label(repo, name)
  const path = `/${repo.owner}/${repo.name}/labels/${encodeURIComponent(label.name)}`
  const labelled = (pulls: boolean, args: Args) => {
    const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
    const list = Object.values(repo.issues).filter((i) => i.is_pull === pulls && i.labels.includes(label.name) && (!states || states.includes(i.is_pull && repo.pulls[i.number]!.merged_at ? 'MERGED' : upper(i.state))))
    return connection(list.map((i) => issueNode(ctx, repo, i)), args)
  }
  return {
    __typename: 'Label',
    id: nodeId('label', label.id),
    name: label.name,
    color: label.color,
    description: label.description,
    isDefault: label.default === true,
    // State saved before labels were timed: the repository's creation.
    createdAt: label.created_at ?? repo.created_at,
    updatedAt: label.updated_at ?? label.created_at ?? repo.created_at,
    resourcePath: path,
    url: `${ctx.links.html}${path}`,
    repository: () => repositoryNode(ctx, repo),
    issues: (args: Args) => labelled(false, args),
    pullRequests: (args: Args) => labelled(true, args),
  }
}

function issueTypeNode(type: Repo['issue_types'][number]): Obj {
  // IssueType.issues(repositoryId:) is left unmodelled: it answers 501 naming it.
  return {__typename: 'IssueType', id: nodeId('issue_type', type.id), name: type.name, description: type.description, color: upper(type.color), isEnabled: true, isPrivate: false}
}

/** Orders by the given field (a creation order or a name) and direction; ASC unless DESC is asked. */
function ordered<T>(items: T[], orderBy: unknown, keys: Record<string, (item: T) => number | string>, fallback: string): T[] {
  const order = (orderBy ?? {}) as {field?: string; direction?: string}
  const key = keys[order.field ?? fallback] ?? keys[fallback]!
  const sign = order.direction === 'DESC' ? -1 : 1
  return [...items].sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y)) * sign
  })
}

function milestoneNode(ctx: Context, repo: Repo, number: number | null): Obj | null {
  if (number === null) return null
  const m = ctx.store.milestone(repo, number)
  return {__typename: 'Milestone', id: nodeId('milestone', m.id), number: m.number, title: m.title, description: m.description, dueOn: m.due_on, state: upper(m.state), url: `${ctx.links.html}/${repo.owner}/${repo.name}/milestone/${m.number}`}
}

function association(repo: Repo, login: string): string {
  return login === repo.owner ? 'OWNER' : 'CONTRIBUTOR'
}

// ---- reactions ----------------------------------------------------------------------------------

/** GraphQL's ReactionContent names for the REST names the state keeps. */
const REACTION_CONTENT: Record<string, Reaction['content']> = {THUMBS_UP: '+1', THUMBS_DOWN: '-1', LAUGH: 'laugh', CONFUSED: 'confused', HEART: 'heart', HOORAY: 'hooray', EYES: 'eyes', ROCKET: 'rocket'}
const reactionContentName = (content: Reaction['content']): string => Object.keys(REACTION_CONTENT).find((name) => REACTION_CONTENT[name] === content)!

function reactionSubjectNode(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj {
  if (subject.kind === 'issue') return issueNode(ctx, repo, ctx.store.issueById(repo, subject.id))
  if (subject.kind === 'comment') return commentNode(ctx, repo, subject.id)
  return reviewCommentNode(ctx, repo, ctx.store.reviewComment(repo, subject.id))
}

function reactionNode(ctx: Context, repo: Repo, reaction: Reaction): Obj {
  return {
    __typename: 'Reaction',
    id: nodeId('reaction', reaction.id),
    databaseId: reaction.id,
    content: reactionContentName(reaction.content),
    createdAt: reaction.created_at,
    user: actor(ctx, reaction.user),
    reactable: () => reactionSubjectNode(ctx, repo, reaction.subject),
  }
}

/** One group per content that has reactions, in GitHub's content order. */
function reactionGroups(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj[] {
  const reactions = ctx.store.reactions(repo, subject)
  return Object.entries(REACTION_CONTENT).flatMap(([name, content]) => {
    const group = reactions.filter((r) => r.content === content)
    if (group.length === 0) return []
    const users = () => group.map((r) => actor(ctx, r.user))
    return [{__typename: 'ReactionGroup', content: name, createdAt: group[0]!.created_at, reactors: (args: Args) => connection(users(), args), users: (args: Args) => connection(users(), args), viewerHasReacted: group.some((r) => r.user === ctx.viewer), subject: () => reactionSubjectNode(ctx, repo, subject)}]
  })
}

/** The Reactable fields of an issue, pull request or comment. */
function reactable(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj {
  return {
    reactionGroups: () => reactionGroups(ctx, repo, subject),
    reactions: (args: Args) => {
      const content = typeof args.content === 'string' ? REACTION_CONTENT[args.content] : undefined
      const list = ctx.store.reactions(repo, subject).filter((r) => !content || r.content === content)
      return {...connection(list.map((r) => reactionNode(ctx, repo, r)), args), viewerHasReacted: list.some((r) => r.user === ctx.viewer)}
    },
    viewerCanReact: true,
  }
}

/** The subject of addReaction / removeReaction. */
function reactionSubject(store: Store, node: unknown): {repo: Repo; subject: Reaction['subject']} {
  const {repo, kind, id} = locate(store, node)
  if (kind === 'issue' || kind === 'pull') return {repo, subject: {kind: 'issue', id}}
  if (kind === 'comment' || kind === 'review_comment') return {repo, subject: {kind, id}}
  throw new NotModelled(`ghx-bench sandbox models reactions on issues, pull requests and their comments, not on ${kind}`)
}

function commentNode(ctx: Context, repo: Repo, id: number): Obj {
  const c = repo.comments[id]!
  return {
    __typename: 'IssueComment',
    id: nodeId('comment', c.id),
    databaseId: c.id,
    body: c.body,
    author: actor(ctx, c.user),
    authorAssociation: association(repo, c.user),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    includesCreatedEdit: false,
    isMinimized: false,
    minimizedReason: null,
    ...reactable(ctx, repo, {kind: 'comment', id: c.id}),
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/${repo.issues[c.issue]!.is_pull ? 'pull' : 'issues'}/${c.issue}#issuecomment-${c.id}`,
    viewerDidAuthor: c.user === ctx.viewer,
  }
}

/** Fields Issue and PullRequest share. */
function issueLike(ctx: Context, repo: Repo, issue: Issue): Obj {
  const kind = issue.is_pull ? 'pull' : 'issue'
  return {
    id: nodeId(kind, issue.id),
    databaseId: issue.id,
    number: issue.number,
    title: issue.title,
    body: issue.body ?? '',
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}`,
    createdAt: issue.created_at,
    updatedAt: issue.updated_at,
    closedAt: issue.closed_at,
    closed: issue.state === 'closed',
    locked: issue.locked,
    author: actor(ctx, issue.user),
    authorAssociation: association(repo, issue.user),
    assignees: (args: Args) => connection(issue.assignees.map((login) => actor(ctx, login)), args),
    labels: (args: Args) => connection(issue.labels.map((name) => labelNode(ctx, repo, name)), args),
    milestone: milestoneNode(ctx, repo, issue.milestone),
    comments: (args: Args) => connection(issue.comments.map((id) => commentNode(ctx, repo, id)), args),
    projectCards: empty,
    projectItems: (args: Args) => connection(projectItemsFor(ctx, repo, issue), args),
    ...reactable(ctx, repo, {kind: 'issue', id: issue.id}),
    repository: () => repositoryNode(ctx, repo),
    timelineItems: (args: Args) => timelineItems(ctx, repo, issue, args),
    viewerDidAuthor: issue.user === ctx.viewer,
  }
}

// ---- timelines ----------------------------------------------------------------------------------

/** Issue and pull request timelines (graphql-timeline.ts), with this file's node builders. */
function timelineItems(ctx: Context, repo: Repo, issue: Issue, args: Args): Obj {
  return timelineItemsOf(
    {
      store: ctx.store,
      html: ctx.links.html,
      actor: (login) => actor(ctx, login),
      issue: (i) => issueNode(ctx, repo, i),
      comment: (id) => commentNode(ctx, repo, id),
      commit: (sha) => commitNode(ctx, repo, sha),
      review: (review) => reviewNode(ctx, repo, review),
      thread: (thread) => threadNode(ctx, repo, thread),
      repository: () => repositoryNode(ctx, repo),
      connection: (items, a) => connection(items, a),
    },
    repo,
    issue,
    args,
  )
}

function issueNode(ctx: Context, repo: Repo, issue: Issue): Obj {
  if (issue.is_pull) return pullNode(ctx, repo, issue, repo.pulls[issue.number]!)
  return {
    __typename: 'Issue',
    ...issueLike(ctx, repo, issue),
    state: upper(issue.state),
    stateReason: issue.state_reason ? upper(issue.state_reason) : null,
    parent: () => (issue.parent === null ? null : issueNode(ctx, repo, repo.issues[issue.parent]!)),
    subIssues: (args: Args) => connection(issue.sub_issues.map((n) => issueNode(ctx, repo, repo.issues[n]!)), args),
    subIssuesSummary: () => {
      const completed = issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length
      const total = issue.sub_issues.length
      return {total, completed, percentCompleted: total === 0 ? 0 : Math.round((completed / total) * 100)}
    },
    closedByPullRequestsReferences: (args: Args) => connection(closingPulls(repo, issue).map((p) => pullNode(ctx, repo, repo.issues[p.number]!, p)), args),
    // Schema extension (schema-extension.ts): issue dependencies and issue types.
    blockedBy: (args: Args) => connection(dependencies(issue.blocked_by.map((n) => repo.issues[n]!), args).map((i) => issueNode(ctx, repo, i)), args),
    blocking: (args: Args) => connection(dependencies(ctx.store.blocking(repo, issue.number), args).map((i) => issueNode(ctx, repo, i)), args),
    issueDependenciesSummary: () => {
      const blockedBy = issue.blocked_by.map((n) => repo.issues[n]!)
      const blocking = ctx.store.blocking(repo, issue.number)
      const open = (list: Issue[]) => list.filter((i) => i.state === 'open').length
      return {blockedBy: open(blockedBy), blocking: open(blocking), totalBlockedBy: blockedBy.length, totalBlocking: blocking.length}
    },
    issueType: () => {
      const type = issue.issue_type === null ? undefined : repo.issue_types.find((t) => t.name === issue.issue_type)
      return type ? issueTypeNode(type) : null
    },
  }
}

/**
 * Dependencies in the order asked (default: the most recently added first). `list` is in the order the
 * dependencies were added for blockedBy; the sandbox does not time dependencies, so for blocking it is
 * the blocked issues' creation order.
 */
function dependencies(list: Issue[], args: Args): Issue[] {
  const order = (args.orderBy ?? {}) as {field?: string; direction?: string}
  const added = order.field === 'CREATED_AT' ? [...list].sort((a, b) => a.id - b.id) : list
  return order.direction === 'ASC' ? added : [...added].reverse()
}

/** Pull requests whose body says "fixes #N" (or closes / resolves), as GitHub links them. */
function closingPulls(repo: Repo, issue: Issue): Pull[] {
  return Object.values(repo.pulls).filter((p) => closesIssue(repo.issues[p.number]!.body, issue.number))
}

/** A commit's check runs (its workflow runs' jobs) and commit statuses (the latest per context), as GraphQL contexts. */
function checkContexts(ctx: Context, repo: Repo, sha: string): Obj[] {
  const runs = Object.values(repo.runs).filter((r) => r.head_sha === sha)
  const checkRuns = runs.flatMap((run) => {
    const attempt = ctx.store.latestAttempt(run)
    return attempt.jobs.map((job): Obj => {
      const status = ctx.store.jobStatus(attempt, job)
      const url = `${ctx.links.html}/${repo.owner}/${repo.name}/actions/runs/${run.id}/job/${job.id}`
      return {
        __typename: 'CheckRun',
        id: nodeId('job', job.id),
        databaseId: job.id,
        name: job.name,
        status: upper(status.status),
        conclusion: status.conclusion ? upper(status.conclusion) : null,
        startedAt: ctx.store.attemptTimes(attempt).started,
        completedAt: ctx.store.attemptTimes(attempt).completed,
        detailsUrl: url,
        permalink: url,
        url,
        resourcePath: url.slice(ctx.links.html.length),
        externalId: String(job.id),
        title: null,
        summary: null,
        text: null,
        // No branch protection, so no check is required.
        isRequired: false,
        checkSuite: {workflowRun: {workflow: {name: repo.workflows[run.workflow_id]!.name}, databaseId: run.id, runNumber: run.run_number, url: `${ctx.links.html}/${repo.owner}/${repo.name}/actions/runs/${run.id}`}},
      }
    })
  })
  const statuses = ctx.store.latestStatuses(repo, sha).map((status): Obj => ({
    __typename: 'StatusContext',
    id: `SC_kw${Buffer.from(String(status.id)).toString('base64url')}`,
    context: status.context,
    state: upper(status.state),
    description: status.description,
    targetUrl: status.target_url,
    createdAt: status.created_at,
    creator: actor(ctx, status.creator),
    avatarUrl: `${ctx.links.html}/avatars/${status.creator}`,
    isRequired: false,
    commit: () => commitNode(ctx, repo, sha),
  }))
  return [...checkRuns, ...statuses]
}

/** GitHub's rollup of contexts: any failure (or error) fails it, anything unfinished leaves it pending. */
function rollupState(contexts: Obj[]): string {
  const states = contexts.map((c) => {
    if (c.__typename === 'StatusContext') return c.state === 'EXPECTED' ? 'PENDING' : String(c.state)
    if (c.status !== 'COMPLETED') return 'PENDING'
    return ['SUCCESS', 'NEUTRAL', 'SKIPPED'].includes(String(c.conclusion)) ? 'SUCCESS' : 'FAILURE'
  })
  for (const state of ['FAILURE', 'ERROR', 'PENDING']) if (states.includes(state)) return state
  return 'SUCCESS'
}

function commitNode(ctx: Context, repo: Repo, sha: string): Obj {
  const commit = ctx.store.commit(repo, sha)
  const [headline, ...rest] = commit.message.split('\n')
  const contexts = checkContexts(ctx, repo, sha)
  const statusContexts = contexts.filter((c) => c.__typename === 'StatusContext')
  const email = `${commit.author}@users.noreply.github.localhost`
  const gitActor = (identity: {name: string; email: string} | undefined) => ({name: identity?.name ?? commit.author, email: identity?.email ?? email, date: commit.date, user: actor(ctx, commit.author)})
  return {
    __typename: 'Commit',
    id: `C_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
    oid: commit.sha,
    abbreviatedOid: commit.sha.slice(0, 7),
    message: commit.message,
    messageHeadline: headline ?? '',
    messageBody: rest.join('\n').trim(),
    committedDate: commit.date,
    authoredDate: commit.date,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    author: gitActor(commit.author_git),
    committer: gitActor(commit.committer_git ?? commit.author_git),
    authors: (args: Args) => connection([gitActor(commit.author_git)], args),
    statusCheckRollup: contexts.length === 0 ? null : {id: `SCR_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`, state: rollupState(contexts), contexts: (args: Args) => connection(contexts, args), commit: () => commitNode(ctx, repo, sha)},
    // The legacy combined status: commit statuses only, null when there are none.
    status:
      statusContexts.length === 0
        ? null
        : {
            id: `ST_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
            state: rollupState(statusContexts),
            contexts: statusContexts,
            context: ({name}: Args) => statusContexts.find((c) => c.context === name) ?? null,
            combinedContexts: (args: Args) => connection(contexts, args),
            commit: () => commitNode(ctx, repo, sha),
          },
  }
}

function reviewNode(ctx: Context, repo: Repo, review: Review): Obj {
  return {
    __typename: 'PullRequestReview',
    id: nodeId('review', review.id),
    databaseId: review.id,
    author: actor(ctx, review.user),
    authorAssociation: association(repo, review.user),
    body: review.body,
    state: review.state,
    submittedAt: review.submitted_at,
    createdAt: review.submitted_at,
    commit: {oid: review.commit_id},
    reactionGroups: [],
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/pull/${review.pull}#pullrequestreview-${review.id}`,
    comments: (args: Args) => connection(Object.values(repo.review_comments).filter((c) => c.review_id === review.id).map((c) => reviewCommentNode(ctx, repo, c)), args),
  }
}

function reviewCommentNode(ctx: Context, repo: Repo, comment: ReviewComment): Obj {
  const replyTo = comment.in_reply_to_id === null ? null : repo.review_comments[comment.in_reply_to_id]
  return {
    __typename: 'PullRequestReviewComment',
    id: nodeId('review_comment', comment.id),
    databaseId: comment.id,
    body: comment.body,
    author: actor(ctx, comment.user),
    authorAssociation: association(repo, comment.user),
    createdAt: comment.created_at,
    updatedAt: comment.updated_at,
    path: comment.path,
    line: comment.line,
    originalLine: comment.line,
    startLine: comment.start_line ?? null,
    originalStartLine: comment.start_line ?? null,
    // Positions in the file's patch (deprecated by GitHub, still answered); a file-level comment has none.
    position: comment.line === null ? null : (comment.position ?? comment.line),
    originalPosition: comment.line === null ? 1 : (comment.position ?? comment.line),
    diffHunk: comment.diff_hunk ?? '',
    subjectType: comment.subject_type === 'file' ? 'FILE' : 'LINE',
    state: repo.reviews[comment.review_id]?.state === 'PENDING' ? 'PENDING' : 'SUBMITTED',
    commit: () => commitNode(ctx, repo, comment.commit_id),
    originalCommit: () => commitNode(ctx, repo, comment.commit_id),
    pullRequest: () => pullNode(ctx, repo, repo.issues[comment.pull]!, repo.pulls[comment.pull]!),
    outdated: false,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/pull/${comment.pull}#discussion_r${comment.id}`,
    replyTo: replyTo ? {id: nodeId('review_comment', replyTo.id), databaseId: replyTo.id} : null,
    pullRequestReview: () => reviewNode(ctx, repo, repo.reviews[comment.review_id]!),
    ...reactable(ctx, repo, {kind: 'review_comment', id: comment.id}),
  }
}

function threadNode(ctx: Context, repo: Repo, thread: ReviewThread): Obj {
  return {
    __typename: 'PullRequestReviewThread',
    id: nodeId('thread', thread.id),
    isResolved: thread.resolved,
    isOutdated: false,
    isCollapsed: thread.resolved,
    path: thread.path,
    line: thread.line,
    originalLine: thread.line,
    startLine: thread.start_line ?? null,
    originalStartLine: thread.start_line ?? null,
    diffSide: thread.side ?? 'RIGHT',
    startDiffSide: thread.start_line == null ? null : (thread.start_side ?? thread.side ?? 'RIGHT'),
    subjectType: thread.line === null ? 'FILE' : 'LINE',
    resolvedBy: actor(ctx, thread.resolved_by),
    viewerCanReply: true,
    viewerCanResolve: !thread.resolved,
    viewerCanUnresolve: thread.resolved,
    comments: (args: Args) => connection(thread.comments.map((id) => reviewCommentNode(ctx, repo, repo.review_comments[id]!)), args),
    pullRequest: () => pullNode(ctx, repo, repo.issues[thread.pull]!, repo.pulls[thread.pull]!),
  }
}

export function reviewDecision(repo: Repo, pull: Pull): string | null {
  const latest = new Map<string, Review['state']>()
  for (const review of Object.values(repo.reviews).filter((r) => r.pull === pull.number).sort((a, b) => a.id - b.id)) {
    if (review.state === 'APPROVED' || review.state === 'CHANGES_REQUESTED') latest.set(review.user, review.state)
  }
  const states = [...latest.values()]
  if (states.includes('CHANGES_REQUESTED')) return 'CHANGES_REQUESTED'
  if (states.includes('APPROVED')) return 'APPROVED'
  return pull.requested_reviewers.length > 0 ? 'REVIEW_REQUIRED' : null
}

function pullNode(ctx: Context, repo: Repo, issue: Issue, pull: Pull): Obj {
  const store = ctx.store
  const files = () => store.pullFiles(repo, pull.number)
  const head = store.headSha(repo, pull)
  const state = pull.merged_at ? 'MERGED' : upper(issue.state)
  return {
    __typename: 'PullRequest',
    ...issueLike(ctx, repo, issue),
    state,
    isDraft: pull.draft,
    merged: pull.merged_at !== null,
    mergedAt: pull.merged_at,
    mergedBy: actor(ctx, pull.merged_by),
    mergeable: issue.state === 'open' ? 'MERGEABLE' : 'UNKNOWN',
    // GitHub reports BEHIND only under a branch protection that requires up-to-date branches, which the sandbox does not model.
    mergeStateStatus: issue.state !== 'open' ? 'UNKNOWN' : pull.draft ? 'DRAFT' : 'CLEAN',
    maintainerCanModify: pull.maintainer_can_modify,
    additions: () => files().reduce((n, f) => n + f.additions, 0),
    deletions: () => files().reduce((n, f) => n + f.deletions, 0),
    changedFiles: () => files().length,
    files: (args: Args) => connection(files().map((f) => ({path: f.filename, additions: f.additions, deletions: f.deletions, changeType: {added: 'ADDED', removed: 'DELETED', modified: 'MODIFIED'}[f.status]})), args),
    baseRefName: pull.base,
    headRefName: pull.head,
    baseRefOid: repo.branches[pull.base] ?? null,
    headRefOid: head,
    // No branch protection in the sandbox: no ref has a rule.
    baseRef: {name: pull.base, target: {oid: repo.branches[pull.base] ?? null}, branchProtectionRule: null},
    headRef: repo.branches[pull.head] ? {name: pull.head, target: {oid: repo.branches[pull.head]}, branchProtectionRule: null} : null,
    headRepository: {id: nodeId('repo', repo.id), name: repo.name, nameWithOwner: `${repo.owner}/${repo.name}`},
    headRepositoryOwner: actor(ctx, repo.owner),
    isCrossRepository: false,
    commits: (args: Args) => connection(store.pullCommits(repo, pull.number).map((c) => ({commit: commitNode(ctx, repo, c.sha)})), args),
    reviewRequests: (args: Args) => connection(pull.requested_reviewers.map((login) => ({requestedReviewer: actor(ctx, login)})), args),
    reviews: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const reviews = Object.values(repo.reviews)
        .filter((r) => r.pull === pull.number && (r.state !== 'PENDING' || r.user === ctx.viewer) && (!states || states.includes(r.state)))
        .sort((a, b) => a.id - b.id)
      return connection(reviews.map((r) => reviewNode(ctx, repo, r)), args)
    },
    latestReviews: (args: Args) => {
      const byUser = new Map<string, Review>()
      for (const review of Object.values(repo.reviews).filter((r) => r.pull === pull.number && r.state !== 'PENDING').sort((a, b) => a.id - b.id)) byUser.set(review.user, review)
      return connection([...byUser.values()].map((r) => reviewNode(ctx, repo, r)), args)
    },
    reviewThreads: (args: Args) => connection(store.threads(repo, pull.number, ctx.viewer).map((t) => threadNode(ctx, repo, t)), args),
    reviewDecision: reviewDecision(repo, pull),
    autoMergeRequest: null,
    // The sandbox has no merge queues: no pull request is in one, and no branch requires one.
    isInMergeQueue: false,
    isMergeQueueEnabled: false,
    mergeQueueEntry: null,
    mergeCommit: () => (pull.merge_commit_sha ? commitNode(ctx, repo, pull.merge_commit_sha) : null),
    potentialMergeCommit: () => {
      // GitHub: "will not return a value if the pull request is merged". Otherwise it is GitHub's test merge commit, which the sandbox does not make.
      if (pull.merged_at) return null
      throw new NotModelled('ghx-bench sandbox does not model PullRequest.potentialMergeCommit of an unmerged pull request (GitHub’s test merge commit)')
    },
    closingIssuesReferences: (args: Args) => {
      const referenced = Object.values(repo.issues).filter((i) => !i.is_pull && closingPulls(repo, i).some((p) => p.number === pull.number))
      return connection(referenced.map((i) => issueNode(ctx, repo, i)), args)
    },
  }
}

function releaseNode(ctx: Context, repo: Repo, release: Repo['releases'][string]): Obj {
  const published = Object.values(repo.releases).filter((r) => !r.draft && !r.prerelease).sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)
  return {
    __typename: 'Release',
    id: nodeId('release', release.id),
    databaseId: release.id,
    name: release.name,
    tagName: release.tag_name,
    description: release.body,
    isDraft: release.draft,
    isPrerelease: release.prerelease,
    isLatest: published[0]?.id === release.id,
    createdAt: release.created_at,
    publishedAt: release.published_at,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/releases/tag/${release.tag_name}`,
    author: actor(ctx, release.author),
    // The commit the tag points at; a draft's tag does not exist until it is published.
    tagCommit: () => {
      // State saved before tags were recorded: a published release's tag is where its target points.
      const sha = release.tag_sha !== undefined ? release.tag_sha : release.draft ? null : (repo.branches[release.target_commitish] ?? repo.commits[release.target_commitish]?.sha ?? null)
      return sha ? commitNode(ctx, repo, sha) : null
    },
  }
}

function projectItemNode(ctx: Context, project: Project, item: ProjectItem): Obj {
  const [owner, name] = item.content.repo.split('/') as [string, string]
  const repo = ctx.store.repo(owner, name)
  const issue = repo.issues[item.content.number]!
  return {
    __typename: 'ProjectV2Item',
    id: item.id,
    type: issue.is_pull ? 'PULL_REQUEST' : 'ISSUE',
    createdAt: item.created_at,
    isArchived: false,
    content: issueNode(ctx, repo, issue),
    project: () => projectNode(ctx, project),
    fieldValues: (args: Args) =>
      connection(
        Object.entries(item.values).map(([fieldId, optionId]) => {
          const field = project.fields.find((f) => f.id === fieldId)!
          const option = field.options.find((o) => o.id === optionId)!
          return {__typename: 'ProjectV2ItemFieldSingleSelectValue', name: option.name, optionId: option.id, field: fieldNode(field)}
        }),
        args,
      ),
    fieldValueByName: ({name}: Args) => {
      const field = project.fields.find((f) => f.name === name)
      const optionId = field ? item.values[field.id] : undefined
      const option = field?.options.find((o) => o.id === optionId)
      return option && field ? {__typename: 'ProjectV2ItemFieldSingleSelectValue', name: option.name, optionId: option.id, field: fieldNode(field)} : null
    },
  }
}

function fieldNode(field: Project['fields'][number]): Obj {
  return field.data_type === 'SINGLE_SELECT'
    ? {__typename: 'ProjectV2SingleSelectField', id: field.id, name: field.name, dataType: field.data_type, options: field.options.map((o) => ({id: o.id, name: o.name, nameHTML: o.name, color: 'GRAY', description: ''}))}
    : {__typename: 'ProjectV2Field', id: field.id, name: field.name, dataType: field.data_type}
}

function projectNode(ctx: Context, project: Project): Obj {
  return {
    __typename: 'ProjectV2',
    id: project.id,
    number: project.number,
    title: project.title,
    closed: false,
    public: false,
    shortDescription: null,
    createdAt: project.created_at,
    url: `${ctx.links.html}/users/${project.owner}/projects/${project.number}`,
    owner: actor(ctx, project.owner),
    fields: (args: Args) => connection(project.fields.map(fieldNode), args),
    field: ({name}: Args) => {
      const field = project.fields.find((f) => f.name === name)
      return field ? fieldNode(field) : null
    },
    items: (args: Args) => connection(project.items.map((item) => projectItemNode(ctx, project, item)), args),
  }
}

function projectItemsFor(ctx: Context, repo: Repo, issue: Issue): Obj[] {
  const key = `${repo.owner}/${repo.name}`
  return ctx.store.state.projects.flatMap((project) =>
    project.items.filter((i) => i.content.repo === key && i.content.number === issue.number).map((item) => projectItemNode(ctx, project, item)),
  )
}

/** Users (not bots) the sandbox knows, filtered by `query` on login or name. */
function knownUsers(ctx: Context, args: Args): Obj[] {
  const query = typeof args.query === 'string' ? args.query.toLowerCase() : ''
  return Object.values(ctx.store.state.users)
    .filter((u) => u.type === 'User' && (u.login.toLowerCase().includes(query) || (u.name ?? '').toLowerCase().includes(query)))
    .sort((a, b) => a.login.localeCompare(b.login))
    .map((u) => actor(ctx, u.login)!)
}

/** A branch (or, with its prefix, a tag) as a Ref. */
function refNode(ctx: Context, repo: Repo, name: string, prefix: 'refs/heads/' | 'refs/tags/' = 'refs/heads/'): Obj {
  const sha = prefix === 'refs/heads/' ? repo.branches[name]! : ctx.store.tagRefs(repo)[name]!
  return {
    __typename: 'Ref',
    id: `REF_kw${Buffer.from(`${repo.id}:${prefix.slice(5)}${name}`).toString('base64url')}`,
    name,
    prefix,
    // No branch protection in the sandbox: no ref has a rule.
    branchProtectionRule: null,
    target: () => commitNode(ctx, repo, sha),
    repository: () => repositoryNode(ctx, repo),
    associatedPullRequests: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const pulls = Object.values(repo.pulls).filter((p) => p.head === name && (!states || states.includes(p.merged_at ? 'MERGED' : upper(repo.issues[p.number]!.state))))
      return connection(pulls.map((p) => pullNode(ctx, repo, repo.issues[p.number]!, p)), args)
    },
  }
}

/**
 * The rest of `gh repo view --json`'s fields: what GitHub derives from the files on the default
 * branch (repo-meta.ts), forks, topics, and the viewer's relation to the repository.
 */
function repositoryDetails(ctx: Context, repo: Repo): Obj {
  const fullName = `${repo.owner}/${repo.name}`
  const web = `${ctx.links.html}/${fullName}`
  const tree = () => defaultTree(repo)
  const pushed = Object.values(repo.commits).reduce((latest, c) => (c.date > latest ? c.date : latest), repo.created_at)
  const forks = () => Object.values(ctx.store.state.repos).filter((r) => r.fork_of === fullName)
  const email = `${ctx.viewer}@users.noreply.github.localhost`
  const licenseNode = () => {
    const found = license(repo)
    if (!found) return null
    return {
      __typename: 'License',
      id: `L_kw${Buffer.from(found.key).toString('base64url')}`,
      key: found.key,
      name: found.name,
      nickname: null,
      spdxId: found.spdx_id,
      url: found.key === 'other' ? null : `http://choosealicense.com/licenses/${found.key}/`,
      pseudoLicense: found.key === 'other',
      featured: ['mit', 'apache-2.0', 'gpl-3.0'].includes(found.key),
      hidden: false,
      body: tree()[found.path] ?? '',
    }
  }
  return {
    resourcePath: `/${fullName}`,
    homepageUrl: repo.homepage ?? null,
    mirrorUrl: null,
    sshUrl: `git@github.localhost:${fullName}.git`,
    pushedAt: pushed,
    updatedAt: pushed,
    diskUsage: () => diskUsage(repo),
    forkCount: () => forks().length,
    forks: (args: Args) => connection(forks().map((r) => repositoryNode(ctx, r)), args),
    forkingAllowed: true,
    templateRepository: null,
    openGraphImageUrl: `https://opengraph.githubassets.com/1/${fullName}`,
    usesCustomOpenGraphImage: false,
    codeOfConduct: () => {
      const code = codeOfConduct(repo)
      return code ? {__typename: 'CodeOfConduct', id: `COC_kw${Buffer.from(code.key).toString('base64url')}`, key: code.key, name: code.name, body: code.body, resourcePath: `/${fullName}/blob/${repo.default_branch}/${code.path}`, url: `${web}/blob/${repo.default_branch}/${code.path}`} : null
    },
    contactLinks: () => contactLinks(repo),
    fundingLinks: () => fundingLinks(repo),
    isBlankIssuesEnabled: () => blankIssuesEnabled(repo),
    isSecurityPolicyEnabled: () => securityPolicy(repo) !== null,
    securityPolicyUrl: () => (securityPolicy(repo) ? `${web}/security/policy` : null),
    isUserConfigurationRepository: repo.name.toLowerCase() === repo.owner.toLowerCase(),
    issueTemplates: () => issueTemplates(repo).map((t) => ({name: t.name, about: t.about, title: t.title, body: t.body, filename: t.filename})),
    pullRequestTemplates: () => pullRequestTemplates(repo).map((t) => ({filename: t.filename, body: t.body, repository: () => repositoryNode(ctx, repo)})),
    languages: (args: Args) => {
      const list = languages(repo)
      const orderBy = (args.orderBy ?? {}) as {field?: string; direction?: string}
      const ordered = orderBy.direction === 'ASC' ? [...list].reverse() : list
      const nodes = ordered.map((l) => ({__typename: 'Language', id: `LANG_kw${Buffer.from(l.name).toString('base64url')}`, name: l.name, color: l.color}))
      const page = connection(nodes, args)
      const sizes = new Map(list.map((l) => [l.name, l.size]))
      return {...page, edges: (page.edges as Array<{node: {name: string}; cursor: string}>).map((e) => ({...e, size: sizes.get(e.node.name)})), totalSize: list.reduce((n, l) => n + l.size, 0)}
    },
    primaryLanguage: () => {
      const primary = primaryLanguage(repo)
      return primary ? {__typename: 'Language', id: `LANG_kw${Buffer.from(primary.name).toString('base64url')}`, name: primary.name, color: primary.color} : null
    },
    licenseInfo: licenseNode,
    repositoryTopics: (args: Args) =>
      connection(
        (repo.topics ?? []).map((name) => ({__typename: 'RepositoryTopic', id: `RT_kw${Buffer.from(`${repo.id}:${name}`).toString('base64url')}`, resourcePath: `/topics/${name}`, url: `${ctx.links.html}/topics/${name}`, topic: {__typename: 'Topic', id: `TO_kw${Buffer.from(name).toString('base64url')}`, name}})),
        args,
      ),
    // Projects (classic) are gone from GitHub: none.
    projects: (args: Args) => connection([], args),
    projectsResourcePath: `/${fullName}/projects`,
    projectsUrl: `${web}/projects`,
    viewerCanAdminister: true,
    viewerCanCreateProjects: true,
    viewerCanSubscribe: true,
    viewerCanUpdateTopics: true,
    viewerDefaultCommitEmail: email,
    viewerPossibleCommitEmails: [email],
    viewerDefaultMergeMethod: 'MERGE',
    // Watching is not modelled: nobody watches, as REST's subscribers_count says.
    viewerSubscription: 'UNSUBSCRIBED',
    watchers: (args: Args) => connection([], args),
    hasSponsorshipsEnabled: false,
    hasVulnerabilityAlertsEnabled: false,
    autoMergeAllowed: false,
    allowUpdateBranch: false,
    webCommitSignoffRequired: false,
    squashPrTitleUsedAsDefault: false,
    archivedAt: null,
    lockReason: null,
    descriptionHTML: `<div>${repo.description ?? ''}</div>`,
    shortDescriptionHTML: repo.description ?? '',
    collaborators: (args: Args) => {
      const page = connection(knownUsers(ctx, args), args)
      return {...page, edges: (page.edges as Obj[]).map((e) => ({...e, permission: 'ADMIN', permissionSources: []}))}
    },
  }
}

function repositoryNode(ctx: Context, repo: Repo): Obj {
  const store = ctx.store
  const issues = (kind: 'issue' | 'pull') => Object.values(repo.issues).filter((i) => i.is_pull === (kind === 'pull'))
  const order = (list: Issue[], args: Args) => {
    const orderBy = args.orderBy as {field?: string; direction?: string} | undefined
    const key = orderBy?.field === 'UPDATED_AT' ? 'updated_at' : 'created_at'
    const sign = orderBy?.direction === 'DESC' ? -1 : 1
    return [...list].sort((a, b) => (a[key] < b[key] ? -sign : a[key] > b[key] ? sign : (a.number - b.number) * sign))
  }
  return {
    __typename: 'Repository',
    id: nodeId('repo', repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    owner: actor(ctx, repo.owner),
    description: repo.description,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}`,
    isPrivate: repo.private,
    isArchived: false,
    isFork: repo.fork_of !== undefined,
    hasIssuesEnabled: true,
    hasProjectsEnabled: true,
    hasWikiEnabled: false,
    hasDiscussionsEnabled: false,
    isTemplate: false,
    isMirror: false,
    isEmpty: Object.keys(repo.branches).length === 0,
    isLocked: false,
    isDisabled: false,
    isInOrganization: false,
    parent: () => (repo.fork_of && store.state.repos[repo.fork_of] ? repositoryNode(ctx, store.state.repos[repo.fork_of]!) : null),
    mergeCommitAllowed: true,
    squashMergeAllowed: true,
    rebaseMergeAllowed: true,
    deleteBranchOnMerge: false,
    visibility: repo.private ? 'PRIVATE' : 'PUBLIC',
    viewerPermission: 'ADMIN',
    // The sandbox models no stars (REST's stargazers_count is 0 too).
    stargazerCount: 0,
    stargazers: (args: Args) => connection([], args),
    viewerHasStarred: false,
    ...repositoryDetails(ctx, repo),
    assignableUsers: (args: Args) => connection(knownUsers(ctx, args), args),
    mentionableUsers: (args: Args) => connection(knownUsers(ctx, args), args),
    createdAt: repo.created_at,
    // An empty repository has no default branch yet.
    defaultBranchRef: repo.branches[repo.default_branch] ? refNode(ctx, repo, repo.default_branch) : null,
    ref: ({qualifiedName}: Args) => {
      const qualified = String(qualifiedName)
      if (qualified.startsWith('refs/tags/')) {
        const tag = qualified.slice('refs/tags/'.length)
        return store.tagRefs(repo)[tag] ? refNode(ctx, repo, tag, 'refs/tags/') : null
      }
      const name = qualified.replace(/^refs\/heads\//, '')
      return repo.branches[name] ? refNode(ctx, repo, name) : null
    },
    refs: (args: Args) => {
      const prefix = String(args.refPrefix)
      if (prefix !== 'refs/heads/' && prefix !== 'refs/tags/') throw new NotModelled(`ghx-bench sandbox models refs of refs/heads/ and refs/tags/, not ${prefix}`)
      const query = typeof args.query === 'string' ? args.query : ''
      const names = Object.keys(prefix === 'refs/heads/' ? repo.branches : store.tagRefs(repo)).filter((n) => n.includes(query))
      const sorted = ordered(names, args.orderBy, {ALPHABETICAL: (n) => n, TAG_COMMIT_DATE: (n) => store.commit(repo, store.tagRefs(repo)[n] ?? repo.branches[n]!).date}, 'ALPHABETICAL')
      return connection(sorted.map((n) => refNode(ctx, repo, n, prefix)), args)
    },
    issue: ({number}: Args) => {
      const issue = repo.issues[Number(number)]
      return issue && !issue.is_pull ? issueNode(ctx, repo, issue) : null
    },
    issueOrPullRequest: ({number}: Args) => {
      const issue = repo.issues[Number(number)]
      return issue ? issueNode(ctx, repo, issue) : null
    },
    pullRequest: ({number}: Args) => {
      const pull = repo.pulls[Number(number)]
      return pull ? pullNode(ctx, repo, repo.issues[pull.number]!, pull) : null
    },
    issues: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const labels = Array.isArray(args.labels) ? (args.labels as string[]) : undefined
      const list = issues('issue').filter(
        (i) =>
          (!states || states.includes(upper(i.state))) &&
          (!labels || labels.every((l) => i.labels.includes(l))) &&
          matchesIssueFilters(repo, i, args.filterBy as Record<string, unknown> | undefined),
      )
      return connection(order(list, args).map((i) => issueNode(ctx, repo, i)), args)
    },
    pullRequests: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const list = issues('pull').filter((i) => {
        const pull = repo.pulls[i.number]!
        const state = pull.merged_at ? 'MERGED' : upper(i.state)
        return (!states || states.includes(state)) && (!args.headRefName || pull.head === args.headRefName) && (!args.baseRefName || pull.base === args.baseRefName)
      })
      return connection(order(list, args).map((i) => issueNode(ctx, repo, i)), args)
    },
    labels: (args: Args) => {
      // GitHub searches names and descriptions; the default order is creation, oldest first.
      const query = typeof args.query === 'string' ? args.query.toLowerCase() : ''
      const matching = Object.values(repo.labels).filter((l) => l.name.toLowerCase().includes(query) || (l.description ?? '').toLowerCase().includes(query))
      return connection(ordered(matching, args.orderBy, {CREATED_AT: (l) => l.id, NAME: (l) => l.name}, 'CREATED_AT').map((l) => labelNode(ctx, repo, l.name)), args)
    },
    label: ({name}: Args) => (Object.values(repo.labels).some((l) => l.name.toLowerCase() === String(name).toLowerCase()) ? labelNode(ctx, repo, String(name)) : null),
    milestones: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      return connection(repo.milestones.filter((m) => !states || states.includes(upper(m.state))).map((m) => milestoneNode(ctx, repo, m.number)), args)
    },
    milestone: ({number}: Args) => (repo.milestones.some((m) => m.number === Number(number)) ? milestoneNode(ctx, repo, Number(number)) : null),
    releases: (args: Args) => {
      const list = args.orderBy ? ordered(Object.values(repo.releases), args.orderBy, {CREATED_AT: (r) => r.id, NAME: (r) => r.name ?? r.tag_name}, 'CREATED_AT') : Object.values(repo.releases).sort((a, b) => b.id - a.id)
      return connection(list.map((r) => releaseNode(ctx, repo, r)), args)
    },
    release: ({tagName}: Args) => {
      const release = Object.values(repo.releases).find((r) => r.tag_name === tagName)
      return release ? releaseNode(ctx, repo, release) : null
    },
    latestRelease: () => {
      const latest = Object.values(repo.releases).filter((r) => !r.draft && !r.prerelease).sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)[0]
      return latest ? releaseNode(ctx, repo, latest) : null
    },
    projectsV2: (args: Args) => connection(store.state.projects.filter((p) => p.items.some((i) => i.content.repo === `${repo.owner}/${repo.name}`)).map((p) => projectNode(ctx, p)), args),
    // Schema extension (schema-extension.ts).
    issueTypes: (args: Args) => connection(ordered(repo.issue_types, args.orderBy, {CREATED_AT: (t) => t.id, NAME: (t) => t.name}, 'CREATED_AT').map(issueTypeNode), args),
    issueType: ({name}: Args) => {
      const type = repo.issue_types.find((t) => t.name.toLowerCase() === String(name).toLowerCase())
      return type ? issueTypeNode(type) : null
    },
  }
}

// ---- node lookup and mutations -----------------------------------------------------------------

interface Located {
  repo: Repo
  kind: string
  id: number
}

function locate(store: Store, node: unknown): Located {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  if (parsed) {
    for (const repo of Object.values(store.state.repos)) {
      const found =
        (parsed.kind === 'issue' || parsed.kind === 'pull') ? Object.values(repo.issues).some((i) => i.id === parsed.id)
          : parsed.kind === 'thread' ? Boolean(repo.threads[parsed.id])
            : parsed.kind === 'review' ? Boolean(repo.reviews[parsed.id])
              : parsed.kind === 'review_comment' ? Boolean(repo.review_comments[parsed.id])
                : parsed.kind === 'comment' ? Boolean(repo.comments[parsed.id])
                  : parsed.kind === 'label' ? Object.values(repo.labels).some((l) => l.id === parsed.id)
                    : parsed.kind === 'milestone' ? repo.milestones.some((m) => m.id === parsed.id)
                      : parsed.kind === 'repo' ? repo.id === parsed.id
                        : false
      if (found) return {repo, kind: parsed.kind, id: parsed.id}
    }
  }
  throw new GraphQLError(`Could not resolve to a node with the global id of '${String(node)}'`, {extensions: {type: 'NOT_FOUND'}})
}

function issueOf(store: Store, node: unknown): {repo: Repo; issue: Issue} {
  const {repo, kind, id} = locate(store, node)
  if (kind !== 'issue' && kind !== 'pull') throw new GraphQLError(`'${String(node)}' is not an Issue or PullRequest`)
  return {repo, issue: store.issueById(repo, id)}
}

function userLogin(store: Store, node: unknown): string {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const user = parsed?.kind === 'user' ? Object.values(store.state.users).find((u) => u.id === parsed.id) : undefined
  if (!user) throw new GraphQLError(`Could not resolve to a User with the global id of '${String(node)}'`)
  return user.login
}

function labelName(store: Store, repo: Repo, node: unknown): string {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const label = parsed ? Object.values(repo.labels).find((l) => l.id === parsed.id) : undefined
  if (!label) throw new GraphQLError(`Could not resolve to a Label with the global id of '${String(node)}'`)
  return label.name
}

function milestoneNumber(store: Store, repo: Repo, node: unknown): number {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const milestone = parsed?.kind === 'milestone' ? repo.milestones.find((m) => m.id === parsed.id) : undefined
  if (!milestone) throw new GraphQLError(`Could not resolve to a Milestone with the global id of '${String(node)}'`, {extensions: {type: 'NOT_FOUND'}})
  return milestone.number
}

/** Query.resource: the sandbox's own web URLs of a user, a repository, an issue or a pull request; null for any other URL. */
function resourceByUrl(ctx: Context, url: string): Obj | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.host !== new URL(ctx.links.html).host) return null
  const [owner, name, kind, number, ...rest] = parsed.pathname.split('/').filter(Boolean)
  if (!owner) return null
  if (!name) return ctx.store.state.users[owner] ? actor(ctx, owner) : null
  const repo = ctx.store.state.repos[`${owner}/${name}`]
  if (!repo) return null
  if (!kind) return repositoryNode(ctx, repo)
  const issue = (kind === 'issues' || kind === 'pull') && rest.length === 0 && /^\d+$/.test(number ?? '') ? repo.issues[Number(number)] : undefined
  if (!issue || (kind === 'pull' && !issue.is_pull)) return null
  return issueNode(ctx, repo, issue)
}

/**
 * Query.search (search.ts): issues and pull requests (ISSUE, and ISSUE_ADVANCED, GitHub's advanced
 * issue search), repositories, users. The sandbox has no discussions: DISCUSSION finds none. A query
 * naming a repository or user that does not exist finds nothing (REST answers it 422).
 */
function searchConnection(ctx: Context, args: Args): Obj {
  const type = String(args.type)
  const query = text(args.query)
  const counts = {issueCount: 0, repositoryCount: 0, userCount: 0, codeCount: 0, wikiCount: 0, discussionCount: 0}
  let found: Array<{node: Obj; matches: Obj[]}> = []
  try {
    if (type === 'ISSUE' || type === 'ISSUE_ADVANCED') {
      found = searchIssues({store: ctx.store, viewer: ctx.viewer, reviewDecision}, query, {advanced: type === 'ISSUE_ADVANCED'}).map((hit) => ({
        node: issueNode(ctx, hit.repo, hit.issue),
        matches: textMatches(query, {title: hit.issue.title, body: hit.issue.body}) as unknown as Obj[],
      }))
      counts.issueCount = found.length
    } else if (type === 'REPOSITORY') {
      found = searchRepos(ctx.store, ctx.viewer, query).map((hit) => ({node: repositoryNode(ctx, hit.repo), matches: textMatches(query, {name: hit.repo.name, description: hit.repo.description}) as unknown as Obj[]}))
      counts.repositoryCount = found.length
    } else if (type === 'USER') {
      const users = searchUsers(ctx.store, query)
      if (users.some((u) => u.type === 'Organization')) throw new NotModelled('ghx-bench sandbox does not model Organization (a user search that finds one)')
      found = users.map((u) => ({node: actor(ctx, u.login)!, matches: textMatches(query, {login: u.login, name: u.name}) as unknown as Obj[]}))
      counts.userCount = found.length
    }
  } catch (error) {
    if (!(error instanceof SearchInvalid)) throw error
    found = []
  }
  const page = connection(found, args)
  const slice = page.nodes as typeof found
  const highlights = (m: Obj) => ((m.highlights as Array<{text: string; indices: [number, number]}>) ?? []).map((h) => ({text: h.text, beginIndice: h.indices[0], endIndice: h.indices[1]}))
  return {
    ...counts,
    ...page,
    nodes: slice.map((f) => f.node),
    edges: (page.edges as Array<{node: (typeof found)[number]; cursor: string}>).map((e) => ({cursor: e.cursor, node: e.node.node, textMatches: e.node.matches.map((m) => ({fragment: m.fragment, property: m.property, highlights: highlights(m)}))})),
  }
}

function rootValue(ctx: Context): Obj {
  const {store} = ctx
  const input = (args: Args) => (args.input ?? {}) as Record<string, unknown>
  const mutationId = (args: Args) => ({clientMutationId: input(args).clientMutationId ?? null})
  return {
    viewer: () => actor(ctx, ctx.viewer),
    user: ({login}: Args) => (store.state.users[String(login)] ? actor(ctx, String(login)) : null),
    // GitHub answers null, without an error, for a login that does not exist.
    repositoryOwner: ({login}: Args) => (store.state.users[String(login)] ? actor(ctx, String(login)) : null),
    organization: ({login}: Args) => {
      if (store.state.users[String(login)]?.type === 'Organization') throw new NotModelled('ghx-bench sandbox does not model Query.organization (it has no organizations)')
      throw new GraphQLError(`Could not resolve to an Organization with the login of '${String(login)}'.`, {extensions: {type: 'NOT_FOUND'}})
    },
    resource: ({url}: Args) => resourceByUrl(ctx, String(url)),
    repository: ({owner, name}: Args) => {
      const repo = store.state.repos[`${String(owner)}/${String(name)}`]
      if (!repo) throw new GraphQLError(`Could not resolve to a Repository with the name '${String(owner)}/${String(name)}'.`, {extensions: {type: 'NOT_FOUND'}})
      return repositoryNode(ctx, repo)
    },
    node: ({id}: Args) => nodeById(ctx, id),
    search: (args: Args) => searchConnection(ctx, args),
    nodes: ({ids}: Args) => (ids as unknown[]).map((id) => nodeById(ctx, id)),
    rateLimit: {limit: 5000, cost: 1, remaining: 4999, used: 1, resetAt: new Date(Date.now() + 3600_000).toISOString(), nodeCount: 1},

    addComment: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).subjectId)
      const comment = store.addComment(repo, issue.number, ctx.viewer, text(input(args).body))
      const node = commentNode(ctx, repo, comment.id)
      return {...mutationId(args), commentEdge: {node, cursor: cursor(0)}, subject: issueNode(ctx, repo, issue), timelineEdge: null}
    },
    // A new repository of the viewer's (the sandbox has no organizations), empty as GitHub makes it: no commit, no branch.
    createRepository: (args: Args) => {
      const i = input(args)
      const owner = i.ownerId === undefined || i.ownerId === null ? ctx.viewer : userLogin(store, i.ownerId)
      if (owner !== ctx.viewer) throw new NotModelled('ghx-bench sandbox does not model creating a repository for another owner (organizations)')
      if (i.template === true) throw new NotModelled('ghx-bench sandbox does not model template repositories')
      const name = text(i.name).trim()
      if (store.state.repos[`${owner}/${name}`]) throw new GraphQLError('Name already exists on this account', {extensions: {type: 'UNPROCESSABLE'}})
      const repo = store.createRepo(owner, name, {description: (i.description as string | undefined) ?? null, homepage: (i.homepageUrl as string | undefined) ?? null, private: i.visibility !== 'PUBLIC', files: null})
      repo.issue_types = []
      return {...mutationId(args), repository: repositoryNode(ctx, repo)}
    },
    createIssue: (args: Args) => {
      const i = input(args)
      const {repo} = locate(store, i.repositoryId)
      const issue = store.createIssue(repo, ctx.viewer, {
        title: text(i.title),
        body: (i.body as string | undefined) ?? null,
        labels: ((i.labelIds as unknown[] | undefined) ?? []).map((id) => labelName(store, repo, id)),
        assignees: ((i.assigneeIds as unknown[] | undefined) ?? []).map((id) => userLogin(store, id)),
      })
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    updateIssue: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.id)
      const milestone = i.milestoneId === undefined ? undefined : i.milestoneId === null ? null : milestoneNumber(store, repo, i.milestoneId)
      store.updateIssue(repo, issue.number, {
        title: i.title as string | undefined,
        body: i.body as string | undefined,
        state: typeof i.state === 'string' ? (i.state.toLowerCase() as 'open' | 'closed') : undefined,
        labels: Array.isArray(i.labelIds) ? i.labelIds.map((id) => labelName(store, repo, id)) : undefined,
        assignees: Array.isArray(i.assigneeIds) ? i.assigneeIds.map((id) => userLogin(store, id)) : undefined,
        milestone,
      })
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    closeIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const reason = typeof input(args).stateReason === 'string' ? (String(input(args).stateReason).toLowerCase() as Issue['state_reason']) : 'completed'
      store.updateIssue(repo, issue.number, {state: 'closed', state_reason: reason})
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    reopenIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      store.updateIssue(repo, issue.number, {state: 'open'})
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    addLabelsToLabelable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).labelableId)
      store.addLabels(repo, issue.number, ((input(args).labelIds as unknown[]) ?? []).map((id) => labelName(store, repo, id)))
      return {...mutationId(args), labelable: issueNode(ctx, repo, issue)}
    },
    removeLabelsFromLabelable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).labelableId)
      for (const id of (input(args).labelIds as unknown[]) ?? []) store.removeLabel(repo, issue.number, labelName(store, repo, id))
      return {...mutationId(args), labelable: issueNode(ctx, repo, issue)}
    },
    deleteIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      if (issue.is_pull) throw new GraphQLError(`Could not resolve to Issue node with the global id of '${String(input(args).issueId)}'`, {extensions: {type: 'NOT_FOUND'}})
      store.deleteIssue(repo, issue.number)
      return {...mutationId(args), repository: repositoryNode(ctx, repo)}
    },
    addAssigneesToAssignable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).assignableId)
      store.addAssignees(repo, issue.number, ((input(args).assigneeIds as unknown[]) ?? []).map((id) => userLogin(store, id)))
      return {...mutationId(args), assignable: issueNode(ctx, repo, issue)}
    },
    removeAssigneesFromAssignable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).assignableId)
      store.removeAssignees(repo, issue.number, ((input(args).assigneeIds as unknown[]) ?? []).map((id) => userLogin(store, id)))
      return {...mutationId(args), assignable: issueNode(ctx, repo, issue)}
    },
    addBlockedBy: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const blocker = issueOf(store, input(args).blockingIssueId).issue
      store.addBlockedBy(repo, issue.number, blocker.id)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue), blockingIssue: issueNode(ctx, repo, blocker)}
    },
    removeBlockedBy: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const blocker = issueOf(store, input(args).blockingIssueId).issue
      store.removeBlockedBy(repo, issue.number, blocker.id)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue), blockingIssue: issueNode(ctx, repo, blocker)}
    },
    addSubIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const child = issueOf(store, input(args).subIssueId).issue
      store.addSubIssue(repo, issue.number, child.id)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue), subIssue: issueNode(ctx, repo, child)}
    },
    removeSubIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const child = issueOf(store, input(args).subIssueId).issue
      store.removeSubIssue(repo, issue.number, child.id)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue), subIssue: issueNode(ctx, repo, child)}
    },
    createPullRequest: (args: Args) => {
      const i = input(args)
      const {repo} = locate(store, i.repositoryId)
      const {issue, pull} = store.createPull(repo, ctx.viewer, {title: text(i.title), head: text(i.headRefName), base: text(i.baseRefName), body: (i.body as string | undefined) ?? null, draft: i.draft === true})
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    updatePullRequest: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.pullRequestId)
      const {pull} = store.pull(repo, issue.number)
      if (Array.isArray(i.projectIds) && i.projectIds.length > 0) throw new NotModelled('ghx-bench sandbox does not model UpdatePullRequestInput.projectIds (projects classic)')
      if (typeof i.baseRefName === 'string') store.changePullBase(repo, issue.number, i.baseRefName)
      if (typeof i.maintainerCanModify === 'boolean') pull.maintainer_can_modify = i.maintainerCanModify
      const milestone = i.milestoneId === undefined ? undefined : i.milestoneId === null ? null : milestoneNumber(store, repo, i.milestoneId)
      store.updateIssue(repo, issue.number, {
        title: i.title as string | undefined,
        body: i.body as string | undefined,
        state: typeof i.state === 'string' ? (i.state.toLowerCase() as 'open' | 'closed') : undefined,
        labels: Array.isArray(i.labelIds) ? i.labelIds.map((id) => labelName(store, repo, id)) : undefined,
        assignees: Array.isArray(i.assigneeIds) ? i.assigneeIds.map((id) => userLogin(store, id)) : undefined,
        milestone,
      })
      return {...mutationId(args), actor: actor(ctx, ctx.viewer), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    closePullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const {pull} = store.pull(repo, issue.number)
      if (issue.state === 'open') store.updateIssue(repo, issue.number, {state: 'closed'})
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    reopenPullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const {pull} = store.pull(repo, issue.number)
      // GitHub reopens neither a merged pull request nor one whose head branch is gone.
      if (pull.merged_at || repo.branches[pull.head] === undefined) throw new GraphQLError('state cannot be changed. The pull request cannot be reopened.', {extensions: {type: 'UNPROCESSABLE'}})
      if (issue.state === 'closed') store.updateIssue(repo, issue.number, {state: 'open'})
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    requestReviews: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      store.requestReviewers(repo, issue.number, ((input(args).userIds as unknown[]) ?? []).map((id) => userLogin(store, id)))
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    mergePullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const method = text(input(args).mergeMethod, 'MERGE').toLowerCase() as 'merge' | 'squash' | 'rebase'
      store.mergePull(repo, issue.number, ctx.viewer, method, input(args).commitHeadline as string | undefined)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    updatePullRequestBranch: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      store.updatePullBranch(repo, issue.number, ctx.viewer)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    addPullRequestReview: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.pullRequestId)
      // DraftPullRequestReviewThread places by line (and startLine, sides); DraftPullRequestReviewComment by diff position.
      type DraftThread = {path: string; line?: number; side?: string; startLine?: number | null; startSide?: string | null; body: string}
      const threads = ((i.threads as DraftThread[] | undefined) ?? []).map((t) => ({path: t.path, line: t.line, side: t.side, start_line: t.startLine, start_side: t.startSide ?? undefined, body: t.body}))
      const comments = ((i.comments as Array<{path: string; position?: number; body: string}> | undefined) ?? []).map((c) => ({path: c.path, position: c.position, body: c.body}))
      const review = store.createReview(repo, issue.number, ctx.viewer, {event: i.event as string | undefined, body: i.body as string | undefined, commit_id: i.commitOID as string | undefined, comments: [...threads, ...comments]})
      return {...mutationId(args), pullRequestReview: reviewNode(ctx, repo, review), reviewEdge: {node: reviewNode(ctx, repo, review), cursor: cursor(0)}}
    },
    submitPullRequestReview: (args: Args) => {
      const i = input(args)
      let located: {repo: Repo; review: Review}
      if (i.pullRequestReviewId) {
        const {repo, id} = locate(store, i.pullRequestReviewId)
        located = {repo, review: store.review(repo, id)}
      } else {
        const {repo, issue} = issueOf(store, i.pullRequestId)
        const pending = Object.values(repo.reviews).find((r) => r.pull === issue.number && r.user === ctx.viewer && r.state === 'PENDING')
        if (!pending) throw new GraphQLError('No pending review to submit')
        located = {repo, review: pending}
      }
      const review = store.submitReview(located.repo, located.review.id, text(i.event), i.body as string | undefined)
      return {...mutationId(args), pullRequestReview: reviewNode(ctx, located.repo, review)}
    },
    addPullRequestReviewThread: (args: Args) => {
      const i = input(args)
      let repo: Repo
      let number: number
      let reviewId: number | undefined
      if (i.pullRequestReviewId) {
        const located = locate(store, i.pullRequestReviewId)
        repo = located.repo
        const review = store.review(repo, located.id)
        number = review.pull
        reviewId = review.id
      } else {
        const located = issueOf(store, i.pullRequestId)
        repo = located.repo
        number = located.issue.number
        reviewId = Object.values(repo.reviews).find((r) => r.pull === number && r.user === ctx.viewer && r.state === 'PENDING')?.id
      }
      const comment = store.addReviewComment(
        repo,
        number,
        ctx.viewer,
        {
          body: text(i.body),
          path: text(i.path),
          line: i.line,
          side: i.side as string | undefined,
          start_line: i.startLine,
          start_side: i.startSide as string | undefined,
          subject_type: text(i.subjectType, 'LINE').toLowerCase(),
        },
        reviewId,
      )
      return {...mutationId(args), thread: threadNode(ctx, repo, repo.threads[comment.thread_id]!)}
    },
    addPullRequestReviewThreadReply: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).pullRequestReviewThreadId)
      if (kind !== 'thread') throw new GraphQLError('pullRequestReviewThreadId is not a review thread')
      const thread = store.thread(repo, id)
      const comment = store.addReviewComment(repo, thread.pull, ctx.viewer, {body: text(input(args).body), in_reply_to: thread.comments[0]!})
      return {...mutationId(args), comment: reviewCommentNode(ctx, repo, comment)}
    },
    resolveReviewThread: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).threadId)
      if (kind !== 'thread') throw new GraphQLError('threadId is not a review thread')
      return {...mutationId(args), thread: threadNode(ctx, repo, store.setThreadResolved(repo, id, true, ctx.viewer))}
    },
    unresolveReviewThread: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).threadId)
      if (kind !== 'thread') throw new GraphQLError('threadId is not a review thread')
      return {...mutationId(args), thread: threadNode(ctx, repo, store.setThreadResolved(repo, id, false, ctx.viewer))}
    },
    addReaction: (args: Args) => {
      const {repo, subject} = reactionSubject(store, input(args).subjectId)
      const reaction = store.addReaction(repo, subject, ctx.viewer, REACTION_CONTENT[text(input(args).content)]!)
      return {...mutationId(args), reaction: reactionNode(ctx, repo, reaction), subject: reactionSubjectNode(ctx, repo, subject), reactionGroups: reactionGroups(ctx, repo, subject)}
    },
    removeReaction: (args: Args) => {
      const {repo, subject} = reactionSubject(store, input(args).subjectId)
      const reaction = store.removeReaction(repo, subject, ctx.viewer, REACTION_CONTENT[text(input(args).content)]!)
      return {...mutationId(args), reaction: reaction ? reactionNode(ctx, repo, reaction) : null, subject: reactionSubjectNode(ctx, repo, subject), reactionGroups: reactionGroups(ctx, repo, subject)}
    },
    convertPullRequestToDraft: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, store.setPullDraft(repo, issue.number, true))}
    },
    markPullRequestReadyForReview: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, store.setPullDraft(repo, issue.number, false))}
    },
    createProjectV2: (args: Args) => {
      const owner = userLogin(store, input(args).ownerId)
      return {...mutationId(args), projectV2: projectNode(ctx, store.createProject(owner, text(input(args).title)))}
    },
    deleteProjectV2: (args: Args) => ({...mutationId(args), projectV2: projectNode(ctx, store.deleteProject(text(input(args).projectId)))}),
    addProjectV2ItemById: (args: Args) => {
      const project = store.projectById(String(input(args).projectId))
      const {repo, issue} = issueOf(store, input(args).contentId)
      const itemId = store.addProjectItem(project, repo, issue.number)
      return {...mutationId(args), item: projectItemNode(ctx, project, project.items.find((i) => i.id === itemId)!)}
    },
    deleteProjectV2Item: (args: Args) => {
      const project = store.projectById(String(input(args).projectId))
      store.removeProjectItem(project, String(input(args).itemId))
      return {...mutationId(args), deletedItemId: input(args).itemId}
    },
    updateProjectV2ItemFieldValue: (args: Args) => {
      const i = input(args)
      const project = store.projectById(String(i.projectId))
      const value = (i.value ?? {}) as {singleSelectOptionId?: string}
      if (!value.singleSelectOptionId) throw new NotModelled('ghx-bench sandbox models only single-select project field values')
      store.setProjectField(project, String(i.itemId), String(i.fieldId), value.singleSelectOptionId)
      return {...mutationId(args), projectV2Item: projectItemNode(ctx, project, project.items.find((it) => it.id === i.itemId)!)}
    },
    clearProjectV2ItemFieldValue: (args: Args) => {
      const i = input(args)
      const project = store.projectById(String(i.projectId))
      store.clearProjectField(project, String(i.itemId), String(i.fieldId))
      return {...mutationId(args), projectV2Item: projectItemNode(ctx, project, project.items.find((it) => it.id === i.itemId)!)}
    },
  }
}

function nodeById(ctx: Context, id: unknown): Obj | null {
  const {store} = ctx
  if (typeof id === 'string' && id.startsWith('PVT_')) return projectNode(ctx, store.projectById(id))
  if (typeof id === 'string' && id.startsWith('PVTI_')) {
    for (const project of store.state.projects) {
      const item = project.items.find((i) => i.id === id)
      if (item) return projectItemNode(ctx, project, item)
    }
  }
  const parsed = typeof id === 'string' ? parseNodeId(id) : undefined
  if (parsed?.kind === 'user') {
    const user = Object.values(store.state.users).find((u) => u.id === parsed.id)
    return user ? actor(ctx, user.login) : null
  }
  if (parsed?.kind === 'issue_type') {
    const type = Object.values(store.state.repos).flatMap((r) => r.issue_types).find((t) => t.id === parsed.id)
    return type ? issueTypeNode(type) : null
  }
  let located: Located
  try {
    located = locate(store, id)
  } catch {
    return null
  }
  const {repo, kind} = located
  switch (kind) {
    case 'issue':
    case 'pull':
      return issueNode(ctx, repo, store.issueById(repo, located.id))
    case 'thread':
      return threadNode(ctx, repo, store.thread(repo, located.id))
    case 'review':
      return reviewNode(ctx, repo, store.review(repo, located.id))
    case 'review_comment':
      return reviewCommentNode(ctx, repo, store.reviewComment(repo, located.id))
    case 'comment':
      return commentNode(ctx, repo, located.id)
    case 'repo':
      return repositoryNode(ctx, repo)
    default:
      throw new NotModelled(`ghx-bench sandbox does not model node lookup of ${kind}`)
  }
}

export interface GraphqlResponse {
  status: number
  body: {data?: unknown; errors?: unknown[]; message?: string}
}

/** Parses, validates against GitHub's schema, executes; errors come back as GitHub shapes them. */
export async function executeGraphql(store: Store, viewer: string, links: Links, request: {query?: unknown; variables?: unknown; operationName?: unknown}): Promise<GraphqlResponse> {
  if (typeof request.query !== 'string') return {status: 400, body: {message: 'A query attribute must be specified and must be a string.'}}
  let document
  try {
    document = parse(request.query)
  } catch (error) {
    return {status: 200, body: {errors: [{message: (error as GraphQLError).message, locations: (error as GraphQLError).locations}]}}
  }
  const invalid = validate(githubSchema(), document, GITHUB_RULES)
  if (invalid.length > 0) {
    return {status: 200, body: {errors: invalid.map((e) => ({path: [], extensions: {code: 'undefinedField'}, locations: e.locations, message: e.message}))}}
  }
  const context: Context = {store, viewer, links}
  const result = await execute({
    schema: githubSchema(),
    document,
    rootValue: rootValue(context),
    contextValue: context,
    variableValues: (request.variables ?? {}) as Record<string, unknown>,
    operationName: typeof request.operationName === 'string' ? request.operationName : undefined,
    fieldResolver,
    typeResolver: (value) => (value as {__typename?: string}).__typename,
  })
  const errors = (result.errors ?? []).map((e) => {
    const original = e.originalError
    const type = original instanceof SandboxError ? (original.status === 404 ? 'NOT_FOUND' : original.status === 501 ? 'NOT_MODELLED' : 'UNPROCESSABLE') : original instanceof NotModelled ? 'NOT_MODELLED' : (e.extensions.type ?? undefined)
    const first = original instanceof SandboxError ? original.errors?.[0] : undefined
    const detail = typeof first === 'string' ? first : first?.message
    return {type, path: e.path, locations: e.locations, message: detail ? text(detail) : e.message}
  })
  const notModelled = errors.find((e) => e.type === 'NOT_MODELLED')
  if (notModelled) return {status: 501, body: {message: notModelled.message, errors, data: result.data}}
  return {status: 200, body: errors.length > 0 ? {data: result.data ?? null, errors} : {data: result.data}}
}

