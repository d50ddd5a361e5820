/**
 * One attempt of a run, as the pipeline it is: its fixtures made ready, bound, the mode session opened,
 * the provider driving the model under the run's limits, what the agent left read, then the envelope
 * (atomic) and the checkpoints judged by the verdict (src/verify/verdict.ts). Each step is a function
 * below; one that ends the attempt early throws AttemptEnded (attempt-state.ts). Everything the attempt
 * does on GitHub (fixtures, the agent, checkpoints) goes to its own GitHub (GitHubTarget.openRun: on the
 * sandbox a world of its own). What the attempt takes (its folder, its GitHub, the model endpoint, the
 * session, a plugin it left behind) it holds in
 * `held`, released beside the next runs whichever way the attempt ends. Whatever happens, the attempt
 * comes back as a record: retryable when infrastructure failed, interrupted when Ctrl-C ended it.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {sumUsage} from '../agent/agent-loop.js'
import {toolPayload} from '../agent/chat-completions.js'
import type {PlanOutcome} from '../agent/scripted-models.js'
import {readCallLog, readLayerLog} from '../agent/shell-tool.js'
import type {RunGitHub} from '../github/target.js'
import {isInfrastructureError, type Mode, type ModelEndpoint, type ProviderTrace} from '../plugins/api.js'
import type {Tokens} from '../results/row-schema.js'
import {checkpointsOf, type Scenario} from '../schemas/scenario.js'
import {resolveVariables} from '../seeding/bindings.js'
import type {Manifest} from '../seeding/manifest.js'
import {Holdings} from '../shared/holdings.js'
import {checkAssertions} from '../verify/assertions.js'
import {checkVariables, evaluateCheckpoints} from '../verify/checkpoints.js'
import {verdictOf, type RunStop} from '../verify/verdict.js'
import {AttemptEnded, AttemptState, type Attempt} from './attempt-state.js'
import {mutationTest, observe} from './mutation.js'
import type {PlannedRun} from './plan.js'
import {renderPrompt} from './prompt.js'
import {tokensOf} from '../results/usage.js'
import {attemptLimits, settledWithin, withinAbort, type AttemptLimits} from './run-limits.js'
import {prepareRunFixtures} from './run-fixtures.js'
import type {SuiteContext} from './suite-context.js'

export type {Attempt} from './attempt-state.js'

type Session = Awaited<ReturnType<Mode['open']>>

/** What the run's fixtures bind: its variables, its prompt, and what the checkpoints read before (mutation testing). */
interface Bound {
  manifest: Manifest
  variables: Record<string, unknown>
  prompt: string
  observedBefore?: Awaited<ReturnType<typeof observe>>
}

/** What the agent ended with: its trace and tokens, and the plan's failure when the model is the oracle. */
interface AgentOutcome {
  trace: ProviderTrace
  tokens: Tokens
  planFailure?: PlanOutcome['failure']
}

export async function runAttempt(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  attemptNo: number,
): Promise<Attempt> {
  const attempt = new AttemptState(ctx, attemptNo)
  // Releasing what the run held is no part of it: it goes on beside the next runs, and the suite waits for it before it closes.
  await using held = Holdings.inBackground((work) => ctx.inBackground(work))
  using limits = attemptLimits(ctx.signal, {
    runMs: scenario.timeout_ms ?? ctx.timeouts.run_ms,
    stallMs: ctx.timeouts.stall_ms,
  })
  try {
    const {workdir, github} = await takeWorkplace(ctx, held)
    const manifest = await readyFixtures(ctx, run, scenario, attemptNo, github, attempt)
    const bound = await bind(ctx, scenario, manifest, github, attempt)
    // The run's clock starts with the arm: opening the session (an MCP server starting) counts, fixture work does not.
    limits.start()
    const {access} = github
    attempt.access = access
    // The agent's API cost counts from here: its session's start-up is part of it, fixture work is not.
    await access.startCounting()
    const {session, model} = await openSession(ctx, run, scenario, bound, {workdir, github}, limits, attempt, held)
    const outcome = await readWhatTheAgentLeft(
      await drive(ctx, run, bound.prompt, session, model, limits, attempt, held),
      workdir,
      limits,
      attempt,
    )
    return await judge(ctx, run, scenario, bound, github, outcome, attempt)
  } catch (error) {
    return await attempt.end(error, limits)
  }
}

/** The run's folder and its GitHub (where its fixtures are made ready), released after the run. */
function takeWorkplace(ctx: SuiteContext, held: Holdings): Promise<{workdir: string; github: RunGitHub}> {
  const workdirMade = mkdtemp(path.join(tmpdir(), 'ghx-bench-run-'))
  const githubOpened = workdirMade.then(async (workdir) => ({workdir, github: await ctx.target.openRun(workdir)}))
  // Awaited in the run, released after it; a failure is the run's, not an unhandled rejection.
  githubOpened.catch(() => {})
  held.defer(() => githubOpened.then(({github}) => github.release()))
  held.defer(() => workdirMade.then((dir) => rm(dir, {recursive: true, force: true})))
  return githubOpened
}

