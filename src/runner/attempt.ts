/**
 * One attempt of a run: its fixtures made ready, bound, the mode session opened, the provider driving
 * the model under the run's limits, then the envelope (atomic) and the checkpoints judged by the verdict (src/verify/verdict.ts). Whatever happens, the attempt comes back as a record:
 * retryable when infrastructure failed, interrupted when Ctrl-C ended it.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {sumUsage} from '../agent/agent-loop.js'
import type {PlanOutcome} from '../agent/scripted-models.js'
import type {ModelReport} from './model-source.js'
import {toolPayload} from '../agent/chat-completions.js'
import {readCallLog, readLayerLog} from '../agent/shell-tool.js'
import {resolveVariables} from '../seeding/bindings.js'
import type {Manifest} from '../seeding/manifest.js'
import type {AccessCounts, AgentAccess} from '../github/target.js'
import {isInfrastructureError, type Mode, type ProviderTrace, type Usage} from '../plugins/api.js'
import type {Row} from '../results/row-schema.js'
import {checkpointsOf, type Scenario} from '../schemas/scenario.js'
import {checkAssertions} from '../verify/assertions.js'
import {checkVariables, evaluateCheckpoints, type CheckpointResult} from '../verify/checkpoints.js'
import {verdictOf, type RunStop} from '../verify/verdict.js'
import {mutationTest, observe} from './mutation.js'
import type {PlannedRun} from './plan.js'
import {renderPrompt} from './prompt.js'
import {tokensOf, type AttemptRecord} from './row.js'
import {ABORT_GRACE_MS, attemptLimits, settledWithin, withinAbort, type AbortKind} from './run-limits.js'
import {prepareRunFixtures} from './run-fixtures.js'
import type {SuiteContext} from './suite-context.js'

export interface Attempt extends AttemptRecord {
  /** Infrastructure failed: another attempt may succeed. */
  retryable: boolean
  /** Ctrl-C ended it: not recorded (resume runs it again). */
  interrupted: boolean
}

const ZERO_USAGE: Usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}

/** What stopped the agent before its checks could decide the run: a failed step of the oracle's plan, or a limit. */
function stopOf(trace: ProviderTrace, planFailure: PlanOutcome['failure'] | undefined): RunStop | null {
  // The oracle's plan must go through: a step that failed fails the run, whatever the checks say.
  if (planFailure) return {type: 'reference_plan_failed', message: planFailure.step === 0 ? planFailure.message : `reference plan step ${planFailure.step} (${planFailure.tool}) failed: ${planFailure.message}`}
  if (trace.stop_reason === 'max_turns' || trace.stop_reason === 'max_tokens') {
    return {type: trace.stop_reason, message: `the run reached its ${trace.stop_reason === 'max_turns' ? 'turn' : 'token'} limit`}
  }
  return null
}

