/**
 * Rows into an aggregate. A large JSONL file is split at line boundaries into one byte range per
 * core; each range is parsed and aggregated in a worker thread and the aggregates are merged, so
 * JSON.parse, the dominant cost on a million rows, runs on every core.
 */
import {open, stat} from 'node:fs/promises'
import {availableParallelism} from 'node:os'
import {Worker} from 'node:worker_threads'
import {packageModulePath, RUNNING_FROM_SOURCE} from '../shared/package-paths.js'
import type {ByteRange} from '../results/lines.js'
import {readHead, readRows} from '../results/sources.js'
import type {ReadWarning} from '../results/store.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {addRow, emptyAggregate, mergePortable, type Aggregate, type PortableAggregate} from './aggregate.js'

/** Below this size a file is read on the main thread: starting workers would cost more than it saves. */
export const PARALLEL_MIN_BYTES = 64 * 1024 * 1024

export interface WorkerResult {
  ok: boolean
  lines: number
  aggregate?: PortableAggregate
  warnings: ReadWarning[]
  diagnostics?: Diagnostic[]
  message?: string
}

export async function aggregateFiles(files: string[], warn: (w: ReadWarning) => void, cwd = process.cwd()): Promise<Aggregate> {
  const single = files.length === 1 ? files[0]! : undefined
  const workers = Math.min(4, availableParallelism())
  if (single && workers > 1 && (await stat(single)).size >= PARALLEL_MIN_BYTES && (await readHead(single)).trimStart().startsWith('{')) {
    return aggregateInParallel(single, displayPath(single, cwd), workers, warn)
  }
  const aggregate = emptyAggregate()
  for await (const row of readRows(files, warn, cwd)) addRow(aggregate, row)
  return aggregate
}

async function aggregateInParallel(file: string, shown: string, workers: number, warn: (w: ReadWarning) => void): Promise<Aggregate> {
  const ranges = await splitAtLines(file, workers)
  const results = await Promise.all(ranges.map((range) => runWorker(file, shown, range)))
  const aggregate = emptyAggregate()
  let lineOffset = 0
  for (const result of results) {
    if (!result.ok) {
      if (result.diagnostics) {
        throw new BadInputError(result.diagnostics.map((d) => (d.line === undefined ? d : {...d, line: d.line + lineOffset})))
      }
      throw new Error(result.message)
    }
    for (const w of result.warnings) warn({...w, line: w.line + lineOffset})
    mergePortable(aggregate, result.aggregate!)
    lineOffset += result.lines
  }
  return aggregate
}

/** Byte ranges of about equal size, each starting at a line start. */
async function splitAtLines(file: string, parts: number): Promise<ByteRange[]> {
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

function runWorker(file: string, shown: string, range: ByteRange): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(packageModulePath('src/report/aggregate-worker.ts'), {
      workerData: {file, shown, range},
      // From source the worker is TypeScript, loaded by tsx like the rest.
      execArgv: RUNNING_FROM_SOURCE ? ['--import', 'tsx'] : [],
    })
    worker.once('message', (result: WorkerResult) => resolve(result))
    worker.once('error', reject)
  })
}
