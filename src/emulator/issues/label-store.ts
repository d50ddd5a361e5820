/**
 * Labels in the store: a repository's own, which issues and pull requests use (GitHub's REST API
 * lists them under issues).
 */
import {alreadyExists, found} from '../core/errors.js'
import type {Label, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'

/** The store's label operations (../store.ts composes the services). */
export class Labels {
  constructor(private readonly core: StoreCore) {}

  create(repo: Repo, name: string, color = 'ededed', description: string | null = null): Label {
    if (Object.keys(repo.labels).some((n) => n.toLowerCase() === name.toLowerCase())) {
      throw alreadyExists('name', 'Label')
    }
    const label: Label = {
      id: this.core.nextId(),
      name,
      color: color.replace(/^#/, ''),
      description,
      created_at: this.core.stamp(),
      updated_at: this.core.stamp(),
    }
    repo.labels[name] = label
    return label
  }

  get(repo: Repo, name: string): Label {
    return found(Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase()))
  }

  update(repo: Repo, name: string, patch: {new_name?: string; color?: string; description?: string | null}): Label {
    const label = this.get(repo, name)
    if (patch.new_name && patch.new_name !== label.name) {
      delete repo.labels[label.name]
      for (const issue of Object.values(repo.issues))
        issue.labels = issue.labels.map((n) => (n === label.name ? patch.new_name! : n))
      label.name = patch.new_name
      repo.labels[label.name] = label
    }
    if (patch.color) label.color = patch.color.replace(/^#/, '')
    if (patch.description !== undefined) label.description = patch.description
    label.updated_at = this.core.stamp()
    return label
  }

  delete(repo: Repo, name: string): void {
    const label = this.get(repo, name)
    delete repo.labels[label.name]
    for (const issue of Object.values(repo.issues)) issue.labels = issue.labels.filter((n) => n !== label.name)
  }

  /** Labels named on an issue that do not exist yet are created, as GitHub does. */
  resolve(repo: Repo, names: string[]): string[] {
    return names.map((name) => {
      const existing = Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase())
      return (existing ?? this.create(repo, name)).name
    })
  }
}
