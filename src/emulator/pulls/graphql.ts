/** GraphQL's pull requests, reviews, review comments and review threads. */
import {connection, NotModelled, upper, type Args, type Context, type Obj} from '../core/graphql-objects.js'
import type {Issue, Pull, Repo, Review, ReviewComment, ReviewThread} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import {association, closingPulls, ISSUE_LIKE, ISSUE_OF, minimizable} from '../issues/graphql.js'
import {reactable} from '../reactions/graphql.js'

export function reviewNode(ctx: Context, repo: Repo, review: Review): Obj {
  return {
    __typename: 'PullRequestReview',
    id: nodeId('review', review.id),
    databaseId: review.id,
    author: ctx.nodes.Actor(ctx, review.user),
    authorAssociation: association(repo, review.user),
    body: review.body,
    state: review.state,
    submittedAt: review.submitted_at,
    createdAt: review.submitted_at,
    commit: {oid: review.commit_id},
    reactionGroups: [],
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/pull/${review.pull}#pullrequestreview-${review.id}`,
    comments: (args: Args) =>
      connection(
        Object.values(repo.review_comments)
          .filter((c) => c.review_id === review.id)
          .map((c) => reviewCommentNode(ctx, repo, c)),
        args,
      ),
  }
}

export function reviewCommentNode(ctx: Context, repo: Repo, comment: ReviewComment): Obj {
  const replyTo = comment.in_reply_to_id === null ? null : repo.review_comments[comment.in_reply_to_id]
  return {
    __typename: 'PullRequestReviewComment',
    id: nodeId('review_comment', comment.id),
    databaseId: comment.id,
    body: comment.body,
    author: ctx.nodes.Actor(ctx, comment.user),
    authorAssociation: association(repo, comment.user),
    createdAt: comment.created_at,
    updatedAt: comment.updated_at,
    path: comment.path,
    line: comment.line,
    originalLine: comment.line,
    startLine: comment.start_line ?? null,
    originalStartLine: comment.start_line ?? null,
    // Positions in the file's patch (deprecated by GitHub, still answered); a file-level comment has none.
    position: comment.line === null ? null : (comment.position ?? comment.line),
    originalPosition: comment.line === null ? 1 : (comment.position ?? comment.line),
    diffHunk: comment.diff_hunk ?? '',
    subjectType: comment.subject_type === 'file' ? 'FILE' : 'LINE',
    state: repo.reviews[comment.review_id]?.state === 'PENDING' ? 'PENDING' : 'SUBMITTED',
    commit: () => ctx.nodes.Commit(ctx, repo, comment.commit_id),
    originalCommit: () => ctx.nodes.Commit(ctx, repo, comment.commit_id),
    pullRequest: () => pullNode(ctx, repo, repo.issues[comment.pull]!, repo.pulls[comment.pull]!),
    outdated: false,
    ...minimizable(comment),
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/pull/${comment.pull}#discussion_r${comment.id}`,
    replyTo: replyTo ? {id: nodeId('review_comment', replyTo.id), databaseId: replyTo.id} : null,
    pullRequestReview: () => reviewNode(ctx, repo, repo.reviews[comment.review_id]!),
    ...reactable(ctx, repo, {kind: 'review_comment', id: comment.id}),
  }
}

export function threadNode(ctx: Context, repo: Repo, thread: ReviewThread): Obj {
  return {
    __typename: 'PullRequestReviewThread',
    id: nodeId('thread', thread.id),
    isResolved: thread.resolved,
    isOutdated: false,
    isCollapsed: thread.resolved,
    path: thread.path,
    line: thread.line,
    originalLine: thread.line,
    startLine: thread.start_line ?? null,
    originalStartLine: thread.start_line ?? null,
    diffSide: thread.side ?? 'RIGHT',
    startDiffSide: thread.start_line == null ? null : (thread.start_side ?? thread.side ?? 'RIGHT'),
    subjectType: thread.line === null ? 'FILE' : 'LINE',
    resolvedBy: ctx.nodes.Actor(ctx, thread.resolved_by),
    viewerCanReply: true,
    viewerCanResolve: !thread.resolved,
    viewerCanUnresolve: thread.resolved,
    comments: (args: Args) =>
      connection(
        thread.comments.map((id) => reviewCommentNode(ctx, repo, repo.review_comments[id]!)),
        args,
      ),
    pullRequest: () => pullNode(ctx, repo, repo.issues[thread.pull]!, repo.pulls[thread.pull]!),
  }
}

export function reviewDecision(repo: Repo, pull: Pull): string | null {
  const latest = new Map<string, Review['state']>()
  for (const review of Object.values(repo.reviews)
    .filter((r) => r.pull === pull.number)
    .sort((a, b) => a.id - b.id)) {
    if (review.state === 'APPROVED' || review.state === 'CHANGES_REQUESTED') latest.set(review.user, review.state)
  }
  const states = [...latest.values()]
  if (states.includes('CHANGES_REQUESTED')) return 'CHANGES_REQUESTED'
  if (states.includes('APPROVED')) return 'APPROVED'
  return pull.requested_reviewers.length > 0 ? 'REVIEW_REQUIRED' : null
}

