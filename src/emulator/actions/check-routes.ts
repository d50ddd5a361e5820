/**
 * REST routes of checks: a commit's check runs (the jobs of its workflow runs, and those an App
 * reported), a check run and its annotations, and check suites (a workflow run is its check suite, as
 * on GitHub, where Actions makes one per run).
 */
import {notFound} from '../core/errors.js'
import {commitPeople, treeSha} from '../core/git-objects.js'
import {commitOf, num, repoOf, str, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Repo, ReportedCheckRun, Run} from '../core/state.js'
import {nodeId} from '../core/store-core.js'

function checkRun(
  ctx: RestContext,
  repo: Repo,
  run: Repo['runs'][string],
  attempt: Repo['runs'][string]['attempts'][number],
  job: Repo['runs'][string]['attempts'][number]['jobs'][number],
): Record<string, unknown> {
  const serialized = ctx.ser.actions.job(repo, run, attempt, job)
  return {
    id: job.id,
    head_sha: run.head_sha,
    node_id: serialized.node_id,
    external_id: String(job.id),
    url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/check-runs/${job.id}`,
    html_url: serialized.html_url,
    details_url: serialized.html_url,
    status: serialized.status,
    conclusion: serialized.conclusion,
    started_at: serialized.started_at,
    completed_at: serialized.completed_at,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/check-runs/${job.id}/annotations`,
    },
    name: job.name,
    check_suite: {id: run.id + 1},
    app: null,
    pull_requests: [],
  }
}

/** A check run an App reported (POST check-runs): no check suite of Actions holds it. */
function reportedCheckRun(ctx: RestContext, repo: Repo, run: ReportedCheckRun): Record<string, unknown> {
  const url = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/check-runs/${run.id}`
  return {
    id: run.id,
    head_sha: run.head_sha,
    node_id: nodeId('job', run.id),
    external_id: run.external_id ?? '',
    url,
    html_url: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/runs/${run.id}`,
    details_url: run.details_url,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    output: {...run.output, annotations_count: 0, annotations_url: `${url}/annotations`},
    name: run.name,
    check_suite: null,
    app: null,
    pull_requests: [],
  }
}

/** GitHub's own App, which owns the check suites of Actions. */
function actionsApp(ctx: RestContext): Record<string, unknown> {
  const html = 'https://github.com'
  const owner = {
    login: 'github',
    id: 9919,
    node_id: 'MDEyOk9yZ2FuaXphdGlvbjk5MTk=',
    avatar_url: 'https://avatars.githubusercontent.com/u/9919?v=4',
    gravatar_id: '',
    url: `${ctx.ser.links.api}/users/github`,
    html_url: `${html}/github`,
    followers_url: `${ctx.ser.links.api}/users/github/followers`,
    following_url: `${ctx.ser.links.api}/users/github/following{/other_user}`,
    gists_url: `${ctx.ser.links.api}/users/github/gists{/gist_id}`,
    starred_url: `${ctx.ser.links.api}/users/github/starred{/owner}{/repo}`,
    subscriptions_url: `${ctx.ser.links.api}/users/github/subscriptions`,
    organizations_url: `${ctx.ser.links.api}/users/github/orgs`,
    repos_url: `${ctx.ser.links.api}/users/github/repos`,
    events_url: `${ctx.ser.links.api}/users/github/events{/privacy}`,
    received_events_url: `${ctx.ser.links.api}/users/github/received_events`,
    type: 'Organization',
    site_admin: false,
  }
  return {
    id: 15368,
    slug: 'github-actions',
    node_id: 'MDM6QXBwMTUzNjg=',
    owner,
    name: 'GitHub Actions',
    description: 'Automate your workflow from idea to production',
    external_url: 'https://help.github.com/en/actions',
    html_url: `${html}/apps/github-actions`,
    created_at: '2018-07-30T09:30:17Z',
    updated_at: '2024-04-10T20:33:16Z',
    permissions: {
      actions: 'write',
      checks: 'write',
      contents: 'write',
      metadata: 'read',
      pull_requests: 'write',
      statuses: 'write',
    },
    events: ['check_run', 'check_suite', 'pull_request', 'push', 'workflow_dispatch'],
  }
}

