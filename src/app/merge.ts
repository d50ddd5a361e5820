/**
 * `ghx-bench merge <artifacts…>`: the shards of one run (`run --shard i/N`) made one run again. Every
 * shard's header must agree (format, run id, comparability key, partition: bad input naming what
 * differs); each row must belong to a block its shard owns, once. The rows go, unchanged but for their
 * trace paths, to results_dir/<run-id>.jsonl with the traces under results_dir/<run-id>/traces, as an
 * unsharded run leaves them; then the report and the gate of the union (judge.ts), from the aggregate
 * made as the rows were merged: one reading of the rows serves the merge, the report and the gate
 * (merge-rows.ts; summary.html's run index too, its traces looked for once they are copied). Blocks missing (a shard not
 * given, a shard cut short) make the run incomplete: the gate is inconclusive and merge exits 3, naming
 * them. Blocks a shard's budget left out (its run.json's not_run) are the merged
 * run's not_run, said as the run's own are, and kept in its run.json for `report` and `gate`.
 */
import {createReadStream, existsSync} from 'node:fs'
import {cp, mkdir, open, readdir, rename, rm, stat} from 'node:fs/promises'
import {availableParallelism} from 'node:os'
import path from 'node:path'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {readProblem, refuseLinks, writeFileBelow} from '../results/no-follow.js'
import {notRunSentence, readRunInfoFor, writeRunInfo, type NotRun} from '../results/run-info.js'
import {RunKeys} from '../results/run-keys.js'
import {acquireRunLock} from '../results/run-lock.js'
import {headerDifferences, readShardHeader} from '../results/shard-file.js'
import {repeatedRunError} from '../results/sources.js'
import {runFile} from '../results/store.js'
import type {RunSummary} from '../runner/run-suite.js'
import {blockKey, shardLabel, shardRecordName} from '../runner/shard.js'
import {selectSuite} from '../runner/select-suite.js'
import type {ShardHeader} from '../schemas/shard-header.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {
  aggregateOf,
  byProviderName,
  mergePortable,
  sealAggregate,
  type ProviderAggregates,
} from '../report/aggregate/aggregate.js'
import {PARALLEL_MIN_BYTES} from '../report/aggregate/read-aggregate.js'
import {loadedRows} from '../report/aggregate/rows.js'
import {RunIndexBuilder} from '../report/aggregate/run-index.js'
import {regradedFileFor} from '../results/regraded.js'
import {workerAnswer} from '../shared/module-worker.js'
import {judgeRun, type Judgement} from './judge.js'
import {readShard, type OutcomeCounts, type ShardRead, type ShardTask} from './merge-rows.js'
import {openProject, type ProjectOptions} from './project.js'

export interface MergeOptions extends ProjectOptions {
  /** Shards' results files, or folders holding them (searched through: download-artifact's layout). */
  artifacts: string[]
  /** From this many bytes of shards' files on, the shards are read in worker threads (default: as report reads a file). */
  parallelMinBytes?: number
}

export interface MergeResult {
  run_id: string
  results_file: string
  shards: Array<{shard: string; file: string; rows: number}>
  /** Each shard with blocks that have no rows (all of them when its file was not given). */
  missing: Array<{shard: string; blocks: string[]; given: boolean}>
  /** The blocks the shards' budgets left out; null when none did. */
  not_run: NotRun | null
  /** What the merged run lacks, in a sentence; null when complete. */
  incomplete: string | null
  summary: RunSummary
  judgement: Judgement
  /** The gate's exit code; 3 when incomplete, whatever the gate says. */
  exit_code: number
}

const SHARD_FILE = /\.shard-\d+-of-\d+\.jsonl$/

