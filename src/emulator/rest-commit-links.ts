/**
 * What GitHub links to a commit, each under its own route (GitHub's `commits/{ref}/…` and
 * `commits/{commit_sha}/…`): check suites (a workflow run is its check suite, as on GitHub, where
 * Actions makes one per run), the pull requests that hold the commit, the branches whose head it is,
 * and its commit comments (none: the sandbox cannot make them, creating one answers 501). Check runs,
 * statuses and the combined status are in rest.ts and rest-statuses.ts.
 */
import {notFound, SandboxError} from './errors.js'
import {treeSha} from './git-objects.js'
import {num, repoOf, resolveCommitish, type RouteDef} from './rest-support.js'
import type {RestContext} from './rest.js'
import {nodeId} from './store.js'
import type {Repo, Run} from './state.js'

/** The commit a ref names, or GitHub's 422 for one it cannot resolve. */
function commitOf(ctx: RestContext, repo: Repo, ref: string): string {
  try {
    return resolveCommitish(repo, ref, ctx.store.tagRefs(repo))
  } catch {
    throw new SandboxError(422, `No commit found for SHA: ${ref}`)
  }
}

/** GitHub's own App, which owns the check suites of Actions. */
function actionsApp(ctx: RestContext): Record<string, unknown> {
  const html = 'https://github.com'
  const owner = {
    login: 'github', id: 9919, node_id: 'MDEyOk9yZ2FuaXphdGlvbjk5MTk=', avatar_url: 'https://avatars.githubusercontent.com/u/9919?v=4', gravatar_id: '',
    url: `${ctx.ser.links.api}/users/github`, html_url: `${html}/github`, followers_url: `${ctx.ser.links.api}/users/github/followers`,
    following_url: `${ctx.ser.links.api}/users/github/following{/other_user}`, gists_url: `${ctx.ser.links.api}/users/github/gists{/gist_id}`,
    starred_url: `${ctx.ser.links.api}/users/github/starred{/owner}{/repo}`, subscriptions_url: `${ctx.ser.links.api}/users/github/subscriptions`,
    organizations_url: `${ctx.ser.links.api}/users/github/orgs`, repos_url: `${ctx.ser.links.api}/users/github/repos`,
    events_url: `${ctx.ser.links.api}/users/github/events{/privacy}`, received_events_url: `${ctx.ser.links.api}/users/github/received_events`,
    type: 'Organization', site_admin: false,
  }
  return {
    id: 15368, slug: 'github-actions', node_id: 'MDM6QXBwMTUzNjg=', owner, name: 'GitHub Actions',
    description: 'Automate your workflow from idea to production', external_url: 'https://help.github.com/en/actions',
    html_url: `${html}/apps/github-actions`, created_at: '2018-07-30T09:30:17Z', updated_at: '2024-04-10T20:33:16Z',
    permissions: {actions: 'write', checks: 'write', contents: 'write', metadata: 'read', pull_requests: 'write', statuses: 'write'},
    events: ['check_run', 'check_suite', 'pull_request', 'push', 'workflow_dispatch'],
  }
}

function minimalRepo(ctx: RestContext, repo: Repo): Record<string, unknown> {
  const keep = new Set(['id', 'node_id', 'name', 'full_name', 'private', 'owner', 'html_url', 'description', 'fork', 'url'])
  return Object.fromEntries(Object.entries(ctx.ser.repo(repo)).filter(([key]) => keep.has(key) || key.endsWith('_url')))
}

