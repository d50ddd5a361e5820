/**
 * A scenario's checkpoints: each runs its read task against GitHub and judges the result with its
 * condition, polled until it passes or its time budget ends (GitHub is eventually consistent). Every
 * result keeps the raw task result, so a run can be re-graded offline.
 */
import type {GithubClient} from '../github/client.js'
import type {PluginRegistry} from '../plugins/registry.js'
import {fillPlaceholders} from '../catalogue/placeholders.js'
import type {Checkpoint, Scenario} from '../schemas/scenario.js'
import type {Envelope} from './envelope.js'

export interface CheckpointResult {
  name: string
  task: string
  passed: boolean
  expected: unknown
  actual: unknown
  message: string
  /** The task's whole result at the last attempt (null when the task failed). */
  result: unknown
  /** How many times the task ran before the verdict. */
  polls: number
  /** The task's error at the last attempt, when it failed. */
  error?: string
}

export interface CheckpointOptions {
  octokit: GithubClient
  registry: PluginRegistry
  /** Placeholder values: the run's bindings and built-in variables. */
  variables: Record<string, unknown>
  /** How long one checkpoint may poll before its verdict stands. */
  budgetMs: number
  intervalMs?: number
  signal?: AbortSignal
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, {once: true})
  })

/**
 * The variables a run's checkpoints see: its bindings, and what the agent answered (CHECK_VARIABLES):
 * `answer` is an atomic scenario's envelope data (null without a successful envelope) or a workflow's
 * final text, `final_text` the agent's last message, `input` an atomic scenario's filled input.
 */
export function checkVariables(
  scenario: Scenario,
  variables: Record<string, unknown>,
  finalText: string,
  envelope: Envelope | null,
): Record<string, unknown> {
  if (scenario.type === 'workflow') return {...variables, answer: finalText, final_text: finalText}
  const answer = envelope?.ok === true ? (envelope.data ?? null) : null
  return {...variables, answer, final_text: finalText, input: fillPlaceholders(scenario.input, variables)}
}

/** All of a scenario's checkpoints, polled side by side: the budget is the whole verification's, not each one's. */
export function evaluateCheckpoints(
  checkpoints: readonly Checkpoint[],
  options: CheckpointOptions,
): Promise<CheckpointResult[]> {
  return Promise.all(checkpoints.map((checkpoint) => evaluateCheckpoint(checkpoint, options)))
}

async function evaluateCheckpoint(checkpoint: Checkpoint, options: CheckpointOptions): Promise<CheckpointResult> {
  const task = options.registry.readTask(checkpoint.task)
  const condition = fillPlaceholders(checkpoint.condition, options.variables)
  if (!task) {
    return {
      name: checkpoint.name,
      task: checkpoint.task,
      passed: false,
      expected: condition,
      actual: null,
      message: `no read task "${checkpoint.task}"`,
      result: null,
      polls: 0,
    }
  }
  const input = fillPlaceholders((checkpoint.input ?? {}) as Record<string, unknown>, options.variables)
  const started = Date.now()
  const interval = options.intervalMs ?? 1000
  let polls = 0
  for (;;) {
    polls++
    let outcome: CheckpointResult
    try {
      const result = await task.run(options.octokit, input)
      const verdict = options.registry.evaluate(condition, result)
      outcome = {name: checkpoint.name, task: checkpoint.task, ...verdict, result, polls}
    } catch (error) {
      const message = (error as Error).message
      outcome = {
        name: checkpoint.name,
        task: checkpoint.task,
        passed: false,
        expected: condition,
        actual: null,
        message: `${checkpoint.task} failed: ${message}`,
        result: null,
        polls,
        error: message,
      }
    }
    if (outcome.passed || options.signal?.aborted || Date.now() - started + interval > options.budgetMs) return outcome
    await sleep(interval, options.signal)
  }
}

/** Re-judges stored task results with a (possibly changed) condition: grading without GitHub. */
export function regradeCheckpoint(
  checkpoint: Checkpoint,
  stored: {result: unknown},
  registry: PluginRegistry,
  variables: Record<string, unknown>,
): Omit<CheckpointResult, 'polls' | 'task'> {
  const condition = fillPlaceholders(checkpoint.condition, variables)
  return {name: checkpoint.name, ...registry.evaluate(condition, stored.result), result: stored.result}
}
