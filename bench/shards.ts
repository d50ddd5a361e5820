// Shards on this machine: the wall time of a suite (default full-seeded, on the embedded default) run
// whole in one process against 2 and 4 shards run as parallel processes (each in a project folder of its
// own, as on a CI matrix; the wall time ends with the last shard), then `merge` of their results; and
// `merge` alone over generated rows split into 4 shards' files (100k and 1M rows by default), its time and peak RSS
// against a plain streaming JSON.parse of the same files (bench/plain-parse.mjs, the floor), as the report
// bench measures report and gate. BENCH_SHARDS_SUITE (a suite file; default suites/full-seeded.yml),
// BENCH_SHARDS_COUNTS (default 1,2,4; none: the merge alone), BENCH_SHARDS_MERGE_ROWS (its sizes, default 100k,1M) and BENCH_HEAVY_ROUNDS (the
// merge's rounds) set it; smaller ones check the section quickly.
import {spawn} from 'node:child_process'
import {createReadStream, createWriteStream, type WriteStream} from 'node:fs'
import {once} from 'node:events'
import {cp, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {partitionBlocks, shardRecordName, blockKey} from '../src/runner/shard.js'
import {SHARD_FORMAT, type ShardHeader} from '../src/schemas/shard-header.js'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {generateRows} from './generate-rows.js'
import {parseSizes} from './report-gate.js'
import {medianMeasures, table} from './support.js'

const CLI = path.join(PACKAGE_ROOT, 'bin', 'run.js')

/** A project folder on the embedded default (sandbox, oracle) over the package's catalogue. */
async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-bench-shards-'))
  await writeFile(path.join(dir, 'package.json'), '{"name": "bench-shards", "private": true}\n')
  await writeFile(
    path.join(dir, '.ghxbenchrc.yml'),
    `target: sandbox\nmodel: oracle\nsuites_dir: ${path.join(PACKAGE_ROOT, 'suites')}\n`,
  )
  return dir
}