/** A workflow run's check suite: id run.id + 1, as the run's check_suite_id says. */
function checkSuite(ctx: RestContext, repo: Repo, run: Run): Record<string, unknown> {
  const attempt = ctx.store.latestAttempt(run)
  const status = ctx.store.attemptStatus(attempt)
  const times = ctx.store.attemptTimes(attempt)
  const head = ctx.store.commit(repo, run.head_sha)
  const person = {name: head.author_git?.name ?? head.author, email: head.author_git?.email ?? `${head.author}@users.noreply.github.localhost`}
  const committer = head.committer_git ?? person
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
    repository: minimalRepo(ctx, repo),
    created_at: run.created_at,
    updated_at: times.completed ?? times.started,
    head_commit: {id: head.sha, tree_id: treeSha(head.tree), message: head.message, timestamp: head.date, author: person, committer},
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

/**
 * The pull requests a commit belongs to, as GitHub lists them: the merged one that brought it into the
 * default branch; for a commit not on the default branch, the open and merged ones whose head holds it.
 */
function pullsOf(ctx: RestContext, repo: Repo, sha: string): number[] {
  const defaultHead = repo.branches[repo.default_branch]
  const onDefault = defaultHead !== undefined && ctx.store.isAncestor(repo, sha, defaultHead)
  const holds = (number: number) => {
    const pull = repo.pulls[number]!
    if (pull.merge_commit_sha === sha) return true
    const head = ctx.store.headSha(repo, pull)
    // A merged pull request's commits: those of its head the base did not have before the merge.
    const before = pull.merge_commit_sha ? repo.commits[pull.merge_commit_sha]?.parents[0] : undefined
    if (pull.merged_at && before) return ctx.store.isAncestor(repo, sha, head) && !ctx.store.isAncestor(repo, sha, before)
    try {
      return ctx.store.pullCommits(repo, number).some((c) => c.sha === sha)
    } catch {
      return false
    }
  }
  return Object.values(repo.pulls)
    .filter((pull) => {
      const merged = pull.merged_at !== null
      if (onDefault) return merged && (pull.base === repo.default_branch) && holds(pull.number)
      return (merged || repo.issues[pull.number]!.state === 'open') && holds(pull.number)
    })
    .map((pull) => pull.number)
    .sort((a, b) => b - a)
}

export const commitLinkRoutes: RouteDef[] = [
  ['GET', '/repos/{owner}/{repo}/commits/{ref}/check-suites', 'checks/list-suites-for-ref', (ctx) => {
    const repo = repoOf(ctx)
    const sha = commitOf(ctx, repo, ctx.params.ref!)
    const appId = ctx.query.get('app_id')
    const checkName = ctx.query.get('check_name')
    const runs = Object.values(repo.runs)
      .filter((run) => run.head_sha === sha && (!appId || appId === '15368'))
      .filter((run) => !checkName || ctx.store.latestAttempt(run).jobs.some((job) => job.name === checkName))
      .sort((a, b) => a.id - b.id)
    return {list: runs.map((run) => checkSuite(ctx, repo, run)), wrap: {key: 'check_suites'}}
  }],
  ['GET', '/repos/{owner}/{repo}/check-suites/{check_suite_id}', 'checks/get-suite', (ctx) => {
    const repo = repoOf(ctx)
    return {body: checkSuite(ctx, repo, suiteRun(ctx, repo, ctx.params.check_suite_id))}
  }],
  ['GET', '/repos/{owner}/{repo}/commits/{commit_sha}/pulls', 'repos/list-pull-requests-associated-with-commit', (ctx) => {
    const repo = repoOf(ctx)
    // A branch name lists the open or merged pull requests of that branch.
    const branch = ctx.params.commit_sha!
    if (repo.branches[branch] !== undefined && !repo.commits[branch]) {
      const pulls = Object.values(repo.pulls).filter((p) => p.head === branch && (p.merged_at !== null || repo.issues[p.number]!.state === 'open')).sort((a, b) => b.number - a.number)
      return {list: pulls.map((p) => ctx.ser.pull(repo, repo.issues[p.number]!, p, true))}
    }
    const sha = commitOf(ctx, repo, branch)
    return {list: pullsOf(ctx, repo, sha).map((n) => ctx.ser.pull(repo, repo.issues[n]!, repo.pulls[n]!, true))}
  }],
  ['GET', '/repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head', 'repos/list-branches-for-head-commit', (ctx) => {
    const repo = repoOf(ctx)
    const sha = commitOf(ctx, repo, ctx.params.commit_sha!)
    const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`
    return {
      body: Object.entries(repo.branches)
        .filter(([, head]) => head === sha)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name]) => ({name, commit: {sha, url: `${api}/commits/${sha}`}, protected: false})),
    }
  }],
  ['GET', '/repos/{owner}/{repo}/commits/{commit_sha}/comments', 'repos/list-comments-for-commit', (ctx) => {
    const repo = repoOf(ctx)
    commitOf(ctx, repo, ctx.params.commit_sha!)
    // The sandbox models no commit comments (creating one answers 501): a commit has none.
    return {list: []}
  }],
]
