/**
 * Issue and pull request search (REST's `/search/issues`, GraphQL's `ISSUE` and `ISSUE_ADVANCED`):
 * every qualifier GitHub documents for them, best match or the sort asked.
 */
import {notModelled} from '../core/errors.js'
import type {Issue, Pull, Repo} from '../core/state.js'
import {mentionedLogins} from '../issues/events.js'
import {primaryLanguage} from '../repos/meta.js'
import type {Store} from '../store.js'
import {
  anyOf,
  checkNames,
  contains,
  evaluate,
  inRange,
  isLogin,
  legacyScopes,
  lower,
  occurrences,
  parseQuery,
  scopeTest,
  shapeOf,
} from './query.js'

export const ISSUE_KEYS = new Set([
  'repo',
  'user',
  'org',
  'owner',
  'is',
  'type',
  'state',
  'reason',
  'author',
  'assignee',
  'mentions',
  'commenter',
  'involves',
  'label',
  'milestone',
  'no',
  'has',
  'in',
  'sort',
  'draft',
  'review',
  'reviewed-by',
  'review-requested',
  'user-review-requested',
  'team-review-requested',
  'team',
  'head',
  'base',
  'status',
  'comments',
  'interactions',
  'reactions',
  'created',
  'updated',
  'closed',
  'merged',
  'linked',
  'language',
  'archived',
  'project',
  'parent-issue',
])
/** Qualifiers GitHub has that need what the sandbox does not model (teams). */
const ISSUE_NOT_MODELLED = new Set(['team', 'team-review-requested'])

export interface IssueHit {
  repo: Repo
  issue: Issue
  score: number
}

export interface IssueSearchContext {
  store: Store
  viewer: string
  /** A pull request's review decision as GraphQL's reviewDecision gives it. */
  reviewDecision: (repo: Repo, pull: Pull) => string | null
}

/**
 * What `status:` reads: a commit's check runs (its workflow runs' jobs) and latest commit statuses
 * combined — any failure or error fails it, anything unfinished leaves it pending; null without any.
 */
function commitState(store: Store, repo: Repo, sha: string): 'success' | 'failure' | 'pending' | null {
  const states: string[] = []
  for (const run of Object.values(repo.runs).filter((r) => r.head_sha === sha)) {
    const attempt = store.actions.latestAttempt(run)
    for (const job of attempt.jobs) {
      const status = store.actions.jobStatus(attempt, job)
      states.push(
        status.status !== 'completed'
          ? 'pending'
          : ['success', 'neutral', 'skipped'].includes(status.conclusion ?? '')
            ? 'success'
            : 'failure',
      )
    }
  }
  for (const status of store.statuses.latest(repo, sha))
    states.push(status.state === 'error' ? 'failure' : status.state)
  if (states.length === 0) return null
  if (states.includes('failure')) return 'failure'
  return states.includes('pending') ? 'pending' : 'success'
}

