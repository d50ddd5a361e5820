/**
 * Fixtures as a whole: seed the kinds scenarios require into a manifest (with each resource's state
 * digest), check them, reset them between iterations (or seed fresh ones where GitHub cannot undo a
 * change) and verify a reset against the seeded digests, and clean up.
 */
import type {FixtureKind} from '../schemas/scenario.js'
import {repoParams, seedLabel, FIXTURE_LABEL, type FixtureContext} from './context.js'
import {diffSnapshots, stateDigest, type Snapshot, type StateDigest} from './digest.js'
import {ISSUE_STATUS_FIELDS, issueStatus, resetIssue, seedIssue, snapshotIssue, type IssueResource} from './issues.js'
import type {Manifest} from './manifest.js'
import {
  ISSUE_WITH_BRANCH_STATUS_FIELDS,
  issueWithBranchStatus,
  PROJECT_STATUS_FIELDS,
  projectStatus,
  RELEASE_STATUS_FIELDS,
  releaseStatus,
  resetIssueWithBranch,
  resetProject,
  resetRelease,
  seedIssueWithBranch,
  seedProject,
  seedRelease,
  cancelIfRunning,
  seedWorkflowRun,
  snapshotIssueWithBranch,
  snapshotProject,
  snapshotRelease,
  snapshotWorkflowRun,
  WORKFLOW_RUN_STATUS_FIELDS,
  workflowRunStatus,
  type IssueWithBranchResource,
  type ProjectResource,
  type ReleaseResource,
  type WorkflowRunResource,
} from './others.js'
import {PULL_STATUS_FIELDS, pullStatus, resetPull, seedPull, snapshotPull, type PullKindName, type PullResource} from './pulls.js'

export type Resources = Manifest['resources']
type Resource = Resources[string]

const ISSUE_KINDS = ['issue', 'issue_for_triage', 'issue_bug_to_close', 'issue_closed'] as const
const PULL_KINDS: readonly PullKindName[] = ['pr', 'pr_with_bugs', 'pr_with_changes', 'pr_with_reviews', 'pr_with_mixed_threads']

/** Kinds another kind needs seeded first. */
export const DEPENDENCIES: Partial<Record<FixtureKind, FixtureKind[]>> = {project: ['issue']}

/** Every kind, dependencies first. */
export const ALL_KINDS: FixtureKind[] = ['issue', 'issue_for_triage', 'issue_bug_to_close', 'issue_closed', 'issue_with_branch', ...PULL_KINDS, 'workflow_run', 'workflow_run_in_progress', 'release', 'project']

export function withDependencies(kinds: Iterable<FixtureKind>): FixtureKind[] {
  const wanted = new Set<FixtureKind>()
  const add = (kind: FixtureKind) => {
    for (const dependency of DEPENDENCIES[kind] ?? []) add(dependency)
    wanted.add(kind)
  }
  for (const kind of kinds) add(kind)
  return ALL_KINDS.filter((kind) => wanted.has(kind))
}

export interface SeedOptions {
  agentLogin: string
  reviewerLogin: string
  defaultBranch: string
  /** Suffix for per-iteration resources (seed_per_iteration). */
  suffix?: string
  workflowPollMs?: number
}

async function seedOne(ctx: FixtureContext, kind: FixtureKind, resources: Resources, options: SeedOptions): Promise<Resource> {
  const suffix = options.suffix ?? ''
  if ((ISSUE_KINDS as readonly string[]).includes(kind)) return (await seedIssue({...ctx, seedId: ctx.seedId + suffix}, kind as (typeof ISSUE_KINDS)[number])) as unknown as Resource
  if ((PULL_KINDS as readonly string[]).includes(kind)) return await seedPull(ctx, kind as PullKindName, suffix)
  switch (kind) {
    case 'issue_with_branch':
      return (await seedIssueWithBranch(ctx, suffix)) as unknown as Resource
    case 'workflow_run':
    case 'workflow_run_in_progress':
      return (await seedWorkflowRun(ctx, {kind, pollMs: options.workflowPollMs})) as unknown as Resource
    case 'release':
      return (await seedRelease(ctx, suffix)) as unknown as Resource
    case 'project':
      return (await seedProject(ctx, resources.issue as unknown as IssueResource)) as unknown as Resource
    default:
      throw new Error(`no fixture kind "${kind}"`)
  }
}

