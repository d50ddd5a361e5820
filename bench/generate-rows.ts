// Writes N synthetic result rows (valid against the row schema) to a JSONL file, for the report and
// gate benchmark: scenarios x modes x iterations, with seeded noise so medians and intervals are real.
import {createWriteStream} from 'node:fs'
import {once} from 'node:events'
import {mulberry32} from '../src/stats/random.js'
import type {Row} from '../src/results/row-schema.js'

export async function generateRows(file: string, options: {scenarios: number; modes: string[]; total: number; seed: number}): Promise<number> {
  const random = mulberry32(options.seed)
  const iterations = Math.ceil(options.total / (options.scenarios * options.modes.length))
  const out = createWriteStream(file)
  let written = 0
  for (let i = 1; i <= iterations; i++) {
    const lines: string[] = []
    for (let s = 0; s < options.scenarios; s++) {
      const scenario = `bench-scenario-${String(s).padStart(3, '0')}`
      options.modes.forEach((mode, m) => {
        const speed = 1 - 0.15 * m
        const success = random() > 0.03
        const active = Math.round((800 + s * 10) * speed * (0.7 + random() * 0.6))
        const cacheRead = Math.round(4000 * random())
        const row: Row = {
          schema_version: 1,
          run_id: 'bench-run',
          suite: 'bench',
          scenario_id: scenario,
          scenario_type: 'workflow',
          scenario_set: null,
          mode,
          provider: 'agent-loop',
          model: 'openai/gpt-5.3-codex',
          iteration: i,
          started_at: '2026-11-22T00:00:00.000Z',
          finished_at: '2026-11-22T00:00:10.000Z',
          outcome: success ? 'pass' : random() > 0.5 ? 'fail' : 'timeout',
          success,
          output_valid: success,
          error: success ? null : {type: 'checkpoint_failed', message: 'labels_correct failed'},
          latency_ms_wall: Math.round(20_000 * speed * (0.6 + random() * 0.8)),
          latency_ms_agent: Math.round(18_000 * speed * (0.6 + random() * 0.8)),
          tokens: {input: active, output: 120, reasoning: 40, cache_read: cacheRead, cache_write: 0, total: active + 160 + cacheRead, active: active + 160},
          cost_usd: Math.round(active * 2) / 1e6,
          tool_calls: {total: Math.max(1, Math.round((6 - m) * (0.5 + random()))), failed: 0},
          github_api_calls: 4,
          checkpoints: [{name: 'labels_correct', passed: success}],
          retries: random() > 0.98 ? 1 : 0,
          attempts: [],
          versions: {harness: '0.1.0', plugins: {}},
          git: null,
          fixture_seed: 'bench',
          trace: null,
        }
        lines.push(JSON.stringify(row))
      })
    }
    written += lines.length
    if (!out.write(lines.join('\n') + '\n')) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return written
}
