/**
 * REST routes of reactions on issues and pull requests, issue comments and review comments: list
 * (by content too), create (a user's second reaction of one content is the first, answered 200), delete.
 */
import {notFound, SandboxError} from '../core/errors.js'
import {num, repoOf, str, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Reaction, Repo} from '../core/state.js'

const CONTENTS: ReadonlyArray<Reaction['content']> = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'eyes',
  'rocket',
]

type SubjectOf = (ctx: RestContext, repo: Repo) => Reaction['subject']

const issueSubject: SubjectOf = (ctx, repo) => ({
  kind: 'issue',
  id: ctx.store.issues.get(repo, num(ctx.params.issue_number, 'issue_number')).id,
})
const commentSubject: SubjectOf = (ctx, repo) => ({
  kind: 'comment',
  id: ctx.store.issues.comment(repo, num(ctx.params.comment_id, 'comment_id')).id,
})
const reviewCommentSubject: SubjectOf = (ctx, repo) => ({
  kind: 'review_comment',
  id: ctx.store.reviews.comment(repo, num(ctx.params.comment_id, 'comment_id')).id,
})

function content(ctx: RestContext): Reaction['content'] {
  const value = str(ctx.body, 'content')
  if (!value || !CONTENTS.includes(value as Reaction['content']))
    throw new SandboxError(422, 'Validation Failed', [
      {resource: 'Reaction', code: 'custom', field: 'content', message: 'content is not included in the list'},
    ])
  return value as Reaction['content']
}

/** The list, create and delete routes of one kind of subject, under its path. */
function routesOf(path: string, ids: [list: string, create: string, remove: string], subjectOf: SubjectOf): RouteDef[] {
  return [
    [
      'GET',
      `${path}/reactions`,
      ids[0],
      (ctx) => {
        const repo = repoOf(ctx)
        const only = ctx.query.get('content')
        const reactions = ctx.store.reactions
          .list(repo, subjectOf(ctx, repo))
          .filter((r) => !only || r.content === only)
        return {list: reactions.map((r) => ctx.ser.reactions.reaction(r))}
      },
    ],
    [
      'POST',
      `${path}/reactions`,
      ids[1],
      (ctx) => {
        const repo = repoOf(ctx)
        const subject = subjectOf(ctx, repo)
        const wanted = content(ctx)
        const existed = ctx.store.reactions
          .list(repo, subject)
          .some((r) => r.user === ctx.viewer && r.content === wanted)
        const reaction = ctx.store.reactions.add(repo, subject, ctx.viewer, wanted)
        return {status: existed ? 200 : 201, body: ctx.ser.reactions.reaction(reaction)}
      },
    ],
    [
      'DELETE',
      `${path}/reactions/{reaction_id}`,
      ids[2],
      (ctx) => {
        const repo = repoOf(ctx)
        const subject = subjectOf(ctx, repo)
        const id = num(ctx.params.reaction_id, 'reaction_id')
        const reaction = ctx.store.reactions.list(repo, subject).find((r) => r.id === id)
        if (!reaction) throw notFound()
        ctx.store.reactions.remove(repo, subject, reaction.user, reaction.content)
        return {status: 204}
      },
    ],
  ]
}

export const reactionRoutes: RouteDef[] = [
  ...routesOf(
    '/repos/{owner}/{repo}/issues/{issue_number}',
    ['reactions/list-for-issue', 'reactions/create-for-issue', 'reactions/delete-for-issue'],
    issueSubject,
  ),
  ...routesOf(
    '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    ['reactions/list-for-issue-comment', 'reactions/create-for-issue-comment', 'reactions/delete-for-issue-comment'],
    commentSubject,
  ),
  ...routesOf(
    '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    [
      'reactions/list-for-pull-request-review-comment',
      'reactions/create-for-pull-request-review-comment',
      'reactions/delete-for-pull-request-comment',
    ],
    reviewCommentSubject,
  ),
]
