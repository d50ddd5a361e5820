/**
 * A run's record on disk before any run starts: one process per run id (its lock, taken over from a
 * process that is gone), a torn last line left by a crash set aside, tools a ghx-bench killed with -9
 * left running ended, and the keys of the rows already recorded (resume skips them).
 */
import {existsSync} from 'node:fs'
import {readRows} from '../results/sources.js'
import {acquireRunLock, type RunLock} from '../results/run-lock.js'
import {repairTornTail, tornLinesFile} from '../results/store.js'
import {reapOrphanedTools} from '../shared/process/tool-processes.js'
import {displayPath} from '../shared/source-document.js'
import {runKey} from './plan.js'

/** Takes the run's lock and repairs its file; `warn` hears what was repaired. The caller releases the lock. */
export async function openRunRecord(resultsDir: string, runId: string, resultsFile: string, options: {namedBy: string; cwd: string; warn: (text: string) => void}): Promise<RunLock> {
  const {warn, cwd} = options
  const lock = acquireRunLock(resultsDir, runId, options.namedBy)
  if (lock.tookOver) warn(`run ${runId}: took over the lock of process ${lock.tookOver.pid}, which is gone`)
  try {
    const repair = await repairTornTail(resultsFile, tornLinesFile(resultsDir, runId))
    if (repair?.kept) warn(`${displayPath(resultsFile, cwd)}: the last row had no newline (a crash after writing it); kept`)
    else if (repair) warn(`${displayPath(resultsFile, cwd)}: the last line was torn (a crash mid-write); its ${repair.bytes} byte(s) were set aside in ${displayPath(repair.aside!, cwd)} and the run it belonged to runs again`)
  } catch (error) {
    lock.release()
    throw error
  }
  // Tools a ghx-bench killed with -9 left running end now.
  const reaped = reapOrphanedTools()
  if (reaped > 0) warn(`ended ${reaped} tool process(es) left running by a ghx-bench that is gone`)
  return lock
}

/** scenario/mode/iteration of every row the results file holds. */
export async function recordedKeys(file: string, cwd: string): Promise<Set<string>> {
  const keys = new Set<string>()
  if (!existsSync(file)) return keys
  for await (const row of readRows([file], () => {}, cwd)) keys.add(runKey(row.scenario_id, row.mode, row.iteration))
  return keys
}
