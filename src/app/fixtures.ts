/**
 * `ghx-bench fixtures seed|status|reset|cleanup`. The fixture repository, the manifest and the seed id
 * are configuration (fixtures.repo, fixtures.manifest, fixtures.seed_id): --repo, --manifest and
 * --seed-id set them as flags; status, reset and cleanup work on the seeding a manifest records (its
 * repository and seed id), unless a flag says otherwise.
 */
import {readdir, rm} from 'node:fs/promises'
import path from 'node:path'
import {selectScenarios} from '../catalogue/catalogue.js'
import type {Project} from '../catalogue/project.js'
import type {FixtureKind} from '../schemas/scenario.js'
import type {CleanupReport} from '../seeding/index.js'
import type {Manifest} from '../seeding/manifest.js'
import {withLayer, type LoadedConfig} from '../config/load-config.js'
import {openGitHubTarget} from '../github/open-target.js'
import type {GitHubTarget} from '../github/target.js'
import {parseShardSpec, runSeedPrefix, shardRecordName, shardSeedId} from '../runner/shard.js'
import {fixtureContext} from '../seeding/context.js'
import {cleanupFixtures, findSeedings} from '../seeding/index.js'
import {
  cleanupManifest,
  manifestPath,
  manifestStatus,
  manifestToReset,
  onManifest,
  readManifest,
  resetManifest,
  seedManifest,
} from '../seeding/service.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {openConfig, openProject, type ProjectOptions} from './project.js'

export type {CleanupReport} from '../seeding/index.js'
export type {Manifest} from '../seeding/manifest.js'
export type {FixtureKind} from '../schemas/scenario.js'

export interface SeedResult {
  manifest: Manifest
  /** The manifest file, as the user named it (relative to the working folder). */
  file: string
}

/** Seeds what a suite's scenarios require (the whole catalogue's without one) and writes the manifest. */
export async function seedProjectFixtures(options: ProjectOptions & {suitePath?: string}): Promise<SeedResult> {
  const cwd = options.cwd ?? process.cwd()
  const project = await openProject({...options, extraFiles: options.suitePath ? [options.suitePath] : []})
  const {manifest, file} = await onTarget(project.config, (target) =>
    seedManifest(target, project.config, requiredKinds(project, options.suitePath)),
  )
  return {manifest, file: displayPath(file, cwd)}
}

export interface FixtureStatus {
  ok: boolean
  kinds: Array<{kind: string; problems: string[]}>
}

export async function fixtureStatus(options: ProjectOptions): Promise<FixtureStatus> {
  const config = await openConfig(options)
  const manifest = await readManifest(manifestPath(config))
  const onIt = onManifest(config, manifest)
  const kinds = await onTarget(onIt, (target) => manifestStatus(target, onIt, manifest))
  return {ok: kinds.every((k) => k.problems.length === 0), kinds}
}

/** Resets the manifest's resources (or `kinds`) to their seeded state; returns the manifest, updated. */
export async function resetProjectFixtures(options: ProjectOptions & {kinds?: string[]}): Promise<Manifest> {
  const config = await openConfig(options)
  const kinds = options.kinds as FixtureKind[] | undefined
  const manifest = await manifestToReset(config, kinds)
  const onIt = onManifest(config, manifest)
  return onTarget(onIt, (target) => resetManifest(target, onIt, manifest, kinds))
}

export async function cleanupProjectFixtures(options: ProjectOptions & {all?: boolean}): Promise<CleanupReport> {
  const config = await openConfig(options)
  const all = options.all ?? false
  const file = manifestPath(config)
  // With `all`, a missing manifest is no obstacle: every seeding's leftovers are found by their names.
  const manifest = all ? await readManifest(file).catch(() => undefined) : await readManifest(file)
  const onIt = onManifest(config, manifest)
  return onTarget(onIt, (target) => cleanupManifest(target, onIt, all))
}

/** What the janitor found of a run's shards and removed: per repository and seeding. */
export interface LeftoverReport {
  run_id: string
  seedings: Array<{repo: string; seed_id: string; removed: CleanupReport}>
  /** This machine's manifests of the shards, removed with them. */
  manifests: string[]
}

/**
 * The janitor of a sharded run on live GitHub: every shard's fixtures (or, with `shard`, that shard's),
 * found by the seed ids the run id gives them (runner/shard.ts) in fixtures.repo, or in each of
 * fixtures.shard_repos, whatever the manifests on other machines say, and removed; with this machine's
 * manifests of them.
 */
export async function cleanupRunFixtures(
  options: ProjectOptions & {runId: string; shard?: string},
): Promise<LeftoverReport> {
  const config = await openConfig(options)
  const spec = options.shard === undefined ? undefined : parseShardSpec(options.shard)
  const {repo, shard_repos: shardRepos} = config.values.fixtures
  const repos = shardRepos.length === 0 ? [repo] : spec ? [shardRepos[spec.index - 1]] : shardRepos
  // Seed ids are [A-Za-z0-9_-] only: nothing to escape.
  const pattern = spec
    ? new RegExp(`^${shardSeedId(options.runId, spec)}(?=$|-)`)
    : new RegExp(`^${runSeedPrefix(options.runId)}\\d+-of-\\d+(?=$|-)`)
  const seedings: LeftoverReport['seedings'] = []
  for (const full of repos) {
    const onRepo = full === undefined ? config : withLayer(config, 'shard', {fixtures: {repo: full}})
    await onTarget(onRepo, async (target) => {
      const where = `${target.repo.owner}/${target.repo.name}`
      for (const seedId of await findSeedings(fixtureContext(target, ''), pattern))
        seedings.push({
          repo: where,
          seed_id: seedId,
          removed: await cleanupFixtures(fixtureContext(target, seedId), {all: false}),
        })
    })
  }
  const folder = path.dirname(manifestPath(config))
  const record = spec ? shardRecordName(options.runId, spec) : undefined
  const ours = (name: string) =>
    record ? name === `${record}.json` : /^\.shard-\d+-of-\d+\.json$/.test(name.replace(options.runId, ''))
  const manifests = (await readdir(folder).catch(() => [])).filter(ours).map((name) => path.join(folder, name))
  for (const file of manifests) await rm(file, {force: true})
  return {
    run_id: options.runId,
    seedings,
    manifests: manifests.map((file) => displayPath(file, options.cwd ?? process.cwd())),
  }
}

/** The configuration's GitHub, open for `work` and closed after it (the sandbox's state saved). */
async function onTarget<T>(config: LoadedConfig, work: (target: GitHubTarget) => Promise<T>): Promise<T> {
  const target = await openGitHubTarget(config)
  try {
    return await work(target)
  } finally {
    await target.close()
  }
}

/** The kinds the selected scenarios require: a suite's (named by its file), or the whole catalogue's. */
export function requiredKinds(project: Project, suitePath?: string): FixtureKind[] {
  const {catalogue, cwd} = project
  let ids = [...catalogue.scenarios.keys()]
  if (suitePath) {
    const suite = [...catalogue.suites.values()].find((s) => s.absolutePath === path.resolve(cwd, suitePath))
    if (!suite) throw new BadInputError([{file: suitePath, code: 'io', message: 'not a suite'}])
    ids = selectScenarios(suite.value, catalogue)
  }
  const kinds = new Set<FixtureKind>()
  for (const id of ids) for (const kind of catalogue.scenarios.get(id)?.value.fixture?.requires ?? []) kinds.add(kind)
  return [...kinds]
}
