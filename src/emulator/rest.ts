/**
 * The REST operations the sandbox models, by GitHub's operationIds. Handlers translate HTTP into store
 * operations and store state into GitHub's representations; nothing here decides a rule of its own.
 * Topic modules beside it hold more routes: rest-git.ts (contents, refs, the git database, commits,
 * comparisons, tags), rest-repos.ts (repositories, forks, collaborators), rest-events.ts (issue
 * events and timelines), rest-statuses.ts (commit statuses), rest-commit-links.ts (a commit's check
 * suites, pull requests, branches and comments), rest-search.ts (search).
 */
import {renderDiff} from './git.js'
import {notFound, SandboxError, unprocessable} from './errors.js'
import {checkRequired, checkTypes, reviewCommentsOf} from './request-schema.js'
import {commitLinkRoutes} from './rest-commit-links.js'
import {eventRoutes} from './rest-events.js'
import {gitRoutes} from './rest-git.js'
import {repoRoutes} from './rest-repos.js'
import {searchRoutes} from './rest-search.js'
import {statusRoutes} from './rest-statuses.js'
import {resolveCommitish} from './rest-support.js'
import {Router} from './router.js'
import {zip} from './zip.js'
import type {Serializer} from './serialize.js'
import type {Store} from './store.js'
import type {Issue, Repo} from './state.js'

export interface RestContext {
  store: Store
  ser: Serializer
  params: Record<string, string>
  query: URLSearchParams
  body: Record<string, unknown>
  viewer: string
  accept: string
}

export interface RestResult {
  status?: number
  body?: unknown
  /** A list the server paginates (per_page, page, Link). */
  list?: unknown[]
  /** A text or binary body (diffs, logs, log archives). */
  text?: string | Buffer
  contentType?: string
  /** For list endpoints wrapped in an object ({total_count, workflow_runs: [...]}); `extra` fields go between (search's incomplete_results). */
  wrap?: {key: string; extra?: Record<string, unknown>}
  /** Content GitHub serves from elsewhere: answered with a 302 to a one-time download URL. */
  download?: {content: string | Buffer; contentType: string}
}

type Handler = (ctx: RestContext) => RestResult

export interface RestRoute {
  operationId: string
  handler: Handler
}

const repoOf = (ctx: RestContext): Repo => ctx.store.repo(ctx.params.owner!, ctx.params.repo!)
const num = (value: string | undefined, name: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n)) throw notFound(`${name} must be a number`)
  return n
}
const str = (body: Record<string, unknown>, key: string): string | undefined => (typeof body[key] === 'string' ? (body[key]) : undefined)
const strings = (body: Record<string, unknown>, key: string): string[] | undefined =>
  Array.isArray(body[key]) ? (body[key] as unknown[]).map(String) : typeof body[key] === 'string' ? [body[key]] : undefined

/** Issue filters of GET /repos/{o}/{r}/issues: state, labels, assignee, creator, milestone, sort. */
function listIssues(repo: Repo, query: URLSearchParams, pullsToo: boolean): Issue[] {
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
      (!assignee || (assignee === 'none' ? i.assignees.length === 0 : assignee === '*' ? i.assignees.length > 0 : i.assignees.includes(assignee))) &&
      (!creator || i.user === creator) &&
      (!milestone || (milestone === 'none' ? i.milestone === null : milestone === '*' ? i.milestone !== null : String(i.milestone) === milestone)),
  )
  const direction = query.get('direction') === 'asc' ? 1 : -1
  const key = query.get('sort') === 'updated' ? 'updated_at' : 'created_at'
  return issues.sort((a, b) => (a[key] < b[key] ? -direction : a[key] > b[key] ? direction : (a.number - b.number) * direction))
}

