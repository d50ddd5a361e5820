/** GraphQL's issues, their comments, labels, milestones and issue types, and the node ids mutations name them by. */
import {
  connection,
  empty,
  notFoundError,
  objectsOn,
  upper,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import type {Issue, LockReason, Pull, Repo} from '../core/state.js'
import {nodeId, parseNodeId} from '../core/store-core.js'
import {projectItemsFor} from '../projects/graphql.js'
import {reactable, reactionConnection, reactionGroups} from '../reactions/graphql.js'
import type {Store} from '../store.js'
import {timelineItems as timelineItemsOf} from './graphql-timeline.js'
import {closesIssue} from './events.js'

export function labelNode(ctx: Context, repo: Repo, name: string): Obj {
  const label = ctx.store.labels.get(repo, name)
  const path = `/${repo.owner}/${repo.name}/labels/${encodeURIComponent(label.name)}`
  const labelled = (pulls: boolean, args: Args) => {
    const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
    const list = Object.values(repo.issues).filter(
      (i) =>
        i.is_pull === pulls &&
        i.labels.includes(label.name) &&
        (!states || states.includes(i.is_pull && repo.pulls[i.number]!.merged_at ? 'MERGED' : upper(i.state))),
    )
    return connection(
      list.map((i) => issueNode(ctx, repo, i)),
      args,
    )
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
    repository: () => ctx.nodes.Repository(ctx, repo),
    issues: (args: Args) => labelled(false, args),
    pullRequests: (args: Args) => labelled(true, args),
  }
}

export function issueTypeNode(type: Repo['issue_types'][number]): Obj {
  // IssueType.issues(repositoryId:) is left unmodelled: it answers 501 naming it.
  return {
    __typename: 'IssueType',
    id: nodeId('issue_type', type.id),
    name: type.name,
    description: type.description,
    color: upper(type.color),
    isEnabled: true,
    isPrivate: false,
  }
}

export function milestoneNode(ctx: Context, repo: Repo, number: number | null): Obj | null {
  if (number === null) return null
  const m = ctx.store.milestones.get(repo, number)
  return {
    __typename: 'Milestone',
    id: nodeId('milestone', m.id),
    number: m.number,
    title: m.title,
    description: m.description,
    dueOn: m.due_on,
    state: upper(m.state),
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/milestone/${m.number}`,
  }
}

export function association(repo: Repo, login: string): string {
  return login === repo.owner ? 'OWNER' : 'CONTRIBUTOR'
}

/** A comment's Minimizable fields: whether it is hidden, and why. */
export const minimizable = (comment: {minimized_reason?: string | null}): Obj => ({
  isMinimized: Boolean(comment.minimized_reason),
  minimizedReason: comment.minimized_reason ?? null,
  viewerCanMinimize: true,
})

export function commentNode(ctx: Context, repo: Repo, id: number): Obj {
  const c = repo.comments[id]!
  return {
    __typename: 'IssueComment',
    id: nodeId('comment', c.id),
    databaseId: c.id,
    body: c.body,
    author: ctx.nodes.Actor(ctx, c.user),
    authorAssociation: association(repo, c.user),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    includesCreatedEdit: false,
    ...minimizable(c),
    ...reactable(ctx, repo, {kind: 'comment', id: c.id}),
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/${repo.issues[c.issue]!.is_pull ? 'pull' : 'issues'}/${c.issue}#issuecomment-${c.id}`,
    viewerDidAuthor: c.user === ctx.viewer,
  }
}

/** What an Issue or PullRequest object reads its fields from (a symbol: GraphQL's field names are strings). */
export const ISSUE_OF = Symbol('issue')
interface IssueOf {
  ctx: Context
  repo: Repo
  issue: Issue
}

/** A field of ISSUE_LIKE: what `read` makes of its object's context, repository and issue, and the field's arguments. */
const field = (read: (of: IssueOf, args: Args) => unknown) =>
  function (this: {[ISSUE_OF]: IssueOf}, args: Args) {
    return read(this[ISSUE_OF], args)
  }

/**
 * The fields Issue and PullRequest share, as the prototype of both (`{__proto__: ISSUE_LIKE, [ISSUE_OF]:
 * {ctx, repo, issue}, ...}`): each a function of the object it is read on, which graphql.ts's fieldResolver
 * calls with the object as `this`. A connection builds an object for every item it holds, and copying
 * some 30 fields into each (a spread) took a third of a list's time.
 */
export const ISSUE_LIKE: Obj = {
  id: field(({issue}) => nodeId(issue.is_pull ? 'pull' : 'issue', issue.id)),
  databaseId: field(({issue}) => issue.id),
  number: field(({issue}) => issue.number),
  title: field(({issue}) => issue.title),
  body: field(({issue}) => issue.body ?? ''),
  url: field(
    ({ctx, repo, issue}) =>
      `${ctx.links.html}/${repo.owner}/${repo.name}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}`,
  ),
  createdAt: field(({issue}) => issue.created_at),
  updatedAt: field(({issue}) => issue.updated_at),
  closedAt: field(({issue}) => issue.closed_at),
  closed: field(({issue}) => issue.state === 'closed'),
  locked: field(({issue}) => issue.locked),
  activeLockReason: field(({issue}) => (issue.active_lock_reason ? LOCK_REASONS[issue.active_lock_reason] : null)),
  author: field(({ctx, issue}) => ctx.nodes.Actor(ctx, issue.user)),
  authorAssociation: field(({repo, issue}) => association(repo, issue.user)),
  assignees: field(({ctx, issue}, args) =>
    connection(
      issue.assignees.map((login) => ctx.nodes.Actor(ctx, login)),
      args,
    ),
  ),
  labels: field(({ctx, repo, issue}, args) =>
    connection(
      issue.labels.map((name) => labelNode(ctx, repo, name)),
      args,
    ),
  ),
  milestone: field(({ctx, repo, issue}) => milestoneNode(ctx, repo, issue.milestone)),
  comments: field(({ctx, repo, issue}, args) =>
    connection(
      issue.comments.map((id) => commentNode(ctx, repo, id)),
      args,
    ),
  ),
  projectCards: empty,
  projectItems: field(({ctx, repo, issue}, args) => connection(projectItemsFor(ctx, repo, issue), args)),
  reactionGroups: field(({ctx, repo, issue}) => reactionGroups(ctx, repo, {kind: 'issue', id: issue.id})),
  reactions: field(({ctx, repo, issue}, args) => reactionConnection(ctx, repo, {kind: 'issue', id: issue.id}, args)),
  viewerCanReact: true,
  repository: field(({ctx, repo}) => ctx.nodes.Repository(ctx, repo)),
  timelineItems: field(({ctx, repo, issue}, args) => timelineItems(ctx, repo, issue, args)),
  viewerDidAuthor: field(({ctx, issue}) => issue.user === ctx.viewer),
}

/** Issue and pull request timelines (graphql-timeline.ts), with the node builders of the resources they show. */
function timelineItems(ctx: Context, repo: Repo, issue: Issue, args: Args): Obj {
  return timelineItemsOf(
    {
      store: ctx.store,
      html: ctx.links.html,
      actor: (login) => ctx.nodes.Actor(ctx, login),
      issue: (i) => issueNode(ctx, repo, i),
      comment: (id) => commentNode(ctx, repo, id),
      commit: (sha) => ctx.nodes.Commit(ctx, repo, sha),
      review: (review) => ctx.nodes.PullRequestReview(ctx, repo, review),
      thread: (thread) => ctx.nodes.PullRequestReviewThread(ctx, repo, thread),
      repository: () => ctx.nodes.Repository(ctx, repo),
      connection: (items, a) => connection(items, a),
    },
    repo,
    issue,
    args,
  )
}

/** An Issue's own fields (a pull request's are pulls/graphql.ts's), on the fields both share: the prototype of every Issue object. */
const ISSUE: Obj = {
  __proto__: ISSUE_LIKE,
  __typename: 'Issue',
  state: field(({issue}) => upper(issue.state)),
  stateReason: field(({issue}) => (issue.state_reason ? upper(issue.state_reason) : null)),
  isPinned: field(({repo, issue}) => (repo.pinned_issues ?? []).some((pin) => pin.number === issue.number)),
  parent: field(({ctx, repo, issue}) =>
    issue.parent === null ? null : issueNode(ctx, repo, repo.issues[issue.parent]!),
  ),
  subIssues: field(({ctx, repo, issue}, args) =>
    connection(
      issue.sub_issues.map((n) => issueNode(ctx, repo, repo.issues[n]!)),
      args,
    ),
  ),
  subIssuesSummary: field(({repo, issue}) => {
    const completed = issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length
    const total = issue.sub_issues.length
    return {total, completed, percentCompleted: total === 0 ? 0 : Math.round((completed / total) * 100)}
  }),
  closedByPullRequestsReferences: field(({ctx, repo, issue}, args) =>
    connection(
      closingPulls(repo, issue).map((p) => ctx.nodes.PullRequest(ctx, repo, repo.issues[p.number]!, p)),
      args,
    ),
  ),
  // Schema extension (core/graphql-schema-extension.ts): issue dependencies and issue types.
  blockedBy: field(({ctx, repo, issue}, args) =>
    connection(
      dependencies(
        issue.blocked_by.map((n) => repo.issues[n]!),
        args,
      ).map((i) => issueNode(ctx, repo, i)),
      args,
    ),
  ),
  blocking: field(({ctx, repo, issue}, args) =>
    connection(
      dependencies(ctx.store.issues.blocking(repo, issue.number), args).map((i) => issueNode(ctx, repo, i)),
      args,
    ),
  ),
  issueDependenciesSummary: field(({ctx, repo, issue}) => {
    const blockedBy = issue.blocked_by.map((n) => repo.issues[n]!)
    const blocking = ctx.store.issues.blocking(repo, issue.number)
    const open = (list: Issue[]) => list.filter((i) => i.state === 'open').length
    return {
      blockedBy: open(blockedBy),
      blocking: open(blocking),
      totalBlockedBy: blockedBy.length,
      totalBlocking: blocking.length,
    }
  }),
  issueType: field(({repo, issue}) => {
    const type = issue.issue_type === null ? undefined : repo.issue_types.find((t) => t.name === issue.issue_type)
    return type ? issueTypeNode(type) : null
  }),
}

const makeIssue = objectsOn<IssueOf>(ISSUE, ISSUE_OF)

export function issueNode(ctx: Context, repo: Repo, issue: Issue): Obj {
  if (issue.is_pull) return ctx.nodes.PullRequest(ctx, repo, issue, repo.pulls[issue.number]!)
  return makeIssue({ctx, repo, issue})
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
/** GraphQL's LockReason by REST's name of it. */
export const LOCK_REASONS: Record<LockReason, string> = {
  'off-topic': 'OFF_TOPIC',
  'too heated': 'TOO_HEATED',
  resolved: 'RESOLVED',
  spam: 'SPAM',
}

export function closingPulls(repo: Repo, issue: Issue): Pull[] {
  return Object.values(repo.pulls).filter((p) => closesIssue(repo.issues[p.number]!.body, issue.number))
}

export function labelName(store: Store, repo: Repo, node: unknown): string {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const label = parsed ? Object.values(repo.labels).find((l) => l.id === parsed.id) : undefined
  if (!label) throw notFoundError(`Could not resolve to a Label with the global id of '${String(node)}'`)
  return label.name
}

export function milestoneNumber(store: Store, repo: Repo, node: unknown): number {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const milestone = parsed?.kind === 'milestone' ? repo.milestones.find((m) => m.id === parsed.id) : undefined
  if (!milestone) throw notFoundError(`Could not resolve to a Milestone with the global id of '${String(node)}'`)
  return milestone.number
}
