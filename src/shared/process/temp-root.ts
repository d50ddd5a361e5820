/**
 * ghx-bench's temporary folders live under one root per process, <tmp>/ghx-bench-p<pid>.<start>.<host>-XXXXXX:
 * the CLI points TMPDIR at it, so every folder the process makes (runs' working folders, the arms'
 * bin folders, the sandbox's gh config, plugins' folders) lands inside. The root is removed when the
 * process exits: normally, through process.exit, or on Ctrl-C / SIGTERM / SIGHUP (which first run what
 * runs at exit: the run lock's release, the tool processes' end); a root that a
 * process killed with -9 left behind is removed by the next ghx-bench that starts on this host.
 */
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {constants as osConstants, hostname, tmpdir} from 'node:os'
import path from 'node:path'
import {killAllToolProcesses} from './tool-processes.js'
import {killSpawnedTools} from './tool-spawner.js'

const PREFIX = 'ghx-bench-p'
const HOST =
  hostname()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 40) || 'host'

function startOf(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

function alive(pid: number, start: string): boolean {
  const now = startOf(pid)
  if (now !== undefined) return start === '0' || now === start
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

let root: string | undefined

/** Removes this process's root now (tool processes first: they may still be writing into it). */
function removeTempRoot(): void {
  if (!root) return
  killAllToolProcesses()
  killSpawnedTools()
  try {
    rmSync(root, {recursive: true, force: true, maxRetries: 3})
  } catch {
    // best effort at exit
  }
  root = undefined
}

/** Roots of ghx-bench processes of this host that are gone (kill -9): removed. */
function sweepStaleTempRoots(dir = tmpdir()): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const match = /^ghx-bench-p(\d+)\.(\d+)\.([A-Za-z0-9_-]+)-[A-Za-z0-9]{6}$/.exec(name)
    if (!match || match[3] !== HOST || Number(match[1]) === process.pid) continue
    if (alive(Number(match[1]), match[2]!)) continue
    try {
      rmSync(path.join(dir, name), {recursive: true, force: true})
      removed.push(name)
    } catch {
      // another user's, or being removed
    }
  }
  return removed
}

const onSignal = (signal: NodeJS.Signals) => {
  // Another handler (run's graceful Ctrl-C, sandbox serve's save) decides when to exit; 'exit' cleans up then.
  if (process.listenerCount(signal) > 1) return
  process.removeListener(signal, onSignal)
  // A signal ends the process without its 'exit' handlers: they run first (the run lock is released,
  // tool processes end, this root goes), then the signal ends it as it would have.
  process.emit('exit', 128 + (osConstants.signals[signal] ?? 0))
  process.kill(process.pid, signal)
}

/** Makes this process's temporary root, points TMPDIR (and so os.tmpdir()) at it, and arranges its removal. */
export function useProcessTempRoot(): string {
  if (root) return root
  const base = tmpdir()
  sweepStaleTempRoots(base)
  root = mkdtempSync(path.join(base, `${PREFIX}${process.pid}.${startOf(process.pid) ?? '0'}.${HOST}-`))
  process.env.TMPDIR = root
  process.once('exit', removeTempRoot)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal)
  return root
}
