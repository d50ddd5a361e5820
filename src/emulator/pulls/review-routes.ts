/**
 * REST routes of reviews and review comments: list, create (whole or not at all), get, delete a
 * pending one, submit, dismiss; review comments (new threads and replies), get, edit, delete.
 */
import {unprocessable} from '../core/errors.js'
import {checkRequired, checkTypes, reviewCommentsOf} from '../core/request-schema.js'
import {num, repoOf, str, type RouteDef} from '../core/rest-support.js'

export const reviewRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    'pulls/list-reviews',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      ctx.store.pulls.get(repo, number)
      const reviews = Object.values(repo.reviews).filter(
        (r) => r.pull === number && (r.state !== 'PENDING' || r.user === ctx.viewer),
      )
      return {list: reviews.sort((a, b) => a.id - b.id).map((r) => ctx.ser.pulls.review(repo, r))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    'pulls/create-review',
    (ctx) => {
      const repo = repoOf(ctx)
      // GitHub checks the body's schema first ("… is not an array"), then places every comment before writing anything.
      const comments = reviewCommentsOf(ctx.body)
      const review = ctx.store.reviews.create(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
        event: str(ctx.body, 'event'),
        body: str(ctx.body, 'body'),
        commit_id: str(ctx.body, 'commit_id'),
        comments,
      })
      return {body: ctx.ser.pulls.review(repo, review)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
    'pulls/get-review',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: ctx.ser.pulls.review(repo, ctx.store.reviews.get(repo, num(ctx.params.review_id, 'review_id')))}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
    'pulls/delete-pending-review',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.pulls.review(repo, ctx.store.reviews.deletePending(repo, num(ctx.params.review_id, 'review_id'))),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events',
    'pulls/submit-review',
    (ctx) => {
      const repo = repoOf(ctx)
      const review = ctx.store.reviews.submit(
        repo,
        num(ctx.params.review_id, 'review_id'),
        str(ctx.body, 'event') ?? '',
        str(ctx.body, 'body'),
      )
      return {body: ctx.ser.pulls.review(repo, review)}
    },
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals',
    'pulls/dismiss-review',
    (ctx) => {
      const repo = repoOf(ctx)
      if (!str(ctx.body, 'message')) throw unprocessable('message is missing', 'message', 'PullRequestReview')
      // GitHub dismisses submitted approvals and change requests; a pending review cannot be dismissed.
      return {
        body: ctx.ser.pulls.review(
          repo,
          ctx.store.reviews.dismiss(repo, num(ctx.params.review_id, 'review_id'), str(ctx.body, 'message')!),
        ),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
    'pulls/list-comments-for-review',
    (ctx) => {
      const repo = repoOf(ctx)
      const id = num(ctx.params.review_id, 'review_id')
      return {
        list: Object.values(repo.review_comments)
          .filter((c) => c.review_id === id)
          .map((c) => ctx.ser.pulls.reviewComment(repo, c)),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    'pulls/list-review-comments',
    (ctx) => {
      const repo = repoOf(ctx)
      const number = num(ctx.params.pull_number, 'pull_number')
      ctx.store.pulls.get(repo, number)
      const visible = Object.values(repo.review_comments).filter(
        (c) => c.pull === number && (repo.reviews[c.review_id]?.state !== 'PENDING' || c.user === ctx.viewer),
      )
      return {list: visible.sort((a, b) => a.id - b.id).map((c) => ctx.ser.pulls.reviewComment(repo, c))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    'pulls/create-review-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      checkTypes(ctx.body, {
        body: 'a string',
        path: 'a string',
        commit_id: 'a string',
        line: 'an integer',
        start_line: 'an integer',
        position: 'an integer',
        in_reply_to: 'an integer',
        side: 'a string',
        start_side: 'a string',
        subject_type: 'a string',
      })
      checkRequired(ctx.body, ctx.body.in_reply_to === undefined ? ['body', 'commit_id', 'path'] : ['body'])
      const comment = ctx.store.reviews.addComment(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
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
      return {status: 201, body: ctx.ser.pulls.reviewComment(repo, comment)}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
    'pulls/create-reply-for-review-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      const comment = ctx.store.reviews.addComment(repo, num(ctx.params.pull_number, 'pull_number'), ctx.viewer, {
        body: str(ctx.body, 'body') ?? '',
        in_reply_to: num(ctx.params.comment_id, 'comment_id'),
      })
      return {status: 201, body: ctx.ser.pulls.reviewComment(repo, comment)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    'pulls/get-review-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.pulls.reviewComment(
          repo,
          ctx.store.reviews.comment(repo, num(ctx.params.comment_id, 'comment_id')),
        ),
      }
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    'pulls/update-review-comment',
    (ctx) => {
      const repo = repoOf(ctx)
      const comment = ctx.store.reviews.comment(repo, num(ctx.params.comment_id, 'comment_id'))
      comment.body = str(ctx.body, 'body') ?? comment.body
      return {body: ctx.ser.pulls.reviewComment(repo, comment)}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    'pulls/delete-review-comment',
    (ctx) => {
      ctx.store.reviews.deleteComment(repoOf(ctx), num(ctx.params.comment_id, 'comment_id'))
      return {status: 204}
    },
  ],
]