export function pullNode(ctx: Context, repo: Repo, issue: Issue, pull: Pull): Obj {
  const store = ctx.store
  const files = () => store.pulls.files(repo, pull.number)
  const state = pull.merged_at ? 'MERGED' : upper(issue.state)
  return {
    __proto__: ISSUE_LIKE,
    [ISSUE_OF]: {ctx, repo, issue},
    __typename: 'PullRequest',
    state,
    isDraft: pull.draft,
    merged: pull.merged_at !== null,
    mergedAt: pull.merged_at,
    mergedBy: () => ctx.nodes.Actor(ctx, pull.merged_by),
    mergeable: () =>
      issue.state !== 'open' ? 'UNKNOWN' : store.pulls.conflicting(repo, pull) ? 'CONFLICTING' : 'MERGEABLE',
    // GitHub reports BEHIND only under a branch protection that requires up-to-date branches, which the sandbox does not model.
    mergeStateStatus: () =>
      issue.state !== 'open'
        ? 'UNKNOWN'
        : store.pulls.conflicting(repo, pull)
          ? 'DIRTY'
          : pull.draft
            ? 'DRAFT'
            : 'CLEAN',
    maintainerCanModify: pull.maintainer_can_modify,
    additions: () => files().reduce((n, f) => n + f.additions, 0),
    deletions: () => files().reduce((n, f) => n + f.deletions, 0),
    changedFiles: () => files().length,
    files: (args: Args) =>
      connection(
        files().map((f) => ({
          path: f.filename,
          additions: f.additions,
          deletions: f.deletions,
          changeType: {added: 'ADDED', removed: 'DELETED', modified: 'MODIFIED'}[f.status],
        })),
        args,
      ),
    baseRefName: pull.base,
    headRefName: pull.head,
    baseRefOid: repo.branches[pull.base] ?? null,
    headRefOid: () => store.pulls.headSha(repo, pull),
    // No branch protection in the sandbox: no ref has a rule.
    baseRef: {name: pull.base, target: {oid: repo.branches[pull.base] ?? null}, branchProtectionRule: null},
    headRef: repo.branches[pull.head]
      ? {name: pull.head, target: {oid: repo.branches[pull.head]}, branchProtectionRule: null}
      : null,
    headRepository: () => ({id: nodeId('repo', repo.id), name: repo.name, nameWithOwner: `${repo.owner}/${repo.name}`}),
    headRepositoryOwner: () => ctx.nodes.Actor(ctx, repo.owner),
    isCrossRepository: false,
    commits: (args: Args) =>
      connection(
        store.pulls.commits(repo, pull.number).map((c) => ({commit: ctx.nodes.Commit(ctx, repo, c.sha)})),
        args,
      ),
    reviewRequests: (args: Args) =>
      connection(
        pull.requested_reviewers.map((login) => ({requestedReviewer: ctx.nodes.Actor(ctx, login)})),
        args,
      ),
    reviews: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const reviews = Object.values(repo.reviews)
        .filter(
          (r) =>
            r.pull === pull.number &&
            (r.state !== 'PENDING' || r.user === ctx.viewer) &&
            (!states || states.includes(r.state)),
        )
        .sort((a, b) => a.id - b.id)
      return connection(
        reviews.map((r) => reviewNode(ctx, repo, r)),
        args,
      )
    },
    latestReviews: (args: Args) => {
      const byUser = new Map<string, Review>()
      for (const review of Object.values(repo.reviews)
        .filter((r) => r.pull === pull.number && r.state !== 'PENDING')
        .sort((a, b) => a.id - b.id))
        byUser.set(review.user, review)
      return connection(
        [...byUser.values()].map((r) => reviewNode(ctx, repo, r)),
        args,
      )
    },
    reviewThreads: (args: Args) =>
      connection(
        store.reviews.threads(repo, pull.number, ctx.viewer).map((t) => threadNode(ctx, repo, t)),
        args,
      ),
    reviewDecision: () => reviewDecision(repo, pull),
    autoMergeRequest: null,
    // The sandbox has no merge queues: no pull request is in one, and no branch requires one.
    isInMergeQueue: false,
    isMergeQueueEnabled: false,
    mergeQueueEntry: null,
    mergeCommit: () => (pull.merge_commit_sha ? ctx.nodes.Commit(ctx, repo, pull.merge_commit_sha) : null),
    potentialMergeCommit: () => {
      // GitHub: "will not return a value if the pull request is merged". Otherwise it is GitHub's test merge commit, which the sandbox does not make.
      if (pull.merged_at) return null
      throw new NotModelled(
        'ghx-bench sandbox does not model PullRequest.potentialMergeCommit of an unmerged pull request (GitHub’s test merge commit)',
      )
    },
    closingIssuesReferences: (args: Args) => {
      const referenced = Object.values(repo.issues).filter(
        (i) => !i.is_pull && closingPulls(repo, i).some((p) => p.number === pull.number),
      )
      return connection(
        referenced.map((i) => ctx.nodes.Issue(ctx, repo, i)),
        args,
      )
    },
  }
}
