/**
 * What a run knew beyond its rows, kept beside them as results_dir/<run-id>/run.json: the plan's
 * seed and providers, the modes left out (not available here) and the scenario x mode pairs that are not
 * applicable. The report and the gate read it, so a mode that cannot solve a scenario is shown as
 * not applicable and left out of the comparison, never counted as a failure.
 */
import path from 'node:path'
import {readFileBelow, writeFileBelow} from './no-follow.js'
import {shardHeaderOf} from './shard-file.js'
import {BadInputError, isBadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import type {ComparabilityKey} from '../schemas/shard-header.js'

export interface NotApplicable {
  scenario_id: string
  mode: string
  reason: string
}

export interface RunInfo {
  run_id: string
  suite: string | null
  seed: number
  modes: string[]
  /** The providers every run was played under (absent in run.json files written before a run had several). */
  providers?: string[]
  unavailable: Array<{mode: string; reason: string}>
  not_applicable: NotApplicable[]
  /**
   * The gate as the run's suite defined it (its layer of the configuration resolved): `gate` and
   * `report` over this run judge it so. profile null: the suite names none. Absent in older run.json files.
   */
  gate?: {profile: string | null; baseline: string; candidate: string}
  /** What another run must agree on to be compared with this one (src/runner/shard.ts); absent in older run.json files. */
  key?: ComparabilityKey
  /**
   * The paired blocks (scenario/iteration, all modes and providers) the run planned and did not start,
   * and why: the run is incomplete (the report and the gate say so, exit 3), never failed. Absent: none.
   */
  not_run?: NotRun
  /** The suite's file as the run was started with it (relative to the project): the command that resumes it names it. */
  suite_file?: string
  /** A shard's record (`run --shard i/N`): its rows are part of the run until `merge` joins every shard's. */
  shard?: {index: number; count: number}
  /**
   * Why the run ended before its plan was done: Ctrl-C (`interrupted`) or live GitHub's rate budget
   * (`rate_budget`). Written when it happens; a resumed run's record starts without it.
   */
  stopped?: {reason: 'interrupted' | 'rate_budget'; detail: string}
}

export interface NotRun {
  reason: 'budget'
  /** The budget as given (tokens=50000,time=15m). */
  budget: string
  /** Why the first block left out would have overrun it. */
  detail: string
  /** The blocks of the run's plan, and those of them not run. */
  planned_blocks: number
  blocks: string[]
}

/** "incomplete: 4 of 18 blocks not run (budget tokens=50000: the next block would …)"; null when none. */
export function notRunSentence(infos: ReadonlyArray<{run_id: string; not_run?: NotRun | null}>): string | null {
  const sentences = infos.flatMap(({run_id, not_run: n}) =>
    n && n.blocks.length > 0
      ? [`${n.blocks.length} of ${n.planned_blocks} blocks of run ${run_id} not run (budget ${n.budget}: ${n.detail})`]
      : [],
  )
  return sentences.length > 0 ? `incomplete: ${sentences.join('; ')}` : null
}

function runInfoFile(resultsDir: string, runId: string): string {
  return path.join(resultsDir, runId, 'run.json')
}

/** Beside the run's record: <record name>.jsonl and <record name>/run.json (a shard's record name is not its run id). */
export async function writeRunInfo(resultsDir: string, recordName: string, info: RunInfo): Promise<void> {
  await writeFileBelow(resultsDir, runInfoFile(resultsDir, recordName), JSON.stringify(info, null, 2) + '\n')
}

/** The run info beside a results file (<dir>/<run-id>.jsonl -> <dir>/<run-id>/run.json), when there is one; never through a link. */
export async function readRunInfoFor(resultsFile: string): Promise<RunInfo | undefined> {
  if (!resultsFile.endsWith('.jsonl')) return undefined
  const file = runInfoFile(path.dirname(resultsFile), path.basename(resultsFile, '.jsonl'))
  const text = await readFileBelow(path.dirname(resultsFile), file).catch((error: Error) => {
    if (isBadInputError(error)) throw error
    return undefined
  })
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw notARunInfo(file, `not JSON (${(error as Error).message})`)
  }
  const problem = runInfoProblem(value)
  if (problem) throw notARunInfo(file, problem)
  return value as RunInfo
}

/** Bad input naming a run.json that is not one ghx-bench wrote: its plan would judge the rows. */
function notARunInfo(file: string, problem: string): BadInputError {
  return new BadInputError([
    {
      file: displayPath(file),
      code: 'schema',
      message: `not a run.json of ghx-bench: ${problem}; restore it, or remove it to judge the rows without their plan`,
    },
  ])
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
const isListOf = (value: unknown, fields: readonly string[]): boolean =>
  Array.isArray(value) && value.every((item) => isObject(item) && fields.every((f) => typeof item[f] === 'string'))

/** What a run.json lacks of the fields its readers use (the plan above all); null when it has them. */
function runInfoProblem(value: unknown): string | null {
  if (!isObject(value)) return `it is ${Array.isArray(value) ? 'an array' : typeof value}, not an object`
  if (typeof value.run_id !== 'string') return 'run_id is not a string'
  if (!isStrings(value.modes)) return 'modes is not a list of names'
  if (!isListOf(value.unavailable, ['mode', 'reason'])) return 'unavailable is not a list of {mode, reason}'
  if (!isListOf(value.not_applicable, ['scenario_id', 'mode', 'reason']))
    return 'not_applicable is not a list of {scenario_id, mode, reason}'
  const {key, not_run: notRun} = value
  if (key !== undefined) {
    if (!isObject(key)) return 'key is not an object'
    if (!isStrings(key.scenarios) || !isStrings(key.providers))
      return 'key.scenarios or key.providers is not a list of names'
    // A suite runs at most 1000 repetitions (schemas/suite.ts): a larger plan is no run's.
    if (!Number.isInteger(key.repetitions) || (key.repetitions as number) < 1 || (key.repetitions as number) > 1000)
      return 'key.repetitions is not a whole number from 1 to 1000'
    if (!isObject(key.modes)) return 'key.modes is not an object'
  }
  if (notRun !== undefined && (!isObject(notRun) || !isStrings(notRun.blocks)))
    return 'not_run.blocks is not a list of blocks'
  return null
}

/** Scenario ids not applicable to any of the given modes, with the reasons. */
export function notApplicableTo(items: readonly NotApplicable[], modes: readonly string[]): Map<string, string> {
  const excluded = new Map<string, string>()
  for (const item of items)
    if (modes.includes(item.mode)) excluded.set(item.scenario_id, `${item.mode}: ${item.reason}`)
  return excluded
}

/**
 * What a results file's run planned: its run.json; a shard's file says it is one, and its plan, in its
 * header too (so a shard's rows are never judged as the whole run, with or without its run.json).
 */
export async function planOfResultsFile(file: string): Promise<RunInfo | undefined> {
  const [info, header] = await Promise.all([readRunInfoFor(file), shardHeaderOf(file)])
  if (!header) return info
  const {run_id, key, shard, unavailable, not_applicable} = header
  return {
    run_id,
    suite: key.suite,
    seed: key.seed,
    modes: Object.keys(key.modes),
    providers: key.providers,
    unavailable,
    not_applicable,
    ...info,
    key,
    shard,
  }
}
