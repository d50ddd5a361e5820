/**
 * `ghx-bench run SUITE`, the pipeline: load and validate -> freeze plugins -> open the target and
 * the model -> preflight each mode once -> ensure fixtures and check every binding -> plan ->
 * schedule (runs that share a fixture never overlap) -> one fsynced row per run -> report and gate.
 * Re-running with the same run id skips the rows already recorded. One process at a time holds a run
 * id (its lock); a torn last line left by a crash is set aside before anything is appended. A dry run
 * plans and stops: it writes nothing (no lock, no fixtures, no manifest, no sandbox state, no rows).
 */
import {execFile} from 'node:child_process'
import {randomUUID} from 'node:crypto'
import {setMaxListeners} from 'node:events'
import {existsSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {resolveVariables} from '../seeding/bindings.js'
import {cleanupFixtures, resetFixtures, seedFixtures, withDependencies} from '../seeding/index.js'
import type {Manifest} from '../seeding/manifest.js'
import {readManifest, writeManifest} from '../seeding/service.js'
import {reapOrphanedTools} from '../shared/process/tool-processes.js'
import {harnessEnv, hideSecrets, isSecretName, registerSecret} from '../shared/process/secret-env.js'
import {checkRunId} from '../results/names.js'
import {acquireRunLock, type RunLock} from '../results/run-lock.js'
import {packagePath} from '../shared/package-paths.js'
import type {Availability, Mode, ProviderProgress} from '../plugins/api.js'
import {loadPlugins} from '../plugins/loader.js'
import type {PluginRegistry} from '../plugins/registry.js'
import {pluginRequests} from '../plugins/requests.js'
import type {Row} from '../results/row-schema.js'
import {writeRunInfo} from '../results/run-info.js'
import {readRows} from '../results/sources.js'
import {repairTornTail, ResultsWriter, runFile, tornLinesFile} from '../results/store.js'
import {loadCatalogue, selectScenarios, setMembers, unknownModeMessage, type Catalogue} from '../catalogue/catalogue.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import type {FixtureKind, Scenario} from '../schemas/scenario.js'
import type {PluginRef, Suite} from '../schemas/suite.js'
import {displayPath} from '../shared/source-document.js'
import {HARNESS_VERSION} from '../shared/version.js'
import {executeRun, type SuiteContext} from './execute-run.js'
import {openModelSource} from './model-source.js'
import type {MutationReport} from './mutation.js'
import {buildPlan, runKey, type PlannedRun} from './plan.js'
import {createRedactor} from './redact.js'
import {openRunTarget} from './target.js'

export interface RunOptions {
  /** The suite file; or `suite`, a suite built in memory (calibration), named by `origin`. */
  suitePath?: string
  suite?: {value: Suite; origin: string}
  /** Where rows and traces go (default: results_dir of the config). */
  resultsDir?: string
  cwd?: string
  modes?: string[]
  scenarios?: string[]
  set?: string
  repetitions?: number
  concurrency?: number
  seed?: number
  runId?: string
  model?: string
  fixtureManifest?: string
  dryRun?: boolean
  /** Share of sandbox and scripted-model requests that fail (reliability testing). */
  faultRate?: number
  /** Ctrl-C: aborts in-flight runs; recorded rows stay. */
  signal?: AbortSignal
  /** Calibration's mutation testing of workflow checkpoints (sandbox, concurrency 1: it restores the sandbox's state). */
  onMutation?: (report: MutationReport) => void
  /** Hears what the run repaired or noticed without stopping (a torn line set aside): shown at once. */
  onWarning?: (text: string) => void
}

export type SuiteEvent =
  | {type: 'suite_started'; run_id: string; modes: string[]; unavailable: Array<{mode: string; reason: string}>; total: number; skipped: number; seed: number; per_mode: Record<string, number>}
  | {type: 'run_started'; key: string; mode: string; scenario_id: string; iteration: number}
  | {type: 'run_progress'; key: string; mode: string; event: ProviderProgress}
  | {type: 'run_finished'; key: string; mode: string; scenario_id: string; iteration: number; outcome: Row['outcome']; tokens: number; ms: number}
  | {type: 'suite_finished'; run_id: string; completed: number; interrupted: boolean}

export interface RunPlanView {
  run_id: string
  suite: string
  seed: number
  modes: string[]
  unavailable: Array<{mode: string; reason: string}>
  runs: PlannedRun[]
  skipped: string[]
  /** The suite's gate selection (profile, baseline, candidate), when it names one. */
  gate: Suite['gate'] | null
  /** Scenario x mode pairs left out because the scenario says the mode cannot solve it. */
  not_applicable: Array<{scenario_id: string; mode: string; reason: string}>
}

export interface RunSummary extends RunPlanView {
  results_file: string
  /** What the run repaired or noticed without stopping (a torn last line set aside). */
  warnings: string[]
  completed: number
  interrupted: boolean
  by_mode: Record<string, {pass: number; fail: number; timeout: number; infra_error: number}>
}

const DEFAULTS = {run_ms: 60_000, stall_ms: 60_000, checkpoint_ms: 12_000, sandbox_checkpoint_ms: 2_000, checkpoint_interval_ms: 1_000, repetitions: 1, concurrency: 1, infra_retries: 2}

const refName = (ref: PluginRef) => (typeof ref === 'string' ? ref : ref.name)
const refOptions = (ref: PluginRef | undefined) => (ref && typeof ref === 'object' ? (ref.options ?? {}) : {})

export interface PreparedSuite {
  config: LoadedConfig
  registry: PluginRegistry
  catalogue: Catalogue
  suite: Suite
  /** The suite's file for messages (file:line:col where there is a document). */
  origin: string
  scenarios: Scenario[]
}

/** Loads the config's plugins and the catalogue with the suite, and selects its scenarios (flags applied). */
export async function prepareSuite(config: LoadedConfig, options: RunOptions): Promise<PreparedSuite> {
  const cwd = options.cwd ?? process.cwd()
  const suiteFile = options.suitePath ? path.resolve(cwd, options.suitePath) : undefined
  if (suiteFile && !existsSync(suiteFile)) throw new BadInputError([{file: displayPath(suiteFile, cwd), code: 'io', message: 'no such suite file'}])
  const registry = await loadPlugins({fromDir: config.dir, plugins: pluginRequests(config.values.plugins), origin: config.file ? displayPath(config.file, cwd) : '(config)'})
  const root = resolveConfigPath(config, config.values.suites_dir)
  const outside = suiteFile && path.relative(root, suiteFile).startsWith('..') ? [suiteFile] : []
  const catalogue = await loadCatalogue({root, registry, cwd, extraFiles: outside, builtInProfilesDir: packagePath('suites', 'profiles')})
  const findings = [...catalogue.diagnostics.values()].flat()
  if (findings.length > 0) throw new BadInputError(findings)
  const spec = suiteFile ? [...catalogue.suites.values()].find((s) => s.absolutePath === suiteFile) : undefined
  if (suiteFile && !spec) throw new BadInputError([{file: displayPath(suiteFile, cwd), code: 'io', message: 'not a suite (suites live in the suites folder or are named with kind: suite)'}])
  const origin = suiteFile ? displayPath(suiteFile, cwd) : (options.suite?.origin ?? '(suite)')
  const given = spec?.value ?? options.suite?.value
  if (!given) throw new BadInputError([{file: origin, code: 'io', message: 'no suite given'}])
  const problem = (message: string): BadInputError => new BadInputError([{file: origin, code: 'unknown_reference', message}])
  if (options.set && !catalogue.sets.has(options.set)) throw problem(`--set: unknown set "${options.set}"`)
  let ids = options.set ? setMembers(catalogue, options.set) : selectScenarios(given, catalogue)
  if (options.scenarios?.length) {
    const unknown = options.scenarios.filter((id) => !catalogue.scenarios.has(id))
    if (unknown.length > 0) throw problem(`--scenario: unknown scenario ${unknown.join(', ')}`)
    ids = options.scenarios
  }
  const suite: Suite = {...given}
  if (options.modes?.length) {
    const known = new Set(suite.modes.map(refName))
    const unknown = options.modes.filter((m) => !known.has(m))
    if (unknown.length > 0) throw problem(`--mode: ${unknown.join(', ')} is not one of the suite's modes (${[...known].join(', ')})`)
    suite.modes = suite.modes.filter((m) => options.modes!.includes(refName(m)))
  }
  // A suite file's modes were checked with the catalogue, at their file:line:col; a suite built in memory is checked here.
  const missing: Diagnostic[] = spec ? [] : suite.modes.map(refName).filter((name) => !registry.mode(name)).map((name) => ({file: origin, code: 'unknown_reference' as const, message: unknownModeMessage(name, registry)}))
  if (missing.length > 0) throw new BadInputError(missing)
  return {config, registry, catalogue, suite, origin, scenarios: ids.map((id) => catalogue.scenarios.get(id)!.value)}
}

async function gitOfProject(cwd: string): Promise<Row['git']> {
  const run = promisify(execFile)
  try {
    const commit = (await run('git', ['rev-parse', 'HEAD'], {cwd})).stdout.trim()
    const remote = (await run('git', ['config', '--get', 'remote.origin.url'], {cwd}).catch(() => ({stdout: ''}))).stdout.trim()
    // A remote URL may carry credentials (https://user:token@host/...): keep only host and path.
    const repo = remote ? remote.replace(/^(https?:\/\/)[^@/]+@/, '$1') : null
    return {repo, commit}
  } catch {
    return null
  }
}

/** Runs that share a fixture kind must not overlap: a reset in one would pull the floor from the other. */
function fixtureLocks(scenario: Scenario): string[] {
  return withDependencies(scenario.fixture?.requires ?? [])
}

/**
 * Secrets a suite names by variable (an MCP server's token_env, the endpoint's api_key_env) leave the
 * environment now, like the ones captured at start-up; secrets written into a mode's options (a stdio
 * server's env) are known to the redactor.
 */
function hideSuiteSecrets(suite: Suite, config: LoadedConfig): void {
  const names: string[] = []
  const endpoint = suite.endpoint ?? config.values.endpoint
  if (endpoint?.api_key_env) names.push(endpoint.api_key_env)
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string') {
      if (/(^|_)env$/i.test(key) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) names.push(value)
      else if (isSecretName(key)) registerSecret(value)
    } else if (Array.isArray(value)) value.forEach((item) => visit(item))
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k)
  }
  for (const ref of [...suite.modes, suite.provider ?? config.values.provider]) visit(refOptions(ref))
  hideSecrets(names)
}

