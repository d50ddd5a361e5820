/**
 * A suite's run, the pipeline (a selected suite, src/runner/select-suite.ts): ask each provider whether
 * it can run here -> open the target and the model -> preflight each mode once -> ensure fixtures and
 * check every binding -> plan (scenario x mode x provider x iteration) -> schedule (runs that share a
 * fixture never overlap; a budget starts no paired block that would overrun it, block-budget.ts) -> one
 * fsynced row per run. Re-running with the same run id skips the rows already recorded. One process at a time holds a run id (its lock); a torn last
 * line left by a crash is set aside before anything is appended. A dry run plans, forecasts what the
 * plan will spend (forecast.ts) and stops: it writes nothing (no lock, no fixtures, no manifest, no
 * sandbox state, no rows). The steps are the functions
 * below (open, plan, the suite context, the planned runs); what they open is held in one Holdings and
 * released when the suite ends, whichever way it ends.
 */
import {randomUUID} from 'node:crypto'
import {setMaxListeners} from 'node:events'
import {existsSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {resolveConfigPath} from '../config/load-config.js'
import {resolveVariables} from '../seeding/bindings.js'
import {readManifest, writeManifest} from '../seeding/service.js'
import {harnessEnv} from '../shared/process/secret-env.js'
import {startToolSpawner} from '../shared/process/tool-spawner.js'
import {openGitHubTarget} from '../github/open-target.js'
import {admitRun, totalWaits, waitsSince} from '../github/rate-budget.js'
import type {GitHubTarget} from '../github/target.js'
import type {Manifest} from '../seeding/manifest.js'
import {Holdings} from '../shared/holdings.js'
import {checkNewRunId} from '../results/names.js'
import type {ProviderProgress} from '../plugins/api.js'
import type {Row} from '../results/row-schema.js'
import type {Budget} from '../results/budget.js'
import {writeRunInfo, type NotRun, type RunInfo} from '../results/run-info.js'
import {startShardFile} from '../results/shard-file.js'
import {ResultsWriter, runFile} from '../results/store.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import type {Scenario} from '../schemas/scenario.js'
import type {Suite} from '../schemas/suite.js'
import {displayPath} from '../shared/source-document.js'
import {HARNESS_VERSION} from '../shared/version.js'
import {BackgroundWork} from './background-work.js'
import {BlockBudget} from './block-budget.js'
import {executeRun} from './execute-run.js'
import {cellForecasts, forecastPlan, runForecast, type Forecast} from './forecast.js'
import {readOracleCounts} from './oracle-counts.js'
import {openModelSource, type ModelSource} from './model-source.js'
import type {MutationReport} from './mutation.js'
import {buildPlan, type PlannedRun} from './plan.js'
import {gateModesProblem, notApplicablePairs, preflightModes, type JudgedGate} from './preflight.js'
import {gitOfProject} from './project-git.js'
import {createRedactor, hideSuiteSecrets} from '../shared/redact.js'
import {checkResume, openRunRecord, recordedRun, type RecordedRun} from './run-record.js'
import {schedule} from './schedule.js'
import {comparabilityKey, planShard, shardRecordName, withShardFixtures, type ShardSpec} from './shard.js'
import {refName, refOptions, type SelectedSuite} from './select-suite.js'
import type {SuiteContext} from './suite-context.js'
import {afterInterrupt, ensureFixtures, runLocks, sharedManifest} from './suite-fixtures.js'

export interface RunOptions {
  /** The run id (a new one when not given); an existing one resumes. */
  runId?: string
  dryRun?: boolean
  /** Share of sandbox and scripted-model requests that fail (reliability testing). */
  faultRate?: number
  /** Ctrl-C: aborts in-flight runs; recorded rows stay. */
  signal?: AbortSignal
  /** Calibration's mutation testing of the checkpoints (sandbox: it restores the run's world's state). */
  onMutation?: (report: MutationReport) => void
  /** Hears what the run repaired or noticed without stopping (a torn line set aside): shown at once. */
  onWarning?: (text: string) => void
  /**
   * Run this machine's shard of the plan only (src/runner/shard.ts), recorded as <run-id>.shard-<i>-of-<N>
   * with its header; `weights`: a previous run's results file, to balance the shards by its wall times.
   */
  shard?: {spec: ShardSpec; weights?: string}
  /** Stop starting new paired blocks when the next would overrun this (src/runner/block-budget.ts). */
  budget?: Budget
  /**
   * The gate the caller will judge the rows by (`run`, `run --until-decided`, a shard's merge): a mode of it
   * that cannot give rows here stops the run before its first run, bad input (preflight.ts, gateModesProblem).
   */
  judgedGate?: JudgedGate
  /** Said (onWarning) once the judged gate's modes are known to run: what its size can tell (app/run.ts). */
  gateNotice?: string
  /**
   * --no-gate: rows and report with no gate verdict (the runs decide, as for a suite that names no gate): the
   * summary's gate is null and run.json's names no profile; a mode of the gate that cannot run is left out as any other.
   */
  noGate?: boolean
}

export type SuiteEvent =
  | {
      type: 'suite_started'
      run_id: string
      modes: string[]
      unavailable: Array<{mode: string; reason: string}>
      total: number
      skipped: number
      seed: number
      per_mode: Record<string, number>
    }
  | {type: 'run_started'; key: string; mode: string; scenario_id: string; iteration: number}
  | {type: 'run_progress'; key: string; mode: string; event: ProviderProgress}
  | {
      type: 'run_finished'
      key: string
      mode: string
      scenario_id: string
      iteration: number
      outcome: Row['outcome']
      tokens: number
      ms: number
    }
  | {type: 'suite_finished'; run_id: string; completed: number; interrupted: boolean}

interface RunPlanView {
  run_id: string
  suite: string
  seed: number
  modes: string[]
  /** The providers every run is played under, by name. */
  providers: string[]
  unavailable: Array<{mode: string; reason: string}>
  runs: PlannedRun[]
  skipped: string[]
  /** The suite's gate selection (profile, baseline, candidate), when it names one (null with --no-gate). */
  gate: Suite['gate'] | null
  /** Scenario x mode pairs left out because the scenario says the mode cannot solve it. */
  not_applicable: Array<{scenario_id: string; mode: string; reason: string}>
  /** What the runs to do are expected to spend (a dry run, or a budget); null otherwise. */
  forecast: Forecast | null
}

export interface RunSummary extends RunPlanView {
  results_file: string
  /** What the run repaired or noticed without stopping (a torn last line set aside). */
  warnings: string[]
  completed: number
  interrupted: boolean
  /** Why the run stopped before its plan was done, Ctrl-C aside (live GitHub's rate budget); resumable. */
  stopped: string | null
  /** Outcomes per mode, all providers together. */
  by_mode: Record<string, OutcomeCounts>
  /** Outcomes per provider and mode. */
  by_provider: Record<string, Record<string, OutcomeCounts>>
  /** The blocks the budget left out (also in run.json); null when every block started. */
  not_run: NotRun | null
}

type OutcomeCounts = Record<Row['outcome'], number>

const noOutcomes = (): OutcomeCounts => ({pass: 0, fail: 0, timeout: 0, infra_error: 0})

/**
 * Each of the suite's providers, asked whether it can run here before anything starts: every one
 * that cannot is bad input (exit 2) with its reason (the plugin's install hint).
 */
async function readyProviders({providers: refs, registry, origin}: SelectedSuite): Promise<SuiteContext['providers']> {
  const providers: SuiteContext['providers'] = new Map()
  const problems: Diagnostic[] = []
  for (const ref of refs) {
    const plugin = registry.provider(refName(ref))
    if (!plugin) {
      problems.push({
        file: origin,
        code: 'unknown_reference',
        message: `unknown provider "${refName(ref)}" (providers: ${registry.providerNames().join(', ')})`,
      })
      continue
    }
    const options = refOptions(ref)
    const ready = (await plugin.available?.(options)) ?? {available: true}
    if (ready.available) providers.set(plugin.name, {plugin, options})
    else
      problems.push({
        file: origin,
        code: 'plugin',
        message: `provider "${plugin.name}" cannot run here: ${ready.reason ?? 'not available'}`,
      })
  }
  if (problems.length > 0) throw new BadInputError(problems)
  return providers
}

export async function runSuite(
  asSelected: SelectedSuite,
  options: RunOptions,
  onEvent: (event: SuiteEvent) => void = () => {},
): Promise<RunSummary> {
  const runId = checkNewRunId(
    options.runId ?? `${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}-${randomUUID().slice(0, 8)}`,
    '--run-id',
  )
  // A shard on live GitHub seeds and resets fixtures of its own.
  const selected = options.shard
    ? {...asSelected, config: withShardFixtures(asSelected.config, runId, options.shard.spec)}
    : asSelected
  const {config, suite} = selected
  hideSuiteSecrets(suite.modes, selected.providers, config.values)
  const providers = await readyProviders(selected)
  // What the suite opens is released when it ends, whichever way, last opened first: the lock last.
  await using held = Holdings.inOrder()
  const opened = await openSuite(
    selected,
    options,
    options.shard ? shardRecordName(runId, options.shard.spec) : runId,
    held,
  )
  const planned = await planSuite(selected, options, runId, providers, opened)
  if (options.dryRun || !planned.manifest)
    return {
      ...planned.view,
      results_file: opened.resultsFile,
      warnings: opened.warnings,
      completed: 0,
      interrupted: false,
      stopped: null,
      by_mode: {},
      by_provider: {},
      not_run: null,
    }
  const ctx = await suiteContext(
    selected,
    options,
    {runId, recordName: opened.recordName, providers, modes: planned.modes, manifest: planned.manifest},
    opened,
    onEvent,
  )
  return await runPlanned(selected, ctx, planned, opened, onEvent, held)
}

/** What a suite's run holds open: its lock, the target, the model, and the work its runs leave to finish. */
interface OpenedSuite {
  /** The run id, or a shard's record name: its rows file, folder and lock under results_dir. */
  recordName: string
  resultsDir: string
  resultsFile: string
  warnings: string[]
  recorded: RecordedRun
  signal: AbortSignal
  target: GitHubTarget
  model: ModelSource
  background: BackgroundWork
}

/**
 * The run id's lock (not for a dry run) and its recorded rows, then the target (the sandbox's process),
 * the model (the scripted models' process) and the tool spawner, started side by side.
 */
async function openSuite(
  selected: SelectedSuite,
  options: RunOptions,
  recordName: string,
  held: Holdings,
): Promise<OpenedSuite> {
  const {config, suite, origin, cwd} = selected
  const resultsDir = resolveConfigPath(config, config.values.results_dir)
  const resultsFile = runFile(resultsDir, recordName)
  const warnings: string[] = []
  const warn = (text: string) => {
    warnings.push(text)
    options.onWarning?.(text)
  }
  if (!options.dryRun)
    held.use(
      await openRunRecord(resultsDir, recordName, resultsFile, {
        namedBy: options.runId ? '--run-id' : resultsFile,
        cwd,
        warn,
      }),
      (lock) => lock.release(),
    )
  const recorded = await recordedRun(resultsFile, cwd)
  const signal = options.signal ?? new AbortController().signal
  // Every run in flight and each of its checkpoints listen for Ctrl-C on this one signal.
  setMaxListeners(0, signal)
  const [target, model] = await Promise.allSettled([
    // The sandbox is local: a failed request is retried at once, not after GitHub's one-second back-off.
    // Overlapping runs get the sandbox in its own process, off the runner's event loop. Faults go to the
    // runs' own traffic only (their agent tokens and model endpoints), never to seeding or checkpoints.
    openGitHubTarget(config, {
      faults: options.faultRate
        ? {seed: suite.seed, rules: [{route: '*', rate: options.faultRate, kind: '502'}]}
        : undefined,
      readOnly: options.dryRun,
      sandboxRetry: {retries: 4, retryAfterBaseMs: 20},
      sandboxProcess: suite.concurrency > 1,
    }),
    openModelSource({
      model: config.values.model,
      endpoint: config.values.endpoint,
      faultRate: options.faultRate,
      seed: suite.seed,
      origin,
    }),
    options.dryRun ? undefined : startToolSpawner(),
  ])
  // The sandbox state is saved when the target closes, so fixtures stay as they are for the next command (not after a dry run).
  if (target.status === 'fulfilled') held.defer(() => target.value.close())
  if (model.status === 'fulfilled') held.defer(() => model.value.close())
  if (target.status === 'rejected') throw target.reason
  if (model.status === 'rejected') throw model.reason
  const background = new BackgroundWork()
  held.defer(() => background.settled())
  return {
    recordName,
    resultsDir,
    resultsFile,
    warnings,
    recorded,
    signal,
    target: target.value,
    model: model.value,
    background,
  }
}

/** The modes that can run here, the fixtures ensured, every binding checked, and the plan: what a dry run shows. */
async function planSuite(
  selected: SelectedSuite,
  options: RunOptions,
  runId: string,
  providers: SuiteContext['providers'],
  opened: OpenedSuite,
) {
  const {recorded, target, model, resultsFile} = opened
  const {registry, suite, scenarios, origin, cwd} = selected
  const {seed} = suite
  // A resumed run id adds rows to the same run: rows of another suite, model, providers, modes or seed are refused, never mixed in.
  checkResume(
    recorded,
    {suite: suite.name, model: model.label, providers: [...providers.keys()], modes: suite.modes.map(refName), seed},
    runId,
    resultsFile,
    cwd,
  )
  const done = recorded.keys
  // Preflight once per suite: a mode that cannot run here is reported and left out, never counted.
  const {modes, unavailable} = await preflightModes(suite.modes, registry, target)
  if (modes.size === 0)
    throw new BadInputError([
      {
        file: origin,
        code: 'config',
        message: `no mode of the suite can run here: ${unavailable.map((u) => `${u.mode}: ${u.reason}`).join('; ')}`,
      },
    ])
  // A scenario that a mode cannot solve (its tools lack the operation) is not applicable, never a failure.
  const notApplicable = notApplicablePairs(scenarios, modes)
  // A gate the caller will judge that one of its modes cannot give rows to: stopped here, before a run is spent on it.
  const gateProblem =
    options.judgedGate &&
    gateModesProblem(
      options.judgedGate,
      {
        modes: suite.modes.map(refName),
        preflight: {modes, unavailable},
        scenarios: scenarios.map((s) => s.id),
        notApplicable,
      },
      origin,
      options.dryRun,
    )
  if (gateProblem) throw gateProblem
  if (options.gateNotice) options.onWarning?.(options.gateNotice)
  const skippedPairs = new Set(notApplicable.map((n) => `${n.scenario_id}\0${n.mode}`))
  const keyFacts = {modes, providers: [...providers.keys()], model: model.label, target: target.kind}
  // A shard runs its own blocks of the whole plan, which every shard computes alike.
  const shard = options.shard
    ? await planShard(selected, options.shard, {...keyFacts, runId, unavailable, notApplicable})
    : undefined
  // On live GitHub a shard seeds what its own scenarios need (every point of the rate limit counts); on the
  // sandbox, all, so that its GitHub is the unsharded run's (the same numbers in the same answers).
  const seeded = shard && target.kind === 'live' ? scenarios.filter((s) => shard.ownsScenario(s.id)) : scenarios
  const {manifest, manifestFile} = await planFixtures(selected, target, seeded, options.dryRun === true, runId)
  const plan = buildPlan(
    scenarios.map((s) => s.id),
    [...modes.keys()],
    [...providers.keys()],
    suite.repetitions,
    seed,
  ).filter((run) => !skippedPairs.has(`${run.scenario_id}\0${run.mode}`) && (shard?.owns(run) ?? true))
  const todo = plan.filter((run) => !done.has(run.key))
  // Previous runs are read only when something asks what the runs will spend.
  const history = options.dryRun || options.budget ? await spendHistory(selected, opened) : undefined
  const view: RunPlanView = {
    run_id: runId,
    suite: suite.name,
    seed,
    modes: [...modes.keys()],
    providers: [...providers.keys()],
    unavailable,
    runs: todo,
    skipped: plan.filter((r) => done.has(r.key)).map((r) => r.key),
    gate: options.noGate ? null : (suite.gate ?? null),
    not_applicable: notApplicable,
    forecast: history ? forecastPlan(todo, history, suite.concurrency) : null,
  }
  const budget =
    options.budget &&
    new BlockBudget(options.budget, todo, (run) => history && runForecast(history.cells, run), suite.concurrency)
  // What another run must agree on to be compared with this one (report --compare, flakes).
  const key = shard?.header.key ?? comparabilityKey(selected, keyFacts)
  return {view, plan, modes, manifest, manifestFile, shardHeader: shard?.header, budget, key}
}

type PlannedSuite = Awaited<ReturnType<typeof planSuite>>

/** What each cell of the suite is expected to spend: from its previous runs, else the oracle's recorded counts. */
async function spendHistory(selected: SelectedSuite, {model, target, resultsDir}: OpenedSuite) {
  const {suite, scenarios, cwd} = selected
  // The oracle's recorded counts are the scripted oracle's on the sandbox, and no one else's.
  const recorded =
    model.scripted === 'oracle' && target.kind === 'sandbox' ? await readOracleCounts(scenarios) : undefined
  return cellForecasts(
    resultsDir,
    {suite: suite.name, model: model.label, price: priceFor(selected, model), recorded},
    cwd,
  )
}

/** The fixtures of the scenarios to seed, ensured (a dry run seeds nothing: it reads the manifest there is, if any). */
async function planFixtures(
  {config, cwd}: SelectedSuite,
  target: OpenedSuite['target'],
  seeded: SelectedSuite['scenarios'],
  dryRun: boolean,
  runId: string,
) {
  const manifestFile = resolveConfigPath(config, config.values.fixtures.manifest)
  const manifest = dryRun
    ? existsSync(manifestFile)
      ? await readManifest(manifestFile, cwd)
      : undefined
    : await ensureFixtures(target, config.values.fixtures.seed_id, manifestFile, seeded)
  // Every binding is checked before the first run: a typo fails here, not in run 40.
  if (manifest)
    for (const scenario of seeded) resolveVariables(scenario, manifest, displayPath(manifestFile, cwd), runId)
  return {manifest, manifestFile}
}

/** What every run of the suite shares (src/runner/suite-context.ts). */
async function suiteContext(
  selected: SelectedSuite,
  options: RunOptions,
  planned: {
    runId: string
    recordName: string
    providers: SuiteContext['providers']
    modes: SuiteContext['modes']
    manifest: Manifest
  },
  opened: OpenedSuite,
  onEvent: (event: SuiteEvent) => void,
): Promise<SuiteContext> {
  const {config, registry, suite, cwd} = selected
  const {target, model, signal, background} = opened
  const env = harnessEnv()
  const price = priceFor(selected, model)
  return {
    runId: planned.runId,
    recordName: planned.recordName,
    suite: suite.name,
    scenarioSet: selected.scenarioSet,
    registry,
    target,
    seedId: config.values.fixtures.seed_id,
    model,
    providers: planned.providers,
    modes: planned.modes,
    fixtures: sharedManifest(planned.manifest),
    manifestFile: displayPath(resolveConfigPath(config, config.values.fixtures.manifest), cwd),
    resultsDir: opened.resultsDir,
    timeouts: {
      run_ms: suite.timeouts.run_ms,
      stall_ms: suite.timeouts.stall_ms,
      checkpoint_ms: suite.timeouts.checkpoint_ms ?? target.checkpoints.budget_ms,
      checkpoint_interval_ms: target.checkpoints.interval_ms,
    },
    limits: {...suite.limits},
    infraRetries: suite.infra_retries,
    price,
    versions: {
      harness: HARNESS_VERSION,
      plugins: Object.fromEntries(registry.plugins().map((p) => [p.name, p.version])),
    },
    git: await gitOfProject(cwd),
    // Every secret the process knows is redacted too (captured variables, URL credentials, MCP bearer tokens).
    redact: createRedactor([
      ...target.secrets(),
      ...model.secrets(),
      env.GH_TOKEN,
      env.GITHUB_TOKEN,
      env.OPENAI_API_KEY,
    ]),
    signal,
    injectFaults: Boolean(options.faultRate),
    onProgress: (run, event) => onEvent({type: 'run_progress', key: run.key, mode: run.mode, event}),
    inBackground: (work) => background.add(work),
    ...(options.onMutation ? {mutation: options.onMutation} : {}),
  }
}

/** The price table's entry for the run's model (as rows record it, else as configured). */
function priceFor({config}: SelectedSuite, model: ModelSource) {
  return config.values.pricing[model.label] ?? config.values.pricing[config.values.model]
}

/**
 * What the run's record says before its rows: a shard's header first (a resumed shard's must be this one's),
 * then run.json, returned to be written again when the budget leaves blocks out.
 */
async function startRecord(
  {config, suite, cwd, suiteFile}: SelectedSuite,
  ctx: SuiteContext,
  {view, key, shardHeader}: Pick<PlannedSuite, 'view' | 'key' | 'shardHeader'>,
  opened: OpenedSuite,
): Promise<RunInfo> {
  if (shardHeader) await startShardFile(ctx.resultsDir, opened.resultsFile, shardHeader, cwd)
  const info: RunInfo = {
    run_id: ctx.runId,
    suite: suite.name,
    seed: suite.seed,
    modes: view.modes,
    providers: view.providers,
    unavailable: view.unavailable,
    not_applicable: view.not_applicable,
    gate: {
      profile: view.gate?.profile ?? null,
      baseline: config.values.gate.baseline,
      candidate: config.values.gate.candidate,
    },
    key,
    ...(suiteFile ? {suite_file: suiteFile} : {}),
    ...(shardHeader ? {shard: shardHeader.shard} : {}),
  }
  await writeRunInfo(ctx.resultsDir, ctx.recordName, info)
  return info
}

/** One unrecorded run warms caches, connections and the sandbox; its result and trace are discarded. */
async function warmUp(ctx: SuiteContext, run: PlannedRun, scenario: Scenario): Promise<void> {
  await using warmup = Holdings.inOrder()
  const warmupDir = warmup.use(await mkdtemp(path.join(tmpdir(), 'ghx-bench-warmup-')), (dir) =>
    rm(dir, {recursive: true, force: true}),
  )
  await executeRun({...ctx, resultsDir: warmupDir}, run, scenario)
}

const runIdentity = (run: PlannedRun) => ({
  key: run.key,
  mode: run.mode,
  scenario_id: run.scenario_id,
  iteration: run.iteration,
})

const runFinished = (run: PlannedRun, row: Row): SuiteEvent => ({
  type: 'run_finished',
  ...runIdentity(run),
  outcome: row.outcome,
  tokens: row.tokens.total,
  ms: row.latency_ms_wall,
})

/**
 * A run started once the target's rate budgets admit it (live GitHub; the sandbox has none), its row with
 * the waits that rate limits cost while it waited and ran (github_rate_waits). Not admitted: the suite stops.
 */
async function runWithinRateBudget(
  ctx: SuiteContext,
  rateStop: AbortController,
  execute: () => Promise<Row | null>,
): Promise<Row | null> {
  const budgets = ctx.target.rateBudgets
  if (budgets.length === 0) return execute()
  const before = totalWaits(budgets)
  const admission = await admitRun(budgets, ctx.signal)
  if (!admission.admitted) {
    if (!ctx.signal.aborted) rateStop.abort(admission.reason)
    return null
  }
  const row = await execute()
  return row && {...row, github_rate_waits: waitsSince(before, totalWaits(budgets))}
}

/** Why a run ended before its plan was done, for its record: Ctrl-C, or live GitHub's rate budget; null when it was not cut short. */
function stoppedBy(interrupt: AbortSignal, rateStop: AbortSignal): NonNullable<RunInfo['stopped']> | null {
  if (interrupt.aborted) return {reason: 'interrupted', detail: 'stopped by an interrupt (Ctrl-C or a signal)'}
  if (rateStop.aborted) return {reason: 'rate_budget', detail: String(rateStop.reason)}
  return null
}

/** The planned runs, scheduled (runs that share a fixture never overlap), one fsynced row each; then the fixtures as the config says. */
async function runPlanned(
  selected: SelectedSuite,
  ctx: SuiteContext,
  {view, plan, manifestFile, shardHeader, budget, key}: PlannedSuite,
  opened: OpenedSuite,
  onEvent: (event: SuiteEvent) => void,
  held: Holdings,
): Promise<RunSummary> {
  const {config, suite, scenarios} = selected
  const {runId, signal, resultsDir} = ctx
  const byId = new Map(scenarios.map((s) => [s.id, s]))
  const todo = view.runs
  const byMode: RunSummary['by_mode'] = {}
  const byProvider: RunSummary['by_provider'] = {}
  let completed = 0
  const info = await startRecord(selected, ctx, {view, key, shardHeader}, opened)
  const perMode = Object.fromEntries(view.modes.map((m) => [m, todo.filter((r) => r.mode === m).length]))
  onEvent({
    type: 'suite_started',
    run_id: runId,
    modes: view.modes,
    unavailable: view.unavailable,
    total: plan.length,
    skipped: view.skipped.length,
    seed: suite.seed,
    per_mode: perMode,
  })
  if (suite.warmup && todo.length > 0) await warmUp(ctx, todo[0]!, byId.get(todo[0]!.scenario_id)!)
  const writer = held.use(await ResultsWriter.open(resultsDir, ctx.recordName), (open) => open.close())
  // A scenario's locks once: the scheduler asks for them at every pending run each time a run ends.
  const locksById = new Map(scenarios.map((s) => [s.id, runLocks(s)]))
  // Live GitHub's rate budget stops the suite as Ctrl-C would not: the runs in flight finish and are recorded.
  const rateStop = new AbortController()
  await schedule(
    todo,
    suite.concurrency,
    (run) => locksById.get(run.scenario_id)!,
    async (run) => {
      const row = await runWithinRateBudget(ctx, rateStop, () => {
        onEvent({type: 'run_started', ...runIdentity(run)})
        return executeRun(ctx, run, byId.get(run.scenario_id)!)
      })
      budget?.finish(run, row)
      if (!row) return
      await writer.append(row)
      completed++
      for (const counts of [byMode, (byProvider[run.provider] ??= {})])
        (counts[run.mode] ??= noOutcomes())[row.outcome]++
      onEvent(runFinished(run, row))
    },
    AbortSignal.any([signal, rateStop.signal]),
    budget ? (run) => budget.admit(run) : undefined,
  )
  const notRun = budget?.notRun(plan) ?? null
  const stopped = stoppedBy(signal, rateStop.signal)
  if (notRun || stopped)
    await writeRunInfo(resultsDir, ctx.recordName, {
      ...info,
      ...(notRun ? {not_run: notRun} : {}),
      ...(stopped ? {stopped} : {}),
    })
  // Resets may have replaced resources (a fresh workflow run): the manifest on disk follows.
  await writeManifest(manifestFile, ctx.fixtures.manifest)
  if (signal.aborted)
    await afterInterrupt(
      config.values.fixtures.on_interrupt,
      ctx.target,
      ctx.seedId,
      ctx.fixtures.manifest,
      manifestFile,
    )
  onEvent({type: 'suite_finished', run_id: runId, completed, interrupted: signal.aborted})
  return {
    ...view,
    results_file: opened.resultsFile,
    warnings: opened.warnings,
    completed,
    interrupted: signal.aborted,
    stopped: stopped?.reason === 'rate_budget' ? stopped.detail : null,
    by_mode: byMode,
    by_provider: byProvider,
    not_run: notRun,
  }
}
