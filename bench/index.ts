// `npm run bench`: every benchmark, each reported as ratios to a baseline measured in the same run.
// BENCH_ROUNDS sets the repetitions of the quick benchmarks (default 15), BENCH_HEAVY_ROUNDS those of
// report and gate below 10M rows (default 3; 10M runs once), BENCH_REPORT_SIZES their sizes (default
// 100k,1M,3M,10M), BENCH_GATE_DATASETS the datasets per cell of the gate's error rates (default 200),
// BENCH_NEWCOMER_ROUNDS the runs of each newcomer command (default 1), BENCH_SANDBOX_SECONDS each autocannon
// run of the sandbox section (default 2; bench/sandbox.ts), BENCH_SHARDS_SUITE,
// BENCH_SHARDS_COUNTS and BENCH_SHARDS_MERGE_ROWS the shards section (bench/shards.ts), BENCH_SECTIONS
// which sections run (comma-separated keys: startup, sandbox, runner, report, gate, newcomer, shards;
// default all).
// The sections are printed as they finish, then written into docs/performance.md between its markers, the
// sections not run this time kept (bench/performance-doc.ts; BENCH_DOC=0 leaves it alone, BENCH_DOC=<file>
// writes another file).
import {cpus} from 'node:os'
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {benchGateErrorRates} from './gate-error-rates.js'
import {benchNewcomer} from './newcomer.js'
import {writeMeasured, type BenchSection} from './performance-doc.js'
import {benchReportGate} from './report-gate.js'
import {benchRunner} from './runner.js'
import {benchSandbox} from './sandbox.js'
import {benchShards} from './shards.js'
import {benchStartup} from './startup.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 15)
const heavyRounds = Number(process.env.BENCH_HEAVY_ROUNDS ?? 3)
const sections: BenchSection[] = []
const only = process.env.BENCH_SECTIONS?.split(',').map((key) => key.trim())
const measure = async (key: string, title: string, bench: () => string | Promise<string>) => {
  if (only && !only.includes(key)) return
  const text = await bench()
  if (sections.length > 0) console.log()
  console.log(text)
  sections.push({title, text})
}

await measure('startup', 'CLI start-up', () => benchStartup(rounds))
await measure('sandbox', 'Sandbox throughput', () => benchSandbox())
await measure('runner', 'Runner', () => benchRunner())
await measure('report', 'Report and gate over generated rows', () => benchReportGate(heavyRounds))
await measure('gate', 'The gate’s error rates', () => benchGateErrorRates())
await measure('newcomer', 'A newcomer’s commands', () => benchNewcomer(Number(process.env.BENCH_NEWCOMER_ROUNDS ?? 1)))
await measure('shards', 'Shards', () => benchShards(heavyRounds))

const target = process.env.BENCH_DOC ?? path.join(PACKAGE_ROOT, 'docs', 'performance.md')
if (target !== '0') {
  const processors = cpus()
  writeMeasured(target, sections, {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.versions.node,
    platform: `${process.platform} ${process.arch}`,
    cpus: `${processors.length} × ${processors[0]?.model.trim() ?? 'unknown CPU'}`,
    settings: Object.entries(process.env)
      .filter(([name]) => name.startsWith('BENCH_') && name !== 'BENCH_DOC')
      .map(([name, value]) => `${name}=${value}`)
      .sort(),
  })
  console.log(`\nwrote ${path.relative(process.cwd(), target) || target}`)
}
