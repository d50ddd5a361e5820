/**
 * The report: per mode, per scenario x mode, and each mode's deltas against the baseline.
 * Rates are percentages over all runs; medians and other distribution figures are over the stable
 * runs (success, valid output, no runner failure), the sample the gate measures efficiency on, so
 * the report's medians and the gate's agree. A figure with no data is null, never 0.
 */
import path from 'node:path'
import {coefficientOfVariationPct} from '../../stats/descriptive.js'
import {finite, percentileOfSorted} from '../../stats/quantiles.js'
import type {FromSchema} from 'json-schema-to-ts'
import type {failuresSchema, modeSummarySchema, reportSchema} from './report-schema.js'
import {passAtK, passHatK, wilsonInterval} from '../../stats/rates.js'
import {
  emptyAggregate,
  modeCells,
  stableMedian,
  totalOf,
  withAllSorted,
  withStableSorted,
  withoutScenarios,
  type Aggregate,
  type Cell,
  type MetricColumns,
  type ProviderAggregates,
} from './aggregate.js'
import {compareModes} from './compare.js'
import {notApplicableTo, type NotApplicable} from '../../results/run-info.js'
import type {LoadedConfig} from '../../config/load-config.js'
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from '../../stats/bootstrap.js'
import type {LoadedRows} from './rows.js'

/** pass^k is reported for k up to this many repetitions. */
const MAX_K = 10

export type Report = FromSchema<typeof reportSchema>
export type ModeSummary = FromSchema<typeof modeSummarySchema>
export type Failures = FromSchema<typeof failuresSchema>
type ScenarioModeSummary = Report['scenarios'][number]
type PassK = ModeSummary['pass_hat_k']

export interface ReportOptions {
  inputs: string[]
  warnings: string[]
  baseline: string
  seed: number
  resamples: number
  now?: Date
  /** Scenario x mode pairs a mode cannot solve: shown as n/a and left out of that mode's comparison. */
  notApplicable?: NotApplicable[]
}

const pct = (part: number, whole: number): number | null => (whole === 0 ? null : (part / whole) * 100)
const at = (sorted: Float64Array, p: number): number | null => finite(percentileOfSorted(sorted, p))

function passK(cell: Cell, estimator: typeof passHatK): PassK {
  const k = Math.min(cell.runs, MAX_K)
  return {k, value: finite(estimator(cell.runs, cell.successes, k))}
}

export function summarizeMode(aggregate: Aggregate, mode: string): ModeSummary {
  const cells = modeCells(aggregate, mode)
  const sum = (
    field:
      | 'runs'
      | 'successes'
      | 'output_valid'
      | 'runner_failures'
      | 'timeouts'
      | 'retried'
      | 'fallbacks'
      | 'fallback_passes'
      | 'fallback_recorded',
  ) => cells.reduce((n, c) => n + c[field], 0)
  const runs = sum('runs')
  const successes = sum('successes')
  const agent = withStableSorted(cells, 'latency_agent', (sorted) => ({
    median: at(sorted, 50),
    p90: at(sorted, 90),
    p95: at(sorted, 95),
    iqr: sorted.length === 0 ? null : finite(percentileOfSorted(sorted, 75) - percentileOfSorted(sorted, 25)),
    cv: finite(coefficientOfVariationPct(sorted)),
  }))
  const active = withStableSorted(cells, 'tokens_active', (sorted) => ({
    median: at(sorted, 50),
    p90: at(sorted, 90),
    p95: at(sorted, 95),
  }))
  const median = (metric: keyof MetricColumns) => finite(stableMedian(cells, metric))
  // pass^k over the mode: the mean over scenarios at the k every scenario reaches.
  const k = Math.min(MAX_K, ...cells.map((c) => c.runs))
  const perScenario = cells.map((c) => passHatK(c.runs, c.successes, k)).filter(Number.isFinite)
  const ci = wilsonInterval(successes, runs)
  const recorded = sum('fallback_recorded')
  return {
    runs,
    stable_runs: cells.reduce((n, c) => n + c.stable_runs, 0),
    success_rate: pct(successes, runs),
    success_rate_ci: runs === 0 ? null : [ci[0] * 100, ci[1] * 100],
    output_validity_rate: pct(sum('output_valid'), runs),
    runner_failure_rate: pct(sum('runner_failures'), runs),
    timeout_stall_rate: pct(sum('timeouts'), runs),
    retry_rate: pct(sum('retried'), runs),
    median_latency_ms_wall: median('latency_wall'),
    median_latency_ms_agent: agent.median,
    median_latency_ms_harness: median('latency_harness'),
    p90_latency_ms_agent: agent.p90,
    p95_latency_ms_agent: agent.p95,
    iqr_latency_ms_agent: agent.iqr,
    cv_latency_agent_pct: agent.cv,
    median_tokens_total: median('tokens_total'),
    median_tokens_active: active.median,
    p90_tokens_active: active.p90,
    p95_tokens_active: active.p95,
    median_tool_calls: median('tool_calls'),
    median_cost_usd: median('cost'),
    median_tool_schema_tokens: median('tool_schema_tokens'),
    pass_hat_k: {
      k,
      value: perScenario.length === 0 ? null : perScenario.reduce((a, b) => a + b, 0) / perScenario.length,
    },
    models: [...(aggregate.models.get(mode) ?? [])].sort(),
    providers: [...(aggregate.providers.get(mode) ?? [])].sort(),
    tool_calls_by_category: Object.fromEntries(aggregate.tool_calls_by_category.get(mode) ?? []),
    tool_calls_by_operation: Object.fromEntries(aggregate.tool_calls_by_operation.get(mode) ?? []),
    // Rows before the `fallback` field do not say: null, not 0.
    fallback_runs: recorded === 0 ? null : sum('fallbacks'),
    fallback_passes: recorded === 0 ? null : sum('fallback_passes'),
    fallback_rate: pct(sum('fallbacks'), recorded),
    github_api: githubApiOf(cells),
  }
}

