/**
 * `ghx-bench run SUITE`: open the project with the suite, select it (flags applied), run it
 * (src/runner/run-suite.ts), then report and, when the suite names a profile, gate (judge.ts). A gate
 * whose mode cannot run here stops the run before its first run (bad input), unless --no-gate.
 */
import {existsSync} from 'node:fs'
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {hasBudget, parseBudget, type Budget} from '../results/budget.js'
import {runSuite, type RunOptions, type RunSummary, type SuiteEvent} from '../runner/run-suite.js'
import {selectSuite, type SelectedSuite, type SuiteSelection} from '../runner/select-suite.js'
import {parseShardSpec} from '../runner/shard.js'
import {BadInputError, suggestionSuffix} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {judgeRun, type Judgement} from './judge.js'
import {openProject, type ProjectOptions} from './project.js'

export type {SuiteEvent} from '../runner/run-suite.js'
export {parseShardSpec} from '../runner/shard.js'

export interface RunSuiteOptions
  extends
    ProjectOptions,
    Omit<SuiteSelection, 'suite'>,
    Omit<RunOptions, 'shard' | 'budget' | 'judgedGate' | 'gateNotice'> {
  suitePath: string
  /** --budget as given: runs=N, tokens=N, cost=USD, time=DURATION, each alone or comma-separated. */
  budget?: string[]
  /** Record rows only: no report, no gate. */
  noReport?: boolean
  /** --shard i/N: this machine's shard of the plan; --shard-weights: a previous run's results, to balance them. */
  shard?: string
  shardWeights?: string
}

export interface RunResult {
  summary: RunSummary
  /** The report and the gate; null after a dry run, an interruption or a stop, with noReport, or for a shard. */
  judgement: Judgement | null
}

/** --budget's text as a budget (undefined when none is given); bad input names the flag. */
export function parseBudgetFlag(items: readonly string[] | undefined): Budget {
  const budget = parseBudget(items ?? [])
  if (typeof budget === 'string') throw new BadInputError([{file: '--budget', code: 'config', message: budget}])
  return budget
}

/**
 * The gate the run's rows will be judged by: the suite's profile, baseline and candidate (its gate a layer
 * of the configuration), unless the run judges none (the suite names no profile, --no-gate, --no-report).
 * A shard's rows are judged by the merge, with the suite's gate: it is a shard's gate too.
 */
export function judgedGate(selected: SelectedSuite, options: Pick<RunSuiteOptions, 'noGate' | 'noReport'>) {
  const profile = selected.suite.gate?.profile
  if (!profile || options.noGate || options.noReport) return undefined
  const {baseline, candidate} = selected.config.values.gate
  return {profile, baseline, candidate}
}

/**
 * What the run says at its start, once its gate's modes are known to run, when the suite is smaller than
 * its profile needs for a good candidate to pass 80% of the time (power.ts, the planner's figure): a team
 * sees before spending the runs what a verdict of this size can tell.
 */
export async function undersizedNotice(
  selected: SelectedSuite,
  gate: ReturnType<typeof judgedGate>,
): Promise<string | undefined> {
  const profile = gate && selected.catalogue.profiles.get(gate.profile)?.value
  if (!profile || profile.decision !== 'ci') return undefined
  const {undersizedSuiteWarning} = await import('../report/gate/power.js')
  return (
    undersizedSuiteWarning(selected.suite.name, profile, selected.scenarios.length, selected.suite.repetitions) ??
    undefined
  )
}

/** The project opened with the suite's file, and the suite selected (flags applied). */
export async function openSuite(options: RunSuiteOptions): Promise<SelectedSuite> {
  const cwd = options.cwd ?? process.cwd()
  const suiteFile = path.resolve(cwd, options.suitePath)
  if (!existsSync(suiteFile))
    throw new BadInputError([
      {
        file: displayPath(suiteFile, cwd),
        code: 'io',
        message: `no such suite file${await nearbySuite(suiteFile, cwd)}`,
      },
    ])
  const project = await openProject({...options, extraFiles: [suiteFile]})
  return selectSuite(project, options)
}

/** " (did you mean …?)" naming the YAML file of the folder given (or of suites/) closest to a missing suite file. */
async function nearbySuite(suiteFile: string, cwd: string): Promise<string> {
  const folders = [...new Set([path.dirname(suiteFile), path.join(cwd, 'suites')])]
  const files = (
    await Promise.all(
      folders.map(async (folder) =>
        (await readdir(folder).catch(() => []))
          .filter((name) => /\.ya?ml$/.test(name))
          .map((name) => displayPath(path.join(folder, name), cwd)),
      ),
    )
  ).flat()
  return suggestionSuffix(displayPath(suiteFile, cwd), files)
}

export async function runProjectSuite(
  options: RunSuiteOptions,
  onEvent?: (event: SuiteEvent) => void,
): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd()
  const shard =
    options.shard === undefined ? undefined : {spec: parseShardSpec(options.shard), weights: options.shardWeights}
  if (options.shardWeights !== undefined && !shard)
    throw new BadInputError([
      {file: '--shard-weights', code: 'config', message: 'balances shards: give --shard i/N with it'},
    ])
  // Shards are merged by their run id: each of its own would make N runs of one.
  if (shard && !options.runId && !options.dryRun)
    throw new BadInputError([
      {file: '--shard', code: 'config', message: 'give every shard of the run the same --run-id, to merge them'},
    ])
  const budget = parseBudgetFlag(options.budget)
  const selected = await openSuite(options)
  const gate = judgedGate(selected, options)
  const summary = await runSuite(
    selected,
    {
      ...options,
      shard,
      budget: hasBudget(budget) ? budget : undefined,
      judgedGate: gate,
      gateNotice: await undersizedNotice(selected, gate),
    },
    onEvent,
  )
  // A shard holds part of the rows: `merge` reports and gates the union of the shards.
  const judgement =
    options.dryRun || summary.interrupted || summary.stopped || options.noReport || shard
      ? null
      : await judgeRun(selected.config, summary, cwd)
  return {summary, judgement}
}
