/**
 * One pass over the rows, keeping only what the report and the gate need: per scenario x mode, counts
 * and the numeric columns in typed arrays. A million rows fit in tens of megabytes this way; no row
 * object outlives its line.
 */
import type {Row} from '../results/row-schema.js'
import {addFailure, emptyFailures, mergeFailures, toPortableFailures, type FailureLog, type PortableFailures} from './failures.js'

/** An append-only typed array that doubles as it fills. */
class Growable<A extends Float64Array | Uint8Array> {
  protected data: A
  length = 0

  constructor(private readonly make: (size: number) => A) {
    this.data = make(8)
  }

  protected put(value: number): void {
    this.reserve(1)
    this.data[this.length++] = value
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return
    const grown = this.make(Math.max(this.data.length * 2, this.length + extra))
    grown.set(this.values())
    this.data = grown
  }

  values(): A {
    return this.data.subarray(0, this.length) as A
  }

  /** Appends many values at once (merging another reader's column). */
  append(values: A): void {
    this.reserve(values.length)
    this.data.set(values, this.length)
    this.length += values.length
  }
}

/**
 * A column of numbers, one per row. A missing value (no agent latency, no cost) is NaN, so every
 * column of a cell stays aligned with its rows.
 */
export class Column extends Growable<Float64Array> {
  private sortedCache: Float64Array | undefined

  constructor() {
    super((size) => new Float64Array(size))
  }

  push(value: number): void {
    this.sortedCache = undefined
    this.put(value)
  }

  override append(values: Float64Array): void {
    this.sortedCache = undefined
    super.append(values)
  }

  /** The present (non-NaN) values sorted ascending; computed once until the next change. Do not modify. */
  sorted(): Float64Array {
    this.sortedCache ??= presentSorted(this.values())
    return this.sortedCache
  }
}

/** The values that are not NaN, sorted ascending (typed-array sort puts NaN last); `owned` sorts in place. */
export function presentSorted(values: Float64Array, owned = false): Float64Array {
  const sorted = (owned ? values : values.slice()).sort()
  let end = sorted.length
  while (end > 0 && Number.isNaN(sorted[end - 1]!)) end--
  return sorted.subarray(0, end)
}

/** A column of 0/1 flags, aligned with a cell's rows. */
export class FlagColumn extends Growable<Uint8Array> {
  constructor() {
    super((size) => new Uint8Array(size))
  }

  push(flag: boolean): void {
    this.put(flag ? 1 : 0)
  }
}

/** The columns the report summarises, one value per row of the cell. */
export interface MetricColumns {
  latency_wall: Column
  latency_agent: Column
  /** The harness's own time: wall - agent (fixture resets, session and server start-up, checkpoints). */
  latency_harness: Column
  tokens_total: Column
  tokens_active: Column
  tool_calls: Column
  cost: Column
  /** Tokens of the tool definitions every turn re-sends (the schema tax); NaN where not recorded. */
  tool_schema_tokens: Column
}

function columns(): MetricColumns {
  return {
    latency_wall: new Column(),
    latency_agent: new Column(),
    latency_harness: new Column(),
    tokens_total: new Column(),
    tokens_active: new Column(),
    tool_calls: new Column(),
    cost: new Column(),
    tool_schema_tokens: new Column(),
  }
}

export interface Cell {
  scenario: string
  mode: string
  runs: number
  successes: number
  output_valid: number
  /** Runs the runner could not complete: infrastructure errors and timeouts. */
  runner_failures: number
  timeouts: number
  retried: number
  all: MetricColumns
  /**
   * Each row's iteration block: its run (an index into the aggregate's run ids) and iteration, as one
   * number. Rows of two modes in the same block ran side by side, interleaved by the runner.
   */
  blocks: Column
  /** Which rows are stable (success, valid output, no runner failure): the rows efficiency is measured on. */
  stable: FlagColumn
  stable_runs: number
  /** Sorted stable values per metric, computed on first use. */
  stableSorted: Map<keyof MetricColumns, Float64Array>
}

/** A metric's values over the cell's stable rows, present ones only, sorted ascending. */
export function stableSorted(cell: Cell, metric: keyof MetricColumns): Float64Array {
  let sorted = cell.stableSorted.get(metric)
  if (!sorted) {
    const values = cell.all[metric].values()
    const flags = cell.stable.values()
    const picked = new Float64Array(cell.stable_runs)
    let n = 0
    for (let i = 0; i < values.length; i++) if (flags[i]) picked[n++] = values[i]!
    sorted = presentSorted(picked.subarray(0, n), true)
    cell.stableSorted.set(metric, sorted)
  }
  return sorted
}