/** The mode's GitHub API cost over all its runs that recorded it (a failed run spends too); null when none did. */
function githubApiOf(cells: Cell[]): ModeSummary['github_api'] {
  const figure = (metric: 'github_rest_requests' | 'github_graphql_points' | 'github_secondary_limit_waits') =>
    withAllSorted(cells, metric, (sorted) => ({
      runs: sorted.length,
      median: at(sorted, 50),
      total: sorted.reduce((sum, v) => sum + v, 0),
    }))
  const rest = figure('github_rest_requests')
  const points = figure('github_graphql_points')
  const waits = figure('github_secondary_limit_waits')
  const runs = Math.max(rest.runs, points.runs)
  if (runs === 0) return null
  const part = ({median, total}: {median: number | null; total: number}) => ({median, total})
  return {runs, rest_requests: part(rest), graphql_points: part(points), secondary_limit_waits: part(waits)}
}

function summarizeCell(cell: Cell): ScenarioModeSummary {
  const median = (metric: keyof MetricColumns) => finite(stableMedian([cell], metric))
  return {
    scenario_id: cell.scenario,
    mode: cell.mode,
    runs: cell.runs,
    stable_runs: cell.stable_runs,
    success_rate: pct(cell.successes, cell.runs),
    median_latency_ms_wall: median('latency_wall'),
    median_latency_ms_agent: median('latency_agent'),
    median_tokens_total: median('tokens_total'),
    median_tokens_active: median('tokens_active'),
    median_tool_calls: median('tool_calls'),
    median_cost_usd: median('cost'),
    pass_at_k: passK(cell, passAtK),
    pass_hat_k: passK(cell, passHatK),
    total_latency_ms_wall: totalOf(cell, 'latency_wall'),
    fallback_runs: cell.fallback_recorded === 0 ? null : cell.fallbacks,
  }
}

/**
 * The failed runs of the given modes (all when none are given): counts per scenario x mode, sorted,
 * and the details kept, sorted by scenario, mode, run and iteration.
 */
