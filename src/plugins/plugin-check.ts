/**
 * A third-party plugin's import, checked in a process of its own before ghx-bench imports it
 * (./plugin-check-main.ts, under a perl subreaper and in a PID namespace where the machine allows
 * one: server-process.ts, pid-namespace.ts). An import that never lets go of the event loop (an
 * endless loop) is refused after IMPORT_BUSY_LIMIT_MS, where in ghx-bench's own process it would
 * hang it for good; whatever else the import leaves behind is found there as it would be here
 * (./import-plugin.ts); and the process is ended with everything it started, whatever it did.
 */
import {packageModuleCommand} from '../shared/package-paths.js'
import {pidNamespacePrefix} from '../shared/process/pid-namespace.js'
import {startServerProcess} from '../shared/process/server-process.js'
import {notSettledProblem, type PluginModule} from './import-plugin.js'

/** How long a plugin's import may hold its process's event loop (no beat from it) before it is refused. */
const IMPORT_BUSY_LIMIT_MS = 5_000
/** How often the checking process says that its event loop runs. */
export const BEAT_MS = 200
/** What marks each line the checking process says (on stdout, among whatever the plugin prints). */
export const CHECK_LINE = 'ghx-bench plugin check: '
/** How long the checking process may take to start (Node, and tsx from source): past it, ghx-bench failed. */
const START_LIMIT_MS = 60_000

export interface CheckRequest {
  module: PluginModule
  specifier: string
  options?: Record<string, unknown>
  limitMs: number
}

/** Checks done in this process: a module's body runs once a process, so its import is checked once too. */
const checked = new Map<string, Promise<string[]>>()

/**
 * The problems of the plugin's import (none: ghx-bench may import it). Rejects when the checking
 * process cannot run (ghx-bench's failure, not the plugin's).
 */
export function checkPluginImport(request: CheckRequest): Promise<string[]> {
  const key = JSON.stringify([request.module, request.options ?? null, request.limitMs])
  let problems = checked.get(key)
  if (!problems) {
    problems = runCheck(request)
    checked.set(key, problems)
    problems.catch(() => checked.delete(key))
  }
  return problems
}

function runCheck(request: CheckRequest): Promise<string[]> {
  const [command, ...args] = [
    ...(pidNamespacePrefix() ?? []),
    ...packageModuleCommand('src/plugins/plugin-check-main.ts'),
  ]
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => !!entry[1]))
  const child = startServerProcess(command!, args, {cwd: process.cwd(), env})
  return new Promise<string[]>((resolve, reject) => {
    const started = Date.now()
    let firstBeat: number | undefined
    let lastBeat = 0
    let settled = false
    const finish = (settle: () => void) => {
      if (settled) return
      settled = true
      clearInterval(watch)
      child.stop()
      settle()
    }
    const refuse = (problem: string) => finish(() => resolve([problem]))
    let pending = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      // Only the last part of a line matters: the plugin may print anything, without a newline too.
      pending = (pending + chunk).slice(-1_000_000)
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end)
        pending = pending.slice(end + 1)
        const at = line.lastIndexOf(CHECK_LINE)
        if (at < 0) continue
        const word = line.slice(at + CHECK_LINE.length)
        if (word === 'beat') {
          lastBeat = Date.now()
          firstBeat ??= lastBeat
        } else if (word.startsWith('done ')) finish(() => resolve(JSON.parse(word.slice('done '.length)) as string[]))
      }
    })
    const watch = setInterval(() => {
      const now = Date.now()
      if (firstBeat === undefined) {
        if (now - started > START_LIMIT_MS)
          finish(() =>
            reject(new Error(`the process that checks plugins did not start within ${START_LIMIT_MS / 1000} s`)),
          )
      } else if (now - lastBeat > IMPORT_BUSY_LIMIT_MS) {
        refuse(
          `its import did not finish within ${IMPORT_BUSY_LIMIT_MS / 1000} s: its code never let the process do anything else (an endless loop?)`,
        )
      } else if (now - firstBeat > request.limitMs + IMPORT_BUSY_LIMIT_MS) {
        // The check's own time limit did not answer: the same problem, said from here.
        refuse(notSettledProblem(request.limitMs))
      }
    }, BEAT_MS)
    void child.ended.then((how) =>
      firstBeat === undefined
        ? finish(() => reject(new Error(`the process that checks plugins ended as it started (${how})`)))
        : refuse(`its import ended the process that imported it (${how})`),
    )
    child.stdin.end(`${JSON.stringify(request)}\n`)
  })
}
