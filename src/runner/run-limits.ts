/**
 * A run held to its limits: the run timeout and the stall watchdog abort its signal (with the reason
 * kept), Ctrl-C aborts it at once, and a plugin's promise is given a short grace after the abort
 * before the run moves on without it.
 */

export type AbortKind = 'timeout' | 'stall' | 'interrupted'

class RunAbort extends Error {
  constructor(readonly kind: AbortKind) {
    super(kind)
  }
}

export interface AttemptLimits extends Disposable {
  signal: AbortSignal
  /** The run timeout. */
  runMs: number
  /** Arms the run timeout and the stall watchdog: when the arm opens (fixture work is not the agent's). */
  start(): void
  /** The agent made progress: the stall watchdog starts over. */
  progress(): void
  /** Why the signal aborted, if it did. */
  kind(): AbortKind | undefined
  /** Stops the clocks (the agent is done, or the attempt ended); `using` calls it. */
  dispose(): void
}

/**
 * An abort signal for one attempt, with the reason kept: Ctrl-C (`interrupt`) from the start; the run
 * timeout and the stall watchdog once `start()` arms them.
 */
export function attemptLimits(interrupt: AbortSignal, limits: {runMs: number; stallMs: number}): AttemptLimits {
  const controller = new AbortController()
  const abort = (kind: AbortKind) => {
    if (!controller.signal.aborted) controller.abort(new RunAbort(kind))
  }
  let timeout: NodeJS.Timeout | undefined
  let stall: NodeJS.Timeout | undefined
  const onInterrupt = () => abort('interrupted')
  interrupt.addEventListener('abort', onInterrupt, {once: true})
  if (interrupt.aborted) abort('interrupted')
  const dispose = () => {
    clearTimeout(timeout)
    clearTimeout(stall)
    interrupt.removeEventListener('abort', onInterrupt)
  }
  return {
    signal: controller.signal,
    runMs: limits.runMs,
    start() {
      timeout = setTimeout(() => abort('timeout'), limits.runMs)
      stall = setTimeout(() => abort('stall'), limits.stallMs)
    },
    progress() {
      clearTimeout(stall)
      stall = setTimeout(() => abort('stall'), limits.stallMs)
    },
    kind: () => (controller.signal.reason instanceof RunAbort ? controller.signal.reason.kind : undefined),
    dispose,
    [Symbol.dispose]: dispose,
  }
}

/** How long a plugin may take to stop after the run's signal aborted it, before the run moves on without it. */
export const ABORT_GRACE_MS = 2000

/**
 * How long the suite waits, before it closes, for a plugin it left behind to clean up after itself (a
 * provider's server killed in its `finally`): without that wait the CLI could exit first and orphan it.
 */
const LEFT_BEHIND_MS = 30_000

/** Settles when `work` does, or after `ms` at the latest: a plugin left behind is waited for, not forever. */
export function settledWithin(work: Promise<unknown>, ms = LEFT_BEHIND_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    timer.unref()
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    work.then(done, done)
  })
}

/**
 * A plugin's promise (a mode opening, a provider's run), held to the run's signal: once the signal
 * aborts, the plugin has ABORT_GRACE_MS to return (the agent loop returns its partial trace at once);
 * a plugin that ignores the signal is left behind, so no hung tool or server holds the run past its limits.
 */
export function withinAbort<T>(work: Promise<T>, signal: AbortSignal, graceMs = ABORT_GRACE_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const onAbort = () => {
      timer = setTimeout(() => reject(new Error('aborted: the plugin did not stop in time')), graceMs)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, {once: true})
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
    work.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}
