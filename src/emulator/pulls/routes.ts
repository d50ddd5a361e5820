/**
 * REST routes of pull requests: list, create, get (also as a diff), update, files, commits, merge,
 * branch update, requested reviewers, and the pull requests a commit belongs to. Reviews and review
 * comments are in review-routes.ts.
 */
import {renderDiff} from '../core/git.js'
import {notFound, SandboxError, unprocessable} from '../core/errors.js'
import {commitOf, num, repoOf, str, strings, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Repo} from '../core/state.js'

/**
 * The pull requests a commit belongs to, as GitHub lists them: the merged one that brought it into the
 * default branch; for a commit not on the default branch, the open and merged ones whose head holds it.
 */
function pullsOf(ctx: RestContext, repo: Repo, sha: string): number[] {
  const defaultHead = repo.branches[repo.default_branch]
  const onDefault = defaultHead !== undefined && ctx.store.git.isAncestor(repo, sha, defaultHead)
  const holds = (number: number) => {
    const pull = repo.pulls[number]!
    if (pull.merge_commit_sha === sha) return true
    const head = ctx.store.pulls.headSha(repo, pull)
    // A merged pull request's commits: those of its head the base did not have before the merge.
    const before = pull.merge_commit_sha ? repo.commits[pull.merge_commit_sha]?.parents[0] : undefined
    if (pull.merged_at && before)
      return ctx.store.git.isAncestor(repo, sha, head) && !ctx.store.git.isAncestor(repo, sha, before)
    try {
      return ctx.store.pulls.commits(repo, number).some((c) => c.sha === sha)
    } catch {
      return false
    }
  }
  return Object.values(repo.pulls)
    .filter((pull) => {
      const merged = pull.merged_at !== null
      if (onDefault) return merged && pull.base === repo.default_branch && holds(pull.number)
      return (merged || repo.issues[pull.number]!.state === 'open') && holds(pull.number)
    })
    .map((pull) => pull.number)
    .sort((a, b) => b - a)
}

