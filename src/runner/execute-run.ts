/**
 * One run: scenario x mode x iteration, with every attempt it takes. An attempt resets (or freshly
 * seeds) the scenario's fixtures, binds them, opens the mode session, lets the provider drive the
 * model under the run's limits, then checks the envelope (atomic) and the checkpoints. Only
 * infrastructure failures are retried; each attempt stays in the row.
 */
import {randomBytes} from 'node:crypto'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {countTokens} from 'gpt-tokenizer'
import {sumUsage} from '../agent/agent-loop.js'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {toolPayload} from '../agent/chat-completions.js'
import {readCallLog} from '../agent/shell-tool.js'
import {resolveVariables} from '../seeding/bindings.js'
import {assertFixturesAsSeeded, resetFixtures, seedForIteration} from '../seeding/index.js'
import type {Manifest} from '../seeding/manifest.js'
import type {Mode, Provider, ProviderProgress, ProviderTrace, Usage} from '../plugins/api.js'
import type {PluginRegistry} from '../plugins/registry.js'
import type {Row, Tokens} from '../results/row-schema.js'
import type {FixtureKind, Scenario} from '../schemas/scenario.js'
import {checkAssertions, type AssertionResult} from '../verify/assertions.js'
import {evaluateCheckpoints, type CheckpointResult} from '../verify/checkpoints.js'
import type {ModelSource} from './model-source.js'
import type {PlannedRun} from './plan.js'
import {mutationTest, observe, type MutationReport} from './mutation.js'
import {renderPrompt} from './prompt.js'
import {accountToolCalls} from './tool-accounting.js'
import type {Redactor} from './redact.js'
import type {RunTarget} from './target.js'

export interface Price {
  input: number
  output: number
  cache_read?: number
  cache_write?: number
}

export interface SuiteContext {
  runId: string
  suite: string | null
  scenarioSet: string | null
  registry: PluginRegistry
  target: RunTarget
  model: ModelSource
  provider: {name: string; plugin: Provider; options: Record<string, unknown>}
  modes: Map<string, {mode: Mode; options: Record<string, unknown>; tools?: Record<string, string>}>
  /** The suite's manifest; runs that share a kind never overlap, so each may update its own kinds. */
  fixtures: {manifest: Manifest; update(manifest: Manifest, kinds: readonly FixtureKind[]): void}
  manifestFile: string
  /** results_dir: traces go to <results_dir>/<run id>/traces. */
  resultsDir: string
  timeouts: {run_ms: number; stall_ms: number; checkpoint_ms: number; checkpoint_interval_ms: number}
  limits: {max_turns?: number; max_tokens?: number}
  infraRetries: number
  price?: Price
  versions: Row['versions']
  git: Row['git']
  redact: Redactor
  /** Ctrl-C: in-flight runs are aborted and not recorded (resume runs them again). */
  signal: AbortSignal
  onProgress?: (run: PlannedRun, event: ProviderProgress) => void
  /** --inject-faults is on: rows count the faults their traffic received. */
  injectFaults?: boolean
  /** Calibration's mutation testing (sandbox only): called with each workflow run that passed. */
  mutation?: (report: MutationReport) => void
}

type AbortKind = 'timeout' | 'stall' | 'interrupted'

class RunAbort extends Error {
  constructor(readonly kind: AbortKind) {
    super(kind)
  }
}

interface Attempt {
  record: Row['attempts'][number]
  retryable: boolean
  interrupted: boolean
  outcome: Row['outcome']
  error: Row['error']
  tokens: Tokens
  trace?: ProviderTrace
  assertion?: AssertionResult
  checkpoints: CheckpointResult[]
  variables: Record<string, unknown> | null
  apiCalls: number | null
  agentMs: number | null
  timing: NonNullable<Row['timing']>
  tracePath: string | null
  toolSchema: Row['tool_schema']
  /** The session's tools that come from an MCP server. */
  mcpTools: string[]
  /** gh/ghx processes the run really started (its shell arm's call log), when it has one. */
  invocations: Record<string, number> | null
  /** Faults --inject-faults put into this attempt's traffic (its agent's GitHub and model requests). */
  injectedFaults: number
}

const ZERO_USAGE: Usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}

export function tokensOf(usage: Usage): Tokens {
  const total = usage.input + usage.output + usage.reasoning + usage.cache_read + usage.cache_write
  return {...usage, total, active: total - usage.cache_read}
}

