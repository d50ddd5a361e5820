/**
 * `ghx-bench regrade`: judge stored runs again with the scenarios' current checkpoint conditions,
 * against the task results the rows kept — no GitHub needed. For fixing a checkpoint after the fact
 * (the predecessors' trivially true ones, say) without re-running agents. The verdict is the one a
 * run gives (src/verify/verdict.ts): the same rows and the same conditions give the same verdict.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import type {Catalogue} from '../catalogue/catalogue.js'
import {resolveConfigPath} from '../config/load-config.js'
import type {PluginRegistry} from '../plugins/registry.js'
import {readLineBatches} from '../results/lines.js'
import {isRegradedFile, originalFileFor, regradedFileFor} from '../results/regraded.js'
import type {Row} from '../results/row-schema.js'
import {planOfResultsFile} from '../results/run-info.js'
import {completenessOf, RunsSeen} from '../report/aggregate/completeness.js'
import {checkpointsOf} from '../schemas/scenario.js'
import {readRows, resolveInputFiles} from '../results/sources.js'
import {checkWritable, writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {regradeCheckpoint} from '../verify/checkpoints.js'
import {stopOf, verdictOf, type Verdict} from '../verify/verdict.js'
import {openProject, type ProjectOptions} from './project.js'

/**
 * The verdict fields of a row: a change in any of them is a changed verdict (the error by its type:
 * another list of failed checkpoints in its message is a change of checkpoints, not of verdict).
 */
const VERDICT_FIELDS = ['outcome', 'success', 'output_valid', 'error'] as const satisfies ReadonlyArray<keyof Verdict>
const verdictValue = (
  verdict: Pick<Row, (typeof VERDICT_FIELDS)[number]>,
  field: (typeof VERDICT_FIELDS)[number],
): unknown => (field === 'error' ? (verdict.error?.type ?? null) : verdict[field])

interface RegradeChange {
  run_id: string
  scenario_id: string
  mode: string
  iteration: number
  /** success before and after. */
  before: boolean
  after: boolean
  /** The verdict fields that changed (outcome, success, output_valid, error type); empty when only checkpoints did. */
  fields: Array<(typeof VERDICT_FIELDS)[number]>
  checkpoints: Array<{name: string; before: boolean; after: boolean; message: string}>
}

export interface RegradeReport {
  rows: number
  regraded: number
  /** Rows that could not be re-graded: no scenario, no stored results or variables, no verdict (timeout, infrastructure). */
  skipped: number
  /** Rows whose verdict changed. */
  changed: RegradeChange[]
  /** Rows whose checkpoint results changed while their verdict stayed. */
  checkpoints_changed: RegradeChange[]
  file: string
  /** What the rows lack of their run (completeness.ts): re-graded all the same, and said (exit 3); null when whole. */
  incomplete: string | null
}

export interface RegradeOptions extends ProjectOptions {
  inputs?: string[]
  runId?: string
  out?: string
}

export async function regrade(options: RegradeOptions): Promise<RegradeReport> {
  const {config, catalogue, registry, cwd} = await openProject(options)
  const resolved = await resolveInputFiles({
    inputs: options.inputs,
    runId: options.runId,
    resultsDir: resolveConfigPath(config, config.values.results_dir),
    cwd,
  })
  // A run's earlier re-grading is judged from its original rows again (the stored results are the same).
  const files = resolved.filter((file) => !resolved.includes(originalFileFor(file) ?? ''))
  // <run>.regraded.jsonl beside the run's rows: the report and the gate read it in place of the originals.
  const out = path.resolve(cwd, options.out ?? regradedFileFor(files[0]!))
  checkWritable(out, 'file', {cwd})
  await refuseAnotherRunsFile(out, cwd)
  const report: RegradeReport = {
    rows: 0,
    regraded: 0,
    skipped: 0,
    changed: [],
    checkpoints_changed: [],
    file: displayPath(out, cwd),
    incomplete: null,
  }
  const seen = new RunsSeen()
  async function* regradedLines(): AsyncGenerator<string> {
    let pending = ''
    for await (const row of readRows(files, () => {}, cwd)) {
      report.rows++
      seen.add(row)
      const next = regradeRow(row, catalogue, registry)
      if (!next) report.skipped++
      else {
        report.regraded++
        if (next.change?.fields.length) report.changed.push(next.change)
        else if (next.change) report.checkpoints_changed.push(next.change)
      }
      pending += JSON.stringify(next?.row ?? row) + '\n'
      if (pending.length >= WRITE_CHUNK) {
        yield pending
        pending = ''
      }
    }
    if (report.rows === 0)
      throw new BadInputError(
        files.map((file) => ({file: displayPath(file, cwd), code: 'io', message: 'holds no rows'})),
      )
    yield pending
  }
  // Written aside and renamed at the end: the output may be one of the inputs, and a half-written file is never read.
  // A bad input row (file:line, exit 2) or any other failure leaves no partial file behind.
  await writeFileAtomic(out, regradedLines())
  const plans = await Promise.all(files.map((file) => planOfResultsFile(originalFileFor(file) ?? file)))
  report.incomplete = completenessOf(
    seen,
    plans.filter((plan) => plan !== undefined),
  ).incomplete
  return report
}