/** A workflow run's check suite: id run.id + 1, as the run's check_suite_id says. */
function checkSuite(ctx: RestContext, repo: Repo, run: Run): Record<string, unknown> {
  const attempt = ctx.store.actions.latestAttempt(run)
  const status = ctx.store.actions.attemptStatus(attempt)
  const times = ctx.store.actions.attemptTimes(attempt)
  const head = ctx.store.git.commit(repo, run.head_sha)
  const {author: person, committer} = commitPeople(head)
  const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`
  const id = run.id + 1
  return {
    id,
    node_id: nodeId('run', id),
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    status: status.status,
    conclusion: status.conclusion,
    url: `${api}/check-suites/${id}`,
    before: head.parents[0] ?? '0000000000000000000000000000000000000000',
    after: run.head_sha,
    pull_requests: [],
    app: actionsApp(ctx),
    repository: ctx.ser.repos.minimal(repo),
    created_at: run.created_at,
    updated_at: times.completed ?? times.started,
    head_commit: {
      id: head.sha,
      tree_id: treeSha(head.tree),
      message: head.message,
      timestamp: head.date,
      author: person,
      committer,
    },
    latest_check_runs_count: attempt.jobs.length,
    check_runs_url: `${api}/check-suites/${id}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true,
  }
}

function suiteRun(ctx: RestContext, repo: Repo, id: string | undefined): Run {
  const run = repo.runs[String(num(id, 'check_suite_id') - 1)]
  if (!run) throw notFound()
  return run
}

export const checkRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    'checks/list-for-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const sha = repo.branches[ctx.params.ref!] ?? ctx.params.ref!
      const runs = Object.values(repo.runs).filter((r) => r.head_sha === sha)
      const checkRuns = runs.flatMap((run) => {
        const attempt = ctx.store.actions.latestAttempt(run)
        return attempt.jobs.map((job) => checkRun(ctx, repo, run, attempt, job))
      })
      const reported = ctx.store.statuses.checkRunsOf(repo, sha).map((run) => reportedCheckRun(ctx, repo, run))
      return {list: [...checkRuns, ...reported], wrap: {key: 'check_runs'}}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/check-runs',
    'checks/create',
    (ctx) => {
      const repo = repoOf(ctx)
      const output = (ctx.body.output ?? {}) as Record<string, unknown>
      const run = ctx.store.statuses.reportCheckRun(repo, ctx.viewer, {
        head_sha: str(ctx.body, 'head_sha') ?? '',
        name: str(ctx.body, 'name') ?? '',
        status: str(ctx.body, 'status'),
        conclusion: str(ctx.body, 'conclusion'),
        details_url: str(ctx.body, 'details_url'),
        external_id: str(ctx.body, 'external_id'),
        started_at: str(ctx.body, 'started_at'),
        completed_at: str(ctx.body, 'completed_at'),
        output: {title: str(output, 'title'), summary: str(output, 'summary'), text: str(output, 'text')},
      })
      return {status: 201, body: reportedCheckRun(ctx, repo, run)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/check-runs/{check_run_id}',
    'checks/get',
    (ctx) => {
      const repo = repoOf(ctx)
      const id = num(ctx.params.check_run_id, 'check_run_id')
      const reported = repo.check_runs?.[id]
      if (reported) return {body: reportedCheckRun(ctx, repo, reported)}
      const {run, attempt, job} = ctx.store.actions.job(repo, id)
      return {body: checkRun(ctx, repo, run, attempt, job)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations',
    'checks/list-annotations',
    (ctx) => {
      const repo = repoOf(ctx)
      const id = num(ctx.params.check_run_id, 'check_run_id')
      if (repo.check_runs?.[id]) return {list: []}
      const {run, attempt, job} = ctx.store.actions.job(repo, id)
      const failed = ctx.store.actions.jobStatus(attempt, job).conclusion === 'failure'
      const path = repo.workflows[run.workflow_id]!.path
      return {
        list: failed
          ? [
              {
                path,
                blob_href: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/blob/${run.head_sha}/${path}`,
                start_line: 1,
                end_line: 1,
                start_column: null,
                end_column: null,
                annotation_level: 'failure',
                title: '',
                message: 'Process completed with exit code 1.',
                raw_details: '',
              },
            ]
          : [],
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{ref}/check-suites',
    'checks/list-suites-for-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const sha = commitOf(ctx, repo, ctx.params.ref!)
      const appId = ctx.query.get('app_id')
      const checkName = ctx.query.get('check_name')
      const runs = Object.values(repo.runs)
        .filter((run) => run.head_sha === sha && (!appId || appId === '15368'))
        .filter((run) => !checkName || ctx.store.actions.latestAttempt(run).jobs.some((job) => job.name === checkName))
        .sort((a, b) => a.id - b.id)
      return {list: runs.map((run) => checkSuite(ctx, repo, run)), wrap: {key: 'check_suites'}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/check-suites/{check_suite_id}',
    'checks/get-suite',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: checkSuite(ctx, repo, suiteRun(ctx, repo, ctx.params.check_suite_id))}
    },
  ],
]
