/**
 * After a suite: the report over its rows and, when the suite names a gate profile, the gate. The
 * gate needs both of its modes in the rows; when one could not run here it is skipped, with the reason.
 * summary.html, which shows the gate's checks too, is written last.
 */
import type {LoadedConfig} from '../config/load-config.js'
import {writeHtmlReport} from '../report/html.js'
import {loadRows, outputDir, produceGate, produceReport, type GateOptions} from '../report/produce.js'
import type {GateDocument} from '../report/report-schema.js'
import type {Report} from '../report/summary.js'
import type {RunSummary} from '../runner/run-suite.js'

/** A gate the suite asks for but that cannot be computed here is inconclusive: it never passes. */
export const EXIT_NO_GATE = 3

export interface Judgement {
  report: Report | null
  gate: GateDocument | null
  /** Why there is no gate, when there is none. */
  gate_skipped: string | null
  files: string[]
  /**
   * The gate's exit code (0 pass, 1 fail, 3 inconclusive); 0 when the suite names no gate; 3 when it
   * names one that cannot be computed here (a mode of it could not run, no rows): never a pass.
   */
  exit_code: number
}

/**
 * `config` is the suite's (its gate selection a layer of it): baseline and candidate come from it.
 * `gateOptions`: run --until-decided's look (its confidence and sequential record) for the gate.
 */
export async function judgeRun(config: LoadedConfig, summary: RunSummary, cwd = process.cwd(), gateOptions: Pick<GateOptions, 'confidence' | 'sequential' | 'frozen'> = {}): Promise<Judgement> {
  const formats: Array<'md' | 'json'> = ['md', 'json']
  const selection = {runId: summary.run_id, cwd, formats}
  if (summary.completed + summary.skipped.length === 0) return {report: null, gate: null, gate_skipped: 'no rows were recorded', files: [], exit_code: summary.gate?.profile ? EXIT_NO_GATE : 0}
  const {baseline, candidate} = config.values.gate
  const loaded = await loadRows(config, selection)
  const {report, files} = await produceReport(config, {...selection, loaded})
  const html = (gate: GateDocument | null) => writeHtmlReport({dir: outputDir(config, report, selection), loaded, report, gate, cwd})
  if (!summary.gate?.profile) return {report, gate: null, gate_skipped: 'the suite names no gate profile', files: [...files, ...(await html(null))], exit_code: 0}
  const missing = [baseline, candidate].filter((mode) => !summary.modes.includes(mode))
  if (missing.length > 0) {
    const reasons = missing.map((mode) => `${mode}: ${summary.unavailable.find((u) => u.mode === mode)?.reason ?? 'not run'}`)
    return {report, gate: null, gate_skipped: `the gate compares ${baseline} with ${candidate}, and ${reasons.join('; ')}`, files: [...files, ...(await html(null))], exit_code: EXIT_NO_GATE}
  }
  const {gate, files: gateFiles} = await produceGate(config, {...selection, loaded, ...gateOptions})
  return {report, gate, gate_skipped: null, files: [...files, ...gateFiles, ...(await html(gate))], exit_code: gate.exit_code}
}
