/**
 * Labels and milestones in the store: a repository's own, which issues and pull requests use
 * (GitHub's REST API lists them under issues).
 */
import {alreadyExists, found} from '../core/errors.js'
import type {Label, Repo} from '../core/state.js'
import {GitStore} from '../repos/git-store.js'

/** The store's label and milestone operations, on git (../store.ts lists the whole chain). */
export class LabelStore extends GitStore {
  createLabel(repo: Repo, name: string, color = 'ededed', description: string | null = null): Label {
    if (Object.keys(repo.labels).some((n) => n.toLowerCase() === name.toLowerCase())) {
      throw alreadyExists('name', 'Label')
    }
    const label: Label = {id: this.nextId(), name, color: color.replace(/^#/, ''), description, created_at: this.stamp(), updated_at: this.stamp()}
    repo.labels[name] = label
    return label
  }

  label(repo: Repo, name: string): Label {
    return found(Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase()))
  }

  updateLabel(repo: Repo, name: string, patch: {new_name?: string; color?: string; description?: string | null}): Label {
    const label = this.label(repo, name)
    if (patch.new_name && patch.new_name !== label.name) {
      delete repo.labels[label.name]
      for (const issue of Object.values(repo.issues)) issue.labels = issue.labels.map((n) => (n === label.name ? patch.new_name! : n))
      label.name = patch.new_name
      repo.labels[label.name] = label
    }
    if (patch.color) label.color = patch.color.replace(/^#/, '')
    if (patch.description !== undefined) label.description = patch.description
    label.updated_at = this.stamp()
    return label
  }

  deleteLabel(repo: Repo, name: string): void {
    const label = this.label(repo, name)
    delete repo.labels[label.name]
    for (const issue of Object.values(repo.issues)) issue.labels = issue.labels.filter((n) => n !== label.name)
  }

  /** Labels named on an issue that do not exist yet are created, as GitHub does. */
  protected resolveLabels(repo: Repo, names: string[]): string[] {
    return names.map((name) => {
      const existing = Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase())
      return (existing ?? this.createLabel(repo, name)).name
    })
  }

  createMilestone(repo: Repo, title: string, creator: string, options: {description?: string; due_on?: string | null} = {}) {
    const milestone = {
      id: this.nextId(),
      number: repo.milestones.length + 1,
      title,
      description: options.description ?? null,
      state: 'open' as const,
      due_on: options.due_on ?? null,
      creator,
      created_at: this.stamp(),
      updated_at: this.stamp(),
      closed_at: null,
    }
    repo.milestones.push(milestone)
    return milestone
  }

  milestone(repo: Repo, number: number) {
    return found(repo.milestones.find((m) => m.number === number))
  }}
