// The runner's own overhead and throughput on the embedded default (sandbox and scripted models each
// in its own process, oracle), through the built CLI as users run it: the smoke suite at concurrency
// 1, 4 and 8, then the main job (suites/full-seeded.yml at its own concurrency). Throughput is runs
// per second between the first run's start and the last run's end (process start-up left out).
// Overhead per run = wall - model - tools - session - fixtures - checkpoints: the time that is the
// harness's alone (binding, the agent loop's own work, the verdict, the trace), from each row's timing.
// Goal: its median under 20 ms per run at every concurrency. Throughput is given as a ratio to
// concurrency 1 measured in the same run.
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {spawnSync} from 'node:child_process'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import type {Row} from '../src/results/row-schema.js'
import {readRows} from '../src/results/sources.js'
import {median, percentileOfSorted} from '../src/stats/quantiles.js'
import {table} from './support.js'

interface Measured {
  label: string
  runs: number
  seconds: number
  overheadMs: number
  overheadP90Ms: number
  sessionMs: number
  githubMs: number
}

/** The harness's own share of a run's wall time, from the row's timing. */
export function harnessMs(row: Row): number {
  const t = row.timing!
  return (
    row.latency_ms_wall -
    (t.model_ms ?? 0) -
    (t.tools_ms ?? 0) -
    (t.session_ms ?? 0) -
    (t.fixtures_ms ?? 0) -
    (t.checkpoints_ms ?? 0)
  )
}

async function measure(dir: string, label: string, suite: string, flags: string[]): Promise<Measured> {
  const runId = `bench-${label.replace(/\W+/g, '-')}`
  const result = spawnSync(
    process.execPath,
    [
      path.join(PACKAGE_ROOT, 'bin', 'run.js'),
      'run',
      path.join(PACKAGE_ROOT, 'suites', suite),
      '--run-id',
      runId,
      '--no-report',
      ...flags,
    ],
    {cwd: dir, env: {...process.env, CI: '1'}, encoding: 'utf8'},
  )
  if (result.status !== 0) throw new Error(`${label}: ghx-bench run exited ${result.status}: ${result.stderr}`)
  const rows: Row[] = []
  for await (const row of readRows([path.join(dir, 'results', `${runId}.jsonl`)], () => {}, dir)) rows.push(row)
  const failed = rows.filter((r) => !r.success)
  if (failed.length > 0)
    throw new Error(
      `${failed.length} run(s) failed: ${failed[0]!.scenario_id} ${failed[0]!.mode}: ${failed[0]!.error?.message}`,
    )
  const first = Math.min(...rows.map((r) => Date.parse(r.started_at!)))
  const last = Math.max(...rows.map((r) => Date.parse(r.finished_at!)))
  const overhead = Float64Array.from(rows.map(harnessMs)).sort()
  return {
    label,
    runs: rows.length,
    seconds: (last - first) / 1000,
    overheadMs: percentileOfSorted(overhead, 50),
    overheadP90Ms: percentileOfSorted(overhead, 90),
    sessionMs: median(rows.map((r) => r.timing!.session_ms ?? 0)),
    githubMs: median(rows.map((r) => (r.timing!.fixtures_ms ?? 0) + (r.timing!.checkpoints_ms ?? 0))),
  }
}

export async function benchRunner(repetitions = 5, concurrencies = [1, 4, 8]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-runner-'))
  try {
    await writeFile(path.join(dir, 'package.json'), '{"name": "bench-project", "private": true}\n')
    await writeFile(
      path.join(dir, '.ghxbenchrc.yml'),
      `target: sandbox\nmodel: oracle\nsuites_dir: ${path.join(PACKAGE_ROOT, 'suites')}\nfixtures: {seed_id: bench}\n`,
    )
    // Warm-up: seeds the fixtures, loads the tokenizer and the MCP server once.
    await measure(dir, 'warm-up', 'smoke.yml', ['--concurrency', '1', '--repetitions', '1'])
    const measured: Measured[] = []
    for (const concurrency of concurrencies)
      measured.push(
        await measure(dir, `smoke, concurrency ${concurrency}`, 'smoke.yml', [
          '--concurrency',
          String(concurrency),
          '--repetitions',
          String(repetitions),
        ]),
      )
    measured.push(await measure(dir, 'main job (full-seeded.yml)', 'full-seeded.yml', []))
    const base = measured[0]!.runs / measured[0]!.seconds
    const rows = measured.map((m) => [
      m.label,
      String(m.runs),
      (m.runs / m.seconds).toFixed(1),
      `${(m.runs / m.seconds / base).toFixed(2)}x`,
      m.overheadMs.toFixed(1),
      m.overheadP90Ms.toFixed(1),
      m.sessionMs.toFixed(1),
      m.githubMs.toFixed(1),
    ])
    const worst = Math.max(...measured.map((m) => m.overheadMs))
    const atFour = measured.find((m) => m.label === 'smoke, concurrency 4')
    return [
      'runner: ghx-bench run (dist) on the sandbox with the oracle, each in its own process; medians per run',
      table([
        [
          '',
          'runs',
          'runs/s',
          'vs smoke at concurrency 1',
          'harness overhead ms (median)',
          'p90',
          'session open+close ms',
          'GitHub ms (fixtures, checkpoints)',
        ],
        ...rows,
      ]),
      `goal (issue 18's done-when): harness overhead under 20 ms per run at concurrency 4: ${atFour === undefined ? 'not measured' : `${atFour.overheadMs < 20 ? 'met' : 'missed'} (${atFour.overheadMs.toFixed(1)} ms)`}`,
      `aim: under 20 ms at every concurrency: ${worst < 20 ? 'met' : 'missed'} (worst median ${worst.toFixed(1)} ms)`,
    ].join('\n')
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}
