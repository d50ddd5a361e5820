/** Mutation's fields on pull requests: create, update, close, reopen, reviewers, merge, branch update, reviews and threads, draft. */
import {GraphQLError} from 'graphql'
import {
  cursor,
  input,
  mutationId,
  NotModelled,
  text,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import {issueOf, locate} from '../core/graphql-nodes.js'
import type {Repo, Review} from '../core/state.js'
import {updateFromInput} from '../issues/graphql-mutations.js'
import {userLogin} from '../users/graphql.js'
import {pullNode, reviewCommentNode, reviewNode, threadNode} from './graphql.js'

export function pullMutations(ctx: Context): Obj {
  const {store} = ctx
  return {
    createPullRequest: (args: Args) => {
      const i = input(args)
      const {repo} = locate(store, i.repositoryId)
      const {issue, pull} = store.pulls.create(repo, ctx.viewer, {
        title: text(i.title),
        head: text(i.headRefName),
        base: text(i.baseRefName),
        body: (i.body as string | undefined) ?? null,
        draft: i.draft === true,
      })
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    updatePullRequest: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.pullRequestId)
      const {pull} = store.pulls.get(repo, issue.number)
      if (Array.isArray(i.projectIds) && i.projectIds.length > 0)
        throw new NotModelled('ghx-bench sandbox does not model UpdatePullRequestInput.projectIds (projects classic)')
      if (typeof i.baseRefName === 'string') store.pulls.changeBase(repo, issue.number, i.baseRefName)
      if (typeof i.maintainerCanModify === 'boolean') pull.maintainer_can_modify = i.maintainerCanModify
      updateFromInput(store, repo, issue.number, i)
      return {
        ...mutationId(args),
        actor: ctx.nodes.Actor(ctx, ctx.viewer),
        pullRequest: pullNode(ctx, repo, issue, pull),
      }
    },
    closePullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const {pull} = store.pulls.get(repo, issue.number)
      if (issue.state === 'open') store.issues.update(repo, issue.number, {state: 'closed'})
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    reopenPullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const {pull} = store.pulls.get(repo, issue.number)
      // GitHub reopens neither a merged pull request nor one whose head branch is gone.
      if (pull.merged_at || repo.branches[pull.head] === undefined)
        throw new GraphQLError('state cannot be changed. The pull request cannot be reopened.', {
          extensions: {type: 'UNPROCESSABLE'},
        })
      if (issue.state === 'closed') store.issues.update(repo, issue.number, {state: 'open'})
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, pull)}
    },
    requestReviews: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      store.pulls.requestReviewers(
        repo,
        issue.number,
        ((input(args).userIds as unknown[]) ?? []).map((id) => userLogin(store, id)),
      )
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    mergePullRequest: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      const method = text(input(args).mergeMethod, 'MERGE').toLowerCase() as 'merge' | 'squash' | 'rebase'
      store.pulls.merge(repo, issue.number, ctx.viewer, method, input(args).commitHeadline as string | undefined)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    updatePullRequestBranch: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      store.pulls.updateBranch(repo, issue.number, ctx.viewer)
      return {...mutationId(args), pullRequest: pullNode(ctx, repo, issue, repo.pulls[issue.number]!)}
    },
    addPullRequestReview: (args: Args) => {
      const i = input(args)
      const {repo, issue} = issueOf(store, i.pullRequestId)
      // DraftPullRequestReviewThread places by line (and startLine, sides); DraftPullRequestReviewComment by diff position.
      type DraftThread = {
        path: string
        line?: number
        side?: string
        startLine?: number | null
        startSide?: string | null
        body: string
      }
      const threads = ((i.threads as DraftThread[] | undefined) ?? []).map((t) => ({
        path: t.path,
        line: t.line,
        side: t.side,
        start_line: t.startLine,
        start_side: t.startSide ?? undefined,
        body: t.body,
      }))
      const comments = ((i.comments as Array<{path: string; position?: number; body: string}> | undefined) ?? []).map(
        (c) => ({path: c.path, position: c.position, body: c.body}),
      )
      const review = store.reviews.create(repo, issue.number, ctx.viewer, {
        event: i.event as string | undefined,
        body: i.body as string | undefined,
        commit_id: i.commitOID as string | undefined,
        comments: [...threads, ...comments],
      })
      return {
        ...mutationId(args),
        pullRequestReview: reviewNode(ctx, repo, review),
        reviewEdge: {node: reviewNode(ctx, repo, review), cursor: cursor(0)},
      }
    },
    submitPullRequestReview: (args: Args) => {
      const i = input(args)
      let located: {repo: Repo; review: Review}
      if (i.pullRequestReviewId) {
        const {repo, id} = locate(store, i.pullRequestReviewId)
        located = {repo, review: store.reviews.get(repo, id)}
      } else {
        const {repo, issue} = issueOf(store, i.pullRequestId)
        const pending = Object.values(repo.reviews).find(
          (r) => r.pull === issue.number && r.user === ctx.viewer && r.state === 'PENDING',
        )
        if (!pending) throw new GraphQLError('No pending review to submit')
        located = {repo, review: pending}
      }
      const review = store.reviews.submit(located.repo, located.review.id, text(i.event), i.body as string | undefined)
      return {...mutationId(args), pullRequestReview: reviewNode(ctx, located.repo, review)}
    },
    addPullRequestReviewThread: (args: Args) => {
      const i = input(args)
      let repo: Repo
      let number: number
      let reviewId: number | undefined
      if (i.pullRequestReviewId) {
        const located = locate(store, i.pullRequestReviewId)
        repo = located.repo
        const review = store.reviews.get(repo, located.id)
        number = review.pull
        reviewId = review.id
      } else {
        const located = issueOf(store, i.pullRequestId)
        repo = located.repo
        number = located.issue.number
        reviewId = Object.values(repo.reviews).find(
          (r) => r.pull === number && r.user === ctx.viewer && r.state === 'PENDING',
        )?.id
      }
      const comment = store.reviews.addComment(
        repo,
        number,
        ctx.viewer,
        {
          body: text(i.body),
          path: text(i.path),
          line: i.line,
          side: i.side as string | undefined,
          start_line: i.startLine,
          start_side: i.startSide as string | undefined,
          subject_type: text(i.subjectType, 'LINE').toLowerCase(),
        },
        reviewId,
      )
      return {...mutationId(args), thread: threadNode(ctx, repo, repo.threads[comment.thread_id]!)}
    },
    addPullRequestReviewThreadReply: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).pullRequestReviewThreadId)
      if (kind !== 'thread') throw new GraphQLError('pullRequestReviewThreadId is not a review thread')
      const thread = store.reviews.thread(repo, id)
      const comment = store.reviews.addComment(repo, thread.pull, ctx.viewer, {
        body: text(input(args).body),
        in_reply_to: thread.comments[0]!,
      })
      return {...mutationId(args), comment: reviewCommentNode(ctx, repo, comment)}
    },
    resolveReviewThread: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).threadId)
      if (kind !== 'thread') throw new GraphQLError('threadId is not a review thread')
      return {
        ...mutationId(args),
        thread: threadNode(ctx, repo, store.reviews.setThreadResolved(repo, id, true, ctx.viewer)),
      }
    },
    unresolveReviewThread: (args: Args) => {
      const {repo, kind, id} = locate(store, input(args).threadId)
      if (kind !== 'thread') throw new GraphQLError('threadId is not a review thread')
      return {
        ...mutationId(args),
        thread: threadNode(ctx, repo, store.reviews.setThreadResolved(repo, id, false, ctx.viewer)),
      }
    },
    convertPullRequestToDraft: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      return {
        ...mutationId(args),
        pullRequest: pullNode(ctx, repo, issue, store.pulls.setDraft(repo, issue.number, true)),
      }
    },
    markPullRequestReadyForReview: (args: Args) => {
      const {repo, issue} = issueOf(store, input(args).pullRequestId)
      return {
        ...mutationId(args),
        pullRequest: pullNode(ctx, repo, issue, store.pulls.setDraft(repo, issue.number, false)),
      }
    },
  }
}
