/**
 * Reactions in the store: on issues, pull requests and their comments; a user reacts with each
 * content at most once.
 */
import type {Reaction, Repo} from '../core/state.js'
import {RepoStore} from '../repos/store.js'

/** The store's reaction operations, on repositories (../store.ts lists the whole chain). */
export class ReactionStore extends RepoStore {
  /** Reactions on one subject, oldest first. */
  reactions(repo: Repo, subject: Reaction['subject']): Reaction[] {
    return Object.values(repo.reactions ?? {})
      .filter((r) => r.subject.kind === subject.kind && r.subject.id === subject.id)
      .sort((a, b) => a.id - b.id)
  }

  /** A user reacts with each content at most once: reacting again returns the existing reaction, as GitHub does. */
  addReaction(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction {
    const existing = this.reactions(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) return existing
    const reaction: Reaction = {id: this.nextId(), subject, user, content, created_at: this.stamp()}
    repo.reactions ??= {}
    repo.reactions[reaction.id] = reaction
    return reaction
  }

  /** Removes the user's reaction of this content; null when there was none. */
  removeReaction(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction | null {
    const existing = this.reactions(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) delete repo.reactions![existing.id]
    return existing ?? null
  }

  protected dropReactions(repo: Repo, subject: Reaction['subject']): void {
    for (const reaction of this.reactions(repo, subject)) delete repo.reactions![reaction.id]
  }
}
