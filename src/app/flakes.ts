/**
 * `ghx-bench flakes`: the flake ledger over the runs stored in results_dir (src/report/flakes.ts).
 * Only runs that can be compared are read together: those of the newest run's suite (or the suite
 * named) and model, as their rows record them. Re-graded rows are read in place of their
 * originals, as the report reads them.
 */
import {loadQuarantine, quarantineOf} from '../catalogue/quarantine.js'
import {resolveConfigPath} from '../config/load-config.js'
import {isRegradedFile, withRegraded} from '../results/regraded.js'
import {readRows} from '../results/sources.js'
import {listRuns} from '../results/store.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {DEFAULT_LEDGER_OPTIONS, flakeLedger, type LedgerEntry, type LedgerOutcome} from '../report/flakes.js'
import {openConfig, type ProjectOptions} from './project.js'

export interface FlakesOptions extends ProjectOptions {
  /** The suite whose runs are read (default: the newest run's). */
  suite?: string
  flipThreshold?: number
  minRuns?: number
}

export interface FlakesResult {
  /** What the runs read have in common. */
  group: {suite: string; model: string}
  runs: string[]
  /** Runs in results_dir left out: another suite or model. */
  other_runs: number
  /** Each cell, with the quarantine that covers it (the quarantine file; null: none). */
  entries: Array<LedgerEntry & {quarantined: {reason: string; expires: string} | null}>
  options: {flip_threshold: number; min_runs: number}
}

interface StoredRun {
  runId: string
  group: FlakesResult['group']
  outcomes: LedgerOutcome[]
}

export async function flakesProject(options: FlakesOptions): Promise<FlakesResult> {
  const config = await openConfig(options)
  const cwd = options.cwd ?? process.cwd()
  const resultsDir = resolveConfigPath(config, config.values.results_dir)
  // A run's re-graded rows are read as the report reads them: before its original rows, which they supersede.
  const originals = (await listRuns(resultsDir)).filter((run) => !run.link && !isRegradedFile(run.file))
  const runs: StoredRun[] = []
  for (const run of originals)
    runs.push(await storedRun((await withRegraded([run.file], new Set())).files, run.runId, cwd))
  const newest = runs.find((run) => options.suite === undefined || run.group.suite === options.suite)
  if (!newest)
    throw new BadInputError([
      {
        file: displayPath(resultsDir, cwd),
        code: 'io',
        message: options.suite ? `no stored run of suite "${options.suite}"` : 'no results yet: run a suite first',
      },
    ])
  const quarantine = await loadQuarantine(resolveConfigPath(config, config.values.quarantine_file), cwd)
  const same = runs.filter((run) => JSON.stringify(run.group) === JSON.stringify(newest.group))
  const settings = {
    flipThreshold: options.flipThreshold ?? DEFAULT_LEDGER_OPTIONS.flipThreshold,
    minRuns: options.minRuns ?? DEFAULT_LEDGER_OPTIONS.minRuns,
  }
  return {
    group: newest.group,
    runs: same.map((run) => run.runId),
    other_runs: runs.length - same.length,
    entries: flakeLedger(
      same.flatMap((run) => run.outcomes),
      settings,
    ).map((entry) => {
      const covering = quarantineOf(quarantine, entry)
      return {...entry, quarantined: covering ? {reason: covering.reason, expires: covering.expires} : null}
    }),
    options: {flip_threshold: settings.flipThreshold, min_runs: settings.minRuns},
  }
}

/** A results file's outcomes, and the suite and model its rows share ("mixed" where they do not). */
async function storedRun(files: string[], name: string, cwd: string): Promise<StoredRun> {
  const outcomes: LedgerOutcome[] = []
  const seen = {suite: new Set<string>(), model: new Set<string>()}
  let startedAt: string | undefined
  for await (const row of readRows(files, () => {}, cwd)) {
    if (row.started_at && (startedAt === undefined || row.started_at < startedAt)) startedAt = row.started_at
    seen.suite.add(row.suite ?? '')
    seen.model.add(row.model ?? '')
    outcomes.push({
      run_id: row.run_id,
      run_started_at: '',
      scenario_id: row.scenario_id,
      mode: row.mode,
      provider: row.provider ?? null,
      iteration: row.iteration,
      success: row.success,
    })
  }
  for (const outcome of outcomes) outcome.run_started_at = startedAt ?? ''
  const one = (values: Set<string>) => (values.size === 1 ? [...values][0]! : 'mixed')
  return {runId: outcomes[0]?.run_id ?? name, group: {suite: one(seen.suite), model: one(seen.model)}, outcomes}
}
