/**
 * Rows from the predecessors' formats, recognised by their content: ghx-router's benchmark JSONL and
 * ghx eval's ProfileRow (results.json array, JSONL, results.csv). `baseline` becomes agent_direct,
 * 0-based iterations become 1-based, and every field that has no home in our row goes under `extra`.
 */
import type {RowFacts} from './row-facts.js'
import type {Outcome, Row, Tokens} from './row-schema.js'

export type SourceFormat = 'ghx-bench' | 'ghx-router' | 'ghx-eval'

const TIMEOUT_WORDS = /\b(timeout|timed out|stall|stalled)\b/i

export function detectRowFormat(value: unknown): SourceFormat | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const row = value as Record<string, unknown>
  if (row.schema_version === 1 && 'outcome' in row) return 'ghx-bench'
  if ('scenario_id' in row && 'external_retry_count' in row) return 'ghx-router'
  if ('scenarioId' in row && 'checkpointsTotal' in row) return 'ghx-eval'
  return undefined
}

function modeName(mode: string): string {
  return mode === 'baseline' ? 'agent_direct' : mode
}

const activeTokens = (total: number, cacheRead: number): number => Math.max(0, total - cacheRead)

function tokens(
  input: number,
  output: number,
  reasoning: number,
  cacheRead: number,
  cacheWrite: number,
  total: number,
): Tokens {
  return {
    input,
    output,
    reasoning,
    cache_read: cacheRead,
    cache_write: cacheWrite,
    total,
    active: activeTokens(total, cacheRead),
  }
}

function scenarioType(id: string): Row['scenario_type'] {
  return /-wf-\d{3}$/.test(id) ? 'workflow' : null
}

function failureOutcome(errorType: string | undefined, message: string | undefined): Outcome {
  if (TIMEOUT_WORDS.test(message ?? '')) return 'timeout'
  return errorType === 'runner_error' ? 'infra_error' : 'fail'
}

/** Drops keys whose value moved into the row, keeping all others under extra. */
function leftovers(source: Record<string, unknown>, used: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(source).filter(([key]) => !used.includes(key)))
}

interface RouterRow {
  timestamp: string
  run_id: string
  mode: string
  scenario_id: string
  scenario_set: string | null
  iteration: number
  success: boolean
  output_valid: boolean
  latency_ms_wall: number
  latency_ms_agent?: number | null
  tokens: {input: number; output: number; reasoning: number; cache_read: number; cache_write: number; total: number}
  cost: number
  tool_calls: number
  external_retry_count: number
  model: {provider_id: string | null; model_id: string | null; mode: string | null}
  git: {repo: string | null; commit: string | null} | null
  error: {type: string; message: string} | null
}

// That harness drove every mode through opencode.
const ROUTER_PROVIDER = 'opencode'

const routerModel = (model: RouterRow['model']): string | null =>
  model.provider_id && model.model_id ? `${model.provider_id}/${model.model_id}` : (model.model_id ?? null)
const routerOutcome = (r: RouterRow): Outcome => (r.success ? 'pass' : failureOutcome(r.error?.type, r.error?.message))

/** The figures of a ghx-router row, read straight from it: what fromGhxRouter's row would give, without building it. */
export function routerFacts(source: Record<string, unknown>): RowFacts {
  const r = source as unknown as RouterRow
  return {
    run_id: r.run_id,
    scenario_id: r.scenario_id,
    mode: modeName(r.mode),
    iteration: r.iteration,
    outcome: routerOutcome(r),
    success: r.success,
    output_valid: r.output_valid,
    retries: r.external_retry_count,
    latency_ms_wall: r.latency_ms_wall,
    latency_ms_agent: r.latency_ms_agent ?? null,
    latency_ms_harness: undefined,
    tokens_total: r.tokens.total,
    tokens_active: activeTokens(r.tokens.total, r.tokens.cache_read),
    tool_calls: r.tool_calls,
    cost_usd: r.cost,
    tool_schema_tokens: null,
    github_rest_requests: null,
    github_graphql_points: null,
    github_secondary_limit_waits: null,
    model: routerModel(r.model),
    provider: ROUTER_PROVIDER,
    tool_calls_by_category: undefined,
    tool_calls_by_operation: undefined,
    // ghx-router did not record whether a run fell back.
    fallback: null,
  }
}

