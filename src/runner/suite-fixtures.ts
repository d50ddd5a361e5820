/**
 * A suite's fixtures: ensured before the first run (the manifest reused on live GitHub when it covers
 * the kinds, else seeded: seeding is idempotent), held in one manifest the runs update as resets
 * replace resources, locked per kind (runs that share a fixture never overlap), and after Ctrl-C reset,
 * removed or kept as the config says.
 */
import {existsSync} from 'node:fs'
import {rm} from 'node:fs/promises'
import type {GitHubTarget} from '../github/target.js'
import {fixtureContext, seedOptionsOn} from '../seeding/context.js'
import {cleanupFixtures, resetFixtures, seedFixtures, withDependencies} from '../seeding/index.js'
import type {Manifest} from '../seeding/manifest.js'
import {readManifest, writeManifest} from '../seeding/service.js'
import {checkpointsOf, type FixtureKind, type Scenario} from '../schemas/scenario.js'
import {isMutationScenario} from '../catalogue/catalogue.js'
import type {RunLock} from './schedule.js'
import type {SuiteContext} from './suite-context.js'

export async function ensureFixtures(
  target: GitHubTarget,
  seedId: string,
  manifestFile: string,
  scenarios: readonly Scenario[],
): Promise<Manifest> {
  const kinds = withDependencies(scenarios.flatMap((s) => s.fixture?.requires ?? []))
  const existing = existsSync(manifestFile) ? await readManifest(manifestFile) : undefined
  const fixtureCtx = fixtureContext(target, seedId)
  const usable =
    existing &&
    existing.seed_id === fixtureCtx.seedId &&
    existing.repo.full_name === `${fixtureCtx.owner}/${fixtureCtx.name}`
      ? existing
      : undefined
  // Live GitHub: a manifest that covers the kinds is used as it is (the sandbox re-seeds: GitHubTarget.fixtures).
  if (target.fixtures.reuseManifest && usable && kinds.every((k) => usable.resources[k])) return usable
  // Seeding is idempotent: what exists is reused, what is missing is created.
  const manifest = await seedFixtures(fixtureCtx, kinds, seedOptionsOn(target), usable)
  await writeManifest(manifestFile, manifest)
  return manifest
}

/** The suite's manifest, shared by its runs: a reset that replaced a resource updates its kinds. */
export function sharedManifest(manifest: Manifest): SuiteContext['fixtures'] {
  return {
    manifest,
    update(next, kinds) {
      const resources = {...this.manifest.resources}
      for (const kind of withDependencies(kinds)) if (next.resources[kind]) resources[kind] = next.resources[kind]
      this.manifest = {...this.manifest, resources}
    },
  }
}

/**
 * Lists of the whole repository, which any run that changes the repository may change (a pull request
 * created, an issue opened) between a reader's answer and the checkpoint that compares it with the list.
 */
const REPOSITORY_LISTS: ReadonlySet<string> = new Set([
  'issue.list',
  'pr.list',
  'release.list',
  'repo.labels.list',
  'repo.branches.list',
  'workflow.runs.list',
  'workflow.list',
  'project_v2.items.list',
])

/**
 * What a run holds. Runs that share a fixture kind must not overlap: a reset in one would pull the floor
 * from the other. A read whose checkpoints compare the answer with a list of the repository never overlaps
 * a run that changes it: the list must be the one the agent read (runs of each side still overlap).
 */
export function runLocks(scenario: Scenario): RunLock[] {
  const locks: RunLock[] = withDependencies(scenario.fixture?.requires ?? [])
  if (isMutationScenario(scenario)) locks.push({group: 'repository', side: 'changes'})
  else if (checkpointsOf(scenario).some((checkpoint) => REPOSITORY_LISTS.has(checkpoint.task)))
    locks.push({group: 'repository', side: 'lists'})
  return locks
}

/** What Ctrl-C leaves behind: fixtures reset to their seeded state, removed, or kept as they are. */
export async function afterInterrupt(
  policy: 'reset' | 'cleanup' | 'keep',
  target: GitHubTarget,
  seedId: string,
  manifest: Manifest,
  manifestFile: string,
): Promise<void> {
  const ctx = fixtureContext(target, seedId)
  // A reset replaces what GitHub cannot undo (a cancelled workflow run): the manifest on disk follows each replacement.
  if (policy === 'reset')
    await resetFixtures(
      ctx,
      manifest,
      Object.keys(manifest.resources) as FixtureKind[],
      seedOptionsOn(target),
      (replaced) => writeManifest(manifestFile, replaced),
    )
  if (policy === 'cleanup') {
    await cleanupFixtures(ctx, {all: false})
    await rm(manifestFile, {force: true})
  }
}
