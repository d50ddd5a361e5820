/**
 * The index of every run a report shows (summary.html's runs table): one number per row and column in
 * typed arrays, dictionaries for the strings, so that a million rows take tens of megabytes, not a JS
 * value per row and column. Rows are added one at a time, where they are read: `report` reads its
 * files again for it (the aggregate keeps no row), `merge` builds it in the pass that merges the shards
 * (each worker a part, joined in shard order: app/merge-rows.ts). Whether a row's trace file exists is
 * asked once the rows are in (`finish`), a folder listing per trace folder, after merge has copied the
 * shards' traces: a trace counts only when its file exists then.
 */
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {linkOnTheWay} from '../../results/no-follow.js'
import type {Row} from '../../results/row-schema.js'
import {RunKeys} from '../../results/run-keys.js'
import {readRows} from '../../results/sources.js'
import {attemptTraceName} from '../../results/trace-name.js'

export const OUTCOMES = ['pass', 'fail', 'timeout', 'infra_error'] as const

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

type Numbers = Int32Array | Float64Array

/** A column of numbers that grows as rows are added: one typed array, no JS value per row. */
class IndexColumn<T extends Numbers = Numbers> {
  private data: T
  length = 0

  constructor(
    private readonly make: (size: number) => T,
    data?: T,
  ) {
    this.data = data ?? make(1024)
    this.length = data?.length ?? 0
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(Math.max(1024, this.data.length * 2))
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  at(i: number): number {
    return this.data[i]!
  }

  set(i: number, value: number): void {
    this.data[i] = value
  }

  /** The values of rows [from, to) as JSON numbers separated by commas (all finite: they were read from JSON). */
  json(from: number, to: number): string {
    return this.data.subarray(from, to).join(',')
  }

  /** The values: a view of the column's array (no copy), whose buffer another thread can be sent. */
  values(): T {
    return this.data.subarray(0, this.length) as T
  }

  /** The columns one after another, each value passed through `map` (dictionary codes into a joined dictionary). */
  static join<T extends Numbers>(
    make: (size: number) => T,
    parts: ReadonlyArray<{values: T; map?: (value: number) => number}>,
  ): IndexColumn<T> {
    const joined = make(parts.reduce((n, part) => n + part.values.length, 0))
    let at = 0
    for (const {values, map} of parts) {
      if (map) for (let i = 0; i < values.length; i++) joined[at + i] = map(values[i]!)
      else joined.set(values, at)
      at += values.length
    }
    return new IndexColumn(make, joined)
  }
}

const ints = (size: number) => new Int32Array(size)
const EMPTY = new Int32Array(0)
const doubles = (size: number) => new Float64Array(size)

/** The columns, in the order the page's JSON has them (what each holds: RunIndex, render/html/runs.ts); codes and small counts in Int32. */
const COLUMN_TYPES = {
  run: ints,
  scenario: ints,
  mode: ints,
  provider: ints,
  // Unbounded in the row schema: a double holds any of them exactly, an Int32 would not.
  iteration: doubles,
  outcome: ints,
  tokens_active: doubles,
  tokens_total: doubles,
  latency_wall: doubles,
  latency_agent: doubles,
  tool_calls: doubles,
  cost: doubles,
  attempts: ints,
  error: ints,
  trace: ints,
} as const

type ColumnName = keyof typeof COLUMN_TYPES
export type IndexColumns = Record<ColumnName, IndexColumn>

/** Which columns are dictionary codes, and of which dictionary. */
const CODED = {run: 'run_ids', scenario: 'scenarios', mode: 'modes', provider: 'providers', error: 'errors'} as const
type Coded = keyof typeof CODED
type DictionaryName = (typeof CODED)[Coded]

/** The index as a worker sends it: each column's values, each dictionary's, the traces not yet looked for. */
export interface PortableRunIndex {
  columns: Record<ColumnName, Numbers>
  dictionaries: Record<DictionaryName | 'trace_dirs' | 'trace_files', string[]>
  /** The results folder each trace folder (trace_dirs) and odd trace file (trace_files) was named from. */
  trace_dirs_results: string[]
  trace_files_results: string[]
}

/** The index of the rows: its columns and dictionaries, trace folders and files as absolute paths. */
export interface RunIndexData {
  count: number
  run_ids: string[]
  scenarios: string[]
  modes: string[]
  providers: string[]
  errors: string[]
  /** Folders of traces named the runner's way, absolute. */
  trace_dirs: string[]
  /** Traces named otherwise, absolute. */
  trace_files: string[]
  columns: IndexColumns
  /** Rows whose trace is a symbolic link, or in a folder that is one: left out, never followed (results/no-follow.ts). */
  linkedTraces: number
}

/** A folder's regular files, and its links (every name, when the folder is reached through one); null when unreadable. */
type Listing = {files: Set<string>; links: Set<string> | 'all'} | null

async function listing(resultsDir: string, dir: string): Promise<Listing> {
  if (await linkOnTheWay(resultsDir, dir)) return {files: new Set(), links: 'all'}
  const entries = await readdir(dir, {withFileTypes: true}).catch(() => null)
  return (
    entries && {
      files: new Set(entries.filter((e) => e.isFile()).map((e) => e.name)),
      links: new Set(entries.filter((e) => e.isSymbolicLink()).map((e) => e.name)),
    }
  )
}

/**
 * Rows added one at a time; each row's trace, when it names one in its results folder, kept as a
 * candidate (a trace folder, or an odd file) until `finish` looks for the files.
 */
export class RunIndexBuilder {
  private readonly dictionaries = {
    run_ids: new Dictionary(),
    scenarios: new Dictionary(),
    modes: new Dictionary(),
    providers: new Dictionary(),
    errors: new Dictionary(),
  }
  private readonly candidateDirs = new Dictionary()
  private readonly candidateFiles = new Dictionary()
  private readonly dirResults: string[] = []
  private readonly fileResults: string[] = []
  private readonly columns = Object.fromEntries(
    Object.entries(COLUMN_TYPES).map(([name, make]) => [name, new IndexColumn<Numbers>(make)]),
  ) as IndexColumns