/** ghx-router packages/benchmark rows (one JSON object per line). */
export function fromGhxRouter(source: Record<string, unknown>): Row {
  const r = source as unknown as RouterRow
  const finished = Date.parse(r.timestamp)
  const model = routerModel(r.model)
  const outcome = routerOutcome(r)
  return {
    schema_version: 1,
    run_id: r.run_id,
    suite: null,
    scenario_id: r.scenario_id,
    scenario_type: scenarioType(r.scenario_id),
    scenario_set: r.scenario_set,
    mode: modeName(r.mode),
    provider: ROUTER_PROVIDER,
    model,
    iteration: r.iteration,
    // Its latency_ms_wall runs from the scenario start to the row, which is written at `timestamp`.
    started_at: Number.isFinite(finished) ? new Date(finished - r.latency_ms_wall).toISOString() : null,
    finished_at: r.timestamp,
    outcome,
    success: r.success,
    output_valid: r.output_valid,
    error: r.error,
    latency_ms_wall: r.latency_ms_wall,
    latency_ms_agent: r.latency_ms_agent ?? null,
    tokens: tokens(
      r.tokens.input,
      r.tokens.output,
      r.tokens.reasoning,
      r.tokens.cache_read,
      r.tokens.cache_write,
      r.tokens.total,
    ),
    cost_usd: r.cost,
    tool_calls: {total: r.tool_calls, failed: null},
    // Its api_calls counted tool names containing "api" or "http": not GitHub API calls (kept in extra).
    github_api_calls: null,
    checkpoints: [],
    retries: r.external_retry_count,
    attempts: [],
    versions: {harness: 'ghx-router/benchmark', plugins: {}},
    git: r.git,
    fixture_seed: null,
    trace: null,
    extra: {
      source_format: 'ghx-router',
      model_mode: r.model.mode,
      ...leftovers(source, [
        'timestamp',
        'run_id',
        'mode',
        'scenario_id',
        'scenario_set',
        'iteration',
        'success',
        'output_valid',
        'latency_ms_wall',
        'latency_ms_agent',
        'tokens',
        'cost',
        'tool_calls',
        'external_retry_count',
        'model',
        'git',
        'error',
      ]),
    },
  }
}

interface EvalRow {
  runId: string
  scenarioId: string
  mode: string
  model: string
  iteration: number
  startedAt: string
  completedAt: string
  tokens: {
    input: number
    output: number
    reasoning: number
    cacheRead: number
    cacheWrite: number
    total: number
    active?: number
  }
  timing: {wallMs: number; segments?: unknown[]}
  toolCalls: {total: number; failed: number; byCategory?: Record<string, number>; [key: string]: unknown}
  cost: {totalUsd: number; [key: string]: unknown}
  success: boolean
  outputValid: boolean
  checkpointsPassed: number
  checkpointsTotal: number
  checkpointDetails?: Array<{id: string; description?: string; passed: boolean; actual?: unknown; expected?: unknown}>
  provider: string
  completionReason: string
  error?: string
}

