/**
 * One pass over the rows, keeping only what the report and the gate need: per scenario x mode, counts
 * and the numeric columns, each in the narrowest exact encoding (columns.ts): on generated rows about
 * 13 bytes a row, where eight Float64 columns took 73. No row object outlives its line, and no sorted
 * copy outlives the figure it was made for.
 */
import {harnessLatency, factsOfRow, type RowFacts} from '../../results/row-facts.js'
import type {Row} from '../../results/row-schema.js'
import {percentileOfSorted} from '../../stats/quantiles.js'
import {Column, FlagColumn, scratchFloat64, scratchUint8, sortNumbers, type Chunk} from './columns.js'
import {
  addFailure,
  emptyFailures,
  mergeFailures,
  toPortableFailures,
  type FailureLog,
  type PortableFailures,
} from './failures.js'

/** The columns the report summarises, one value per row of the cell. */
export interface MetricColumns {
  latency_wall: Column
  latency_agent: Column
  /** The harness's own time: the row's own figure, else wall - agent (fixture resets, session and server start-up, checkpoints). */
  latency_harness: HarnessColumn
  tokens_total: Column
  tokens_active: Column
  tool_calls: Column
  cost: Column
  /** Tokens of the tool definitions every turn re-sends (the schema tax); NaN where not recorded. */
  tool_schema_tokens: Column
  /** The agent's GitHub API cost (the row's github_api); NaN where not observed. */
  github_rest_requests: Column
  github_graphql_points: Column
  github_secondary_limit_waits: Column
}

/**
 * The harness time, wall - agent, costs nothing per row: only a row whose own figure differs from that
 * (the runner measures it directly) keeps a value, in `own`; the others read NaN there and are derived.
 */
class HarnessColumn extends Column {
  constructor(
    private readonly wall: Column,
    private readonly agent: Column,
  ) {
    super()
  }

  /** Records a row's harness time, its wall and agent time already recorded. */
  pushOwn(wall: number, agent: number | null, own: number | null | undefined): void {
    const value = harnessLatency(wall, agent, own)
    this.push(value === null || Object.is(value, harnessLatency(wall, agent, undefined)) ? Number.NaN : value)
  }

  override valuesInto(out: Float64Array): Float64Array {
    const own = super.valuesInto(out)
    const wall = this.wall.valuesInto(scratchFloat64('wall', this.length))
    const agent = this.agent.valuesInto(scratchFloat64('agent', this.length))
    for (let i = 0; i < this.length; i++)
      if (Number.isNaN(own[i]!) && !Number.isNaN(agent[i]!)) own[i] = Math.max(0, wall[i]! - agent[i]!)
    return own
  }
}

