/**
 * After a suite: the report over its rows and, when the suite names a gate profile, the gate, and the
 * verdict of both (judge(), src/report/judge.ts): a gate whose mode could not run here is inconclusive,
 * with the reason; with no gate, the runs decide.
 */
import type {LoadedConfig} from '../config/load-config.js'
import {judge} from '../report/judge.js'
import type {GateSettings} from '../report/gate/compute-gate.js'
import {verdictOf, type Verdict} from '../report/gate/verdict.js'
import {notRunSentence} from '../results/run-info.js'
import type {GateDocument} from '../report/aggregate/report-schema.js'
import type {LoadedRows} from '../report/aggregate/rows.js'
import type {Report} from '../report/aggregate/summary.js'
import type {RunSummary} from '../runner/run-suite.js'

export interface Judgement {
  report: Report | null
  gate: GateDocument | null
  /** What happened: the exit code (0 pass, 1 fail, 3 inconclusive) and the last line. */
  verdict: Verdict
  files: string[]
}

/**
 * `config` is the suite's (its gate selection a layer of it): baseline and candidate come from it.
 * `gateSettings`: run --until-decided's look (its confidence and sequential record) for the gate.
 * `loaded`: the run's rows already aggregated (`merge` does as it writes them); otherwise they are read.
 * `incomplete`: what the caller found missing against the run's plan (`merge`, by shard); undefined: judged from run.json.
 */
export async function judgeRun(
  config: LoadedConfig,
  summary: RunSummary,
  cwd = process.cwd(),
  gateSettings: Pick<GateSettings, 'confidence' | 'look' | 'sequential' | 'frozen'> = {},
  loaded?: LoadedRows,
  incomplete?: string | null,
): Promise<Judgement> {
  const gated = Boolean(summary.gate?.profile)
  if (summary.completed + summary.skipped.length === 0)
    return {
      report: null,
      gate: null,
      verdict: verdictOf({
        gate: null,
        gateUncomputable: gated ? 'no rows were recorded' : null,
        report: null,
        incomplete: notRunSentence([summary]) ?? undefined,
      }),
      files: [],
    }
  const {report, gate, verdict, files} = await judge(config, {
    runId: summary.run_id,
    cwd,
    loaded,
    incomplete,
    report: true,
    gate: gated ? gateSettings : null,
    output: {cwd, formats: ['md', 'json', 'junit', 'html']},
  })
  return {report, gate, verdict, files}
}
