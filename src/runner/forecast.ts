/**
 * What a plan is expected to spend before it runs (`run --dry-run`, and the budget's "would the next
 * block overrun?"): tokens, cost and wall time, from the runs of the same suite and model stored in
 * results_dir. Each scenario x mode x provider cell is expected to spend the median of its previous
 * runs (the newest comparable runs, up to MAX_RUNS): on the embedded default the scripted oracle's
 * accounting is deterministic, so one previous run forecasts the next exactly; for a real model the
 * median of a few is robust to the odd long session. Cost is priced from the project's price table,
 * the same way rows are (src/results/usage.ts), else the rows' own cost. A cell no previous run holds is
 * forecast, for the scripted oracle on the sandbox, from the oracle's counts recorded with the catalogue
 * (oracle-counts.ts), so a first dry run has figures; otherwise it is named, never guessed.
 */
import type {Usage} from '../plugins/api.js'
import type {Row} from '../results/row-schema.js'
import type {OracleCounts} from '../schemas/oracle-counts.js'
import {isRegradedFile} from '../results/regraded.js'
import {readRunInfoFor} from '../results/run-info.js'
import {readRows} from '../results/sources.js'
import {listRuns} from '../results/store.js'
import {priceOf, type Price} from '../results/usage.js'
import type {Spent} from '../results/budget.js'
import {median} from '../stats/quantiles.js'
import {blockKey} from './shard.js'
import type {PlannedRun} from './plan.js'

/** The newest comparable runs a forecast reads at most: enough for a median, few enough to read at once. */
const MAX_RUNS = 5

/** What one run of a cell is expected to spend, and where that comes from. */
export interface CellForecast {
  tokens: {input: number; output: number; total: number}
  /** null: no price for the model and no cost in the rows. */
  cost_usd: number | null
  wall_ms: number
  /** runs: the previous runs in results_dir; recorded: the oracle's recorded counts (suites/oracle-counts.json). */
  source: 'runs' | 'recorded'
}

/** A cell's median spend per run over the rows read: the usage parts (for pricing), the total, the wall time. */
export interface CellSpend {
  usage: Usage
  total: number
  wall_ms: number
  /** The rows' own cost (median), null when none recorded one. */
  cost_usd: number | null
}

export interface Forecast {
  /** The previous runs the figures come from (run ids, newest first): same suite and model. */
  from_runs: string[]
  /** The recording the rest come from (the scripted oracle on the embedded default), and how many planned runs use it. */
  from_recorded: (OracleCounts['recorded'] & {runs: number}) | null
  runs: number
  /** Paired blocks (scenario x iteration, all its modes and providers). */
  blocks: number
  tokens: {input: number; output: number; total: number}
  /** null when no forecast run could be priced. */
  cost_usd: number | null
  /** The runs' wall time at `concurrency` runs at once (loading and fixtures aside). */
  wall_ms: number
  concurrency: number
  /** Cells (scenario/mode/provider) no previous run holds, with their planned runs: not in the figures. */
  unforecast: Array<{cell: string; runs: number}>
}

export interface ComparableRuns {
  suite: string
  /** As rows record it (ModelSource.label). */
  model: string
  /** The price table's entry for the model, if any. */
  price: Price | undefined
  /** The oracle's recorded counts for the plan's scenarios (the scripted oracle on the sandbox only): cells no run holds. */
  recorded?: RecordedCounts
}

/** The oracle's recorded counts that apply to a plan: by cell, and the recording they come from. */
export interface RecordedCounts {
  cells: ReadonlyMap<string, CellSpend>
  recorded: OracleCounts['recorded']
}

/** What a plan's runs are expected to spend, by cell, and where the figures come from. */
export interface CellHistory {
  cells: Map<string, CellForecast>
  /** The previous runs read (run ids, newest first). */
  fromRuns: string[]
  recorded?: RecordedCounts
}

export const cellKey = (run: Pick<PlannedRun, 'scenario_id' | 'mode' | 'provider'>): string =>
  `${run.scenario_id}/${run.mode}/${run.provider}`

/** Rows' spend gathered by cell; each cell's medians on request. */
export class CellSamples {
  private readonly samples = new Map<string, {usage: Usage[]; cost: number[]; wall: number[]; total: number[]}>()

