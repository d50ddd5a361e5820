/**
 * `ghx-bench report` and `ghx-bench gate` over recorded rows. The baseline, the candidate and the
 * profile are configuration (gate.baseline, gate.candidate, gate.profile): --baseline, --candidate
 * and --profile set them as flags.
 */
import {produceRunComparison, type RunComparison, type Tolerances} from '../report/baseline-compare.js'
import {produceGate, produceReport, type GateOptions, type ReportOptions} from '../report/produce.js'
import type {GateDocument} from '../report/report-schema.js'
import type {Report} from '../report/summary.js'
import {openConfig, type ProjectOptions} from './project.js'

export type {Report} from '../report/summary.js'
export type {GateDocument} from '../report/report-schema.js'
export type {RunComparison} from '../report/baseline-compare.js'
export type {Format} from '../report/produce.js'
export type {Decision} from '../report/gate.js'

/** Which rows, where the output goes, the bootstrap: what `report` and `gate` share. */
export type RowOptions = Omit<ReportOptions, 'baseline' | 'cwd' | 'loaded'>

export interface ReportCommandOptions extends ProjectOptions, RowOptions {
  /** Also compare with a previous run (its run id, results file or folder, or a summary.json). */
  compare?: {against: string; tolerances: Tolerances}
}

export interface ReportResult {
  report: Report
  files: string[]
  comparison: {comparison: RunComparison; files: string[]} | null
}

export async function reportProject(options: ReportCommandOptions): Promise<ReportResult> {
  const config = await openConfig(options)
  const {report, files} = await produceReport(config, options)
  const comparison = options.compare ? await produceRunComparison(config, report, {...options, ...options.compare}) : null
  return {report, files, comparison}
}

export interface GateCommandOptions extends ProjectOptions, RowOptions, Pick<GateOptions, 'model' | 'decision' | 'allowMixed'> {}

export async function gateProject(options: GateCommandOptions): Promise<{gate: GateDocument; files: string[]}> {
  return produceGate(await openConfig(options), options)
}
