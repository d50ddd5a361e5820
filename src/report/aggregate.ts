/**
 * One pass over the rows, keeping only what the report and the gate need: per scenario x mode, counts
 * and the numeric columns in typed arrays. A million rows fit in tens of megabytes this way; no row
 * object outlives its line.
 */
import type {Row} from '../results/row-schema.js'

/** An append-only column of numbers in a Float64Array that doubles as it fills. */
export class Column {
  private data = new Float64Array(8)
  length = 0

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }

  /** The values, sorted ascending (a copy). */
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort()
  }

  values(): Float64Array {
    return this.data.subarray(0, this.length)
  }
}

/** The columns the report summarises; `stable` holds the same for the stable sample only. */
export interface MetricColumns {
  latency_wall: Column
  latency_agent: Column
  tokens_total: Column
  tokens_active: Column
  tool_calls: Column
  cost: Column
}

function columns(): MetricColumns {
  return {
    latency_wall: new Column(),
    latency_agent: new Column(),
    tokens_total: new Column(),
    tokens_active: new Column(),
    tool_calls: new Column(),
    cost: new Column(),
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
  /** Success, valid output, no runner failure: the rows efficiency is measured on. */
  stable: MetricColumns
  stable_runs: number
}

export interface Aggregate {
  rows: number
  run_ids: Set<string>
  /** mode -> scenario -> cell */
  cells: Map<string, Map<string, Cell>>
  models: Map<string, Set<string>>
  providers: Map<string, Set<string>>
  tool_calls_by_category: Map<string, Map<string, number>>
  tool_calls_by_operation: Map<string, Map<string, number>>
  /** Whether any row carries a cost above zero (the predecessors recorded 0 when they had none). */
  has_cost: boolean
}

export function emptyAggregate(): Aggregate {
  return {
    rows: 0,
    run_ids: new Set(),
    cells: new Map(),
    models: new Map(),
    providers: new Map(),
    tool_calls_by_category: new Map(),
    tool_calls_by_operation: new Map(),
    has_cost: false,
  }
}

export function isStable(row: Row): boolean {
  return row.success && row.output_valid && row.outcome !== 'infra_error' && row.outcome !== 'timeout'
}

function record(target: MetricColumns, row: Row): void {
  target.latency_wall.push(row.latency_ms_wall)
  if (row.latency_ms_agent !== null) target.latency_agent.push(row.latency_ms_agent)
  target.tokens_total.push(row.tokens.total)
  target.tokens_active.push(row.tokens.active)
  target.tool_calls.push(row.tool_calls.total)
  if (row.cost_usd !== null) target.cost.push(row.cost_usd)
}

function addCounts(into: Map<string, Map<string, number>>, mode: string, counts: Record<string, number> | undefined): void {
  if (!counts) return
  let byMode = into.get(mode)
  if (!byMode) into.set(mode, (byMode = new Map()))
  for (const [key, n] of Object.entries(counts)) byMode.set(key, (byMode.get(key) ?? 0) + n)
}

export function addRow(aggregate: Aggregate, row: Row): void {
  aggregate.rows++
  aggregate.run_ids.add(row.run_id)
  let byScenario = aggregate.cells.get(row.mode)
  if (!byScenario) aggregate.cells.set(row.mode, (byScenario = new Map()))
  let cell = byScenario.get(row.scenario_id)
  if (!cell) {
    cell = {
      scenario: row.scenario_id,
      mode: row.mode,
      runs: 0,
      successes: 0,
      output_valid: 0,
      runner_failures: 0,
      timeouts: 0,
      retried: 0,
      all: columns(),
      stable: columns(),
      stable_runs: 0,
    }
    byScenario.set(row.scenario_id, cell)
  }
  cell.runs++
  if (row.success) cell.successes++
  if (row.output_valid) cell.output_valid++
  if (row.outcome === 'infra_error' || row.outcome === 'timeout') cell.runner_failures++
  if (row.outcome === 'timeout') cell.timeouts++
  if (row.retries > 0) cell.retried++
  record(cell.all, row)
  if (isStable(row)) {
    cell.stable_runs++
    record(cell.stable, row)
  }
  if (row.model) addTo(aggregate.models, row.mode, row.model)
  if (row.provider) addTo(aggregate.providers, row.mode, row.provider)
  addCounts(aggregate.tool_calls_by_category, row.mode, row.tool_calls.by_category)
  addCounts(aggregate.tool_calls_by_operation, row.mode, row.tool_calls.by_operation)
  if (row.cost_usd !== null && row.cost_usd > 0) aggregate.has_cost = true
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(value)
}

export function modeCells(aggregate: Aggregate, mode: string): Cell[] {
  return [...(aggregate.cells.get(mode)?.values() ?? [])]
}