/** The manifest this attempt binds against; fixtures that could not be made ready end it as a fixture error (retried). */
async function readyFixtures(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  attemptNo: number,
  github: RunGitHub,
  attempt: AttemptState,
): Promise<Manifest> {
  const started = performance.now()
  try {
    return await prepareRunFixtures(ctx, run, scenario, attemptNo, github)
  } catch (error) {
    throw new AttemptEnded({
      outcome: 'infra_error',
      error: {type: 'fixture_error', message: (error as Error).message},
      retryable: true,
    })
  } finally {
    attempt.timing.fixtures_ms = performance.now() - started
  }
}

async function bind(
  ctx: SuiteContext,
  scenario: Scenario,
  manifest: Manifest,
  github: RunGitHub,
  attempt: AttemptState,
): Promise<Bound> {
  const variables = resolveVariables(scenario, manifest, ctx.manifestFile, ctx.runId)
  attempt.fields.variables = variables
  // Mutation testing compares what the checkpoints read before and after the agent's run.
  const observedBefore =
    ctx.mutation && github.states
      ? await observe(checkpointsOf(scenario), variables, github.agent, ctx.registry)
      : undefined
  return {manifest, variables, prompt: renderPrompt(scenario, variables), ...(observedBefore ? {observedBefore} : {})}
}

/** The mode's session, opened under the run's limits, and the model's endpoint, registered meanwhile. */
async function openSession(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  bound: Bound,
  {workdir, github: {access}}: {workdir: string; github: RunGitHub},
  limits: AttemptLimits,
  attempt: AttemptState,
  held: Holdings,
): Promise<{session: Session; model: ModelEndpoint}> {
  const {mode, options} = ctx.modes.get(run.mode)!
  const opening = performance.now()
  const registered = ctx.model.endpointFor(scenario, run.mode, bound.variables, {manifest: bound.manifest, mode})
  held.defer(() => registered.then((endpoint) => endpoint.release()))
  const opened = mode.open({
    options,
    github: {
      apiUrl: access.apiUrl,
      graphqlUrl: access.graphqlUrl,
      token: access.token,
      env: access.env,
      nodeEnv: access.nodeEnv,
    },
    workdir,
    signal: limits.signal,
  })
  const session = await withinAbort(opened, limits.signal).catch((error: unknown) => {
    // A session that opens after the run gave up on it is closed when it does.
    const lateClose = settledWithin(opened.then((late) => late.close()))
    held.defer(() => lateClose)
    throw error
  })
  attempt.opened(session)
  held.defer(() => attempt.closeSession())
  attempt.timing.session_ms = performance.now() - opening
  if (session.mcpServers?.length) attempt.fields.mcpTools = session.tools.map((t) => t.name)
  // Registered while the session opened: the model's endpoint and the tool definitions' tokens.
  const [endpoint, schemaTokens] = await Promise.all([
    registered,
    ctx.model.countTokens(JSON.stringify(toolPayload(session.tools))),
  ])
  if (endpoint.report) attempt.modelReport = endpoint.report
  attempt.fields.toolSchema = {
    count: session.tools.length,
    tokens: schemaTokens,
    names: session.tools.map((t) => t.name),
  }
  return {session, model: endpoint.endpoint}
}

/** The provider drives the model through the session under the run's limits; a failure or an abort ends the attempt. */
async function drive(
  ctx: SuiteContext,
  run: PlannedRun,
  prompt: string,
  session: Session,
  model: ModelEndpoint,
  limits: AttemptLimits,
  attempt: AttemptState,
  held: Holdings,
): Promise<ProviderTrace> {
  const provider = ctx.providers.get(run.provider)!
  const started = performance.now()
  // Through a promise: a plugin's run that throws at once fails the run like one that rejects.
  const providerRun = Promise.resolve().then(() =>
    provider.plugin.run({
      prompt,
      session,
      model,
      options: provider.options,
      limits: {timeout_ms: limits.runMs, ...ctx.limits},
      signal: limits.signal,
      onProgress: (event) => {
        limits.progress()
        ctx.onProgress?.(run, event)
      },
    }),
  )
  // A run the timeout left behind still cleans up (kills its server) after the row is written: the suite waits
  // for that, LEFT_BEHIND_MS from the run's start at most.
  const leftBehind = settledWithin(providerRun)
  held.defer(() => leftBehind)
  try {
    return await withinAbort(providerRun, limits.signal)
  } catch (error) {
    const kind = limits.kind()
    if (kind) throw new AttemptEnded(attempt.abortedBy(kind))
    const partial = (error as {trace?: ProviderTrace}).trace
    throw new AttemptEnded({
      outcome: 'infra_error',
      error: {
        type: isInfrastructureError(error) ? 'provider_error' : 'runner_error',
        message: (error as Error).message,
      },
      retryable: isInfrastructureError(error),
      trace: partial,
      tokens: tokensOf(sumUsage((partial?.turns ?? []).map((t) => t.usage))),
    })
  } finally {
    attempt.fields.agentMs = performance.now() - started
  }
}

