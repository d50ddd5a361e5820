/**
 * REST routes of releases: list, create, latest, by tag (a draft has no tag yet: 404), get, update
 * (publishing a draft makes its tag), delete.
 */
import {notFound} from '../core/errors.js'
import {num, repoOf, str, type RouteDef} from '../core/rest-support.js'

export const releaseRoutes: RouteDef[] = [
  [
    'GET',
    '/repos/{owner}/{repo}/releases',
    'repos/list-releases',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: Object.values(repo.releases)
          .sort((a, b) => b.id - a.id)
          .map((r) => ctx.ser.releases.release(repo, r)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/releases',
    'repos/create-release',
    (ctx) => {
      const repo = repoOf(ctx)
      const release = ctx.store.releases.create(repo, ctx.viewer, {
        tag_name: str(ctx.body, 'tag_name') ?? '',
        name: str(ctx.body, 'name') ?? null,
        body: str(ctx.body, 'body') ?? null,
        draft: ctx.body.draft === true,
        prerelease: ctx.body.prerelease === true,
        target_commitish: str(ctx.body, 'target_commitish'),
      })
      return {status: 201, body: ctx.ser.releases.release(repo, release)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/releases/latest',
    'repos/get-latest-release',
    (ctx) => {
      const repo = repoOf(ctx)
      const latest = Object.values(repo.releases)
        .filter((r) => !r.draft && !r.prerelease)
        .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)[0]
      if (!latest) throw notFound()
      return {body: ctx.ser.releases.release(repo, latest)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/releases/tags/{tag}',
    'repos/get-release-by-tag',
    (ctx) => {
      const repo = repoOf(ctx)
      // A draft has no tag yet: GitHub does not find it by tag name (404), only in the list.
      const release = ctx.store.releases.byTag(repo, ctx.params.tag!)
      if (release.draft) throw notFound()
      return {body: ctx.ser.releases.release(repo, release)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/releases/{release_id}',
    'repos/get-release',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        body: ctx.ser.releases.release(repo, ctx.store.releases.get(repo, num(ctx.params.release_id, 'release_id'))),
      }
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/releases/{release_id}',
    'repos/update-release',
    (ctx) => {
      const repo = repoOf(ctx)
      const patch: Record<string, unknown> = {}
      for (const key of ['tag_name', 'name', 'body', 'target_commitish'] as const)
        if (key in ctx.body) patch[key] = str(ctx.body, key) ?? null
      for (const key of ['draft', 'prerelease'] as const)
        if (typeof ctx.body[key] === 'boolean') patch[key] = ctx.body[key]
      return {
        body: ctx.ser.releases.release(
          repo,
          ctx.store.releases.update(repo, num(ctx.params.release_id, 'release_id'), patch),
        ),
      }
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/releases/{release_id}',
    'repos/delete-release',
    (ctx) => {
      ctx.store.releases.delete(repoOf(ctx), num(ctx.params.release_id, 'release_id'))
      return {status: 204}
    },
  ],
]