/** Seeds (or finds again: seeding is idempotent) every requested kind and its dependencies. */
export async function seedFixtures(ctx: FixtureContext, kinds: Iterable<FixtureKind>, options: SeedOptions, existing?: Manifest): Promise<Manifest> {
  const resources: Resources = {...(existing?.resources ?? {})}
  const seeded = withDependencies(kinds)
  for (const kind of seeded) resources[kind] = await seedOne(ctx, kind, resources, options)
  // Read back once everything is seeded: seeding a later kind may reset an earlier one's issue (issue_with_branch reuses it).
  for (const kind of seeded) resources[kind] = {...resources[kind]!, digest: stateDigest(await snapshotFixture(ctx, kind, resources[kind]!))}
  return {
    version: 1,
    seed_id: ctx.seedId,
    generated_at: new Date().toISOString(),
    repo: {owner: ctx.owner, name: ctx.name, full_name: `${ctx.owner}/${ctx.name}`, default_branch: options.defaultBranch},
    actors: {agent: options.agentLogin, reviewer: options.reviewerLogin},
    resources,
  }
}

/**
 * Per kind, what differs from the seeded state (an empty list: as seeded): the kind's own checks, and
 * what else the seeded digest shows (sub-issues, dependencies, reactions, ...), when one is recorded.
 */
export async function fixturesStatus(ctx: FixtureContext, manifest: Manifest): Promise<Array<{kind: string; problems: string[]}>> {
  const out: Array<{kind: string; problems: string[]}> = []
  for (const [kind, resource] of Object.entries(manifest.resources)) {
    const problems = await statusOf(ctx, kind as FixtureKind, resource)
    if (resource.digest && !problems.some((p) => / cannot be read: /.test(p))) {
      const covered = new Set(statusFields(kind as FixtureKind))
      const leaks = await leaksOf(ctx, kind as FixtureKind, resource).catch((error: Error) => [`${resourceLabel(kind as FixtureKind, resource)} cannot be read: ${error.message}`])
      problems.push(...leaks.filter((leak) => !covered.has(leakField(leak))))
    }
    out.push({kind, problems})
  }
  return out
}

function statusFields(kind: FixtureKind): string[] {
  if ((ISSUE_KINDS as readonly string[]).includes(kind)) return ISSUE_STATUS_FIELDS
  if ((PULL_KINDS as readonly string[]).includes(kind)) return PULL_STATUS_FIELDS
  return {issue_with_branch: ISSUE_WITH_BRANCH_STATUS_FIELDS, workflow_run: WORKFLOW_RUN_STATUS_FIELDS, workflow_run_in_progress: WORKFLOW_RUN_STATUS_FIELDS, release: RELEASE_STATUS_FIELDS, project: PROJECT_STATUS_FIELDS}[kind as string] ?? []
}

/** The snapshot field a leak line is about: `issue #3: labels [...] (seeded ...)` -> labels. */
function leakField(leak: string): string {
  return /^[^:]+: ([A-Za-z_]+)/.exec(leak)?.[1] ?? ''
}