  /** A row whose trace path (`trace`: the row's own, or where merge moves it) is read from `resultsDir` (its results file's folder). */
  add(row: Row, resultsDir: string, trace = row.trace): void {
    const {columns: c, dictionaries: d} = this
    const attempt = row.attempts.at(-1)?.attempt ?? row.retries + 1
    c.run.push(d.run_ids.id(row.run_id))
    c.scenario.push(d.scenarios.id(row.scenario_id))
    c.mode.push(d.modes.id(row.mode))
    c.provider.push(row.provider === null ? -1 : d.providers.id(row.provider))
    c.iteration.push(row.iteration)
    c.outcome.push(OUTCOMES.indexOf(row.outcome))
    c.tokens_active.push(row.tokens.active)
    c.tokens_total.push(row.tokens.total)
    c.latency_wall.push(Math.round(row.latency_ms_wall))
    c.latency_agent.push(row.latency_ms_agent === null ? -1 : Math.round(row.latency_ms_agent))
    c.tool_calls.push(row.tool_calls.total)
    c.cost.push(row.cost_usd === null ? -1 : Number(row.cost_usd.toPrecision(4)))
    c.attempts.push(attempt)
    c.error.push(
      row.error
        ? d.errors.id(
            `${row.error.type}: ${row.error.message.length > 300 ? `${row.error.message.slice(0, 299)}…` : row.error.message}`,
          )
        : -1,
    )
    c.trace.push(this.candidate(row, trace, resultsDir, attempt))
  }

  /** 0 (no trace to look for), k > 0 (a folder's trace named the runner's way), k < 0 (an odd file). */
  private candidate(row: Row, trace: string | null, resultsDir: string, attempt: number): number {
    if (!trace) return 0
    const file = path.resolve(resultsDir, trace)
    // A row's trace path is read from its results folder only: `../../somewhere` in a row is not followed.
    const relative = path.relative(resultsDir, file)
    if (relative.startsWith('..') || path.isAbsolute(relative)) return 0
    if (path.basename(file) === attemptTraceName(row.scenario_id, row.mode, row.provider, row.iteration, attempt)) {
      const id = this.candidateDirs.id(path.dirname(file))
      this.dirResults[id] = resultsDir
      return id + 1
    }
    const id = this.candidateFiles.id(file)
    this.fileResults[id] = resultsDir
    return -(id + 1)
  }

  /** The columns and dictionaries, to send to another thread: views of the builder's arrays, whose buffers go with them (the builder is done). */
  portable(): PortableRunIndex {
    const {dictionaries: d} = this
    return {
      columns: Object.fromEntries(
        Object.entries(this.columns).map(([name, column]) => [name, column.values()]),
      ) as Record<ColumnName, Numbers>,
      dictionaries: {
        run_ids: d.run_ids.values,
        scenarios: d.scenarios.values,
        modes: d.modes.values,
        providers: d.providers.values,
        errors: d.errors.values,
        trace_dirs: this.candidateDirs.values,
        trace_files: this.candidateFiles.values,
      },
      trace_dirs_results: this.dirResults,
      trace_files_results: this.fileResults,
    }
  }

