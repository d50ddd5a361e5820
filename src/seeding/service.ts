/**
 * `ghx-bench fixtures seed|status|reset|cleanup` as services. The target is live GitHub (token from
 * GH_TOKEN, GITHUB_TOKEN or `gh auth token`; the second identity from GHX_BENCH_REVIEWER_TOKEN) or
 * the sandbox, whose state then persists between commands in .ghx-bench/sandbox.json beside the config.
 */
import {readFile, rm} from 'node:fs/promises'
import path from 'node:path'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {resolveConfigPath, withLayer, type LoadedConfig} from '../config/load-config.js'
import {AGENT_LOGIN, DEFAULT_REPO, REVIEWER_LOGIN} from '../emulator/defaults.js'
import {harnessEnv} from '../shared/process/secret-env.js'
import {openSandbox, type SandboxService} from '../emulator/service/client.js'
import type {Sandbox} from '../emulator/server.js'
import {BadInputError, suggestionSuffix} from '../shared/diagnostics.js'
import {compileSchema} from '../shared/schema-validator.js'
import type {FixtureKind} from '../schemas/scenario.js'
import {displayPath} from '../shared/source-document.js'
import {appCredentials, appOctokit, createClient, resolveToken} from '../github/client.js'
import type {FixtureContext} from './context.js'
import {ALL_KINDS, cleanupFixtures, fixturesStatus, resetFixtures, seedFixtures, type CleanupReport, type SeedOptions} from './index.js'
import {FIXTURE_KINDS} from './kinds.js'
import {manifestSchema, type Manifest} from './manifest.js'

export interface FixtureTarget {
  ctx: FixtureContext
  options: SeedOptions
  kind: 'sandbox' | 'live'
  /** The running sandbox, when the target is the sandbox. */
  sandbox?: SandboxService
  /** Saves the sandbox's state (when the target is the sandbox) and stops it. */
  close(): Promise<void>
}

export interface TargetOptions {
  env?: NodeJS.ProcessEnv
  /** Retries of the harness's own sandbox requests (a run under injected faults must not lose its fixtures). */
  sandboxRetry?: {retries: number; retryAfterBaseMs?: number}
  /** Read the sandbox's saved state but never write it back (a dry run has no side effects). */
  readOnly?: boolean
  /** Serve the sandbox from its own process (runs overlap: see emulator/service/client.ts). */
  sandboxProcess?: boolean
}

export function sandboxStatePath(config: LoadedConfig): string {
  return resolveConfigPath(config, path.join('.ghx-bench', 'sandbox.json'))
}

/** The fixture layer's view of a sandbox repository: the agent's identity and the reviewer's. */
export function sandboxFixtureContext(sandbox: Pick<Sandbox, 'url' | 'token' | 'reviewerToken'>, repo: string, seedId: string, retry: {retries: number; retryAfterBaseMs?: number} = {retries: 0}): FixtureContext {
  const [owner, name] = repo.split('/') as [string, string]
  // No write pacing: the sandbox has no secondary rate limits to respect.
  const client = (token: string) => createClient({baseUrl: sandbox.url, token, ...retry, throttle: false}).octokit
  return {owner, name, seedId, agent: client(sandbox.token), second: client(sandbox.reviewerToken)}
}

/** The fixture repository of the configuration (fixtures.repo: flag, manifest, environment or file) on its target. */
export async function openTarget(config: LoadedConfig, options: TargetOptions = {}): Promise<FixtureTarget> {
  const env = options.env ?? harnessEnv()
  const seedId = config.values.fixtures.seed_id
  if (config.values.target === 'sandbox') {
    const full = config.values.fixtures.repo ?? DEFAULT_REPO
    const sandbox = await openSandbox({statePath: sandboxStatePath(config), repos: [full], repo: full, readOnly: options.readOnly}, {ownProcess: options.sandboxProcess ?? false})
    return {
      kind: 'sandbox',
      sandbox,
      ctx: sandboxFixtureContext(sandbox, full, seedId, options.sandboxRetry),
      options: {agentLogin: AGENT_LOGIN, reviewerLogin: REVIEWER_LOGIN, defaultBranch: sandbox.defaultBranch, workflowPollMs: 50},
      close: () => sandbox.stop(),
    }
  }
  const full = config.values.fixtures.repo
  if (!full) throw new BadInputError([{file: config.origin, code: 'config', message: 'no fixture repository: set fixtures.repo or pass --repo owner/name'}])
  // The guard comes first: nothing is written to a repository that is not listed as a sandbox.
  if (!config.values.fixtures.sandbox_repos.includes(full)) {
    throw new BadInputError([{file: config.origin, code: 'config', message: `refusing to write fixtures to ${full}: it is not listed in fixtures.sandbox_repos`}])
  }
  const baseUrl = config.values.github.api_url
  const agent = createClient({baseUrl, token: await resolveToken(env)}).octokit
  const [owner, name] = full.split('/') as [string, string]
  const reviewerToken = env.GHX_BENCH_REVIEWER_TOKEN
  const app = await appCredentials(env, {owner, repo: name}, baseUrl)
  const second = app ? createClient({baseUrl, app}).octokit : reviewerToken ? createClient({baseUrl, token: reviewerToken}).octokit : agent
  const {data: repository} = await agent.rest.repos.get({owner, repo: name})
  const agentLogin = (await agent.rest.users.getAuthenticated()).data.login
  // An App installation has no user; its comments show as <slug>[bot].
  const reviewerLogin = app ? `${await (await appOctokit(app, baseUrl)).rest.apps.getAuthenticated().then((r) => r.data?.slug ?? 'app', () => 'app')}[bot]` : reviewerToken ? (await second.rest.users.getAuthenticated()).data.login : agentLogin
  return {
    kind: 'live',
    ctx: {owner, name, seedId, agent, second},
    options: {agentLogin, reviewerLogin, defaultBranch: repository.default_branch},
    close: async () => {},
  }
}

