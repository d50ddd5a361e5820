/**
 * Markdown for GitHub and $GITHUB_STEP_SUMMARY: short tables, numbers rounded for reading, intervals
 * in brackets, "–" where there is no data.
 */
import type {GateDocument} from './report-schema.js'
import type {Report} from './summary.js'

export function num(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  return value.toLocaleString('en-US', {minimumFractionDigits: digits, maximumFractionDigits: digits})
}

function interval(values: ReadonlyArray<number | null> | null | undefined, digits = 1): string {
  if (!values || values.some((v) => v === null)) return ''
  return ` [${num(values[0], digits)}, ${num(values[1], digits)}]`
}

function table(header: string[], rows: string[][]): string {
  const align = header.map((_, i) => (i === 0 ? ':--' : '--:'))
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n')
}

/** Tool calls per run by category and by canonical operation, side by side across modes. */
function toolCallTables(report: Report): string[] {
  const modes = Object.entries(report.modes)
  const perRun = (count: number | undefined, runs: number) => (count === undefined || runs === 0 ? '–' : num(count / runs, 2))
  const section = (title: string, pick: (m: Report['modes'][string]) => Record<string, number>): string[] => {
    const keys = [...new Set(modes.flatMap(([, m]) => Object.keys(pick(m))))].sort()
    if (keys.length === 0) return []
    return ['', title, '', table(['', ...modes.map(([mode]) => `\`${mode}\``)], keys.map((key) => [key, ...modes.map(([, m]) => perRun(pick(m)[key], m.runs))]))]
  }
  const category = section('## Tool calls per run, by kind', (m) => m.tool_calls_by_category)
  const operation = section('## Tool calls per run, by GitHub operation', (m) => m.tool_calls_by_operation)
  return [...category, ...operation]
}

export function renderReportMarkdown(report: Report): string {
  const modes = Object.entries(report.modes)
  const out: string[] = [
    '# ghx-bench report',
    '',
    `${report.rows} rows from ${report.run_ids.length} run(s); baseline \`${report.baseline}\`; bootstrap seed ${report.bootstrap.seed}, ${report.bootstrap.resamples} resamples. Generated ${report.generated_at}.`,
    '',
    '## Modes',
    '',
    table(
      ['mode', 'model', 'runs', 'success % [95% CI]', 'valid %', 'runner fail %', 'timeout %', 'retry %', 'wall ms (median)', 'agent ms (median / p90 / p95)', 'agent IQR / CV %', 'tokens total', 'tokens active (median / p90 / p95)', 'tool calls', 'tool schema tokens', 'cost USD', 'pass^k'],
      modes.map(([mode, m]) => [
        `\`${mode}\``,
        m.models.join(', ') || '–',
        String(m.runs),
        `${num(m.success_rate, 1)}${interval(m.success_rate_ci)}`,
        num(m.output_validity_rate, 1),
        num(m.runner_failure_rate, 1),
        num(m.timeout_stall_rate, 1),
        num(m.retry_rate, 1),
        num(m.median_latency_ms_wall),
        `${num(m.median_latency_ms_agent)} / ${num(m.p90_latency_ms_agent)} / ${num(m.p95_latency_ms_agent)}`,
        `${num(m.iqr_latency_ms_agent)} / ${num(m.cv_latency_agent_pct, 1)}`,
        num(m.median_tokens_total),
        `${num(m.median_tokens_active)} / ${num(m.p90_tokens_active)} / ${num(m.p95_tokens_active)}`,
        num(m.median_tool_calls, 1),
        num(m.median_tool_schema_tokens),
        num(m.median_cost_usd, 4),
        m.pass_hat_k.value === null ? '–' : `${num(m.pass_hat_k.value, 2)} (k=${m.pass_hat_k.k})`,
      ]),
    ),
  ]
  for (const delta of report.deltas) {
    const e = delta.efficiency
    out.push(
      '',
      `## \`${delta.candidate}\` against \`${delta.baseline}\``,
      '',
      `Reductions are medians over scenarios of per-scenario median reductions on the stable sample (${e.eligible_scenarios} of ${e.total_scenarios} scenarios comparable); positive means the candidate spends less.`,
      '',
      table(
        ['measure', 'value [95% CI]'],
        [
          ['success rate delta (points)', `${num(delta.reliability.success_rate_delta_pp.value, 1)}${interval(delta.reliability.success_rate_delta_pp.interval)}`],
          ['active tokens reduction %', `${num(e.tokens_active_reduction_pct.value, 1)}${interval(e.tokens_active_reduction_pct.interval)}`],
          ['wall latency reduction %', `${num(e.latency_reduction_pct.value, 1)}${interval(e.latency_reduction_pct.interval)}`],
          ['tool call reduction %', `${num(e.tool_call_reduction_pct.value, 1)}${interval(e.tool_call_reduction_pct.interval)}`],
          [
            'cost reduction %, worst scenario',
            e.cost_reduction_pct ? `${num(e.cost_reduction_pct.value, 1)}${interval(e.cost_reduction_pct.interval)} (${e.cost_reduction_pct.worst_scenario})` : 'no cost data',
          ],
        ],
      ),
    )
  }
  out.push(...toolCallTables(report))
  const scenarioIds = [...new Set(report.scenarios.map((s) => s.scenario_id))].sort()
  const modeNames = modes.map(([mode]) => mode)
  const cell = new Map(report.scenarios.map((s) => [`${s.scenario_id}\u0000${s.mode}`, s]))
  const notApplicable = new Map((report.not_applicable ?? []).map((n) => [`${n.scenario_id}\u0000${n.mode}`, n.reason]))
  out.push(
    '',
    '## Scenarios',
    '',
    'Per scenario and mode: success % · median active tokens · median wall ms · median tool calls; n/a: the mode cannot solve the scenario (its reason is under *Not applicable*).',
    '',
    table(
      ['scenario', ...modeNames.map((m) => `\`${m}\``)],
      scenarioIds.map((id) => [
        id,
        ...modeNames.map((mode) => {
          const s = cell.get(`${id}\u0000${mode}`)
          if (!s && notApplicable.has(`${id}\u0000${mode}`)) return 'n/a'
          return s ? `${num(s.success_rate)}% · ${num(s.median_tokens_active)} · ${num(s.median_latency_ms_wall)} · ${num(s.median_tool_calls, 1)}` : '–'
        }),
      ]),
    ),
  )
  if (notApplicable.size > 0) {
    const reasons = new Map<string, string[]>()
    for (const n of report.not_applicable ?? []) reasons.set(`${n.mode}: ${n.reason}`, [...(reasons.get(`${n.mode}: ${n.reason}`) ?? []), n.scenario_id])
    out.push('', '## Not applicable', '', ...[...reasons].map(([reason, ids]) => `- \`${reason.split(':')[0]}\`${reason.slice(reason.indexOf(':'))} (${[...new Set(ids)].sort().join(', ')})`))
  }
  if (report.warnings.length > 0) out.push('', '## Warnings', '', ...report.warnings.map((w) => `- ${w}`))
  return out.join('\n') + '\n'
}