async function ensureFixtures(ctx: {config: LoadedConfig; target: Awaited<ReturnType<typeof openRunTarget>>; manifestFile: string; scenarios: Scenario[]}): Promise<Manifest> {
  const kinds = withDependencies(ctx.scenarios.flatMap((s) => s.fixture?.requires ?? []))
  const existing = existsSync(ctx.manifestFile) ? await readManifest(ctx.manifestFile) : undefined
  const {ctx: fixtureCtx, options} = ctx.target.fixtures
  const usable = existing && existing.seed_id === fixtureCtx.seedId && existing.repo.full_name === `${fixtureCtx.owner}/${fixtureCtx.name}` ? existing : undefined
  // Live GitHub: a manifest that covers the kinds is used as it is. The sandbox is always re-seeded,
  // which is cheap and idempotent, because its saved state may be older than the manifest (a crash).
  if (!ctx.target.sandbox && usable && kinds.every((k) => usable.resources[k])) return usable
  // Seeding is idempotent: what exists is reused, what is missing is created.
  const manifest = await seedFixtures(fixtureCtx, kinds, options, usable)
  await writeManifest(ctx.manifestFile, manifest)
  return manifest
}

/** What Ctrl-C leaves behind: fixtures reset to their seeded state, removed, or kept as they are. */
async function afterInterrupt(policy: 'reset' | 'cleanup' | 'keep', target: Awaited<ReturnType<typeof openRunTarget>>, manifest: Manifest, manifestFile: string): Promise<void> {
  const {ctx, options} = target.fixtures
  if (policy === 'reset') await resetFixtures(ctx, manifest, Object.keys(manifest.resources) as FixtureKind[], options)
  if (policy === 'cleanup') {
    await cleanupFixtures(ctx, {all: false})
    await rm(manifestFile, {force: true})
  }
}

