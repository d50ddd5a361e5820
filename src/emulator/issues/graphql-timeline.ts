/**
 * GraphQL `timelineItems` of issues and pull requests, over events.ts's history. Every item type
 * GitHub's enums name is answered: the ones the sandbox records or derives, and — empty — the ones
 * nothing in the sandbox can make (locks, pins, transfers, classic projects, merge queues,
 * deployments, auto-merge, the web UI's Development links). Events the served schema has no type for
 * (issue types, blocked-by dependencies: REST lists them) do not appear here.
 */
import {notModelled} from '../core/errors.js'
import type {Issue, IssueEvent, Repo, Review, ReviewThread} from '../core/state.js'
import type {Store} from '../store.js'
import {closesIssue, timeline, type TimelineEntry} from './events.js'

type Obj = Record<string, unknown>
type Args = Record<string, unknown>

/** The node builders of the resources' GraphQL this module uses (passed in by issues/graphql.ts, which imports this one). */
export interface TimelineNodes {
  store: Store
  html: string
  actor(login: string | null): Obj | null
  issue(issue: Issue): Obj
  comment(id: number): Obj
  commit(sha: string): Obj
  review(review: Review): Obj
  thread(thread: ReviewThread): Obj
  repository(): Obj
  connection(items: Obj[], args: Args): Obj
}

/** Item types nothing in the sandbox makes: asked for, they are (correctly) none. */
const NEVER = new Set([
  'CONNECTED_EVENT',
  'DISCONNECTED_EVENT',
  'ADDED_TO_PROJECT_EVENT',
  'MOVED_COLUMNS_IN_PROJECT_EVENT',
  'REMOVED_FROM_PROJECT_EVENT',
  'CONVERTED_NOTE_TO_ISSUE_EVENT',
  'CONVERTED_TO_DISCUSSION_EVENT',
  'LOCKED_EVENT',
  'UNLOCKED_EVENT',
  'PINNED_EVENT',
  'UNPINNED_EVENT',
  'TRANSFERRED_EVENT',
  'MARKED_AS_DUPLICATE_EVENT',
  'UNMARKED_AS_DUPLICATE_EVENT',
  'USER_BLOCKED_EVENT',
  'UNSUBSCRIBED_EVENT',
  'ADDED_TO_MERGE_QUEUE_EVENT',
  'REMOVED_FROM_MERGE_QUEUE_EVENT',
  'AUTO_MERGE_DISABLED_EVENT',
  'AUTO_MERGE_ENABLED_EVENT',
  'AUTO_REBASE_ENABLED_EVENT',
  'AUTO_SQUASH_ENABLED_EVENT',
  'AUTOMATIC_BASE_CHANGE_FAILED_EVENT',
  'AUTOMATIC_BASE_CHANGE_SUCCEEDED_EVENT',
  'DEPLOYED_EVENT',
  'DEPLOYMENT_ENVIRONMENT_CHANGED_EVENT',
  'HEAD_REF_RESTORED_EVENT',
  'PULL_REQUEST_COMMIT_COMMENT_THREAD',
  'PULL_REQUEST_REVISION_MARKER',
])

/** Recorded events by REST name -> GraphQL type. */
const EVENT_TYPES: Record<string, string> = {
  labeled: 'LabeledEvent',
  unlabeled: 'UnlabeledEvent',
  closed: 'ClosedEvent',
  reopened: 'ReopenedEvent',
  assigned: 'AssignedEvent',
  unassigned: 'UnassignedEvent',
  milestoned: 'MilestonedEvent',
  demilestoned: 'DemilestonedEvent',
  renamed: 'RenamedTitleEvent',
  review_requested: 'ReviewRequestedEvent',
  review_request_removed: 'ReviewRequestRemovedEvent',
  review_dismissed: 'ReviewDismissedEvent',
  merged: 'MergedEvent',
  head_ref_deleted: 'HeadRefDeletedEvent',
  base_ref_deleted: 'BaseRefDeletedEvent',
  base_ref_changed: 'BaseRefChangedEvent',
  head_ref_force_pushed: 'HeadRefForcePushedEvent',
  base_ref_force_pushed: 'BaseRefForcePushedEvent',
  ready_for_review: 'ReadyForReviewEvent',
  convert_to_draft: 'ConvertToDraftEvent',
  sub_issue_added: 'SubIssueAddedEvent',
  sub_issue_removed: 'SubIssueRemovedEvent',
  parent_issue_added: 'ParentIssueAddedEvent',
  parent_issue_removed: 'ParentIssueRemovedEvent',
  comment_deleted: 'CommentDeletedEvent',
  mentioned: 'MentionedEvent',
  subscribed: 'SubscribedEvent',
}

/** LabeledEvent -> LABELED_EVENT, as GitHub's item type enums name their types. */
const itemTypeOf = (typename: string) => typename.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()

