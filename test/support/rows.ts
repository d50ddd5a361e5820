// A valid result row with sensible defaults, for tests and generated benchmark data.
import type {Row} from '../../src/results/row-schema.js'

export function makeRow(overrides: Partial<Row> & {activeTokens?: number}): Row {
  const {activeTokens, ...rest} = overrides
  const active = activeTokens ?? 1000
  // As a run writes it: success is the outcome pass.
  const success = rest.success ?? (rest.outcome === undefined || rest.outcome === 'pass')
  return {
    schema_version: 1,
    run_id: 'run-1',
    suite: 'smoke',
    scenario_id: 'issue-view-001',
    scenario_type: 'atomic',
    scenario_set: null,
    mode: 'agent_direct',
    provider: 'agent-loop',
    model: 'openai/gpt-5.3-codex',
    iteration: 1,
    started_at: '2026-11-22T00:00:00.000Z',
    finished_at: '2026-11-22T00:00:10.000Z',
    outcome: success ? 'pass' : 'fail',
    success,
    output_valid: success,
    error: null,
    latency_ms_wall: 10_000,
    latency_ms_agent: 9_000,
    tokens: {
      input: active - 100,
      output: 100,
      reasoning: 0,
      cache_read: 4000,
      cache_write: 0,
      total: active + 4000,
      active,
    },
    cost_usd: null,
    tool_calls: {total: 3, failed: 0},
    github_api_calls: 3,
    checkpoints: [],
    retries: 0,
    attempts: [],
    versions: {harness: '0.1.0', plugins: {}},
    git: null,
    fixture_seed: 'default',
    trace: null,
    ...rest,
  }
}
