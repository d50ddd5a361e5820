/**
 * Rows -> report -> gate -> write: the one way rows become documents, for `report`, `gate`, `run`
 * (after the suite, and at each look of `run --until-decided`) and `plan` (a gate of recorded rows).
 * The rows are read once. The report (summary.*) and the gate (gate.*) are each written as soon as it
 * is computed, so that a gate refused (rows not comparable) leaves the run's report written;
 * summary.html, which shows the gate's checks too, is written last.
 */
import path from 'node:path'
import type {LoadedConfig} from '../config/load-config.js'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {writeHtmlReport} from './html.js'
import {renderJunit} from './junit.js'
import {renderGateMarkdown, renderReportMarkdown} from './markdown.js'
import {computeGate, loadGateProfile, loadRows, outputDir, reportOf, writeOutputs, type GateSettings, type LoadedRows, type OutputOptions, type ReportSettings, type RowSelection} from './produce.js'
import type {GateDocument} from './report-schema.js'
import type {Report} from './summary.js'

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
  const where = {...options.output!, inputs: options.inputs, runId: options.runId}
  const files: string[] = []
  const report = options.report ? reportOf(config, loaded, options) : null
  if (report && options.output) {
    const dir = outputDir(config, report, where)
    files.push(...(await writeOutputs(dir, 'summary', report, renderReportMarkdown(report), options.output)))
    if (options.output.formats.includes('junit')) {
      files.push(path.join(dir, 'junit.xml'))
      await writeFileAtomic(files.at(-1)!, renderJunit(report))
    }
  }
  const gate = options.gate && profile ? computeGate(config, loaded, profile, {...options, ...options.gate}) : null
  if (gate && options.output) files.push(...(await writeOutputs(outputDir(config, gate, where), 'gate', gate, renderGateMarkdown(gate), options.output)))
  if (report && options.output?.formats.includes('html')) {
    files.push(...(await writeHtmlReport({dir: outputDir(config, report, where), loaded, report, gate: gate ?? (options.gateBeside ? undefined : null), cwd: options.cwd})))
  }
  return {loaded, report, gate, files}
}