  add(row: Pick<Row, 'scenario_id' | 'mode' | 'provider' | 'tokens' | 'cost_usd' | 'latency_ms_wall'>): void {
    const key = cellKey({scenario_id: row.scenario_id, mode: row.mode, provider: row.provider ?? ''})
    const cell = this.samples.get(key) ?? {usage: [], cost: [], wall: [], total: []}
    const {input, output, reasoning, cache_read, cache_write, total} = row.tokens
    cell.usage.push({input, output, reasoning, cache_read, cache_write})
    cell.total.push(total)
    if (row.cost_usd !== null) cell.cost.push(row.cost_usd)
    cell.wall.push(row.latency_ms_wall)
    this.samples.set(key, cell)
  }

  medians(): Map<string, CellSpend> {
    const spends = new Map<string, CellSpend>()
    for (const [key, cell] of this.samples) {
      const part = (name: keyof Usage) => median(cell.usage.map((usage) => usage[name]))
      spends.set(key, {
        usage: {
          input: part('input'),
          output: part('output'),
          reasoning: part('reasoning'),
          cache_read: part('cache_read'),
          cache_write: part('cache_write'),
        },
        total: median(cell.total),
        wall_ms: median(cell.wall),
        cost_usd: cell.cost.length > 0 ? median(cell.cost) : null,
      })
    }
    return spends
  }
}

/**
 * Each cell's expected spend per run, from the newest comparable runs in `resultsDir`, and which runs
 * those were; a cell none holds, from the oracle's recorded counts when they apply.
 */
export async function cellForecasts(resultsDir: string, comparable: ComparableRuns, cwd: string): Promise<CellHistory> {
  const samples = new CellSamples()
  const fromRuns: string[] = []
  for (const run of await listRuns(resultsDir)) {
    if (fromRuns.length >= MAX_RUNS) break
    if (run.link || isRegradedFile(run.file)) continue
    // run.json says the suite before any row is read: another suite's runs are not opened.
    const info = await readRunInfoFor(run.file)
    if (info?.suite !== comparable.suite) continue
    let used = false
    for await (const row of readRows([run.file], () => {}, cwd)) {
      if (row.suite !== comparable.suite || row.model !== comparable.model) continue
      used = true
      samples.add(row)
    }
    if (used) fromRuns.push(info.run_id)
  }
  const forecast = (spend: CellSpend, source: CellForecast['source']): CellForecast => ({
    tokens: {input: spend.usage.input, output: spend.usage.output, total: spend.total},
    cost_usd: comparable.price ? priceOf(spend.usage, comparable.price) : spend.cost_usd,
    wall_ms: spend.wall_ms,
    source,
  })
  const cells = new Map<string, CellForecast>()
  for (const [key, spend] of comparable.recorded?.cells ?? []) cells.set(key, forecast(spend, 'recorded'))
  for (const [key, spend] of samples.medians()) cells.set(key, forecast(spend, 'runs'))
  return {cells, fromRuns, recorded: comparable.recorded}
}

/** The plan's forecast: its runs' cells added up; the wall time shared out over `concurrency` runs at once. */
export function forecastPlan(
  runs: readonly PlannedRun[],
  {cells, fromRuns, recorded}: CellHistory,
  concurrency: number,
): Forecast {
  const tokens = {input: 0, output: 0, total: 0}
  let cost: number | null = null
  let wall = 0
  let fromRecorded = 0
  const unforecast = new Map<string, number>()
  for (const run of runs) {
    const cell = cells.get(cellKey(run))
    if (!cell) {
      unforecast.set(cellKey(run), (unforecast.get(cellKey(run)) ?? 0) + 1)
      continue
    }
    tokens.input += cell.tokens.input
    tokens.output += cell.tokens.output
    tokens.total += cell.tokens.total
    if (cell.cost_usd !== null) cost = (cost ?? 0) + cell.cost_usd
    wall += cell.wall_ms
    if (cell.source === 'recorded') fromRecorded += 1
  }
  return {
    from_runs: fromRuns,
    from_recorded: recorded && fromRecorded > 0 ? {...recorded.recorded, runs: fromRecorded} : null,
    runs: runs.length,
    blocks: new Set(runs.map((run) => blockKey(run.scenario_id, run.iteration))).size,
    tokens,
    cost_usd: cost,
    wall_ms: wall / Math.max(1, concurrency),
    concurrency,
    unforecast: [...unforecast].sort(([a], [b]) => a.localeCompare(b)).map(([cell, n]) => ({cell, runs: n})),
  }
}

/** What one run is expected to spend as a budget counts it; undefined when its cell has no forecast. */
export function runForecast(cells: ReadonlyMap<string, CellForecast>, run: PlannedRun): Spent | undefined {
  const cell = cells.get(cellKey(run))
  return cell && {runs: 1, tokens: cell.tokens.total, cost_usd: cell.cost_usd ?? 0, ms: cell.wall_ms}
}
