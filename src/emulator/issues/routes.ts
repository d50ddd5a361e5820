/**
 * REST routes of issues: a repository's labels, milestones and issue types; issues (list, create,
 * get, update), their comments, labels, assignees, sub-issues and blocked-by dependencies. An
 * issue's events and timeline are in event-routes.ts.
 */
import {unprocessable} from '../core/errors.js'
import {num, repoOf, str, strings, type RouteDef} from '../core/rest-support.js'
import type {Issue, LockReason} from '../core/state.js'
import {listIssues} from './filters.js'

function labelNames(body: Record<string, unknown>): string[] {
  const labels = body.labels
  if (Array.isArray(labels))
    return labels.map((l) => (typeof l === 'object' && l !== null ? String((l as {name: string}).name) : String(l)))
  if (typeof labels === 'string') return [labels]
  throw unprocessable('labels must be an array', 'labels')
}

const LOCK_REASONS: ReadonlyArray<LockReason> = ['off-topic', 'too heated', 'resolved', 'spam']

export const issueRoutes: RouteDef[] = [
  [
    'PUT',
    '/repos/{owner}/{repo}/issues/{issue_number}/lock',
    'issues/lock',
    (ctx) => {
      const reason = str(ctx.body, 'lock_reason') ?? null
      if (reason !== null && !LOCK_REASONS.includes(reason as LockReason))
        throw unprocessable(`${reason} is not a valid lock reason`, 'lock_reason', 'Issue')
      ctx.store.issues.setLocked(
        repoOf(ctx),
        num(ctx.params.issue_number, 'issue_number'),
        true,
        reason as LockReason | null,
      )
      return {status: 204}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/lock',
    'issues/unlock',
    (ctx) => {
      ctx.store.issues.setLocked(repoOf(ctx), num(ctx.params.issue_number, 'issue_number'), false)
      return {status: 204}
    },
  ],
  // labels and milestones
  [
    'GET',
    '/repos/{owner}/{repo}/labels',
    'issues/list-labels-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: Object.values(repo.labels)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((l) => ctx.ser.issues.label(repo, l)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/labels',
    'issues/create-label',
    (ctx) => {
      const repo = repoOf(ctx)
      const name = str(ctx.body, 'name')
      if (!name) throw unprocessable('name is missing', 'name', 'Label')
      return {
        status: 201,
        body: ctx.ser.issues.label(
          repo,
          ctx.store.labels.create(repo, name, str(ctx.body, 'color'), str(ctx.body, 'description') ?? null),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/labels/{name}',
    'issues/get-label',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: ctx.ser.issues.label(repo, ctx.store.labels.get(repo, ctx.params.name!))}
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/labels/{name}',
    'issues/update-label',
    (ctx) => {
      const repo = repoOf(ctx)
      const label = ctx.store.labels.update(repo, ctx.params.name!, {
        new_name: str(ctx.body, 'new_name'),
        color: str(ctx.body, 'color'),
        description: str(ctx.body, 'description'),
      })
      return {body: ctx.ser.issues.label(repo, label)}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/labels/{name}',
    'issues/delete-label',
    (ctx) => {
      ctx.store.labels.delete(repoOf(ctx), ctx.params.name!)
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/milestones',
    'issues/list-milestones',
    (ctx) => {
      const repo = repoOf(ctx)
      const state = ctx.query.get('state') ?? 'open'
      return {
        list: repo.milestones
          .filter((m) => state === 'all' || m.state === state)
          .map((m) => ctx.ser.issues.milestone(repo, m)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/milestones',
    'issues/create-milestone',
    (ctx) => {
      const repo = repoOf(ctx)
      const title = str(ctx.body, 'title')
      if (!title) throw unprocessable('title is missing', 'title', 'Milestone')
      return {
        status: 201,
        body: ctx.ser.issues.milestone(
          repo,
          ctx.store.milestones.create(repo, title, ctx.viewer, {
            description: str(ctx.body, 'description'),
            due_on: str(ctx.body, 'due_on') ?? null,
          }),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/milestones/{milestone_number}',
    'issues/get-milestone',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.issues.milestone(
          repo,
          ctx.store.milestones.get(repo, num(ctx.params.milestone_number, 'milestone_number')),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issue-types',
    'repos/list-issue-types',
    (ctx) => ({list: repoOf(ctx).issue_types.map((t) => ctx.ser.issues.issueType(t))}),
  ],

  // issues
  [
    'GET',
    '/repos/{owner}/{repo}/issues',
    'issues/list-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      return {list: listIssues(repo, ctx.query, true).map((i) => ctx.ser.issues.issue(repo, i))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues',
    'issues/create',
    (ctx) => {
      const repo = repoOf(ctx)
      const issue = ctx.store.issues.create(repo, ctx.viewer, {
        title: str(ctx.body, 'title') ?? '',
        body: str(ctx.body, 'body') ?? null,
        labels: strings(ctx.body, 'labels'),
        assignees:
          strings(ctx.body, 'assignees') ?? (str(ctx.body, 'assignee') ? [str(ctx.body, 'assignee')!] : undefined),
        milestone: typeof ctx.body.milestone === 'number' ? ctx.body.milestone : null,
        type: str(ctx.body, 'type') ?? null,
      })
      return {status: 201, body: ctx.ser.issues.issue(repo, issue)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}',
    'issues/get',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.issues.issue(repo, ctx.store.issues.get(repo, num(ctx.params.issue_number, 'issue_number'))),
      }
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/issues/{issue_number}',
    'issues/update',
    (ctx) => {
      const repo = repoOf(ctx)
      const state = str(ctx.body, 'state')
      if (state !== undefined && state !== 'open' && state !== 'closed')
        throw unprocessable('state must be open or closed', 'state', 'Issue')
      const issue = ctx.store.issues.update(repo, num(ctx.params.issue_number, 'issue_number'), {
        title: str(ctx.body, 'title'),
        body: 'body' in ctx.body ? (str(ctx.body, 'body') ?? null) : undefined,
        state,
        state_reason: (str(ctx.body, 'state_reason') as Issue['state_reason']) ?? undefined,
        labels: strings(ctx.body, 'labels'),
        assignees: strings(ctx.body, 'assignees'),
        milestone:
          'milestone' in ctx.body ? (typeof ctx.body.milestone === 'number' ? ctx.body.milestone : null) : undefined,
        type: 'type' in ctx.body ? (str(ctx.body, 'type') ?? null) : undefined,
      })
      return {body: ctx.ser.issues.issue(repo, issue)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    'issues/list-comments',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.issues
          .get(repo, num(ctx.params.issue_number, 'issue_number'))
          .comments.map((id) => ctx.ser.issues.comment(repo, repo.comments[id]!)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    'issues/create-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        status: 201,
        body: ctx.ser.issues.comment(
          repo,
          ctx.store.issues.addComment(
            repo,
            num(ctx.params.issue_number, 'issue_number'),
            ctx.viewer,
            str(ctx.body, 'body') ?? '',
          ),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/comments',
    'issues/list-comments-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      // Oldest first (GitHub's order without sort), or by creation or update time in the asked direction.
      const sort = ctx.query.get('sort')
      const since = ctx.query.get('since')
      const key = sort === 'updated' ? 'updated_at' : 'created_at'
      const comments = Object.values(repo.comments)
        .filter((comment) => !since || comment.updated_at >= since)
        .sort((a, b) => a.id - b.id)
        .sort((a, b) => (sort ? a[key].localeCompare(b[key]) : 0))
      if (sort && ctx.query.get('direction') !== 'asc') comments.reverse()
      return {list: comments.map((comment) => ctx.ser.issues.comment(repo, comment))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    'issues/get-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.issues.comment(repo, ctx.store.issues.comment(repo, num(ctx.params.comment_id, 'comment_id'))),
      }
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    'issues/update-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      const id = num(ctx.params.comment_id, 'comment_id')
      const comment = ctx.store.issues.editComment(
        repo,
        id,
        str(ctx.body, 'body') ?? ctx.store.issues.comment(repo, id).body,
      )
      return {body: ctx.ser.issues.comment(repo, comment)}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    'issues/delete-comment',
    (ctx) => {
      ctx.store.issues.deleteComment(repoOf(ctx), num(ctx.params.comment_id, 'comment_id'))
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    'issues/list-labels-on-issue',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.issues
          .get(repo, num(ctx.params.issue_number, 'issue_number'))
          .labels.map((n) => ctx.ser.issues.label(repo, ctx.store.labels.get(repo, n))),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    'issues/add-labels',
    (ctx) => {
      const repo = repoOf(ctx)
      const issue = ctx.store.issues.addLabels(repo, num(ctx.params.issue_number, 'issue_number'), labelNames(ctx.body))
      return {body: issue.labels.map((n) => ctx.ser.issues.label(repo, ctx.store.labels.get(repo, n)))}
    },
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    'issues/set-labels',
    (ctx) => {
      const repo = repoOf(ctx)
      const issue = ctx.store.issues.update(repo, num(ctx.params.issue_number, 'issue_number'), {
        labels: labelNames(ctx.body),
      })
      return {body: issue.labels.map((n) => ctx.ser.issues.label(repo, ctx.store.labels.get(repo, n)))}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    'issues/remove-all-labels',
    (ctx) => {
      ctx.store.issues.update(repoOf(ctx), num(ctx.params.issue_number, 'issue_number'), {labels: []})
      return {status: 204}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
    'issues/remove-label',
    (ctx) => {
      const repo = repoOf(ctx)
      const issue = ctx.store.issues.removeLabel(repo, num(ctx.params.issue_number, 'issue_number'), ctx.params.name!)
      return {body: issue.labels.map((n) => ctx.ser.issues.label(repo, ctx.store.labels.get(repo, n)))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
    'issues/add-assignees',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        status: 201,
        body: ctx.ser.issues.issue(
          repo,
          ctx.store.issues.addAssignees(
            repo,
            num(ctx.params.issue_number, 'issue_number'),
            strings(ctx.body, 'assignees') ?? [],
          ),
        ),
      }
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
    'issues/remove-assignees',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.issues.issue(
          repo,
          ctx.store.issues.removeAssignees(
            repo,
            num(ctx.params.issue_number, 'issue_number'),
            strings(ctx.body, 'assignees') ?? [],
          ),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues',
    'issues/list-sub-issues',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.issues
          .get(repo, num(ctx.params.issue_number, 'issue_number'))
          .sub_issues.map((n) => ctx.ser.issues.issue(repo, repo.issues[n]!)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues',
    'issues/add-sub-issue',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        status: 201,
        body: ctx.ser.issues.issue(
          repo,
          ctx.store.issues.addSubIssue(
            repo,
            num(ctx.params.issue_number, 'issue_number'),
            Number(ctx.body.sub_issue_id),
          ),
        ),
      }
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/sub_issue',
    'issues/remove-sub-issue',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.issues.issue(
          repo,
          ctx.store.issues.removeSubIssue(
            repo,
            num(ctx.params.issue_number, 'issue_number'),
            Number(ctx.body.sub_issue_id),
          ),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by',
    'issues/list-dependencies-blocked-by',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.issues
          .get(repo, num(ctx.params.issue_number, 'issue_number'))
          .blocked_by.map((n) => ctx.ser.issues.issue(repo, repo.issues[n]!)),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking',
    'issues/list-dependencies-blocking',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: ctx.store.issues
          .blocking(repo, num(ctx.params.issue_number, 'issue_number'))
          .map((i) => ctx.ser.issues.issue(repo, i)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by',
    'issues/add-blocked-by-dependency',
    (ctx) => {
      const repo = repoOf(ctx)
      const blocker = Number(ctx.body.issue_id)
      ctx.store.issues.addBlockedBy(repo, num(ctx.params.issue_number, 'issue_number'), blocker)
      return {status: 201, body: ctx.ser.issues.issue(repo, ctx.store.issues.byId(repo, blocker))}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}',
    'issues/remove-dependency-blocked-by',
    (ctx) => {
      const repo = repoOf(ctx)
      const blocker = num(ctx.params.issue_id, 'issue_id')
      ctx.store.issues.removeBlockedBy(repo, num(ctx.params.issue_number, 'issue_number'), blocker)
      return {body: ctx.ser.issues.issue(repo, ctx.store.issues.byId(repo, blocker))}
    },
  ],
]