function columns(): MetricColumns {
  const latency_wall = new Column()
  const latency_agent = new Column()
  return {
    latency_wall,
    latency_agent,
    latency_harness: new HarnessColumn(latency_wall, latency_agent),
    tokens_total: new Column(),
    tokens_active: new Column(),
    tool_calls: new Column(),
    cost: new Column(),
    tool_schema_tokens: new Column(),
    github_rest_requests: new Column(),
    github_graphql_points: new Column(),
    github_secondary_limit_waits: new Column(),
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
  /** Which rows succeeded: with `blocks`, the pairs the gate's paired success test reads. */
  succeeded: FlagColumn
  stable_runs: number
  /** Runs that rest on a fallback (the row's `fallback` true: the mode's tool layer failed, gh did the work). */
  fallbacks: number
  /** Of them, the runs that passed. */
  fallback_passes: number
  /** Runs whose row records whether they fell back (`fallback` true or false; rows before the field have none). */
  fallback_recorded: number
}

/** Which of a comparison's two sides a stable sample is for: each has its own reused buffers. */
export type SampleSide = 'baseline' | 'candidate'

/**
 * A metric's present values over the cell's stable rows, in row order, with each row's block key.
 * Views of buffers reused by the next call for the same side: read them, or copy them, before that.
 */
export function stableSample(
  cell: Cell,
  metric: keyof MetricColumns,
  side: SampleSide,
): {values: Float64Array; blocks: Float64Array} {
  const values = cell.all[metric].valuesInto(scratchFloat64(`${side} values`, cell.runs))
  const flags = cell.stable.valuesInto(scratchUint8('flags', cell.runs))
  const keys = cell.blocks.valuesInto(scratchFloat64(`${side} keys`, cell.runs))
  let n = 0
  for (let i = 0; i < cell.runs; i++) {
    if (!flags[i] || Number.isNaN(values[i]!)) continue
    values[n] = values[i]!
    keys[n++] = keys[i]!
  }
  return {values: values.subarray(0, n), blocks: keys.subarray(0, n)}
}

/**
 * Hands `use` a metric's stable values over the cells (a cell, or a mode's), present ones only,
 * sorted ascending, in a reused buffer that is only valid during the call. A report sorts this for
 * every cell, mode and metric: a new array each time left hundreds of MB of garbage for the
 * collector on 10M rows.
 */
export function withStableSorted<T>(cells: Cell[], metric: keyof MetricColumns, use: (sorted: Float64Array) => T): T {
  const out = scratchFloat64(
    'sorted',
    cells.reduce((n, cell) => n + cell.stable_runs, 0),
  )
  let n = 0
  for (const cell of cells) {
    const values = cell.all[metric].valuesInto(scratchFloat64('values', cell.runs))
    const flags = cell.stable.valuesInto(scratchUint8('flags', cell.runs))
    for (let i = 0; i < cell.runs; i++) if (flags[i] && !Number.isNaN(values[i]!)) out[n++] = values[i]!
  }
  return use(sortNumbers(out.subarray(0, n)))
}

/**
 * A metric's present values over all the cells' rows (stable or not), sorted ascending, in a reused
 * buffer only valid during `use`: for what every run spends whatever its outcome (GitHub API cost).
 */
export function withAllSorted<T>(cells: Cell[], metric: keyof MetricColumns, use: (sorted: Float64Array) => T): T {
  const out = scratchFloat64(
    'sorted',
    cells.reduce((n, cell) => n + cell.runs, 0),
  )
  let n = 0
  for (const cell of cells)
    for (const value of cell.all[metric].valuesInto(scratchFloat64('values', cell.runs)))
      if (!Number.isNaN(value)) out[n++] = value
  return use(sortNumbers(out.subarray(0, n)))
}

/** Whether any row of the cells (stable or not) has a positive value of the metric. */
export function anyPositive(cells: Cell[], metric: keyof MetricColumns): boolean {
  return cells.some((cell) => cell.all[metric].valuesInto(scratchFloat64('values', cell.runs)).some((v) => v > 0))
}

/** The sum of a metric over all the cell's rows (NaN when one lacks it). */
export function totalOf(cell: Cell, metric: keyof MetricColumns): number {
  return cell.all[metric].valuesInto(scratchFloat64('values', cell.runs)).reduce((sum, v) => sum + v, 0)
}

/** The median of a metric over the cells' stable rows (NaN when none has a value). */
export function stableMedian(cells: Cell[], metric: keyof MetricColumns): number {
  return withStableSorted(cells, metric, (sorted) => percentileOfSorted(sorted, 50))
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
export function withoutScenarios(
  aggregate: Aggregate,
  modes: readonly string[],
  scenarios: Iterable<string>,
): Aggregate {
  const dropped = new Set(scenarios)
  if (dropped.size === 0) return aggregate
  const cells = new Map(aggregate.cells)
  for (const mode of modes) {
    const own = cells.get(mode)
    if (own) cells.set(mode, new Map([...own].filter(([scenario]) => !dropped.has(scenario))))
  }
  return {...aggregate, cells}
}

/**
 * The rows of each provider in an aggregate of its own, by the provider's name (null: rows that name
 * none), in name order once read: rows of two providers are never compared, so no figure mixes them.
 */
export type ProviderAggregates = Map<string | null, Aggregate>

/** The provider's aggregate, made when its first row comes. */
export function aggregateOf(aggregates: ProviderAggregates, provider: string | null): Aggregate {
  let aggregate = aggregates.get(provider)
  if (!aggregate) aggregates.set(provider, (aggregate = emptyAggregate()))
  return aggregate
}

/** The providers' aggregates in name order (rows without a provider first). */
export function byProviderName(aggregates: ProviderAggregates): ProviderAggregates {
  return new Map([...aggregates].sort(([a], [b]) => (a ?? '').localeCompare(b ?? '')))
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

function isStable(row: Pick<RowFacts, 'success' | 'output_valid' | 'outcome'>): boolean {
  return row.success && row.output_valid && row.outcome !== 'infra_error' && row.outcome !== 'timeout'
}

function record(target: MetricColumns, facts: RowFacts): void {
  target.latency_wall.push(facts.latency_ms_wall)
  target.latency_agent.push(facts.latency_ms_agent ?? Number.NaN)
  target.latency_harness.pushOwn(facts.latency_ms_wall, facts.latency_ms_agent, facts.latency_ms_harness)
  target.tokens_total.push(facts.tokens_total)
  target.tokens_active.push(facts.tokens_active)
  target.tool_calls.push(facts.tool_calls)
  target.cost.push(facts.cost_usd ?? Number.NaN)
  target.tool_schema_tokens.push(facts.tool_schema_tokens ?? Number.NaN)
  target.github_rest_requests.push(facts.github_rest_requests ?? Number.NaN)
  target.github_graphql_points.push(facts.github_graphql_points ?? Number.NaN)
  target.github_secondary_limit_waits.push(facts.github_secondary_limit_waits ?? Number.NaN)
}

function addCounts(
  into: Map<string, Map<string, number>>,
  mode: string,
  counts: Record<string, number> | undefined,
): void {
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
      succeeded: new FlagColumn(),
      stable_runs: 0,
      fallbacks: 0,
      fallback_passes: 0,
      fallback_recorded: 0,
    }
    byScenario.set(scenario, cell)
  }
  return cell
}

/** Iterations per run a block key can tell apart (the suite schema allows 1000 repetitions). */
const BLOCKS_PER_RUN = 2 ** 20

function blockKey(runIndex: number, iteration: number): number {
  return runIndex * BLOCKS_PER_RUN + iteration
}

/** A block key's iteration. */
export function iterationOfBlock(key: number): number {
  return key % BLOCKS_PER_RUN
}

/** A block key's run: its index into the aggregate's run ids (first seen first). */
export function runOfBlock(key: number): number {
  return Math.floor(key / BLOCKS_PER_RUN)
}

/**
 * Each run index's place among the run ids sorted, or null when that is the index itself (one run, or
 * runs first seen in id order). Block keys hold a run's first-seen index; a seeded draw over blocks
 * reads them through this (canonicalBlockKeys) so that it does not depend on the order of the rows.
 */
export function runRanks(aggregate: Aggregate): Float64Array | null {
  const ids = [...aggregate.run_index.keys()]
  const sorted = [...ids].sort()
  if (ids.every((id, i) => sorted[i] === id)) return null
  const ranks = new Float64Array(ids.length)
  sorted.forEach((id, rank) => (ranks[aggregate.run_index.get(id)!] = rank))
  return ranks
}

/** Block keys rewritten in place with the runs numbered in run-id order (runRanks), not first-seen order. */
export function canonicalBlockKeys(keys: Float64Array, ranks: Float64Array | null): Float64Array {
  if (!ranks) return keys
  for (let i = 0; i < keys.length; i++) {
    const run = Math.floor(keys[i]! / BLOCKS_PER_RUN)
    keys[i] = blockKey(ranks[run]!, keys[i]! - run * BLOCKS_PER_RUN)
  }
  return keys
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
  addFacts(aggregate, factsOfRow(row), () => row)
}

/** Adds a row by its figures; `whole` gives the normalized row, asked for only when the run failed (its details). */
export function addFacts(aggregate: Aggregate, facts: RowFacts, whole: () => Row): void {
  aggregate.rows++
  const runIndex = runIndexOf(aggregate, facts.run_id)
  const cell = cellFor(aggregate, facts.mode, facts.scenario_id)
  cell.blocks.push(blockKey(runIndex, facts.iteration))
  cell.runs++
  if (facts.success) cell.successes++
  cell.succeeded.push(facts.success)
  if (facts.output_valid) cell.output_valid++
  if (facts.outcome === 'infra_error' || facts.outcome === 'timeout') cell.runner_failures++
  if (facts.outcome === 'timeout') cell.timeouts++
  if (facts.retries > 0) cell.retried++
  if (facts.fallback !== null) cell.fallback_recorded++
  if (facts.fallback === true) {
    cell.fallbacks++
    if (facts.success) cell.fallback_passes++
  }
  record(cell.all, facts)
  const stable = isStable(facts)
  cell.stable.push(stable)
  if (stable) cell.stable_runs++
  if (facts.model) addTo(aggregate.models, facts.mode, facts.model)
  if (facts.provider) addTo(aggregate.providers, facts.mode, facts.provider)
  addCounts(aggregate.tool_calls_by_category, facts.mode, facts.tool_calls_by_category)
  addCounts(aggregate.tool_calls_by_operation, facts.mode, facts.tool_calls_by_operation)
  if (facts.cost_usd !== null && facts.cost_usd > 0) aggregate.has_cost = true
  if (!facts.success) addFailure(aggregate.failures, whole())
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(value)
}

export function modeCells(aggregate: Aggregate, mode: string): Cell[] {
  return [...(aggregate.cells.get(mode)?.values() ?? [])]
}

/** Every column of every cell. */
function* allColumns(aggregate: Aggregate): Generator<Column> {
  for (const byScenario of aggregate.cells.values()) {
    for (const cell of byScenario.values())
      yield* [...Object.values(cell.all), cell.blocks, cell.stable.column, cell.succeeded.column]
  }
}

/** Frees the unused room at the end of every column, once the rows are all read. */
export function sealAggregate(aggregate: Aggregate): void {
  for (const column of allColumns(aggregate)) column.seal()
}

/** Bytes the aggregate's columns take. */
export function columnBytes(aggregate: Aggregate): number {
  let bytes = 0
  for (const column of allColumns(aggregate)) bytes += column.byteLength()
  return bytes
}

/** A cell's metric columns and counts, in the order a portable aggregate lists them. */
export const CELL_METRICS = [
  'latency_wall',
  'latency_agent',
  'latency_harness',
  'tokens_total',
  'tokens_active',
  'tool_calls',
  'cost',
  'tool_schema_tokens',
  'github_rest_requests',
  'github_graphql_points',
  'github_secondary_limit_waits',
] as const satisfies ReadonlyArray<keyof MetricColumns>
export const CELL_COUNTS = [
  'runs',
  'successes',
  'output_valid',
  'runner_failures',
  'timeouts',
  'retried',
  'stable_runs',
] as const satisfies ReadonlyArray<keyof Cell>
/** A cell's fallback counts, listed apart: rows before the `fallback` field (the golden views) have none. */
export const CELL_FALLBACK_COUNTS = [
  'fallbacks',
  'fallback_passes',
  'fallback_recorded',
] as const satisfies ReadonlyArray<keyof Cell>

/** An aggregate as plain data with its columns as chunks of typed arrays, to cross a worker boundary. */
export interface PortableAggregate {
  rows: number
  run_ids: string[]
  cells: Array<{
    scenario: string
    mode: string
    counts: number[]
    fallback: number[]
    all: Chunk[][]
    blocks: Chunk[]
    stable: Chunk[]
    succeeded: Chunk[]
  }>
  models: Array<[string, string[]]>
  providers: Array<[string, string[]]>
  tool_calls_by_category: Array<[string, Array<[string, number]>]>
  tool_calls_by_operation: Array<[string, Array<[string, number]>]>
  has_cost: boolean
  failures: PortableFailures
}

/** The aggregate as plain data. Its chunks are shared, not copied: the aggregate is not added to afterwards. */
export function toPortable(aggregate: Aggregate): PortableAggregate {
  const sets = (map: Map<string, Set<string>>): Array<[string, string[]]> => [...map].map(([k, v]) => [k, [...v]])
  const counts = (map: Map<string, Map<string, number>>): Array<[string, Array<[string, number]>]> =>
    [...map].map(([k, v]) => [k, [...v]])
  return {
    rows: aggregate.rows,
    run_ids: [...aggregate.run_ids],
    cells: [...aggregate.cells.values()].flatMap((byScenario) =>
      [...byScenario.values()].map((cell) => ({
        scenario: cell.scenario,
        mode: cell.mode,
        counts: CELL_COUNTS.map((key) => cell[key]),
        fallback: CELL_FALLBACK_COUNTS.map((key) => cell[key]),
        all: CELL_METRICS.map((m) => cell.all[m].portable()),
        blocks: cell.blocks.portable(),
        stable: cell.stable.column.portable(),
        succeeded: cell.succeeded.column.portable(),
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
  const buffers = new Set<ArrayBuffer>()
  for (const cell of portable.cells) {
    for (const chunks of [...cell.all, cell.blocks, cell.stable, cell.succeeded])
      for (const chunk of chunks) if (chunk.data) buffers.add(chunk.data.buffer as ArrayBuffer)
  }
  return [...buffers]
}

/**
 * Adds another reader's aggregate after this one's rows. Its chunks are taken over as they are; only
 * its block keys are rewritten, and only when it numbered its runs in another order than ours.
 */
export function mergePortable(into: Aggregate, other: PortableAggregate): void {
  into.rows += other.rows
  const runIndices = other.run_ids.map((id) => runIndexOf(into, id))
  const renumbered = runIndices.some((index, i) => index !== i)
  for (const cell of other.cells) {
    const target = cellFor(into, cell.mode, cell.scenario)
    CELL_COUNTS.forEach((key, i) => (target[key] += cell.counts[i]!))
    CELL_FALLBACK_COUNTS.forEach((key, i) => (target[key] += cell.fallback[i]!))
    CELL_METRICS.forEach((m, i) => target.all[m].appendChunks(cell.all[i]!))
    if (renumbered) {
      const keys = Column.fromChunks(cell.blocks).values()
      for (const key of keys)
        target.blocks.push(blockKey(runIndices[Math.floor(key / BLOCKS_PER_RUN)]!, key % BLOCKS_PER_RUN))
    } else target.blocks.appendChunks(cell.blocks)
    target.stable.column.appendChunks(cell.stable)
    target.succeeded.column.appendChunks(cell.succeeded)
  }
  for (const [mode, values] of other.models) for (const v of values) addTo(into.models, mode, v)
  for (const [mode, values] of other.providers) for (const v of values) addTo(into.providers, mode, v)
  for (const [mode, entries] of other.tool_calls_by_category)
    addCounts(into.tool_calls_by_category, mode, Object.fromEntries(entries))
  for (const [mode, entries] of other.tool_calls_by_operation)
    addCounts(into.tool_calls_by_operation, mode, Object.fromEntries(entries))
  into.has_cost ||= other.has_cost
  mergeFailures(into.failures, other.failures)
}
