/**
 * What happened, decided once: the verdict of a set of rows that every output says the same way (the
 * terminal's last line, the exit code, summary.md's and summary.html's headline, junit.xml). The rule:
 * - a gate was computed: its verdict (0 pass, 1 fail, 3 inconclusive);
 * - a gate was asked for (by the suite, the configuration or the run recorded) and cannot be computed
 *   from these rows: inconclusive (3), with the reason; never a pass;
 * - no gate: the runs decide, as a test runner's tests do: fail (1) when any run failed, else pass (0);
 * - no rows at all: inconclusive (3): nothing was decided;
 * - whatever the above, the rows are part of a run (shards missing, a run cut short, rows missing from
 *   the plan, blocks a budget left out): inconclusive (3), saying what is missing; never a pass, and
 *   never a failure the missing runs may undo. Rows whose plan is unknown are judged, the verdict saying so.
 */
import type {GateDocument} from '../aggregate/report-schema.js'
import type {Report} from '../aggregate/summary.js'
import {EXIT_CODES} from './gate.js'

export interface Verdict {
  verdict: 'pass' | 'fail' | 'inconclusive'
  exit_code: 0 | 1 | 3
  /** What decided: the gate asked for (computed or not), or, with none, the runs. */
  by: 'gate' | 'runs'
  /** Why, in one clause: the gate's checks, why the gate cannot be computed, or the runs' count. */
  reason: string
}

/** The rows' runs that did not pass (fail, timeout, infra error), every provider's, n/a pairs left out. */
function failedRuns(report: Pick<Report, 'failures' | 'providers'>): number {
  if (report.providers?.length) return report.providers.reduce((n, part) => n + failedRuns(part), 0)
  return report.failures?.failed_runs ?? 0
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`

function gateReason(gate: GateDocument): string {
  const checks = gate.checks.filter((c) => c.verdict !== 'skipped')
  const failed = checks.filter((c) => c.verdict === 'fail').length
  const inconclusive = checks.filter((c) => c.verdict === 'inconclusive').length
  const counts =
    failed + inconclusive === 0
      ? `all ${checks.length} checks passed`
      : [failed > 0 ? `${failed} failed` : '', inconclusive > 0 ? `${inconclusive} inconclusive` : '']
          .filter(Boolean)
          .join(', ') + ` of ${checks.length} checks`
  const of = gate.providers?.length ? ` (the worst of ${gate.providers.length} providers' gates)` : ''
  return `gate ${gate.profile}, ${gate.candidate} against ${gate.baseline}: ${counts}${of}`
}

/**
 * The verdict of a judgement. `gate`: the gate computed, if any; `gateUncomputable`: why the gate asked
 * for cannot be computed; `report`: the rows' report (the runs decide when there is no gate).
 */
export function verdictOf(judged: {
  gate: GateDocument | null
  gateUncomputable: string | null
  report: Pick<Report, 'rows' | 'failures' | 'providers'> | null
  /** What the rows lack of their run ("incomplete: …"), if anything. */
  incomplete?: string
  /** Runs whose plan is unknown (completeness checked across modes only): said with the verdict. */
  planUnknown?: string | null
}): Verdict {
  const verdict = decide(judged)
  return judged.planUnknown && !judged.incomplete
    ? {...verdict, reason: `${verdict.reason} (${judged.planUnknown})`}
    : verdict
}

function decide(judged: Parameters<typeof verdictOf>[0]): Verdict {
  const {gate, gateUncomputable, report, incomplete} = judged
  if (incomplete)
    return {verdict: 'inconclusive', exit_code: 3, by: gate || gateUncomputable ? 'gate' : 'runs', reason: incomplete}
  if (gate) return {verdict: gate.verdict, exit_code: EXIT_CODES[gate.verdict], by: 'gate', reason: gateReason(gate)}
  if (gateUncomputable)
    return {
      verdict: 'inconclusive',
      exit_code: 3,
      by: 'gate',
      reason: `the gate cannot be computed: ${gateUncomputable}`,
    }
  if (!report || report.rows === 0)
    return {verdict: 'inconclusive', exit_code: 3, by: 'runs', reason: 'no gate, and no runs were recorded'}
  const failed = failedRuns(report)
  return failed > 0
    ? {verdict: 'fail', exit_code: 1, by: 'runs', reason: `no gate: ${failed} of ${runs(report.rows)} failed`}
    : {verdict: 'pass', exit_code: 0, by: 'runs', reason: `no gate: all ${runs(report.rows)} passed`}
}

/** The verdict line: the last thing `run` and `gate` print. */
export const verdictLine = (v: Verdict): string =>
  `verdict: ${v.verdict.toUpperCase()} (exit ${v.exit_code}): ${v.reason}`
