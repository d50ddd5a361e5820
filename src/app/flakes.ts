/**
 * `ghx-bench flakes`: the flake ledger over the runs stored in results_dir (src/report/flakes.ts).
 * Only runs that can be compared are read together: those whose comparability key (run.json: the
 * harness, catalogue, plan, modes and their tools, providers, plugins, model, target, seed) is the
 * newest keyed run's (of the suite named, if one is), each whole (its rows its plan's: completeness.ts).
 * Every other run is named with why it was left out. Re-graded rows are read in place of their originals, as the report reads them.
 */
import {loadQuarantine, quarantineOf} from '../catalogue/quarantine.js'
import {resolveConfigPath} from '../config/load-config.js'
import {keyDifferences} from '../results/comparability.js'
import {isRegradedFile, withRegraded} from '../results/regraded.js'
import {planOfResultsFile} from '../results/run-info.js'
import {completenessOf, RunsSeen} from '../report/aggregate/completeness.js'
import type {ComparabilityKey} from '../schemas/shard-header.js'
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
  /** What the runs read have in common: their comparability key, and its suite and model. */
  group: {suite: string; model: string; key: ComparabilityKey}
  runs: string[]
  /** Runs in results_dir left out: another key (the fields that differ), or none recorded. */
  left_out: Array<{run_id: string; reason: string}>
  other_runs: number
  /** Each cell, with the quarantine that covers it (the quarantine file; null: none). */
  entries: Array<LedgerEntry & {quarantined: {reason: string; expires: string} | null}>
  options: {flip_threshold: number; min_runs: number}
}

interface StoredRun {
  runId: string
  /** run.json's key; undefined for a run before keys, or imported rows. */
  key: ComparabilityKey | undefined
  outcomes: LedgerOutcome[]
  /** What its rows lack of its plan (completeness.ts); null when whole. */
  incomplete: string | null
}

export async function flakesProject(options: FlakesOptions): Promise<FlakesResult> {
  const config = await openConfig(options)
  const cwd = options.cwd ?? process.cwd()
  const resultsDir = resolveConfigPath(config, config.values.results_dir)
  // A run's re-graded rows are read as the report reads them: before its original rows, which they supersede.
  const originals = (await listRuns(resultsDir)).filter((run) => !run.link && !isRegradedFile(run.file))
  const runs: StoredRun[] = []
  for (const run of originals)
    runs.push(
      await storedRun(
        (await withRegraded([run.file], new Set())).files,
        run.runId,
        cwd,
        await planOfResultsFile(run.file),
      ),
    )
  const newest = runs.find((run) => run.key && (options.suite === undefined || run.key.suite === options.suite))
  if (!newest?.key)
    throw new BadInputError([
      {
        file: displayPath(resultsDir, cwd),
        code: 'io',
        message:
          runs.length === 0
            ? 'no results yet: run a suite first'
            : `no stored run${options.suite ? ` of suite "${options.suite}"` : ''} records a comparability key (run.json): run the suite with this ghx-bench first`,
      },
    ])
  const group = newest.key
  const quarantine = await loadQuarantine(resolveConfigPath(config, config.values.quarantine_file), cwd)
  // A run cut short is left out as one of another plan is: its missing runs are neither flips nor steady.
  const same = runs.filter((run) => run.key && !run.incomplete && keyDifferences(group, run.key).length === 0)
  const leftOut = runs
    .filter((run) => !same.includes(run))
    .map((run) => ({
      run_id: run.runId,
      reason: !run.key
        ? 'no comparability key (run.json before keys, or imported rows)'
        : keyDifferences(group, run.key).length > 0
          ? `another comparability key: ${keyDifferences(group, run.key)
              .map((d) => d.split(' ')[0])
              .join(', ')} differ`
          : run.incomplete!,
    }))
  const settings = {
    flipThreshold: options.flipThreshold ?? DEFAULT_LEDGER_OPTIONS.flipThreshold,
    minRuns: options.minRuns ?? DEFAULT_LEDGER_OPTIONS.minRuns,
  }
  return {
    group: {suite: group.suite, model: group.model, key: group},
    runs: same.map((run) => run.runId),
    left_out: leftOut,
    other_runs: leftOut.length,
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

/** A results file's outcomes, and the comparability key its run recorded. */
async function storedRun(
  files: string[],
  name: string,
  cwd: string,
  info: Awaited<ReturnType<typeof planOfResultsFile>>,
): Promise<StoredRun> {
  const outcomes: LedgerOutcome[] = []
  const seen = new RunsSeen()
  let startedAt: string | undefined
  for await (const row of readRows(files, () => {}, cwd)) {
    seen.add(row)
    if (row.started_at && (startedAt === undefined || row.started_at < startedAt)) startedAt = row.started_at
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
  const incomplete = completenessOf(seen, info ? [info] : []).incomplete
  return {runId: outcomes[0]?.run_id ?? name, key: info?.key, outcomes, incomplete}
}