export function searchIssues(
  ctx: IssueSearchContext,
  query: string,
  options: {advanced?: boolean; sort?: string | null; order?: string | null} = {},
): IssueHit[] {
  const {store, viewer} = ctx
  let expr = parseQuery(query, ISSUE_KEYS)
  if (!options.advanced) expr = legacyScopes(expr)
  const shape = shapeOf(expr)
  for (const q of shape.qualifiers)
    if (ISSUE_NOT_MODELLED.has(q.key)) throw notModelled(`the search qualifier ${q.key}: (the sandbox has no teams)`)
  checkNames(store, viewer, shape)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['title', 'body', 'comments'])
  const hits: IssueHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    for (const issue of Object.values(repo.issues)) {
      const pull = issue.is_pull ? repo.pulls[issue.number] : undefined
      const comments = () => issue.comments.map((id) => repo.comments[id]!).filter(Boolean)
      const textOf = (word: string) =>
        (fields.has('title') && contains(issue.title, word)) ||
        (fields.has('body') && contains(issue.body, word)) ||
        (fields.has('comments') && comments().some((c) => contains(c.body, word)))
      const matches = evaluate(expr, (e) =>
        e.kind === 'text' ? textOf(e.text) : issueQualifier(ctx, repo, issue, pull, e.key, e.value),
      )
      if (!matches) continue
      const score = shape.words.reduce(
        (n, w) =>
          n +
          (fields.has('title') ? 2 * occurrences(issue.title, w) : 0) +
          (fields.has('body') ? occurrences(issue.body, w) : 0) +
          (fields.has('comments') ? comments().reduce((m, c) => m + occurrences(c.body, w), 0) : 0),
        0,
      )
      hits.push({repo, issue, score: shape.words.length ? score : 1})
    }
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const key = (hit: IssueHit): number | string => {
    const reactions = () => store.reactions.list(hit.repo, {kind: 'issue', id: hit.issue.id})
    switch (sort?.field) {
      case 'created':
        return hit.issue.created_at
      case 'updated':
        return hit.issue.updated_at
      case 'comments':
        return hit.issue.comments.length
      case 'interactions':
        return hit.issue.comments.length + reactions().length
      case 'reactions':
        return reactions().length
      default: {
        const content = REACTION_SORTS[sort?.field ?? '']
        return content ? reactions().filter((r) => r.content === content).length : hit.score
      }
    }
  }
  const sign = sort && sort.direction === 'asc' ? 1 : -1
  const created = (hit: IssueHit) => `${hit.issue.created_at}:${String(hit.issue.id).padStart(12, '0')}`
  return hits.sort((a, b) => {
    const [x, y] = [key(a), key(b)]
    const primary = x < y ? -1 : x > y ? 1 : 0
    if (primary !== 0) return primary * sign
    // Ties (the same second, the same count) in creation order: the sort's direction, else newest first.
    return (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : 0) * sign
  })
}

const REACTION_SORTS: Record<string, string> = {
  'reactions-+1': '+1',
  'reactions--1': '-1',
  'reactions-smile': 'laugh',
  'reactions-thinking_face': 'confused',
  'reactions-heart': 'heart',
  'reactions-tada': 'hooray',
}

