/**
 * Reviews in the store: pending and submitted reviews, review comments placed on the diff as GitHub
 * places them (review-place.ts), replies, threads resolved and unresolved, dismissals.
 */
import {found, notFound, unprocessable} from '../core/errors.js'
import type {Review, ReviewComment, ReviewThread, Repo} from '../core/state.js'
import {placeOf, resolvePlace, type Place, type PlaceRequest} from './review-place.js'
import type {StoreCore} from '../core/store-core.js'
import type {Issues} from '../issues/store.js'
import type {Reactions} from '../reactions/store.js'
import type {Pulls} from './store.js'

/** The store's review operations, on issues, pull requests and reactions (../store.ts composes the services). */
export class Reviews {
  constructor(
    private readonly core: StoreCore,
    private readonly issues: Issues,
    private readonly pulls: Pulls,
    private readonly reactions: Reactions,
  ) {}

  /** Dismisses a submitted approval or change request (a pending review cannot be dismissed). */
  dismiss(repo: Repo, reviewId: number, message: string): Review {
    const review = this.get(repo, reviewId)
    if (review.state === 'PENDING')
      throw unprocessable('Can not dismiss a pending review', 'state', 'PullRequestReview')
    this.core.record(repo, review.pull, 'review_dismissed', {review: {id: review.id, state: review.state, message}})
    review.state = 'DISMISSED'
    return review
  }

  get(repo: Repo, id: number): Review {
    return found(repo.reviews[id])
  }

  /**
   * A review with inline comments. Without an event it stays PENDING until submitted; a user has at
   * most one pending review per pull request, and cannot approve or request changes on their own.
   * It is atomic, as on GitHub: a comment that cannot be placed, or an event that is refused, leaves
   * nothing behind (no pending review, no comments).
   */
  create(
    repo: Repo,
    number: number,
    author: string,
    fields: {event?: string; body?: string; commit_id?: string; comments?: Array<PlaceRequest & {body: string}>},
  ): Review {
    const {issue, pull} = this.pulls.get(repo, number)
    if (Object.values(repo.reviews).some((r) => r.pull === number && r.user === author && r.state === 'PENDING')) {
      throw unprocessable('User can only have one pending review per pull request', 'user_id', 'PullRequestReview')
    }
    const commitId = fields.commit_id ?? this.pulls.headSha(repo, pull)
    const files = this.pulls.filesAt(repo, number, commitId)
    // Every comment is placed before anything is written.
    const places = (fields.comments ?? []).map((comment) => ({comment, place: resolvePlace(files, comment, 'review')}))
    const review: Review = {
      id: this.core.nextId(),
      pull: number,
      user: author,
      body: fields.body ?? '',
      state: 'PENDING',
      commit_id: commitId,
      submitted_at: null,
    }
    repo.reviews[review.id] = review
    try {
      for (const {comment, place} of places)
        this.writeComment(repo, number, author, review.id, commitId, comment.body, place)
      if (fields.event) this.submit(repo, review.id, fields.event, fields.body, issue.user)
    } catch (error) {
      this.discard(repo, review.id)
      throw error
    }
    return review
  }

  /** Removes a review with its comments and the threads they started. */
  private discard(repo: Repo, reviewId: number): void {
    for (const comment of Object.values(repo.review_comments).filter((c) => c.review_id === reviewId))
      this.deleteComment(repo, comment.id)
    delete repo.reviews[reviewId]
  }

  submit(repo: Repo, reviewId: number, event: string, body?: string, pullAuthor?: string): Review {
    const review = this.get(repo, reviewId)
    if (review.state !== 'PENDING')
      throw unprocessable('Can not submit a review that is not pending', 'event', 'PullRequestReview')
    const states: Record<string, Review['state']> = {
      APPROVE: 'APPROVED',
      REQUEST_CHANGES: 'CHANGES_REQUESTED',
      COMMENT: 'COMMENTED',
    }
    const state = states[event]
    if (!state)
      throw unprocessable(
        `event ${event} is not one of APPROVE, REQUEST_CHANGES, COMMENT`,
        'event',
        'PullRequestReview',
      )
    const author = pullAuthor ?? this.issues.get(repo, review.pull).user
    if (state !== 'COMMENTED' && author === review.user) {
      throw unprocessable(
        `Can not ${event === 'APPROVE' ? 'approve' : 'request changes on'} your own pull request`,
        'event',
        'PullRequestReview',
      )
    }
    const comments = Object.values(repo.review_comments).filter((c) => c.review_id === reviewId)
    const text = body ?? review.body
    if ((state === 'CHANGES_REQUESTED' || state === 'COMMENTED') && !text && comments.length === 0) {
      throw unprocessable('Review body is required', 'body', 'PullRequestReview')
    }
    review.body = text
    review.state = state
    review.submitted_at = this.core.stamp()
    const pull = repo.pulls[review.pull]!
    pull.requested_reviewers = pull.requested_reviewers.filter((login) => login !== review.user)
    return review
  }

