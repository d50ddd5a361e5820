/**
 * Rows into an aggregate per provider (rows of two providers are never compared), file by file in reading order. A large JSONL file is split at line
 * boundaries into one byte range per core; each range is parsed and aggregated in a worker thread,
 * whose columns come back transferred (not copied) and are appended as they are, so JSON.parse, the
 * dominant cost on millions of rows, runs on every core and the rows' figures exist once. A row that
 * an earlier file already gave (same run, scenario, mode, provider, iteration) is counted once: the files'
 * keys, a bit per iteration, go to the workers of the later files. A run one file gives twice is bad
 * input (src/results/run-keys.ts): a worker finds it within its range, the ranges' keys are checked
 * against each other here.
 */
import {open, stat} from 'node:fs/promises'
import {availableParallelism} from 'node:os'
import {fromGhxRouter, routerFacts} from '../../results/importers.js'
import type {ByteRange} from '../../results/lines.js'
import {factsOfRow, type RowFacts} from '../../results/row-facts.js'
import type {Row} from '../../results/row-schema.js'
import {
  conflictingRunError,
  FileDeduplication,
  RunKeys,
  type PortableRunKeys,
  type RepeatedRun,
} from '../../results/run-keys.js'
import {
  duplicatesWarning,
  fileKind,
  readHead,
  replacedByRegraded,
  repeatedRunError,
  visitFile,
  type ReadPosition,
  type RowVisitor,
} from '../../results/sources.js'
import type {ReadWarning} from '../../results/store.js'
import {BadInputError, type Diagnostic} from '../../shared/diagnostics.js'
import {workerAnswer} from '../../shared/module-worker.js'
import {displayPath} from '../../shared/source-document.js'
import {
  addFacts,
  aggregateOf,
  byProviderName,
  mergePortable,
  sealAggregate,
  type PortableAggregate,
  type ProviderAggregates,
} from './aggregate.js'

/** Below this size a file is read on the main thread: starting workers would cost more than it saves. */
export const PARALLEL_MIN_BYTES = 64 * 1024 * 1024

export interface AggregateOptions {
  /** Files from this size on are read in workers (default PARALLEL_MIN_BYTES). */
  parallelMinBytes?: number
  /** Worker threads per file (default: the cores, at most 4); 1 reads everything on the main thread. */
  workers?: number
}

/** What a worker is given: its byte range of a file, and the keys of the files read before. */
export interface WorkerTask {
  file: string
  shown: string
  range: ByteRange
  earlier: PortableRunKeys | undefined
  /** The file is an original its re-graded rows replace (FileDeduplication). */
  replaced: boolean
}

export interface WorkerResult {
  ok: boolean
  lines: number
  /** Each provider's share of the range. */
  aggregates?: Array<[string | null, PortableAggregate]>
  duplicates: number
  /** The range's keys: checked against the other ranges' (a run the file gives twice), then handed to later files. */
  keys?: PortableRunKeys
  /** A run the range gives twice. */
  repeated?: RepeatedRun
  warnings: ReadWarning[]
  diagnostics?: Diagnostic[]
  message?: string
}

export async function aggregateFiles(
  files: string[],
  warn: (w: ReadWarning) => void,
  cwd = process.cwd(),
  options: AggregateOptions = {},
): Promise<ProviderAggregates> {
  const workers = options.workers ?? Math.min(4, availableParallelism())
  const parallelMinBytes = options.parallelMinBytes ?? PARALLEL_MIN_BYTES
  const aggregates: ProviderAggregates = new Map()
  const earlier = files.length > 1 ? new RunKeys() : undefined
  for (const [index, file] of files.entries()) {
    const shown = displayPath(file, cwd)
    const replaced = replacedByRegraded(files, index)
    const parallel =
      workers > 1 && (await stat(file)).size >= parallelMinBytes && fileKind(file, await readHead(file)) === 'jsonl'
    const read = parallel
      ? await readInWorkers(aggregates, {file, shown, earlier: earlier?.portable(), replaced}, workers, warn)
      : await readInto(aggregates, file, shown, warn, {earlier, replaced})
    if (read.repeated) throw await repeatedRunError(file, shown)
    if (earlier) for (const keys of Array.isArray(read.keys) ? read.keys : [read.keys]) earlier.addAll(keys)
    if (read.duplicates > 0) warn(duplicatesWarning(shown, read.duplicates))
  }
  for (const aggregate of aggregates.values()) sealAggregate(aggregate)
  return byProviderName(aggregates)
}

