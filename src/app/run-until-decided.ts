/**
 * `ghx-bench run SUITE --until-decided`: the suite's runs added in looks planned in advance (5, 8,
 * 12, 16, 20 repetitions per cell by default), one run id throughout (each look resumes the last: the
 * runs already recorded are skipped). After each look the suite's gate is judged at that look's
 * confidence, and src/report/gate/sequential.ts decides whether to stop: every check decided (or not to
 * be settled within the plan), a check failed, the last look, or a budget (runs, tokens, cost, time)
 * the next look would overrun at the average per run so far (src/results/budget.ts). The report and
 * the gate of the look it stopped at are written as a run's are, the gate recording the look and why
 * the run stopped.
 */
import type {LoadedConfig} from '../config/load-config.js'
import {judge, type Judged} from '../report/judge.js'
import type {GateDocument} from '../report/aggregate/report-schema.js'
import {
  DEFAULT_ALPHA,
  DEFAULT_LOOKS,
  DEFAULT_SPENDING,
  decideLook,
  freezeVerdicts,
  lookConfidences,
  parseLooks,
  type FrozenVerdicts,
  type SequentialPlan,
  type Spending,
} from '../report/gate/sequential.js'
import type {SequentialLook} from '../report/gate/reliability-rules.js'
import {atAverage, budgetOverrun, type Spent} from '../results/budget.js'
import {runSuite, type RunSummary, type SuiteEvent} from '../runner/run-suite.js'
import {BadInputError} from '../shared/diagnostics.js'
import {judgeRun} from './judge.js'
import {judgedGate, openSuite, parseBudgetFlag, undersizedNotice, type RunResult, type RunSuiteOptions} from './run.js'

export interface UntilDecidedOptions {
  /** Repetitions per cell at each look, as given ("5,10,20"; default 5,8,10,12,14,16,18,20). */
  looks?: string
  spending?: Spending
}

type History = NonNullable<NonNullable<GateDocument['sequential']>['history']>

function badInput(flag: string, message: string): BadInputError {
  return new BadInputError([{file: flag, code: 'config', message}])
}

/** The plan from the flags' text; bad input names the flag. */
function sequentialPlan(options: UntilDecidedOptions): SequentialPlan {
  const looks = options.looks === undefined ? [...DEFAULT_LOOKS] : parseLooks(options.looks)
  if (typeof looks === 'string') throw badInput('--looks', looks)
  return {looks, alpha: DEFAULT_ALPHA, spending: options.spending ?? DEFAULT_SPENDING}
}

/** What the run's rows have used so far: runs, tokens (total, all modes and providers) and cost; `ms` the wall time since it started. */
function spentOf(providers: Judged['loaded']['providers'], ms: number): Spent {
  let runs = 0
  let tokens = 0
  let cost = 0
  for (const aggregate of providers.values()) {
    runs += aggregate.rows
    for (const byScenario of aggregate.cells.values()) {
      for (const cell of byScenario.values()) {
        for (const value of cell.all.tokens_total.values()) if (Number.isFinite(value)) tokens += value
        for (const value of cell.all.cost.values()) if (Number.isFinite(value)) cost += value
      }
    }
  }
  return {runs, tokens, cost_usd: cost, ms}
}

/** Adds a look's run counts to the ones before it: the summary returned covers every look. */
function accumulate(total: RunSummary | null, look: RunSummary): RunSummary {
  if (!total) return look
  const added = (before: RunSummary['by_mode'], more: RunSummary['by_mode']): RunSummary['by_mode'] => {
    const sum = structuredClone(before)
    for (const [mode, counts] of Object.entries(more)) {
      const into = (sum[mode] ??= {pass: 0, fail: 0, timeout: 0, infra_error: 0})
      for (const key of Object.keys(counts) as Array<keyof typeof counts>) into[key] += counts[key]
    }
    return sum
  }
  const byProvider = Object.fromEntries(
    [...new Set([...Object.keys(total.by_provider), ...Object.keys(look.by_provider)])].map((p) => [
      p,
      added(total.by_provider[p] ?? {}, look.by_provider[p] ?? {}),
    ]),
  )
  return {
    ...look,
    completed: total.completed + look.completed,
    by_mode: added(total.by_mode, look.by_mode),
    by_provider: byProvider,
    warnings: [...total.warnings, ...look.warnings],
  }
}

/** One look's gate at its confidence, written nowhere. */
async function judgeLook(
  config: LoadedConfig,
  runId: string,
  cwd: string,
  at: {confidence: number; look: SequentialLook},
  ms: number,
) {
  const {loaded, gate} = await judge(config, {runId, cwd, report: false, gate: at, output: null})
  return {gate: gate!, spent: spentOf(loaded.providers, ms)}
}

