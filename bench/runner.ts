// The runner's throughput and its own overhead: the smoke suite on the embedded default (sandbox,
// oracle), in-process, at concurrency 1 and 4. Overhead per run = wall time minus the time spent in
// the model endpoint and in tools; its GitHub part (fixture resets, checkpoint reads) is shown apart.
// Goal: overhead under 20 ms per run. Throughput at concurrency 4 is given as a ratio to concurrency 1.
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {runProjectSuite} from '../src/app/run.js'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import type {Row} from '../src/results/row-schema.js'
import {readRows} from '../src/results/sources.js'
import {median} from '../src/stats/quantiles.js'
import {table} from './support.js'

interface Measured {
  runs: number
  seconds: number
  overheadMs: number
  githubMs: number
  sessionMs: number
  harnessMs: number
}

async function measure(dir: string, concurrency: number, repetitions: number): Promise<Measured> {
  const started = process.hrtime.bigint()
  const {summary} = await runProjectSuite({suitePath: path.join(PACKAGE_ROOT, 'suites', 'smoke.yml'), cwd: dir, concurrency, repetitions, runId: `bench-c${concurrency}`, noReport: true})
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const rows: Row[] = []
  for await (const row of readRows([summary.results_file], () => {}, dir)) rows.push(row)
  const failed = rows.filter((r) => !r.success)
  if (failed.length > 0) throw new Error(`${failed.length} run(s) failed: ${failed[0]!.error?.message}`)
  const t = (r: Row) => r.timing!
  const overhead = rows.map((r) => r.latency_ms_wall - t(r).model_ms! - t(r).tools_ms!)
  const github = rows.map((r) => t(r).fixtures_ms! + t(r).checkpoints_ms!)
  const session = rows.map((r) => t(r).session_ms ?? 0)
  return {runs: rows.length, seconds, overheadMs: median(overhead), githubMs: median(github), sessionMs: median(session), harnessMs: median(overhead.map((o, i) => o - github[i]! - session[i]!))}
}

export async function benchRunner(repetitions = 5): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-runner-'))
  try {
    await writeFile(path.join(dir, 'package.json'), '{"name": "bench-project", "private": true}\n')
    await writeFile(path.join(dir, '.ghxbenchrc.yml'), `target: sandbox\nmodel: oracle\nsuites_dir: ${path.join(PACKAGE_ROOT, 'suites')}\nfixtures: {seed_id: bench}\n`)
    await measure(dir, 1, 1) // warm-up: seeds the fixtures, loads the tokenizer and the MCP server once
    const one = await measure(dir, 1, repetitions)
    const four = await measure(dir, 4, repetitions)
    const rows = [one, four].map((m, i) => [
      `concurrency ${i === 0 ? 1 : 4}`,
      String(m.runs),
      (m.runs / m.seconds).toFixed(1),
      i === 0 ? '1.00x' : `${(m.runs / m.seconds / (one.runs / one.seconds)).toFixed(2)}x`,
      m.overheadMs.toFixed(1),
      m.githubMs.toFixed(1),
      m.sessionMs.toFixed(1),
      m.harnessMs.toFixed(1),
    ])
    return [
      'runner: smoke suite (agent_direct + mcp), sandbox + oracle, medians per run',
      table([['', 'runs', 'runs/s', 'vs concurrency 1', 'overhead ms (wall - model - tools)', 'of which GitHub ms (fixtures, checkpoints)', 'of which session open ms', 'harness ms (the rest)'], ...rows]),
      'goal: overhead under 20 ms per run',
    ].join('\n')
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}
