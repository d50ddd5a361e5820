/**
 * One plugin's module imported and its factory called, as ghx-bench does it in its own process and in
 * the process that checks a third party's import first (./plugin-check.ts): under the plugin time
 * limit, refusing process.exit, and, when guarded, attributing to the plugin what its import leaves
 * behind (a promise rejection nobody handles, an error thrown from a timer, a process still running).
 * Light on purpose: the check's process loads this module, not the loader's schema compiler.
 */
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {PACKAGE_ROOT} from '../shared/package-paths.js'
import {watchStartedProcesses} from '../shared/process/started-processes.js'

/** How long a plugin may take to load, or a mode to answer its preflight, before it is reported as hung. */
const DEFAULT_PLUGIN_TIME_LIMIT_MS = 60_000
/** Sets the limit in milliseconds (a slow machine; tests). */
const PLUGIN_TIME_LIMIT_VARIABLE = 'GHX_BENCH_PLUGIN_TIME_LIMIT_MS'

export function pluginTimeLimitMs(): number {
  const value = Number(process.env[PLUGIN_TIME_LIMIT_VARIABLE])
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_PLUGIN_TIME_LIMIT_MS
}

/** The limit as the messages say it ("60 s", "0.5 s"), with the variable that sets it. */
export function describeTimeLimit(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s (${PLUGIN_TIME_LIMIT_VARIABLE} sets it)`
}

/** The problem of a plugin whose loading did not settle within the limit. */
export function notSettledProblem(ms: number): string {
  return `did not finish loading within ${describeTimeLimit(ms)}: its module (a top-level await) or its factory never settled`
}

/**
 * `work`, or a rejection with `message` once `ms` have passed. The timer keeps the process alive: a
 * plugin's top-level await that never settles would otherwise end it (exit 13) with no word.
 */
export function withinTimeLimit<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}

/** Plugins loading now: module URL -> specifier. */
const loading = new Map<string, string>()
type ExitCode = number | string | null | undefined
/** Plugins that called process.exit while loading: specifier -> the code they asked for. */
const exitRequests = new Map<string, ExitCode>()
let realExit: ((code?: ExitCode) => never) | undefined
/** ghx-bench's own code (a second Ctrl-C ends the process through process.exit, also while plugins load). */
const OWN_CODE = ['src', path.join('dist', 'src'), 'bin', path.join('node_modules', '@oclif')].map(
  (dir) => path.join(PACKAGE_ROOT, dir) + path.sep,
)

/**
 * While a plugin loads, process.exit does not end ghx-bench: the call is recorded for the plugin
 * whose code made it (found in the stack; every plugin loading, when no frame names one and none
 * is ghx-bench's own) and throws, which ends the plugin's module. Returns the release.
 */
function refuseExitWhileLoading(url: string, specifier: string): () => void {
  loading.set(url, specifier)
  if (!realExit) {
    const original = (realExit = process.exit.bind(process))
    process.exit = function exitUnlessAPluginLoads(code?: ExitCode): never {
      // The callers' frames (this function's own is in ghx-bench's code).
      const stack = (new Error('process.exit').stack ?? '').split('\n').slice(2).join('\n')
      const named = [...loading].filter(([module]) => stack.includes(module) || stack.includes(fileURLToPath(module)))
      const culprits = named.length > 0 ? named : OWN_CODE.some((dir) => stack.includes(dir)) ? [] : [...loading]
      if (culprits.length === 0) return original(code)
      for (const [, culprit] of culprits) exitRequests.set(culprit, code)
      throw new Error(`called process.exit(${code ?? ''}) while loading`)
    }
  }
  return () => {
    loading.delete(url)
    if (loading.size === 0 && realExit) {
      process.exit = realExit
      realExit = undefined
    }
  }
}

/** The problem of a plugin that called process.exit while it loaded (once), or undefined. */
function exitProblem(specifier: string): string | undefined {
  if (!exitRequests.has(specifier)) return undefined
  const code = exitRequests.get(specifier)
  exitRequests.delete(specifier)
  return `called process.exit(${code ?? ''}) while loading: a plugin may not end ghx-bench (throw an Error to report a problem)`
}

/** A plugin's module: its URL, and the export that is the plugin when not the default one (`pkg:export`). */
export interface PluginModule {
  url: string
  exportName?: string
}

export type LoadOutcome = {ok: true; plugin: unknown} | {ok: false; problems: string[]}

/**
 * Imports the plugin and calls its factory. `guarded` (one plugin at a time: a third party's, in its
 * check and in ghx-bench): what its import leaves unhandled, and the processes it leaves running
 * (killed here), are its problems too.
 */
export async function loadPluginModule(
  module: PluginModule,
  specifier: string,
  options: Record<string, unknown> | undefined,
  limitMs: number,
  guarded: boolean,
): Promise<LoadOutcome> {
  const guard = guarded ? guardImport() : undefined
  const release = refuseExitWhileLoading(module.url, specifier)
  let outcome: LoadOutcome
  try {
    const plugin = await withinTimeLimit(importPlugin(module, options), limitMs, notSettledProblem(limitMs))
    // Also when the plugin caught what process.exit threw and went on.
    const exited = exitProblem(specifier)
    outcome = exited ? {ok: false, problems: [exited]} : {ok: true, plugin}
  } catch (error) {
    outcome = {ok: false, problems: [exitProblem(specifier) ?? (error as Error).message]}
  } finally {
    release()
  }
  const leftBehind = guard ? await guard.end() : []
  if (leftBehind.length === 0) return outcome
  return {ok: false, problems: [...(outcome.ok ? [] : outcome.problems), ...leftBehind]}
}

async function importPlugin(module: PluginModule, options?: Record<string, unknown>): Promise<unknown> {
  let namespace: Record<string, unknown>
  try {
    namespace = (await import(module.url)) as Record<string, unknown>
  } catch (error) {
    throw new Error(`threw while loading: ${(error as Error).message}`, {cause: error})
  }
  let exported: unknown
  if (module.exportName) {
    if (!(module.exportName in namespace))
      throw new Error(`has no export "${module.exportName}" (exports: ${Object.keys(namespace).join(', ')})`)
    exported = namespace[module.exportName]
  } else {
    // CommonJS interop can wrap the default export twice.
    const first = namespace.default as Record<string, unknown> | undefined
    exported = first && typeof first === 'object' && 'default' in first ? first.default : (first ?? namespace)
  }
  // A factory export takes the options given in the config.
  if (typeof exported === 'function') {
    try {
      exported = await (exported as (o: Record<string, unknown>) => unknown)(options ?? {})
    } catch (error) {
      throw new Error(`factory threw: ${(error as Error).message}`, {cause: error})
    }
  }
  return exported
}

/**
 * How long after its import settles a plugin's timers and rejections still count as its import's:
 * a rejection is reported after the microtasks, a `setTimeout(..., 0)` runs on the next turn.
 */
const AFTERMATH_MS = 50

/**
 * Watches one import: rejections no handler takes and errors thrown outside it (from a timer) are
 * recorded instead of ending the process with a stack trace; processes it starts are watched
 * (started-processes.ts). `end()` stops watching and returns the problems, killing those processes.
 */
function guardImport(): {end(): Promise<string[]>} {
  const problems: string[] = []
  const onRejection = (reason: unknown) =>
    problems.push(`its import left a promise rejection unhandled: ${firstLine(reason)}`)
  const onException = (error: unknown) => problems.push(`its import threw outside its module: ${firstLine(error)}`)
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  const processes = watchStartedProcesses()
  return {
    async end() {
      await new Promise((resolve) => setTimeout(resolve, AFTERMATH_MS))
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
      const started = processes.stop()
      started.kill()
      if (started.programs.length > 0)
        problems.push(
          `its import started ${started.programs.length === 1 ? 'a process' : `${started.programs.length} processes`} that kept running (${[...new Set(started.programs)].join(', ')}): a plugin starts processes in a mode's open or a provider's run, where ghx-bench ends them, never at import`,
        )
      return problems
    },
  }
}

/** An error's message (or a value as text), its first line only: one line a problem. */
export function firstLine(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value)
  return text.split('\n', 1)[0]!.trim() || (value instanceof Error ? value.name : 'no message')
}