async function recordedKeys(file: string, cwd: string): Promise<Set<string>> {
  const keys = new Set<string>()
  if (!existsSync(file)) return keys
  for await (const row of readRows([file], () => {}, cwd)) keys.add(runKey(row.scenario_id, row.mode, row.iteration))
  return keys
}

/** Picks runs in plan order, skipping those whose fixtures are busy, up to `concurrency` at once. */
async function schedule(plan: PlannedRun[], concurrency: number, locksOf: (run: PlannedRun) => string[], execute: (run: PlannedRun) => Promise<void>, signal: AbortSignal): Promise<void> {
  const pending = [...plan]
  const busy = new Set<string>()
  const active = new Set<Promise<void>>()
  while ((pending.length > 0 && !signal.aborted) || active.size > 0) {
    while (active.size < concurrency && !signal.aborted) {
      const index = pending.findIndex((run) => locksOf(run).every((lock) => !busy.has(lock)))
      if (index < 0) break
      const [run] = pending.splice(index, 1) as [PlannedRun]
      const locks = locksOf(run)
      for (const lock of locks) busy.add(lock)
      const task: Promise<void> = execute(run).finally(() => {
        for (const lock of locks) busy.delete(lock)
        active.delete(task)
      })
      active.add(task)
    }
    if (active.size === 0) break
    await Promise.race(active)
  }
}