/** Rows are written in chunks of about this many characters. */
const WRITE_CHUNK = 1 << 20

/**
 * The output replaces an earlier re-grading of the same run, never another run's rows: a run named
 * X.regraded by a version that allowed it has its rows where `regrade` of X writes (the first row's
 * run id tells them apart).
 */
async function refuseAnotherRunsFile(out: string, cwd: string): Promise<void> {
  if (!isRegradedFile(out) || !existsSync(out)) return
  let runId: unknown
  for await (const [first] of readLineBatches(out)) {
    if (!first) continue
    try {
      runId = (JSON.parse(first.text) as {run_id?: unknown}).run_id
    } catch {
      return
    }
    break
  }
  if (runId !== path.basename(out, '.jsonl')) return
  throw new BadInputError([
    {
      file: displayPath(out, cwd),
      line: 1,
      col: 1,
      code: 'io',
      message: `holds the rows of run ${JSON.stringify(runId)}, not re-graded rows: regrade would overwrite them; pass --out to write the re-graded rows elsewhere`,
    },
  ])
}

/**
 * A row judged again from its stored task results; undefined when it cannot be. An atomic row keeps
 * its envelope's verdict (the answer itself is judged again only through its checkpoints, which read
 * it from the stored variables).
 */
function regradeRow(
  row: Row,
  catalogue: Catalogue,
  registry: PluginRegistry,
): {row: Row; change?: RegradeChange} | undefined {
  const scenario = catalogue.scenarios.get(row.scenario_id)?.value
  if (!scenario || !row.variables || row.outcome === 'infra_error' || row.outcome === 'timeout') return undefined
  const stored = new Map(row.checkpoints.map((c) => [c.name, c]))
  const expected = checkpointsOf(scenario)
  if (expected.some((c) => !stored.has(c.name) || !('result' in stored.get(c.name)!))) return undefined
  const checkpoints = expected.map((checkpoint) => {
    const previous = stored.get(checkpoint.name)!
    const judged = regradeCheckpoint(
      checkpoint,
      {result: previous.result},
      registry,
      row.variables as Record<string, unknown>,
    )
    return {
      ...previous,
      passed: judged.passed,
      expected: judged.expected,
      actual: judged.actual,
      message: judged.message,
    }
  })
  // What stopped the agent (its plan failed, a limit) still stands: the checks cannot undo it.
  const assertion =
    scenario.type === 'atomic'
      ? {
          passed: row.error?.type !== 'assertion_failed',
          output_valid: row.output_valid,
          message: row.error?.message ?? null,
        }
      : undefined
  const verdict = verdictOf({scenario, stop: stopOf(row), assertion, checkpoints})
  const next: Row = {...row, checkpoints, ...verdict, expected_outcome: scenario.assertions.expected_outcome}
  const fields = VERDICT_FIELDS.filter((field) => verdictValue(row, field) !== verdictValue(verdict, field))
  const changedCheckpoints = checkpoints
    .map((c) => ({name: c.name, before: stored.get(c.name)!.passed, after: c.passed, message: c.message ?? ''}))
    .filter((c) => c.before !== c.after)
  const change =
    fields.length > 0 || changedCheckpoints.length > 0
      ? {
          run_id: row.run_id,
          scenario_id: row.scenario_id,
          mode: row.mode,
          iteration: row.iteration,
          before: row.success,
          after: verdict.success,
          fields,
          checkpoints: changedCheckpoints,
        }
      : undefined
  return {row: next, change}
}
