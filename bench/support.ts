// Shared helpers of the benchmarks: time whole commands, interleaved, and report medians.
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {median} from '../src/stats/quantiles.js'

export interface CommandCase {
  label: string
  command: string
  args: string[]
  cwd?: string
  /** Exit codes that count as success (a gate may exit 1 or 3 by design). */
  okCodes?: number[]
}

const RSS_PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'max-rss.mjs')

/** Wall time (ms), CPU time (ms, user + system, workers included) and peak RSS (MiB) of one run of a node command; a failing command aborts the benchmark. */
export function measureCommand(c: CommandCase): {ms: number; cpuMs: number; rssMiB: number} {
  const rssFile = path.join(tmpdir(), `ghx-bench-rss-${process.pid}`)
  const cpuFile = path.join(tmpdir(), `ghx-bench-cpu-${process.pid}`)
  const start = process.hrtime.bigint()
  const result = spawnSync(c.command, ['--import', pathToFileURL(RSS_PRELOAD).href, ...c.args], {
    cwd: c.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {...process.env, NO_COLOR: '1', BENCH_RSS_FILE: rssFile, BENCH_CPU_FILE: cpuFile},
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (!(c.okCodes ?? [0]).includes(result.status ?? -1))
    throw new Error(`${c.label} exited ${result.status}: ${result.stderr.toString()}`)
  return {
    ms,
    cpuMs: Number(readFileSync(cpuFile, 'utf8')) / 1000,
    rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024,
  }
}

/** Each case's median wall and CPU time and its largest peak RSS over `rounds`, the cases run round-robin (machine drift hits all alike). */
export function medianMeasures(
  cases: CommandCase[],
  rounds: number,
): Map<string, {ms: number; cpuMs: number; rssMiB: number}> {
  const samples = new Map(cases.map((c) => [c.label, [] as Array<ReturnType<typeof measureCommand>>]))
  for (let round = 0; round < rounds; round++) for (const c of cases) samples.get(c.label)!.push(measureCommand(c))
  return new Map(
    [...samples].map(([label, s]) => [
      label,
      {
        ms: median(s.map((x) => x.ms)),
        cpuMs: median(s.map((x) => x.cpuMs)),
        rssMiB: Math.max(...s.map((x) => x.rssMiB)),
      },
    ]),
  )
}

export function timeCommand(c: CommandCase): number {
  return measureCommand(c).ms
}

/** Runs the cases round-robin (so machine drift hits all alike) and returns each one's median. */
export function medianTimes(cases: CommandCase[], rounds: number, warmup = 2): Map<string, number> {
  const samples = new Map(cases.map((c) => [c.label, [] as number[]]))
  for (let round = 0; round < warmup + rounds; round++) {
    for (const c of cases) {
      const ms = timeCommand(c)
      if (round >= warmup) samples.get(c.label)!.push(ms)
    }
  }
  return new Map([...samples].map(([label, values]) => [label, median(values)]))
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n')
}