export async function runUntilDecided(
  options: RunSuiteOptions & {untilDecided: UntilDecidedOptions},
  onEvent?: (event: SuiteEvent) => void,
): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd()
  if (options.repetitions !== undefined)
    throw badInput('--repetitions', 'with --until-decided the looks set the repetitions (--looks)')
  if (options.noReport) throw badInput('--no-report', '--until-decided judges the gate after every look')
  if (options.noGate) throw badInput('--no-gate', '--until-decided judges the gate after every look')
  if (options.shard !== undefined)
    throw badInput(
      '--shard',
      '--until-decided judges the gate of all the rows after every look, and a shard has part of them',
    )
  const plan = sequentialPlan(options.untilDecided)
  const budget = parseBudgetFlag(options.budget)
  const started = performance.now()
  const selected = await openSuite(options)
  if (!selected.suite.gate?.profile)
    throw badInput(selected.origin, '--until-decided needs a gate to decide: the suite names no gate profile')
  // Each look stops or goes on by one gate's checks: several providers would each need their own looks.
  if (selected.providers.length > 1)
    throw badInput(
      '--provider',
      `--until-decided decides one provider's gate, and the run has ${selected.providers.length}: choose one with --provider`,
    )
  const at = (repetitions: number) => ({...selected, suite: {...selected.suite, repetitions}})
  // A dry run shows every run the plan may need: the last look's. The budget is asked before each look, not within one.
  // A mode of the gate that cannot run here stops the first look (or the dry run) before its first run.
  const gate = judgedGate(selected, options)
  const runOptions = {
    ...options,
    shard: undefined,
    budget: undefined,
    judgedGate: gate,
    gateNotice: await undersizedNotice(selected, gate),
  }
  if (options.dryRun) return {summary: await runSuite(at(plan.looks.at(-1)!), runOptions, onEvent), judgement: null}
  const confidences = lookConfidences(plan)
  // The look the rates' sized rules spend over (reliability-rules.ts), at each look and at the one the run stops at.
  const lookOf = (look: number): SequentialLook => ({looks: plan.looks, index: look, spending: plan.spending})
  const history: History = []
  let total: RunSummary | null = null
  let runId = options.runId
  // Each check's verdict, frozen at its first decisive look: later looks run for the open ones only.
  let frozen: FrozenVerdicts = {}
  for (let look = 0; look < plan.looks.length; look++) {
    const repetitions = plan.looks[look]!
    // The suite's size is said once, at the first look.
    const gateNotice = look === 0 ? runOptions.gateNotice : undefined
    const summary = await runSuite(at(repetitions), {...runOptions, runId, gateNotice}, onEvent)
    runId = summary.run_id
    total = accumulate(total, summary)
    if (summary.interrupted) return {summary: total, judgement: null}
    const {baseline, candidate} = selected.config.values.gate
    // A gate that cannot be computed here (one of its modes did not run) is the run's judgement to report.
    if (
      ![baseline, candidate].every((mode) => summary.modes.includes(mode)) ||
      summary.completed + summary.skipped.length === 0
    )
      break
    const {gate, spent} = await judgeLook(
      selected.config,
      runId,
      cwd,
      {confidence: confidences[look]!, look: lookOf(look)},
      performance.now() - started,
    )
    const merged = freezeVerdicts(gate.checks, frozen, look)
    const decision = decideLook(merged.checks, gate.comparison, {plan, look})
    const next = plan.looks[look + 1]
    const cells = (summary.runs.length + summary.skipped.length) / repetitions
    const overrun =
      next === undefined || decision.stop
        ? null
        : budgetOverrun(budget, spent, atAverage(spent, cells * (next - repetitions)), 'the next look')
    const stopped = overrun ? `budget: ${overrun}` : decision.reason
    history.push({
      look: look + 1,
      repetitions,
      confidence: confidences[look]!,
      verdict: merged.verdict,
      runs: spent.runs,
      reason: stopped,
    })
    if (decision.stop || overrun) {
      const sequential = {
        look: look + 1,
        looks: plan.looks,
        repetitions,
        spending: plan.spending,
        alpha: plan.alpha,
        stopped,
        history,
      }
      return {
        summary: total,
        judgement: await judgeRun(selected.config, summary, cwd, {
          confidence: confidences[look]!,
          look: lookOf(look),
          sequential,
          frozen,
        }),
      }
    }
    frozen = merged.frozen
  }
  return {summary: total!, judgement: await judgeRun(selected.config, total!, cwd)}
}
