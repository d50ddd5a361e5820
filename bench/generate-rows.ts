// Writes N synthetic result rows for the report and gate benchmark: scenarios x modes x iterations,
// with seeded noise so medians and intervals are real. Two formats: ghx-bench's own rows (valid
// against the row schema, one JSONL file) and ghx-router's benchmark rows, one JSONL file per mode as
// that harness wrote them (`<timestamp>-<mode>-suite.jsonl`). Both carry the same figures.
import {createWriteStream, type WriteStream} from 'node:fs'
import {once} from 'node:events'
import path from 'node:path'
import {mulberry32} from '../src/stats/random.js'
import type {Row} from '../src/results/row-schema.js'

export type BenchFormat = 'ghx-bench' | 'ghx-router'

export interface GenerateOptions {
  scenarios: number
  modes: string[]
  total: number
  seed: number
  format?: BenchFormat
}

/** The figures of one generated run, before they are written in either format. */
interface Run {
  scenario: string
  mode: string
  iteration: number
  success: boolean
  outcome: Row['outcome']
  wall: number
  agent: number
  input: number
  cacheRead: number
  cost: number
  toolCalls: number
  retries: number
}

function ghxBenchLine(run: Run): string {
  const row: Row = {
    schema_version: 1,
    run_id: 'bench-run',
    suite: 'bench',
    scenario_id: run.scenario,
    scenario_type: 'workflow',
    scenario_set: null,
    mode: run.mode,
    provider: 'agent-loop',
    model: 'openai/gpt-5.3-codex',
    iteration: run.iteration,
    started_at: '2026-11-22T00:00:00.000Z',
    finished_at: '2026-11-22T00:00:10.000Z',
    outcome: run.outcome,
    success: run.success,
    output_valid: run.success,
    error: run.success ? null : {type: 'checkpoint_failed', message: 'labels_correct failed'},
    latency_ms_wall: run.wall,
    latency_ms_agent: run.agent,
    tokens: {
      input: run.input,
      output: 120,
      reasoning: 40,
      cache_read: run.cacheRead,
      cache_write: 0,
      total: run.input + 160 + run.cacheRead,
      active: run.input + 160,
    },
    cost_usd: run.cost,
    tool_calls: {total: run.toolCalls, failed: 0},
    github_api_calls: 4,
    checkpoints: [{name: 'labels_correct', passed: run.success}],
    retries: run.retries,
    attempts: [],
    versions: {harness: '0.1.0', plugins: {}},
    git: null,
    fixture_seed: 'bench',
    trace: null,
  }
  return JSON.stringify(row)
}

/** A row as ghx-router's packages/benchmark wrote it (every field of the published rows). */
function ghxRouterLine(run: Run): string {
  const timedOut = run.outcome === 'timeout'
  return JSON.stringify({
    timestamp: '2026-11-22T00:00:10.000Z',
    run_id: '8c7c88a7-7298-4052-9d57-922eeffd0a2b',
    mode: run.mode,
    scenario_id: run.scenario,
    scenario_set: 'all',
    iteration: run.iteration,
    session_id: `ses_${run.mode}_${run.scenario}_${run.iteration}`,
    success: run.success,
    output_valid: run.success,
    latency_ms_wall: run.wall,
    latency_ms_agent: run.agent,
    sdk_latency_ms: Math.round(run.agent / 5),
    tokens: {
      input: run.input,
      output: 120,
      reasoning: 40,
      cache_read: run.cacheRead,
      cache_write: 0,
      total: run.input + 160 + run.cacheRead,
    },
    // That harness recorded no cost.
    cost: 0,
    tool_calls: run.toolCalls,
    api_calls: 0,
    internal_retry_count: 0,
    external_retry_count: run.retries,
    model: {provider_id: 'openai', model_id: 'gpt-5.3-codex', mode: null},
    git: {repo: null, commit: null},
    error: run.success
      ? null
      : timedOut
        ? {type: 'runner_error', message: 'Timed out waiting for assistant message'}
        : {type: 'checkpoint_failed', message: 'Workflow checkpoint verification failed: labels_correct'},
    timing_breakdown: {
      assistant_total_ms: Math.round(run.agent * 0.9),
      assistant_pre_reasoning_ms: 5320,
      assistant_reasoning_ms: 6560,
      assistant_between_reasoning_and_tool_ms: 2869,
      assistant_post_tool_ms: 107,
      tool_total_ms: 3976,
      tool_bash_ms: 3976,
      tool_structured_output_ms: 0,
      observed_assistant_turns: 3,
    },
  })
}

/** The files the rows go to: `target` itself (ghx-bench), or one file per mode in the folder `target` (ghx-router). */
export function outputFiles(target: string, options: GenerateOptions): string[] {
  if ((options.format ?? 'ghx-bench') === 'ghx-bench') return [target]
  return options.modes.map((mode) => path.join(target, `2026-11-22T00-00-00-${mode}-suite.jsonl`))
}

/** Writes the rows; returns how many. ghx-router rows go to one file per mode inside the folder `target`. */
export async function generateRows(target: string, options: GenerateOptions): Promise<number> {
  const format = options.format ?? 'ghx-bench'
  const line = format === 'ghx-bench' ? ghxBenchLine : ghxRouterLine
  const random = mulberry32(options.seed)
  const iterations = Math.ceil(options.total / (options.scenarios * options.modes.length))
  const files = outputFiles(target, options)
  const outs: WriteStream[] = files.map((file) => createWriteStream(file))
  const outFor = (m: number): WriteStream => outs[format === 'ghx-bench' ? 0 : m]!
  let written = 0
  for (let i = 1; i <= iterations; i++) {
    const lines: string[][] = outs.map(() => [])
    for (let s = 0; s < options.scenarios; s++) {
      const scenario = `bench-scenario-${String(s).padStart(3, '0')}`
      options.modes.forEach((mode, m) => {
        const speed = 1 - 0.15 * m
        const success = random() > 0.03
        const input = Math.round((800 + s * 10) * speed * (0.7 + random() * 0.6))
        const cacheRead = Math.round(4000 * random())
        const run: Run = {
          scenario,
          mode,
          iteration: i,
          success,
          outcome: success ? 'pass' : random() > 0.5 ? 'fail' : 'timeout',
          wall: Math.round(20_000 * speed * (0.6 + random() * 0.8)),
          agent: Math.round(18_000 * speed * (0.6 + random() * 0.8)),
          input,
          cacheRead,
          cost: Math.round(input * 2) / 1e6,
          toolCalls: Math.max(1, Math.round((6 - m) * (0.5 + random()))),
          retries: random() > 0.98 ? 1 : 0,
        }
        lines[format === 'ghx-bench' ? 0 : m]!.push(line(run))
      })
    }
    for (const [index, batch] of lines.entries()) {
      written += batch.length
      const out = outFor(index)
      if (batch.length > 0 && !out.write(batch.join('\n') + '\n')) await once(out, 'drain')
    }
  }
  for (const out of outs) {
    out.end()
    await once(out, 'finish')
  }
  return written
}
