/**
 * A run's row, from its attempts: the last attempt decides the outcome and the figures (tokens, cost
 * from the provider or the price table, tool calls, timing); every attempt stays in `attempts`.
 */
import {sumUsage} from '../agent/agent-loop.js'
import type {ProviderTrace} from '../plugins/api.js'
import type {Row, Tokens} from '../results/row-schema.js'
import {priceOf} from '../results/usage.js'
import type {Scenario} from '../schemas/scenario.js'
import type {AssertionResult} from '../verify/assertions.js'
import type {CheckpointResult} from '../verify/checkpoints.js'
import {outputValidOf} from '../verify/verdict.js'
import type {PlannedRun} from './plan.js'
import type {SuiteContext} from './suite-context.js'
import {accountToolCalls} from '../tool-accounting/accounting.js'

/** One attempt as the row needs it. */
export interface AttemptRecord {
  record: Row['attempts'][number]
  outcome: Row['outcome']
  error: Row['error']
  tokens: Tokens
  trace?: ProviderTrace
  assertion?: AssertionResult
  checkpoints: CheckpointResult[]
  variables: Record<string, unknown> | null
  apiCalls: number | null
  githubApi?: Row['github_api']
  agentMs: number | null
  timing: NonNullable<Row['timing']>
  tracePath: string | null
  toolSchema: Row['tool_schema']
  /** The session's tools that come from an MCP server. */
  mcpTools: string[]
  /** gh/ghx processes the run really started (its shell arm's call log), when it has one. */
  invocations: Record<string, number> | null
  /** The tool layer's own log of the run (ghx: GHX_LOG_DIR), for its mode's accounting; never written to a row or trace. */
  layerLog: string | null
  /** Faults --inject-faults put into this attempt's traffic (its agent's GitHub and model requests). */
  injectedFaults: number
}

export function buildRow(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  attempts: AttemptRecord[],
  times: {startedAt: Date; wallMs: number},
): Row {
  const last = attempts.at(-1)!
  const toolCalls = last.trace?.turns.flatMap((t) => t.tool_calls) ?? []
  const usage = sumUsage((last.trace?.turns ?? []).map((t) => t.usage))
  // The mode's tool layer (ghx) is read by the mode's own accounting hook, its own log of the run with it.
  const layer = ctx.modes.get(run.mode)?.mode.accounting
  const accounting = accountToolCalls(toolCalls, new Set(last.mcpTools), layer, last.layerLog)
  const cost = last.trace?.cost_usd ?? (ctx.price ? priceOf(usage, ctx.price) : null)
  const tools = ctx.modes.get(run.mode)?.tools
  return {
    schema_version: 1,
    run_id: ctx.runId,
    suite: ctx.suite,
    scenario_id: run.scenario_id,
    scenario_type: scenario.type,
    scenario_set: ctx.scenarioSet,
    mode: run.mode,
    provider: run.provider,
    model: ctx.model.label,
    iteration: run.iteration,
    started_at: times.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    outcome: last.outcome,
    success: last.outcome === 'pass',
    output_valid: outputValidOf(scenario, last.outcome, last.assertion),
    expected_outcome: scenario.assertions.expected_outcome,
    error: last.error,
    latency_ms_wall: times.wallMs,
    latency_ms_agent: last.agentMs,
    // The harness's own time (fixtures, opening the mode, checkpoints, earlier attempts): reported beside the gate's latency.
    latency_ms_harness: last.agentMs === null ? null : Math.max(0, times.wallMs - last.agentMs),
    tokens: last.tokens,
    cost_usd: cost,
    tool_calls: {
      total: toolCalls.length,
      failed: accounting.failed,
      by_category: accounting.by_category,
      by_operation: accounting.by_operation,
      by_route: accounting.by_route,
      invocations: last.invocations ?? accounting.invocations,
    },
    github_api_calls: last.apiCalls,
    github_api: last.githubApi,
    checkpoints: last.checkpoints.map((c) => ({
      name: c.name,
      passed: c.passed,
      expected: c.expected,
      actual: c.actual,
      message: c.message,
      task: c.task,
      result: c.result,
    })),
    retries: attempts.length - 1,
    attempts: attempts.map((a) => a.record),
    versions: {
      ...ctx.versions,
      ...(tools ? {tools} : {}),
      ...(last.trace?.runtime ? {runtime: {[last.trace.runtime.name]: last.trace.runtime.version}} : {}),
    },
    git: ctx.git,
    fixture_seed: ctx.fixtures.manifest.seed_id,
    trace: last.tracePath,
    variables: last.variables,
    timing: last.timing,
    ...(last.toolSchema ? {tool_schema: last.toolSchema} : {}),
    ...(ctx.injectFaults ? {injected_faults: attempts.reduce((sum, a) => sum + a.injectedFaults, 0)} : {}),
    // The final answer's envelope says it where it reports one (ghx --verbose); else the layer's log, or its envelopes in the calls.
    route_used: last.assertion?.route_used ?? accounting.last_route,
    // Without a trace the agent's calls are unknown: a mode with a tool layer cannot say whether it fell back.
    fallback: layer && !last.trace ? null : accounting.fallback,
    // A tool layer that reports its own retries (ghx, in every envelope it prints) counts them in its calls; else the final envelope's.
    internal_retries: accounting.internal_retries ?? last.assertion?.internal_retries ?? null,
  }
}
