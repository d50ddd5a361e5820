/**
 * What an attempt has found out so far, and how it ends: its clock and timing, the fields its row takes
 * as the steps fill them in, the faults its own traffic received, the session closed once (closing is the
 * mode's cost like opening: it counts in session_ms, and in the wall time, which ends once the session is
 * closed). A step that ends the attempt early throws AttemptEnded with the outcome; `end` turns whatever
 * ended it into the attempt's record.
 */
import type {AccessCounts, AgentAccess, ApiCost} from '../github/target.js'
import {isInfrastructureError, type Mode, type Usage} from '../plugins/api.js'
import type {Row} from '../results/row-schema.js'
import {isBadInputError} from '../shared/diagnostics.js'
import type {CheckpointResult} from '../verify/checkpoints.js'
import type {ModelReport} from './model-source.js'
import {tokensOf} from '../results/usage.js'
import type {AttemptRecord} from './row.js'
import {ABORT_GRACE_MS, withinAbort, type AbortKind, type AttemptLimits} from './run-limits.js'
import type {SuiteContext} from './suite-context.js'

export interface Attempt extends AttemptRecord {
  /** Infrastructure failed: another attempt may succeed. */
  retryable: boolean
  /** Ctrl-C ended it: not recorded (resume runs it again). */
  interrupted: boolean
}

/** How an attempt ended, before the clock, the tokens and the faults are added. */
export type Ending = Pick<Attempt, 'outcome' | 'error' | 'retryable'> & Partial<Attempt>

/** Thrown by a step that ends the attempt before the pipeline's end: a fixture error, the provider failing, an abort. */
export class AttemptEnded extends Error {
  constructor(readonly ending: Ending) {
    super(ending.error?.message ?? ending.outcome)
    this.name = 'AttemptEnded'
  }
}

const ZERO_USAGE: Usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}

export class AttemptState {
  private readonly startedAt = new Date()
  private readonly started = performance.now()
  readonly timing = {model_ms: 0, tools_ms: 0, session_ms: 0, fixtures_ms: 0, checkpoints_ms: 0, turns: 0}
  readonly fields = {
    checkpoints: [] as CheckpointResult[],
    variables: null as Record<string, unknown> | null,
    apiCalls: null as number | null,
    githubApi: null as ApiCost | null,
    agentMs: null as number | null,
    tracePath: null as string | null,
    timing: this.timing,
    toolSchema: undefined as Row['tool_schema'],
    mcpTools: [] as string[],
    invocations: null as Record<string, number> | null,
    layerLog: null as string | null,
  }
  /** The agent's access, once the session step took it. */
  access?: AgentAccess
  /** What the model's endpoint saw (the scripted models: faults, the plan's outcome), once registered. */
  modelReport: () => Promise<ModelReport | undefined> = () => Promise.resolve(undefined)
  /** What the agent's traffic left once it was done: read once, at once. */
  private agentDone?: {github: Promise<AccessCounts | undefined>; model: Promise<ModelReport | undefined>}
  private session?: Awaited<ReturnType<Mode['open']>>
  private sessionClosed?: Promise<void>

  constructor(
    private readonly ctx: SuiteContext,
    private readonly attemptNo: number,
  ) {}

  elapsedMs(): number {
    return performance.now() - this.started
  }

  opened(session: Awaited<ReturnType<Mode['open']>>): void {
    this.session = session
  }

  /** The agent is done: its traffic is read now, for the row and for the faults. */
  agentFinished(): {github: Promise<AccessCounts | undefined>; model: Promise<ModelReport | undefined>} {
    return (this.agentDone = {
      github: this.access ? this.access.counts() : Promise.resolve(undefined),
      model: this.modelReport(),
    })
  }

  /** A session that does not close (a hung MCP server) cannot hold the run either: closed once, by the first of `finish` and the release. */
  closeSession(): Promise<void> {
    return (this.sessionClosed ??= (async () => {
      if (!this.session) return
      const closing = performance.now()
      await withinAbort(this.session.close(), AbortSignal.abort(), ABORT_GRACE_MS).catch(() => {})
      this.timing.session_ms += performance.now() - closing
    })())
  }

  /** The attempt's end by what a step threw: an early ending, the run's limits, bad input (thrown on), or a runner failure. */
  end(error: unknown, limits: AttemptLimits): Promise<Attempt> {
    if (error instanceof AttemptEnded) return this.finish(error.ending)
    const kind = limits.kind()
    if (kind) return this.finish(this.abortedBy(kind))
    // Bad bindings are bad input: they stop the suite rather than fail one run.
    if (isBadInputError(error)) throw error
    return this.finish({
      outcome: 'infra_error',
      error: {type: 'runner_error', message: (error as Error).message},
      retryable: isInfrastructureError(error),
    })
  }

  /** An attempt the signal ended: Ctrl-C (not recorded; resume redoes it), or a timeout or stall (recorded). */
  abortedBy(kind: AbortKind, partial: Partial<Attempt> = {}): Ending {
    return kind === 'interrupted'
      ? {
          outcome: 'infra_error',
          error: {type: 'interrupted', message: 'interrupted'},
          retryable: false,
          ...partial,
          interrupted: true,
        }
      : {
          outcome: 'timeout',
          error: {type: kind, message: `${kind} after ${Math.round(this.elapsedMs())} ms`},
          retryable: false,
          ...partial,
        }
  }

  async finish(given: Ending): Promise<Attempt> {
    await this.closeSession()
    const wallMs = this.elapsedMs()
    const tokens = given.tokens ?? tokensOf(ZERO_USAGE)
    const injectedFaults = await this.faultsSoFar()
    // A run whose own traffic got injected faults did not fail on its merits: infrastructure, retried.
    const ending: Ending =
      injectedFaults > 0 && given.outcome === 'fail'
        ? {
            ...given,
            outcome: 'infra_error',
            retryable: true,
            error: {
              type: 'injected_faults',
              message: `${injectedFaults} injected fault(s) in the run's traffic; it failed: ${given.error?.message ?? 'checks failed'}`,
            },
          }
        : given
    return {
      ...this.fields,
      interrupted: false,
      tokens,
      ...ending,
      injectedFaults,
      record: {
        attempt: this.attemptNo,
        outcome: ending.outcome,
        error: ending.error,
        started_at: this.startedAt.toISOString(),
        latency_ms_wall: wallMs,
        tokens,
        ...(this.ctx.injectFaults ? {injected_faults: injectedFaults} : {}),
      },
    }
  }

  /** Faults seen so far by the run's GitHub and model traffic; once the agent is done, what it left. */
  private async faultsSoFar(): Promise<number> {
    const {github, model} = this.agentDone ?? {
      github: this.access ? this.access.counts() : Promise.resolve(undefined),
      model: this.modelReport(),
    }
    const [counts, report] = await Promise.all([github, model])
    return (counts?.injectedFaults ?? 0) + (report?.injectedFaults ?? 0)
  }
}