/** The shards' results files: the files given, and those found in the folders given. */
async function shardFiles(artifacts: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = []
  const problems: Diagnostic[] = []
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, {withFileTypes: true})) {
      const at = path.join(folder, entry.name)
      if (entry.isDirectory()) await walk(at)
      else if (entry.isFile() && SHARD_FILE.test(entry.name)) files.push(at)
    }
  }
  for (const artifact of artifacts) {
    const resolved = path.resolve(cwd, artifact)
    const info = await stat(resolved).catch(() => undefined)
    if (!info?.isDirectory()) {
      // A shard's file, or why it cannot be read (missing, a link loop, a FIFO or device): stat, never open.
      const problem = await readProblem(resolved, artifact)
      if (problem) problems.push(problem)
      else files.push(resolved)
    } else {
      const before = files.length
      await walk(resolved)
      if (files.length === before)
        problems.push({
          file: artifact,
          code: 'io',
          message: 'holds no shard results file (<run-id>.shard-<i>-of-<N>.jsonl)',
        })
    }
  }
  if (problems.length > 0) throw new BadInputError(problems)
  return [...new Set(files)]
}

interface Shard {
  file: string
  shown: string
  header: ShardHeader
}

/** Every shard's header, checked against the first's; bad input naming each difference, or a shard given twice. */
async function readShards(files: readonly string[], cwd: string): Promise<Shard[]> {
  const shards: Shard[] = []
  for (const file of files) {
    const header = await readShardHeader(file, cwd)
    // Every header lists every shard's blocks (333k at a million rows): one list is kept where they agree,
    // as they are read (all four kept until checked grew the heap: 511-567 MiB at 1M rows against 464-493).
    const partition = shards[0]?.header.partition
    if (partition && JSON.stringify(partition) === JSON.stringify(header.partition)) header.partition = partition
    shards.push({file, shown: displayPath(file, cwd), header})
  }
  shards.sort((a, b) => a.header.shard.index - b.header.shard.index)
  const [first] = shards as [Shard]
  const problems: Diagnostic[] = []
  for (const shard of shards.slice(1)) {
    const differences = headerDifferences(first.header, shard.header)
    if (differences.length > 0)
      problems.push({
        file: shard.shown,
        code: 'config',
        message: `shard ${shardLabel(shard.header.shard)} cannot be merged with shard ${shardLabel(first.header.shard)} of ${first.shown}: ${differences.join('; ')}`,
      })
  }
  if (problems.length === 0) {
    const notAPartition = partitionProblem(first.header)
    if (notAPartition) problems.push({file: first.shown, code: 'config', message: notAPartition})
  }
  for (const [i, shard] of shards.entries()) {
    const earlier = shards.slice(0, i).find((s) => s.header.shard.index === shard.header.shard.index)
    if (earlier)
      problems.push({
        file: shard.shown,
        code: 'duplicate_id',
        message: `shard ${shardLabel(shard.header.shard)} is given twice (also ${earlier.shown}): each of its blocks would be counted twice`,
      })
  }
  if (problems.length > 0) throw new BadInputError(problems)
  return shards
}

const LISTED = 12

/**
 * Why a header's partition is not its run's plan split in shards, if it is not: every block of the plan
 * (the key's scenarios x repetitions) in exactly one shard, and nothing else. The plan is recomputed
 * from the key, never read from the list: blocks taken out of every header would otherwise be left
 * out of the run unseen.
 */
function partitionProblem({key, partition, shard}: ShardHeader): string | null {
  const planned = new Set<string>()
  for (let iteration = 1; iteration <= key.repetitions; iteration++)
    for (const scenario of key.scenarios) planned.add(blockKey(scenario, iteration))
  const owners = new Map<string, number>()
  const problems: string[] = []
  if (partition.length !== shard.count)
    problems.push(`it lists ${partition.length} shards' blocks for ${shard.count} shards`)
  for (const [i, blocks] of partition.entries())
    for (const block of blocks) {
      if (!planned.has(block)) problems.push(`block ${block} of shard ${i + 1} is not in the plan`)
      else if (owners.has(block)) problems.push(`block ${block} is in shard ${owners.get(block)} and shard ${i + 1}`)
      owners.set(block, owners.get(block) ?? i + 1)
    }
  const unowned = [...planned].filter((block) => !owners.has(block))
  if (unowned.length > 0)
    problems.push(
      `${unowned.length} block(s) of the plan are in no shard (${unowned.slice(0, LISTED).join(', ')}${unowned.length > LISTED ? ', …' : ''})`,
    )
  if (problems.length === 0) return null
  const listed = problems.length > LISTED ? [...problems.slice(0, LISTED), '…'] : problems
  return `the shards' partition is not the plan of their key (${key.scenarios.length} scenarios x ${key.repetitions} repetitions): ${listed.join('; ')}; an edited header, or shards of another run`
}

