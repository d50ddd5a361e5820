// report and gate over generated rows (100 scenarios x 3 modes) in both input formats, ghx-bench's own
// JSONL and ghx-router's (one file per mode), at 100k, 1M, 3M and 10M rows: wall time as a ratio to a
// streaming JSON.parse of the same files (bench/plain-parse.mjs, the floor) measured in the same run,
// its CPU time likewise (worker threads included: the read is spread over them, so wall time can beat a
// one-thread floor that CPU time cannot), and peak RSS. Goal (issue 47): at 10M rows each <= 1.5x the
// floor's CPU time and <= 512 MiB.
// BENCH_REPORT_SIZES picks the sizes (e.g. "100k,1M"); the 10M size runs one round (its files are
// ~8-9 GB each, written under .bench-tmp/ and removed after), the others `rounds`.
import {mkdir, open, rm} from 'node:fs/promises'
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {detectRowFormat} from '../src/results/importers.js'
import {isRow} from '../src/results/store.js'
import {generateRows, outputFiles, type BenchFormat, type GenerateOptions} from './generate-rows.js'
import {medianMeasures, table, type CommandCase} from './support.js'

const DEFAULT_SIZES = [100_000, 1_000_000, 3_000_000, 10_000_000]
/** Sizes from here on run one round: one pass over ~9 GB is minutes. */
const ONE_ROUND_FROM = 10_000_000
const FORMATS: BenchFormat[] = ['ghx-bench', 'ghx-router']
const GOAL = {cpuRatio: 1.5, rssMiB: 512}

/** "100k,1M,3M" -> [100000, 1000000, 3000000]. */
export function parseSizes(text: string | undefined): number[] {
  if (!text) return DEFAULT_SIZES
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(part)
    if (!match) throw new Error(`BENCH_REPORT_SIZES: "${part}" is not a size like 100k or 3M`)
    return Math.round(Number(match[1]) * (match[2]!.toLowerCase() === 'm' ? 1e6 : match[2] ? 1e3 : 1))
  })
}

const label = (n: number): string =>
  n >= 1e6 ? `${Number((n / 1e6).toFixed(2))}M` : `${Number((n / 1e3).toFixed(1))}k`

async function firstLines(file: string, count: number): Promise<string[]> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(256 * 1024)
    const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n').slice(0, count)
  } finally {
    await handle.close()
  }
}

/** Writes the rows of one format and checks that the first ones read as that format. */
async function prepare(
  dir: string,
  format: BenchFormat,
  total: number,
): Promise<{files: string[]; input: string; written: number}> {
  await rm(dir, {recursive: true, force: true})
  await mkdir(dir, {recursive: true})
  const options: GenerateOptions = {scenarios: 100, modes: ['agent_direct', 'mcp', 'ghx'], total, seed: 1, format}
  const target = format === 'ghx-bench' ? path.join(dir, 'rows.jsonl') : dir
  const written = await generateRows(target, options)
  const files = outputFiles(target, options)
  const sample = (await firstLines(files[0]!, 50)).map((line) => JSON.parse(line) as unknown)
  const valid =
    format === 'ghx-bench' ? sample.every(isRow) : sample.every((row) => detectRowFormat(row) === 'ghx-router')
  if (!valid) throw new Error(`generated rows are not ${format} rows`)
  return {files, input: target, written}
}

interface Measured {
  format: BenchFormat
  rows: number
  rounds: number
  cases: Map<string, {ms: number; cpuMs: number; rssMiB: number}>
}

async function measureSize(format: BenchFormat, total: number, rounds: number): Promise<Measured> {
  const dir = path.join(PACKAGE_ROOT, '.bench-tmp', `report-gate-${format}`)
  try {
    const {files, input, written} = await prepare(dir, format, total)
    const bin = path.join(PACKAGE_ROOT, 'bin', 'run.js')
    const out = path.join(dir, 'reports')
    const cases: CommandCase[] = [
      {
        label: 'floor: streaming JSON.parse',
        command: process.execPath,
        args: [path.join(PACKAGE_ROOT, 'bench', 'plain-parse.mjs'), ...files],
      },
      {
        label: 'ghx-bench report',
        command: process.execPath,
        args: [bin, 'report', '--input', input, '--out', out],
        cwd: PACKAGE_ROOT,
      },
      {
        label: 'ghx-bench gate',
        command: process.execPath,
        args: [bin, 'gate', '--input', input, '--out', out, '--candidate', 'ghx'],
        cwd: PACKAGE_ROOT,
        okCodes: [0, 1, 3],
      },
    ]
    const summary = medianMeasures(cases, rounds)
    return {format, rows: written, rounds, cases: summary}
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

export async function benchReportGate(
  rounds: number,
  sizes = parseSizes(process.env.BENCH_REPORT_SIZES),
): Promise<string> {
  const results: Measured[] = []
  for (const total of sizes)
    for (const format of FORMATS) results.push(await measureSize(format, total, total >= ONE_ROUND_FROM ? 1 : rounds))
  const rows = [
    ['format', 'rows', 'rounds', 'case', 'median s', 'x floor', 'CPU s', 'CPU x floor', 'peak RSS MiB', 'RSS x floor'],
  ]
  const verdicts: string[] = []
  for (const r of results) {
    const floor = r.cases.get('floor: streaming JSON.parse')!
    for (const [name, {ms, cpuMs, rssMiB}] of r.cases) {
      rows.push([
        r.format,
        label(r.rows),
        String(r.rounds),
        name,
        (ms / 1000).toFixed(2),
        (ms / floor.ms).toFixed(2),
        (cpuMs / 1000).toFixed(2),
        (cpuMs / floor.cpuMs).toFixed(2),
        rssMiB.toFixed(0),
        (rssMiB / floor.rssMiB).toFixed(2),
      ])
      if (name !== 'floor: streaming JSON.parse' && r.rows >= ONE_ROUND_FROM) {
        const met = cpuMs / floor.cpuMs <= GOAL.cpuRatio && rssMiB <= GOAL.rssMiB
        verdicts.push(
          `${r.format} ${name.replace('ghx-bench ', '')}: ${met ? 'met' : 'missed'} (CPU ${(cpuMs / floor.cpuMs).toFixed(2)}x, wall ${(ms / floor.ms).toFixed(2)}x, ${rssMiB.toFixed(0)} MiB)`,
        )
      }
    }
  }
  return [
    `## report and gate over generated rows (100 scenarios x 3 modes; median of the rounds, interleaved with the floor)`,
    table(rows),
    verdicts.length > 0
      ? `goal at 10M rows, <= ${GOAL.cpuRatio}x the floor's CPU time and <= ${GOAL.rssMiB} MiB: ${verdicts.join('; ')}`
      : `(the goal is judged at 10M rows; BENCH_REPORT_SIZES did not include it)`,
  ].join('\n')
}
