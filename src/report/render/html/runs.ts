/**
 * The HTML report's runs: a compact, columnar index of every row (dictionaries for the strings, one
 * number per row and column), read in a second pass over the rows, and the traces the page embeds.
 * Its columns are typed arrays and its JSON is streamed into gzip, so that a million rows' index takes
 * tens of megabytes, not a JS value per row and column and the whole JSON text at once.
 *
 * A trace is linked by its path relative to the report's folder. Browsers refuse fetch() from a
 * file:// page, so the page cannot read a linked trace itself when opened from disk: it embeds, gzip
 * compressed and base64 encoded, as many traces as fit a budget (failed runs first, then one run of
 * every scenario x mode, then the rest), decoded only when a run is opened; any other trace is a link
 * that opens the JSON file (and is fetched and shown in the page when the report is served over http).
 */
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {Readable} from 'node:stream'
import {pipeline} from 'node:stream/promises'
import {promisify} from 'node:util'
import {createGzip, gzip} from 'node:zlib'
import {linkOnTheWay, readFileBelow} from '../../../results/no-follow.js'
import type {Row} from '../../../results/row-schema.js'
import {RunKeys} from '../../../results/run-keys.js'
import {readRows} from '../../../results/sources.js'

const gzipAsync = promisify(gzip)

const OUTCOMES = ['pass', 'fail', 'timeout', 'infra_error'] as const

/** Every row of the report, column by column. Missing numbers are -1. */
export interface RunIndex {
  count: number
  run_ids: string[]
  scenarios: string[]
  modes: string[]
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
     * 0: no trace file; k > 0: trace_dirs[k - 1] + "/<scenario>__<mode>__i<iteration>__a<attempt>.json";
     * k < 0: trace_paths[-k - 1].
     */
    trace: number[]
  }
}

class Dictionary {
  readonly values: string[] = []
  private readonly ids = new Map<string, number>()

  id(value: string): number {
    let id = this.ids.get(value)
    if (id === undefined) {
      id = this.values.length
      this.values.push(value)
      this.ids.set(value, id)
    }
    return id
  }
}

/** A path as a URL relative to `from`: forward slashes, each segment percent-encoded. */
function relativeUrl(from: string, to: string): string {
  const relative = path.relative(from, to)
  return relative === '' ? '.' : relative.split(path.sep).map(encodeURIComponent).join('/')
}

/** The trace file name the runner gives an attempt (src/runner/trace-file.ts). */
function traceFileName(scenario: string, mode: string, iteration: number, attempt: number): string {
  return `${scenario}__${mode}__i${iteration}__a${attempt}.json`
}

/** A column of numbers that grows as rows are read: one typed array, no JS value per row. */
class Column<T extends Int32Array | Float64Array> {
  private data: T
  length = 0

