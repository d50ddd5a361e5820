/**
 * Projects (v2) in the store: a user's projects with a Title and a single-select Status field,
 * items that are issues or pull requests, and field values set and cleared.
 */
import {createHash} from 'node:crypto'
import {notFound, unprocessable} from '../core/errors.js'
import type {Project, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'
import type {Issues} from '../issues/store.js'

/** The store's project operations, on issues (../store.ts composes the services). */
export class Projects {
  constructor(
    private readonly core: StoreCore,
    private readonly issues: Issues,
  ) {}

  create(owner: string, title: string): Project {
    this.core.ensureUser(owner)
    const number = this.core.state.projects.filter((p) => p.owner === owner).length + 1
    const id = this.core.nextId()
    const project: Project = {
      id: `PVT_kw${Buffer.from(String(id)).toString('base64url')}`,
      number,
      owner,
      title,
      created_at: this.core.stamp(),
      fields: [
        {
          id: `PVTF_kw${Buffer.from(`${id}:title`).toString('base64url')}`,
          name: 'Title',
          data_type: 'TITLE',
          options: [],
        },
        {
          id: `PVTSSF_kw${Buffer.from(`${id}:status`).toString('base64url')}`,
          name: 'Status',
          data_type: 'SINGLE_SELECT',
          options: ['Todo', 'In Progress', 'Done'].map((name) => ({
            id: createHash('sha1').update(`${id}:${name}`).digest('hex').slice(0, 8),
            name,
          })),
        },
      ],
      items: [],
    }
    this.core.state.projects.push(project)
    return project
  }

  get(owner: string, number: number): Project {
    const project = this.core.state.projects.find((p) => p.owner === owner && p.number === number)
    if (!project) throw notFound(`Could not resolve to a ProjectV2 with the number ${number}.`)
    return project
  }

  byId(id: string): Project {
    const project = this.core.state.projects.find((p) => p.id === id)
    if (!project) throw notFound(`Could not resolve to a node with the global id of '${id}'`)
    return project
  }

  delete(id: string): Project {
    const project = this.byId(id)
    this.core.state.projects = this.core.state.projects.filter((p) => p.id !== id)
    return project
  }

  addItem(project: Project, repo: Repo, number: number): string {
    this.issues.get(repo, number)
    const key = `${repo.owner}/${repo.name}`
    const existing = project.items.find((i) => i.content.repo === key && i.content.number === number)
    if (existing) return existing.id
    const id = `PVTI_kw${Buffer.from(String(this.core.nextId())).toString('base64url')}`
    project.items.push({id, content: {repo: key, number}, values: {}, created_at: this.core.stamp()})
    return id
  }

  removeItem(project: Project, itemId: string): void {
    const before = project.items.length
    project.items = project.items.filter((i) => i.id !== itemId)
    if (project.items.length === before) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
  }

  setField(project: Project, itemId: string, fieldId: string, optionId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    const field = project.fields.find((f) => f.id === fieldId)
    if (!field) throw notFound(`Could not resolve to a ProjectV2Field with the id ${fieldId}`)
    if (field.data_type !== 'SINGLE_SELECT' || !field.options.some((o) => o.id === optionId)) {
      throw unprocessable(`The single select option Id does not belong to the field`, 'singleSelectOptionId')
    }
    item.values[fieldId] = optionId
  }

  clearField(project: Project, itemId: string, fieldId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    delete item.values[fieldId]
  }
}
