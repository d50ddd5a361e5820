/**
 * Releases in the store: a published release's tag is made at its target's head when it is
 * published; a draft has no tag.
 */
import {alreadyExists, found, invalidField, unprocessable} from '../core/errors.js'
import {isValidRefName} from '../core/git-names.js'
import type {Release, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'

/** A release's tag is a ref (refs/tags/<tag_name>): GitHub's 422 for a name git would not take. */
function checkTagName(tag: unknown): void {
  if (typeof tag !== 'string' || !isValidRefName(`refs/tags/${tag}`)) throw invalidField('tag_name', 'Release')
}

/** The store's release operations (../store.ts composes the services). */
export class Releases {
  constructor(private readonly core: StoreCore) {}

  create(
    repo: Repo,
    author: string,
    fields: {
      tag_name: string
      name?: string | null
      body?: string | null
      draft?: boolean
      prerelease?: boolean
      target_commitish?: string
    },
  ): Release {
    if (!fields.tag_name) throw unprocessable('tag_name is missing', 'tag_name', 'Release')
    checkTagName(fields.tag_name)
    if (Object.values(repo.releases).some((r) => r.tag_name === fields.tag_name))
      throw alreadyExists('tag_name', 'Release')
    const draft = fields.draft ?? false
    const release: Release = {
      id: this.core.nextId(),
      tag_name: fields.tag_name,
      name: fields.name ?? null,
      body: fields.body ?? null,
      draft,
      prerelease: fields.prerelease ?? false,
      target_commitish: fields.target_commitish ?? repo.default_branch,
      author,
      created_at: this.core.stamp(),
      published_at: draft ? null : this.core.stamp(),
      tag_sha: null,
    }
    if (!draft) release.tag_sha = this.commitish(repo, release.target_commitish)
    repo.releases[release.id] = release
    return release
  }

  /** The commit a branch name or a commit SHA names (null when it names neither). */
  private commitish(repo: Repo, ref: string): string | null {
    return repo.branches[ref] ?? repo.commits[ref]?.sha ?? null
  }

  get(repo: Repo, id: number): Release {
    return found(repo.releases[id])
  }

  byTag(repo: Repo, tag: string): Release {
    return found(Object.values(repo.releases).find((r) => r.tag_name === tag))
  }

  update(
    repo: Repo,
    id: number,
    patch: Partial<Pick<Release, 'tag_name' | 'name' | 'body' | 'draft' | 'prerelease' | 'target_commitish'>>,
  ): Release {
    const release = this.get(repo, id)
    // A request's null or empty tag_name too: it would be the name of the release's tag.
    if (patch.tag_name !== undefined) checkTagName(patch.tag_name)
    if (
      patch.tag_name &&
      patch.tag_name !== release.tag_name &&
      Object.values(repo.releases).some((r) => r.tag_name === patch.tag_name)
    ) {
      throw alreadyExists('tag_name', 'Release')
    }
    const wasDraft = release.draft
    Object.assign(release, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)))
    if (wasDraft && !release.draft) {
      release.published_at = this.core.stamp()
      release.tag_sha = this.commitish(repo, release.target_commitish)
    }
    return release
  }

  delete(repo: Repo, id: number): void {
    this.get(repo, id)
    delete repo.releases[id]
  }
}
