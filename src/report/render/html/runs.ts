/**
 * The HTML report's runs: a compact, columnar index of every row (dictionaries for the strings, one
 * number per row and column, built where the rows are read: aggregate/run-index.ts), and the traces
 * the page embeds. Its JSON is streamed into gzip from the typed columns, so that a million rows' index
 * takes tens of megabytes, not a JS value per row and column and the whole JSON text at once.
 *
 * A trace is linked by its path relative to the report's folder. Browsers refuse fetch() from a
 * file:// page, so the page cannot read a linked trace itself when opened from disk: it embeds, gzip
 * compressed and base64 encoded, as many traces as fit a budget (failed runs first, then one run of
 * every scenario x mode, then the rest), decoded only when a run is opened; any other trace is a link
 * that opens the JSON file (and is fetched and shown in the page when the report is served over http).
 */
import path from 'node:path'
import {Readable} from 'node:stream'
import {pipeline} from 'node:stream/promises'
import {promisify} from 'node:util'
import {createGzip, gzip} from 'node:zlib'
import {readFileBelow} from '../../../results/no-follow.js'
import {OUTCOMES, readRunIndex, traceFileOf, type RunIndexData} from '../../aggregate/run-index.js'

const gzipAsync = promisify(gzip)

/** Every row of the report, column by column. Missing numbers are -1. */
export interface RunIndex {
  count: number
  run_ids: string[]
  scenarios: string[]
  modes: string[]
  /** The runs' agents; a row of none (imported) is -1. */
  providers: string[]
  outcomes: string[]
  /** "type: message" of the rows' errors, messages cut at 300 characters. */
  errors: string[]
  /** Folders of traces named the runner's way, as URLs relative to the report's folder. */
  trace_dirs: string[]
  /** Traces named otherwise, as URLs relative to the report's folder. */
  trace_paths: string[]
  columns: {
    run: number[]
    scenario: number[]
    mode: number[]
    provider: number[]
    iteration: number[]
    outcome: number[]
    tokens_active: number[]
    tokens_total: number[]
    latency_wall: number[]
    latency_agent: number[]
    tool_calls: number[]
    cost: number[]
    /** The number of the last attempt (its trace is the row's). */
    attempts: number[]
    /** Index into errors, -1 for none. */
    error: number[]
    /**
     * 0: no trace file; k > 0: trace_dirs[k - 1] + "/" + the runner's name of the attempt's trace
     * (results/trace-name.ts: "<scenario>__<mode>__<provider>__i<iteration>__a<attempt>.json");
     * k < 0: trace_paths[-k - 1].
     */
    trace: number[]
  }
}

/** A path as a URL relative to `from`: forward slashes, each segment percent-encoded. */
function relativeUrl(from: string, to: string): string {
  const relative = path.relative(from, to)
  return relative === '' ? '.' : relative.split(path.sep).map(encodeURIComponent).join('/')
}

/** The index as the page reads it: the index's dictionaries, its trace folders and files as URLs; its columns typed arrays. */
export type RunColumns = Omit<RunIndexData, 'trace_files' | 'linkedTraces'> & {trace_paths: string[]}

export interface BuiltIndex {
  index: RunColumns
  /** The absolute trace file of row i, or null. */
  traceFile(i: number): string | null
  /** Rows whose trace is a symbolic link, or in a folder that is one: left out, never followed (results/no-follow.ts). */
  linkedTraces: number
}

/** The index of the rows for a page in `reportDir`: its traces linked relative to it. */
export function indexForReport(data: RunIndexData, reportDir: string): BuiltIndex {
  const {trace_files: traceFiles, linkedTraces, ...index} = data
  return {
    index: {
      ...index,
      trace_dirs: data.trace_dirs.map((dir) => relativeUrl(reportDir, dir)),
      trace_paths: traceFiles.map((file) => relativeUrl(reportDir, file)),
    },
    linkedTraces,
    traceFile: (i) => traceFileOf(data, i),
  }
}

/** Reads the rows of `files` again into the index of a page in `reportDir` (aggregate/run-index.ts). */
export async function buildRunIndex(files: string[], reportDir: string, cwd: string): Promise<BuiltIndex> {
  return indexForReport(await readRunIndex(files, cwd), reportDir)
}

/** Rows a piece of the index's JSON text holds: pieces of a column stay small whatever the rows. */
const ROWS_A_PIECE = 65_536

