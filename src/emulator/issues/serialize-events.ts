/**
 * REST representations of an issue's history (GitHub's shapes): issue events (`…/events`,
 * `…/issues/events`) and timeline items (`…/timeline`: events, comments, cross-references, a pull
 * request's commits and reviews).
 */
import type {Json} from '../core/serializer-core.js'
import type {Issue, IssueEvent, Repo} from '../core/state.js'
import {timestamp} from '../core/store-core.js'
import {gitCommit} from '../repos/serialize-git.js'
import type {Serializer} from '../serialize.js'
import type {TimelineEntry} from './events.js'

/** Kinds the store records that GitHub's REST APIs do not list (GraphQL's CommentDeletedEvent). */
const GRAPHQL_ONLY = new Set(['comment_deleted'])

export const restVisible = (event: IssueEvent) => !GRAPHQL_ONLY.has(event.event)

const api = (ser: Serializer, repo: Repo) => `${ser.links.api}/repos/${repo.owner}/${repo.name}`

/** An issue as issue events reference it (sub-issues, parents, dependencies). */
function issueReference(ser: Serializer, repo: Repo, number: number): Json | null {
  const issue = repo.issues[number]
  if (!issue) return null
  const type = issue.issue_type ? repo.issue_types.find((t) => t.name === issue.issue_type) : undefined
  return {
    number: issue.number,
    title: issue.title,
    state: issue.state,
    state_reason: issue.state_reason,
    repository: ser.repos.repo(repo),
    issue_type: type ? {id: type.id, name: type.name, color: type.color} : null,
  }
}

function issueType(repo: Repo, name: string | null | undefined): Json | null {
  if (!name) return null
  const type = repo.issue_types.find((t) => t.name === name)
  return {id: type?.id ?? 0, name, color: type?.color ?? null}
}

/** One recorded event; `withIssue` for the repository-wide list, which names each event's issue. */
export function issueEvent(ser: Serializer, repo: Repo, event: IssueEvent, withIssue = false): Json {
  const commitUrl = event.commit_id ? `${api(ser, repo)}/commits/${event.commit_id}` : null
  const body: Json = {
    id: event.id,
    node_id: `IE_kw${Buffer.from(String(event.id)).toString('base64url')}`,
    url: `${api(ser, repo)}/issues/events/${event.id}`,
    actor: ser.users.user(event.actor),
    event: event.event,
    commit_id: event.commit_id ?? null,
    commit_url: commitUrl,
    created_at: event.created_at,
    performed_via_github_app: null,
  }
  switch (event.event) {
    case 'labeled':
    case 'unlabeled':
      body.label = event.label
      break
    case 'assigned':
    case 'unassigned':
      body.assignee = ser.users.user(event.user ?? null)
      body.assigner = ser.users.user(event.actor)
      break
    case 'milestoned':
    case 'demilestoned':
      body.milestone = {title: event.milestone ?? ''}
      break
    case 'renamed':
      body.rename = event.rename
      break
    case 'review_requested':
    case 'review_request_removed':
      body.review_requester = ser.users.user(event.actor)
      body.requested_reviewer = ser.users.user(event.user ?? null)
      break
    case 'review_dismissed':
      body.dismissed_review = {
        state: event.review?.state.toLowerCase(),
        review_id: event.review?.id,
        dismissal_message: event.review?.message ?? null,
        dismissal_commit_id: null,
      }
      break
    case 'closed':
    case 'reopened':
      body.state_reason = event.state_reason ?? null
      break
    case 'sub_issue_added':
    case 'sub_issue_removed':
      body.sub_issue = issueReference(ser, repo, event.other!)
      break
    case 'parent_issue_added':
    case 'parent_issue_removed':
      body.parent_issue = issueReference(ser, repo, event.other!)
      break
    case 'blocked_by_added':
    case 'blocked_by_removed':
      body.blocked_by = issueReference(ser, repo, event.other!)
      break
    case 'blocking_added':
    case 'blocking_removed':
      body.blocking = issueReference(ser, repo, event.other!)
      break
    case 'issue_type_added':
    case 'issue_type_removed':
      body.issue_type = issueType(repo, event.issue_type)
      break
    case 'issue_type_changed':
      body.issue_type = issueType(repo, event.issue_type)
      body.prev_issue_type = issueType(repo, event.prev_issue_type)
      break
  }
  if (withIssue) body.issue = repo.issues[event.issue] ? ser.issues.issue(repo, repo.issues[event.issue]!) : null
  return body
}

/** A `referenced` event: a commit of the repository mentions the issue. */
function referenced(
  ser: Serializer,
  repo: Repo,
  issue: Issue,
  commit: {sha: string; author: string; date: string},
): Json {
  const id = Number.parseInt(commit.sha.slice(0, 8), 16)
  return {
    id,
    node_id: `REFE_kw${Buffer.from(`${commit.sha}:${issue.id}`).toString('base64url')}`,
    url: `${api(ser, repo)}/issues/events/${id}`,
    actor: ser.users.user(commit.author),
    event: 'referenced',
    commit_id: commit.sha,
    commit_url: `${api(ser, repo)}/commits/${commit.sha}`,
    created_at: commit.date,
    performed_via_github_app: null,
  }
}

/** `…/issues/{n}/events`: recorded events and commit references. */
export function eventsJson(ser: Serializer, repo: Repo, issue: Issue, entries: TimelineEntry[]): Json[] {
  return entries.flatMap((entry) => {
    if (entry.kind === 'event') return restVisible(entry.event) ? [issueEvent(ser, repo, entry.event)] : []
    if (entry.kind === 'referenced') return [referenced(ser, repo, issue, entry.commit)]
    return []
  })
}

/** `…/issues/{n}/timeline`: everything, each in its timeline shape. */
export function timelineJson(ser: Serializer, repo: Repo, issue: Issue, entries: TimelineEntry[]): Json[] {
  return entries.flatMap((entry): Json[] => {
    switch (entry.kind) {
      case 'event':
        return restVisible(entry.event) ? [issueEvent(ser, repo, entry.event)] : []
      case 'referenced':
        return [referenced(ser, repo, issue, entry.commit)]
      case 'commented':
        return [
          {...ser.issues.comment(repo, entry.comment), event: 'commented', actor: ser.users.user(entry.comment.user)},
        ]
      case 'cross-referenced':
        return [
          {
            event: 'cross-referenced',
            actor: ser.users.user(entry.reference.actor),
            created_at: entry.at,
            updated_at: entry.at,
            source: {
              type: 'issue',
              issue: {...ser.issues.issue(repo, entry.reference.source), repository: ser.repos.repo(repo)},
            },
          },
        ]
      case 'committed':
        return [{...gitCommit(ser, repo, entry.commit), event: 'committed'}]
      case 'reviewed': {
        const review = ser.pulls.review(repo, entry.review)
        return [
          {
            ...review,
            event: 'reviewed',
            submitted_at: entry.review.submitted_at,
            updated_at: entry.review.submitted_at ?? timestamp(0),
          },
        ]
      }
    }
  })
}