/** ghx eval ProfileRow (results.json, JSONL, or a results.csv line turned into the same shape). */
export function fromGhxEval(source: Record<string, unknown>): Row {
  const r = source as unknown as EvalRow
  const errorMessage = r.error
  let outcome: Outcome = 'pass'
  if (!r.success) {
    if (r.completionReason === 'timeout' || TIMEOUT_WORDS.test(errorMessage ?? '')) outcome = 'timeout'
    else if (r.completionReason === 'error') outcome = 'infra_error'
    else outcome = 'fail'
  }
  const started = Date.parse(r.startedAt)
  const finished = Date.parse(r.completedAt)
  const t = tokens(
    r.tokens.input,
    r.tokens.output,
    r.tokens.reasoning,
    r.tokens.cacheRead,
    r.tokens.cacheWrite,
    r.tokens.total,
  )
  const {total: _total, failed, byCategory, ...toolCallRest} = r.toolCalls
  const {totalUsd, ...costRest} = r.cost
  return {
    schema_version: 1,
    run_id: r.runId,
    suite: null,
    scenario_id: r.scenarioId,
    scenario_type: scenarioType(r.scenarioId),
    scenario_set: null,
    mode: modeName(r.mode),
    provider: r.provider,
    model: r.model,
    iteration: r.iteration + 1,
    started_at: r.startedAt || null,
    finished_at: r.completedAt || null,
    outcome,
    success: r.success,
    output_valid: r.outputValid,
    error: errorMessage
      ? {
          type: outcome === 'pass' ? 'error' : outcome === 'fail' ? 'checkpoint_failed' : 'runner_error',
          message: errorMessage,
        }
      : null,
    // Its wallMs spans prompt to completion, the agent's time; the iteration's own span is started..completed.
    latency_ms_wall:
      Number.isFinite(started) && Number.isFinite(finished) ? Math.max(0, finished - started) : r.timing.wallMs,
    latency_ms_agent: r.timing.wallMs,
    tokens: t,
    cost_usd: totalUsd,
    tool_calls: {total: r.toolCalls.total, failed, ...(byCategory ? {by_category: byCategory} : {})},
    github_api_calls: null,
    checkpoints: (r.checkpointDetails ?? []).map((d) => ({
      name: d.id,
      passed: d.passed,
      ...(d.description === undefined ? {} : {description: d.description}),
      ...(d.expected === undefined ? {} : {expected: d.expected}),
      ...(d.actual === undefined ? {} : {actual: d.actual}),
    })),
    retries: 0,
    attempts: [],
    versions: {harness: 'ghx/eval', plugins: {}},
    git: null,
    fixture_seed: null,
    trace: null,
    extra: {
      source_format: 'ghx-eval',
      iteration_zero_based: r.iteration,
      ...(r.tokens.active !== undefined && r.tokens.active !== t.active
        ? {tokens_active_reported: r.tokens.active}
        : {}),
      ...(Object.keys(costRest).length ? {cost: costRest} : {}),
      ...(Object.keys(toolCallRest).length ? {tool_calls: toolCallRest} : {}),
      ...(r.timing.segments?.length ? {timing_segments: r.timing.segments} : {}),
      ...leftovers(source, [
        'runId',
        'scenarioId',
        'mode',
        'model',
        'iteration',
        'startedAt',
        'completedAt',
        'tokens',
        'timing',
        'toolCalls',
        'cost',
        'success',
        'outputValid',
        'checkpointDetails',
        'provider',
        'error',
      ]),
    },
  }
}

/** ghx eval's results.csv columns, turned into its ProfileRow shape (numbers and booleans parsed). */
export function evalRowFromCsv(record: Record<string, string>): Record<string, unknown> {
  const number = (key: string): number => Number(record[key] ?? 0)
  const known = new Set([
    'run_id',
    'scenario_id',
    'mode',
    'model',
    'iteration',
    'success',
    'timing_wall_ms',
    'tokens_input',
    'tokens_output',
    'tokens_reasoning',
    'tokens_cache_read',
    'tokens_cache_write',
    'tokens_total',
    'tokens_active',
    'tool_calls_total',
    'tool_calls_failed',
    'tool_calls_error_rate',
    'cost_total_usd',
    'cost_input_usd',
    'cost_output_usd',
    'cost_reasoning_usd',
    'checkpoints_passed',
    'checkpoints_total',
    'output_valid',
    'provider',
    'session_id',
    'agent_turns',
    'completion_reason',
  ])
  return {
    runId: record.run_id,
    scenarioId: record.scenario_id,
    mode: record.mode,
    model: record.model,
    iteration: number('iteration'),
    // The CSV has no timestamps.
    startedAt: '',
    completedAt: '',
    tokens: {
      input: number('tokens_input'),
      output: number('tokens_output'),
      reasoning: number('tokens_reasoning'),
      cacheRead: number('tokens_cache_read'),
      cacheWrite: number('tokens_cache_write'),
      total: number('tokens_total'),
      active: number('tokens_active'),
    },
    timing: {wallMs: number('timing_wall_ms')},
    toolCalls: {
      total: number('tool_calls_total'),
      failed: number('tool_calls_failed'),
      errorRate: number('tool_calls_error_rate'),
    },
    cost: {
      totalUsd: number('cost_total_usd'),
      inputUsd: number('cost_input_usd'),
      outputUsd: number('cost_output_usd'),
      reasoningUsd: number('cost_reasoning_usd'),
    },
    success: record.success === 'true',
    outputValid: record.output_valid === 'true',
    checkpointsPassed: number('checkpoints_passed'),
    checkpointsTotal: number('checkpoints_total'),
    provider: record.provider,
    sessionId: record.session_id,
    agentTurns: number('agent_turns'),
    completionReason: record.completion_reason,
    ...Object.fromEntries(Object.entries(record).filter(([key]) => !known.has(key))),
  }
}

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      record.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      record.push(field)
      if (record.some((f) => f !== '')) records.push(record)
      record = []
      field = ''
    } else field += ch
  }
  if (field !== '' || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records
}