export const pullRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/pulls',
    'pulls/list',
    (ctx) => {
      const repo = repoOf(ctx)
      const state = ctx.query.get('state') ?? 'open'
      const head = ctx.query.get('head')?.replace(/^[^:]+:/, '')
      const base = ctx.query.get('base')
      const pulls = Object.values(repo.pulls)
        .filter(
          (p) =>
            (state === 'all' || repo.issues[p.number]!.state === state) &&
            (!head || p.head === head) &&
            (!base || p.base === base),
        )
        .sort((a, b) => b.number - a.number)
      return {list: pulls.map((p) => ctx.ser.pulls.pull(repo, repo.issues[p.number]!, p, true))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls',
    'pulls/create',
    (ctx) => {
      const repo = repoOf(ctx)
      const {issue, pull} = ctx.store.pulls.create(repo, ctx.viewer, {
        title: str(ctx.body, 'title') ?? '',
        head: str(ctx.body, 'head') ?? '',
        base: str(ctx.body, 'base') ?? '',
        body: str(ctx.body, 'body') ?? null,
        draft: ctx.body.draft === true,
      })
      return {status: 201, body: ctx.ser.pulls.pull(repo, issue, pull)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}',
    'pulls/get',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      if (/diff|patch/.test(ctx.accept))
        return {text: renderDiff(ctx.store.pulls.files(repo, number)), contentType: 'text/plain; charset=utf-8'}
      const {issue, pull} = ctx.store.pulls.get(repo, number)
      return {body: ctx.ser.pulls.pull(repo, issue, pull)}
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/pulls/{pull_number}',
    'pulls/update',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      const {issue: current, pull} = ctx.store.pulls.get(repo, number)
      const state = str(ctx.body, 'state')
      // GitHub checks the base against the state before the request, as a live PATCH with state=open and base did.
      if (str(ctx.body, 'base') && current.state === 'closed') {
        throw new SandboxError(422, 'Validation Failed', [
          {
            message: 'Cannot change the base branch of a closed pull request.',
            resource: 'PullRequest',
            field: 'base',
            code: 'invalid',
          },
        ])
      }
      // Neither a merged pull request nor one whose head branch is gone can be reopened (GraphQL's reopenPullRequest alike).
      if (
        state === 'open' &&
        current.state === 'closed' &&
        (pull.merged_at || repo.branches[pull.head] === undefined)
      ) {
        throw new SandboxError(422, 'Validation Failed', [
          {
            resource: 'PullRequest',
            code: 'custom',
            field: 'state',
            message: 'state cannot be changed. The pull request cannot be reopened.',
          },
        ])
      }
      if (str(ctx.body, 'base')) ctx.store.pulls.changeBase(repo, number, str(ctx.body, 'base')!)
      const issue = ctx.store.issues.update(repo, number, {
        title: str(ctx.body, 'title'),
        body: 'body' in ctx.body ? (str(ctx.body, 'body') ?? null) : undefined,
        state: state as 'open' | 'closed' | undefined,
      })
      return {body: ctx.ser.pulls.pull(repo, issue, pull)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/files',
    'pulls/list-files',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      const head = ctx.store.pulls.headSha(repo, ctx.store.pulls.get(repo, number).pull)
      return {list: ctx.store.pulls.files(repo, number).map((change) => ctx.ser.repos.diffEntry(repo, head, change))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/commits',
    'pulls/list-commits',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.pulls
          .commits(repo, num(ctx.params.pull_number, 'pull_number'))
          .map((c) => ctx.ser.repos.commit(repo, c)),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
    'pulls/check-if-merged',
    (ctx) => {
      const {pull} = ctx.store.pulls.get(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'))
      if (!pull.merged_at) throw notFound()
      return {status: 204}
    },
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
    'pulls/merge',
    (ctx) => {
      const repo = repoOf(ctx)
      const method = (str(ctx.body, 'merge_method') ?? 'merge') as 'merge' | 'squash' | 'rebase'
      if (!['merge', 'squash', 'rebase'].includes(method))
        throw unprocessable('merge_method must be merge, squash or rebase', 'merge_method')
      const sha = ctx.store.pulls.merge(
        repo,
        num(ctx.params.pull_number, 'pull_number'),
        ctx.viewer,
        method,
        str(ctx.body, 'commit_title'),
      )
      return {body: {sha, merged: true, message: 'Pull Request successfully merged'}}
    },
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/pulls/{pull_number}/update-branch',
    'pulls/update-branch',
    (ctx) => {
      ctx.store.pulls.updateBranch(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'), ctx.viewer)
      return {
        status: 202,
        body: {
          message: 'Updating pull request branch.',
          url: `${ctx.ser.links.api}/repos/${ctx.params.owner}/${ctx.params.repo}/pulls/${ctx.params.pull_number}`,
        },
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    'pulls/list-requested-reviewers',
    (ctx) => {
      const {pull} = ctx.store.pulls.get(repoOf(ctx), num(ctx.params.pull_number, 'pull_number'))
      return {body: {users: pull.requested_reviewers.map((login) => ctx.ser.users.user(login)), teams: []}}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    'pulls/request-reviewers',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      ctx.store.pulls.requestReviewers(repo, number, strings(ctx.body, 'reviewers') ?? [])
      const {issue, pull} = ctx.store.pulls.get(repo, number)
      return {status: 201, body: ctx.ser.pulls.pull(repo, issue, pull, true)}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    'pulls/remove-requested-reviewers',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      ctx.store.pulls.removeRequestedReviewers(repo, number, strings(ctx.body, 'reviewers') ?? [])
      const {issue, pull} = ctx.store.pulls.get(repo, number)
      return {body: ctx.ser.pulls.pull(repo, issue, pull, true)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{commit_sha}/pulls',
    'repos/list-pull-requests-associated-with-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      // A branch name lists the open or merged pull requests of that branch.
      const branch = ctx.params.commit_sha!
      if (repo.branches[branch] !== undefined && !repo.commits[branch]) {
        const pulls = Object.values(repo.pulls)
          .filter((p) => p.head === branch && (p.merged_at !== null || repo.issues[p.number]!.state === 'open'))
          .sort((a, b) => b.number - a.number)
        return {list: pulls.map((p) => ctx.ser.pulls.pull(repo, repo.issues[p.number]!, p, true))}
      }
      const sha = commitOf(ctx, repo, branch)
      return {list: pullsOf(ctx, repo, sha).map((n) => ctx.ser.pulls.pull(repo, repo.issues[n]!, repo.pulls[n]!, true))}
    },
  ],
]
