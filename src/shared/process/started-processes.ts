/**
 * The processes that code running in this process starts and leaves running, found and killed the
 * way a tool call's are (./tool-processes.ts): while it runs, every process started with this
 * process's environment carries a run token (GHX_BENCH_RUN_TOKEN), so a daemon that double-forks
 * away from this process's tree is still found by its marker; what is new below this process, or
 * marked, when the watch stops is what that code started. For a plugin's import (src/plugins).
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {ToolProcessTree} from './tool-processes.js'

export interface StartedProcesses {
  /** Each process's program name (`node`, `sleep`), for a message. */
  programs: string[]
  /** Kills them all and what they started, synchronously. */
  kill(): void
}

/** The watches scan /proc when asked, never on a timer. */
const NO_TIMER_MS = 2 ** 31 - 1

/**
 * Starts watching; `stop()` ends it and returns what was started meanwhile and is still running.
 * Code that runs concurrently and starts processes with this process's environment is counted too:
 * watch one piece of code at a time.
 */
export function watchStartedProcesses(): {stop(): StartedProcesses} {
  // Rooted at this process: its descendants, and whatever carries the marker, are what a look finds.
  const watch = new ToolProcessTree()
  watch.adopt(process.pid, NO_TIMER_MS)
  const before = new Set(watch.scan().map(identity))
  const marker = watch.env()
  const saved = Object.fromEntries(Object.keys(marker).map((name) => [name, process.env[name]]))
  Object.assign(process.env, marker)
  return {
    stop() {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      const now = watch.scan()
      watch.dispose()
      const older = new Set(now.filter((stat) => before.has(identity(stat))).map((stat) => stat.pid))
      // New, and started by this process, by one of the new ones, or orphaned (found by its marker):
      // not a child an older process (a service, a tool spawner) started meanwhile.
      const started = now.filter(
        (stat) => !before.has(identity(stat)) && (stat.ppid === process.pid || !older.has(stat.ppid)),
      )
      return {
        programs: started.map((stat) => programOf(stat.pid)),
        kill() {
          if (started.length === 0) return
          const tree = new ToolProcessTree(watch.token)
          for (const stat of started) tree.adopt(stat.pid, NO_TIMER_MS)
          tree.killAll()
        },
      }
    },
  }
}

const identity = (stat: {pid: number; start: string}): string => `${stat.pid}:${stat.start}`

/** The base name of a process's program (its argv[0]), or its pid when that cannot be read. */
function programOf(pid: number): string {
  try {
    const first = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]
    if (first) return path.basename(first)
  } catch {
    // gone already
  }
  return `pid ${pid}`
}