const routes: Array<[string, string, string, Handler]> = [
  // meta
  ['GET', '/', 'meta/root', (ctx) => ({body: ctx.ser.root()})],
  ['GET', '/user', 'users/get-authenticated', (ctx) => ({body: ctx.ser.userDetail(ctx.viewer)})],
  ['GET', '/users/{username}', 'users/get-by-username', (ctx) => {
    if (!ctx.store.state.users[ctx.params.username!]) throw notFound()
    return {body: ctx.ser.userDetail(ctx.params.username!)}
  }],
  ['GET', '/rate_limit', 'rate-limit/get', () => {
    const core = {limit: 5000, used: 0, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600}
    return {body: {resources: {core, graphql: core, search: core}, rate: core}}
  }],

  // repositories, branches, contents, refs
  ['GET', '/repos/{owner}/{repo}/branches', 'repos/list-branches', (ctx) => {
    const repo = repoOf(ctx)
    return {list: Object.entries(repo.branches).sort(([a], [b]) => a.localeCompare(b)).map(([name, sha]) => ({name, commit: {sha, url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/commits/${sha}`}, protected: false}))}
  }],
  ['GET', '/repos/{owner}/{repo}/branches/{branch}', 'repos/get-branch', (ctx) => {
    const repo = repoOf(ctx)
    const sha = ctx.store.branchSha(repo, ctx.params.branch!)
    const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/branches/${ctx.params.branch}`
    return {
      body: {
        name: ctx.params.branch,
        commit: ctx.ser.commit(repo, ctx.store.commit(repo, sha)),
        _links: {self: api, html: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/tree/${ctx.params.branch}`},
        protected: false,
        protection: {enabled: false, required_status_checks: {enforcement_level: 'off', contexts: [], checks: []}},
        protection_url: `${api}/protection`,
      },
    }
  }],
  ['GET', '/repos/{owner}/{repo}/commits/{ref}', 'repos/get-commit', (ctx) => {
    const repo = repoOf(ctx)
    let sha: string
    try {
      sha = resolveCommitish(repo, ctx.params.ref!, ctx.store.tagRefs(repo))
    } catch {
      throw new SandboxError(422, `No commit found for SHA: ${ctx.params.ref!}`)
    }
    return {body: ctx.ser.commit(repo, ctx.store.commit(repo, sha))}
  }],

  // labels and milestones
  ['GET', '/repos/{owner}/{repo}/labels', 'issues/list-labels-for-repo', (ctx) => {
    const repo = repoOf(ctx)
    return {list: Object.values(repo.labels).sort((a, b) => a.name.localeCompare(b.name)).map((l) => ctx.ser.label(repo, l))}
  }],
  ['POST', '/repos/{owner}/{repo}/labels', 'issues/create-label', (ctx) => {
    const repo = repoOf(ctx)
    const name = str(ctx.body, 'name')
    if (!name) throw unprocessable('name is missing', 'name', 'Label')
    return {status: 201, body: ctx.ser.label(repo, ctx.store.createLabel(repo, name, str(ctx.body, 'color'), str(ctx.body, 'description') ?? null))}
  }],
  ['GET', '/repos/{owner}/{repo}/labels/{name}', 'issues/get-label', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.label(repo, ctx.store.label(repo, ctx.params.name!))}
  }],
  ['PATCH', '/repos/{owner}/{repo}/labels/{name}', 'issues/update-label', (ctx) => {
    const repo = repoOf(ctx)
    const label = ctx.store.updateLabel(repo, ctx.params.name!, {new_name: str(ctx.body, 'new_name'), color: str(ctx.body, 'color'), description: str(ctx.body, 'description')})
    return {body: ctx.ser.label(repo, label)}
  }],
  ['DELETE', '/repos/{owner}/{repo}/labels/{name}', 'issues/delete-label', (ctx) => {
    ctx.store.deleteLabel(repoOf(ctx), ctx.params.name!)
    return {status: 204}
  }],
  ['GET', '/repos/{owner}/{repo}/milestones', 'issues/list-milestones', (ctx) => {
    const repo = repoOf(ctx)
    const state = ctx.query.get('state') ?? 'open'
    return {list: repo.milestones.filter((m) => state === 'all' || m.state === state).map((m) => ctx.ser.milestone(repo, m))}
  }],
  ['POST', '/repos/{owner}/{repo}/milestones', 'issues/create-milestone', (ctx) => {
    const repo = repoOf(ctx)
    const title = str(ctx.body, 'title')
    if (!title) throw unprocessable('title is missing', 'title', 'Milestone')
    return {status: 201, body: ctx.ser.milestone(repo, ctx.store.createMilestone(repo, title, ctx.viewer, {description: str(ctx.body, 'description'), due_on: str(ctx.body, 'due_on') ?? null}))}
  }],
  ['GET', '/repos/{owner}/{repo}/milestones/{milestone_number}', 'issues/get-milestone', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.milestone(repo, ctx.store.milestone(repo, num(ctx.params.milestone_number, 'milestone_number')))}
  }],
  ['GET', '/repos/{owner}/{repo}/issue-types', 'repos/list-issue-types', (ctx) => ({list: repoOf(ctx).issue_types.map((t) => ctx.ser.issueType(t))})],

  // issues
  ['GET', '/repos/{owner}/{repo}/issues', 'issues/list-for-repo', (ctx) => {
    const repo = repoOf(ctx)
    return {list: listIssues(repo, ctx.query, true).map((i) => ctx.ser.issue(repo, i))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues', 'issues/create', (ctx) => {
    const repo = repoOf(ctx)
    const issue = ctx.store.createIssue(repo, ctx.viewer, {
      title: str(ctx.body, 'title') ?? '',
      body: str(ctx.body, 'body') ?? null,
      labels: strings(ctx.body, 'labels'),
      assignees: strings(ctx.body, 'assignees') ?? (str(ctx.body, 'assignee') ? [str(ctx.body, 'assignee')!] : undefined),
      milestone: typeof ctx.body.milestone === 'number' ? ctx.body.milestone : null,
      type: str(ctx.body, 'type') ?? null,
    })
    return {status: 201, body: ctx.ser.issue(repo, issue)}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'issues/get', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.issue(repo, ctx.store.issue(repo, num(ctx.params.issue_number, 'issue_number')))}
  }],
  ['PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 'issues/update', (ctx) => {
    const repo = repoOf(ctx)
    const state = str(ctx.body, 'state')
    if (state !== undefined && state !== 'open' && state !== 'closed') throw unprocessable('state must be open or closed', 'state', 'Issue')
    const issue = ctx.store.updateIssue(repo, num(ctx.params.issue_number, 'issue_number'), {
      title: str(ctx.body, 'title'),
      body: 'body' in ctx.body ? (str(ctx.body, 'body') ?? null) : undefined,
      state,
      state_reason: (str(ctx.body, 'state_reason') as Issue['state_reason']) ?? undefined,
      labels: strings(ctx.body, 'labels'),
      assignees: strings(ctx.body, 'assignees'),
      milestone: 'milestone' in ctx.body ? (typeof ctx.body.milestone === 'number' ? ctx.body.milestone : null) : undefined,
      type: 'type' in ctx.body ? (str(ctx.body, 'type') ?? null) : undefined,
    })
    return {body: ctx.ser.issue(repo, issue)}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'issues/list-comments', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.issue(repo, num(ctx.params.issue_number, 'issue_number')).comments.map((id) => ctx.ser.comment(repo, repo.comments[id]!))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'issues/create-comment', (ctx) => {
    const repo = repoOf(ctx)
    return {status: 201, body: ctx.ser.comment(repo, ctx.store.addComment(repo, num(ctx.params.issue_number, 'issue_number'), ctx.viewer, str(ctx.body, 'body') ?? ''))}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues/get-comment', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.comment(repo, ctx.store.comment(repo, num(ctx.params.comment_id, 'comment_id')))}
  }],
  ['PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues/update-comment', (ctx) => {
    const repo = repoOf(ctx)
    const comment = ctx.store.comment(repo, num(ctx.params.comment_id, 'comment_id'))
    comment.body = str(ctx.body, 'body') ?? comment.body
    return {body: ctx.ser.comment(repo, comment)}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues/delete-comment', (ctx) => {
    ctx.store.deleteComment(repoOf(ctx), num(ctx.params.comment_id, 'comment_id'))
    return {status: 204}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'issues/list-labels-on-issue', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.issue(repo, num(ctx.params.issue_number, 'issue_number')).labels.map((n) => ctx.ser.label(repo, ctx.store.label(repo, n)))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'issues/add-labels', (ctx) => {
    const repo = repoOf(ctx)
    const issue = ctx.store.addLabels(repo, num(ctx.params.issue_number, 'issue_number'), labelNames(ctx.body))
    return {body: issue.labels.map((n) => ctx.ser.label(repo, ctx.store.label(repo, n)))}
  }],
  ['PUT', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'issues/set-labels', (ctx) => {
    const repo = repoOf(ctx)
    const issue = ctx.store.updateIssue(repo, num(ctx.params.issue_number, 'issue_number'), {labels: labelNames(ctx.body)})
    return {body: issue.labels.map((n) => ctx.ser.label(repo, ctx.store.label(repo, n)))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'issues/remove-all-labels', (ctx) => {
    ctx.store.updateIssue(repoOf(ctx), num(ctx.params.issue_number, 'issue_number'), {labels: []})
    return {status: 204}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', 'issues/remove-label', (ctx) => {
    const repo = repoOf(ctx)
    const issue = ctx.store.removeLabel(repo, num(ctx.params.issue_number, 'issue_number'), ctx.params.name!)
    return {body: issue.labels.map((n) => ctx.ser.label(repo, ctx.store.label(repo, n)))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 'issues/add-assignees', (ctx) => {
    const repo = repoOf(ctx)
    return {status: 201, body: ctx.ser.issue(repo, ctx.store.addAssignees(repo, num(ctx.params.issue_number, 'issue_number'), strings(ctx.body, 'assignees') ?? []))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 'issues/remove-assignees', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.issue(repo, ctx.store.removeAssignees(repo, num(ctx.params.issue_number, 'issue_number'), strings(ctx.body, 'assignees') ?? []))}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues', 'issues/list-sub-issues', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.issue(repo, num(ctx.params.issue_number, 'issue_number')).sub_issues.map((n) => ctx.ser.issue(repo, repo.issues[n]!))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues', 'issues/add-sub-issue', (ctx) => {
    const repo = repoOf(ctx)
    return {status: 201, body: ctx.ser.issue(repo, ctx.store.addSubIssue(repo, num(ctx.params.issue_number, 'issue_number'), Number(ctx.body.sub_issue_id)))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/sub_issue', 'issues/remove-sub-issue', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.issue(repo, ctx.store.removeSubIssue(repo, num(ctx.params.issue_number, 'issue_number'), Number(ctx.body.sub_issue_id)))}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', 'issues/list-dependencies-blocked-by', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.issue(repo, num(ctx.params.issue_number, 'issue_number')).blocked_by.map((n) => ctx.ser.issue(repo, repo.issues[n]!))}
  }],
  ['GET', '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking', 'issues/list-dependencies-blocking', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.blocking(repo, num(ctx.params.issue_number, 'issue_number')).map((i) => ctx.ser.issue(repo, i))}
  }],
  ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', 'issues/add-blocked-by-dependency', (ctx) => {
    const repo = repoOf(ctx)
    const blocker = Number(ctx.body.issue_id)
    ctx.store.addBlockedBy(repo, num(ctx.params.issue_number, 'issue_number'), blocker)
    return {status: 201, body: ctx.ser.issue(repo, ctx.store.issueById(repo, blocker))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}', 'issues/remove-dependency-blocked-by', (ctx) => {
    const repo = repoOf(ctx)
    const blocker = num(ctx.params.issue_id, 'issue_id')
    ctx.store.removeBlockedBy(repo, num(ctx.params.issue_number, 'issue_number'), blocker)
    return {body: ctx.ser.issue(repo, ctx.store.issueById(repo, blocker))}
  }],

  // pull requests
  ['GET', '/repos/{owner}/{repo}/pulls', 'pulls/list', (ctx) => {
    const repo = repoOf(ctx)
    const state = ctx.query.get('state') ?? 'open'
    const head = ctx.query.get('head')?.replace(/^[^:]+:/, '')
    const base = ctx.query.get('base')
    const pulls = Object.values(repo.pulls)
      .filter((p) => (state === 'all' || repo.issues[p.number]!.state === state) && (!head || p.head === head) && (!base || p.base === base))
      .sort((a, b) => b.number - a.number)
    return {list: pulls.map((p) => ctx.ser.pull(repo, repo.issues[p.number]!, p, true))}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls', 'pulls/create', (ctx) => {
    const repo = repoOf(ctx)
    const {issue, pull} = ctx.store.createPull(repo, ctx.viewer, {
      title: str(ctx.body, 'title') ?? '',
      head: str(ctx.body, 'head') ?? '',
      base: str(ctx.body, 'base') ?? '',
      body: str(ctx.body, 'body') ?? null,
      draft: ctx.body.draft === true,
    })
    return {status: 201, body: ctx.ser.pull(repo, issue, pull)}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 'pulls/get', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    if (/diff|patch/.test(ctx.accept)) return {text: renderDiff(ctx.store.pullFiles(repo, number)), contentType: 'text/plain; charset=utf-8'}
    const {issue, pull} = ctx.store.pull(repo, number)
    return {body: ctx.ser.pull(repo, issue, pull)}
  }],
  ['PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 'pulls/update', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    const {pull} = ctx.store.pull(repo, number)
    if (str(ctx.body, 'base')) ctx.store.changePullBase(repo, number, str(ctx.body, 'base')!)
    const issue = ctx.store.updateIssue(repo, number, {
      title: str(ctx.body, 'title'),
      body: 'body' in ctx.body ? (str(ctx.body, 'body') ?? null) : undefined,
      state: str(ctx.body, 'state') as 'open' | 'closed' | undefined,
    })
    return {body: ctx.ser.pull(repo, issue, pull)}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/files', 'pulls/list-files', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    const head = ctx.store.headSha(repo, ctx.store.pull(repo, number).pull)
    return {list: ctx.store.pullFiles(repo, number).map((change) => ctx.ser.diffEntry(repo, head, change))}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/commits', 'pulls/list-commits', (ctx) => {
    const repo = repoOf(ctx)
    return {list: ctx.store.pullCommits(repo, num(ctx.params.pull_number, 'pull_number')).map((c) => ctx.ser.commit(repo, c))}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'pulls/check-if-merged', (ctx) => {
    const {pull} = ctx.store.pull(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'))
    if (!pull.merged_at) throw notFound()
    return {status: 204}
  }],
  ['PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'pulls/merge', (ctx) => {
    const repo = repoOf(ctx)
    const method = (str(ctx.body, 'merge_method') ?? 'merge') as 'merge' | 'squash' | 'rebase'
    if (!['merge', 'squash', 'rebase'].includes(method)) throw unprocessable('merge_method must be merge, squash or rebase', 'merge_method')
    const sha = ctx.store.mergePull(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, method, str(ctx.body, 'commit_title'))
    return {body: {sha, merged: true, message: 'Pull Request successfully merged'}}
  }],
  ['PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/update-branch', 'pulls/update-branch', (ctx) => {
    ctx.store.updatePullBranch(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'), ctx.viewer)
    return {status: 202, body: {message: 'Updating pull request branch.', url: `${ctx.ser.links.api}/repos/${ctx.params.owner}/${ctx.params.repo}/pulls/${ctx.params.pull_number}`}}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'pulls/list-requested-reviewers', (ctx) => {
    const {pull} = ctx.store.pull(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'))
    return {body: {users: pull.requested_reviewers.map((login) => ctx.ser.user(login)), teams: []}}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'pulls/request-reviewers', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    ctx.store.requestReviewers(repo, number, strings(ctx.body, 'reviewers') ?? [])
    const {issue, pull} = ctx.store.pull(repo, number)
    return {status: 201, body: ctx.ser.pull(repo, issue, pull, true)}
  }],
  ['DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'pulls/remove-requested-reviewers', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    ctx.store.removeRequestedReviewers(repo, number, strings(ctx.body, 'reviewers') ?? [])
    const {issue, pull} = ctx.store.pull(repo, number)
    return {body: ctx.ser.pull(repo, issue, pull, true)}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'pulls/list-reviews', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    ctx.store.pull(repo, number)
    const reviews = Object.values(repo.reviews).filter((r) => r.pull === number && (r.state !== 'PENDING' || r.user === ctx.viewer))
    return {list: reviews.sort((a, b) => a.id - b.id).map((r) => ctx.ser.review(repo, r))}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'pulls/create-review', (ctx) => {
    const repo = repoOf(ctx)
    // GitHub checks the body's schema first ("… is not an array"), then places every comment before writing anything.
    const comments = reviewCommentsOf(ctx.body)
    const review = ctx.store.createReview(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
      event: str(ctx.body, 'event'),
      body: str(ctx.body, 'body'),
      commit_id: str(ctx.body, 'commit_id'),
      comments,
    })
    return {body: ctx.ser.review(repo, review)}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 'pulls/get-review', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.review(repo, ctx.store.review(repo, num(ctx.params.review_id, 'review_id')))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 'pulls/delete-pending-review', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.review(repo, ctx.store.deletePendingReview(repo, num(ctx.params.review_id, 'review_id')))}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events', 'pulls/submit-review', (ctx) => {
    const repo = repoOf(ctx)
    const review = ctx.store.submitReview(repo, num(ctx.params.review_id, 'review_id'), str(ctx.body, 'event') ?? '', str(ctx.body, 'body'))
    return {body: ctx.ser.review(repo, review)}
  }],
  ['PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals', 'pulls/dismiss-review', (ctx) => {
    const repo = repoOf(ctx)
    if (!str(ctx.body, 'message')) throw unprocessable('message is missing', 'message', 'PullRequestReview')
    // GitHub dismisses submitted approvals and change requests; a pending review cannot be dismissed.
    return {body: ctx.ser.review(repo, ctx.store.dismissReview(repo, num(ctx.params.review_id, 'review_id'), str(ctx.body, 'message')!))}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', 'pulls/list-comments-for-review', (ctx) => {
    const repo = repoOf(ctx)
    const id = num(ctx.params.review_id, 'review_id')
    return {list: Object.values(repo.review_comments).filter((c) => c.review_id === id).map((c) => ctx.ser.reviewComment(repo, c))}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 'pulls/list-review-comments', (ctx) => {
    const repo = repoOf(ctx)
    const number = num(ctx.params.pull_number, 'pull_number')
    ctx.store.pull(repo, number)
    const visible = Object.values(repo.review_comments).filter((c) => c.pull === number && (repo.reviews[c.review_id]?.state !== 'PENDING' || c.user === ctx.viewer))
    return {list: visible.sort((a, b) => a.id - b.id).map((c) => ctx.ser.reviewComment(repo, c))}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 'pulls/create-review-comment', (ctx) => {
    const repo = repoOf(ctx)
    checkTypes(ctx.body, {body: 'a string', path: 'a string', commit_id: 'a string', line: 'an integer', start_line: 'an integer', position: 'an integer', in_reply_to: 'an integer', side: 'a string', start_side: 'a string', subject_type: 'a string'})
    checkRequired(ctx.body, ctx.body.in_reply_to === undefined ? ['body', 'commit_id', 'path'] : ['body'])
    const comment = ctx.store.addReviewComment(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
      body: str(ctx.body, 'body') ?? '',
      path: str(ctx.body, 'path'),
      line: ctx.body.line,
      side: str(ctx.body, 'side'),
      start_line: ctx.body.start_line,
      start_side: str(ctx.body, 'start_side'),
      position: ctx.body.position,
      commit_id: str(ctx.body, 'commit_id'),
      in_reply_to: ctx.body.in_reply_to === undefined ? undefined : Number(ctx.body.in_reply_to),
      subject_type: str(ctx.body, 'subject_type'),
    })
    return {status: 201, body: ctx.ser.reviewComment(repo, comment)}
  }],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', 'pulls/create-reply-for-review-comment', (ctx) => {
    const repo = repoOf(ctx)
    const comment = ctx.store.addReviewComment(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
      body: str(ctx.body, 'body') ?? '',
      in_reply_to: num(ctx.params.comment_id, 'comment_id'),
    })
    return {status: 201, body: ctx.ser.reviewComment(repo, comment)}
  }],
  ['GET', '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 'pulls/get-review-comment', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.reviewComment(repo, ctx.store.reviewComment(repo, num(ctx.params.comment_id, 'comment_id')))}
  }],
  ['PATCH', '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 'pulls/update-review-comment', (ctx) => {
    const repo = repoOf(ctx)
    const comment = ctx.store.reviewComment(repo, num(ctx.params.comment_id, 'comment_id'))
    comment.body = str(ctx.body, 'body') ?? comment.body
    return {body: ctx.ser.reviewComment(repo, comment)}
  }],
  ['DELETE', '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 'pulls/delete-review-comment', (ctx) => {
    ctx.store.deleteReviewComment(repoOf(ctx), num(ctx.params.comment_id, 'comment_id'))
    return {status: 204}
  }],
  ['GET', '/repos/{owner}/{repo}/commits/{ref}/check-runs', 'checks/list-for-ref', (ctx) => {
    const repo = repoOf(ctx)
    const sha = repo.branches[ctx.params.ref!] ?? ctx.params.ref!
    const runs = Object.values(repo.runs).filter((r) => r.head_sha === sha)
    const checkRuns = runs.flatMap((run) => {
      const attempt = ctx.store.latestAttempt(run)
      return attempt.jobs.map((job) => checkRun(ctx, repo, run, attempt, job))
    })
    return {list: checkRuns, wrap: {key: 'check_runs'}}
  }],

  ['GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}', 'checks/get', (ctx) => {
    const repo = repoOf(ctx)
    const {run, attempt, job} = ctx.store.job(repo, num(ctx.params.check_run_id, 'check_run_id'))
    return {body: checkRun(ctx, repo, run, attempt, job)}
  }],
  ['GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', 'checks/list-annotations', (ctx) => {
    const repo = repoOf(ctx)
    const {run, attempt, job} = ctx.store.job(repo, num(ctx.params.check_run_id, 'check_run_id'))
    const failed = ctx.store.jobStatus(attempt, job).conclusion === 'failure'
    const path = repo.workflows[run.workflow_id]!.path
    return {
      list: failed
        ? [{path, blob_href: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/blob/${run.head_sha}/${path}`, start_line: 1, end_line: 1, start_column: null, end_column: null, annotation_level: 'failure', title: '', message: 'Process completed with exit code 1.', raw_details: ''}]
        : [],
    }
  }],

  // actions
  ['GET', '/repos/{owner}/{repo}/actions/workflows', 'actions/list-repo-workflows', (ctx) => {
    const repo = repoOf(ctx)
    return {list: Object.values(repo.workflows).map((w) => ctx.ser.workflow(repo, w)), wrap: {key: 'workflows'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}', 'actions/get-workflow', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.workflow(repo, ctx.store.workflow(repo, ctx.params.workflow_id!))}
  }],
  ['POST', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', 'actions/create-workflow-dispatch', (ctx) => {
    const repo = repoOf(ctx)
    const workflow = ctx.store.workflow(repo, ctx.params.workflow_id!)
    const inputs = (ctx.body.inputs ?? {}) as Record<string, string>
    ctx.store.dispatch(repo, workflow, str(ctx.body, 'ref') ?? '', Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])), ctx.viewer)
    return {status: 204}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', 'actions/list-workflow-runs', (ctx) => {
    const repo = repoOf(ctx)
    const workflow = ctx.store.workflow(repo, ctx.params.workflow_id!)
    return {list: listRuns(ctx, repo, workflow.id), wrap: {key: 'workflow_runs'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs', 'actions/list-workflow-runs-for-repo', (ctx) => ({list: listRuns(ctx, repoOf(ctx)), wrap: {key: 'workflow_runs'}})],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}', 'actions/get-workflow-run', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.run(repo, ctx.store.run(repo, num(ctx.params.run_id, 'run_id')))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/actions/runs/{run_id}', 'actions/delete-workflow-run', (ctx) => {
    ctx.store.deleteRun(repoOf(ctx), num(ctx.params.run_id, 'run_id'))
    return {status: 204}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}', 'actions/get-workflow-run-attempt', (ctx) => {
    const repo = repoOf(ctx)
    const run = ctx.store.run(repo, num(ctx.params.run_id, 'run_id'))
    const attempt = run.attempts.find((a) => a.attempt === Number(ctx.params.attempt_number))
    if (!attempt) throw notFound()
    return {body: ctx.ser.run(repo, run, attempt)}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs', 'actions/list-jobs-for-workflow-run', (ctx) => {
    const repo = repoOf(ctx)
    const run = ctx.store.run(repo, num(ctx.params.run_id, 'run_id'))
    const attempts = ctx.query.get('filter') === 'all' ? run.attempts : [ctx.store.latestAttempt(run)]
    const jobs = attempts.flatMap((attempt) => attempt.jobs.filter((j) => ctx.query.get('filter') !== 'all' || j.carried_from === null).map((job) => ctx.ser.job(repo, run, attempt, job)))
    return {list: jobs, wrap: {key: 'jobs'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', 'actions/list-jobs-for-workflow-run-attempt', (ctx) => {
    const repo = repoOf(ctx)
    const run = ctx.store.run(repo, num(ctx.params.run_id, 'run_id'))
    const attempt = run.attempts.find((a) => a.attempt === Number(ctx.params.attempt_number))
    if (!attempt) throw notFound()
    return {list: attempt.jobs.map((job) => ctx.ser.job(repo, run, attempt, job)), wrap: {key: 'jobs'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/jobs/{job_id}', 'actions/get-job-for-workflow-run', (ctx) => {
    const repo = repoOf(ctx)
    const {run, attempt, job} = ctx.store.job(repo, num(ctx.params.job_id, 'job_id'))
    return {body: ctx.ser.job(repo, run, attempt, job)}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs', 'actions/download-job-logs-for-workflow-run', (ctx) => {
    const repo = repoOf(ctx)
    const {attempt, job} = ctx.store.job(repo, num(ctx.params.job_id, 'job_id'))
    if (ctx.store.jobStatus(attempt, job).status !== 'completed') throw notFound('logs are not available until the job completes')
    return {download: {content: job.log, contentType: 'text/plain; charset=utf-8'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/logs', 'actions/download-workflow-run-logs', (ctx) => {
    const repo = repoOf(ctx)
    const run = ctx.store.run(repo, num(ctx.params.run_id, 'run_id'))
    const attempt = ctx.store.latestAttempt(run)
    if (ctx.store.attemptStatus(attempt).status !== 'completed') throw notFound('logs are not available until the run completes')
    // The archive lays out one file per job step, as GitHub's does (and as `gh run view --log` reads it).
    const files = attempt.jobs.flatMap((job) => [
      {name: `${job.name}/1_Set up job.txt`, content: '2026-01-01T00:00:00.0000000Z Current runner version: 2.0.0\n'},
      {name: `${job.name}/2_Run ${job.name}.txt`, content: job.log},
    ])
    return {download: {content: zip(files), contentType: 'application/zip'}}
  }],
  ['POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun', 'actions/re-run-workflow', (ctx) => {
    ctx.store.rerun(repoOf(ctx), num(ctx.params.run_id, 'run_id'), false)
    return {status: 201, body: {}}
  }],
  ['POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs', 'actions/re-run-workflow-failed-jobs', (ctx) => {
    ctx.store.rerun(repoOf(ctx), num(ctx.params.run_id, 'run_id'), true)
    return {status: 201, body: {}}
  }],
  ['POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', 'actions/cancel-workflow-run', (ctx) => {
    ctx.store.cancel(repoOf(ctx), num(ctx.params.run_id, 'run_id'))
    return {status: 202, body: {}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', 'actions/list-workflow-run-artifacts', (ctx) => {
    const repo = repoOf(ctx)
    const run = ctx.store.run(repo, num(ctx.params.run_id, 'run_id'))
    return {list: run.artifacts.map((id) => ctx.ser.artifact(repo, repo.artifacts[id]!)), wrap: {key: 'artifacts'}}
  }],
  ['GET', '/repos/{owner}/{repo}/actions/artifacts', 'actions/list-artifacts-for-repo', (ctx) => {
    const repo = repoOf(ctx)
    return {list: Object.values(repo.artifacts).map((a) => ctx.ser.artifact(repo, a)), wrap: {key: 'artifacts'}}
  }],

  // releases
  ['GET', '/repos/{owner}/{repo}/releases', 'repos/list-releases', (ctx) => {
    const repo = repoOf(ctx)
    return {list: Object.values(repo.releases).sort((a, b) => b.id - a.id).map((r) => ctx.ser.release(repo, r))}
  }],
  ['POST', '/repos/{owner}/{repo}/releases', 'repos/create-release', (ctx) => {
    const repo = repoOf(ctx)
    const release = ctx.store.createRelease(repo, ctx.viewer, {
      tag_name: str(ctx.body, 'tag_name') ?? '',
      name: str(ctx.body, 'name') ?? null,
      body: str(ctx.body, 'body') ?? null,
      draft: ctx.body.draft === true,
      prerelease: ctx.body.prerelease === true,
      target_commitish: str(ctx.body, 'target_commitish'),
    })
    return {status: 201, body: ctx.ser.release(repo, release)}
  }],
  ['GET', '/repos/{owner}/{repo}/releases/latest', 'repos/get-latest-release', (ctx) => {
    const repo = repoOf(ctx)
    const latest = Object.values(repo.releases).filter((r) => !r.draft && !r.prerelease).sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)[0]
    if (!latest) throw notFound()
    return {body: ctx.ser.release(repo, latest)}
  }],
  ['GET', '/repos/{owner}/{repo}/releases/tags/{tag}', 'repos/get-release-by-tag', (ctx) => {
    const repo = repoOf(ctx)
    // A draft has no tag yet: GitHub does not find it by tag name (404), only in the list.
    const release = ctx.store.releaseByTag(repo, ctx.params.tag!)
    if (release.draft) throw notFound()
    return {body: ctx.ser.release(repo, release)}
  }],
  ['GET', '/repos/{owner}/{repo}/releases/{release_id}', 'repos/get-release', (ctx) => {
    const repo = repoOf(ctx)
    return {body: ctx.ser.release(repo, ctx.store.release(repo, num(ctx.params.release_id, 'release_id')))}
  }],
  ['PATCH', '/repos/{owner}/{repo}/releases/{release_id}', 'repos/update-release', (ctx) => {
    const repo = repoOf(ctx)
    const patch: Record<string, unknown> = {}
    for (const key of ['tag_name', 'name', 'body', 'target_commitish'] as const) if (key in ctx.body) patch[key] = str(ctx.body, key) ?? null
    for (const key of ['draft', 'prerelease'] as const) if (typeof ctx.body[key] === 'boolean') patch[key] = ctx.body[key]
    return {body: ctx.ser.release(repo, ctx.store.updateRelease(repo, num(ctx.params.release_id, 'release_id'), patch))}
  }],
  ['DELETE', '/repos/{owner}/{repo}/releases/{release_id}', 'repos/delete-release', (ctx) => {
    ctx.store.deleteRelease(repoOf(ctx), num(ctx.params.release_id, 'release_id'))
    return {status: 204}
  }],
]

function labelNames(body: Record<string, unknown>): string[] {
  const labels = body.labels
  if (Array.isArray(labels)) return labels.map((l) => (typeof l === 'object' && l !== null ? String((l as {name: string}).name) : String(l)))
  if (typeof labels === 'string') return [labels]
  throw unprocessable('labels must be an array', 'labels')
}

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
      const s = ctx.store.attemptStatus(ctx.store.latestAttempt(run))
      return s.status === status || s.conclusion === status
    })
    .sort((a, b) => b.id - a.id)
    .map((run) => ctx.ser.run(repo, run))
}

function checkRun(ctx: RestContext, repo: Repo, run: Repo['runs'][string], attempt: Repo['runs'][string]['attempts'][number], job: Repo['runs'][string]['attempts'][number]['jobs'][number]): Record<string, unknown> {
  const serialized = ctx.ser.job(repo, run, attempt, job)
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
    output: {title: null, summary: null, text: null, annotations_count: 0, annotations_url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/check-runs/${job.id}/annotations`},
    name: job.name,
    check_suite: {id: run.id + 1},
    app: null,
    pull_requests: [],
  }
}

let router: Router<RestRoute> | undefined

/** Every modelled route: this file's and the topic modules' beside it. */
const allRoutes = (): Array<[string, string, string, Handler]> => [...routes, ...gitRoutes, ...repoRoutes, ...eventRoutes, ...statusRoutes, ...commitLinkRoutes, ...searchRoutes]

export function restRouter(): Router<RestRoute> {
  if (!router) {
    router = new Router()
    for (const [method, template, operationId, handler] of allRoutes()) router.add(method, template, {operationId, handler})
  }
  return router
}

/** The operationIds the sandbox models, for the contract tests and the docs. */
export function modelledOperations(): Array<{method: string; template: string; operationId: string}> {
  return allRoutes().map(([method, template, operationId]) => ({method, template, operationId}))
}

