/** REST's reactions, and their rollups (GitHub embeds them in issues, comments and review comments). */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Reaction, Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {UserSerializer} from '../users/serialize.js'

/** Reactions and their rollups, on users (../serialize.ts composes the serializers). */
export class ReactionSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
  ) {}

  reaction(reaction: Reaction): Json {
    return {
      id: reaction.id,
      node_id: nodeId('reaction', reaction.id),
      user: this.users.user(reaction.user),
      content: reaction.content,
      created_at: reaction.created_at,
    }
  }

  /** The reaction rollup GitHub embeds in issues and comments. */
  rollup(url: string, repo: Repo, subject: Reaction['subject']): Json {
    const counts: Record<string, number> = {
      '+1': 0,
      '-1': 0,
      laugh: 0,
      confused: 0,
      heart: 0,
      hooray: 0,
      eyes: 0,
      rocket: 0,
    }
    const reactions = this.core.store.reactions.list(repo, subject)
    for (const reaction of reactions) counts[reaction.content]!++
    return {url, total_count: reactions.length, ...counts}
  }
}
