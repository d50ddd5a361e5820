/**
 * Projects (v2) in the store: a user's projects with a Title and a single-select Status field,
 * items that are issues or pull requests, and field values set and cleared.
 */
import {createHash} from 'node:crypto'
import {notFound, unprocessable} from '../core/errors.js'
import type {Project, Repo} from '../core/state.js'
import {ReleaseStore} from '../releases/store.js'

/** The store's project operations, on releases (../store.ts lists the whole chain). */
export class ProjectStore extends ReleaseStore {
  createProject(owner: string, title: string): Project {
    this.ensureUser(owner)
    const number = this.state.projects.filter((p) => p.owner === owner).length + 1
    const id = this.nextId()
    const project: Project = {
      id: `PVT_kw${Buffer.from(String(id)).toString('base64url')}`,
      number,
      owner,
      title,
      created_at: this.stamp(),
      fields: [
        {id: `PVTF_kw${Buffer.from(`${id}:title`).toString('base64url')}`, name: 'Title', data_type: 'TITLE', options: []},
        {
          id: `PVTSSF_kw${Buffer.from(`${id}:status`).toString('base64url')}`,
          name: 'Status',
          data_type: 'SINGLE_SELECT',
          options: ['Todo', 'In Progress', 'Done'].map((name) => ({id: createHash('sha1').update(`${id}:${name}`).digest('hex').slice(0, 8), name})),
        },
      ],
      items: [],
    }
    this.state.projects.push(project)
    return project
  }

  project(owner: string, number: number): Project {
    const project = this.state.projects.find((p) => p.owner === owner && p.number === number)
    if (!project) throw notFound(`Could not resolve to a ProjectV2 with the number ${number}.`)
    return project
  }

  projectById(id: string): Project {
    const project = this.state.projects.find((p) => p.id === id)
    if (!project) throw notFound(`Could not resolve to a node with the global id of '${id}'`)
    return project
  }

  deleteProject(id: string): Project {
    const project = this.projectById(id)
    this.state.projects = this.state.projects.filter((p) => p.id !== id)
    return project
  }

  addProjectItem(project: Project, repo: Repo, number: number): string {
    this.issue(repo, number)
    const key = `${repo.owner}/${repo.name}`
    const existing = project.items.find((i) => i.content.repo === key && i.content.number === number)
    if (existing) return existing.id
    const id = `PVTI_kw${Buffer.from(String(this.nextId())).toString('base64url')}`
    project.items.push({id, content: {repo: key, number}, values: {}, created_at: this.stamp()})
    return id
  }

  removeProjectItem(project: Project, itemId: string): void {
    const before = project.items.length
    project.items = project.items.filter((i) => i.id !== itemId)
    if (project.items.length === before) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
  }

  setProjectField(project: Project, itemId: string, fieldId: string, optionId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    const field = project.fields.find((f) => f.id === fieldId)
    if (!field) throw notFound(`Could not resolve to a ProjectV2Field with the id ${fieldId}`)
    if (field.data_type !== 'SINGLE_SELECT' || !field.options.some((o) => o.id === optionId)) {
      throw unprocessable(`The single select option Id does not belong to the field`, 'singleSelectOptionId')
    }
    item.values[fieldId] = optionId
  }

  clearProjectField(project: Project, itemId: string, fieldId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    delete item.values[fieldId]
  }}
