/** GraphQL's releases. */
import type {Context, Obj} from '../core/graphql-objects.js'
import type {Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'

export function releaseNode(ctx: Context, repo: Repo, release: Repo['releases'][string]): Obj {
  const published = Object.values(repo.releases)
    .filter((r) => !r.draft && !r.prerelease)
    .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)
  return {
    __typename: 'Release',
    id: nodeId('release', release.id),
    databaseId: release.id,
    name: release.name,
    tagName: release.tag_name,
    description: release.body,
    isDraft: release.draft,
    isPrerelease: release.prerelease,
    isLatest: published[0]?.id === release.id,
    createdAt: release.created_at,
    publishedAt: release.published_at,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/releases/tag/${release.tag_name}`,
    author: ctx.nodes.Actor(ctx, release.author),
    // The commit the tag points at; a draft's tag does not exist until it is published.
    tagCommit: () => {
      // State saved before tags were recorded: a published release's tag is where its target points.
      const sha =
        release.tag_sha !== undefined
          ? release.tag_sha
          : release.draft
            ? null
            : (repo.branches[release.target_commitish] ?? repo.commits[release.target_commitish]?.sha ?? null)
      return sha ? ctx.nodes.Commit(ctx, repo, sha) : null
    },
  }
}
