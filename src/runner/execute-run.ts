/**
 * One run: scenario x mode x iteration, with every attempt it takes (src/runner/attempt.ts). Only
 * infrastructure failures are retried, with a short back-off; every attempt stays in the row
 * (src/runner/row.ts), and each one's trace is written once the row is built (an interrupted run,
 * not recorded, writes none).
 */
import type {Row} from '../results/row-schema.js'
import type {Scenario} from '../schemas/scenario.js'
import {runAttempt, type Attempt} from './attempt.js'
import type {PlannedRun} from './plan.js'
import {buildRow} from './row.js'
import type {SuiteContext} from './suite-context.js'
import {tracePathOf, writeTrace} from './trace-file.js'

export type {SuiteContext} from './suite-context.js'

/** Runs every attempt of one planned run and builds its row; null when Ctrl-C interrupted it. */
export async function executeRun(ctx: SuiteContext, run: PlannedRun, scenario: Scenario): Promise<Row | null> {
  const startedAt = new Date()
  const started = performance.now()
  const maxAttempts = 1 + Math.max(ctx.infraRetries, scenario.allowed_retries)
  const attempts: Attempt[] = []
  for (let n = 1; n <= maxAttempts; n++) {
    const attempt = await runAttempt(ctx, run, scenario, n)
    if (attempt.interrupted) return null
    attempt.tracePath = tracePathOf(ctx, run, n)
    attempts.push(attempt)
    if (!attempt.retryable || ctx.signal.aborted) break
    // Back off a little: infrastructure that just failed is often busy.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** (n - 1))))
  }
  // The run ends with its row built; recording it follows: each attempt's trace here, then the row (by the caller).
  const row = ctx.redact(buildRow(ctx, run, scenario, attempts, {startedAt, wallMs: performance.now() - started}))
  await Promise.all(attempts.map((attempt) => writeTrace(ctx, run, scenario, attempt)))
  return row
}
