/**
 * A run's record on disk before any run starts: one process per run id (its lock, taken over from a
 * process that is gone), a torn last line left by a crash set aside, tools a ghx-bench of this project
 * killed with -9 left running ended, and the keys of the rows already recorded (resume skips them), which must come from
 * the same suite, model, providers, modes and seed as the run that resumes them.
 */
import {existsSync} from 'node:fs'
import {readRunInfoFor, type RunInfo} from '../results/run-info.js'
import {readRows} from '../results/sources.js'
import {BadInputError} from '../shared/diagnostics.js'
import {acquireRunLock, type RunLock} from '../results/run-lock.js'
import {repairTornTail, tornLinesFile} from '../results/store.js'
import {markToolsAsProject, reapOrphanedTools} from '../shared/process/tool-processes.js'
import {displayPath} from '../shared/source-document.js'
import {runKey} from './plan.js'

/** Takes the run's lock and repairs its file; `warn` hears what was repaired. The caller releases the lock. */
export async function openRunRecord(
  resultsDir: string,
  runId: string,
  resultsFile: string,
  options: {namedBy: string; cwd: string; warn: (text: string) => void},
): Promise<RunLock> {
  const {warn, cwd} = options
  const lock = acquireRunLock(resultsDir, runId, options.namedBy)
  if (lock.tookOver) warn(`run ${runId}: took over the lock of process ${lock.tookOver.pid}, which is gone`)
  try {
    const repair = await repairTornTail(resultsFile, tornLinesFile(resultsDir, runId))
    if (repair?.kept)
      warn(`${displayPath(resultsFile, cwd)}: the last row had no newline (a crash after writing it); kept`)
    else if (repair)
      warn(
        `${displayPath(resultsFile, cwd)}: the last line was torn (a crash mid-write); its ${repair.bytes} byte(s) were set aside in ${displayPath(repair.aside!, cwd)} and the run it belonged to runs again`,
      )
  } catch (error) {
    lock.release()
    throw error
  }
  // The tools this run starts carry the project's mark; those a ghx-bench of this project killed with -9
  // left running end now, and only those: another project's are its own.
  markToolsAsProject(resultsDir)
  const reaped = reapOrphanedTools(resultsDir)
  if (reaped > 0)
    warn(
      `ended ${reaped} tool process(es) left running by a ghx-bench of this project (results in ${displayPath(resultsDir, cwd)}) that is gone`,
    )
  return lock
}

/** What a run id's results file holds: the keys of its rows (resume skips them) and what they were recorded with. */
export interface RecordedRun {
  /** scenario/mode/provider/iteration of every row. */
  keys: Set<string>
  suites: Set<string | null>
  models: Set<string | null>
  providers: Set<string | null>
  modes: Set<string>
  /** run.json beside the rows, when there is one: the seed and the modes the run was planned with. */
  info: RunInfo | undefined
}

export async function recordedRun(file: string, cwd: string): Promise<RecordedRun> {
  const recorded: RecordedRun = {
    keys: new Set(),
    suites: new Set(),
    models: new Set(),
    providers: new Set(),
    modes: new Set(),
    info: undefined,
  }
  if (!existsSync(file)) return recorded
  for await (const row of readRows([file], () => {}, cwd)) {
    recorded.keys.add(runKey(row.scenario_id, row.mode, row.provider ?? '', row.iteration))
    recorded.suites.add(row.suite)
    recorded.models.add(row.model)
    recorded.providers.add(row.provider)
    recorded.modes.add(row.mode)
  }
  recorded.info = await readRunInfoFor(file)
  return recorded
}

/** What a run is recorded with: a resumed run id must match it. */
export interface RunIdentity {
  suite: string
  /** The model as rows record it (ModelSource.label). */
  model: string
  /** The providers the run plays every run under, by name. */
  providers: string[]
  /** The suite's modes as selected (--mode), before preflight leaves any out. */
  modes: string[]
  seed: number
}

/**
 * Resuming a run id adds rows to the same run: the rows already recorded must come from the same suite
 * and model, and the run from the same providers, modes and seed (run.json), or two runs would mix in
 * one results file and be reported and gated as one. Bad input (exit 2) naming each difference.
 */
export function checkResume(recorded: RecordedRun, now: RunIdentity, runId: string, file: string, cwd: string): void {
  if (recorded.keys.size === 0) return
  const differences: string[] = []
  const names = (values: Iterable<string | null>): string => [...values].map((v) => JSON.stringify(v)).join(', ')
  const differ = (what: string, values: Set<string | null>, value: string): void => {
    if (values.size > 1 || !values.has(value))
      differences.push(`${what} ${names(values)} (now ${JSON.stringify(value)})`)
  }
  differ('suite', recorded.suites, now.suite)
  differ('model', recorded.models, now.model)
  const info = recorded.info
  const providersNow = [...new Set(now.providers)].sort()
  // run.json names the providers the run was planned with (one written before runs had several names none); without them, the rows' providers must be among this run's.
  const providersThen = info?.providers ? [...new Set(info.providers)].sort() : [...recorded.providers].sort()
  if (
    info?.providers
      ? providersThen.join() !== providersNow.join()
      : providersThen.some((provider) => provider === null || !providersNow.includes(provider))
  ) {
    differences.push(`providers ${names(providersThen)} (now ${names(providersNow)})`)
  }
  const modesNow = [...new Set(now.modes)].sort()
  // run.json names the modes the run was planned with (those preflight left out included); without it, the rows' modes must be among this run's.
  const modesThen = info
    ? [...new Set([...info.modes, ...info.unavailable.map((u) => u.mode)])].sort()
    : [...recorded.modes].sort()
  if (info ? modesThen.join() !== modesNow.join() : modesThen.some((mode) => !modesNow.includes(mode)))
    differences.push(`modes ${modesThen.join(', ')} (now ${modesNow.join(', ')})`)
  if (info && info.seed !== now.seed) differences.push(`seed ${info.seed} (now ${now.seed})`)
  if (differences.length === 0) return
  throw new BadInputError([
    {
      file: displayPath(file, cwd),
      code: 'config',
      message: `run id "${runId}" holds ${recorded.keys.size} row(s) of another run: recorded with ${differences.join('; ')}. Resuming adds rows to the same run: resume with the suite, model, providers, modes and seed it was recorded with, or choose another --run-id`,
    },
  ])
}