/**
 * Every shard's rows, checked (its run, its own blocks, each once), into the merged results file, and
 * into the report's aggregate as they are read; written beside it first, so that a merge refused
 * halfway leaves nothing behind. Shards of a large merge are read in worker threads, a part file each,
 * joined in shard order.
 */
async function writeMergedRows(
  shards: readonly Shard[],
  runId: string,
  resultsFile: string,
  warnings: string[],
  parallelMinBytes: number,
): Promise<{
  keys: RunKeys
  counts: OutcomeCounts
  merged: MergeResult['shards']
  providers: ProviderAggregates
  runIndex: RunIndexBuilder
}> {
  const partial = `${resultsFile}.merging`
  await mkdir(path.dirname(resultsFile), {recursive: true})
  const tasks: ShardTask[] = shards.map(({file, shown, header}, i) => ({
    file,
    shown,
    runId,
    label: `shard ${shardLabel(header.shard)}`,
    owned: header.partition[header.shard.index - 1] ?? [],
    record: shardRecordName(runId, header.shard),
    out: `${partial}.${i + 1}`,
    resultsDir: path.dirname(resultsFile),
  }))
  try {
    const reads = await readShardRows(tasks, parallelMinBytes)
    for (const [i, read] of reads.entries()) {
      for (const w of read.warnings) warnings.push(`${w.file}:${w.line}: ${w.message}`)
      if (!read.ok) throw read.diagnostics ? new BadInputError(read.diagnostics) : new Error(read.message)
      if (read.repeated) throw await repeatedRunError(shards[i]!.file, shards[i]!.shown)
    }
    // The first shard's part is the file's start; the others are appended to it.
    await rename(tasks[0]!.out, partial)
    const out = await open(partial, 'a')
    try {
      for (const task of tasks.slice(1))
        for await (const chunk of createReadStream(task.out, {highWaterMark: 1 << 20})) await out.write(chunk as Buffer)
      await out.sync()
    } finally {
      await out.close()
    }
    await rename(partial, resultsFile)
    const keys = new RunKeys()
    const counts: OutcomeCounts = {by_mode: {}, by_provider: {}}
    const aggregates: ProviderAggregates = new Map()
    for (const read of reads) {
      keys.addAll(read.keys!)
      addCounts(counts.by_mode, read.counts.by_mode)
      for (const [provider, byMode] of Object.entries(read.counts.by_provider))
        addCounts((counts.by_provider[provider] ??= {}), byMode)
      // In shard order: each cell keeps its rows in the order of the merged file, as a report of it reads them.
      for (const [provider, portable] of read.aggregates) mergePortable(aggregateOf(aggregates, provider), portable)
      // Let go as merged: a million rows' columns are not held twice.
      read.aggregates = []
    }
    for (const aggregate of aggregates.values()) sealAggregate(aggregate)
    const runIndex = RunIndexBuilder.join(reads.map((read) => read.runIndex!))
    const merged = shards.map((shard, i) => ({
      shard: shardLabel(shard.header.shard),
      file: shard.shown,
      rows: reads[i]!.rows,
    }))
    return {keys, counts, merged, providers: byProviderName(aggregates), runIndex}
  } catch (error) {
    await rm(partial, {force: true})
    throw error
  } finally {
    await Promise.all(tasks.map((task) => rm(task.out, {force: true})))
  }
}

/** Each shard read: in worker threads (a few at a time) when their rows are many, else one after another here. */
async function readShardRows(tasks: readonly ShardTask[], parallelMinBytes: number): Promise<ShardRead[]> {
  const bytes = (await Promise.all(tasks.map((task) => stat(task.file)))).reduce((n, info) => n + info.size, 0)
  const workers = Math.min(4, availableParallelism(), tasks.length)
  const reads: ShardRead[] = []
  if (workers < 2 || bytes < parallelMinBytes) {
    for (const task of tasks) {
      reads.push(await readShard(task))
      if (!reads.at(-1)!.ok) break
    }
    return reads
  }
  let next = 0
  await Promise.all(
    Array.from({length: workers}, async () => {
      for (let i = next++; i < tasks.length; i = next++)
        reads[i] = await workerAnswer<ShardRead>('src/app/merge-worker.ts', tasks[i], `merging ${tasks[i]!.shown}`)
    }),
  )
  return reads
}

