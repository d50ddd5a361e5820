/**
 * The core of the REST representations in GitHub's shapes, which every resource's serializer shares
 * (../serialize.ts composes them over it): the store, and the links of the origin the client used,
 * so that links it follows come back here.
 */
import type {Store} from '../store.js'
import type {Repo} from './state.js'

export interface Links {
  /** REST base the client used, e.g. http://127.0.0.1:4000 or http://api.github.localhost */
  api: string
  /** Web base, e.g. http://github.localhost */
  html: string
}

export type Json = Record<string, unknown>

/** The store, the links, and a repository's API and web URLs. */
export class SerializerCore {
  constructor(
    readonly store: Store,
    readonly links: Links,
  ) {}

  repoApi(repo: Repo): string {
    return `${this.links.api}/repos/${repo.owner}/${repo.name}`
  }

  repoHtml(repo: Repo): string {
    return `${this.links.html}/${repo.owner}/${repo.name}`
  }
}
