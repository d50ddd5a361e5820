/**
 * REST routes of GitHub Actions: workflows, dispatches, runs (list, get, attempts, delete, rerun all
 * or the failed jobs, cancel), jobs, logs (a run's archive and a job's log, answered from a one-time
 * download URL as GitHub's blob storage does), artifacts. Check runs and suites are in
 * check-routes.ts, commit statuses in status-routes.ts.
 */
import {notFound} from '../core/errors.js'
import {num, repoOf, str, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Repo} from '../core/state.js'
import {zip} from './zip.js'

function listRuns(ctx: RestContext, repo: Repo, workflowId?: number): unknown[] {
  const status = ctx.query.get('status')
  const branch = ctx.query.get('branch')
  const event = ctx.query.get('event')
  return Object.values(repo.runs)
    .filter((run) => workflowId === undefined || run.workflow_id === workflowId)
    .filter((run) => !branch || run.head_branch === branch)
    .filter((run) => !event || run.event === event)
    .filter((run) => {
      if (!status) return true
      const s = ctx.store.actions.attemptStatus(ctx.store.actions.latestAttempt(run))
      return s.status === status || s.conclusion === status
    })
    .sort((a, b) => b.id - a.id)
    .map((run) => ctx.ser.actions.run(repo, run))
}

export const actionsRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/actions/workflows',
    'actions/list-repo-workflows',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: Object.values(repo.workflows).map((w) => ctx.ser.actions.workflow(repo, w)),
        wrap: {key: 'workflows'},
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/workflows/{workflow_id}',
    'actions/get-workflow',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: ctx.ser.actions.workflow(repo, ctx.store.actions.workflow(repo, ctx.params.workflow_id!))}
    },
  ],
  ...(['enable', 'disable'] as const).map((action): RouteDef => [
    'PUT',
    `/repos/{owner}/{repo}/actions/workflows/{workflow_id}/${action}`,
    `actions/${action}-workflow`,
    (ctx) => {
      const repo = repoOf(ctx)
      ctx.store.actions.setEnabled(ctx.store.actions.workflow(repo, ctx.params.workflow_id!), action === 'enable')
      return {status: 204}
    },
  ]),
  [
    'POST',
    '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
    'actions/create-workflow-dispatch',
    (ctx) => {
      const repo = repoOf(ctx)
      const workflow = ctx.store.actions.workflow(repo, ctx.params.workflow_id!)
      const inputs = (ctx.body.inputs ?? {}) as Record<string, string>
      ctx.store.actions.dispatch(
        repo,
        workflow,
        str(ctx.body, 'ref') ?? '',
        Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])),
        ctx.viewer,
      )
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
    'actions/list-workflow-runs',
    (ctx) => {
      const repo = repoOf(ctx)
      const workflow = ctx.store.actions.workflow(repo, ctx.params.workflow_id!)
      return {list: listRuns(ctx, repo, workflow.id), wrap: {key: 'workflow_runs'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs',
    'actions/list-workflow-runs-for-repo',
    (ctx) => ({list: listRuns(ctx, repoOf(ctx)), wrap: {key: 'workflow_runs'}}),
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}',
    'actions/get-workflow-run',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: ctx.ser.actions.run(repo, ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id')))}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/actions/runs/{run_id}',
    'actions/delete-workflow-run',
    (ctx) => {
      ctx.store.actions.deleteRun(repoOf(ctx), num(ctx.params.run_id, 'run_id'))
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}',
    'actions/get-workflow-run-attempt',
    (ctx) => {
      const repo = repoOf(ctx)
      const run = ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id'))
      const attempt = run.attempts.find((a) => a.attempt === Number(ctx.params.attempt_number))
      if (!attempt) throw notFound()
      return {body: ctx.ser.actions.run(repo, run, attempt)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
    'actions/list-jobs-for-workflow-run',
    (ctx) => {
      const repo = repoOf(ctx)
      const run = ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id'))
      const attempts = ctx.query.get('filter') === 'all' ? run.attempts : [ctx.store.actions.latestAttempt(run)]
      const jobs = attempts.flatMap((attempt) =>
        attempt.jobs
          .filter((j) => ctx.query.get('filter') !== 'all' || j.carried_from === null)
          .map((job) => ctx.ser.actions.job(repo, run, attempt, job)),
      )
      return {list: jobs, wrap: {key: 'jobs'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs',
    'actions/list-jobs-for-workflow-run-attempt',
    (ctx) => {
      const repo = repoOf(ctx)
      const run = ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id'))
      const attempt = run.attempts.find((a) => a.attempt === Number(ctx.params.attempt_number))
      if (!attempt) throw notFound()
      return {list: attempt.jobs.map((job) => ctx.ser.actions.job(repo, run, attempt, job)), wrap: {key: 'jobs'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/jobs/{job_id}',
    'actions/get-job-for-workflow-run',
    (ctx) => {
      const repo = repoOf(ctx)
      const {run, attempt, job} = ctx.store.actions.job(repo, num(ctx.params.job_id, 'job_id'))
      return {body: ctx.ser.actions.job(repo, run, attempt, job)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs',
    'actions/download-job-logs-for-workflow-run',
    (ctx) => {
      const repo = repoOf(ctx)
      const {attempt, job} = ctx.store.actions.job(repo, num(ctx.params.job_id, 'job_id'))
      if (ctx.store.actions.jobStatus(attempt, job).status !== 'completed')
        throw notFound('logs are not available until the job completes')
      return {download: {content: job.log, contentType: 'text/plain; charset=utf-8'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/logs',
    'actions/download-workflow-run-logs',
    (ctx) => {
      const repo = repoOf(ctx)
      const run = ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id'))
      const attempt = ctx.store.actions.latestAttempt(run)
      if (ctx.store.actions.attemptStatus(attempt).status !== 'completed')
        throw notFound('logs are not available until the run completes')
      // The archive lays out one file per job step, as GitHub's does (and as `gh run view --log` reads it).
      const files = attempt.jobs.flatMap((job) => [
        {name: `${job.name}/1_Set up job.txt`, content: '2026-01-01T00:00:00.0000000Z Current runner version: 2.0.0\n'},
        {name: `${job.name}/2_Run ${job.name}.txt`, content: job.log},
      ])
      return {download: {content: zip(files), contentType: 'application/zip'}}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun',
    'actions/re-run-workflow',
    (ctx) => {
      ctx.store.actions.rerun(repoOf(ctx), num(ctx.params.run_id, 'run_id'), false)
      return {status: 201, body: {}}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs',
    'actions/re-run-workflow-failed-jobs',
    (ctx) => {
      ctx.store.actions.rerun(repoOf(ctx), num(ctx.params.run_id, 'run_id'), true)
      return {status: 201, body: {}}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel',
    'actions/cancel-workflow-run',
    (ctx) => {
      ctx.store.actions.cancel(repoOf(ctx), num(ctx.params.run_id, 'run_id'))
      return {status: 202, body: {}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
    'actions/list-workflow-run-artifacts',
    (ctx) => {
      const repo = repoOf(ctx)
      const run = ctx.store.actions.run(repo, num(ctx.params.run_id, 'run_id'))
      return {
        list: run.artifacts.map((id) => ctx.ser.actions.artifact(repo, repo.artifacts[id]!)),
        wrap: {key: 'artifacts'},
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
    'actions/download-artifact',
    (ctx) => {
      const repo = repoOf(ctx)
      const artifact = ctx.store.actions.artifact(repo, num(ctx.params.artifact_id, 'artifact_id'))
      // GitHub serves artifacts as zip archives only.
      if (ctx.params.archive_format !== 'zip') throw notFound()
      const run = ctx.store.actions.run(repo, artifact.run_id)
      // What the fixture workflow uploads: its report, naming the run.
      const report = `${artifact.name} of run ${run.id} (${run.display_title})\n`
      return {download: {content: zip([{name: 'report.txt', content: report}]), contentType: 'application/zip'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/actions/artifacts',
    'actions/list-artifacts-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: Object.values(repo.artifacts).map((a) => ctx.ser.actions.artifact(repo, a)),
        wrap: {key: 'artifacts'},
      }
    },
  ],
]