/** The index's JSON text (JSON.stringify of a RunIndex, byte for byte) in pieces. */
function* runIndexJson(index: RunColumns, rowsAPiece: number): Generator<string> {
  const head = {
    count: index.count,
    run_ids: index.run_ids,
    scenarios: index.scenarios,
    modes: index.modes,
    providers: index.providers,
    outcomes: [...OUTCOMES],
    errors: index.errors,
    trace_dirs: index.trace_dirs,
    trace_paths: index.trace_paths,
  } satisfies Omit<RunIndex, 'columns'>
  yield `${JSON.stringify(head).slice(0, -1)},"columns":{`
  for (const [k, [name, column]] of Object.entries(index.columns).entries()) {
    yield `${k > 0 ? ',' : ''}${JSON.stringify(name)}:[`
    for (let from = 0; from < index.count; from += rowsAPiece)
      yield `${from > 0 ? ',' : ''}${column.json(from, Math.min(index.count, from + rowsAPiece))}`
    yield ']'
  }
  yield '}}'
}

/**
 * The index as the page embeds it: its JSON gzip compressed (zlib's default level: on a million runs' index
 * 1% larger than level 9's, in a quarter of the time), base64. The JSON is streamed into the compressor a
 * piece at a time; only the compressed bytes are held.
 */
export async function encodeRunIndex(index: RunColumns, rowsAPiece = ROWS_A_PIECE): Promise<string> {
  const compressed: Buffer[] = []
  await pipeline(
    Readable.from(runIndexJson(index, rowsAPiece)),
    createGzip(),
    async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) compressed.push(chunk)
    },
  )
  return Buffer.concat(compressed).toString('base64')
}

export interface TraceBudget {
  /** Bytes of embedded (gzip + base64) traces the page may hold in all. */
  totalBytes: number
  /** A trace larger than this, compressed, is linked only. */
  perTraceBytes: number
}

export const DEFAULT_TRACE_BUDGET: TraceBudget = {totalBytes: 8 * 1024 * 1024, perTraceBytes: 512 * 1024}

export interface EmbeddedTraces {
  /** Row number -> the trace, compact JSON, gzip, base64. */
  traces: Record<number, string>
  embedded: number
  /** Rows with a trace file that is linked only. */
  linked: number
  /** Rows whose trace is a symbolic link: neither embedded nor linked. */
  links: number
  bytes: number
  budget: TraceBudget
}

/**
 * Rows with a trace: failed runs first, then the first run of every scenario x mode, then the rest, in row
 * order. Yielded in three passes over the columns, so that nothing the size of the rows is held.
 */
function* embeddingOrder(index: RunColumns): Generator<number> {
  const {outcome, trace, scenario, mode} = index.columns
  for (let i = 0; i < index.count; i++) if (trace.at(i) !== 0 && outcome.at(i) !== 0) yield i
  // Each scenario x mode's first row with a trace: a failed one was yielded already.
  const firsts = new Map<number, number>()
  for (let i = 0; i < index.count; i++) {
    const cell = scenario.at(i) * index.modes.length + mode.at(i)
    if (trace.at(i) !== 0 && !firsts.has(cell)) {
      firsts.set(cell, i)
      if (outcome.at(i) === 0) yield i
    }
  }
  for (let i = 0; i < index.count; i++)
    if (trace.at(i) !== 0 && outcome.at(i) === 0 && firsts.get(scenario.at(i) * index.modes.length + mode.at(i)) !== i)
      yield i
}

/** Reads, compacts and compresses traces in priority order until the budget is spent. */
export async function embedTraces(
  built: BuiltIndex,
  budget: TraceBudget = DEFAULT_TRACE_BUDGET,
): Promise<EmbeddedTraces> {
  const order = embeddingOrder(built.index)
  const traces: Record<number, string> = {}
  let bytes = 0
  let embedded = 0
  let misses = 0
  const batch = 16
  const nextBatch = (): number[] => {
    const rows: number[] = []
    for (let next; rows.length < batch && !(next = order.next()).done;) rows.push(next.value)
    return rows
  }
  for (let rows = nextBatch(); rows.length > 0 && budget.totalBytes - bytes >= 256 && misses < 64; rows = nextBatch()) {
    const encoded = await Promise.all(
      rows.map(async (i) => {
        try {
          const file = built.traceFile(i)!
          const compact = JSON.stringify(JSON.parse((await readFileBelow(path.dirname(file), file)) ?? ''))
          return (await gzipAsync(compact, {level: 9})).toString('base64')
        } catch {
          return null
        }
      }),
    )
    rows.forEach((i, k) => {
      const data = encoded[k]
      if (data && data.length <= budget.perTraceBytes && bytes + data.length <= budget.totalBytes) {
        traces[i] = data
        bytes += data.length
        embedded++
        misses = 0
      } else misses++
    })
  }
  let withTrace = 0
  for (let i = 0; i < built.index.count; i++) if (built.index.columns.trace.at(i) !== 0) withTrace++
  return {traces, embedded, linked: withTrace - embedded, links: built.linkedTraces, bytes, budget}
}