/**
 * The config as this suite sees it: a suite's own target and fixtures settings win over the project's,
 * except the list of repositories fixtures may write to: only the project decides that.
 */
function suiteConfig(config: LoadedConfig, suite: Suite): LoadedConfig {
  const fixtures = {...config.values.fixtures, ...suite.fixtures, sandbox_repos: config.values.fixtures.sandbox_repos}
  return {...config, values: {...config.values, target: suite.target ?? config.values.target, fixtures}}
}

/** Why the tools a mode reported fall short of a scenario's requirement (null when they meet it, or nothing is required). */
export function unmetRequirement(requirement: {tools: Record<string, string>; reason: string} | undefined, tools: Record<string, string> | undefined): string | null {
  if (!requirement) return null
  const short = Object.entries(requirement.tools).filter(([tool, needed]) => !tools?.[tool] || compareVersions(tools[tool], needed) < 0)
  if (short.length === 0) return null
  return `needs ${short.map(([tool, needed]) => `${tool} >= ${needed} (here: ${tools?.[tool] ?? 'unknown'})`).join(', ')}: ${requirement.reason}`
}

/** Compares dotted numeric versions (2.23.0 < 2.50.0); a pre-release suffix is ignored. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[^\d.]/, 1)[0]!.split('.').map(Number)
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0)
  return 0
}

export async function runSuite(projectConfig: LoadedConfig, options: RunOptions, onEvent: (event: SuiteEvent) => void = () => {}): Promise<RunSummary> {
  const cwd = options.cwd ?? process.cwd()
  const prepared = await prepareSuite(projectConfig, options)
  const {registry, suite, scenarios} = prepared
  const config = suiteConfig(projectConfig, suite)
  const {origin} = prepared
  const seed = options.seed ?? suite.seed ?? 1
  const runId = checkRunId(options.runId ?? `${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}-${randomUUID().slice(0, 8)}`, '--run-id')
  hideSuiteSecrets(suite, config)
  const providerRef = suite.provider ?? config.values.provider
  const provider = registry.provider(refName(providerRef))
  if (!provider) throw new BadInputError([{file: origin, code: 'unknown_reference', message: `unknown provider "${refName(providerRef)}" (providers: ${registry.providerNames().join(', ')})`}])
  const providerOptions = refOptions(providerRef)
  const providerReady = (await provider.available?.(providerOptions)) ?? {available: true}
  if (!providerReady.available) throw new BadInputError([{file: origin, code: 'plugin', message: `provider "${provider.name}" cannot run here: ${providerReady.reason ?? 'not available'}`}])
  const modelName = options.model ?? suite.model ?? config.values.model
  const resultsDir = options.resultsDir ?? resolveConfigPath(config, config.values.results_dir)
  const resultsFile = runFile(resultsDir, runId)
  const warnings: string[] = []
  const warn = (text: string) => {
    warnings.push(text)
    options.onWarning?.(text)
  }
  let lock: RunLock | undefined
  if (!options.dryRun) {
    // One process per run id; then a torn last line (a crash mid-write) is set aside before anything is appended.
    lock = acquireRunLock(resultsDir, runId, options.runId ? '--run-id' : resultsFile)
    if (lock.tookOver) warn(`run ${runId}: took over the lock of process ${lock.tookOver.pid}, which is gone`)
    try {
      const repair = await repairTornTail(resultsFile, tornLinesFile(resultsDir, runId))
      if (repair?.kept) warn(`${displayPath(resultsFile, cwd)}: the last row had no newline (a crash after writing it); kept`)
      else if (repair) warn(`${displayPath(resultsFile, cwd)}: the last line was torn (a crash mid-write); its ${repair.bytes} byte(s) were set aside in ${displayPath(repair.aside!, cwd)} and the run it belonged to runs again`)
    } catch (error) {
      lock.release()
      throw error
    }
    // Tools a ghx-bench killed with -9 left running end now.
    const reaped = reapOrphanedTools()
    if (reaped > 0) warn(`ended ${reaped} tool process(es) left running by a ghx-bench that is gone`)
  }
  const done = await recordedKeys(resultsFile, cwd).catch((error: unknown) => {
    lock?.release()
    throw error
  })
  const signal = options.signal ?? new AbortController().signal
  // Every run in flight and each of its checkpoints listen for Ctrl-C on this one signal.
  setMaxListeners(0, signal)

  let target: Awaited<ReturnType<typeof openRunTarget>>
  try {
    // Faults go to the runs' own traffic only (their agent tokens and model endpoints), never to seeding or checkpoints.
    target = await openRunTarget(config, {faults: options.faultRate ? {seed, rules: [{route: '*', rate: options.faultRate, kind: '502'}]} : undefined, readOnly: options.dryRun})
  } catch (error) {
    lock?.release()
    throw error
  }
  let model: Awaited<ReturnType<typeof openModelSource>> | undefined
  let writer: ResultsWriter | undefined
  const byMode: RunSummary['by_mode'] = {}
  let completed = 0
  try {
    model = await openModelSource({model: modelName, endpoint: suite.endpoint ?? config.values.endpoint, faultRate: options.faultRate, seed, origin})
    // Preflight once per suite: a mode that cannot run here is reported and left out, never counted.
    const modes = new Map<string, {mode: Mode; options: Record<string, unknown>; tools?: Record<string, string>}>()
    const unavailable: Array<{mode: string; reason: string}> = []
    const preflightDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-preflight-'))
    try {
      const access = target.agentAccess(preflightDir)
      for (const ref of suite.modes) {
        const mode = registry.mode(refName(ref))!
        const context = {options: refOptions(ref), github: {apiUrl: access.apiUrl, graphqlUrl: access.graphqlUrl, token: access.token, env: access.env, nodeEnv: access.nodeEnv}, workdir: preflightDir}
        const availability: Availability = await mode.available(context).catch((error: Error) => ({available: false, reason: error.message}))
        if (availability.available) modes.set(mode.name, {mode, options: refOptions(ref), ...(availability.tools ? {tools: availability.tools} : {})})
        else unavailable.push({mode: mode.name, reason: availability.reason ?? 'not available'})
      }
      access.release()
    } finally {
      await rm(preflightDir, {recursive: true, force: true})
    }
    if (modes.size === 0) throw new BadInputError([{file: origin, code: 'config', message: `no mode of the suite can run here: ${unavailable.map((u) => `${u.mode}: ${u.reason}`).join('; ')}`}])

    const manifestFile = options.fixtureManifest ? path.resolve(cwd, options.fixtureManifest) : resolveConfigPath(config, config.values.fixtures.manifest)
    // A dry run seeds nothing: it checks the bindings against the manifest there is, if any.
    const manifest = options.dryRun ? (existsSync(manifestFile) ? await readManifest(manifestFile, cwd) : undefined) : await ensureFixtures({config, target, manifestFile, scenarios})
    // Every binding is checked before the first run: a typo fails here, not in run 40.
    if (manifest) for (const scenario of scenarios) resolveVariables(scenario, manifest, displayPath(manifestFile, cwd), runId)

    const byId = new Map(scenarios.map((s) => [s.id, s]))
    // A scenario that a mode cannot solve (its tools lack the operation) is not applicable, never a failure.
    // So is one whose plan needs a newer tool than this machine has (gh 2.23 has no `gh pr checks --json`).
    const notApplicable = scenarios.flatMap((s) =>
      [...modes.keys()].flatMap((mode) => {
        const reason = s.not_applicable?.[mode] ?? unmetRequirement(s.requires?.[mode], modes.get(mode)!.tools)
        return reason ? [{scenario_id: s.id, mode, reason}] : []
      }),
    )
    const skippedPairs = new Set(notApplicable.map((n) => `${n.scenario_id}\0${n.mode}`))
    const plan = buildPlan(scenarios.map((s) => s.id), [...modes.keys()], options.repetitions ?? suite.repetitions ?? DEFAULTS.repetitions, seed).filter(
      (run) => !skippedPairs.has(`${run.scenario_id}\0${run.mode}`),
    )
    const todo = plan.filter((run) => !done.has(run.key))
    const view: RunPlanView = {run_id: runId, suite: suite.name, seed, modes: [...modes.keys()], unavailable, runs: todo, skipped: plan.filter((r) => done.has(r.key)).map((r) => r.key), gate: suite.gate ?? null, not_applicable: notApplicable}
    if (options.dryRun || !manifest) return {...view, results_file: resultsFile, warnings, completed: 0, interrupted: false, by_mode: {}}

    const fixtures: SuiteContext['fixtures'] = {
      manifest,
      update(next, kinds) {
        const resources = {...this.manifest.resources}
        for (const kind of withDependencies(kinds)) if (next.resources[kind]) resources[kind] = next.resources[kind]
        this.manifest = {...this.manifest, resources}
      },
    }
    const env = harnessEnv()
    // Every secret the process knows is redacted too (captured variables, URL credentials, MCP bearer tokens).
    const redact = createRedactor([...target.secrets(), ...model.secrets(), env.GH_TOKEN, env.GITHUB_TOKEN, env.OPENAI_API_KEY])
    const ctx: SuiteContext = {
      runId,
      suite: suite.name,
      scenarioSet: options.scenarios?.length ? null : (options.set ?? suite.scenarios.set ?? null),
      registry,
      target,
      model,
      provider: {name: provider.name, plugin: provider, options: providerOptions},
      modes,
      fixtures,
      manifestFile: displayPath(manifestFile, cwd),
      resultsDir,
      timeouts: {
        run_ms: suite.timeouts?.run_ms ?? DEFAULTS.run_ms,
        stall_ms: suite.timeouts?.stall_ms ?? DEFAULTS.stall_ms,
        // The sandbox answers consistently at once (its workflow runs finish in under a second): a short default budget.
        checkpoint_ms: suite.timeouts?.checkpoint_ms ?? (target.sandbox ? DEFAULTS.sandbox_checkpoint_ms : DEFAULTS.checkpoint_ms),
        checkpoint_interval_ms: target.sandbox ? 100 : DEFAULTS.checkpoint_interval_ms,
      },
      limits: {...suite.limits},
      infraRetries: suite.infra_retries ?? DEFAULTS.infra_retries,
      price: config.values.pricing?.[model.label] ?? config.values.pricing?.[modelName],
      versions: {harness: HARNESS_VERSION, plugins: Object.fromEntries(registry.plugins().map((p) => [p.name, p.version]))},
      git: await gitOfProject(cwd),
      redact,
      signal,
      injectFaults: Boolean(options.faultRate),
      onProgress: (run, event) => onEvent({type: 'run_progress', key: run.key, mode: run.mode, event}),
      ...(options.onMutation ? {mutation: options.onMutation} : {}),
    }
    await writeRunInfo(resultsDir, {run_id: runId, suite: suite.name, seed, modes: view.modes, unavailable, not_applicable: notApplicable})
    const perMode = Object.fromEntries(view.modes.map((m) => [m, todo.filter((r) => r.mode === m).length]))
    onEvent({type: 'suite_started', run_id: runId, modes: view.modes, unavailable, total: plan.length, skipped: view.skipped.length, seed, per_mode: perMode})
    if (suite.warmup && todo.length > 0) {
      // One unrecorded run warms caches, connections and the sandbox; its result and trace are discarded.
      const warmupDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-warmup-'))
      await executeRun({...ctx, resultsDir: warmupDir}, todo[0]!, byId.get(todo[0]!.scenario_id)!).finally(() => rm(warmupDir, {recursive: true, force: true}))
    }
    writer = await ResultsWriter.open(resultsDir, runId)
    const open = writer
    await schedule(
      todo,
      options.concurrency ?? suite.concurrency ?? DEFAULTS.concurrency,
      (run) => fixtureLocks(byId.get(run.scenario_id)!),
      async (run) => {
        onEvent({type: 'run_started', key: run.key, mode: run.mode, scenario_id: run.scenario_id, iteration: run.iteration})
        const row = await executeRun(ctx, run, byId.get(run.scenario_id)!)
        if (!row) return
        await open.append(row)
        completed++
        const counts = (byMode[run.mode] ??= {pass: 0, fail: 0, timeout: 0, infra_error: 0})
        counts[row.outcome]++
        onEvent({type: 'run_finished', key: run.key, mode: run.mode, scenario_id: run.scenario_id, iteration: run.iteration, outcome: row.outcome, tokens: row.tokens.total, ms: row.latency_ms_wall})
      },
      signal,
    )
    // Resets may have replaced resources (a fresh workflow run): the manifest on disk follows.
    await writeManifest(manifestFile, fixtures.manifest)
    if (signal.aborted) await afterInterrupt(config.values.fixtures.on_interrupt ?? 'reset', target, fixtures.manifest, manifestFile)
    onEvent({type: 'suite_finished', run_id: runId, completed, interrupted: signal.aborted})
    return {...view, results_file: resultsFile, warnings, completed, interrupted: signal.aborted, by_mode: byMode}
  } finally {
    try {
      await writer?.close()
      await model?.close()
      // The sandbox state is saved here, so fixtures stay as they are for the next command (not after a dry run).
      await target.close()
    } finally {
      lock?.release()
    }
  }
}
