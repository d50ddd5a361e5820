/**
 * Rows -> report -> gate -> verdict -> write: the one way rows become documents, for `report`, `gate`,
 * `run` (after the suite, and at each look of `run --until-decided`) and `plan` (a gate of recorded
 * rows). The rows are read once, and what happened is decided once (gate/verdict.ts): every document
 * written and the caller's exit code and last line say that verdict. A gate refused (rows not
 * comparable: bad input) still leaves the report written, with no verdict.
 */
import {loadQuarantine, type Quarantined} from '../catalogue/quarantine.js'
import {resolveConfigPath, withLayer, type LoadedConfig} from '../config/load-config.js'
import {notRunSentence, type RunInfo} from '../results/run-info.js'
import type {GateDocument} from './aggregate/report-schema.js'
import {completenessOf, RunsSeen} from './aggregate/completeness.js'
import {loadRows, type LoadedRows, type RowSelection} from './aggregate/rows.js'
import {reportOf, type Report, type ReportSettings} from './aggregate/summary.js'
import {computeGate, loadGateProfile, uncomputableGate, type GateSettings} from './gate/compute-gate.js'
import {verdictOf, type Verdict} from './gate/verdict.js'
import {writeHtmlReport} from './render/html.js'
import {gateOfSameRows, outputDir, writeGate, writeReport, type OutputOptions} from './write.js'

export interface JudgeOptions extends RowSelection, ReportSettings {
  /** Build the report (summary.*): `report` and `run` do, `gate` does not. */
  report: boolean
  /** The gate to judge; null: none (`report`; a run whose suite names no profile). */
  gate: GateSettings | null
  /** Where, and in which formats, to write; null: nothing is written (a look, a plan). */
  output: OutputOptions | null
  /**
   * With no gate of its own, the report's verdict is that of gate.json beside it when `gate` wrote it
   * from the very same rows (`report`); a run's is only its own.
   */
  gateBeside?: boolean
  /**
   * What the caller found missing when it compared the rows with their plan (merge names the shards);
   * undefined: judge compares them itself (completeness.ts).
   */
  incomplete?: string | null
}

export interface Judged {
  loaded: LoadedRows
  report: Report | null
  gate: GateDocument | null
  /** Why the gate asked for cannot be computed from these rows (a mode of it has none); null otherwise. */
  gateUncomputable: string | null
  /** What happened (gate/verdict.ts): the caller's exit code and last line. */
  verdict: Verdict
  /** What the rows lack of their run ("incomplete: …"); null when they are a whole run. */
  incomplete: string | null
  files: string[]
}