function issueQualifier(
  ctx: IssueSearchContext,
  repo: Repo,
  issue: Issue,
  pull: Pull | undefined,
  key: string,
  value: string,
): boolean {
  const {store, viewer} = ctx
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const comments = () => issue.comments.map((id) => repo.comments[id]!).filter(Boolean)
  const reviewComments = () => (pull ? Object.values(repo.review_comments).filter((c) => c.pull === issue.number) : [])
  const reviews = () =>
    pull ? Object.values(repo.reviews).filter((r) => r.pull === issue.number && r.state !== 'PENDING') : []
  const mentions = (login: string) =>
    [issue.body, ...comments().map((c) => c.body)].some((text) =>
      mentionedLogins(text).some((m) => m.toLowerCase() === login.toLowerCase()),
    )
  const commented = (login: string) =>
    [...comments(), ...reviewComments()].some((c) => c.user.toLowerCase() === login.toLowerCase())
  const users = (test: (login: string) => boolean) => anyOf(value).some((name) => test(name === '@me' ? viewer : name))
  const merged = pull?.merged_at ?? null
  switch (key) {
    case 'is':
      switch (v) {
        case 'issue':
          return !issue.is_pull
        case 'pr':
        case 'pull-request':
          return issue.is_pull
        case 'open':
        case 'closed':
          return issue.state === v
        case 'merged':
          return merged !== null
        case 'unmerged':
          return issue.is_pull && merged === null && issue.state === 'closed'
        case 'draft':
          return pull?.draft === true
        case 'locked':
          return issue.locked
        case 'unlocked':
          return !issue.locked
        case 'public':
          return !repo.private
        case 'private':
          return repo.private
        case 'blocked':
          return issue.blocked_by.length > 0
        case 'blocking':
          return store.issues.blocking(repo, issue.number).length > 0
        default:
          // is:queued (merge queues) and the like: nothing in the sandbox is.
          return false
      }
    case 'type':
      if (v === 'issue') return !issue.is_pull
      if (v === 'pr' || v === 'pull-request') return issue.is_pull
      return !issue.is_pull && lower(issue.issue_type) === v
    case 'state':
      return issue.state === v
    case 'reason':
      return lower(issue.state_reason).replace('_', ' ') === v.replace('_', ' ')
    case 'author':
      if (v.startsWith('app/')) return lower(issue.user) === `${v.slice(4)}[bot]`
      return isLogin(viewer, value, issue.user)
    case 'assignee':
      return users((login) => issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase()))
    case 'mentions':
      return users(mentions)
    case 'commenter':
      return users(commented)
    case 'involves':
      return users(
        (login) =>
          lower(issue.user) === login.toLowerCase() ||
          issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase()) ||
          mentions(login) ||
          commented(login),
      )
    case 'label':
      return anyOf(value).some((name) => issue.labels.some((l) => l.toLowerCase() === name))
    case 'milestone': {
      const milestone = issue.milestone === null ? undefined : repo.milestones.find((m) => m.number === issue.milestone)
      return milestone !== undefined && anyOf(value).includes(milestone.title.toLowerCase())
    }
    case 'no':
    case 'has': {
      const has =
        v === 'label'
          ? issue.labels.length > 0
          : v === 'milestone'
            ? issue.milestone !== null
            : v === 'assignee'
              ? issue.assignees.length > 0
              : v === 'project'
                ? projectsOf(store, repo, issue).length > 0
                : v === 'type'
                  ? issue.issue_type !== null
                  : v === 'parent-issue'
                    ? issue.parent !== null
                    : v === 'sub-issues'
                      ? issue.sub_issues.length > 0
                      : undefined
      if (has === undefined) return false
      return key === 'has' ? has : !has
    }
    case 'in':
    case 'sort':
      return true
    case 'draft':
      return pull !== undefined && pull.draft === (v === 'true')
    case 'review': {
      if (!pull) return false
      if (v === 'none') return reviews().length === 0
      // review:required, approved, changes_requested: the pull request's review decision (REVIEW_REQUIRED, …).
      const decision = ctx.reviewDecision(repo, pull)
      return decision !== null && decision.toLowerCase() === (v === 'required' ? 'review_required' : v)
    }
    case 'reviewed-by':
      return users((login) => reviews().some((r) => r.user.toLowerCase() === login.toLowerCase()))
    case 'review-requested':
    case 'user-review-requested':
      return (
        pull !== undefined &&
        users((login) => pull.requested_reviewers.some((r) => r.toLowerCase() === login.toLowerCase()))
      )
    case 'head':
      return pull !== undefined && pull.head.toLowerCase() === v
    case 'base':
      return pull !== undefined && pull.base.toLowerCase() === v
    case 'status': {
      if (!pull) return false
      return commitState(store, repo, store.pulls.headSha(repo, pull)) === v
    }
    case 'comments':
      return inRange(value, issue.comments.length, 'number')
    case 'reactions':
      return inRange(value, store.reactions.list(repo, {kind: 'issue', id: issue.id}).length, 'number')
    case 'interactions':
      return inRange(
        value,
        issue.comments.length + store.reactions.list(repo, {kind: 'issue', id: issue.id}).length,
        'number',
      )
    case 'created':
      return inRange(value, issue.created_at, 'date')
    case 'updated':
      return inRange(value, issue.updated_at, 'date')
    case 'closed':
      return inRange(value, issue.closed_at, 'date')
    case 'merged':
      return inRange(value, merged, 'date')
    case 'linked': {
      // An issue is linked to the pull requests whose body closes it; a pull request to those issues.
      const closing = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b/gi
      if (v === 'pr')
        return (
          !issue.is_pull &&
          Object.values(repo.pulls).some((p) =>
            [...(repo.issues[p.number]!.body ?? '').matchAll(closing)].some((m) => Number(m[1]) === issue.number),
          )
        )
      if (v === 'issue')
        return (
          issue.is_pull &&
          [...(issue.body ?? '').matchAll(closing)].some((m) => repo.issues[Number(m[1])]?.is_pull === false)
        )
      return false
    }
    case 'language':
      return lower(primaryLanguage(repo)?.name) === v
    case 'archived':
      return v === 'false'
    case 'project':
      return projectsOf(store, repo, issue).some((p) => `${p.owner}/${p.number}`.toLowerCase() === v)
    case 'parent-issue': {
      const match = /^(?:([^/#\s]+\/[^#\s]+))?#(\d+)$/.exec(value)
      if (!match || issue.parent === null) return false
      return (
        Number(match[2]) === issue.parent &&
        (!match[1] || match[1].toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase())
      )
    }
    default:
      return false
  }
}

function projectsOf(store: Store, repo: Repo, issue: Issue) {
  const key = `${repo.owner}/${repo.name}`
  return store.state.projects.filter((p) =>
    p.items.some((i) => i.content.repo === key && i.content.number === issue.number),
  )
}
