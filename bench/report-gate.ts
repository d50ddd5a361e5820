// report and gate over 1,000,000 generated rows (100 scenarios x 3 modes, valid against the row
// schema): wall time and peak RSS, and report time over a plain streaming JSON.parse of the same file
// measured in the same run. Goal: each under 10 s and 512 MB on the 2-core machine.
import {mkdir, open, rm} from 'node:fs/promises'
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {isRow} from '../src/results/store.js'
import {median} from '../src/stats/quantiles.js'
import {generateRows} from './generate-rows.js'
import {measureCommand, table, type CommandCase} from './support.js'

async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(256 * 1024)
    const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}

export async function benchReportGate(rounds: number, totalRows = 1_000_000): Promise<string> {
  const dir = path.join(PACKAGE_ROOT, '.bench-tmp')
  await mkdir(dir, {recursive: true})
  const file = path.join(dir, 'rows.jsonl')
  const written = await generateRows(file, {scenarios: 100, modes: ['agent_direct', 'mcp', 'ghx'], total: totalRows, seed: 1})
  const sample = (await readHead(file)).split('\n').slice(0, 100)
  if (!sample.every((line) => isRow(JSON.parse(line)))) throw new Error('generated rows do not match the row schema')
  const bin = path.join(PACKAGE_ROOT, 'bin', 'run.js')
  const out = path.join(dir, 'reports')
  const cases: CommandCase[] = [
    {label: 'plain streaming JSON.parse', command: process.execPath, args: [path.join(PACKAGE_ROOT, 'bench', 'plain-parse.mjs'), file]},
    {label: 'ghx-bench report', command: process.execPath, args: [bin, 'report', '--input', file, '--out', out], cwd: PACKAGE_ROOT},
    {label: 'ghx-bench gate', command: process.execPath, args: [bin, 'gate', '--input', file, '--out', out, '--candidate', 'ghx'], cwd: PACKAGE_ROOT, okCodes: [0, 1, 3]},
  ]
  const samples = new Map(cases.map((c) => [c.label, [] as Array<{ms: number; rssMiB: number}>]))
  for (let round = 0; round < rounds; round++) for (const c of cases) samples.get(c.label)!.push(measureCommand(c))
  await rm(dir, {recursive: true, force: true})
  const summary = new Map([...samples].map(([label, s]) => [label, {ms: median(s.map((x) => x.ms)), rss: Math.max(...s.map((x) => x.rssMiB))}]))
  const parse = summary.get('plain streaming JSON.parse')!.ms
  const rows = [['case', 'median s', 'peak RSS MiB', 'x plain parse'], ...[...summary].map(([label, {ms, rss}]) => [label, (ms / 1000).toFixed(2), rss.toFixed(0), (ms / parse).toFixed(2)])]
  const verdict = ['ghx-bench report', 'ghx-bench gate'].map((label) => {
    const {ms, rss} = summary.get(label)!
    return `${label}: ${ms < 10_000 && rss < 512 ? 'met' : 'missed'}`
  })
  return [
    `## report and gate over ${written.toLocaleString('en-US')} rows (100 scenarios x 3 modes; median of ${rounds}, interleaved)`,
    table(rows),
    `goal < 10 s and < 512 MiB: ${verdict.join('; ')}`,
  ].join('\n')
}
