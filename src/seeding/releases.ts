/** The release kind: a draft release of the seed's own tag, reset to its seeded name, notes, tag and target. */
import {repoParams, type FixtureContext} from './context.js'
import type {Snapshot} from './digest.js'
import {fixtureKind, hasFields} from './kind.js'

export interface ReleaseResource {
  id: number
  tag_name: string
  seeded: {
    tag_name: string
    name: string
    body: string
    draft: true
    /** Absent in manifests written before reset restored them. */
    prerelease?: false
    target_commitish?: string
  }
  [extra: string]: unknown
}

export async function seedRelease(ctx: FixtureContext, suffix = ''): Promise<ReleaseResource> {
  const seeded = {
    tag_name: `v0.0.0-bench-${ctx.seedId}${suffix}`,
    name: `Benchmark draft (bench-seed:${ctx.seedId})`,
    body: 'Draft release for ghx-bench scenarios.',
    draft: true as const,
    prerelease: false as const,
  }
  const {data: repository} = await ctx.agent.rest.repos.get(repoParams(ctx))
  const full = {...seeded, target_commitish: repository.default_branch}
  const releases = await ctx.agent.paginate(ctx.agent.rest.repos.listReleases, {...repoParams(ctx), per_page: 100})
  const existing = releases.find((r) => r.tag_name === seeded.tag_name)
  const release = existing ?? (await ctx.agent.rest.repos.createRelease({...repoParams(ctx), ...full})).data
  const resource: ReleaseResource = {id: release.id, tag_name: seeded.tag_name, seeded: full}
  if (existing) await resetRelease(ctx, resource)
  return resource
}

/** Name, notes, tag, target, draft and prerelease back to the seeded values (written only when they differ). */
export async function resetRelease(ctx: FixtureContext, resource: ReleaseResource): Promise<void> {
  const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
  const seeded = resource.seeded
  const differs =
    data.tag_name !== seeded.tag_name ||
    data.name !== seeded.name ||
    (data.body ?? '') !== seeded.body ||
    data.draft !== seeded.draft ||
    data.prerelease !== (seeded.prerelease ?? false) ||
    (seeded.target_commitish !== undefined && data.target_commitish !== seeded.target_commitish)
  if (differs)
    await ctx.agent.rest.repos.updateRelease({
      ...repoParams(ctx),
      release_id: resource.id,
      ...seeded,
      prerelease: seeded.prerelease ?? false,
    })
}

async function snapshotRelease(ctx: FixtureContext, resource: ReleaseResource): Promise<Snapshot> {
  const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
  return {
    tag_name: data.tag_name,
    name: data.name ?? null,
    body: data.body ?? '',
    draft: data.draft,
    prerelease: data.prerelease,
    target_commitish: data.target_commitish,
  }
}

export async function releaseStatus(ctx: FixtureContext, resource: ReleaseResource): Promise<string[]> {
  try {
    const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
    const problems: string[] = []
    if (!data.draft) problems.push('published (seeded as a draft)')
    if (data.name !== resource.seeded.name) problems.push(`name is "${data.name}", seeded "${resource.seeded.name}"`)
    if ((data.body ?? '') !== resource.seeded.body) problems.push('notes differ from the seeded notes')
    return problems
  } catch (error) {
    return [`release ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

export const releaseKind = fixtureKind('release', {
  is: (resource): resource is ReleaseResource => hasFields(resource, {id: 'number', tag_name: 'string'}),
  seed: (ctx, {suffix}) => seedRelease(ctx, suffix),
  reset: (ctx, resource) => resetRelease(ctx, resource),
  snapshot: snapshotRelease,
  status: releaseStatus,
  statusFields: ['draft', 'name', 'body'],
  label: (resource) => `release ${String(resource.tag_name)}`,
})
