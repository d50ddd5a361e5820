/**
 * `ghx-bench report` and `ghx-bench gate` over recorded rows (judge(), src/report/judge.ts). The
 * baseline, the candidate and the profile are configuration (gate.baseline, gate.candidate,
 * gate.profile): --baseline, --candidate and --profile set them as flags, over the gate the rows' run
 * recorded (its suite's), over the configuration file's.
 */
import {produceRunComparison, type RunComparison, type Tolerances} from '../report/baseline-compare.js'
import {judge} from '../report/judge.js'
import type {RowSelection} from '../report/aggregate/rows.js'
import type {ReportSettings} from '../report/aggregate/summary.js'
import type {GateSettings} from '../report/gate/compute-gate.js'
import type {OutputOptions} from '../report/write.js'
import type {GateDocument} from '../report/aggregate/report-schema.js'
import type {Report} from '../report/aggregate/summary.js'
import type {Verdict} from '../report/gate/verdict.js'
import {openConfig, type ProjectOptions} from './project.js'

export type {Report} from '../report/aggregate/summary.js'
export type {GateDocument} from '../report/aggregate/report-schema.js'
export type {Verdict} from '../report/gate/verdict.js'

export type {Format} from '../report/write.js'

/** Which rows, where the output goes, the bootstrap: what `report` and `gate` share. */
export interface RowOptions
  extends Omit<RowSelection, 'cwd' | 'loaded'>, Omit<OutputOptions, 'cwd'>, Omit<ReportSettings, 'baseline'> {}

export interface ReportCommandOptions extends ProjectOptions, RowOptions {
  /** Also compare with a previous run (its run id, results file or folder, or a summary.json). */
  compare?: {against: string; tolerances: Tolerances; allowIncomparable?: boolean}
}

export interface ReportResult {
  report: Report
  files: string[]
  /** What the rows lack of their run ("incomplete: …", exit 3), null when they are a whole run. */
  incomplete: string | null
  comparison: {comparison: RunComparison; files: string[]} | null
}

export async function reportProject(options: ReportCommandOptions): Promise<ReportResult> {
  const config = await openConfig(options)
  const judged = await judge(config, {...options, report: true, gate: null, gateBeside: true, output: options})
  const report = judged.report!
  const comparison = options.compare
    ? await produceRunComparison(config, report, judged.loaded, {...options, ...options.compare})
    : null
  return {report, files: judged.files, comparison, incomplete: judged.incomplete}
}

export interface GateCommandOptions
  extends ProjectOptions, RowOptions, Pick<GateSettings, 'model' | 'decision' | 'allowMixed'> {}

/** The gate of the rows, and the verdict: the gate's, or why the gate asked for cannot be computed (no gate document). */
export async function gateProject(
  options: GateCommandOptions,
): Promise<{gate: GateDocument | null; verdict: Verdict; files: string[]}> {
  const {model, decision, allowMixed} = options
  const {gate, verdict, files} = await judge(await openConfig(options), {
    ...options,
    report: false,
    gate: {model, decision, allowMixed},
    output: options,
  })
  return {gate, verdict, files}
}