const VERDICT_MARK: Record<string, string> = {pass: '✅ pass', fail: '❌ fail', inconclusive: '⚠️ inconclusive', skipped: '➖ skipped'}

export function renderGateMarkdown(gate: GateDocument): string {
  const rows = gate.checks.map((c) => [
    `\`${c.name}\``,
    `${num(c.value, 1)}${interval(c.interval)}`,
    `${c.operator} ${num(c.threshold, 1)}`,
    VERDICT_MARK[c.verdict]!,
    c.detail,
  ])
  return [
    `# ghx-bench gate: ${gate.profile} — ${VERDICT_MARK[gate.verdict]}`,
    '',
    `\`${gate.candidate}\` against \`${gate.baseline}\`, ${gate.rows} rows, model ${gate.model ?? 'mixed'}${gate.override ? ` (thresholds for ${gate.override})` : ' (default thresholds)'}, decision \`${gate.decision}\`, min_samples ${gate.min_samples}, bootstrap seed ${gate.bootstrap.seed} × ${gate.bootstrap.resamples}.`,
    '',
    table(['check', 'value [95% CI]', 'rule', 'verdict', 'detail'], rows),
    ...(gate.warnings.length > 0 ? ['', '## Warnings', '', ...gate.warnings.map((w) => `- ${w}`)] : []),
  ].join('\n') + '\n'
}

/** The compact table `gate` prints to the terminal. */
export function renderGateTable(gate: GateDocument): string {
  const lines = gate.checks.map(
    (c) => `${c.verdict.toUpperCase().padEnd(12)} ${c.name.padEnd(40)} ${num(c.value, 1).padStart(8)} ${c.operator} ${num(c.threshold, 1).padEnd(6)}${interval(c.interval)}`,
  )
  return [`gate ${gate.profile}: ${gate.candidate} vs ${gate.baseline} (${gate.decision}, model ${gate.model ?? 'mixed'})`, ...lines, `verdict: ${gate.verdict.toUpperCase()} (exit ${gate.exit_code})`].join('\n')
}
