/**
 * The figures of a row that the report and the gate read: a row of any format comes down to these,
 * and a predecessor's row is read into them directly, without building the whole normalized row
 * (importers.ts builds that too, for a failed run's details and for the commands that need it).
 */
import type {Outcome, Row} from './row-schema.js'

export interface RowFacts {
  run_id: string
  scenario_id: string
  mode: string
  iteration: number
  outcome: Outcome
  success: boolean
  output_valid: boolean
  retries: number
  latency_ms_wall: number
  latency_ms_agent: number | null
  /** The row's own harness time; undefined or null when it has none (then wall - agent stands for it). */
  latency_ms_harness: number | null | undefined
  tokens_total: number
  tokens_active: number
  tool_calls: number
  cost_usd: number | null
  tool_schema_tokens: number | null
  model: string | null
  provider: string | null
  tool_calls_by_category: Record<string, number> | undefined
  tool_calls_by_operation: Record<string, number> | undefined
  /** The run rests on a fallback (the row's `fallback`); null when the row does not say. */
  fallback: boolean | null
  /** The agent's REST requests, GraphQL points and waits asked of it (the row's `github_api`); null where not observed. */
  github_rest_requests: number | null
  github_graphql_points: number | null
  github_secondary_limit_waits: number | null
}

export function factsOfRow(row: Row): RowFacts {
  return {
    run_id: row.run_id,
    scenario_id: row.scenario_id,
    mode: row.mode,
    iteration: row.iteration,
    outcome: row.outcome,
    success: row.success,
    output_valid: row.output_valid,
    retries: row.retries,
    latency_ms_wall: row.latency_ms_wall,
    latency_ms_agent: row.latency_ms_agent,
    latency_ms_harness: row.latency_ms_harness,
    tokens_total: row.tokens.total,
    tokens_active: row.tokens.active,
    tool_calls: row.tool_calls.total,
    cost_usd: row.cost_usd,
    tool_schema_tokens: row.tool_schema?.tokens ?? null,
    model: row.model,
    provider: row.provider,
    tool_calls_by_category: row.tool_calls.by_category,
    tool_calls_by_operation: row.tool_calls.by_operation,
    fallback: row.fallback ?? null,
    github_rest_requests: row.github_api?.rest_requests ?? null,
    github_graphql_points: row.github_api?.graphql_points ?? null,
    github_secondary_limit_waits: row.github_api?.secondary_limit_waits ?? null,
  }
}

/** The harness's own time of a row: its own figure, else wall - agent (null when the agent time is unknown). */
export function harnessLatency(wall: number, agent: number | null, own: number | null | undefined): number | null {
  return own ?? (agent === null ? null : Math.max(0, wall - agent))
}