function addCounts(into: OutcomeCounts['by_mode'], from: OutcomeCounts['by_mode']): void {
  for (const [mode, outcomes] of Object.entries(from)) {
    const sum = (into[mode] ??= {pass: 0, fail: 0, timeout: 0, infra_error: 0})
    for (const outcome of Object.keys(outcomes) as Array<keyof typeof outcomes>) sum[outcome] += outcomes[outcome]
  }
}

/** "blocks a/1, b/2 of shard 3/4 missing", the list cut at a dozen. */
function missingSentence({shard, blocks, given}: MergeResult['missing'][number]): string {
  const listed =
    blocks.length > LISTED ? `${blocks.slice(0, LISTED).join(', ')}, … (${blocks.length} in all)` : blocks.join(', ')
  return `blocks ${listed} of shard ${shard} missing${given ? '' : ` (no results file of shard ${shard} was given)`}`
}

/** The blocks every shard's budget left out (run.json beside its results file), as one record of the merged run. */
async function shardsNotRun(shards: readonly Shard[]): Promise<NotRun | null> {
  const records = (await Promise.all(shards.map((shard) => readRunInfoFor(shard.file))))
    .map((info) => info?.not_run)
    .filter((record): record is NotRun => record !== undefined)
  if (records.length === 0) return null
  return {
    reason: 'budget',
    budget: [...new Set(records.map((r) => r.budget))].join(' / '),
    detail: records.map((r) => r.detail).join('; '),
    planned_blocks: shards[0]!.header.partition.flat().length,
    blocks: records.flatMap((r) => r.blocks),
  }
}

/** Where the merged run goes, and what it is merged as. */
interface MergeTarget {
  shards: Shard[]
  selected: ReturnType<typeof selectSuite> | undefined
  config: LoadedConfig
  resultsDir: string
  resultsFile: string
  mergedMark: string
}

export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  const cwd = options.cwd ?? process.cwd()
  const shards = await readShards(await shardFiles(options.artifacts, cwd), cwd)
  const {header} = shards[0]!
  const {run_id: runId, key} = header
  const project = await openProject(options)
  // The suite's own gate selection (profile, baseline, candidate) is a layer of the configuration, as for `run`.
  const suiteFile = [...project.catalogue.suites.values()].find((spec) => spec.value.name === key.suite)
  const selected = suiteFile ? selectSuite(project, {suitePath: suiteFile.absolutePath}) : undefined
  const config = selected?.config ?? project.config
  const resultsDir = resolveConfigPath(config, config.values.results_dir)
  const resultsFile = runFile(resultsDir, runId)
  const mergedMark = path.join(resultsDir, runId, 'merged-from.json')
  await refuseLinks(resultsDir, resultsFile, 'write')
  await refuseLinks(resultsDir, path.join(resultsDir, runId, 'traces'), 'write')
  // The run id's lock, as `run` takes it: a run of the same id writing while the merge does would leave a file that is neither.
  const lock = acquireRunLock(resultsDir, runId, 'merge')
  try {
    // A run's own results are never overwritten; an earlier merge's are (the shards resumed, merged again).
    if (existsSync(resultsFile) && !existsSync(mergedMark))
      throw new BadInputError([
        {
          file: displayPath(resultsFile, cwd),
          code: 'io',
          message: `run ${JSON.stringify(runId)} has results here that no merge wrote: set results_dir to another folder for the merge, or move them`,
        },
      ])
    return await mergeInto(options, {shards, selected, config, resultsDir, resultsFile, mergedMark}, cwd)
  } finally {
    lock.release()
  }
}

