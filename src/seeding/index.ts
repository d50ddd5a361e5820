/**
 * Fixtures as a whole: seed the kinds scenarios require into a manifest (with each resource's state
 * digest), check them, reset them between iterations (or seed fresh ones where GitHub cannot undo a
 * change) and verify a reset against the seeded digests, and clean up.
 */
import type {FixtureKind} from '../schemas/scenario.js'
import {repoParams, seedLabel, FIXTURE_LABEL, type FixtureContext} from './context.js'
import {diffSnapshots, stateDigest, type Snapshot, type StateDigest} from './digest.js'
import type {Resource, Resources, SeedOptions} from './kind.js'
import {FIXTURE_KINDS, withDependencies} from './kinds.js'
import type {Manifest} from './manifest.js'

export type {SeedOptions} from './kind.js'
export {ALL_KINDS, withDependencies} from './kinds.js'

function seedOne(
  ctx: FixtureContext,
  kind: FixtureKind,
  resources: Resources,
  options: SeedOptions,
): Promise<Resource> {
  return FIXTURE_KINDS[kind].seed(ctx, {
    suffix: options.suffix ?? '',
    workflowPollMs: options.workflowPollMs,
    resources,
  })
}

/** Seeds (or finds again: seeding is idempotent) every requested kind and its dependencies. */
export async function seedFixtures(
  ctx: FixtureContext,
  kinds: Iterable<FixtureKind>,
  options: SeedOptions,
  existing?: Manifest,
): Promise<Manifest> {
  const resources: Resources = {...(existing?.resources ?? {})}
  const seeded = withDependencies(kinds)
  for (const kind of seeded) resources[kind] = await seedOne(ctx, kind, resources, options)
  // Read back once everything is seeded: seeding a later kind may reset an earlier one's issue (issue_with_branch reuses it).
  for (const kind of seeded)
    resources[kind] = {...resources[kind]!, digest: stateDigest(await snapshotFixture(ctx, kind, resources[kind]!))}
  return {
    version: 1,
    seed_id: ctx.seedId,
    generated_at: new Date().toISOString(),
    repo: {
      owner: ctx.owner,
      name: ctx.name,
      full_name: `${ctx.owner}/${ctx.name}`,
      default_branch: options.defaultBranch,
    },
    actors: {agent: options.agentLogin, reviewer: options.reviewerLogin},
    resources,
  }
}

/**
 * Per kind, what differs from the seeded state (an empty list: as seeded): the kind's own checks, and
 * what else the seeded digest shows (sub-issues, dependencies, reactions, ...), when one is recorded.
 */
export async function fixturesStatus(
  ctx: FixtureContext,
  manifest: Manifest,
): Promise<Array<{kind: string; problems: string[]}>> {
  const out: Array<{kind: string; problems: string[]}> = []
  for (const [kind, resource] of Object.entries(manifest.resources)) {
    const entry = FIXTURE_KINDS[kind as FixtureKind]
    const problems = await entry.status(ctx, resource)
    if (resource.digest && !problems.some((p) => / cannot be read: /.test(p))) {
      const covered = new Set(entry.statusFields)
      const leaks = await leaksOf(ctx, kind as FixtureKind, resource).catch((error: Error) => [
        `${entry.label(resource)} cannot be read: ${error.message}`,
      ])
      problems.push(...leaks.filter((leak) => !covered.has(leakField(leak))))
    }
    out.push({kind, problems})
  }
  return out
}

/** The snapshot field a leak line is about: `issue #3: labels [...] (seeded ...)` -> labels. */
function leakField(leak: string): string {
  return /^[^:]+: ([A-Za-z_]+)/.exec(leak)?.[1] ?? ''
}

/**
 * Restores the given kinds. A workflow run cannot be un-rerun, so it is replaced by a fresh one; a
 * project whose seeded issue was removed gets it back as a new item. A replaced resource keeps the
 * seeded digest: the fresh one must read the same.
 *
 * An interruption (Ctrl-C, a kill) must leave a manifest that names resources in their seeded state:
 * `replaced` hears the manifest each time a resource is replaced, for the caller to write it down, and
 * a replaced workflow run is cancelled only after that, so whichever manifest is on disk names a run
 * that still reads as seeded (the old one until the fresh one is recorded).
 */