export function priceOf(usage: Usage, price: Price): number {
  const perToken = (perMillion: number) => perMillion / 1_000_000
  return (
    usage.input * perToken(price.input) +
    (usage.output + usage.reasoning) * perToken(price.output) +
    usage.cache_read * perToken(price.cache_read ?? price.input) +
    usage.cache_write * perToken(price.cache_write ?? price.input)
  )
}

function isInfrastructureError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'InfrastructureError' || (error as {infrastructure?: unknown}).infrastructure === true)
}

/**
 * An abort signal for one attempt, with the reason kept: Ctrl-C from the start; the run timeout and
 * the stall watchdog once `start()` arms them, when the arm opens (fixture work is not the agent's).
 */
function attemptSignal(ctx: SuiteContext, runMs: number) {
  const controller = new AbortController()
  const abort = (kind: AbortKind) => {
    if (!controller.signal.aborted) controller.abort(new RunAbort(kind))
  }
  let timeout: NodeJS.Timeout | undefined
  let stall: NodeJS.Timeout | undefined
  const onInterrupt = () => abort('interrupted')
  ctx.signal.addEventListener('abort', onInterrupt, {once: true})
  if (ctx.signal.aborted) abort('interrupted')
  return {
    signal: controller.signal,
    start() {
      timeout = setTimeout(() => abort('timeout'), runMs)
      stall = setTimeout(() => abort('stall'), ctx.timeouts.stall_ms)
    },
    progress() {
      clearTimeout(stall)
      stall = setTimeout(() => abort('stall'), ctx.timeouts.stall_ms)
    },
    kind: (): AbortKind | undefined => (controller.signal.reason instanceof RunAbort ? controller.signal.reason.kind : undefined),
    dispose() {
      clearTimeout(timeout)
      clearTimeout(stall)
      ctx.signal.removeEventListener('abort', onInterrupt)
    },
  }
}

/** How long a plugin may take to stop after the run's signal aborted it, before the run moves on without it. */
const ABORT_GRACE_MS = 2000

/**
 * A plugin's promise (a mode opening, a provider's run), held to the run's signal: once the signal
 * aborts, the plugin has ABORT_GRACE_MS to return (the agent loop returns its partial trace at once);
 * a plugin that ignores the signal is left behind, so no hung tool or server holds the run past its limits.
 */