interface FileRead<Keys> {
  duplicates: number
  /** The file's keys: one set, or one a worker's range. */
  keys: Keys
  /** A run the file gives twice: the reader stops, and the file is refused. */
  repeated: RepeatedRun | undefined
}

/**
 * Reads one file, or a byte range of it, into its providers' aggregates: ghx-bench and ghx eval rows by their
 * figures, ghx-router rows by theirs read straight from the parsed line (the normalized row is built
 * only for a failed run's details).
 */
export async function readInto(
  aggregates: ProviderAggregates,
  file: string,
  shown: string,
  warn: (w: ReadWarning) => void,
  options: {earlier?: RunKeys; replaced?: boolean; range?: ByteRange; position?: ReadPosition},
): Promise<FileRead<RunKeys>> {
  const once = new FileDeduplication(options.earlier, options.replaced)
  const add = (facts: RowFacts, line: number, whole: () => Row): void => {
    if (once.fresh(facts, facts.iteration, facts.success))
      addFacts(aggregateOf(aggregates, facts.provider), facts, whole)
    if (once.conflicting) throw conflictingRunError(shown, line, once.conflicting)
  }
  const visitor: RowVisitor = {
    row: (row, line) => add(factsOfRow(row), line, () => row),
    router: (source, line) => add(routerFacts(source), line, () => fromGhxRouter(source)),
  }
  for await (const _ of visitFile(file, shown, warn, visitor, options.range, options.position)) if (once.repeated) break
  return {duplicates: once.duplicates, keys: once.keys, repeated: once.repeated}
}

async function readInWorkers(
  aggregates: ProviderAggregates,
  task: Omit<WorkerTask, 'range'>,
  workers: number,
  warn: (w: ReadWarning) => void,
): Promise<FileRead<PortableRunKeys[]>> {
  const ranges = await splitAtLines(task.file, workers)
  const results = await Promise.all(
    ranges.map((range) =>
      workerAnswer<WorkerResult>('src/report/aggregate/aggregate-worker.ts', {...task, range}, `reading ${task.shown}`),
    ),
  )
  const read: FileRead<PortableRunKeys[]> = {duplicates: 0, keys: [], repeated: undefined}
  // The keys of the ranges before: a run that two ranges give is a run the file gives twice.
  const before = new RunKeys()
  let lineOffset = 0
  for (const result of results) {
    if (!result.ok) {
      if (result.diagnostics) {
        throw new BadInputError(
          result.diagnostics.map((d) => (d.line === undefined ? d : {...d, line: d.line + lineOffset})),
        )
      }
      throw new Error(result.message)
    }
    for (const w of result.warnings) warn({...w, line: w.line + lineOffset})
    // Ranges merge in file order, so every cell keeps its rows in the order of the file.
    for (const [provider, portable] of result.aggregates!) mergePortable(aggregateOf(aggregates, provider), portable)
    read.duplicates += result.duplicates
    read.repeated ??= result.repeated ?? before.shared(result.keys!)
    if (read.repeated) return read
    before.addAll(result.keys!)
    read.keys.push(result.keys!)
    lineOffset += result.lines
  }
  return read
}

/** Byte ranges of about equal size, each starting at a line start. */
export async function splitAtLines(file: string, parts: number): Promise<ByteRange[]> {
  const {size} = await stat(file)
  const handle = await open(file, 'r')
  const starts = [0]
  try {
    const buffer = Buffer.alloc(64 * 1024)
    for (let i = 1; i < parts; i++) {
      let position = Math.floor((size * i) / parts)
      for (;;) {
        const {bytesRead} = await handle.read(buffer, 0, buffer.length, position)
        if (bytesRead === 0) {
          position = size
          break
        }
        const newline = buffer.subarray(0, bytesRead).indexOf(10)
        if (newline >= 0) {
          position += newline + 1
          break
        }
        position += bytesRead
      }
      if (position > starts.at(-1)! && position < size) starts.push(position)
    }
  } finally {
    await handle.close()
  }
  return starts.map((start, i) => ({start, end: starts[i + 1] ?? size}))
}
