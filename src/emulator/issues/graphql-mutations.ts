/** Mutation's fields on issues: comments (add, update, delete, hide), create, update, close, reopen, labels, assignees, delete, dependencies, sub-issues. */
import {
  cursor,
  input,
  mutationId,
  notFoundError,
  text,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import {issueOf, locate} from '../core/graphql-nodes.js'
import type {Issue, LockReason, Repo} from '../core/state.js'
import type {Store} from '../store.js'
import {userLogin} from '../users/graphql.js'
import {commentNode, issueNode, labelName, LOCK_REASONS, milestoneNumber} from './graphql.js'

/** The fields UpdateIssueInput and UpdatePullRequestInput share (title, body, state, labels, assignees, milestone), applied to the issue. */
export function updateFromInput(store: Store, repo: Repo, number: number, i: Record<string, unknown>): Issue {
  const milestone =
    i.milestoneId === undefined
      ? undefined
      : i.milestoneId === null
        ? null
        : milestoneNumber(store, repo, i.milestoneId)
  return store.issues.update(repo, number, {
    title: i.title as string | undefined,
    body: i.body as string | undefined,
    state: typeof i.state === 'string' ? (i.state.toLowerCase() as 'open' | 'closed') : undefined,
    labels: Array.isArray(i.labelIds) ? i.labelIds.map((id) => labelName(store, repo, id)) : undefined,
    assignees: Array.isArray(i.assigneeIds) ? i.assigneeIds.map((id) => userLogin(store, id)) : undefined,
    milestone,
  })
}

export function issueMutations(ctx: Context): Obj {
  const {store} = ctx
  /** A mutation between the issue `issueId` and another one (its `other` input): the change, then both issues in the payload. */
  const relation =
    (other: string, payload: string, change: (repo: Repo, number: number, otherId: number) => unknown) =>
    (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const related = issueOf(store, input(args)[other]).issue
      change(repo, issue.number, related.id)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue), [payload]: issueNode(ctx, repo, related)}
    }
  const minimizableOf = (subject: unknown) => {
    const {repo, kind, id} = locate(store, subject)
    if (kind === 'comment')
      return {repo, comment: store.issues.comment(repo, id), node: (r: Repo) => commentNode(ctx, r, id)}
    if (kind === 'review_comment') {
      const comment = store.reviews.comment(repo, id)
      return {repo, comment, node: (r: Repo) => ctx.nodes.PullRequestReviewComment(ctx, r, comment)}
    }
    throw notFoundError(`Could not resolve to a Minimizable with the global id of '${String(subject)}'`)
  }
  return {
    // Hides an issue comment or a review comment (the Minimizable ones the sandbox has), or shows it again.
    minimizeComment: (args: Args) => {
      const {repo, comment, node} = minimizableOf(input(args).subjectId)
      comment.minimized_reason = text(input(args).classifier).toLowerCase().replace('_', '-')
      return {...mutationId(args), minimizedComment: node(repo)}
    },
    unminimizeComment: (args: Args) => {
      const {repo, comment, node} = minimizableOf(input(args).subjectId)
      comment.minimized_reason = null
      return {...mutationId(args), unminimizedComment: node(repo)}
    },
    lockLockable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).lockableId)
      const reason =
        (Object.keys(LOCK_REASONS) as LockReason[]).find((r) => LOCK_REASONS[r] === input(args).lockReason) ?? null
      store.issues.setLocked(repo, issue.number, true, reason)
      return {...mutationId(args), actor: ctx.nodes.Actor(ctx, ctx.viewer), lockedRecord: issueNode(ctx, repo, issue)}
    },
    unlockLockable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).lockableId)
      store.issues.setLocked(repo, issue.number, false)
      return {...mutationId(args), actor: ctx.nodes.Actor(ctx, ctx.viewer), unlockedRecord: issueNode(ctx, repo, issue)}
    },
    pinIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      store.issues.setPinned(repo, issue.number, true, ctx.viewer)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    unpinIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      store.issues.setPinned(repo, issue.number, false, ctx.viewer)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    addComment: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).subjectId)
      const comment = store.issues.addComment(repo, issue.number, ctx.viewer, text(input(args).body))
      const node = commentNode(ctx, repo, comment.id)
      return {
        ...mutationId(args),
        commentEdge: {node, cursor: cursor(0)},
        subject: issueNode(ctx, repo, issue),
        timelineEdge: null,
      }
    },
    updateIssueComment: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).id)
      if (kind !== 'comment')
        throw notFoundError(`Could not resolve to an IssueComment with the global id of '${String(input(args).id)}'`)
      store.issues.editComment(repo, id, text(input(args).body))
      return {...mutationId(args), issueComment: commentNode(ctx, repo, id)}
    },
    deleteIssueComment: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).id)
      if (kind !== 'comment')
        throw notFoundError(`Could not resolve to an IssueComment with the global id of '${String(input(args).id)}'`)
      store.issues.deleteComment(repo, id)
      return mutationId(args)
    },
    createIssue: (args: Args) => {
      const i = input(args)
      const {repo} = locate(store, i.repositoryId)
      const issue = store.issues.create(repo, ctx.viewer, {
        title: text(i.title),
        body: (i.body as string | undefined) ?? null,
        labels: ((i.labelIds as unknown[] | undefined) ?? []).map((id) => labelName(store, repo, id)),
        assignees: ((i.assigneeIds as unknown[] | undefined) ?? []).map((id) => userLogin(store, id)),
      })
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    updateIssue: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.id)
      updateFromInput(store, repo, issue.number, i)
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    closeIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      const reason =
        typeof input(args).stateReason === 'string'
          ? (String(input(args).stateReason).toLowerCase() as Issue['state_reason'])
          : 'completed'
      store.issues.update(repo, issue.number, {state: 'closed', state_reason: reason})
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    reopenIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      store.issues.update(repo, issue.number, {state: 'open'})
      return {...mutationId(args), issue: issueNode(ctx, repo, issue)}
    },
    addLabelsToLabelable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).labelableId)
      store.issues.addLabels(
        repo,
        issue.number,
        ((input(args).labelIds as unknown[]) ?? []).map((id) => labelName(store, repo, id)),
      )
      return {...mutationId(args), labelable: issueNode(ctx, repo, issue)}
    },
    removeLabelsFromLabelable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).labelableId)
      for (const id of (input(args).labelIds as unknown[]) ?? [])
        store.issues.removeLabel(repo, issue.number, labelName(store, repo, id))
      return {...mutationId(args), labelable: issueNode(ctx, repo, issue)}
    },
    deleteIssue: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).issueId)
      if (issue.is_pull)
        throw notFoundError(`Could not resolve to Issue node with the global id of '${String(input(args).issueId)}'`)
      store.issues.delete(repo, issue.number)
      return {...mutationId(args), repository: ctx.nodes.Repository(ctx, repo)}
    },
    addAssigneesToAssignable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).assignableId)
      store.issues.addAssignees(
        repo,
        issue.number,
        ((input(args).assigneeIds as unknown[]) ?? []).map((id) => userLogin(store, id)),
      )
      return {...mutationId(args), assignable: issueNode(ctx, repo, issue)}
    },
    removeAssigneesFromAssignable: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).assignableId)
      store.issues.removeAssignees(
        repo,
        issue.number,
        ((input(args).assigneeIds as unknown[]) ?? []).map((id) => userLogin(store, id)),
      )
      return {...mutationId(args), assignable: issueNode(ctx, repo, issue)}
    },
    addBlockedBy: relation('blockingIssueId', 'blockingIssue', (repo, number, blocker) =>
      store.issues.addBlockedBy(repo, number, blocker),
    ),
    removeBlockedBy: relation('blockingIssueId', 'blockingIssue', (repo, number, blocker) =>
      store.issues.removeBlockedBy(repo, number, blocker),
    ),
    addSubIssue: relation('subIssueId', 'subIssue', (repo, number, child) =>
      store.issues.addSubIssue(repo, number, child),
    ),
    removeSubIssue: relation('subIssueId', 'subIssue', (repo, number, child) =>
      store.issues.removeSubIssue(repo, number, child),
    ),
  }
}