/** Runs the CLI; resolves with its exit code, rejects on one it should not end with. */
function cli(args: string[], cwd: string, okCodes: number[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: {...process.env, CI: '1', NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
    child.on('error', reject)
    child.on('close', (code) =>
      okCodes.includes(code ?? -1) ? resolve() : reject(new Error(`ghx-bench ${args[0]} exited ${code}: ${stderr}`)),
    )
  })
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9

/** The suite whole (count 1) or as `count` shards in parallel processes, then merged: wall seconds of each. */
async function runSharded(suite: string, count: number): Promise<{run: number; merge: number | null}> {
  const dirs = await Promise.all(Array.from({length: count}, () => project()))
  try {
    const start = process.hrtime.bigint()
    // The gate of the whole run may fail or be inconclusive by design (1, 3): a shard exits 0.
    if (count === 1) await cli(['run', suite, '--run-id', 'bench-whole'], dirs[0]!, [0, 1, 3])
    else
      await Promise.all(
        dirs.map((dir, i) => cli(['run', suite, '--run-id', 'bench-split', '--shard', `${i + 1}/${count}`], dir, [0])),
      )
    const run = seconds(start)
    if (count === 1) return {run, merge: null}
    const merging = await project()
    dirs.push(merging)
    for (const [i, dir] of dirs.slice(0, count).entries())
      await cp(path.join(dir, 'results'), path.join(merging, 'shards', String(i + 1)), {recursive: true})
    const mergeStart = process.hrtime.bigint()
    await cli(['merge', 'shards'], merging, [0, 1, 3])
    return {run, merge: seconds(mergeStart)}
  } finally {
    await Promise.all(dirs.map((dir) => rm(dir, {recursive: true, force: true})))
  }
}

// Enough scenarios that 1M rows stay within a run's 1,000 repetitions (run.json's bound, issue 41).
const SCENARIOS = 1000
const MODES = ['agent_direct', 'mcp', 'ghx']
const MERGE_SHARDS = 4

/**
 * Generated rows (as the report bench's) written as MERGE_SHARDS shards' results files under `dir`: each
 * a header whose partition is the shards' blocks, then the rows of its own blocks.
 */
async function writeShardFiles(dir: string, total: number): Promise<string[]> {
  const rowsFile = path.join(dir, 'rows.jsonl')
  const written = await generateRows(rowsFile, {scenarios: SCENARIOS, modes: MODES, total, seed: 1})
  const scenarioIds = Array.from({length: SCENARIOS}, (_, s) => `bench-scenario-${String(s).padStart(3, '0')}`)
  const repetitions = Math.ceil(written / (SCENARIOS * MODES.length))
  const partition = partitionBlocks(scenarioIds, repetitions, MERGE_SHARDS)
  const owner = new Map(partition.flatMap((blocks, i) => blocks.map((block) => [block, i] as const)))
  const files: string[] = []
  const outs: WriteStream[] = []
  for (let i = 0; i < MERGE_SHARDS; i++) {
    const spec = {index: i + 1, count: MERGE_SHARDS}
    const header: ShardHeader = {
      shard_format: SHARD_FORMAT,
      run_id: 'bench-run',
      shard: spec,
      key: {
        ghx_bench: '0.0.0',
        catalogue_sha256: 'bench',
        suite: 'bench',
        scenarios: scenarioIds,
        repetitions,
        modes: Object.fromEntries(MODES.map((mode) => [mode, {tools: {}, options_sha256: 'bench'}])),
        providers: ['agent-loop'],
        plugins: {},
        model: 'openai/gpt-5.3-codex',
        target: 'sandbox',
        profile: null,
        seed: 1,
      },
      partition,
      unavailable: [],
      not_applicable: [],
    }
    const file = path.join(dir, 'shards', `${shardRecordName('bench-run', spec)}.jsonl`)
    await mkdir(path.dirname(file), {recursive: true})
    files.push(file)
    const out = createWriteStream(file)
    out.write(JSON.stringify(header) + '\n')
    outs.push(out)
  }
  for await (const line of createInterface({input: createReadStream(rowsFile), crlfDelay: Infinity})) {
    if (!line) continue
    const row = JSON.parse(line) as {scenario_id: string; iteration: number}
    const out = outs[owner.get(blockKey(row.scenario_id, row.iteration))!]!
    if (!out.write(line + '\n')) await once(out, 'drain')
  }
  for (const out of outs) {
    out.end()
    await once(out, 'finish')
  }
  await rm(rowsFile)
  return files
}

/** merge over `total` generated rows in MERGE_SHARDS shards, against the floor: median wall and CPU time, peak RSS. */
async function measureMerge(total: number, rounds: number) {
  const dir = path.join(PACKAGE_ROOT, '.bench-tmp', 'shards-merge')
  await rm(dir, {recursive: true, force: true})
  await mkdir(dir, {recursive: true})
  try {
    const files = await writeShardFiles(dir, total)
    await writeFile(path.join(dir, 'package.json'), '{"name": "bench-merge", "private": true}\n')
    await writeFile(
      path.join(dir, '.ghxbenchrc.yml'),
      `target: sandbox\nmodel: oracle\nsuites_dir: ${path.join(PACKAGE_ROOT, 'suites')}\n`,
    )
    const cases = [
      {
        label: 'floor: streaming JSON.parse',
        command: process.execPath,
        args: [path.join(PACKAGE_ROOT, 'bench', 'plain-parse.mjs'), ...files],
      },
      {
        label: 'ghx-bench merge',
        command: process.execPath,
        args: [CLI, 'merge', 'shards'],
        cwd: dir,
        okCodes: [0, 1, 3],
      },
    ]
    return medianMeasures(cases, rounds)
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

export async function benchShards(rounds: number): Promise<string> {
  const suite = path.resolve(PACKAGE_ROOT, process.env.BENCH_SHARDS_SUITE ?? path.join('suites', 'full-seeded.yml'))
  // "none": the merge alone.
  const countsText = process.env.BENCH_SHARDS_COUNTS ?? '1,2,4'
  const counts = countsText === 'none' ? [] : countsText.split(',').map(Number)
  const totals = parseSizes(process.env.BENCH_SHARDS_MERGE_ROWS ?? '100k,1M')
  const walls: string[][] = [['shards', 'run s', 'merge s', 'run + merge s', 'x whole']]
  let whole: number | undefined
  for (const count of counts) {
    const {run, merge} = await runSharded(suite, count)
    const sum = run + (merge ?? 0)
    whole ??= count === 1 ? sum : undefined
    walls.push([
      count === 1 ? '1 (whole)' : `${count} (parallel)`,
      run.toFixed(1),
      merge === null ? '-' : merge.toFixed(1),
      sum.toFixed(1),
      whole === undefined ? '-' : (sum / whole).toFixed(2),
    ])
  }
  const mergeRows = [['rows', 'case', 'median s', 'x floor', 'CPU s', 'CPU x floor', 'peak RSS MiB']]
  for (const total of totals) {
    const merged = await measureMerge(total, rounds)
    const floor = merged.get('floor: streaming JSON.parse')!
    for (const [label, {ms, cpuMs, rssMiB}] of merged)
      mergeRows.push([
        total.toLocaleString('en'),
        label,
        (ms / 1000).toFixed(2),
        (ms / floor.ms).toFixed(2),
        (cpuMs / 1000).toFixed(2),
        (cpuMs / floor.cpuMs).toFixed(2),
        rssMiB.toFixed(0),
      ])
  }
  return [
    ...(counts.length === 0
      ? []
      : [
          `## ${path.relative(PACKAGE_ROOT, suite)} whole and as shards in parallel processes on this machine (each its own project folder and sandbox; run: until the last shard ends)`,
          table(walls),
          '',
        ]),
    `## merge of ${MERGE_SHARDS} shards' generated rows (${SCENARIOS} scenarios x ${MODES.length} modes; median of ${rounds}, interleaved with the floor)`,
    table(mergeRows),
  ].join('\n')
}
