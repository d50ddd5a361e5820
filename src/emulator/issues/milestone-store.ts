/** Milestones in the store: a repository's own, which issues and pull requests are set to. */
import {found} from '../core/errors.js'
import type {Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'

/** The store's milestone operations (../store.ts composes the services). */
export class Milestones {
  constructor(private readonly core: StoreCore) {}

  create(repo: Repo, title: string, creator: string, options: {description?: string; due_on?: string | null} = {}) {
    const milestone = {
      id: this.core.nextId(),
      number: repo.milestones.length + 1,
      title,
      description: options.description ?? null,
      state: 'open' as const,
      due_on: options.due_on ?? null,
      creator,
      created_at: this.core.stamp(),
      updated_at: this.core.stamp(),
      closed_at: null,
    }
    repo.milestones.push(milestone)
    return milestone
  }

  get(repo: Repo, number: number) {
    return found(repo.milestones.find((m) => m.number === number))
  }
}
