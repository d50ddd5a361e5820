/**
 * The report as JUnit XML (`report --format junit`, junit.xml), the shape CI test views read (the
 * Jenkins / Ant junit-10.xsd): <testsuites> with one <testsuite> per mode and one <testcase> per
 * scenario x mode (classname = mode, name = scenario id, time = the runs' wall time in seconds).
 * A pair with a failed run carries one <failure> (message: how many failed and why; type: the commonest
 * error type; text: each failed run's error, failing checkpoints and trace); a pair the scenario
 * declares not applicable to the mode is <skipped>. Every failure is a <failure>, never an <error>:
 * the benchmark's verdict on the pair, whatever the cause. The gate, when one was asked for, is one more
 * <testsuite name="gate"> with a <testcase> per check: a failed check a <failure>, an inconclusive one
 * <skipped> with its reason; a gate that cannot be computed is one skipped <testcase> saying why.
 */
import type {GateDocument} from '../aggregate/report-schema.js'
import type {Report} from '../aggregate/summary.js'
import type {Verdict} from '../gate/verdict.js'

/** XML 1.0 forbids most control characters (an ANSI colour code in an error message would break the file). */
function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  )
}

function attr(text: string | number): string {
  return xmlText(String(text))
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;')
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3)

interface Case {
  scenario: string
  mode: string
  time: number
  failure?: {message: string; type: string; text: string}
  skipped?: string
  /** What a gate check could detect at this size: its <system-out>. */
  out?: string
}

interface Suite {
  name: string
  properties: Record<string, string | number>
  cases: Case[]
  time: number
  failures: number
  skipped: number
  /** The suite's <system-out>. */
  out?: string
}

/** Why the failed runs of one pair failed, as the text of its <failure>. */
function failureOf(report: Report, scenario: string, mode: string): Case['failure'] {
  const group = report.failures?.by_scenario_mode.find((g) => g.scenario_id === scenario && g.mode === mode)
  if (!group) return undefined
  const types = Object.entries(group.error_types).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  const outcomes = Object.entries(group.outcomes).map(([outcome, n]) => `${outcome} ${n}`)
  const runs = (report.failures?.runs ?? []).filter((r) => r.scenario_id === scenario && r.mode === mode)
  const root = report.trace_root && report.trace_root !== '.' ? report.trace_root.replace(/\/+$/, '') + '/' : ''
  const lines = runs.flatMap((run) => [
    `${run.run_id} #${run.iteration}: ${run.outcome}${run.error ? `: ${run.error.type}: ${run.error.message}` : ''}`,
    ...run.checkpoints.map(
      (c) =>
        `  checkpoint ${c.name}: expected ${c.expected ?? '–'}, got ${c.actual ?? '–'}${c.message ? ` (${c.message})` : ''}`,
    ),
    ...(run.trace ? [`  trace: ${root}${run.trace}`] : []),
  ])
  if (runs.length < group.failed)
    lines.push(`… ${group.failed - runs.length} more failed run(s) not detailed (see summary.json and the results)`)
  return {
    message: `${group.failed} of ${group.runs} run(s) failed (${outcomes.join(', ')}): ${types.map(([type, n]) => `${type} ×${n}`).join(', ')}`,
    type: types[0]?.[0] ?? 'failure',
    text: lines.join('\n'),
  }
}

/**
 * A test suite per mode; with rows of several providers, per provider and mode (named provider/mode), never
 * mixing them; then the gate's, as `judgement` says (the verdict's gate, or why none could be computed).
 */
