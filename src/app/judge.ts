/**
 * After a suite: the report over its rows and, when the suite names a gate profile, the gate (judge(),
 * src/report/judge.ts). The gate needs both of its modes in the rows; when one could not run here it is
 * skipped, with the reason.
 */
import type {LoadedConfig} from '../config/load-config.js'
import {judge} from '../report/judge.js'
import type {GateSettings} from '../report/gate/compute-gate.js'
import type {GateDocument} from '../report/aggregate/report-schema.js'
import type {Report} from '../report/aggregate/summary.js'
import type {RunSummary} from '../runner/run-suite.js'

/** A gate the suite asks for but that cannot be computed here is inconclusive: it never passes. */
const EXIT_NO_GATE = 3

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
export async function judgeRun(
  config: LoadedConfig,
  summary: RunSummary,
  cwd = process.cwd(),
  gateSettings: Pick<GateSettings, 'confidence' | 'sequential' | 'frozen' | 'incomplete'> = {},
): Promise<Judgement> {
  if (summary.completed + summary.skipped.length === 0)
    return {
      report: null,
      gate: null,
      gate_skipped: 'no rows were recorded',
      files: [],
      exit_code: summary.gate?.profile ? EXIT_NO_GATE : 0,
    }
  const {baseline, candidate} = config.values.gate
  const missing = [baseline, candidate].filter((mode) => !summary.modes.includes(mode))
  const skipped = !summary.gate?.profile
    ? 'the suite names no gate profile'
    : missing.length > 0
      ? `the gate compares ${baseline} with ${candidate}, and ${missing.map((mode) => `${mode}: ${summary.unavailable.find((u) => u.mode === mode)?.reason ?? 'not run'}`).join('; ')}`
      : null
  const {report, gate, files} = await judge(config, {
    runId: summary.run_id,
    cwd,
    report: true,
    gate: skipped ? null : gateSettings,
    output: {cwd, formats: ['md', 'json', 'html']},
  })
  const exitCode = gate ? gate.exit_code : summary.gate?.profile ? EXIT_NO_GATE : 0
  return {report, gate, gate_skipped: skipped, files, exit_code: exitCode}
}
