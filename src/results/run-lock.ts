/**
 * One process per run id: `run` holds results_dir/<run-id>.lock while it runs. The lock file says who
 * holds it (pid, the process's start time, host, since when); a second process with the same run id
 * is refused (exit 2) naming the holder. A lock whose process is gone (kill -9, a crash) is stale and
 * taken over. The lock is released when the run ends, and at exit whatever the way out.
 */
import {randomBytes} from 'node:crypto'
import {linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import path from 'node:path'
import {checkWritable} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'

interface LockHolder {
  pid: number
  start: string | null
  host: string
  since: string
}

export interface RunLock {
  file: string
  /** True when a stale lock (its process gone) was taken over. */
  tookOver: LockHolder | null
  release(): void
}

export function lockFileOf(resultsDir: string, runId: string): string {
  return path.join(resultsDir, `${runId}.lock`)
}

function startOf(pid: number): string | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function readHolder(file: string): LockHolder | null | 'missing' {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? {pid: value.pid, start: value.start ?? null, host: value.host, since: value.since ?? '?'}
      : null
  } catch {
    return null
  }
}

/** Whether the holder still runs: on another host we cannot tell, so it counts as running. */
function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // The pid may belong to another process now: the start time tells.
  const start = startOf(holder.pid)
  return holder.start === null || start === null || start === holder.start
}

export function acquireRunLock(resultsDir: string, runId: string, where = '--run-id'): RunLock {
  // `mkdir -p` under /proc never returns: the folder is checked first.
  checkWritable(resultsDir, 'folder', {label: 'results_dir'})
  try {
    mkdirSync(resultsDir, {recursive: true})
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new BadInputError([
        {file: resultsDir, code: 'config', message: 'results_dir: not a folder (a file is in the way)'},
      ])
    throw error
  }
  const file = lockFileOf(resultsDir, runId)
  const me: LockHolder = {
    pid: process.pid,
    start: startOf(process.pid),
    host: hostname(),
    since: new Date().toISOString(),
  }
  let tookOver: LockHolder | null = null
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me) + '\n', {flag: 'wx'})
      let released = false
      const release = () => {
        if (released) return
        released = true
        process.off('exit', release)
        const holder = readHolder(file)
        if (holder && holder !== 'missing' && holder.pid === me.pid && holder.since === me.since)
          rmSync(file, {force: true})
      }
      process.once('exit', release)
      return {file, tookOver, release}
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readHolder(file)
    if (holder === 'missing') continue
    // A lock file with no readable holder is being written right now, or was left half-written by a crash.
    const fresh = holder === null && Date.now() - (statSync(file, {throwIfNoEntry: false})?.mtimeMs ?? 0) < 2000
    if (fresh || (holder && holderAlive(holder))) {
      const who = holder ? `process ${holder.pid} on ${holder.host} (since ${holder.since})` : 'another process'
      throw new BadInputError([
        {
          file: where,
          code: 'config',
          message: `run id "${runId}" is in use by ${who}: wait for it to end, or choose another --run-id (lock: ${file}; remove it only if that process is gone)`,
        },
      ])
    }
    // Stale: move it aside (atomically), check that what was moved is the stale lock, and try again.
    const aside = `${file}.stale-${process.pid}-${randomBytes(3).toString('hex')}`
    try {
      renameSync(file, aside)
    } catch {
      continue
    }
    const moved = readHolder(aside)
    if (holder && moved !== 'missing' && moved && (moved.pid !== holder.pid || moved.since !== holder.since)) {
      // Someone else took it over between our read and the rename: put their lock back.
      try {
        linkSync(aside, file)
      } catch {
        // a third process holds it now
      }
      rmSync(aside, {force: true})
      continue
    }
    rmSync(aside, {force: true})
    tookOver = holder
  }
  throw new BadInputError([
    {file: where, code: 'config', message: `run id "${runId}": could not take its lock (${file})`},
  ])
}
