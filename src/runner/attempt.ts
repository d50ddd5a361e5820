/**
 * One attempt of a run: its fixtures made ready, bound, the mode session opened, the provider driving
 * the model under the run's limits, then the envelope (atomic) or the checkpoints (workflow) judged
 * by the verdict (src/verify/verdict.ts). Whatever happens, the attempt comes back as a record:
 * retryable when infrastructure failed, interrupted when Ctrl-C ended it.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {countTokens} from 'gpt-tokenizer'
import {sumUsage} from '../agent/agent-loop.js'
import type {PlanOutcome} from '../agent/scripted-models.js'
import {toolPayload} from '../agent/chat-completions.js'
import {readCallLog} from '../agent/shell-tool.js'
import {resolveVariables} from '../seeding/bindings.js'
import type {Manifest} from '../seeding/manifest.js'
import {isInfrastructureError, type Mode, type ProviderTrace, type Usage} from '../plugins/api.js'
import type {Row} from '../results/row-schema.js'
import type {Scenario} from '../schemas/scenario.js'
import {checkAssertions} from '../verify/assertions.js'
import {evaluateCheckpoints, type CheckpointResult} from '../verify/checkpoints.js'
import {verdictOf, type RunStop} from '../verify/verdict.js'
import {mutationTest, observe} from './mutation.js'
import type {PlannedRun} from './plan.js'
import {renderPrompt} from './prompt.js'
import {tokensOf, type AttemptRecord} from './row.js'
import {ABORT_GRACE_MS, attemptLimits, withinAbort, type AbortKind} from './run-limits.js'
import {prepareRunFixtures} from './run-fixtures.js'
import type {SuiteContext} from './suite-context.js'
import type {RunTarget} from './target.js'

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
  const runMs = scenario.timeout_ms ?? ctx.timeouts.run_ms
  const limits = attemptLimits(ctx.signal, {runMs, stallMs: ctx.timeouts.stall_ms})
  const {mode, options: modeOptions} = ctx.modes.get(run.mode)!
  let releaseModel = () => {}
  let access: ReturnType<RunTarget['agentAccess']> | undefined
  let session: Awaited<ReturnType<Mode['open']>> | undefined
  try {
    const fixturesStarted = performance.now()
    let manifest: Manifest
    try {
      manifest = await prepareRunFixtures(ctx, run, scenario, attemptNo)
    } catch (error) {
      return finish({outcome: 'infra_error', error: {type: 'fixture_error', message: (error as Error).message}, retryable: true})
    } finally {
      timing.fixtures_ms = performance.now() - fixturesStarted
    }
    const variables = resolveVariables(scenario, manifest, ctx.manifestFile, ctx.runId)
    base.variables = variables
    const prompt = renderPrompt(scenario, variables)
    // Mutation testing compares what the checkpoints read before and after the agent's run.
    const observedBefore = ctx.mutation && ctx.target.sandbox && scenario.type === 'workflow' ? await observe(scenario, variables, ctx.target.reader, ctx.registry) : undefined
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
        limits: {timeout_ms: runMs, ...ctx.limits},
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
    const verdict = verdictOf({scenario, stop: stopOf(trace, model.planOutcome?.().failure), assertion, checkpoints})
    if (verdict.success && checkpoints.every((c) => c.passed) && observedBefore && ctx.mutation && scenario.type === 'workflow') {
      const evaluate = () => evaluateCheckpoints(scenario.assertions.checkpoints, {octokit: ctx.target.reader, registry: ctx.registry, variables, budgetMs: 0, signal: ctx.signal})
      const after = await observe(scenario, variables, ctx.target.reader, ctx.registry)
      ctx.mutation(await mutationTest({scenario, before: observedBefore, after, octokit: ctx.target.reader, sandbox: ctx.target.sandbox!, evaluate}))
    }
    return finish({outcome: verdict.outcome, error: verdict.error, retryable: false, trace, tokens, assertion})
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
