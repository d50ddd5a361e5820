/**
 * An issue's history, as GitHub's timelines show it (REST `…/events` and `…/timeline`, GraphQL
 * `timelineItems`): the events the store records when they happen (core/state.ts IssueEvent), and what
 * follows from other state: comments, cross-references (an issue, a pull request or a comment that
 * mentions this one), references from commits ("Fixes #3" in a commit message), a pull request's
 * commits and reviews. One ordered list serves both APIs.
 */
import type {Commit, Issue, IssueComment, IssueEvent, Repo, Review} from '../core/state.js'

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Whether a text mentions issue `number` of `repo`: #N, owner/repo#N, or its web URL. */
function mentionsIssue(html: string, repo: Repo, number: number, text: string | null): boolean {
  if (!text) return false
  const full = `${escape(repo.owner)}/${escape(repo.name)}`
  return new RegExp(
    `(?:^|[^\\w/#])#${number}\\b|\\b${full}#${number}\\b|${escape(html)}/${full}/(?:issues|pull)/${number}\\b`,
    'i',
  ).test(text)
}

/** Whether a pull request's body closes issue `number` with a keyword (fixes #N, closes #N, resolves #N). */
export function closesIssue(body: string | null, number: number): boolean {
  return new RegExp(`\\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\\s+#${number}\\b`, 'i').test(body ?? '')
}

/** Logins @-mentioned in a text (GitHub's rule: @ not preceded by a word character or a backtick). */
export function mentionedLogins(text: string | null): string[] {
  const found = new Set<string>()
  for (const match of (text ?? '').matchAll(/(?:^|[^\w`])@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})\b/g))
    found.add(match[1]!)
  return [...found]
}

interface CrossReference {
  source: Issue
  at: string
  actor: string
  /** The id of what mentions the target (the source or its comment): orders it within one second. */
  seq: number
}

/** One cross-reference per issue or pull request that mentions the target, at its first mention. */
function crossReferences(html: string, repo: Repo, target: Issue): CrossReference[] {
  return Object.values(repo.issues).flatMap((source) => {
    if (source.number === target.number) return []
    if (mentionsIssue(html, repo, target.number, source.body))
      return [{source, at: source.created_at, actor: source.user, seq: source.id}]
    const comment = source.comments
      .map((id) => repo.comments[id]!)
      .find((c) => mentionsIssue(html, repo, target.number, c.body))
    return comment ? [{source, at: comment.created_at, actor: comment.user, seq: comment.id}] : []
  })
}

/**
 * Commits of the repository whose message mentions the issue (GitHub's `referenced` events); a pull
 * request's own merge commit ("Title (#N)") is its merge, not a reference.
 */
function referencingCommits(html: string, repo: Repo, target: Issue): Commit[] {
  const ownMerge = target.is_pull ? repo.pulls[target.number]?.merge_commit_sha : undefined
  return Object.values(repo.commits)
    .filter((c) => c.sha !== ownMerge && mentionsIssue(html, repo, target.number, c.message))
    .sort((a, b) => a.date.localeCompare(b.date) || (a.seq ?? 0) - (b.seq ?? 0))
}

/** The events recorded for one issue, oldest first. */
function recordedEvents(repo: Repo, number: number): IssueEvent[] {
  return Object.values(repo.events ?? {})
    .filter((e) => e.issue === number)
    .sort((a, b) => a.id - b.id)
}

export type TimelineEntry =
  | {kind: 'event'; at: string; event: IssueEvent}
  | {kind: 'referenced'; at: string; commit: Commit}
  | {kind: 'commented'; at: string; comment: IssueComment}
  | {kind: 'cross-referenced'; at: string; reference: CrossReference}
  | {kind: 'committed'; at: string; commit: Commit}
  | {kind: 'reviewed'; at: string; review: Review}

export interface TimelineSources {
  /** The pull request's commits, for a pull request's timeline. */
  pullCommits?: Commit[]
}

/**
 * The issue's whole timeline in time order (ties: recorded order). `events` only: what REST's
 * `…/issues/{n}/events` lists (recorded events and commit references, no comments, commits,
 * reviews or cross-references).
 */
export function timeline(
  html: string,
  repo: Repo,
  issue: Issue,
  sources: TimelineSources = {},
  eventsOnly = false,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...recordedEvents(repo, issue.number).map((event): TimelineEntry => ({kind: 'event', at: event.created_at, event})),
    ...referencingCommits(html, repo, issue).map((commit): TimelineEntry => ({
      kind: 'referenced',
      at: commit.date,
      commit,
    })),
  ]
  if (!eventsOnly) {
    entries.push(
      ...issue.comments.map((id): TimelineEntry => ({
        kind: 'commented',
        at: repo.comments[id]!.created_at,
        comment: repo.comments[id]!,
      })),
    )
    entries.push(
      ...crossReferences(html, repo, issue).map((reference): TimelineEntry => ({
        kind: 'cross-referenced',
        at: reference.at,
        reference,
      })),
    )
    entries.push(
      ...(sources.pullCommits ?? []).map((commit): TimelineEntry => ({kind: 'committed', at: commit.date, commit})),
    )
    const reviews = Object.values(repo.reviews).filter(
      (r) => r.pull === issue.number && r.state !== 'PENDING' && r.submitted_at,
    )
    entries.push(...reviews.map((review): TimelineEntry => ({kind: 'reviewed', at: review.submitted_at!, review})))
  }
  // Within one second (the clock's grain), the order things were made in: ids and commits' seq share one counter.
  const order = (entry: TimelineEntry): number => {
    switch (entry.kind) {
      case 'event':
        return entry.event.id
      case 'commented':
        return entry.comment.id
      case 'reviewed':
        return entry.review.id
      case 'cross-referenced':
        return entry.reference.seq
      case 'referenced':
      case 'committed':
        return entry.commit.seq ?? 0
    }
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at) || order(a) - order(b))
}