const eventId = (prefix: string, key: string | number) =>
  `${prefix}_kw${Buffer.from(String(key)).toString('base64url')}`

function eventNode(n: TimelineNodes, repo: Repo, issue: Issue, event: IssueEvent): Obj | undefined {
  const typename = EVENT_TYPES[event.event]
  if (!typename) return undefined
  const subject = () => n.issue(issue)
  const path = `/${repo.owner}/${repo.name}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}#event-${event.id}`
  const other = () =>
    event.other !== undefined && repo.issues[event.other] ? n.issue(repo.issues[event.other]!) : null
  const label = () => {
    const existing = Object.values(repo.labels).find((l) => l.name === event.label?.name)
    const name = event.label?.name ?? ''
    return {
      __typename: 'Label',
      id: eventId('LA', existing?.id ?? name),
      name,
      color: existing?.color ?? event.label?.color ?? 'ededed',
      description: existing?.description ?? null,
      isDefault: existing?.default === true,
      url: `${n.html}/${repo.owner}/${repo.name}/labels/${encodeURIComponent(name)}`,
    }
  }
  const ref = (name: string | undefined, sha?: string) =>
    name
      ? {
          __typename: 'Ref',
          name,
          prefix: 'refs/heads/',
          id: eventId('REF', `${repo.id}:${name}`),
          target: sha ? () => n.commit(sha) : null,
        }
      : null
  const common: Obj = {
    __typename: typename,
    id: eventId('IE', event.id),
    databaseId: event.id,
    actor: n.actor(event.actor),
    createdAt: event.created_at,
    resourcePath: path,
    url: `${n.html}${path}`,
  }
  switch (event.event) {
    case 'labeled':
    case 'unlabeled':
      return {...common, label, labelable: subject}
    case 'closed': {
      const closer =
        event.closer !== undefined && event.closer !== null && repo.issues[event.closer]
          ? repo.issues[event.closer]!
          : undefined
      return {
        ...common,
        closable: subject,
        closer: () => (closer ? n.issue(closer) : event.commit_id ? n.commit(event.commit_id) : null),
        stateReason: event.state_reason ? event.state_reason.toUpperCase() : null,
      }
    }
    case 'reopened':
      return {...common, closable: subject, stateReason: issue.is_pull ? null : 'REOPENED'}
    case 'assigned':
    case 'unassigned':
      return {...common, assignable: subject, assignee: n.actor(event.user ?? null), user: n.actor(event.user ?? null)}
    case 'milestoned':
    case 'demilestoned':
      return {...common, milestoneTitle: event.milestone ?? '', subject}
    case 'renamed':
      return {...common, previousTitle: event.rename?.from ?? '', currentTitle: event.rename?.to ?? '', subject}
    case 'review_requested':
    case 'review_request_removed':
      return {...common, pullRequest: subject, requestedReviewer: n.actor(event.user ?? null)}
    case 'review_dismissed': {
      const review = event.review ? repo.reviews[event.review.id] : undefined
      return {
        ...common,
        pullRequest: subject,
        dismissalMessage: event.review?.message ?? null,
        dismissalMessageHTML: event.review?.message ?? null,
        previousReviewState: event.review?.state ?? 'COMMENTED',
        review: () => (review ? n.review(review) : null),
        pullRequestCommit: null,
      }
    }
    case 'merged':
      return {
        ...common,
        pullRequest: subject,
        commit: () => (event.commit_id ? n.commit(event.commit_id) : null),
        mergeRefName: event.ref?.to ?? '',
        mergeRef: () => ref(event.ref?.to, repo.branches[event.ref?.to ?? '']),
      }
    case 'head_ref_deleted':
      return {...common, pullRequest: subject, headRefName: event.ref?.from ?? '', headRef: null}
    case 'base_ref_deleted':
      return {...common, pullRequest: subject, baseRefName: event.ref?.from ?? null}
    case 'base_ref_changed':
      return {
        ...common,
        pullRequest: subject,
        previousRefName: event.ref?.from ?? '',
        currentRefName: event.ref?.to ?? '',
      }
    case 'head_ref_force_pushed':
    case 'base_ref_force_pushed': {
      const pull = repo.pulls[issue.number]
      const name = event.event === 'head_ref_force_pushed' ? pull?.head : pull?.base
      return {
        ...common,
        pullRequest: subject,
        beforeCommit: () => (event.ref?.before ? n.commit(event.ref.before) : null),
        afterCommit: () => (event.ref?.after ? n.commit(event.ref.after) : null),
        ref: () => ref(name, name ? repo.branches[name] : undefined),
      }
    }
    case 'ready_for_review':
    case 'convert_to_draft':
      return {...common, pullRequest: subject}
    case 'sub_issue_added':
    case 'sub_issue_removed':
      return {...common, subIssue: other}
    case 'parent_issue_added':
    case 'parent_issue_removed':
      return {...common, parent: other}
    case 'comment_deleted':
      return {...common, deletedCommentAuthor: n.actor(event.user ?? null)}
    case 'mentioned':
      return common
    case 'subscribed':
      return {...common, subscribable: subject}
  }
  return undefined
}

