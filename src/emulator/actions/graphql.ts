/** GraphQL's check contexts of a commit: its check runs and commit statuses, and their rollup. */
import {upper, type Context, type Obj} from '../core/graphql-objects.js'
import type {Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'

/** A commit's check runs (its workflow runs' jobs and those an App reported) and commit statuses (the latest per context), as GraphQL contexts. */
export function checkContexts(ctx: Context, repo: Repo, sha: string): Obj[] {
  const runs = Object.values(repo.runs).filter((r) => r.head_sha === sha)
  const checkRuns = runs.flatMap((run) => {
    const attempt = ctx.store.actions.latestAttempt(run)
    return attempt.jobs.map((job): Obj => {
      const status = ctx.store.actions.jobStatus(attempt, job)
      const url = `${ctx.links.html}/${repo.owner}/${repo.name}/actions/runs/${run.id}/job/${job.id}`
      return {
        __typename: 'CheckRun',
        id: nodeId('job', job.id),
        databaseId: job.id,
        name: job.name,
        status: upper(status.status),
        conclusion: status.conclusion ? upper(status.conclusion) : null,
        startedAt: ctx.store.actions.attemptTimes(attempt).started,
        completedAt: ctx.store.actions.attemptTimes(attempt).completed,
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
        checkSuite: {
          workflowRun: {
            workflow: {name: repo.workflows[run.workflow_id]!.name},
            databaseId: run.id,
            runNumber: run.run_number,
            url: `${ctx.links.html}/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
          },
        },
      }
    })
  })
  const reported = ctx.store.statuses.checkRunsOf(repo, sha).map((run): Obj => {
    const url = `${ctx.links.html}/${repo.owner}/${repo.name}/runs/${run.id}`
    return {
      __typename: 'CheckRun',
      id: nodeId('job', run.id),
      databaseId: run.id,
      name: run.name,
      status: upper(run.status),
      conclusion: run.conclusion ? upper(run.conclusion) : null,
      startedAt: run.started_at,
      completedAt: run.completed_at,
      detailsUrl: run.details_url ?? url,
      permalink: url,
      url,
      resourcePath: url.slice(ctx.links.html.length),
      externalId: run.external_id,
      ...run.output,
      isRequired: false,
      // Not a workflow's job: its suite has no workflow run.
      checkSuite: {workflowRun: null},
    }
  })
  const statuses = ctx.store.statuses.latest(repo, sha).map((status): Obj => ({
    __typename: 'StatusContext',
    id: `SC_kw${Buffer.from(String(status.id)).toString('base64url')}`,
    context: status.context,
    state: upper(status.state),
    description: status.description,
    targetUrl: status.target_url,
    createdAt: status.created_at,
    creator: ctx.nodes.Actor(ctx, status.creator),
    avatarUrl: `${ctx.links.html}/avatars/${status.creator}`,
    isRequired: false,
    commit: () => ctx.nodes.Commit(ctx, repo, sha),
  }))
  return [...checkRuns, ...reported, ...statuses]
}

/** GitHub's rollup of contexts: any failure (or error) fails it, anything unfinished leaves it pending. */
export function rollupState(contexts: Obj[]): string {
  const states = contexts.map((c) => {
    if (c.__typename === 'StatusContext') return c.state === 'EXPECTED' ? 'PENDING' : String(c.state)
    if (c.status !== 'COMPLETED') return 'PENDING'
    return ['SUCCESS', 'NEUTRAL', 'SKIPPED'].includes(String(c.conclusion)) ? 'SUCCESS' : 'FAILURE'
  })
  for (const state of ['FAILURE', 'ERROR', 'PENDING']) if (states.includes(state)) return state
  return 'SUCCESS'
}