export async function resetFixtures(
  ctx: FixtureContext,
  manifest: Manifest,
  kinds: Iterable<FixtureKind>,
  options: SeedOptions,
  replaced: (manifest: Manifest) => Promise<void> = async () => {},
): Promise<Manifest> {
  const resources: Resources = {...manifest.resources}
  for (const kind of kinds) {
    const resource = resources[kind]
    if (!resource) continue
    const replace = async (fresh: Resource) => {
      resources[kind] = {...fresh, ...(resource.digest ? {digest: resource.digest} : {})}
      await replaced({...manifest, resources: {...resources}})
    }
    await FIXTURE_KINDS[kind].reset(
      ctx,
      resource,
      {suffix: '', workflowPollMs: options.workflowPollMs, resources},
      replace,
    )
  }
  return {...manifest, resources}
}

// ---- state digests ---------------------------------------------------------------------------------

/** Reads a resource's normalized state (what its digest is taken of). */
export function snapshotFixture(ctx: FixtureContext, kind: FixtureKind, resource: Resource): Promise<Snapshot> {
  return FIXTURE_KINDS[kind].snapshot(ctx, resource)
}

/** What differs from the seeded digest, as readable paths (empty: as seeded). */
async function leaksOf(ctx: FixtureContext, kind: FixtureKind, resource: Resource): Promise<string[]> {
  const recorded = resource.digest as StateDigest | undefined
  const label = FIXTURE_KINDS[kind].label(resource)
  if (!recorded) return [`${label}: no seeded digest recorded (seed the fixtures again: ghx-bench fixtures seed)`]
  const current = stateDigest(await snapshotFixture(ctx, kind, resource))
  if (current.sha256 === recorded.sha256) return []
  const diffs = diffSnapshots(label, recorded.snapshot, current.snapshot)
  // Equal snapshots with another hash: a snapshot recorded by another version of the normalization.
  return diffs.length > 0
    ? diffs
    : [`${label}: state digest ${current.sha256.slice(0, 12)}, seeded ${recorded.sha256.slice(0, 12)}`]
}

export interface FixtureVerification {
  kind: FixtureKind
  /** What leaked: `issue #12: sub_issues [#40] (seeded [])`. Empty when the resource reads as seeded. */
  leaks: string[]
}

/**
 * Reads each kind's resource again and compares it with its seeded digest. A resource with no
 * recorded digest is reported too: a check that cannot fail is no check.
 */
export async function verifyFixtures(
  ctx: FixtureContext,
  manifest: Manifest,
  kinds: Iterable<FixtureKind>,
): Promise<FixtureVerification[]> {
  const out: FixtureVerification[] = []
  for (const kind of new Set(kinds)) {
    const resource = manifest.resources[kind]
    if (resource) out.push({kind, leaks: await leaksOf(ctx, kind, resource)})
  }
  return out
}

/** The error a failed verification raises: its message names what leaked. */
export class FixtureLeakError extends Error {
  constructor(readonly leaks: string[]) {
    super(`fixture state not restored by reset: ${leaks.join('; ')}`)
    this.name = 'FixtureLeakError'
  }
}

/** Throws FixtureLeakError when any of the kinds does not read as seeded. */
export async function assertFixturesAsSeeded(
  ctx: FixtureContext,
  manifest: Manifest,
  kinds: Iterable<FixtureKind>,
): Promise<void> {
  const leaks = (await verifyFixtures(ctx, manifest, kinds)).flatMap((v) => v.leaks)
  if (leaks.length > 0) throw new FixtureLeakError(leaks)
}