export async function readManifest(file: string, cwd = process.cwd()): Promise<Manifest> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message = code === 'ENOENT' ? 'no fixture manifest: run `ghx-bench fixtures seed` first' : code === 'EISDIR' ? 'is a folder, not a fixture manifest: give the manifest file’s path' : `not JSON: ${(error as Error).message}`
    throw new BadInputError([{file: displayPath(file, cwd), code: 'io', message}])
  }
  const validate = compileSchema(manifestSchema)
  if (!validate(value)) {
    throw new BadInputError([{file: displayPath(file, cwd), code: 'schema', message: `not a fixture manifest: ${(validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`}])
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
function onManifest(config: LoadedConfig, manifest: Manifest | undefined): LoadedConfig {
  return manifest ? withLayer(config, 'manifest', {fixtures: {repo: manifest.repo.full_name, seed_id: manifest.seed_id}}) : config
}

/** Seeds `kinds` (reusing what a manifest of the same seed already has) and writes the manifest. */
export async function seedManifest(config: LoadedConfig, kinds: FixtureKind[], options: TargetOptions = {}): Promise<{manifest: Manifest; file: string}> {
  const file = manifestPath(config)
  const target = await openTarget(config, options)
  try {
    const needSecond = kinds.filter((kind) => FIXTURE_KINDS[kind].needsSecondIdentity)
    if (target.kind === 'live' && target.options.reviewerLogin === target.options.agentLogin && needSecond.length > 0) {
      throw new BadInputError([{file: '$GHX_BENCH_APP_ID', code: 'config', message: `kinds ${needSecond.join(', ')} need a second identity (a reviewer who is not the agent): configure a GitHub App (GHX_BENCH_APP_ID, GHX_BENCH_APP_PRIVATE_KEY) or set GHX_BENCH_REVIEWER_TOKEN`}])
    }
    const existing = await readManifest(file).catch(() => undefined)
    const manifest = await seedFixtures(target.ctx, kinds, target.options, existing?.seed_id === target.ctx.seedId ? existing : undefined)
    await writeManifest(file, manifest)
    return {manifest, file}
  } finally {
    await target.close()
  }
}

export async function manifestStatus(config: LoadedConfig, options: TargetOptions = {}): Promise<Array<{kind: string; problems: string[]}>> {
  const manifest = await readManifest(manifestPath(config))
  const target = await openTarget(onManifest(config, manifest), options)
  try {
    return await fixturesStatus(target.ctx, manifest)
  } finally {
    await target.close()
  }
}

export async function resetManifest(config: LoadedConfig, kinds: FixtureKind[] | undefined, options: TargetOptions = {}): Promise<Manifest> {
  // Kinds are checked before anything is read or touched: a typo names itself, it does not reset nothing silently.
  const unknown = (kinds ?? []).filter((kind) => !ALL_KINDS.includes(kind))
  if (unknown.length > 0) throw new BadInputError(unknown.map((kind) => ({file: '--kinds', code: 'config' as const, message: `unknown fixture kind "${kind}"${suggestionSuffix(kind, ALL_KINDS)}`})))
  const file = manifestPath(config)
  const manifest = await readManifest(file)
  const unseeded = (kinds ?? []).filter((kind) => !manifest.resources[kind])
  if (unseeded.length > 0) {
    throw new BadInputError(unseeded.map((kind) => ({file: '--kinds', code: 'config' as const, message: `fixture kind "${kind}" is not in the manifest ${displayPath(file)} (seeded: ${Object.keys(manifest.resources).join(', ') || 'none'})`})))
  }
  const target = await openTarget(onManifest(config, manifest), options)
  try {
    // Each replacement is written down as it happens: Ctrl-C mid-reset leaves a manifest that names what is there.
    return await resetFixtures(target.ctx, manifest, kinds ?? (Object.keys(manifest.resources) as FixtureKind[]), target.options, (replaced) => writeManifest(file, replaced))
  } finally {
    await target.close()
  }
}

/** Removes what the manifest's seeding created (or, with `all`, every seeding's leftovers) and the manifest. */
export async function cleanupManifest(config: LoadedConfig, all: boolean, options: TargetOptions = {}): Promise<CleanupReport> {
  const file = manifestPath(config)
  const manifest = all ? await readManifest(file).catch(() => undefined) : await readManifest(file)
  const target = await openTarget(onManifest(config, manifest), options)
  try {
    const report = await cleanupFixtures(target.ctx, {all})
    await rm(file, {force: true})
    return report
  } finally {
    await target.close()
  }
}

/** Seeds `kinds` into a running sandbox (sandbox serve --seed) and writes the manifest; returns its path. */
export async function seedServedSandbox(config: LoadedConfig, sandbox: Sandbox, kinds: FixtureKind[]): Promise<string> {
  const full = Object.keys(sandbox.store.state.repos)[0] ?? DEFAULT_REPO
  const [owner, name] = full.split('/') as [string, string]
  const client = (token: string) => createClient({baseUrl: sandbox.url, token, retries: 0}).octokit
  const ctx: FixtureContext = {owner, name, seedId: config.values.fixtures.seed_id, agent: client(sandbox.token), second: client(sandbox.reviewerToken)}
  const manifest = await seedFixtures(ctx, kinds, {agentLogin: AGENT_LOGIN, reviewerLogin: REVIEWER_LOGIN, defaultBranch: sandbox.store.state.repos[full]!.default_branch, workflowPollMs: 50})
  const file = manifestPath(config)
  await writeManifest(file, manifest)
  return file
}
