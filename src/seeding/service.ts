/**
 * `ghx-bench fixtures seed|status|reset|cleanup` as services, on a target the caller opened
 * (src/github/target.ts): live GitHub, or the sandbox, whose state then persists between commands.
 * Status, reset and cleanup work on the seeding a manifest records (`onManifest`: its repository and
 * seed id), so the caller reads the manifest before it opens the target.
 */
import {readFile, rm} from 'node:fs/promises'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {resolveConfigPath, withLayer, type LoadedConfig} from '../config/load-config.js'
import {AGENT_LOGIN, DEFAULT_REPO, REVIEWER_LOGIN} from '../emulator/defaults.js'
import type {Sandbox} from '../emulator/server.js'
import {sandboxIdentities} from '../github/sandbox-target.js'
import type {GitHubTarget} from '../github/target.js'
import {BadInputError, suggestionSuffix} from '../shared/diagnostics.js'
import {compileSchema} from '../shared/schema-validator.js'
import type {FixtureKind} from '../schemas/scenario.js'
import {displayPath} from '../shared/source-document.js'
import {fixtureContext, seedOptionsOn} from './context.js'
import {ALL_KINDS, cleanupFixtures, fixturesStatus, resetFixtures, seedFixtures, type CleanupReport} from './index.js'
import {FIXTURE_KINDS} from './kinds.js'
import {manifestSchema, type Manifest} from './manifest.js'

export async function readManifest(file: string, cwd = process.cwd()): Promise<Manifest> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message =
      code === 'ENOENT'
        ? 'no fixture manifest: run `ghx-bench fixtures seed` first'
        : code === 'EISDIR'
          ? 'is a folder, not a fixture manifest: give the manifest file’s path'
          : `not JSON: ${(error as Error).message}`
    throw new BadInputError([{file: displayPath(file, cwd), code: 'io', message}])
  }
  const validate = compileSchema(manifestSchema)
  if (!validate(value)) {
    throw new BadInputError([
      {
        file: displayPath(file, cwd),
        code: 'schema',
        message: `not a fixture manifest: ${(validate.errors ?? [])
          .slice(0, 3)
          .map((e) => `${e.instancePath || '/'} ${e.message}`)
          .join('; ')}`,
      },
    ])
  }
  return value as Manifest
}

/** Written whole or not at all (write, then rename): a crash never leaves half a manifest. */
export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(manifest, null, 2) + '\n')
}

/** The manifest file of the configuration (fixtures.manifest: flag, environment or file). */
export function manifestPath(config: LoadedConfig): string {
  return resolveConfigPath(config, config.values.fixtures.manifest)
}

/**
 * The configuration for work on a seeding: what its manifest records (repository, seed id) over the
 * project's settings; a flag still wins.
 */
export function onManifest(config: LoadedConfig, manifest: Manifest | undefined): LoadedConfig {
  return manifest
    ? withLayer(config, 'manifest', {fixtures: {repo: manifest.repo.full_name, seed_id: manifest.seed_id}})
    : config
}

/** Seeds `kinds` (reusing what a manifest of the same seed already has) and writes the manifest. */
export async function seedManifest(
  target: GitHubTarget,
  config: LoadedConfig,
  kinds: FixtureKind[],
): Promise<{manifest: Manifest; file: string}> {
  const file = manifestPath(config)
  const needSecond = kinds.filter((kind) => FIXTURE_KINDS[kind].needsSecondIdentity)
  if (target.logins.reviewer === target.logins.agent && needSecond.length > 0) {
    throw new BadInputError([
      {
        file: '$GHX_BENCH_APP_ID',
        code: 'config',
        message: `kinds ${needSecond.join(', ')} need a second identity (a reviewer who is not the agent): configure a GitHub App (GHX_BENCH_APP_ID, GHX_BENCH_APP_PRIVATE_KEY) or set GHX_BENCH_REVIEWER_TOKEN`,
      },
    ])
  }
  const ctx = fixtureContext(target, config.values.fixtures.seed_id)
  const existing = await readManifest(file).catch(() => undefined)
  const manifest = await seedFixtures(
    ctx,
    kinds,
    seedOptionsOn(target),
    existing?.seed_id === ctx.seedId ? existing : undefined,
  )
  await writeManifest(file, manifest)
  return {manifest, file}
}