/** Fresh resources for one iteration (seed_per_iteration): for what GitHub cannot undo. */
export async function seedForIteration(
  ctx: FixtureContext,
  manifest: Manifest,
  kinds: Iterable<FixtureKind>,
  options: SeedOptions,
): Promise<Manifest> {
  const resources: Resources = {...manifest.resources}
  for (const kind of withDependencies(kinds)) resources[kind] = await seedOne(ctx, kind, resources, options)
  return {...manifest, resources}
}

export interface CleanupReport {
  issues_closed: number
  pulls_closed: number
  branches_deleted: number
  labels_deleted: number
  releases_deleted: number
  projects_deleted: number
}

/**
 * Removes what seeding created: with a seed id, that seeding's resources; with `all`, every
 * leftover of any seeding (crashed runs included), found by the labels, branch names, tags and
 * project titles seeding uses. Issues cannot be deleted through the API, so they are closed.
 */
export async function cleanupFixtures(ctx: FixtureContext, scope: {all: boolean}): Promise<CleanupReport> {
  const report: CleanupReport = {
    issues_closed: 0,
    pulls_closed: 0,
    branches_deleted: 0,
    labels_deleted: 0,
    releases_deleted: 0,
    projects_deleted: 0,
  }
  for (const step of [closeLabelled, deleteBranches, deleteReleases, deleteProjects, deleteSeedLabels])
    await step(ctx, scope, report)
  return report
}

type CleanupStep = (ctx: FixtureContext, scope: {all: boolean}, report: CleanupReport) => Promise<void>

/** Whether a name's seed part (what follows "-seed-", "v0.0.0-bench-" or "bench-seed:") is this seeding's: its id, or its id and a suffix. */
const ofSeed = (text: string, seedId: string): boolean => text === seedId || text.startsWith(`${seedId}-`)

/** Issues and pull requests that carry seeding's label are closed: the API cannot delete issues. */
const closeLabelled: CleanupStep = async (ctx, scope, report) => {
  const repo = repoParams(ctx)
  const marker = scope.all ? FIXTURE_LABEL.name : seedLabel(ctx.seedId).name
  const open = await ctx.agent.paginate(ctx.agent.rest.issues.listForRepo, {
    ...repo,
    state: 'open',
    labels: marker,
    per_page: 100,
  })
  for (const item of open) {
    await ctx.agent.rest.issues.update({
      ...repo,
      issue_number: item.number,
      state: 'closed',
      state_reason: item.pull_request ? undefined : 'not_planned',
    })
    if (item.pull_request) report.pulls_closed++
    else report.issues_closed++
  }
}

/** Seeded branches (bench-…-seed-<id>) are deleted, their open pull requests closed first. */
const deleteBranches: CleanupStep = async (ctx, scope, report) => {
  const repo = repoParams(ctx)
  for (const name of await seededBranches(ctx)) {
    if (!scope.all && !ofSeed(name.slice(name.indexOf(SEED_IN_BRANCH) + SEED_IN_BRANCH.length), ctx.seedId)) continue
    for (const pull of await ctx.agent.paginate(ctx.agent.rest.pulls.list, {
      ...repo,
      state: 'open',
      head: `${ctx.owner}:${name}`,
      per_page: 100,
    })) {
      await ctx.agent.rest.pulls.update({...repo, pull_number: pull.number, state: 'closed'})
      report.pulls_closed++
    }
    await ctx.agent.rest.git.deleteRef({...repo, ref: `heads/${name}`})
    report.branches_deleted++
  }
}

const SEED_IN_BRANCH = '-seed-'
const RELEASE_TAG = 'v0.0.0-bench-'
const SEED_LABEL = 'bench-seed:'
const PROJECT_TITLE = 'GHX Bench Fixtures'

/** The branches seeding made: bench-…-seed-<id>[suffix]. */
async function seededBranches(ctx: FixtureContext): Promise<string[]> {
  const refs = await ctx.agent.paginate(ctx.agent.rest.git.listMatchingRefs, {
    ...repoParams(ctx),
    ref: 'heads/bench-',
    per_page: 100,
  })
  return refs.map((ref) => ref.ref.replace('refs/heads/', '')).filter((name) => name.includes(SEED_IN_BRANCH))
}

