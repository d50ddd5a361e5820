/**
 * Filters of an issue list: REST's query parameters of GET /repos/{o}/{r}/issues, and GraphQL's
 * `Repository.issues(filterBy:)` (IssueFilters).
 */
import {notModelled} from '../core/errors.js'
import type {Issue, Repo} from '../core/state.js'
import {mentionedLogins} from './events.js'

/** Issue filters of GET /repos/{o}/{r}/issues: state, labels, assignee, creator, milestone, sort. */
export function listIssues(repo: Repo, query: URLSearchParams, pullsToo: boolean): Issue[] {
  const state = query.get('state') ?? 'open'
  const labels = (query.get('labels') ?? '').split(',').filter(Boolean)
  const assignee = query.get('assignee')
  const creator = query.get('creator')
  const milestone = query.get('milestone')
  const issues = Object.values(repo.issues).filter(
    (i) =>
      (pullsToo || !i.is_pull) &&
      (state === 'all' || i.state === state) &&
      labels.every((l) => i.labels.some((n) => n.toLowerCase() === l.toLowerCase())) &&
      (!assignee ||
        (assignee === 'none'
          ? i.assignees.length === 0
          : assignee === '*'
            ? i.assignees.length > 0
            : i.assignees.includes(assignee))) &&
      (!creator || i.user === creator) &&
      (!milestone ||
        (milestone === 'none'
          ? i.milestone === null
          : milestone === '*'
            ? i.milestone !== null
            : String(i.milestone) === milestone)),
  )
  const direction = query.get('direction') === 'asc' ? 1 : -1
  const key = query.get('sort') === 'updated' ? 'updated_at' : 'created_at'
  return issues.sort((a, b) =>
    a[key] < b[key] ? -direction : a[key] > b[key] ? direction : (a.number - b.number) * direction,
  )
}

/** GraphQL's `Repository.issues(filterBy:)` (IssueFilters), as GitHub documents each field. */
export function matchesIssueFilters(repo: Repo, issue: Issue, filterBy: Record<string, unknown> | undefined): boolean {
  if (!filterBy) return true
  const given = (key: string) => key in filterBy && filterBy[key] !== undefined
  const milestoneTest = (value: unknown, by: 'id' | 'number') => {
    // null: no milestone; '*': any milestone; else the milestone's database id (milestone) or number (milestoneNumber).
    if (value === null) return issue.milestone === null
    if (value === '*') return issue.milestone !== null
    const milestone = repo.milestones.find((m) => m.number === issue.milestone)
    return (
      milestone !== undefined &&
      (typeof value === 'string' || typeof value === 'number') &&
      String(by === 'id' ? milestone.id : milestone.number) === String(value)
    )
  }
  if (given('assignee')) {
    const assignee = filterBy.assignee
    if (
      assignee === null
        ? issue.assignees.length > 0
        : assignee === '*'
          ? issue.assignees.length === 0
          : !issue.assignees.some((a) => typeof assignee === 'string' && a.toLowerCase() === assignee.toLowerCase())
    )
      return false
  }
  if (typeof filterBy.createdBy === 'string' && issue.user.toLowerCase() !== filterBy.createdBy.toLowerCase())
    return false
  if (
    Array.isArray(filterBy.labels) &&
    !(filterBy.labels as string[]).every((l) => issue.labels.some((n) => n.toLowerCase() === l.toLowerCase()))
  )
    return false
  if (typeof filterBy.mentioned === 'string') {
    const login = filterBy.mentioned.toLowerCase()
    const texts = [issue.body, ...issue.comments.map((id) => repo.comments[id]?.body ?? null)]
    if (!texts.some((text) => mentionedLogins(text).some((m) => m.toLowerCase() === login))) return false
  }
  if (given('milestone') && !milestoneTest(filterBy.milestone, 'id')) return false
  if (given('milestoneNumber') && !milestoneTest(filterBy.milestoneNumber, 'number')) return false
  if (typeof filterBy.since === 'string' && Date.parse(issue.updated_at) < Date.parse(filterBy.since)) return false
  if (Array.isArray(filterBy.states) && !(filterBy.states as string[]).includes(issue.state.toUpperCase())) return false
  if (filterBy.viewerSubscribed === true) throw notModelled('IssueFilters.viewerSubscribed (subscriptions)')
  return true
}
