/**
 * `run --budget`: the scheduler asks before the first run of each paired block (scenario x iteration,
 * all its modes and providers) whether the block fits. It does when what was spent, what the blocks
 * already started are still expected to spend, and the block's own forecast stay within the budget
 * (src/results/budget.ts). The first block that would overrun stops the run: no new block starts, the
 * blocks started finish (their modes stay paired), and the rest are recorded as not run. A run whose
 * cell has no forecast is expected to spend the average of this run's runs so far.
 */
import {atAverage, budgetOverrun, budgetText, nothingSpent, type Budget, type Spent} from '../results/budget.js'
import type {Row} from '../results/row-schema.js'
import type {NotRun} from '../results/run-info.js'
import type {PlannedRun} from './plan.js'
import {blockKey} from './shard.js'

const blockOf = (run: PlannedRun) => blockKey(run.scenario_id, run.iteration)

const add = (a: Spent, b: Spent): Spent => ({
  runs: a.runs + b.runs,
  tokens: a.tokens + b.tokens,
  cost_usd: a.cost_usd + b.cost_usd,
  ms: a.ms + b.ms,
})

export class BlockBudget {
  private readonly runsOf = new Map<string, PlannedRun[]>()
  private readonly started = new Set<string>()
  private readonly finished = new Set<string>()
  private readonly refused = new Set<string>()
  /** What this run's finished runs spent (ms: the sum of their wall times). */
  private observed = nothingSpent()
  private readonly since = performance.now()
  /** Why the run stopped starting blocks; null while none would overrun. */
  stopped: string | null = null

  constructor(
    private readonly budget: Budget,
    todo: readonly PlannedRun[],
    private readonly forecastOf: (run: PlannedRun) => Spent | undefined,
    private readonly concurrency: number,
  ) {
    for (const run of todo) {
      const runs = this.runsOf.get(blockOf(run)) ?? []
      runs.push(run)
      this.runsOf.set(blockOf(run), runs)
    }
  }

  /** Whether `run` may start: any run of a block started may; a new block only while it fits. */
  admit(run: PlannedRun): boolean {
    const block = blockOf(run)
    if (this.started.has(block)) return true
    if (!this.stopped) {
      const expected = (runs: readonly PlannedRun[]) =>
        runs.reduce((sum, r) => add(sum, this.forecastOf(r) ?? atAverage(this.observed, 1)), nothingSpent())
      // Wall time passes for all runs at once: the runs ahead take their share of `concurrency`.
      const wall = (spent: Spent): Spent => ({...spent, ms: spent.ms / this.concurrency})
      const committed = wall(
        expected([...this.started].flatMap((b) => this.runsOf.get(b)!.filter((r) => !this.finished.has(r.key)))),
      )
      const spent = add({...this.observed, ms: performance.now() - this.since}, committed)
      this.stopped = budgetOverrun(
        this.budget,
        spent,
        wall(expected(this.runsOf.get(block) ?? [run])),
        'the next block',
      )
    }
    if (this.stopped) {
      this.refused.add(block)
      return false
    }
    this.started.add(block)
    return true
  }

  /** A run ended: its row's spend counts (none when it was interrupted). */
  finish(run: PlannedRun, row: Row | null): void {
    this.finished.add(run.key)
    if (row)
      this.observed = add(this.observed, {
        runs: 1,
        tokens: row.tokens.total,
        cost_usd: row.cost_usd ?? 0,
        ms: row.latency_ms_wall,
      })
  }

  /** What the budget left out of `plan` (the run's whole plan, recorded rows included); null when nothing. */
  notRun(plan: readonly PlannedRun[]): NotRun | null {
    if (!this.stopped || this.refused.size === 0) return null
    return {
      reason: 'budget',
      budget: budgetText(this.budget),
      detail: this.stopped,
      planned_blocks: new Set(plan.map(blockOf)).size,
      blocks: [...this.refused],
    }
  }
}
