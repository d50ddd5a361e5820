/**
 * ghx-bench's temporary folders live under one root per process, <tmp>/ghx-bench-p<pid>.<start>.<host>-XXXXXX:
 * the CLI points TMPDIR at it, so every folder the process makes (runs' working folders, the arms'
 * bin folders, the sandbox's gh config, plugins' folders) lands inside. The root is removed when the
 * process exits: normally, through process.exit, or on Ctrl-C / SIGTERM / SIGHUP (which first run what
 * runs at exit: the run lock's release, the tool processes' end); a root that a
 * process killed with -9 left behind is removed by the next ghx-bench that starts on this host.
 *
 * Folders whose paths must stay short (an agent CLI's home: Claude Code binds its sockets under its TMPDIR)
 * go in /tmp instead, named for the process (makeShortTempFolder), and are removed the same ways.
 */
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {createHash} from 'node:crypto'
import {constants as osConstants, hostname, tmpdir} from 'node:os'
import path from 'node:path'
import {killAllToolProcesses} from './tool-processes.js'
import {killSpawnedTools} from './tool-spawner.js'

const PREFIX = 'ghx-bench-p'
const SHORT_PREFIX = 'ghx-bench-s'
/** Where short folders go: /tmp's path is short wherever the system's temp folder is (macOS: /var/folders/…/T/). */
const SHORT_BASE = '/tmp'
const HOST =
  hostname()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 40) || 'host'
/** The host in a short folder's name: 40 characters of host name would make it long again. */
const SHORT_HOST = createHash('sha256').update(HOST).digest('hex').slice(0, 6)

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

/** Roots of ghx-bench processes of this host that are gone (kill -9), and their short folders: removed. */
function sweepStaleTempRoots(dir = tmpdir()): string[] {
  return [
    ...sweep(dir, /^ghx-bench-p(\d+)\.(\d+)\.([A-Za-z0-9_-]+)-[A-Za-z0-9]{6}$/),
    ...sweep(SHORT_BASE, /^ghx-bench-s(\d+)\.(\d+)\.([0-9a-f]{6})-[A-Za-z0-9_-]*-[A-Za-z0-9]{6}$/, SHORT_HOST),
  ]
}

/** The folders of `dir` whose names (pid, start, host) match `pattern` and whose process on this host is gone: removed. */
function sweep(dir: string, pattern: RegExp, host = HOST): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const match = pattern.exec(name)
    if (!match || match[3] !== host || Number(match[1]) === process.pid) continue
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

const shortFolders = new Set<string>()
let shortFoldersGoAtExit = false

function removeShortFolders(): void {
  for (const folder of shortFolders) {
    try {
      rmSync(folder, {recursive: true, force: true, maxRetries: 3})
    } catch {
      // best effort at exit
    }
  }
  shortFolders.clear()
}

/**
 * A new folder with a short path, for a program that binds Unix sockets under it (a socket's path is at
 * most 103 bytes on macOS, 107 on Linux). Claude Code binds <TMPDIR>/cc-socks/<pid>.sock and, where that
 * is too long, /tmp/cc-socks-<uid>/<pid>.sock instead: shared by every run and left behind. The process's
 * root can be long (its host name, a deep system temp folder), so the folder is in /tmp, named for this
 * process and host: removed at exit with the root, and by the next ghx-bench if a kill -9 left it. Its
 * caller removes it when done (removeShortTempFolder).
 */
export async function makeShortTempFolder(label: string): Promise<string> {
  const name = `${SHORT_PREFIX}${process.pid}.${startOf(process.pid) ?? '0'}.${SHORT_HOST}-${label}-`
  // Where /tmp cannot be written, the system's temp folder: a longer path beats no run.
  const folder = await mkdtemp(path.join(SHORT_BASE, name)).catch(() => mkdtemp(path.join(tmpdir(), name)))
  if (!shortFoldersGoAtExit) {
    shortFoldersGoAtExit = true
    process.once('exit', removeShortFolders)
  }
  shortFolders.add(folder)
  return folder
}

/** Removes a folder makeShortTempFolder made. */
export async function removeShortTempFolder(folder: string): Promise<void> {
  shortFolders.delete(folder)
  await rm(folder, {recursive: true, force: true, maxRetries: 3})
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
