/**
 * REST routes over an issue's history: its events, its timeline, and the repository's issue events.
 * The history is events.ts's: what the store recorded when it happened and what follows from state.
 */
import {notFound} from '../core/errors.js'
import {num, repoOf, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Repo} from '../core/state.js'
import {timeline} from './events.js'
import {eventsJson, issueEvent, restVisible, timelineJson} from './serialize-events.js'

function entriesOf(ctx: RestContext, repo: Repo, number: number, eventsOnly: boolean) {
  const issue = ctx.store.issues.get(repo, number)
  const pullCommits = issue.is_pull ? ctx.store.pulls.commits(repo, number) : undefined
  return {issue, entries: timeline(ctx.ser.links.html, repo, issue, {pullCommits}, eventsOnly)}
}

export const eventRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/events',
    'issues/list-events',
    (ctx) => {
      const repo = repoOf(ctx)
      const {issue, entries} = entriesOf(ctx, repo, num(ctx.params.issue_number, 'issue_number'), true)
      return {list: eventsJson(ctx.ser, repo, issue, entries)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/timeline',
    'issues/list-events-for-timeline',
    (ctx) => {
      const repo = repoOf(ctx)
      const {issue, entries} = entriesOf(ctx, repo, num(ctx.params.issue_number, 'issue_number'), false)
      return {list: timelineJson(ctx.ser, repo, issue, entries)}
    },
  ],
  // The repository's recorded events, newest first (commit references belong to each issue's own list).
  [
    'GET',
    '/repos/{owner}/{repo}/issues/events',
    'issues/list-events-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      const events = Object.values(repo.events ?? {})
        .filter(restVisible)
        .sort((a, b) => b.id - a.id)
      return {list: events.map((e) => issueEvent(ctx.ser, repo, e, true))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/events/{event_id}',
    'issues/get-event',
    (ctx) => {
      const repo = repoOf(ctx)
      const event = repo.events?.[num(ctx.params.event_id, 'event_id')]
      if (!event || !restVisible(event)) throw notFound()
      return {body: issueEvent(ctx.ser, repo, event, true)}
    },
  ],
]