export function renderJunit(
  report: Report,
  judgement: {verdict: Verdict | null; gate: GateDocument | null} = {verdict: null, gate: null},
): string {
  const parts = report.providers?.length
    ? report.providers.map((part) => ({report: part, prefix: `${part.provider ?? 'none'}/`}))
    : [{report, prefix: ''}]
  const suites = [...parts.flatMap((part) => modeSuites(part.report, part.prefix)), ...gateSuites(report, judgement)]
  const total = (pick: (s: (typeof suites)[number]) => number) => suites.reduce((n, s) => n + pick(s), 0)
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ghx-bench" tests="${total((s) => s.cases.length)}" failures="${total((s) => s.failures)}" errors="0" time="${seconds(total((s) => s.time))}">`,
  ]
  for (const suite of suites) {
    out.push(
      `  <testsuite name="${attr(suite.name)}" tests="${suite.cases.length}" failures="${suite.failures}" errors="0" skipped="${suite.skipped}" time="${seconds(suite.time)}" timestamp="${attr(report.generated_at)}">`,
      '    <properties>',
      ...Object.entries(suite.properties).map(
        ([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`,
      ),
      '    </properties>',
    )
    for (const c of suite.cases) {
      const open = `    <testcase name="${attr(c.scenario)}" classname="${attr(suite.name)}" time="${seconds(c.time)}"`
      // junit-10's order: skipped, failure, then system-out.
      const inner = [
        ...(c.skipped ? [`      <skipped message="${attr(c.skipped)}"/>`] : []),
        ...(c.failure && !c.skipped
          ? [
              `      <failure message="${attr(c.failure.message)}" type="${attr(c.failure.type)}">${xmlText(c.failure.text)}</failure>`,
            ]
          : []),
        ...(c.out ? [`      <system-out>${xmlText(c.out)}</system-out>`] : []),
      ]
      out.push(...(inner.length > 0 ? [`${open}>`, ...inner, '    </testcase>'] : [`${open}/>`]))
    }
    if (suite.out) out.push(`    <system-out>${xmlText(suite.out)}</system-out>`)
    out.push('  </testsuite>')
  }
  out.push('</testsuites>')
  return out.join('\n') + '\n'
}

function modeSuites(report: Report, prefix: string): Suite[] {
  return Object.keys(report.modes).map((mode) => {
    const cases: Case[] = report.scenarios
      .filter((s) => s.mode === mode)
      .map((s) => ({
        scenario: s.scenario_id,
        mode,
        time: s.total_latency_ms_wall ?? (s.median_latency_ms_wall ?? 0) * s.runs,
        failure:
          s.success_rate !== null && s.success_rate < 100
            ? (failureOf(report, s.scenario_id, mode) ?? {
                message: `success rate ${s.success_rate}%`,
                type: 'failure',
                text: '',
              })
            : undefined,
      }))
    const seen = new Set(cases.map((c) => c.scenario))
    for (const item of report.not_applicable ?? []) {
      if (item.mode !== mode || seen.has(item.scenario_id)) continue
      seen.add(item.scenario_id)
      cases.push({scenario: item.scenario_id, mode, time: 0, skipped: `not applicable: ${item.reason}`})
    }
    cases.sort((a, b) => a.scenario.localeCompare(b.scenario))
    return {
      name: prefix + mode,
      properties: {
        run_ids: report.run_ids.join(' '),
        baseline: report.baseline,
        models: report.modes[mode]?.models.join(' ') ?? '',
        bootstrap_seed: report.bootstrap.seed,
      },
      cases,
      time: cases.reduce((t, c) => t + c.time, 0),
      failures: cases.filter((c) => c.failure).length,
      skipped: cases.filter((c) => c.skipped).length,
    }
  })
}

/** The gate's test suite: a case per check (per provider and check with several), or one saying why there is no gate. */
function gateSuites(report: Report, {verdict, gate}: {verdict: Verdict | null; gate: GateDocument | null}): Suite[] {
  if (verdict?.by !== 'gate') return []
  const several = Boolean(gate?.providers?.length)
  const gates = gate ? (several ? gate.providers! : [gate]) : []
  const cases: Case[] = gates.flatMap((g) =>
    g.checks.map((check) => {
      const name = several ? `${g.provider ?? 'none'}/${check.name}` : check.name
      const said = `${check.name}: ${check.value ?? '–'} against ${check.operator} ${check.threshold}: ${check.verdict}${check.reason ? ` (${check.reason})` : ''}`
      return {
        scenario: name,
        mode: 'gate',
        time: 0,
        ...(check.verdict === 'fail' ? {failure: {message: said, type: 'gate', text: check.detail}} : {}),
        ...(check.verdict === 'inconclusive' || check.verdict === 'skipped' ? {skipped: said} : {}),
        ...(check.detectable ? {out: check.detectable.text} : {}),
      }
    }),
  )
  if (!gate) cases.push({scenario: 'gate', mode: 'gate', time: 0, skipped: verdict.reason})
  return [
    {
      name: 'gate',
      properties: {
        verdict: verdict.verdict,
        exit_code: verdict.exit_code,
        reason: verdict.reason,
        run_ids: report.run_ids.join(' '),
      },
      cases,
      time: 0,
      failures: cases.filter((c) => c.failure).length,
      skipped: cases.filter((c) => c.skipped).length,
      // A PASS that could not see a doubling of failures says so where CI shows the suite's output.
      out: gates.flatMap((g) => (g.unseen_doubling ? [g.unseen_doubling] : [])).join('\n'),
    },
  ]
}
