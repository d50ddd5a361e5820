/** Each attempt's trace: <results_dir>/<record name>/traces/<scenario>__<mode>__<provider>__i<iteration>__a<attempt>.json, redacted. */
import path from 'node:path'
import {writeFileBelow} from '../results/no-follow.js'
import {attemptTraceName} from '../results/trace-name.js'
import type {Scenario} from '../schemas/scenario.js'
import type {Attempt} from './attempt.js'
import type {PlannedRun} from './plan.js'
import {renderPrompt} from './prompt.js'
import type {SuiteContext} from './suite-context.js'

/** Where an attempt's trace goes, relative to results_dir, as the row records it. */
export function tracePathOf(ctx: SuiteContext, run: PlannedRun, attempt: number): string {
  return path.join(
    ctx.recordName,
    'traces',
    attemptTraceName(run.scenario_id, run.mode, run.provider, run.iteration, attempt),
  )
}

/** Writes the attempt's trace (at `attempt.tracePath`). */
export async function writeTrace(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  attempt: Attempt,
): Promise<void> {
  const file = path.join(ctx.resultsDir, tracePathOf(ctx, run, attempt.record.attempt))
  const document = ctx.redact({
    run_id: ctx.runId,
    scenario_id: run.scenario_id,
    mode: run.mode,
    provider: run.provider,
    iteration: run.iteration,
    attempt: attempt.record,
    variables: attempt.variables,
    prompt: attempt.variables ? renderPrompt(scenario, attempt.variables) : null,
    stop_reason: attempt.trace?.stop_reason ?? null,
    final_text: attempt.trace?.final_text ?? null,
    runtime: attempt.trace?.runtime ?? null,
    turns: attempt.trace?.turns ?? [],
    messages: attempt.trace?.messages ?? [],
    assertion: attempt.assertion ?? null,
    checkpoints: attempt.checkpoints,
    timing: attempt.timing,
  })
  await writeFileBelow(ctx.resultsDir, file, JSON.stringify(document, null, 2) + '\n')
}
