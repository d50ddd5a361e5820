/** Renderings commands print: the gate's table and the verdict line are the same in `run`'s output and `gate`'s; a dry run's forecast. */
export {renderGateTable} from '../report/render/markdown.js'
export {verdictLine} from '../report/gate/verdict.js'
import type {Forecast} from '../runner/forecast.js'
import type {RunSummary} from '../runner/run-suite.js'
import {formatDuration} from '../shared/duration.js'

/** A dry run's plan and what it is expected to spend (src/runner/forecast.ts), said with where the figures come from. */
export function forecastLines(
  plan: Pick<RunSummary, 'runs' | 'modes' | 'providers' | 'not_applicable'>,
  forecast: Forecast,
): string[] {
  const scenarios = new Set(plan.runs.map((run) => run.scenario_id)).size
  const repetitions = new Set(plan.runs.map((run) => run.iteration)).size
  const lines = [
    `plan: ${scenarios} scenarios x ${plan.modes.length} modes x ${plan.providers.length} providers x ${repetitions} repetitions: ${forecast.runs} runs in ${forecast.blocks} paired blocks${plan.not_applicable.length > 0 ? ` (${plan.not_applicable.length} scenario x mode pair(s) not applicable)` : ''}`,
  ]
  const sources = forecastSources(forecast)
  if (sources.length === 0) {
    lines.push(
      'forecast: no previous run of this suite and model in results_dir to forecast from (run it once, or part of it with --scenario, and ask again)',
    )
    return lines
  }
  const {tokens} = forecast
  const cost =
    forecast.cost_usd === null
      ? 'cost not known (no price for the model in pricing)'
      : `cost $${forecast.cost_usd.toFixed(2)}`
  lines.push(
    `forecast from ${sources.join('; and ')}, each cell's median:`,
    `  tokens ${Math.round(tokens.total)} (input ${Math.round(tokens.input)}, output ${Math.round(tokens.output)}), ${cost}, wall time about ${formatDuration(forecast.wall_ms)} at concurrency ${forecast.concurrency} (the runs alone: loading and fixtures aside)`,
  )
  if (forecast.unforecast.length > 0) {
    const runs = forecast.unforecast.reduce((n, cell) => n + cell.runs, 0)
    lines.push(
      `  not forecast: ${runs} run(s) of ${forecast.unforecast.length} cell(s) nothing holds, left out of the figures: ${forecast.unforecast.map((cell) => cell.cell).join(', ')}`,
    )
  }
  return lines
}

/** Where a forecast's figures come from, in words: the previous runs read, the oracle's recorded counts. */
function forecastSources({from_runs: runs, from_recorded: recorded}: Forecast): string[] {
  return [
    ...(runs.length > 0 ? [`${runs.length} previous run(s) of this suite and model (${runs.join(', ')})`] : []),
    ...(recorded
      ? [
          `the oracle's recorded counts for ${recorded.runs} run(s) (suites/oracle-counts.json: run ${recorded.run_id}, ghx-bench ${recorded.ghx_bench}, ${recorded.date})`,
        ]
      : []),
  ]
}