  /**
   * Parts' rows one after another, as one builder: the dictionaries joined, each part's codes mapped into
   * them. The parts' columns are let go as they are copied (a million rows' index is not held twice).
   */
  static join(parts: readonly PortableRunIndex[]): RunIndexBuilder {
    const builder = new RunIndexBuilder()
    const maps = parts.map((part) => {
      const codes = (name: DictionaryName) =>
        part.dictionaries[name].map((value) => builder.dictionaries[name].id(value))
      const dirs = part.dictionaries.trace_dirs.map((dir, i) => {
        const id = builder.candidateDirs.id(dir)
        builder.dirResults[id] = part.trace_dirs_results[i]!
        return id
      })
      const files = part.dictionaries.trace_files.map((file, i) => {
        const id = builder.candidateFiles.id(file)
        builder.fileResults[id] = part.trace_files_results[i]!
        return id
      })
      return {
        ...(Object.fromEntries(Object.entries(CODED).map(([column, name]) => [column, codes(name)])) as Record<
          Coded,
          number[]
        >),
        dirs,
        files,
      }
    })
    for (const [name, make] of Object.entries(COLUMN_TYPES) as Array<[ColumnName, (size: number) => Numbers]>) {
      builder.columns[name] = IndexColumn.join<Numbers>(
        make,
        parts.map((part, p) => {
          const map = maps[p]!
          const values = part.columns[name]
          if (name === 'trace')
            return {values, map: (k: number) => (k > 0 ? map.dirs[k - 1]! + 1 : k < 0 ? -(map.files[-k - 1]! + 1) : 0)}
          if (name in CODED) {
            const codes = map[name as Coded]
            return {values, map: (k: number) => (k < 0 ? k : codes[k]!)}
          }
          return {values}
        }),
      )
      for (const part of parts) part.columns[name] = EMPTY
    }
    return builder
  }

  /**
   * The index, each row's trace looked for now: a trace file that exists (and is no link) keeps its
   * row's code, in dictionaries of the files found, numbered in the order of their rows.
   */
  async finish(): Promise<RunIndexData> {
    const listings = new Map<string, Listing>()
    const list = async (resultsDir: string, dir: string) => {
      if (!listings.has(dir)) listings.set(dir, await listing(resultsDir, dir))
    }
    for (const [id, dir] of this.candidateDirs.values.entries()) await list(this.dirResults[id]!, dir)
    for (const [id, file] of this.candidateFiles.values.entries()) await list(this.fileResults[id]!, path.dirname(file))
    const {columns: c, dictionaries: d} = this
    const strings = {scenarios: d.scenarios.values, modes: d.modes.values, providers: d.providers.values}
    const traceDirs = new Dictionary()
    const traceFiles = new Dictionary()
    let linkedTraces = 0
    for (let i = 0; i < c.trace.length; i++) {
      const code = c.trace.at(i)
      if (code === 0) continue
      const dir = code > 0 ? this.candidateDirs.values[code - 1]! : path.dirname(this.candidateFiles.values[-code - 1]!)
      const name = code > 0 ? nameOf(strings, c, i) : path.basename(this.candidateFiles.values[-code - 1]!)
      const found = listings.get(dir)
      if (found && (found.links === 'all' || found.links.has(name))) linkedTraces++
      if (!found?.files.has(name)) c.trace.set(i, 0)
      else c.trace.set(i, code > 0 ? traceDirs.id(dir) + 1 : -(traceFiles.id(path.join(dir, name)) + 1))
    }
    return {
      count: c.run.length,
      run_ids: d.run_ids.values,
      scenarios: d.scenarios.values,
      modes: d.modes.values,
      providers: d.providers.values,
      errors: d.errors.values,
      trace_dirs: traceDirs.values,
      trace_files: traceFiles.values,
      columns: c,
      linkedTraces,
    }
  }
}

/**
 * Reads the rows of `files` into the index (the aggregate keeps no row). Rows found in two inputs are
 * counted once, as the report counts them.
 */
export async function readRunIndex(files: string[], cwd: string): Promise<RunIndexData> {
  const builder = new RunIndexBuilder()
  // A bit per run, as the report dedupes (results/run-keys.ts): no string kept per row.
  const seen = files.length > 1 ? new RunKeys() : undefined
  for (const file of files)
    for await (const row of readRows([file], () => {}, cwd))
      if (!seen || seen.addIfNew(row, row.iteration)) builder.add(row, path.dirname(file))
  return builder.finish()
}

/** The absolute trace file of row i of the index, or null. */
export function traceFileOf(data: RunIndexData, i: number): string | null {
  const code = data.columns.trace.at(i)
  if (code === 0) return null
  if (code < 0) return data.trace_files[-code - 1]!
  return path.join(data.trace_dirs[code - 1]!, nameOf(data, data.columns, i))
}

/** The runner's name of row i's trace (its last attempt's), from the columns. */
function nameOf(
  strings: {scenarios: string[]; modes: string[]; providers: string[]},
  columns: IndexColumns,
  i: number,
): string {
  const provider = columns.provider.at(i)
  return attemptTraceName(
    strings.scenarios[columns.scenario.at(i)]!,
    strings.modes[columns.mode.at(i)]!,
    provider < 0 ? null : strings.providers[provider]!,
    columns.iteration.at(i),
    columns.attempts.at(i),
  )
}

/** Transferable buffers of a portable index (its columns'). */
export function runIndexTransferList(portable: PortableRunIndex): ArrayBuffer[] {
  return Object.values(portable.columns).map((values) => values.buffer as ArrayBuffer)
}