/** What the agent left behind, read at once: its API calls and faults, its tools' call log and layer log, the plan's outcome. */
async function readWhatTheAgentLeft(
  trace: ProviderTrace,
  workdir: string,
  limits: AttemptLimits,
  attempt: AttemptState,
): Promise<AgentOutcome> {
  const done = attempt.agentFinished()
  const [counts, invocations, layerLog, report] = await Promise.all([
    done.github,
    readCallLog(workdir),
    readLayerLog(workdir),
    done.model,
  ])
  Object.assign(attempt.fields, {
    apiCalls: counts?.apiCalls ?? null,
    githubApi: counts?.api ?? null,
    invocations,
    layerLog,
  })
  const toolMs = trace.turns.flatMap((t) => t.tool_calls).reduce((sum, call) => sum + call.ms, 0)
  Object.assign(attempt.timing, {
    turns: trace.turns.length,
    tools_ms: toolMs,
    model_ms: Math.max(0, trace.turns.reduce((sum, t) => sum + t.ms, 0) - toolMs),
  })
  const tokens = tokensOf(sumUsage(trace.turns.map((t) => t.usage)))
  const kind = limits.kind()
  if (kind) throw new AttemptEnded(attempt.abortedBy(kind, {trace, tokens}))
  // The agent is done: the run's clock stops before the checks.
  limits.dispose()
  return {trace, tokens, planFailure: report?.plan.failure}
}

/** The envelope (atomic) and the checkpoints, judged by the verdict; a run that passed is mutation-tested when calibration asks. */
async function judge(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  bound: Bound,
  github: RunGitHub,
  {trace, tokens, planFailure}: AgentOutcome,
  attempt: AttemptState,
): Promise<Attempt> {
  const toolCalls = trace.turns.reduce((sum, t) => sum + t.tool_calls.length, 0)
  const assertion =
    scenario.type === 'atomic'
      ? checkAssertions(scenario, trace.final_text, toolCalls, ctx.modes.get(run.mode)!.mode.envelope)
      : undefined
  // The checks know what the agent answered: they compare it with GitHub's state. Rows keep them for re-grading.
  const judged = checkVariables(scenario, bound.variables, trace.final_text, assertion?.envelope ?? null)
  attempt.fields.variables = judged
  const checkpointsStarted = performance.now()
  const checkpoints = await evaluateCheckpoints(checkpointsOf(scenario), {
    octokit: github.agent,
    registry: ctx.registry,
    variables: judged,
    budgetMs: ctx.timeouts.checkpoint_ms,
    intervalMs: ctx.timeouts.checkpoint_interval_ms,
    signal: ctx.signal,
  })
  attempt.timing.checkpoints_ms = performance.now() - checkpointsStarted
  // Ctrl-C during the checks cut their polling short: the verdict would be a guess, so the run is redone on resume.
  if (ctx.signal.aborted) throw new AttemptEnded(attempt.abortedBy('interrupted', {trace, tokens}))
  attempt.fields.checkpoints = checkpoints
  const verdict = verdictOf({scenario, stop: stopOf(trace, planFailure), assertion, checkpoints})
  if (verdict.success && checkpoints.every((c) => c.passed) && bound.observedBefore && ctx.mutation && github.states) {
    const evaluate = () =>
      evaluateCheckpoints(checkpointsOf(scenario), {
        octokit: github.agent,
        registry: ctx.registry,
        variables: judged,
        budgetMs: 0,
        signal: ctx.signal,
      })
    const after = await observe(checkpointsOf(scenario), judged, github.agent, ctx.registry)
    ctx.mutation(
      await mutationTest({
        scenario,
        mode: run.mode,
        before: bound.observedBefore,
        after,
        octokit: github.agent,
        sandbox: github.states,
        evaluate,
      }),
    )
  }
  return attempt.finish({outcome: verdict.outcome, error: verdict.error, retryable: false, trace, tokens, assertion})
}

/** What stopped the agent before its checks could decide the run: a failed step of the oracle's plan, or a limit. */
function stopOf(trace: ProviderTrace, planFailure: PlanOutcome['failure'] | undefined): RunStop | null {
  // The oracle's plan must go through: a step that failed fails the run, whatever the checks say.
  if (planFailure)
    return {
      type: 'reference_plan_failed',
      message:
        planFailure.step === 0
          ? planFailure.message
          : `reference plan step ${planFailure.step} (${planFailure.tool}) failed: ${planFailure.message}`,
    }
  if (trace.stop_reason === 'max_turns' || trace.stop_reason === 'max_tokens') {
    return {
      type: trace.stop_reason,
      message: `the run reached its ${trace.stop_reason === 'max_turns' ? 'turn' : 'token'} limit`,
    }
  }
  return null
}
