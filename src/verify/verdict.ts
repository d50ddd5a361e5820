/**
 * The verdict of a run whose agent finished: one function for `run`, which judges a run as it ends,
 * and `regrade`, which judges a stored run again. From what stopped the agent (its reference plan
 * failed, a turn or token limit), the envelope assertions (atomic), the checkpoints (GitHub's state
 * and the answer's truth) and the scenario's expected outcome, it gives the row's outcome, success, output_valid and error.
 * Timeouts and infrastructure errors never reach a verdict: the row says what ended the run.
 */
import type {Row} from '../results/row-schema.js'
import type {Scenario} from '../schemas/scenario.js'

/** What ended the agent's run before its checks could decide it: these fail the run whatever the checks say. */
const STOP_TYPES = ['reference_plan_failed', 'max_turns', 'max_tokens'] as const
type StopType = (typeof STOP_TYPES)[number]
export interface RunStop {
  type: StopType
  message: string
}

export interface VerdictInput {
  scenario: Scenario
  /** A failed step of the oracle's plan, or a limit the run reached; null when the agent finished on its own. */
  stop: RunStop | null
  /** Atomic: the envelope assertions. */
  assertion?: {passed: boolean; output_valid: boolean; message: string | null} | null
  /** The checkpoints' results (a workflow's, an atomic scenario's). */
  checkpoints: ReadonlyArray<{name: string; passed: boolean}>
}

export interface Verdict {
  outcome: 'pass' | 'fail'
  success: boolean
  output_valid: boolean
  error: Row['error']
}

export function verdictOf(input: VerdictInput): Verdict {
  const error = failureOf(input)
  const outcome = error ? 'fail' : 'pass'
  return {
    outcome,
    success: outcome === 'pass',
    output_valid: outputValidOf(input.scenario, outcome, input.assertion),
    error,
  }
}

/** The first reason the run fails, in this order: what stopped it, the envelope, the checkpoints. */
function failureOf({scenario, stop, assertion, checkpoints}: VerdictInput): Row['error'] {
  if (stop) return {type: stop.type, message: stop.message}
  if (assertion && !assertion.passed)
    return {type: 'assertion_failed', message: assertion.message ?? 'assertion failed'}
  const failed = checkpoints.filter((c) => !c.passed).map((c) => c.name)
  // A workflow's expected_error: the task must not be done (the predecessors' rule: success = not every
  // checkpoint passed). An atomic scenario's error is in its envelope; its checkpoints must hold either way.
  if (scenario.type === 'workflow' && scenario.assertions.expected_outcome === 'expected_error') {
    return failed.length > 0
      ? null
      : {
          type: 'unexpected_success',
          message: `expected_outcome is expected_error, and every checkpoint passed: ${checkpoints.map((c) => c.name).join(', ')}`,
        }
  }
  return failed.length > 0
    ? {
        type: 'checkpoint_failed',
        message: `${scenario.type === 'workflow' ? 'Workflow checkpoint' : 'Checkpoint'} verification failed: ${failed.join(', ')}`,
      }
    : null
}

/**
 * A row's output_valid: for an atomic scenario, whether the final answer was an envelope that keeps the
 * mode's contract; for a workflow, whether the checks could judge the run at all (it ended pass or
 * fail, not timed out or in an infrastructure error). Rows that never reached a verdict use it too.
 */
export function outputValidOf(
  scenario: Scenario,
  outcome: Row['outcome'],
  assertion?: {output_valid: boolean} | null,
): boolean {
  return scenario.type === 'atomic' ? (assertion?.output_valid ?? false) : outcome === 'pass' || outcome === 'fail'
}

/** What stopped a stored run's agent, read back from its row's error (regrade keeps it: the checks cannot undo it). */
export function stopOf(row: Pick<Row, 'error'>): RunStop | null {
  const type = row.error?.type
  return type && (STOP_TYPES as readonly string[]).includes(type)
    ? {type: type as StopType, message: row.error!.message}
    : null
}