/** A metric's present values over the cell's stable rows, in row order, with each row's block key. */
export function stableSample(cell: Cell, metric: keyof MetricColumns): {values: Float64Array; blocks: Float64Array} {
  const values = cell.all[metric].values()
  const flags = cell.stable.values()
  const keys = cell.blocks.values()
  const picked = new Float64Array(cell.stable_runs)
  const blocks = new Float64Array(cell.stable_runs)
  let n = 0
  for (let i = 0; i < values.length; i++) {
    if (!flags[i] || Number.isNaN(values[i]!)) continue
    picked[n] = values[i]!
    blocks[n++] = keys[i]!
  }
  return {values: picked.subarray(0, n), blocks: blocks.subarray(0, n)}
}

export interface Aggregate {
  rows: number
  /** Every run id, in the order first seen; a block key holds the run's position here. */
  run_ids: Set<string>
  run_index: Map<string, number>
  /** mode -> scenario -> cell */
  cells: Map<string, Map<string, Cell>>
  models: Map<string, Set<string>>
  providers: Map<string, Set<string>>
  tool_calls_by_category: Map<string, Map<string, number>>
  tool_calls_by_operation: Map<string, Map<string, number>>
  /** Whether any row carries a cost above zero (the predecessors recorded 0 when they had none). */
  has_cost: boolean
  /** The failed runs: counted per scenario x mode, the first ones in detail. */
  failures: FailureLog
}

/** The aggregate with some scenarios taken out of some modes (not applicable to a pair); the original is untouched. */
export function withoutScenarios(aggregate: Aggregate, modes: readonly string[], scenarios: Iterable<string>): Aggregate {
  const dropped = new Set(scenarios)
  if (dropped.size === 0) return aggregate
  const cells = new Map(aggregate.cells)
  for (const mode of modes) {
    const own = cells.get(mode)
    if (own) cells.set(mode, new Map([...own].filter(([scenario]) => !dropped.has(scenario))))
  }
  return {...aggregate, cells}
}

export function emptyAggregate(): Aggregate {
  return {
    rows: 0,
    run_ids: new Set(),
    run_index: new Map(),
    cells: new Map(),
    models: new Map(),
    providers: new Map(),
    tool_calls_by_category: new Map(),
    tool_calls_by_operation: new Map(),
    has_cost: false,
    failures: emptyFailures(),
  }
}

export function isStable(row: Row): boolean {
  return row.success && row.output_valid && row.outcome !== 'infra_error' && row.outcome !== 'timeout'
}

function record(target: MetricColumns, row: Row): void {
  target.latency_wall.push(row.latency_ms_wall)
  target.latency_agent.push(row.latency_ms_agent ?? Number.NaN)
  // Rows written before latency_ms_harness was recorded: the same difference, from the row's own figures.
  target.latency_harness.push(row.latency_ms_harness ?? (row.latency_ms_agent === null ? Number.NaN : Math.max(0, row.latency_ms_wall - row.latency_ms_agent)))
  target.tokens_total.push(row.tokens.total)
  target.tokens_active.push(row.tokens.active)
  target.tool_calls.push(row.tool_calls.total)
  target.cost.push(row.cost_usd ?? Number.NaN)
  target.tool_schema_tokens.push(row.tool_schema?.tokens ?? Number.NaN)
}

function addCounts(into: Map<string, Map<string, number>>, mode: string, counts: Record<string, number> | undefined): void {
  if (!counts) return
  let byMode = into.get(mode)
  if (!byMode) into.set(mode, (byMode = new Map()))
  for (const [key, n] of Object.entries(counts)) byMode.set(key, (byMode.get(key) ?? 0) + n)
}

function cellFor(aggregate: Aggregate, mode: string, scenario: string): Cell {
  let byScenario = aggregate.cells.get(mode)
  if (!byScenario) aggregate.cells.set(mode, (byScenario = new Map()))
  let cell = byScenario.get(scenario)
  if (!cell) {
    cell = {
      scenario,
      mode,
      runs: 0,
      successes: 0,
      output_valid: 0,
      runner_failures: 0,
      timeouts: 0,
      retried: 0,
      all: columns(),
      blocks: new Column(),
      stable: new FlagColumn(),
      stable_runs: 0,
      stableSorted: new Map(),
    }
    byScenario.set(scenario, cell)
  }
  return cell
}

/** Iterations per run a block key can tell apart (the suite schema allows 1000 repetitions). */
const BLOCKS_PER_RUN = 2 ** 20

export function blockKey(runIndex: number, iteration: number): number {
  return runIndex * BLOCKS_PER_RUN + iteration
}

function runIndexOf(aggregate: Aggregate, runId: string): number {
  let index = aggregate.run_index.get(runId)
  if (index === undefined) {
    aggregate.run_index.set(runId, (index = aggregate.run_index.size))
    aggregate.run_ids.add(runId)
  }
  return index
}