  deletePending(repo: Repo, reviewId: number): Review {
    const review = this.get(repo, reviewId)
    if (review.state !== 'PENDING') throw unprocessable('Can not delete a non-pending pull request review')
    for (const comment of Object.values(repo.review_comments).filter((c) => c.review_id === reviewId))
      this.deleteComment(repo, comment.id)
    delete repo.reviews[reviewId]
    return review
  }

  /**
   * A review comment: a new thread on a line (or lines, or the whole file) of the diff, placed as
   * GitHub places it (review-place.ts), or (in_reply_to) a reply in a thread.
   */
  addComment(
    repo: Repo,
    number: number,
    author: string,
    fields: PlaceRequest & {body: string; commit_id?: string; in_reply_to?: number},
    reviewId?: number,
  ): ReviewComment {
    const {pull} = this.pulls.get(repo, number)
    if (!fields.body) throw unprocessable('body is missing', 'body', 'PullRequestReviewComment')
    if (fields.in_reply_to !== undefined) {
      const parent = repo.review_comments[fields.in_reply_to]
      if (!parent || parent.pull !== number) throw notFound('parent comment not found')
      const thread = repo.threads[parent.thread_id]!
      const first = repo.review_comments[thread.comments[0]!]!
      const review =
        reviewId ?? this.createStandalone(repo, number, author, fields.commit_id ?? this.pulls.headSha(repo, pull))
      return this.writeComment(
        repo,
        number,
        author,
        review,
        fields.commit_id ?? first.commit_id,
        fields.body,
        placeOf(first),
        thread,
      )
    }
    const commitId = fields.commit_id ?? this.pulls.headSha(repo, pull)
    const place = resolvePlace(this.pulls.filesAt(repo, number, commitId), fields, 'comment')
    const review = reviewId ?? this.createStandalone(repo, number, author, commitId)
    return this.writeComment(repo, number, author, review, commitId, fields.body, place)
  }

  /** Writes a placed comment: in a thread when it replies, else as the first comment of a new thread. */
  private writeComment(
    repo: Repo,
    number: number,
    author: string,
    reviewId: number,
    commitId: string,
    body: string,
    place: Place,
    thread?: ReviewThread,
  ): ReviewComment {
    if (!thread) {
      thread = {
        id: this.core.nextId(),
        pull: number,
        path: place.path,
        line: place.line,
        side: place.side,
        start_line: place.start_line,
        start_side: place.start_side,
        comments: [],
        resolved: false,
        resolved_by: null,
      }
      repo.threads[thread.id] = thread
    }
    const comment: ReviewComment = {
      id: this.core.nextId(),
      pull: number,
      review_id: reviewId,
      thread_id: thread.id,
      user: author,
      body,
      path: place.path,
      line: place.line,
      side: place.side,
      start_line: place.start_line,
      start_side: place.start_side,
      position: place.position,
      diff_hunk: place.diff_hunk,
      subject_type: place.subject_type,
      commit_id: commitId,
      in_reply_to_id: thread.comments.length > 0 ? thread.comments[0]! : null,
      created_at: this.core.stamp(),
      updated_at: this.core.stamp(),
    }
    repo.review_comments[comment.id] = comment
    thread.comments.push(comment.id)
    return comment
  }

  /** A single comment outside a pending review gets a COMMENTED review of its own, as on GitHub. */
  private createStandalone(repo: Repo, number: number, author: string, commit: string): number {
    const review: Review = {
      id: this.core.nextId(),
      pull: number,
      user: author,
      body: '',
      state: 'COMMENTED',
      commit_id: commit,
      submitted_at: this.core.stamp(),
    }
    repo.reviews[review.id] = review
    return review.id
  }

  comment(repo: Repo, id: number): ReviewComment {
    return found(repo.review_comments[id])
  }

  deleteComment(repo: Repo, id: number): void {
    const comment = this.comment(repo, id)
    const thread = repo.threads[comment.thread_id]!
    thread.comments = thread.comments.filter((c) => c !== id)
    if (thread.comments.length === 0) delete repo.threads[thread.id]
    delete repo.review_comments[id]
    this.reactions.drop(repo, {kind: 'review_comment', id})
  }

  thread(repo: Repo, id: number): ReviewThread {
    const thread = repo.threads[id]
    if (!thread) throw notFound('Could not resolve to a PullRequestReviewThread')
    return thread
  }

  /** Threads of a pull request in creation order; pending reviews' threads only for their author. */
  threads(repo: Repo, number: number, viewer?: string): ReviewThread[] {
    return Object.values(repo.threads)
      .filter((t) => t.pull === number)
      .filter((t) => {
        const first = repo.review_comments[t.comments[0]!]
        const review = first ? repo.reviews[first.review_id] : undefined
        return review?.state !== 'PENDING' || review.user === viewer
      })
      .sort((a, b) => a.id - b.id)
  }

  setThreadResolved(repo: Repo, id: number, resolved: boolean, by: string): ReviewThread {
    const thread = this.thread(repo, id)
    thread.resolved = resolved
    thread.resolved_by = resolved ? by : null
    return thread
  }
}
