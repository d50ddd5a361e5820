/**
 * What a plan is expected to spend before it runs (`run --dry-run`, and the budget's "would the next
 * block overrun?"): tokens, cost and wall time, from the runs of the same suite and model stored in
 * results_dir. Each scenario x mode x provider cell is expected to spend the median of its previous
 * runs (the newest comparable runs, up to MAX_RUNS): on the embedded default the scripted oracle's
 * accounting is deterministic, so one previous run forecasts the next exactly; for a real model the
 * median of a few is robust to the odd long session. Cost is priced from the project's price table,
 * the same way rows are (src/results/usage.ts), else the rows' own cost; a cell no previous run holds
 * is named, never guessed.
 */
import type {Usage} from '../plugins/api.js'
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

/** What one run of a cell is expected to spend. */
export interface CellForecast {
  tokens: {input: number; output: number; total: number}
  /** null: no price for the model and no cost in the rows. */
  cost_usd: number | null
  wall_ms: number
}

export interface Forecast {
  /** The previous runs the figures come from (run ids, newest first): same suite and model. */
  from_runs: string[]
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
}

const cellKey = (run: Pick<PlannedRun, 'scenario_id' | 'mode' | 'provider'>): string =>
  `${run.scenario_id}/${run.mode}/${run.provider}`

/** Each cell's expected spend per run, from the newest comparable runs in `resultsDir`, and which runs those were. */
export async function cellForecasts(
  resultsDir: string,
  comparable: ComparableRuns,
  cwd: string,
): Promise<{cells: Map<string, CellForecast>; fromRuns: string[]}> {
  const samples = new Map<string, {usage: Usage[]; cost: number[]; wall: number[]; total: number[]}>()
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
      const key = cellKey({scenario_id: row.scenario_id, mode: row.mode, provider: row.provider ?? ''})
      const cell = samples.get(key) ?? {usage: [], cost: [], wall: [], total: []}
      const {input, output, reasoning, cache_read, cache_write, total} = row.tokens
      cell.usage.push({input, output, reasoning, cache_read, cache_write})
      cell.total.push(total)
      if (row.cost_usd !== null) cell.cost.push(row.cost_usd)
      cell.wall.push(row.latency_ms_wall)
      samples.set(key, cell)
    }
    if (used) fromRuns.push(info.run_id)
  }
  const cells = new Map<string, CellForecast>()
  for (const [key, cell] of samples) {
    const part = (name: keyof Usage) => median(cell.usage.map((usage) => usage[name]))
    const usage: Usage = {
      input: part('input'),
      output: part('output'),
      reasoning: part('reasoning'),
      cache_read: part('cache_read'),
      cache_write: part('cache_write'),
    }
    cells.set(key, {
      tokens: {input: usage.input, output: usage.output, total: median(cell.total)},
      cost_usd: comparable.price ? priceOf(usage, comparable.price) : cell.cost.length > 0 ? median(cell.cost) : null,
      wall_ms: median(cell.wall),
    })
  }
  return {cells, fromRuns}
}

/** The plan's forecast: its runs' cells added up; the wall time shared out over `concurrency` runs at once. */
export function forecastPlan(
  runs: readonly PlannedRun[],
  cells: ReadonlyMap<string, CellForecast>,
  fromRuns: string[],
  concurrency: number,
): Forecast {
  const tokens = {input: 0, output: 0, total: 0}
  let cost: number | null = null
  let wall = 0
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
  }
  return {
    from_runs: fromRuns,
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
