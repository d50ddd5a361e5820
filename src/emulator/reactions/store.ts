/**
 * Reactions in the store: on issues, pull requests and their comments; a user reacts with each
 * content at most once.
 */
import type {Reaction, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'

/** The store's reaction operations (../store.ts composes the services). */
export class Reactions {
  constructor(private readonly core: StoreCore) {}

  /** Reactions on one subject, oldest first. */
  list(repo: Repo, subject: Reaction['subject']): Reaction[] {
    return Object.values(repo.reactions ?? {})
      .filter((r) => r.subject.kind === subject.kind && r.subject.id === subject.id)
      .sort((a, b) => a.id - b.id)
  }

  /** A user reacts with each content at most once: reacting again returns the existing reaction, as GitHub does. */
  add(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction {
    const existing = this.list(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) return existing
    const reaction: Reaction = {id: this.core.nextId(), subject, user, content, created_at: this.core.stamp()}
    repo.reactions ??= {}
    repo.reactions[reaction.id] = reaction
    return reaction
  }

  /** Removes the user's reaction of this content; null when there was none. */
  remove(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction | null {
    const existing = this.list(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) delete repo.reactions![existing.id]
    return existing ?? null
  }

  drop(repo: Repo, subject: Reaction['subject']): void {
    for (const reaction of this.list(repo, subject)) delete repo.reactions![reaction.id]
  }
}
