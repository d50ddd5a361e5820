/** REST representation of a release. */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Release, Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {UserSerializer} from '../users/serialize.js'

/** Releases, on users (../serialize.ts composes the serializers). */
export class ReleaseSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
  ) {}

  release(repo: Repo, release: Release): Json {
    const api = `${this.core.repoApi(repo)}/releases/${release.id}`
    return {
      url: api,
      html_url: `${this.core.repoHtml(repo)}/releases/tag/${release.tag_name}`,
      assets_url: `${api}/assets`,
      upload_url: `${this.core.links.api.replace('://api.', '://uploads.')}/repos/${repo.owner}/${repo.name}/releases/${release.id}/assets{?name,label}`,
      tarball_url: `${this.core.repoApi(repo)}/tarball/${release.tag_name}`,
      zipball_url: `${this.core.repoApi(repo)}/zipball/${release.tag_name}`,
      id: release.id,
      node_id: nodeId('release', release.id),
      tag_name: release.tag_name,
      target_commitish: release.target_commitish,
      name: release.name,
      body: release.body,
      draft: release.draft,
      prerelease: release.prerelease,
      immutable: false,
      created_at: release.created_at,
      published_at: release.published_at,
      updated_at: release.published_at ?? release.created_at,
      author: this.users.user(release.author),
      assets: [],
    }
  }
}