export async function runAttempt(ctx: SuiteContext, run: PlannedRun, scenario: Scenario, attemptNo: number): Promise<Attempt> {
  const startedAt = new Date()
  const started = performance.now()
  const timing = {model_ms: 0, tools_ms: 0, session_ms: 0, fixtures_ms: 0, checkpoints_ms: 0, turns: 0}
  const base = {checkpoints: [] as CheckpointResult[], variables: null as Record<string, unknown> | null, apiCalls: null as number | null, agentMs: null as number | null, tracePath: null as string | null, timing, toolSchema: undefined as Row['tool_schema'], mcpTools: [] as string[], invocations: null as Record<string, number> | null, layerLog: null as string | null}
  let modelReport: () => Promise<ModelReport | undefined> = () => Promise.resolve(undefined)
  // Faults seen so far by the run's GitHub and model traffic; once the agent is done, what it left.
  let agentDone: {github: Promise<AccessCounts | undefined>; model: Promise<ModelReport | undefined>} | undefined
  const faultsSoFar = async () => {
    const [github, model] = await Promise.all(agentDone ? [agentDone.github, agentDone.model] : [access ? access.counts() : Promise.resolve(undefined), modelReport()])
    return (github?.injectedFaults ?? 0) + (model?.injectedFaults ?? 0)
  }
  // A session that does not close (a hung MCP server) cannot hold the run either. Closing is the mode's
  // cost like opening (an MCP server exits): it counts in session_ms, and in the wall time, which ends
  // once the session is closed. Closed once, by the first of finish and the clean-up.
  let sessionClosed: Promise<void> | undefined
  const closeSession = (): Promise<void> =>
    (sessionClosed ??= (async () => {
      if (!session) return
      const closing = performance.now()
      await withinAbort(session.close(), AbortSignal.abort(), ABORT_GRACE_MS).catch(() => {})
      timing.session_ms += performance.now() - closing
    })())
  const finish = async (given: Pick<Attempt, 'outcome' | 'error' | 'retryable'> & Partial<Attempt>): Promise<Attempt> => {
    await closeSession()
    const wallMs = performance.now() - started
    const tokens = given.tokens ?? tokensOf(ZERO_USAGE)
    const injectedFaults = await faultsSoFar()
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
        latency_ms_wall: wallMs,
        tokens,
        ...(ctx.injectFaults ? {injected_faults: injectedFaults} : {}),
      },
    }
  }
  // An attempt the signal ended: Ctrl-C (not recorded; resume redoes it), or a timeout or stall (recorded).
  const ended = async (kind: AbortKind, partial: Partial<Attempt> = {}): Promise<Attempt> =>
    kind === 'interrupted'
      ? {...(await finish({outcome: 'infra_error', error: {type: 'interrupted', message: 'interrupted'}, retryable: false, ...partial})), interrupted: true}
      : finish({outcome: 'timeout', error: {type: kind, message: `${kind} after ${Math.round(performance.now() - started)} ms`}, retryable: false, ...partial})
  // The run's folder and the agent's access are made while its fixtures are made ready: no step waits for them.
  const workdirMade = mkdtemp(path.join(tmpdir(), 'ghx-bench-run-'))
  const accessMade = workdirMade.then(async (dir) => ({workdir: dir, access: await ctx.target.agentAccess(dir)}))
  // Awaited in the run, released after it; a failure is the run's (below), not an unhandled rejection.
  accessMade.catch(() => {})
  const runMs = scenario.timeout_ms ?? ctx.timeouts.run_ms
  const limits = attemptLimits(ctx.signal, {runMs, stallMs: ctx.timeouts.stall_ms})
  const {mode, options: modeOptions} = ctx.modes.get(run.mode)!
  let releaseModel = async () => {}
  let access: AgentAccess | undefined
  let session: Awaited<ReturnType<Mode['open']>> | undefined
  try {
    const fixturesStarted = performance.now()
    let manifest: Manifest
    try {
      manifest = await prepareRunFixtures(ctx, run, scenario, attemptNo)
    } catch (error) {
      return await finish({outcome: 'infra_error', error: {type: 'fixture_error', message: (error as Error).message}, retryable: true})
    } finally {
      timing.fixtures_ms = performance.now() - fixturesStarted
    }
    const variables = resolveVariables(scenario, manifest, ctx.manifestFile, ctx.runId)
    base.variables = variables
    const prompt = renderPrompt(scenario, variables)
    // Mutation testing compares what the checkpoints read before and after the agent's run.
    const observedBefore = ctx.mutation && ctx.target.sandbox ? await observe(checkpointsOf(scenario), variables, ctx.target.agent, ctx.registry) : undefined
    // The run's clock starts with the arm: opening the session (an MCP server starting) counts, fixture work does not.
    limits.start()
    const made = await accessMade
    access = made.access
    const workdir = made.workdir
    const opening = performance.now()
    const registered = ctx.model.endpointFor(scenario, run.mode, variables, {manifest, mode})
    const opened = mode.open({options: modeOptions, github: {apiUrl: access.apiUrl, graphqlUrl: access.graphqlUrl, token: access.token, env: access.env, nodeEnv: access.nodeEnv}, workdir, signal: limits.signal})
    session = await withinAbort(opened, limits.signal).catch((error: unknown) => {
      // A session that opens after the run gave up on it is closed when it does; the model's run is let go.
      ctx.inBackground(settledWithin(opened.then((late) => late.close())))
      ctx.inBackground(registered.then((late) => late.release()))
      throw error
    })
    timing.session_ms = performance.now() - opening
    if (session.mcpServers?.length) base.mcpTools = session.tools.map((t) => t.name)
    // Registered while the session opened: the model's endpoint and the tool definitions' tokens.
    const [endpoint, schemaTokens] = await Promise.all([registered, ctx.model.countTokens(JSON.stringify(toolPayload(session.tools)))])
    releaseModel = endpoint.release
    if (endpoint.report) modelReport = endpoint.report
    base.toolSchema = {count: session.tools.length, tokens: schemaTokens, names: session.tools.map((t) => t.name)}
    const agentStarted = performance.now()
    let trace: ProviderTrace
    const provider = ctx.providers.get(run.provider)!
    // Through a promise: a plugin's run that throws at once fails the run like one that rejects.
    const providerRun = Promise.resolve().then(() =>
      provider.plugin.run({
        prompt,
        session: session!,
        model: endpoint.endpoint,
        options: provider.options,
        limits: {timeout_ms: runMs, ...ctx.limits},
        signal: limits.signal,
        onProgress: (event) => {
          limits.progress()
          ctx.onProgress?.(run, event)
        },
      }),
    )
    // A run the timeout left behind still cleans up (kills its server) after the row is written: the suite waits for that.
    ctx.inBackground(settledWithin(providerRun))
    try {
      trace = await withinAbort(providerRun, limits.signal)
    } catch (error) {
      base.agentMs = performance.now() - agentStarted
      const kind = limits.kind()
      if (kind) return await ended(kind)
      const partial = (error as {trace?: ProviderTrace}).trace
      return await finish({
        outcome: 'infra_error',
        error: {type: isInfrastructureError(error) ? 'provider_error' : 'runner_error', message: (error as Error).message},
        retryable: isInfrastructureError(error),
        trace: partial,
        tokens: tokensOf(sumUsage((partial?.turns ?? []).map((t) => t.usage))),
      })
    }
    base.agentMs = performance.now() - agentStarted
    // What the agent left behind, read at once: its API calls and faults, its tools' call log and layer log, the plan's outcome.
    agentDone = {github: access.counts(), model: modelReport()}
    const [counts, invocations, layerLog, report] = await Promise.all([agentDone.github, readCallLog(workdir), readLayerLog(workdir), agentDone.model])
    base.apiCalls = counts?.apiCalls ?? null
    base.invocations = invocations
    base.layerLog = layerLog
    const toolMs = trace.turns.flatMap((t) => t.tool_calls).reduce((sum, call) => sum + call.ms, 0)
    timing.turns = trace.turns.length
    timing.tools_ms = toolMs
    timing.model_ms = Math.max(0, trace.turns.reduce((sum, t) => sum + t.ms, 0) - toolMs)
    const tokens = tokensOf(sumUsage(trace.turns.map((t) => t.usage)))
    const kind = limits.kind()
    if (kind) return await ended(kind, {trace, tokens})
    limits.dispose()
    const toolCalls = trace.turns.reduce((sum, t) => sum + t.tool_calls.length, 0)
    const assertion = scenario.type === 'atomic' ? checkAssertions(scenario, trace.final_text, toolCalls, mode.envelope) : undefined
    // The checks know what the agent answered: they compare it with GitHub's state. Rows keep them for re-grading.
    const judged = checkVariables(scenario, variables, trace.final_text, assertion?.envelope ?? null)
    base.variables = judged
    const checkpointsStarted = performance.now()
    const checkpoints = await evaluateCheckpoints(checkpointsOf(scenario), {
      octokit: ctx.target.agent,
      registry: ctx.registry,
      variables: judged,
      budgetMs: ctx.timeouts.checkpoint_ms,
      intervalMs: ctx.timeouts.checkpoint_interval_ms,
      signal: ctx.signal,
    })
    timing.checkpoints_ms = performance.now() - checkpointsStarted
    // Ctrl-C during the checks cut their polling short: the verdict would be a guess, so the run is redone on resume.
    if (ctx.signal.aborted) return await ended('interrupted', {trace, tokens})
    base.checkpoints = checkpoints
    const verdict = verdictOf({scenario, stop: stopOf(trace, report?.plan.failure), assertion, checkpoints})
    if (verdict.success && checkpoints.every((c) => c.passed) && observedBefore && ctx.mutation) {
      const evaluate = () => evaluateCheckpoints(checkpointsOf(scenario), {octokit: ctx.target.agent, registry: ctx.registry, variables: judged, budgetMs: 0, signal: ctx.signal})
      const after = await observe(checkpointsOf(scenario), judged, ctx.target.agent, ctx.registry)
      ctx.mutation(await mutationTest({scenario, mode: run.mode, before: observedBefore, after, octokit: ctx.target.agent, sandbox: ctx.target.sandbox!, evaluate}))
    }
    return await finish({outcome: verdict.outcome, error: verdict.error, retryable: false, trace, tokens, assertion})
  } catch (error) {
    const kind = limits.kind()
    if (kind) return await ended(kind)
    // Bad bindings are bad input: they stop the suite rather than fail one run.
    if ((error as Error).name === 'BadInputError') throw error
    return await finish({outcome: 'infra_error', error: {type: 'runner_error', message: (error as Error).message}, retryable: isInfrastructureError(error)})
  } finally {
    limits.dispose()
    // Releasing what the run held is no part of it: it goes on beside the next runs, and the suite waits for it before it closes.
    ctx.inBackground(
      Promise.allSettled([
        releaseModel(),
        closeSession(),
        accessMade.then(({access: made}) => made.release()),
        workdirMade.then((dir) => rm(dir, {recursive: true, force: true})),
      ]),
    )
  }
}