export function summarizeFailures(aggregate: Aggregate, modes?: readonly string[]): Failures {
  // Only pairs still in the aggregate: a scenario left out of a comparison (not applicable) is left out here too.
  const wanted = (mode: string, scenario: string) =>
    (!modes || modes.includes(mode)) && aggregate.cells.get(mode)?.has(scenario) === true
  const groups = [...aggregate.failures.groups.values()]
    .filter((g) => wanted(g.mode, g.scenario_id))
    .sort((a, b) => a.scenario_id.localeCompare(b.scenario_id) || a.mode.localeCompare(b.mode))
  const runs = aggregate.failures.details
    .filter((r) => wanted(r.mode, r.scenario_id))
    .sort(
      (a, b) =>
        a.scenario_id.localeCompare(b.scenario_id) ||
        a.mode.localeCompare(b.mode) ||
        a.run_id.localeCompare(b.run_id) ||
        a.iteration - b.iteration,
    )
  return {
    failed_runs: groups.reduce((n, g) => n + g.failed, 0),
    by_scenario_mode: groups.map((g) => ({
      scenario_id: g.scenario_id,
      mode: g.mode,
      runs: aggregate.cells.get(g.mode)!.get(g.scenario_id)!.runs,
      failed: g.failed,
      outcomes: {...g.outcomes},
      error_types: {...g.error_types},
    })),
    runs,
  }
}

/** The folder traces are relative to: the one folder every input is in, else null. */
export function traceRoot(inputs: readonly string[]): string | null {
  const folders = new Set(inputs.map((input) => path.dirname(input)))
  return folders.size === 1 ? [...folders][0]! : null
}

/** Modes in a stable order: the baseline first, then by name. */
function orderedModes(aggregate: Aggregate, baseline: string): string[] {
  return [...aggregate.cells.keys()].sort((a, b) => (a === baseline ? -1 : b === baseline ? 1 : a.localeCompare(b)))
}

export function buildReport(aggregate: Aggregate, options: ReportOptions): Report {
  const modes = orderedModes(aggregate, options.baseline)
  const deltas = aggregate.cells.has(options.baseline)
    ? modes
        .filter((m) => m !== options.baseline)
        .map((candidate) =>
          compareModes(
            withoutScenarios(
              aggregate,
              [options.baseline, candidate],
              notApplicableTo(options.notApplicable ?? [], [options.baseline, candidate]).keys(),
            ),
            {baseline: options.baseline, candidate, minSamples: 1, seed: options.seed, resamples: options.resamples},
          ),
        )
    : []
  return {
    schema_version: 1,
    generated_at: (options.now ?? new Date()).toISOString(),
    inputs: options.inputs,
    run_ids: [...aggregate.run_ids].sort(),
    rows: aggregate.rows,
    warnings: options.warnings,
    trace_root: traceRoot(options.inputs),
    failures: summarizeFailures(aggregate),
    not_applicable: options.notApplicable ?? [],
    bootstrap: {seed: options.seed, resamples: options.resamples},
    baseline: options.baseline,
    modes: Object.fromEntries(modes.map((m) => [m, summarizeMode(aggregate, m)])),
    scenarios: modes.flatMap((m) =>
      modeCells(aggregate, m)
        .sort((a, b) => a.scenario.localeCompare(b.scenario))
        .map(summarizeCell),
    ),
    deltas,
  }
}

/**
 * The report of the rows of each provider: one provider's as buildReport makes it; several, a report
 * each under `providers` (each mode against the baseline of its own provider), the top level holding
 * only what they share (the inputs, the runs, the rows counted).
 */
export function buildProvidersReport(aggregates: ProviderAggregates, options: ReportOptions): Report {
  if (aggregates.size <= 1) return buildReport([...aggregates.values()][0] ?? emptyAggregate(), options)
  const providers = [...aggregates].map(([provider, aggregate]) => ({...buildReport(aggregate, options), provider}))
  const none = buildReport(emptyAggregate(), options)
  return {...none, run_ids: runIdsOf(aggregates), rows: providers.reduce((n, p) => n + p.rows, 0), providers}
}

/** The run ids of every provider's rows, sorted. */
export function runIdsOf(aggregates: ProviderAggregates): string[] {
  return [...new Set([...aggregates.values()].flatMap((aggregate) => [...aggregate.run_ids]))].sort()
}

/** The report's baseline and bootstrap (the gate's too). */
export interface ReportSettings {
  baseline?: string
  seed?: number
  resamples?: number
}

/** The report of the rows: each provider's apart. */
export function reportOf(config: LoadedConfig, loaded: LoadedRows, options: ReportSettings): Report {
  const {providers, inputs, warnings, runInfos} = loaded
  return buildProvidersReport(providers, {
    inputs,
    warnings,
    notApplicable: runInfos.flatMap((info) => info.not_applicable),
    baseline: options.baseline ?? config.values.gate.baseline,
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  })
}