  constructor(private readonly make: (size: number) => T) {
    this.data = make(1024)
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  at(i: number): number {
    return this.data[i]!
  }

  /** The values of rows [from, to) as JSON numbers separated by commas (all finite: they were read from JSON). */
  json(from: number, to: number): string {
    return this.data.subarray(from, to).join(',')
  }
}

const ints = () => new Column((size) => new Int32Array(size))
const numbers = () => new Column((size) => new Float64Array(size))

/** The index as read: the wire format's dictionaries, and its columns as typed arrays (codes and small counts in Int32). */
export interface RunColumns {
  count: number
  run_ids: string[]
  scenarios: string[]
  modes: string[]
  errors: string[]
  trace_dirs: string[]
  trace_paths: string[]
  columns: Record<keyof RunIndex['columns'], Column<Int32Array> | Column<Float64Array>>
}

export interface BuiltIndex {
  index: RunColumns
  /** The absolute trace file of row i, or null. */
  traceFile(i: number): string | null
  /** Rows whose trace is a symbolic link, or in a folder that is one: left out, never followed (results/no-follow.ts). */
  linkedTraces: number
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

/**
 * Reads the rows again (the aggregate keeps no row) into the index. Rows found in two inputs are
 * counted once, as the report counts them. A trace counts only when its file exists now.
 */
export async function buildRunIndex(files: string[], reportDir: string, cwd: string): Promise<BuiltIndex> {
  const runIds = new Dictionary()
  const scenarios = new Dictionary()
  const modes = new Dictionary()
  const errors = new Dictionary()
  const traceDirs = new Dictionary()
  const tracePaths = new Dictionary()
  const absoluteDirs: string[] = []
  const absolutePaths: string[] = []
  // Per trace folder: its regular files, and its links (every name, when the folder is reached through one); null when unreadable.
  const listings = new Map<string, {files: Set<string>; links: Set<string> | 'all'} | null>()
  let linkedTraces = 0
  // In the wire format's order: the JSON keeps it.
  const columns = {
    run: ints(),
    scenario: ints(),
    mode: ints(),
    // Unbounded in the row schema: a double holds any of them exactly, an Int32 would not.
    iteration: numbers(),
    outcome: ints(),
    tokens_active: numbers(),
    tokens_total: numbers(),
    latency_wall: numbers(),
    latency_agent: numbers(),
    tool_calls: numbers(),
    cost: numbers(),
    attempts: ints(),
    error: ints(),
    trace: ints(),
  } satisfies RunColumns['columns']
  // A bit per run, as the report dedupes (results/run-keys.ts): no string kept per row.
  const seen = files.length > 1 ? new RunKeys() : undefined
  const exists = async (file: string, resultsDir: string): Promise<boolean> => {
    const dir = path.dirname(file)
    if (!listings.has(dir)) {
      if (await linkOnTheWay(resultsDir, dir)) listings.set(dir, {files: new Set(), links: 'all'})
      else {
        const entries = await readdir(dir, {withFileTypes: true}).catch(() => null)
        listings.set(
          dir,
          entries && {
            files: new Set(entries.filter((e) => e.isFile()).map((e) => e.name)),
            links: new Set(entries.filter((e) => e.isSymbolicLink()).map((e) => e.name)),
          },
        )
      }
    }
    const listing = listings.get(dir)
    if (listing && (listing.links === 'all' || listing.links.has(path.basename(file)))) linkedTraces++
    return listing?.files.has(path.basename(file)) ?? false
  }
  const traceOf = async (row: Row, resultsDir: string, attempt: number): Promise<number> => {
    if (!row.trace) return 0
    const file = path.resolve(resultsDir, row.trace)
    // A row's trace path is read from its results folder only: `../../somewhere` in a row is not followed.
    const relative = path.relative(resultsDir, file)
    if (relative.startsWith('..') || path.isAbsolute(relative)) return 0
    if (!(await exists(file, resultsDir))) return 0
    if (path.basename(file) === traceFileName(row.scenario_id, row.mode, row.iteration, attempt)) {
      const id = traceDirs.id(relativeUrl(reportDir, path.dirname(file)))
      absoluteDirs[id] = path.dirname(file)
      return id + 1
    }
    const id = tracePaths.id(relativeUrl(reportDir, file))
    absolutePaths[id] = file
    return -(id + 1)
  }
  for (const file of files) {
    for await (const row of readRows([file], () => {}, cwd)) {
      if (seen && !seen.addIfNew(row, row.iteration)) continue
      const attempt = row.attempts.at(-1)?.attempt ?? row.retries + 1
      columns.run.push(runIds.id(row.run_id))
      columns.scenario.push(scenarios.id(row.scenario_id))
      columns.mode.push(modes.id(row.mode))
      columns.iteration.push(row.iteration)
      columns.outcome.push(OUTCOMES.indexOf(row.outcome))
      columns.tokens_active.push(row.tokens.active)
      columns.tokens_total.push(row.tokens.total)
      columns.latency_wall.push(Math.round(row.latency_ms_wall))
      columns.latency_agent.push(row.latency_ms_agent === null ? -1 : Math.round(row.latency_ms_agent))
      columns.tool_calls.push(row.tool_calls.total)
      columns.cost.push(row.cost_usd === null ? -1 : Number(row.cost_usd.toPrecision(4)))
      columns.attempts.push(attempt)
      columns.error.push(
        row.error
          ? errors.id(
              `${row.error.type}: ${row.error.message.length > 300 ? `${row.error.message.slice(0, 299)}…` : row.error.message}`,
            )
          : -1,
      )
      columns.trace.push(await traceOf(row, path.dirname(file), attempt))
    }
  }
  const index: RunColumns = {
    count: columns.run.length,
    run_ids: runIds.values,
    scenarios: scenarios.values,
    modes: modes.values,
    errors: errors.values,
    trace_dirs: traceDirs.values,
    trace_paths: tracePaths.values,
    columns,
  }
  return {
    index,
    linkedTraces,
    traceFile(i) {
      const code = columns.trace.at(i)
      if (code === 0) return null
      if (code < 0) return absolutePaths[-code - 1]!
      return path.join(
        absoluteDirs[code - 1]!,
        traceFileName(
          index.scenarios[columns.scenario.at(i)]!,
          index.modes[columns.mode.at(i)]!,
          columns.iteration.at(i),
          columns.attempts.at(i),
        ),
      )
    },
  }
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