const deleteReleases: CleanupStep = async (ctx, scope, report) => {
  const repo = repoParams(ctx)
  const releases = await ctx.agent.paginate(ctx.agent.rest.repos.listReleases, {...repo, per_page: 100})
  for (const release of releases) {
    const tag = release.tag_name
    if (tag.startsWith(RELEASE_TAG) && (scope.all || ofSeed(tag.slice(RELEASE_TAG.length), ctx.seedId))) {
      await ctx.agent.rest.repos.deleteRelease({...repo, release_id: release.id})
      report.releases_deleted++
    }
  }
}

/** The viewer's projects (seeding makes one per seeding: "GHX Bench Fixtures (bench-seed:<id>)"). */
async function viewerProjects(ctx: FixtureContext): Promise<Array<{id: string; title: string}>> {
  const viewer = (await ctx.agent.graphql<{viewer: {login: string}}>('{ viewer { login } }')).viewer.login
  const projects = await ctx.agent.graphql<{user: {projectsV2: {nodes: Array<{id: string; title: string}>}}}>(
    'query($l: String!) { user(login: $l) { projectsV2(first: 100) { nodes { id title } } } }',
    {l: viewer},
  )
  return projects.user.projectsV2.nodes
}

const deleteProjects: CleanupStep = async (ctx, scope, report) => {
  const title = `${PROJECT_TITLE} (${SEED_LABEL}${ctx.seedId})`
  for (const project of await viewerProjects(ctx)) {
    if (scope.all ? project.title.startsWith(PROJECT_TITLE) : project.title === title) {
      await ctx.agent.graphql('mutation($id: ID!) { deleteProjectV2(input: {projectId: $id}) { projectV2 { id } } }', {
        id: project.id,
      })
      report.projects_deleted++
    }
  }
}

const deleteSeedLabels: CleanupStep = async (ctx, scope, report) => {
  const repo = repoParams(ctx)
  const labels = await ctx.agent.paginate(ctx.agent.rest.issues.listLabelsForRepo, {...repo, per_page: 100})
  for (const label of labels) {
    if (scope.all ? label.name.startsWith(SEED_LABEL) : label.name === seedLabel(ctx.seedId).name) {
      await ctx.agent.rest.issues.deleteLabel({...repo, name: label.name})
      report.labels_deleted++
    }
  }
}

/**
 * The seedings whose seed id `pattern` matches (at the start of a name's seed part), found by whatever
 * seeding left: seed labels, seeded branches, release tags, project titles. A seeding cut short before
 * its label was made is still found by what it did make.
 */
export async function findSeedings(ctx: FixtureContext, pattern: RegExp): Promise<string[]> {
  const labels = await ctx.agent.paginate(ctx.agent.rest.issues.listLabelsForRepo, {...repoParams(ctx), per_page: 100})
  const releases = await ctx.agent.paginate(ctx.agent.rest.repos.listReleases, {...repoParams(ctx), per_page: 100})
  const parts = [
    ...labels
      .map((l) => l.name)
      .filter((name) => name.startsWith(SEED_LABEL))
      .map((name) => name.slice(SEED_LABEL.length)),
    ...(await seededBranches(ctx)).map((name) => name.slice(name.indexOf(SEED_IN_BRANCH) + SEED_IN_BRANCH.length)),
    ...releases
      .map((r) => r.tag_name)
      .filter((tag) => tag.startsWith(RELEASE_TAG))
      .map((tag) => tag.slice(RELEASE_TAG.length)),
    ...(await viewerProjects(ctx))
      .map((p) => /^GHX Bench Fixtures \(bench-seed:(.+)\)$/.exec(p.title)?.[1])
      .filter((id): id is string => id !== undefined),
  ]
  const found = new Set<string>()
  for (const part of parts) {
    const match = pattern.exec(part)
    if (match?.index === 0) found.add(match[0])
  }
  return [...found].sort()
}