async function mergeInto(
  options: MergeOptions,
  {shards, selected, config, resultsDir, resultsFile, mergedMark}: MergeTarget,
  cwd: string,
): Promise<MergeResult> {
  const {header} = shards[0]!
  const {run_id: runId, key} = header
  const modes = Object.keys(key.modes)
  const notApplicable = new Set(header.not_applicable.map((n) => `${n.scenario_id}\0${n.mode}`))
  const warnings: string[] = []
  if (!selected)
    warnings.push(
      `suite ${JSON.stringify(key.suite)} is not in this project's catalogue: its gate is not known, the rows are reported only`,
    )
  const {keys, counts, merged, providers, runIndex} = await writeMergedRows(
    shards,
    runId,
    resultsFile,
    warnings,
    options.parallelMinBytes ?? PARALLEL_MIN_BYTES,
  )
  const notRun = await shardsNotRun(shards)
  // Every attempt's trace (a row names its last attempt's), where the merged run's rows say.
  for (const shard of shards) {
    const traces = path.join(path.dirname(shard.file), shardRecordName(runId, shard.header.shard), 'traces')
    if (existsSync(traces)) await cp(traces, path.join(resultsDir, runId, 'traces'), {recursive: true})
  }
  // With the plan (the key), so that `report` and `gate` of the merged run check its rows against it.
  await writeRunInfo(resultsDir, runId, {
    run_id: runId,
    suite: key.suite,
    seed: key.seed,
    modes,
    providers: key.providers,
    unavailable: header.unavailable,
    not_applicable: header.not_applicable,
    key,
    ...(notRun ? {not_run: notRun} : {}),
  })
  await writeFileBelow(resultsDir, mergedMark, JSON.stringify({run_id: runId, shards: merged}, null, 2) + '\n')
  const given = new Set(shards.map((s) => s.header.shard.index))
  const leftOut = new Set(notRun?.blocks)
  const missing: MergeResult['missing'] = header.partition
    .map((blocks, i) => ({
      shard: shardLabel({index: i + 1, count: header.shard.count}),
      given: given.has(i + 1),
      blocks: blocks.filter((block) => {
        if (leftOut.has(block)) return false
        const at = block.lastIndexOf('/')
        const [scenario_id, iteration] = [block.slice(0, at), Number(block.slice(at + 1))]
        return modes.some(
          (mode) =>
            !notApplicable.has(`${scenario_id}\0${mode}`) &&
            key.providers.some((provider) => !keys.has({run_id: runId, scenario_id, mode, provider}, iteration)),
        )
      }),
    }))
    .filter((shard) => shard.blocks.length > 0)
  const absent = missing.length > 0 ? `incomplete: ${missing.map(missingSentence).join('; ')}` : null
  const budgeted = notRunSentence([{run_id: runId, not_run: notRun}])
  const incomplete = absent && budgeted ? `${absent}; ${budgeted.slice('incomplete: '.length)}` : (absent ?? budgeted)
  const completed = merged.reduce((n, s) => n + s.rows, 0)
  const summary: RunSummary = {
    run_id: runId,
    suite: key.suite,
    seed: key.seed,
    modes,
    providers: key.providers,
    unavailable: header.unavailable,
    runs: [],
    skipped: [],
    gate: selected?.suite.gate ?? null,
    not_applicable: header.not_applicable,
    results_file: resultsFile,
    warnings,
    completed,
    interrupted: false,
    stopped: null,
    ...counts,
    forecast: null,
    not_run: notRun,
  }
  // The rows were aggregated as they were merged; a re-graded file of the run (an earlier merge's, re-graded) is read as report reads it.
  const loaded =
    completed > 0 && !existsSync(regradedFileFor(resultsFile))
      ? {...(await loadedRows(providers, [resultsFile], [], cwd)), runIndex: await runIndex.finish()}
      : undefined
  const judged = await judgeRun(config, summary, cwd, {}, loaded, absent)
  // Missing blocks decide, whatever the rows there are say: never a pass.
  const judgement = incomplete
    ? {
        ...judged,
        verdict: {...judged.verdict, verdict: 'inconclusive' as const, exit_code: 3 as const, reason: incomplete},
      }
    : judged
  return {
    run_id: runId,
    results_file: resultsFile,
    shards: merged,
    missing,
    not_run: notRun,
    incomplete,
    summary,
    judgement,
    exit_code: judgement.verdict.exit_code,
  }
}
