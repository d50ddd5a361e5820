/**
 * The rows a report and a gate are computed from, read once: the results files (--input, --run-id, the
 * newest run; re-graded rows in place of their originals) into an aggregate per provider, with the
 * warnings the reading raised and the run.json of each run (not applicable pairs, modes left out).
 */
import {resolveConfigPath, type LoadedConfig} from '../../config/load-config.js'
import {planOfResultsFile, type RunInfo} from '../../results/run-info.js'
import {describeSuperseded, explicitFiles, originalFileFor, withRegraded} from '../../results/regraded.js'
import {resolveInputFiles} from '../../results/sources.js'
import {BadInputError} from '../../shared/diagnostics.js'
import {displayPath} from '../../shared/source-document.js'
import type {ProviderAggregates} from './aggregate.js'
import {aggregateFiles} from './read-aggregate.js'
import type {RunIndexData} from './run-index.js'

export interface RowSelection {
  inputs?: string[]
  runId?: string
  cwd?: string
  /** Rows already read (the run's report and gate read them once). */
  loaded?: LoadedRows
}

export interface LoadedRows {
  /** The rows of each provider apart, in name order: a report shows each, a gate judges each alone. */
  providers: ProviderAggregates
  inputs: string[]
  warnings: string[]
  /** run.json of the runs the rows come from (not applicable pairs, modes left out). */
  runInfos: RunInfo[]
  /** The index of the runs, built as the rows were read (merge does); summary.html reads the files again for it when absent. */
  runIndex?: RunIndexData
}

export async function loadRows(config: LoadedConfig, selection: RowSelection): Promise<LoadedRows> {
  const cwd = selection.cwd ?? process.cwd()
  const resolved = await resolveInputFiles({
    inputs: selection.inputs,
    runId: selection.runId,
    resultsDir: resolveConfigPath(config, config.values.results_dir),
    cwd,
  })
  // Rows re-graded by `regrade` take the place of their originals.
  const {files, superseding} = await withRegraded(resolved, await explicitFiles(selection.inputs, cwd))
  const warnings: string[] = []
  const providers = await aggregateFiles(
    files,
    (warning) => {
      const w = describeSuperseded(warning, superseding, cwd)
      warnings.push(`${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`)
    },
    cwd,
  )
  return loadedRows(providers, files, warnings, cwd)
}

/**
 * Aggregated rows as read (`loadRows`, or `merge` as it writes them) with the run.json of their runs and
 * what those say in warnings; bad input when the files hold no row.
 */
export async function loadedRows(
  providers: ProviderAggregates,
  files: string[],
  warnings: string[],
  cwd: string,
): Promise<LoadedRows> {
  if ([...providers.values()].every((aggregate) => aggregate.rows === 0))
    throw new BadInputError(files.map((f) => ({file: displayPath(f, cwd), code: 'io', message: 'holds no rows'})))
  const infoFiles = [...new Set(files.map((f) => originalFileFor(f) ?? f))]
  const runInfos = (await Promise.all(infoFiles.map(planOfResultsFile))).filter(
    (info): info is RunInfo => info !== undefined,
  )
  for (const info of runInfos) {
    for (const {mode, reason} of info.unavailable)
      warnings.push(`run ${info.run_id}: mode ${mode} was left out: ${reason}`)
    const byMode = new Map<string, number>()
    for (const item of info.not_applicable) byMode.set(item.mode, (byMode.get(item.mode) ?? 0) + 1)
    for (const [mode, count] of byMode)
      warnings.push(
        `run ${info.run_id}: ${count} scenario(s) not applicable to ${mode} (declared by the scenarios), shown as n/a, not failed`,
      )
  }
  return {providers, inputs: files.map((f) => displayPath(f, cwd)), warnings, runInfos}
}
