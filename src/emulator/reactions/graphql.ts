/** GraphQL's reactions: Reaction, ReactionGroup, the Reactable fields, and adding and removing one. */
import {
  connection,
  input,
  mutationId,
  NotModelled,
  text,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import {locate} from '../core/graphql-nodes.js'
import type {Reaction, Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {Store} from '../store.js'

/** GraphQL's ReactionContent names for the REST names the state keeps. */
const REACTION_CONTENT: Record<string, Reaction['content']> = {
  THUMBS_UP: '+1',
  THUMBS_DOWN: '-1',
  LAUGH: 'laugh',
  CONFUSED: 'confused',
  HEART: 'heart',
  HOORAY: 'hooray',
  EYES: 'eyes',
  ROCKET: 'rocket',
}
const reactionContentName = (content: Reaction['content']): string =>
  Object.keys(REACTION_CONTENT).find((name) => REACTION_CONTENT[name] === content)!

function reactionSubjectNode(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj {
  if (subject.kind === 'issue') return ctx.nodes.Issue(ctx, repo, ctx.store.issues.byId(repo, subject.id))
  if (subject.kind === 'comment') return ctx.nodes.IssueComment(ctx, repo, subject.id)
  return ctx.nodes.PullRequestReviewComment(ctx, repo, ctx.store.reviews.comment(repo, subject.id))
}

function reactionNode(ctx: Context, repo: Repo, reaction: Reaction): Obj {
  return {
    __typename: 'Reaction',
    id: nodeId('reaction', reaction.id),
    databaseId: reaction.id,
    content: reactionContentName(reaction.content),
    createdAt: reaction.created_at,
    user: ctx.nodes.Actor(ctx, reaction.user),
    reactable: () => reactionSubjectNode(ctx, repo, reaction.subject),
  }
}

/** One group per content that has reactions, in GitHub's content order. */
export function reactionGroups(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj[] {
  const reactions = ctx.store.reactions.list(repo, subject)
  return Object.entries(REACTION_CONTENT).flatMap(([name, content]) => {
    const group = reactions.filter((r) => r.content === content)
    if (group.length === 0) return []
    const users = () => group.map((r) => ctx.nodes.Actor(ctx, r.user))
    return [
      {
        __typename: 'ReactionGroup',
        content: name,
        createdAt: group[0]!.created_at,
        reactors: (args: Args) => connection(users(), args),
        users: (args: Args) => connection(users(), args),
        viewerHasReacted: group.some((r) => r.user === ctx.viewer),
        subject: () => reactionSubjectNode(ctx, repo, subject),
      },
    ]
  })
}

/** Reactable.reactions: the subject's reactions (of one content, when asked), and whether the viewer is among them. */
export function reactionConnection(ctx: Context, repo: Repo, subject: Reaction['subject'], args: Args): Obj {
  const content = typeof args.content === 'string' ? REACTION_CONTENT[args.content] : undefined
  const list = ctx.store.reactions.list(repo, subject).filter((r) => !content || r.content === content)
  return {
    ...connection(
      list.map((r) => reactionNode(ctx, repo, r)),
      args,
    ),
    viewerHasReacted: list.some((r) => r.user === ctx.viewer),
  }
}

/** The Reactable fields of an issue, pull request or comment. */
export function reactable(ctx: Context, repo: Repo, subject: Reaction['subject']): Obj {
  return {
    reactionGroups: () => reactionGroups(ctx, repo, subject),
    reactions: (args: Args) => reactionConnection(ctx, repo, subject, args),
    viewerCanReact: true,
  }
}

/** The subject of addReaction / removeReaction. */
function reactionSubject(store: Store, node: unknown): {repo: Repo; subject: Reaction['subject']} {
  const {repo, kind, id} = locate(store, node)
  if (kind === 'issue' || kind === 'pull') return {repo, subject: {kind: 'issue', id}}
  if (kind === 'comment' || kind === 'review_comment') return {repo, subject: {kind, id}}
  throw new NotModelled(
    `ghx-bench sandbox models reactions on issues, pull requests and their comments, not on ${kind}`,
  )
}

/** Mutation's fields on reactions. */
export function reactionMutations(ctx: Context): Obj {
  const {store} = ctx
  return {
    addReaction: (args: Args) => {
      const {repo, subject} = reactionSubject(store, input(args).subjectId)
      const reaction = store.reactions.add(repo, subject, ctx.viewer, REACTION_CONTENT[text(input(args).content)]!)
      return {
        ...mutationId(args),
        reaction: reactionNode(ctx, repo, reaction),
        subject: reactionSubjectNode(ctx, repo, subject),
        reactionGroups: reactionGroups(ctx, repo, subject),
      }
    },
    removeReaction: (args: Args) => {
      const {repo, subject} = reactionSubject(store, input(args).subjectId)
      const reaction = store.reactions.remove(repo, subject, ctx.viewer, REACTION_CONTENT[text(input(args).content)]!)
      return {
        ...mutationId(args),
        reaction: reaction ? reactionNode(ctx, repo, reaction) : null,
        subject: reactionSubjectNode(ctx, repo, subject),
        reactionGroups: reactionGroups(ctx, repo, subject),
      }
    },
  }
}