export async function judge(config: LoadedConfig, options: JudgeOptions): Promise<Judged> {
  const cwd = options.cwd
  // A profile named on the command line is the first thing to check; otherwise the rows' run may name it.
  const named = options.gate && (options.gate.profile || config.layers.flags?.gate?.profile)
  const namedProfile = named ? await loadGateProfile(config, options.gate!, cwd) : null
  const read = options.loaded ?? (await loadRows(config, options))
  // Rows missing from the run's plan, and blocks a budget left out (run.json), make the rows part of a run: never judged as the run.
  const checked =
    options.incomplete === undefined
      ? completenessOf(RunsSeen.ofAggregates(read.providers), read.runInfos)
      : {incomplete: options.incomplete, planUnknown: null, beyondPlan: null}
  // What the check notes goes with the rows' own warnings into every document (a copy: the caller's rows stay as given).
  const notes = [checked.planUnknown, checked.beyondPlan].filter((note): note is string => note !== null)
  const loaded = notes.length > 0 ? {...read, warnings: [...read.warnings, ...notes]} : read
  const judging = asTheRunDefined(config, loaded.runInfos)
  const profile = options.gate ? (namedProfile ?? (await loadGateProfile(judging, options.gate, cwd))) : null
  const output = options.output ? {...options.output, inputs: options.inputs, runId: options.runId} : null
  const quarantine = await quarantineOfRows(config, loaded, cwd)
  const report = options.report ? withQuarantine(reportOf(judging, loaded, options), quarantine) : null
  const incomplete = [checked.incomplete, notRunSentence(loaded.runInfos)].filter(Boolean).join('; ') || undefined
  const settings = {...options, ...options.gate, incomplete}
  // `report` over a run whose suite named a gate that its rows cannot compute says so, as `run` did.
  const flagged = config.layers.flags?.gate
  const runAsked =
    options.gateBeside &&
    !config.layers.suite &&
    judging.layers.suite?.gate?.profile &&
    flagged?.baseline === undefined &&
    flagged?.candidate === undefined
  const gateUncomputable = options.gate || runAsked ? uncomputableGate(judging, loaded, settings) : null
  let gate: GateDocument | null = null
  let refused: Error | null = null
  try {
    if (profile && !gateUncomputable) gate = withQuarantine(computeGate(judging, loaded, profile, settings), quarantine)
  } catch (error) {
    // Not comparable (bad input): the run's report is still written, with no verdict, then the error said.
    if (!report || !output) throw error
    refused = error as Error
  }
  const dir = report && output ? outputDir(judging, report, output) : null
  const beside = !gate && options.gateBeside && report && dir ? await gateOfSameRows(dir, report) : null
  const verdict = verdictOf({
    gate: gate ?? beside,
    gateUncomputable,
    report,
    incomplete,
    planUnknown: checked.planUnknown,
  })
  const said = {verdict: refused ? null : verdict, gate: gate ?? beside}
  const files: string[] = []
  if (report && output) files.push(...(await writeReport(judging, report, said, output)))
  if (gate && output) files.push(...(await writeGate(judging, gate, output)))
  if (report && dir && output?.formats.includes('html'))
    files.push(
      ...(await writeHtmlReport({
        dir,
        loaded,
        report,
        ...said,
        gateSource: beside ? 'from gate.json of the same rows' : undefined,
        cwd,
      })),
    )
  if (refused) throw refused
  return {loaded, report, gate, gateUncomputable, verdict, incomplete: incomplete ?? null, files}
}

/**
 * The rows of runs that all recorded the same gate (run.json) are judged as their suite defined it: that
 * gate is the suite's layer of the configuration, under the flags. A run's own judgement has its suite's
 * layer already; rows of runs that recorded none, or different ones, are judged by the configuration.
 */
function asTheRunDefined(config: LoadedConfig, runInfos: readonly RunInfo[]): LoadedConfig {
  if (config.layers.suite || runInfos.length === 0) return config
  const recorded = new Set(runInfos.map((info) => JSON.stringify(info.gate ?? null)))
  const gate = runInfos[0]!.gate
  if (recorded.size !== 1 || !gate) return config
  const {profile, baseline, candidate} = gate
  return withLayer(config, 'suite', {gate: {baseline, candidate, ...(profile === null ? {} : {profile})}})
}

/** The quarantine file's entries for the scenarios these rows hold (a file that does not parse is bad input). */
async function quarantineOfRows(config: LoadedConfig, loaded: LoadedRows, cwd?: string): Promise<Quarantined[]> {
  const entries = await loadQuarantine(resolveConfigPath(config, config.values.quarantine_file), cwd ?? process.cwd())
  if (entries.length === 0) return []
  const scenarios = new Set(
    [...loaded.providers.values()].flatMap((aggregate) =>
      [...aggregate.cells.values()].flatMap((byScenario) => [...byScenario.keys()]),
    ),
  )
  return entries.filter((entry) => scenarios.has(entry.scenario))
}

/** A document with the quarantine beside its figures (and in each provider's part): reported, never taken out. */
function withQuarantine<T extends {quarantine?: Quarantined[]; providers?: unknown}>(
  document: T,
  quarantine: Quarantined[],
): T {
  if (quarantine.length === 0) return document
  const parts = Array.isArray(document.providers)
    ? {providers: (document.providers as Array<{quarantine?: Quarantined[]}>).map((part) => ({...part, quarantine}))}
    : {}
  return {...document, quarantine, ...parts}
}