function entryNode(n: TimelineNodes, repo: Repo, issue: Issue, entry: TimelineEntry): Obj | undefined {
  switch (entry.kind) {
    case 'event':
      return eventNode(n, repo, issue, entry.event)
    case 'commented':
      return n.comment(entry.comment.id)
    case 'referenced':
      return {
        __typename: 'ReferencedEvent',
        id: eventId('REFE', `${entry.commit.sha}:${issue.id}`),
        actor: n.actor(entry.commit.author),
        createdAt: entry.at,
        commit: () => n.commit(entry.commit.sha),
        commitRepository: () => n.repository(),
        isCrossRepository: false,
        isDirectReference: true,
        subject: () => n.issue(issue),
      }
    case 'cross-referenced': {
      const {source} = entry.reference
      const path = `/${repo.owner}/${repo.name}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}#ref-${source.is_pull ? 'pullrequest' : 'issue'}-${source.id}`
      return {
        __typename: 'CrossReferencedEvent',
        id: `CRE_kw${Buffer.from(`${source.id}:${issue.id}`).toString('base64url')}`,
        actor: n.actor(entry.reference.actor),
        createdAt: entry.at,
        referencedAt: entry.at,
        isCrossRepository: false,
        willCloseTarget: source.is_pull && !issue.is_pull && closesIssue(source.body, issue.number),
        resourcePath: path,
        url: `${n.html}${path}`,
        source: () => n.issue(source),
        target: () => n.issue(issue),
      }
    }
    case 'committed': {
      const path = `/${repo.owner}/${repo.name}/pull/${issue.number}/commits/${entry.commit.sha}`
      return {
        __typename: 'PullRequestCommit',
        id: eventId('PURC', `${issue.id}:${entry.commit.sha}`),
        commit: () => n.commit(entry.commit.sha),
        pullRequest: () => n.issue(issue),
        resourcePath: path,
        url: `${n.html}${path}`,
      }
    }
    case 'reviewed':
      return n.review(entry.review)
  }
}

/** Item types the sandbox makes (recorded, derived, or review threads on request). */
const MADE = new Set(
  [
    ...Object.values(EVENT_TYPES),
    'IssueComment',
    'ReferencedEvent',
    'CrossReferencedEvent',
    'PullRequestCommit',
    'PullRequestReview',
    'PullRequestReviewThread',
  ].map(itemTypeOf),
)

export function timelineItems(n: TimelineNodes, repo: Repo, issue: Issue, args: Args): Obj {
  const asked =
    Array.isArray(args.itemTypes) && args.itemTypes.length > 0 ? new Set(args.itemTypes as string[]) : undefined
  // A type GitHub's enum gains later is neither made nor known to be impossible: say so, never a silent none.
  const unknown = [...(asked ?? [])].filter((t) => !MADE.has(t) && !NEVER.has(t))
  if (unknown.length > 0)
    throw notModelled(`${issue.is_pull ? 'PullRequest' : 'Issue'}.timelineItems of type ${unknown.join(', ')}`)
  const pullCommits = issue.is_pull ? n.store.pulls.commits(repo, issue.number) : undefined
  const items: Array<{at: string; node: Obj}> = []
  for (const entry of timeline(n.html, repo, issue, {pullCommits})) {
    const node = entryNode(n, repo, issue, entry)
    if (node && (!asked || asked.has(itemTypeOf(String(node.__typename))))) items.push({at: entry.at, node})
  }
  // Review threads are items of their own only when asked for by type.
  if (issue.is_pull && asked?.has('PULL_REQUEST_REVIEW_THREAD')) {
    for (const thread of n.store.reviews.threads(repo, issue.number)) {
      const first = repo.review_comments[thread.comments[0]!]
      if (first) items.push({at: first.created_at, node: n.thread(thread)})
    }
    items.sort((a, b) => a.at.localeCompare(b.at))
  }
  const since = typeof args.since === 'string' ? Date.parse(args.since) : NaN
  const list = items.filter((i) => Number.isNaN(since) || Date.parse(i.at) >= since)
  const skip = typeof args.skip === 'number' ? args.skip : 0
  const page = n.connection(
    list.slice(skip).map((i) => i.node),
    args,
  )
  return {
    ...page,
    totalCount: list.length,
    filteredCount: list.length,
    pageCount: Math.min(list.length, skip + ((page.nodes as unknown[]) ?? []).length),
    updatedAt: issue.updated_at,
  }
}