function withinAbort<T>(work: Promise<T>, signal: AbortSignal, graceMs = ABORT_GRACE_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const onAbort = () => {
      timer = setTimeout(() => reject(new Error('aborted: the plugin did not stop in time')), graceMs)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, {once: true})
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
    work.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

function traceFileName(run: PlannedRun, attempt: number): string {
  return `${run.scenario_id}__${run.mode}__i${run.iteration}__a${attempt}.json`
}

async function runAttempt(ctx: SuiteContext, run: PlannedRun, scenario: Scenario, attemptNo: number): Promise<Attempt> {
  const startedAt = new Date()
  const started = performance.now()
  const timing = {model_ms: 0, tools_ms: 0, session_ms: 0, fixtures_ms: 0, checkpoints_ms: 0, turns: 0}
  const base = {checkpoints: [] as CheckpointResult[], variables: null as Record<string, unknown> | null, apiCalls: null as number | null, agentMs: null as number | null, tracePath: null as string | null, timing, toolSchema: undefined as Row['tool_schema'], mcpTools: [] as string[], invocations: null as Record<string, number> | null}
  let modelFaults = () => 0
  const faultsSoFar = () => (access?.injectedFaults() ?? 0) + modelFaults()
  const finish = (given: Pick<Attempt, 'outcome' | 'error' | 'retryable'> & Partial<Attempt>): Attempt => {
    const tokens = given.tokens ?? tokensOf(ZERO_USAGE)
    const injectedFaults = faultsSoFar()
    // A run whose own traffic got injected faults did not fail on its merits: infrastructure, retried.
    const partial =
      injectedFaults > 0 && given.outcome === 'fail'
        ? {...given, outcome: 'infra_error' as const, retryable: true, error: {type: 'injected_faults', message: `${injectedFaults} injected fault(s) in the run's traffic; it failed: ${given.error?.message ?? 'checks failed'}`}}
        : given
    return {
      ...base,
      interrupted: false,
      tokens,
      ...partial,
      injectedFaults,
      record: {
        attempt: attemptNo,
        outcome: partial.outcome,
        error: partial.error,
        started_at: startedAt.toISOString(),
        latency_ms_wall: performance.now() - started,
        tokens,
        ...(ctx.injectFaults ? {injected_faults: injectedFaults} : {}),
      },
    }
  }
  // An attempt the signal ended: Ctrl-C (not recorded; resume redoes it), or a timeout or stall (recorded).
  const ended = (kind: AbortKind, partial: Partial<Attempt> = {}): Attempt =>
    kind === 'interrupted'
      ? {...finish({outcome: 'infra_error', error: {type: 'interrupted', message: 'interrupted'}, retryable: false, ...partial}), interrupted: true}
      : finish({outcome: 'timeout', error: {type: kind, message: `${kind} after ${Math.round(performance.now() - started)} ms`}, retryable: false, ...partial})
  const workdir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-run-'))
  const limits = attemptSignal(ctx, scenario.timeout_ms ?? ctx.timeouts.run_ms)
  const {mode, options: modeOptions} = ctx.modes.get(run.mode)!
  let releaseModel = () => {}
  let access: ReturnType<RunTarget['agentAccess']> | undefined
  let session: Awaited<ReturnType<Mode['open']>> | undefined
  try {
    // Fixtures: reset to the seeded state, or fresh resources for what GitHub cannot undo.
    let manifest = ctx.fixtures.manifest
    const kinds = scenario.fixture?.requires ?? []
    const fixturesStarted = performance.now()
    try {
      const {ctx: fixtureCtx, options} = ctx.target.fixtures
      // Fresh resources get names of their own, so no two runs (nor two invocations) share one.
      const suffix = `-i${run.iteration}a${attemptNo}-${randomBytes(3).toString('hex')}`
      if (scenario.fixture?.seed_per_iteration) manifest = await seedForIteration(fixtureCtx, manifest, kinds, {...options, suffix})
      else if (scenario.fixture?.reseed_per_iteration && kinds.length > 0) {
        // A reset may replace a resource (a rerun cannot be undone: a fresh run is dispatched); later runs use the new one.
        manifest = await resetFixtures(fixtureCtx, manifest, kinds, options)
        ctx.fixtures.update(manifest, kinds)
        // Each reset resource is read back and compared with its seeded digest: what the reset missed fails
        // this run as a fixture error naming it, instead of leaking into the next run or mode. Always on the
        // sandbox (local reads); on live GitHub, where it costs about ten reads per resource and run, only
        // with GHX_BENCH_VERIFY_FIXTURES=1 (`ghx-bench fixtures status` checks the same digests on demand).
        if (ctx.target.fixtures.kind === 'sandbox' || /^(1|true|yes)$/i.test(process.env.GHX_BENCH_VERIFY_FIXTURES ?? '')) {
          await assertFixturesAsSeeded(fixtureCtx, manifest, kinds)
        }
      }
    } catch (error) {
      return finish({outcome: 'infra_error', error: {type: 'fixture_error', message: (error as Error).message}, retryable: true})
    } finally {
      timing.fixtures_ms = performance.now() - fixturesStarted
    }
    const variables = resolveVariables(scenario, manifest, ctx.manifestFile, ctx.runId)
    base.variables = variables
    const prompt = renderPrompt(scenario, variables)
    // Mutation testing compares what the checkpoints read before and after the agent's run.
    const observedBefore = ctx.mutation && ctx.target.sandbox && scenario.type === 'workflow' ? await observe(scenario, variables, ctx.target.reader) : undefined
    // The run's clock starts with the arm: opening the session (an MCP server starting) counts, fixture work does not.
    limits.start()
    access = ctx.target.agentAccess(workdir)
    const opening = performance.now()
    const opened = mode.open({options: modeOptions, github: {apiUrl: access.apiUrl, graphqlUrl: access.graphqlUrl, token: access.token, env: access.env, nodeEnv: access.nodeEnv}, workdir, signal: limits.signal})
    session = await withinAbort(opened, limits.signal).catch((error: unknown) => {
      // A session that opens after the run gave up on it is closed when it does.
      void opened.then((late) => late.close(), () => {})
      throw error
    })
    timing.session_ms = performance.now() - opening
    if (session.mcpServers?.length) base.mcpTools = session.tools.map((t) => t.name)
    base.toolSchema = {count: session.tools.length, tokens: countTokens(JSON.stringify(toolPayload(session.tools))), names: session.tools.map((t) => t.name)}
    const model = ctx.model.endpointFor(scenario, run.mode, variables)
    releaseModel = model.release
    if (model.injectedFaults) modelFaults = model.injectedFaults
    const agentStarted = performance.now()
    let trace: ProviderTrace
    try {
      trace = await withinAbort(ctx.provider.plugin.run({
        prompt,
        session,
        model: model.endpoint,
        options: ctx.provider.options,
        limits: {timeout_ms: scenario.timeout_ms ?? ctx.timeouts.run_ms, ...ctx.limits},
        signal: limits.signal,
        onProgress: (event) => {
          limits.progress()
          ctx.onProgress?.(run, event)
        },
      }), limits.signal)
    } catch (error) {
      base.agentMs = performance.now() - agentStarted
      const kind = limits.kind()
      if (kind) return ended(kind)
      const partial = (error as {trace?: ProviderTrace}).trace
      return finish({
        outcome: 'infra_error',
        error: {type: isInfrastructureError(error) ? 'provider_error' : 'runner_error', message: (error as Error).message},
        retryable: isInfrastructureError(error),
        trace: partial,
        tokens: tokensOf(sumUsage((partial?.turns ?? []).map((t) => t.usage))),
      })
    }
    base.agentMs = performance.now() - agentStarted
    base.apiCalls = access.apiCalls()
    base.invocations = await readCallLog(workdir)
    const toolMs = trace.turns.flatMap((t) => t.tool_calls).reduce((sum, call) => sum + call.ms, 0)
    timing.turns = trace.turns.length
    timing.tools_ms = toolMs
    timing.model_ms = Math.max(0, trace.turns.reduce((sum, t) => sum + t.ms, 0) - toolMs)
    const tokens = tokensOf(sumUsage(trace.turns.map((t) => t.usage)))
    const kind = limits.kind()
    if (kind) return ended(kind, {trace, tokens})
    limits.dispose()
    const toolCalls = trace.turns.reduce((sum, t) => sum + t.tool_calls.length, 0)
    const assertion = scenario.type === 'atomic' ? checkAssertions(scenario, trace.final_text, toolCalls, mode.envelope) : undefined
    const checkpointsStarted = performance.now()
    const checkpoints =
      scenario.type === 'workflow'
        ? await evaluateCheckpoints(scenario.assertions.checkpoints, {
            octokit: ctx.target.reader,
            registry: ctx.registry,
            variables,
            budgetMs: ctx.timeouts.checkpoint_ms,
            intervalMs: ctx.timeouts.checkpoint_interval_ms,
            signal: ctx.signal,
          })
        : []
    timing.checkpoints_ms = performance.now() - checkpointsStarted
    // Ctrl-C during the checks cut their polling short: the verdict would be a guess, so the run is redone on resume.
    if (ctx.signal.aborted) return ended('interrupted', {trace, tokens})
    base.checkpoints = checkpoints
    const failedCheckpoints = checkpoints.filter((c) => !c.passed).map((c) => c.name)
    const limitHit = trace.stop_reason === 'max_turns' || trace.stop_reason === 'max_tokens'
    let error: Row['error'] = null
    // The oracle's plan must go through: a step that failed fails the run, whatever the checks say.
    const planFailure = model.planOutcome?.().failure
    if (planFailure) error = {type: 'reference_plan_failed', message: planFailure.step === 0 ? planFailure.message : `reference plan step ${planFailure.step} (${planFailure.tool}) failed: ${planFailure.message}`}
    else if (limitHit) error = {type: trace.stop_reason, message: `the run reached its ${trace.stop_reason === 'max_turns' ? 'turn' : 'token'} limit`}
    else if (assertion && !assertion.passed) error = {type: 'assertion_failed', message: assertion.message ?? 'assertion failed'}
    else if (failedCheckpoints.length > 0) error = {type: 'checkpoint_failed', message: `Workflow checkpoint verification failed: ${failedCheckpoints.join(', ')}`}
    if (!error && observedBefore && ctx.mutation && scenario.type === 'workflow') {
      const evaluate = () => evaluateCheckpoints(scenario.assertions.checkpoints, {octokit: ctx.target.reader, registry: ctx.registry, variables, budgetMs: 0, signal: ctx.signal})
      const after = await observe(scenario, variables, ctx.target.reader)
      ctx.mutation(await mutationTest({scenario, before: observedBefore, after, octokit: ctx.target.reader, sandbox: ctx.target.sandbox!, evaluate}))
    }
    return finish({outcome: error ? 'fail' : 'pass', error, retryable: false, trace, tokens, assertion})
  } catch (error) {
    const kind = limits.kind()
    if (kind) return ended(kind)
    // Bad bindings are bad input: they stop the suite rather than fail one run.
    if ((error as Error).name === 'BadInputError') throw error
    return finish({outcome: 'infra_error', error: {type: 'runner_error', message: (error as Error).message}, retryable: isInfrastructureError(error)})
  } finally {
    limits.dispose()
    releaseModel()
    // A session that does not close (a hung MCP server) cannot hold the run either.
    if (session) await withinAbort(session.close(), AbortSignal.abort(), ABORT_GRACE_MS).catch(() => {})
    access?.release()
    await rm(workdir, {recursive: true, force: true}).catch(() => {})
  }
}

async function writeTrace(ctx: SuiteContext, run: PlannedRun, scenario: Scenario, attempt: Attempt): Promise<string> {
  const relative = path.join(ctx.runId, 'traces', traceFileName(run, attempt.record.attempt))
  const file = path.join(ctx.resultsDir, relative)
  const document = ctx.redact({
    run_id: ctx.runId,
    scenario_id: run.scenario_id,
    mode: run.mode,
    iteration: run.iteration,
    attempt: attempt.record,
    variables: attempt.variables,
    prompt: attempt.variables ? renderPrompt(scenario, attempt.variables) : null,
    stop_reason: attempt.trace?.stop_reason ?? null,
    final_text: attempt.trace?.final_text ?? null,
    turns: attempt.trace?.turns ?? [],
    messages: attempt.trace?.messages ?? [],
    assertion: attempt.assertion ?? null,
    checkpoints: attempt.checkpoints,
    timing: attempt.timing,
  })
  await writeFileAtomic(file, JSON.stringify(document, null, 2) + '\n')
  return relative
}

/** Runs every attempt of one planned run and builds its row; null when Ctrl-C interrupted it. */
export async function executeRun(ctx: SuiteContext, run: PlannedRun, scenario: Scenario): Promise<Row | null> {
  const startedAt = new Date()
  const started = performance.now()
  const maxAttempts = 1 + Math.max(ctx.infraRetries, scenario.allowed_retries ?? 0)
  const attempts: Attempt[] = []
  for (let n = 1; n <= maxAttempts; n++) {
    const attempt = await runAttempt(ctx, run, scenario, n)
    if (attempt.interrupted) return null
    attempt.tracePath = await writeTrace(ctx, run, scenario, attempt)
    attempts.push(attempt)
    if (!attempt.retryable || ctx.signal.aborted) break
    // Back off a little: infrastructure that just failed is often busy.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** (n - 1))))
  }
  const last = attempts.at(-1)!
  const toolCalls = last.trace?.turns.flatMap((t) => t.tool_calls) ?? []
  const usage = sumUsage((last.trace?.turns ?? []).map((t) => t.usage))
  const accounting = accountToolCalls(toolCalls, new Set(last.mcpTools))
  const cost = last.trace?.cost_usd ?? (ctx.price ? priceOf(usage, ctx.price) : null)
  const row: Row = {
    schema_version: 1,
    run_id: ctx.runId,
    suite: ctx.suite,
    scenario_id: run.scenario_id,
    scenario_type: scenario.type,
    scenario_set: ctx.scenarioSet,
    mode: run.mode,
    provider: ctx.provider.name,
    model: ctx.model.label,
    iteration: run.iteration,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    outcome: last.outcome,
    success: last.outcome === 'pass',
    output_valid: scenario.type === 'atomic' ? (last.assertion?.output_valid ?? false) : last.outcome === 'pass' || last.outcome === 'fail',
    error: last.error,
    latency_ms_wall: performance.now() - started,
    latency_ms_agent: last.agentMs,
    tokens: last.tokens,
    cost_usd: cost,
    tool_calls: {total: toolCalls.length, failed: accounting.failed, by_category: accounting.by_category, by_operation: accounting.by_operation, by_route: accounting.by_route, invocations: last.invocations ?? accounting.invocations},
    github_api_calls: last.apiCalls,
    checkpoints: last.checkpoints.map((c) => ({name: c.name, passed: c.passed, expected: c.expected, actual: c.actual, message: c.message, task: c.task, result: c.result})),
    retries: attempts.length - 1,
    attempts: attempts.map((a) => a.record),
    versions: ctx.modes.get(run.mode)?.tools ? {...ctx.versions, tools: ctx.modes.get(run.mode)!.tools} : ctx.versions,
    git: ctx.git,
    fixture_seed: ctx.fixtures.manifest.seed_id,
    trace: last.tracePath,
    variables: last.variables,
    timing: last.timing,
    ...(last.toolSchema ? {tool_schema: last.toolSchema} : {}),
    ...(ctx.injectFaults ? {injected_faults: attempts.reduce((sum, a) => sum + a.injectedFaults, 0)} : {}),
    route_used: last.assertion?.route_used ?? null,
    // ghx reports its own retries in every envelope it prints; other arms have none to report.
    internal_retries: accounting.by_category.ghx_capability ? accounting.internal_retries : (last.assertion?.internal_retries ?? null),
  }
  return ctx.redact(row)
}