function statusOf(ctx: FixtureContext, kind: FixtureKind, resource: Resource): Promise<string[]> {
  if ((ISSUE_KINDS as readonly string[]).includes(kind)) return issueStatus(ctx, resource as unknown as IssueResource)
  if ((PULL_KINDS as readonly string[]).includes(kind)) return pullStatus(ctx, resource as unknown as PullResource)
  switch (kind) {
    case 'issue_with_branch':
      return issueWithBranchStatus(ctx, resource as unknown as IssueWithBranchResource)
    case 'workflow_run':
    case 'workflow_run_in_progress':
      return workflowRunStatus(ctx, resource as unknown as WorkflowRunResource)
    case 'release':
      return releaseStatus(ctx, resource as unknown as ReleaseResource)
    default:
      return projectStatus(ctx, resource as unknown as ProjectResource)
  }
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
export async function resetFixtures(ctx: FixtureContext, manifest: Manifest, kinds: Iterable<FixtureKind>, options: SeedOptions, replaced: (manifest: Manifest) => Promise<void> = async () => {}): Promise<Manifest> {
  const resources: Resources = {...manifest.resources}
  for (const kind of kinds) {
    const resource = resources[kind]
    if (!resource) continue
    if ((ISSUE_KINDS as readonly string[]).includes(kind)) await resetIssue(ctx, resource as unknown as IssueResource)
    else if ((PULL_KINDS as readonly string[]).includes(kind)) await resetPull(ctx, resource as unknown as PullResource)
    else if (kind === 'issue_with_branch') await resetIssueWithBranch(ctx, resource as unknown as IssueWithBranchResource)
    else if (kind === 'workflow_run' || kind === 'workflow_run_in_progress') {
      const old = resource as unknown as WorkflowRunResource
      const fresh = await seedWorkflowRun(ctx, {kind, pollMs: options.workflowPollMs, replacing: old.id})
      resources[kind] = {...(fresh as unknown as Resource), ...(resource.digest ? {digest: resource.digest} : {})}
      await replaced({...manifest, resources: {...resources}})
      await cancelIfRunning(ctx, old)
    } else if (kind === 'release') await resetRelease(ctx, resource as unknown as ReleaseResource)
    else {
      resources[kind] = {...resource, ...(await resetProject(ctx, resource as unknown as ProjectResource))}
      await replaced({...manifest, resources: {...resources}})
    }
  }
  return {...manifest, resources}
}

// ---- state digests ---------------------------------------------------------------------------------

/** Reads a resource's normalized state (what its digest is taken of). */
export function snapshotFixture(ctx: FixtureContext, kind: FixtureKind, resource: Resource): Promise<Snapshot> {
  if ((ISSUE_KINDS as readonly string[]).includes(kind)) return snapshotIssue(ctx, resource as unknown as IssueResource)
  if ((PULL_KINDS as readonly string[]).includes(kind)) return snapshotPull(ctx, resource as unknown as PullResource)
  switch (kind) {
    case 'issue_with_branch':
      return snapshotIssueWithBranch(ctx, resource as unknown as IssueWithBranchResource)
    case 'workflow_run':
    case 'workflow_run_in_progress':
      return snapshotWorkflowRun(ctx, resource as unknown as WorkflowRunResource)
    case 'release':
      return snapshotRelease(ctx, resource as unknown as ReleaseResource)
    case 'project':
      return snapshotProject(ctx, resource as unknown as ProjectResource)
    default:
      throw new Error(`no fixture kind "${kind}"`)
  }
}

/** How a leak names the resource: `issue #12`, `pull request #7`, `release v0.0.0-bench-x`, ... */
export function resourceLabel(kind: FixtureKind, resource: Resource): string {
  const r = resource as Record<string, unknown>
  if ((ISSUE_KINDS as readonly string[]).includes(kind) || kind === 'issue_with_branch') return `issue #${String(r.number)}`
  if ((PULL_KINDS as readonly string[]).includes(kind)) return `pull request #${String(r.number)}`
  if (kind === 'workflow_run' || kind === 'workflow_run_in_progress') return `workflow run ${String(r.id)}`
  if (kind === 'release') return `release ${String(r.tag_name)}`
  return `project #${String(r.number)}`
}

/** What differs from the seeded digest, as readable paths (empty: as seeded). */
async function leaksOf(ctx: FixtureContext, kind: FixtureKind, resource: Resource): Promise<string[]> {
  const recorded = resource.digest as StateDigest | undefined
  if (!recorded) return [`${resourceLabel(kind, resource)}: no seeded digest recorded (seed the fixtures again: ghx-bench fixtures seed)`]
  const current = stateDigest(await snapshotFixture(ctx, kind, resource))
  if (current.sha256 === recorded.sha256) return []
  const diffs = diffSnapshots(resourceLabel(kind, resource), recorded.snapshot, current.snapshot)
  // Equal snapshots with another hash: a snapshot recorded by another version of the normalization.
  return diffs.length > 0 ? diffs : [`${resourceLabel(kind, resource)}: state digest ${current.sha256.slice(0, 12)}, seeded ${recorded.sha256.slice(0, 12)}`]
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
export async function verifyFixtures(ctx: FixtureContext, manifest: Manifest, kinds: Iterable<FixtureKind>): Promise<FixtureVerification[]> {
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
export async function assertFixturesAsSeeded(ctx: FixtureContext, manifest: Manifest, kinds: Iterable<FixtureKind>): Promise<void> {
  const leaks = (await verifyFixtures(ctx, manifest, kinds)).flatMap((v) => v.leaks)
  if (leaks.length > 0) throw new FixtureLeakError(leaks)
}

/** Fresh resources for one iteration (seed_per_iteration): for what GitHub cannot undo. */
export async function seedForIteration(ctx: FixtureContext, manifest: Manifest, kinds: Iterable<FixtureKind>, options: SeedOptions): Promise<Manifest> {
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
  const repo = repoParams(ctx)
  const report: CleanupReport = {issues_closed: 0, pulls_closed: 0, branches_deleted: 0, labels_deleted: 0, releases_deleted: 0, projects_deleted: 0}
  const marker = scope.all ? FIXTURE_LABEL.name : seedLabel(ctx.seedId).name
  const open = await ctx.agent.paginate(ctx.agent.rest.issues.listForRepo, {...repo, state: 'open', labels: marker, per_page: 100})
  for (const item of open) {
    await ctx.agent.rest.issues.update({...repo, issue_number: item.number, state: 'closed', state_reason: item.pull_request ? undefined : 'not_planned'})
    if (item.pull_request) report.pulls_closed++
    else report.issues_closed++
  }
  const seedTag = scope.all ? /-seed-/ : new RegExp(`-seed-${ctx.seedId}(?:$|-)`)
  const branches = await ctx.agent.paginate(ctx.agent.rest.git.listMatchingRefs, {...repo, ref: 'heads/bench-', per_page: 100})
  for (const ref of branches) {
    const name = ref.ref.replace('refs/heads/', '')
    if (!seedTag.test(name)) continue
    for (const pull of await ctx.agent.paginate(ctx.agent.rest.pulls.list, {...repo, state: 'open', head: `${ctx.owner}:${name}`, per_page: 100})) {
      await ctx.agent.rest.pulls.update({...repo, pull_number: pull.number, state: 'closed'})
      report.pulls_closed++
    }
    await ctx.agent.rest.git.deleteRef({...repo, ref: `heads/${name}`})
    report.branches_deleted++
  }
  const releases = await ctx.agent.paginate(ctx.agent.rest.repos.listReleases, {...repo, per_page: 100})
  for (const release of releases) {
    if (scope.all ? release.tag_name.startsWith('v0.0.0-bench-') : release.tag_name.startsWith(`v0.0.0-bench-${ctx.seedId}`)) {
      await ctx.agent.rest.repos.deleteRelease({...repo, release_id: release.id})
      report.releases_deleted++
    }
  }
  const viewer = (await ctx.agent.graphql<{viewer: {login: string}}>('{ viewer { login } }')).viewer.login
  const projects = await ctx.agent.graphql<{user: {projectsV2: {nodes: Array<{id: string; title: string}>}}}>('query($l: String!) { user(login: $l) { projectsV2(first: 100) { nodes { id title } } } }', {l: viewer})
  const title = scope.all ? 'GHX Bench Fixtures' : `GHX Bench Fixtures (bench-seed:${ctx.seedId})`
  for (const project of projects.user.projectsV2.nodes) {
    if (scope.all ? project.title.startsWith(title) : project.title === title) {
      await ctx.agent.graphql('mutation($id: ID!) { deleteProjectV2(input: {projectId: $id}) { projectV2 { id } } }', {id: project.id})
      report.projects_deleted++
    }
  }
  const labels = await ctx.agent.paginate(ctx.agent.rest.issues.listLabelsForRepo, {...repo, per_page: 100})
  for (const label of labels) {
    if (scope.all ? label.name.startsWith('bench-seed:') : label.name === seedLabel(ctx.seedId).name) {
      await ctx.agent.rest.issues.deleteLabel({...repo, name: label.name})
      report.labels_deleted++
    }
  }
  return report
}
