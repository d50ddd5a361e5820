/**
 * Commit statuses (what CI systems post with a token: POST …/statuses/{sha}), listed per commit and
 * combined as GitHub combines them: the latest status of each context counts; any error or failure
 * makes the combination `failure`, any pending (or no status at all) `pending`, else `success`.
 * Check runs (from workflow jobs) are not part of the combined status; GraphQL's statusCheckRollup
 * holds both.
 */
import {SandboxError} from '../core/errors.js'
import {checkRequired, checkTypes, invalidRequest} from '../core/request-schema.js'
import {commitOf, repoOf, str, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {CommitStatus, Repo} from '../core/state.js'

const STATES = ['error', 'failure', 'pending', 'success'] as const

function statusJson(ctx: RestContext, repo: Repo, status: CommitStatus, withCreator = true): Record<string, unknown> {
  const creator = ctx.ser.users.user(status.creator) as {avatar_url: string}
  return {
    url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/statuses/${status.sha}`,
    avatar_url: creator.avatar_url,
    id: status.id,
    node_id: `SC_kw${Buffer.from(String(status.id)).toString('base64url')}`,
    state: status.state,
    description: status.description,
    target_url: status.target_url,
    context: status.context,
    created_at: status.created_at,
    updated_at: status.created_at,
    ...(withCreator ? {creator} : {required: false}),
  }
}

/** The combined state of a commit's latest statuses. */
function combinedState(statuses: CommitStatus[]): 'failure' | 'pending' | 'success' {
  if (statuses.some((s) => s.state === 'error' || s.state === 'failure')) return 'failure'
  if (statuses.length === 0 || statuses.some((s) => s.state === 'pending')) return 'pending'
  return 'success'
}

export const statusRoutes: RouteDef[] = [
  [
    'POST',
    '/repos/{owner}/{repo}/statuses/{sha}',
    'repos/create-commit-status',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['state'])
      checkTypes(ctx.body, {state: 'a string', context: 'a string', description: 'a string', target_url: 'a string'}, [
        'description',
        'target_url',
      ])
      const state = str(ctx.body, 'state')!
      if (!(STATES as readonly string[]).includes(state))
        throw invalidRequest(
          `For 'properties/state', ${JSON.stringify(state)} is not one of ${JSON.stringify(STATES).replaceAll(',', ', ')}.`,
        )
      const sha = ctx.params.sha!
      if (!repo.commits[sha]) throw new SandboxError(422, `No commit found for SHA: ${sha}`)
      const status = ctx.store.statuses.create(repo, sha, ctx.viewer, {
        state: state as CommitStatus['state'],
        context: str(ctx.body, 'context'),
        description: str(ctx.body, 'description') ?? null,
        target_url: str(ctx.body, 'target_url') ?? null,
      })
      return {status: 201, body: statusJson(ctx, repo, status)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{ref}/statuses',
    'repos/list-commit-statuses-for-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.statuses.of(repo, commitOf(ctx, repo, ctx.params.ref!)).map((s) => statusJson(ctx, repo, s)),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{ref}/status',
    'repos/get-combined-status-for-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const sha = commitOf(ctx, repo, ctx.params.ref!)
      const latest = ctx.store.statuses.latest(repo, sha)
      const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`
      const full = ctx.ser.repos.repo(repo)
      const minimal = Object.fromEntries(
        Object.entries(full).filter(([key]) => !['permissions', 'license'].includes(key)),
      )
      return {
        body: {
          state: combinedState(latest),
          statuses: latest.map((s) => statusJson(ctx, repo, s, false)),
          sha,
          total_count: latest.length,
          repository: minimal,
          commit_url: `${api}/commits/${sha}`,
          url: `${api}/commits/${sha}/status`,
        },
      }
    },
  ],
]