/** Per kind of the manifest, what differs from its seeded state (the target opened `onManifest`). */
export function manifestStatus(
  target: GitHubTarget,
  config: LoadedConfig,
  manifest: Manifest,
): Promise<Array<{kind: string; problems: string[]}>> {
  return fixturesStatus(fixtureContext(target, config.values.fixtures.seed_id), manifest)
}

/**
 * The manifest a reset works on, read once the kinds are checked: a typo names itself before anything
 * is read or touched, it does not reset nothing silently; a kind the manifest lacks names what it has.
 */
export async function manifestToReset(config: LoadedConfig, kinds: FixtureKind[] | undefined): Promise<Manifest> {
  const unknown = (kinds ?? []).filter((kind) => !ALL_KINDS.includes(kind))
  if (unknown.length > 0)
    throw new BadInputError(
      unknown.map((kind) => ({
        file: '--kinds',
        code: 'config' as const,
        message: `unknown fixture kind "${kind}"${suggestionSuffix(kind, ALL_KINDS)}`,
      })),
    )
  const file = manifestPath(config)
  const manifest = await readManifest(file)
  const unseeded = (kinds ?? []).filter((kind) => !manifest.resources[kind])
  if (unseeded.length > 0) {
    throw new BadInputError(
      unseeded.map((kind) => ({
        file: '--kinds',
        code: 'config' as const,
        message: `fixture kind "${kind}" is not in the manifest ${displayPath(file)} (seeded: ${Object.keys(manifest.resources).join(', ') || 'none'})`,
      })),
    )
  }
  return manifest
}

/** Resets the manifest's resources (or `kinds`: manifestToReset reads and checks them) on the target opened `onManifest`. */
export function resetManifest(
  target: GitHubTarget,
  config: LoadedConfig,
  manifest: Manifest,
  kinds: FixtureKind[] | undefined,
): Promise<Manifest> {
  const file = manifestPath(config)
  // Each replacement is written down as it happens: Ctrl-C mid-reset leaves a manifest that names what is there.
  return resetFixtures(
    fixtureContext(target, config.values.fixtures.seed_id),
    manifest,
    kinds ?? (Object.keys(manifest.resources) as FixtureKind[]),
    seedOptionsOn(target),
    (replaced) => writeManifest(file, replaced),
  )
}

/** Removes what the manifest's seeding created (or, with `all`, every seeding's leftovers) and the manifest. */
export async function cleanupManifest(
  target: GitHubTarget,
  config: LoadedConfig,
  all: boolean,
): Promise<CleanupReport> {
  const report = await cleanupFixtures(fixtureContext(target, config.values.fixtures.seed_id), {all})
  await rm(manifestPath(config), {force: true})
  return report
}

/** Seeds `kinds` into a running sandbox (sandbox serve --seed) and writes the manifest; returns its path. */
export async function seedServedSandbox(config: LoadedConfig, sandbox: Sandbox, kinds: FixtureKind[]): Promise<string> {
  const full = Object.keys(sandbox.store.state.repos)[0] ?? DEFAULT_REPO
  const [owner, name] = full.split('/') as [string, string]
  const {agent, second} = sandboxIdentities(sandbox)
  const manifest = await seedFixtures({owner, name, seedId: config.values.fixtures.seed_id, agent, second}, kinds, {
    agentLogin: AGENT_LOGIN,
    reviewerLogin: REVIEWER_LOGIN,
    defaultBranch: sandbox.store.state.repos[full]!.default_branch,
    workflowPollMs: 50,
  })
  const file = manifestPath(config)
  await writeManifest(file, manifest)
  return file
}