export function addRow(aggregate: Aggregate, row: Row): void {
  aggregate.rows++
  const runIndex = runIndexOf(aggregate, row.run_id)
  const cell = cellFor(aggregate, row.mode, row.scenario_id)
  cell.blocks.push(blockKey(runIndex, row.iteration))
  cell.runs++
  if (row.success) cell.successes++
  if (row.output_valid) cell.output_valid++
  if (row.outcome === 'infra_error' || row.outcome === 'timeout') cell.runner_failures++
  if (row.outcome === 'timeout') cell.timeouts++
  if (row.retries > 0) cell.retried++
  record(cell.all, row)
  const stable = isStable(row)
  cell.stable.push(stable)
  if (stable) cell.stable_runs++
  cell.stableSorted.clear()
  if (row.model) addTo(aggregate.models, row.mode, row.model)
  if (row.provider) addTo(aggregate.providers, row.mode, row.provider)
  addCounts(aggregate.tool_calls_by_category, row.mode, row.tool_calls.by_category)
  addCounts(aggregate.tool_calls_by_operation, row.mode, row.tool_calls.by_operation)
  if (row.cost_usd !== null && row.cost_usd > 0) aggregate.has_cost = true
  addFailure(aggregate.failures, row)
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(value)
}

export function modeCells(aggregate: Aggregate, mode: string): Cell[] {
  return [...(aggregate.cells.get(mode)?.values() ?? [])]
}

const METRICS = ['latency_wall', 'latency_agent', 'latency_harness', 'tokens_total', 'tokens_active', 'tool_calls', 'cost', 'tool_schema_tokens'] as const
const COUNTS = ['runs', 'successes', 'output_valid', 'runner_failures', 'timeouts', 'retried', 'stable_runs'] as const

/** An aggregate as plain data with its columns as typed arrays, to cross a worker boundary. */
export interface PortableAggregate {
  rows: number
  run_ids: string[]
  cells: Array<{scenario: string; mode: string; counts: number[]; all: Float64Array[]; blocks: Float64Array; stable: Uint8Array}>
  models: Array<[string, string[]]>
  providers: Array<[string, string[]]>
  tool_calls_by_category: Array<[string, Array<[string, number]>]>
  tool_calls_by_operation: Array<[string, Array<[string, number]>]>
  has_cost: boolean
  failures: PortableFailures
}

export function toPortable(aggregate: Aggregate): PortableAggregate {
  const sets = (map: Map<string, Set<string>>): Array<[string, string[]]> => [...map].map(([k, v]) => [k, [...v]])
  const counts = (map: Map<string, Map<string, number>>): Array<[string, Array<[string, number]>]> => [...map].map(([k, v]) => [k, [...v]])
  return {
    rows: aggregate.rows,
    run_ids: [...aggregate.run_ids],
    cells: [...aggregate.cells.values()].flatMap((byScenario) =>
      [...byScenario.values()].map((cell) => ({
        scenario: cell.scenario,
        mode: cell.mode,
        counts: COUNTS.map((key) => cell[key]),
        all: METRICS.map((m) => cell.all[m].values().slice()),
        blocks: cell.blocks.values().slice(),
        stable: cell.stable.values().slice(),
      })),
    ),
    models: sets(aggregate.models),
    providers: sets(aggregate.providers),
    tool_calls_by_category: counts(aggregate.tool_calls_by_category),
    tool_calls_by_operation: counts(aggregate.tool_calls_by_operation),
    has_cost: aggregate.has_cost,
    failures: toPortableFailures(aggregate.failures),
  }
}

/** The typed arrays of a portable aggregate, to transfer rather than copy. */
export function transferList(portable: PortableAggregate): ArrayBuffer[] {
  return portable.cells.flatMap((cell) => [...cell.all, cell.blocks, cell.stable].map((array) => array.buffer as ArrayBuffer))
}

/** Adds another reader's aggregate into this one. */
export function mergePortable(into: Aggregate, other: PortableAggregate): void {
  into.rows += other.rows
  // The other reader numbered its runs in its own order: its block keys are renumbered into ours.
  const runIndices = other.run_ids.map((id) => runIndexOf(into, id))
  for (const cell of other.cells) {
    const target = cellFor(into, cell.mode, cell.scenario)
    COUNTS.forEach((key, i) => (target[key] += cell.counts[i]!))
    METRICS.forEach((m, i) => target.all[m].append(cell.all[i]!))
    target.blocks.append(cell.blocks.map((key) => blockKey(runIndices[Math.floor(key / BLOCKS_PER_RUN)]!, key % BLOCKS_PER_RUN)))
    target.stable.append(cell.stable)
    target.stableSorted.clear()
  }
  for (const [mode, values] of other.models) for (const v of values) addTo(into.models, mode, v)
  for (const [mode, values] of other.providers) for (const v of values) addTo(into.providers, mode, v)
  for (const [mode, entries] of other.tool_calls_by_category) addCounts(into.tool_calls_by_category, mode, Object.fromEntries(entries))
  for (const [mode, entries] of other.tool_calls_by_operation) addCounts(into.tool_calls_by_operation, mode, Object.fromEntries(entries))
  into.has_cost ||= other.has_cost
  mergeFailures(into.failures, other.failures)
}
