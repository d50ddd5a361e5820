/**
 * A token's rate-limit budget on live GitHub (github.rate_budget). GitHub says in every response what is
 * left of the token's hourly points per resource (x-ratelimit-remaining, -reset, -resource: core for
 * REST, graphql for GraphQL); the harness's Octokit hands each response's headers here. The agent's own
 * calls spend from the same token, and the next response the harness reads shows them. Shards that share
 * a token share its points: the headers say what all of them left. Before each run the runner asks
 * `admitRun`: with a resource under its reserve, it waits for GitHub's window to reset, or, when the
 * reset is further off than max_wait_s, stops the shard (its recorded rows stay; run it again to resume).
 * Secondary limits (403/429 with retry-after, which plugin-throttling waits out) are counted here too.
 */
/** github.rate_budget of the configuration. */
export interface RateBudgetSettings {
  /** REST points left untouched: a run starts only with more than these left. */
  reserve_core: number
  /** GraphQL points left untouched. */
  reserve_graphql: number
  /** The longest wait for a window to reset before the shard stops instead. */
  max_wait_s: number
}

const reserveOf = (settings: RateBudgetSettings, resource: string): number =>
  resource === 'graphql' ? settings.reserve_graphql : settings.reserve_core

/** What GitHub last said of one resource. */
interface RateWindow {
  remaining: number
  /** When the window resets (ms since the epoch). */
  resetAt: number
}

/** The waits rate limits cost: the row's github_rate_waits. */
export interface RateWaits {
  waited_ms: number
  secondary_limits: number
}

export class RateBudget {
  private readonly windows = new Map<string, RateWindow>()
  private readonly spent: RateWaits = {waited_ms: 0, secondary_limits: 0}

  constructor(
    /** Whose token (a login, or "GitHub App"): named when the budget stops a shard. */
    readonly identity: string,
    readonly settings: RateBudgetSettings,
  ) {}

  /** A response's rate-limit headers (any response: errors carry them too). */
  observe(headers: Record<string, string | number | undefined>): void {
    const remaining = Number(headers['x-ratelimit-remaining'])
    const reset = Number(headers['x-ratelimit-reset'])
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return
    const resource = String(headers['x-ratelimit-resource'] ?? 'core')
    this.windows.set(resource, {remaining, resetAt: reset * 1000})
  }

  /** A wait a limit cost (plugin-throttling's retry-after, or admitRun's wait for a reset). */
  recordWait(ms: number, secondary: boolean): void {
    this.spent.waited_ms += ms
    if (secondary) this.spent.secondary_limits++
  }

  /** The waits so far (a copy: a run takes the difference over its own time). */
  waits(): RateWaits {
    return {...this.spent}
  }

  /** The resource that is under its reserve and resets last, if any (a window past its reset is whole again). */
  short(now = Date.now()): {resource: string; remaining: number; resetAt: number} | undefined {
    let worst: {resource: string; remaining: number; resetAt: number} | undefined
    for (const [resource, window] of this.windows) {
      if (window.resetAt <= now || window.remaining > reserveOf(this.settings, resource)) continue
      if (!worst || window.resetAt > worst.resetAt) worst = {resource, ...window}
    }
    return worst
  }
}

/** The difference of two readings of the waits. */
export const waitsSince = (before: RateWaits, after: RateWaits): RateWaits => ({
  waited_ms: after.waited_ms - before.waited_ms,
  secondary_limits: after.secondary_limits - before.secondary_limits,
})

/** The waits of every budget, summed. */
export const totalWaits = (budgets: readonly RateBudget[]): RateWaits =>
  budgets.reduce(
    (sum, budget) => {
      const waits = budget.waits()
      return {
        waited_ms: sum.waited_ms + waits.waited_ms,
        secondary_limits: sum.secondary_limits + waits.secondary_limits,
      }
    },
    {waited_ms: 0, secondary_limits: 0},
  )

export type Admission = {admitted: true} | {admitted: false; reason: string}

/**
 * Whether a run may start: every budget above its reserve, after waiting for the windows that are under
 * it to reset (recorded as waits) when they reset within max_wait_s; else not, with the reason.
 * Ctrl-C ends a wait at once (not admitted: the run is not started).
 */
export async function admitRun(budgets: readonly RateBudget[], signal: AbortSignal): Promise<Admission> {
  for (const budget of budgets) {
    const short = budget.short()
    if (!short) continue
    const waitMs = short.resetAt - Date.now()
    const resets = new Date(short.resetAt).toISOString()
    if (waitMs > budget.settings.max_wait_s * 1000)
      return {
        admitted: false,
        reason: `rate budget: ${budget.identity}'s ${short.resource} points are down to ${short.remaining} (reserve ${reserveOf(budget.settings, short.resource)}) and reset at ${resets}, beyond github.rate_budget.max_wait_s (${budget.settings.max_wait_s} s): stopped; run it again with the same --run-id (and --shard) to resume`,
      }
    const waited = await sleep(waitMs, signal)
    budget.recordWait(waited, false)
    if (signal.aborted) return {admitted: false, reason: 'interrupted'}
  }
  return {admitted: true}
}

/** Sleeps `ms` or until the signal aborts; the time slept. */
function sleep(ms: number, signal: AbortSignal): Promise<number> {
  const started = performance.now()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve(performance.now() - started)
    }
    const timer = setTimeout(done, Math.max(0, ms))
    signal.addEventListener('abort', done, {once: true})
  })
}
