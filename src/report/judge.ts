/**
 * Rows -> report -> gate -> write: the one way rows become documents, for `report`, `gate`, `run`
 * (after the suite, and at each look of `run --until-decided`) and `plan` (a gate of recorded rows).
 * The rows are read once. The report (summary.*) and the gate (gate.*) are each written as soon as it
 * is computed, so that a gate refused (rows not comparable) leaves the run's report written;
 * summary.html, which shows the gate's checks too, is written last.
 */
import {loadQuarantine, type Quarantined} from '../catalogue/quarantine.js'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import type {GateDocument} from './aggregate/report-schema.js'
import {loadRows, type LoadedRows, type RowSelection} from './aggregate/rows.js'
import {reportOf, type Report, type ReportSettings} from './aggregate/summary.js'
import {computeGate, loadGateProfile, type GateSettings} from './gate/compute-gate.js'
import {writeHtmlReport} from './render/html.js'
import {outputDir, writeGate, writeReport, type OutputOptions} from './write.js'

export interface JudgeOptions extends RowSelection, ReportSettings {
  /** Build the report (summary.*): `report` and `run` do, `gate` does not. */
  report: boolean
  /** The gate to judge; null: none (`report`; a run whose suite names no profile, or cannot gate). */
  gate: GateSettings | null
  /** Where, and in which formats, to write; null: nothing is written (a look, a plan). */
  output: OutputOptions | null
  /**
   * With no gate of its own, summary.html shows gate.json beside it when `gate` wrote it from the very
   * same rows (`report`); a run shows only its own.
   */
  gateBeside?: boolean
}

export interface Judged {
  loaded: LoadedRows
  report: Report | null
  gate: GateDocument | null
  files: string[]
}

export async function judge(config: LoadedConfig, options: JudgeOptions): Promise<Judged> {
  // The profile before the rows: a profile that does not exist is the first thing to say.
  const profile = options.gate ? await loadGateProfile(config, options.gate, options.cwd) : null
  const loaded = options.loaded ?? (await loadRows(config, options))
  const output = options.output ? {...options.output, inputs: options.inputs, runId: options.runId} : null
  const files: string[] = []
  const quarantine = await quarantineOfRows(config, loaded, options.cwd)
  const report = options.report ? withQuarantine(reportOf(config, loaded, options), quarantine) : null
  if (report && output) files.push(...(await writeReport(config, report, output)))
  const gate =
    options.gate && profile
      ? withQuarantine(computeGate(config, loaded, profile, {...options, ...options.gate}), quarantine)
      : null
  if (gate && output) files.push(...(await writeGate(config, gate, output)))
  if (report && output?.formats.includes('html')) {
    const dir = outputDir(config, report, output)
    files.push(
      ...(await writeHtmlReport({
        dir,
        loaded,
        report,
        gate: gate ?? (options.gateBeside ? undefined : null),
        cwd: options.cwd,
      })),
    )
  }
  return {loaded, report, gate, files}
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
