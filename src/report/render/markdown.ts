/**
 * Markdown for GitHub and $GITHUB_STEP_SUMMARY: short tables, numbers rounded for reading, intervals
 * in brackets, "–" where there is no data. Fit for a PR comment too: long lists fold into <details>
 * and are bounded (at most MAX_LISTED failed runs, then "… and N more (see summary.json)"), every text
 * that comes from a row is escaped and cut short, so one huge error message cannot break the page.
 */
import {MDE_NOTE, minimumDetectableEffect} from '../gate/mde.js'
import type {Comparison, Reduction} from '../aggregate/compare.js'
import {STRADDLES} from '../gate/gate.js'
import type {GateDocument} from '../aggregate/report-schema.js'
import type {Failures, Report} from '../aggregate/summary.js'
import type {Verdict} from '../gate/verdict.js'

/** Failed runs, and scenario x mode pairs with failures, listed at most. */
export const MAX_LISTED = 50
/** Scenarios listed in the scenario x mode table at most. */
const MAX_SCENARIOS = 200
/** Characters the failed-run details may take, whatever their number (a PR comment holds 65,536). */
const DETAILS_BUDGET = 16_000
/** Failing checkpoints shown per failed run. */
const CHECKPOINTS_SHOWN = 3
/** Scenarios with more than this are folded into <details>. */
const FOLD_SCENARIOS = 25

export function num(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  return value.toLocaleString('en-US', {minimumFractionDigits: digits, maximumFractionDigits: digits})
}

function interval(values: ReadonlyArray<number | null> | null | undefined, digits = 1): string {
  if (!values || values.some((v) => v === null)) return ''
  return ` [${num(values[0], digits)}, ${num(values[1], digits)}]`
}

/** `left`: how many leading columns are text (left-aligned), or one letter a column, l or r. */
function table(header: string[], rows: string[][], left: number | string = 1): string {
  const align = header.map((_, i) => ((typeof left === 'number' ? i < left : left[i] === 'l') ? ':--' : '--:'))
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n')
}

/** Cuts text to `limit` characters with an ellipsis, on one line. */
function oneLine(text: string, limit: number): string {
  const flat = text
    .replace(/\s+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
  return flat.length <= limit ? flat : flat.slice(0, limit - 1) + '…'
}

/**
 * Text from a row, safe in a table cell: no markup, no HTML, no pipes, one line, and no @mention: an
 * agent's "@octocat" in a PR comment or step summary would notify octocat (or a whole team). A zero-width
 * space after the @ (`@&#8203;octocat`, as Renovate writes mentions in its PR bodies) renders as
 * "@octocat" but is no mention: GitHub finds mentions in the rendered text, where the @ is no longer
 * followed by a name. An HTML comment would leave that to the sanitizer's order; a code span would change
 * how the text reads.
 */
export function plain(text: string, limit = 200): string {
  return oneLine(text, limit)
    .replace(/[\\`*[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`)
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@(?=[A-Za-z0-9])/g, '@&#8203;')
}

/** Text from a row as inline code in a table cell (a pipe is escaped even inside code in a GFM table). */
export function code(text: string, limit = 80): string {
  const body = oneLine(text, limit).replace(/\|/g, '\\|')
  const fence = body.includes('`') ? '``' : '`'
  return body === '' ? '""' : `${fence}${fence === '``' ? ' ' : ''}${body}${fence === '``' ? ' ' : ''}${fence}`
}

function folded(summary: string, body: string[]): string[] {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>']
}

const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, n]) => `${plain(name, 60)} ${n}`)
    .join(', ')

/** Where a trace is, for a reader: under the results folder the rows came from. */
function tracePath(trace: string | null, root: string | null | undefined): string {
  if (!trace) return '–'
  return code(root && root !== '.' ? `${root.replace(/\/+$/, '')}/${trace}` : trace, 160)
}

/** Why one run failed: its error, then its failing checkpoints with expected and actual. */
function reason(run: Failures['runs'][number]): string {
  const parts: string[] = []
  if (run.error) parts.push(`**${plain(run.error.type, 60)}**: ${plain(run.error.message, 200)}`)
  for (const checkpoint of run.checkpoints.slice(0, CHECKPOINTS_SHOWN)) {
    const expected = checkpoint.expected === null ? '' : ` expected ${code(checkpoint.expected)},`
    const actual = checkpoint.actual === null ? '' : ` got ${code(checkpoint.actual)}`
    const message = checkpoint.message ? ` — ${plain(checkpoint.message, 120)}` : ''
    parts.push(`✗ ${code(checkpoint.name, 60)}:${expected}${actual}${message}`)
  }
  if (run.checkpoints.length > CHECKPOINTS_SHOWN)
    parts.push(`… and ${run.checkpoints.length - CHECKPOINTS_SHOWN} more failing checkpoint(s)`)
  if (run.retries > 0) parts.push(`after ${run.retries} infrastructure retr${run.retries === 1 ? 'y' : 'ies'}`)
  return parts.length === 0 ? 'no error or checkpoint recorded' : parts.join('<br>')
}

/**
 * The failed runs: a table per scenario x mode (outcomes and error types, every failure counted) and
 * the runs themselves folded in <details> (outcome, reason, failing checkpoints, trace), bounded.
 */
function renderFailures(
  failures: Failures | undefined,
  traceRoot: string | null | undefined,
  source: string,
  heading = '## Failed runs',
): string[] {
  if (!failures || failures.failed_runs === 0) return []
  const pairs = failures.by_scenario_mode
  const out = [
    '',
    heading,
    '',
    `${failures.failed_runs} run(s) failed in ${pairs.length} scenario × mode pair(s).`,
    '',
    table(
      ['scenario', 'mode', 'failed', 'outcomes', 'error types'],
      pairs
        .slice(0, MAX_LISTED)
        .map((p) => [
          plain(p.scenario_id, 100),
          `\`${p.mode}\``,
          `${p.failed} of ${p.runs}`,
          countsText(p.outcomes),
          countsText(p.error_types),
        ]),
      5,
    ),
  ]
  if (pairs.length > MAX_LISTED)
    out.push('', `… and ${pairs.length - MAX_LISTED} more scenario × mode pair(s) with failures (see ${source}).`)
  const rows: string[][] = []
  let used = 0
  for (const run of failures.runs) {
    if (rows.length >= MAX_LISTED) break
    const row = [
      plain(run.scenario_id, 100),
      `\`${run.mode}\``,
      `${plain(run.run_id, 60)} #${run.iteration}`,
      run.outcome,
      reason(run),
      tracePath(run.trace, traceRoot),
    ]
    const size = row.reduce((n, cell) => n + cell.length + 3, 0)
    if (rows.length > 0 && used + size > DETAILS_BUDGET) break
    used += size
    rows.push(row)
  }
  const rest = failures.failed_runs - rows.length
  const body = [table(['scenario', 'mode', 'run', 'outcome', 'reason', 'trace'], rows, 6)]
  if (rest > 0)
    body.push(
      '',
      `… and ${rest} more (see ${source}${failures.runs.length < failures.failed_runs ? ', which keeps the first 20 per scenario × mode; every row is in the results' : ''}).`,
    )
  out.push(
    '',
    ...folded(
      `Each failed run: outcome, error, failing checkpoints (expected, got), trace — ${rows.length} of ${failures.failed_runs} shown`,
      body,
    ),
  )
  return out
}

/** The per-scenario x mode table: pass rate, median active tokens, median wall latency, median tool calls. */
function scenarioTable(report: Report, modeNames: string[]): string[] {
  const scenarioIds = [
    ...new Set([
      ...report.scenarios.map((s) => s.scenario_id),
      ...(report.not_applicable ?? []).filter((n) => modeNames.includes(n.mode)).map((n) => n.scenario_id),
    ]),
  ].sort()
  const cell = new Map(report.scenarios.map((s) => [`${s.scenario_id}\u0000${s.mode}`, s]))
  const notApplicable = new Set((report.not_applicable ?? []).map((n) => `${n.scenario_id}\u0000${n.mode}`))
  const shown = scenarioIds.slice(0, MAX_SCENARIOS)
  const rows = shown.map((id) => [
    plain(id, 100),
    ...modeNames.map((mode) => {
      const s = cell.get(`${id}\u0000${mode}`)
      if (!s) return notApplicable.has(`${id}\u0000${mode}`) ? 'n/a' : '–'
      const passed = s.success_rate === null ? null : Math.round((s.success_rate / 100) * s.runs)
      const mark = passed === null ? '' : passed === s.runs ? '✅ ' : '❌ '
      const rate = passed === null ? '–' : `${passed}/${s.runs} (${num(s.success_rate)}%)`
      return `${mark}${rate} · ${num(s.median_tokens_active)} · ${num(s.median_latency_ms_wall)} · ${num(s.median_tool_calls, 1)}`
    }),
  ])
  const body = [
    'Per scenario and mode: passed/runs (pass rate) · median active tokens · median wall ms · median tool calls. n/a: the scenario declares the mode cannot solve it (reasons under *Not applicable*); –: no rows.',
    '',
    table(['scenario', ...modeNames.map((m) => `\`${m}\``)], rows),
  ]
  if (scenarioIds.length > shown.length)
    body.push('', `… and ${scenarioIds.length - shown.length} more scenario(s) (see summary.json).`)
  return [
    '',
    '## Scenarios',
    '',
    ...(scenarioIds.length > FOLD_SCENARIOS
      ? folded(`${scenarioIds.length} scenarios × ${modeNames.length} modes`, body)
      : body),
  ]
}

/** Tool calls per run by category and by canonical operation, side by side across modes. */
function toolCallTables(report: Report): string[] {
  const modes = Object.entries(report.modes)
  const perRun = (count: number | undefined, runs: number) =>
    count === undefined || runs === 0 ? '–' : num(count / runs, 2)
  const section = (title: string, pick: (m: Report['modes'][string]) => Record<string, number>): string[] => {
    const keys = [...new Set(modes.flatMap(([, m]) => Object.keys(pick(m))))].sort()
    if (keys.length === 0) return []
    return [
      '',
      title,
      '',
      table(
        ['', ...modes.map(([mode]) => `\`${mode}\``)],
        keys.map((key) => [key, ...modes.map(([, m]) => perRun(pick(m)[key], m.runs))]),
      ),
    ]
  }
  const category = section('## Tool calls per run, by kind', (m) => m.tool_calls_by_category)
  const operation = section('## Tool calls per run, by GitHub operation', (m) => m.tool_calls_by_operation)
  return [...category, ...operation]
}

function mde(values: ReadonlyArray<number | null> | null | undefined, confidence?: number): string {
  return num(minimumDetectableEffect(values, confidence), 1)
}

/** What the GitHub API cost figures are, for a reader. */
export const API_COST_NOTE =
  'The agent’s GitHub API cost against GitHub’s rate limits, over every run whose row records it (a failed run spends too): REST requests (resource core) and GraphQL points (per call, the requests its connections need, first/last pages nested, / 100, rounded, at least 1), median per run and total; waits: answers that told the agent to wait (secondary rate limit or 429, retry-after). On live GitHub the figures are the token’s own usage before and after the agent (GET /rate_limit), none where runs overlapped.'

/** Each mode's GitHub API cost (the rows' github_api): a header and a row a mode, or null when no row records it. */
export function apiCostTable(report: Pick<Report, 'modes'>): {header: string[]; rows: string[][]} | null {
  const modes = Object.entries(report.modes).filter(([, m]) => m.github_api)
  if (modes.length === 0) return null
  const pair = (f: {median: number | null; total: number}, digits = 0) => `${num(f.median, digits)} / ${num(f.total)}`
  return {
    header: [
      'mode',
      'runs recorded',
      'REST requests (median / total)',
      'GraphQL points (median / total)',
      'waits (total)',
    ],
    rows: modes.map(([mode, m]) => {
      const api = m.github_api!
      return [
        mode,
        `${api.runs} of ${m.runs}`,
        pair(api.rest_requests),
        pair(api.graphql_points),
        num(api.secondary_limit_waits.total),
      ]
    }),
  }
}

function apiCostSection(report: Report): string[] {
  const cost = apiCostTable(report)
  if (!cost) return []
  return [
    '',
    '## GitHub API cost',
    '',
    API_COST_NOTE,
    '',
    table(
      cost.header,
      cost.rows.map(([mode, ...rest]) => [`\`${mode}\``, ...rest]),
      'lrrrr',
    ),
  ]
}

/** The two modes' GitHub API cost per run, as one sentence (none when neither records it). */
export function apiCostSentence(
  delta: Pick<Report['deltas'][number], 'baseline' | 'candidate' | 'github_api'>,
  quote: (mode: string) => string = (m) => `\`${m}\``,
): string | null {
  const api = delta.github_api
  if (!api) return null
  const side = (label: string, f: typeof api.rest_requests) =>
    f.baseline === null && f.candidate === null
      ? null
      : `${label} ${quote(delta.baseline)} ${num(f.baseline, 1)}, ${quote(delta.candidate)} ${num(f.candidate, 1)}${f.reduction_pct === null ? '' : ` (reduction ${num(f.reduction_pct, 1)}%)`}`
  const parts = [side('REST requests', api.rest_requests), side('GraphQL points', api.graphql_points)].filter(Boolean)
  return parts.length === 0 ? null : `GitHub API cost per run (median over all runs): ${parts.join('; ')}.`
}

/** What a fallback is, for a reader. */
export const FALLBACK_NOTE =
  'A run rests on a fallback when a call of its mode’s tool layer (ghx) failed and a later call of gh (or an MCP tool) succeeded: a pass then shows that gh can do the work, not that the layer did.'

/**
 * Each mode's fallbacks in a gate's comparison, as one sentence (null for a gate written before them):
 * `quote` marks a mode name up, `digits` rounds the rate.
 */
export function fallbackSentence(
  comparison: Pick<Comparison, 'baseline' | 'candidate' | 'reliability'>,
  quote: (mode: string) => string = (m) => `\`${m}\``,
): string | null {
  const f = comparison.reliability.fallbacks
  if (!f) return null
  const side = (
    mode: string,
    counts: typeof f.baseline,
    rate?: {value: number | null; interval: ReadonlyArray<number | null> | null} | null,
  ) => {
    if (counts.recorded === 0) return `${quote(mode)} not recorded`
    const of =
      counts.recorded === counts.runs
        ? `${counts.recorded} runs`
        : `${counts.recorded} runs that record it (of ${counts.runs})`
    const shown =
      rate && rate.value !== null
        ? ` (${num(rate.value, 1)}%${interval(rate.interval)})`
        : ` (${num((counts.fallbacks / counts.recorded) * 100, 1)}%)`
    return `${quote(mode)} ${counts.fallbacks} of ${of}${shown}${counts.fallbacks > 0 ? `, ${counts.passes} of them passed` : ''}`
  }
  return `Fallbacks: ${side(comparison.baseline, f.baseline)}; ${side(comparison.candidate, f.candidate, comparison.reliability.fallback_rate)}.`
}

/** Where some runs rest on a fallback: how many, by mode and scenario (none when no row records it). */
function fallbackSection(report: Report): string[] {
  const modes = Object.entries(report.modes).filter(
    ([, m]) => m.fallback_runs !== null && m.fallback_runs !== undefined,
  )
  if (modes.length === 0) return []
  const scenarios = (mode: string) =>
    report.scenarios
      .filter((s) => s.mode === mode && (s.fallback_runs ?? 0) > 0)
      .map((s) => `${plain(s.scenario_id, 100)} (${s.fallback_runs}/${s.runs})`)
  const rows = modes.map(([mode, m]) => {
    const listed = scenarios(mode)
    return [
      `\`${mode}\``,
      String(m.runs),
      `${m.fallback_runs} (${num(m.fallback_rate, 1)}%)`,
      String(m.fallback_passes ?? 0),
      listed.length === 0
        ? '–'
        : listed.slice(0, MAX_LISTED).join(', ') +
          (listed.length > MAX_LISTED ? `, … ${listed.length - MAX_LISTED} more` : ''),
    ]
  })
  return [
    '',
    '## Fallbacks',
    '',
    `${FALLBACK_NOTE} Rates are over the runs that record it.`,
    '',
    table(['mode', 'runs', 'fallbacks (%)', 'of them passed', 'scenarios (fallbacks/runs)'], rows, 'lrrrl'),
  ]
}

/** How many passes rest on a fallback, by mode: a clause for the headline, empty when none. */
function fallbackClause(report: Report): string {
  const modes = Object.entries(report.modes).filter(([, m]) => (m.fallback_passes ?? 0) > 0)
  if (modes.length === 0) return ''
  const passes = modes.reduce((n, [, m]) => n + m.fallback_passes!, 0)
  return ` ${passes} pass${passes === 1 ? '' : 'es'} rest${passes === 1 ? 's' : ''} on a fallback (${modes.map(([mode, m]) => `\`${mode}\` ${m.fallback_passes}`).join(', ')}): see *Fallbacks*.`
}

/** One line a reader sees first: did every run pass, and if not, how many failed where. */
function headline(report: Report): string {
  return headlineOfFailures(report) + fallbackClause(report)
}

function headlineOfFailures(report: Report): string {
  const failed =
    report.failures?.failed_runs ??
    report.scenarios.reduce((n, s) => n + s.runs - Math.round(((s.success_rate ?? 0) / 100) * s.runs), 0)
  if (failed === 0) return `✅ All ${report.rows} runs passed.`
  const modes = Object.entries(report.modes)
    .filter(([, m]) => m.success_rate !== null && m.success_rate < 100)
    .map(([mode, m]) => `\`${mode}\` ${m.runs - Math.round(((m.success_rate ?? 0) / 100) * m.runs)}`)
  return `❌ ${failed} of ${report.rows} runs failed (${modes.join(', ')}): see *Failed runs* for each one's reason and trace.`
}

/** A provider's part of a document of several: its own document, under a heading that names the provider. */
function providerPart(markdown: string, heading: string): string {
  return markdown.replace(/^# .*\n/, `# ${heading}\n`)
}

const providerName = (provider: string | null): string =>
  provider === null ? 'rows without a provider' : `provider \`${provider}\``

/** The verdict under the title: what happened, as the terminal's last line and the exit code say it. */
const verdictLines = (verdict: Verdict | null | undefined): string[] =>
  verdict ? [`**${VERDICT_MARK[verdict.verdict]}** (exit ${verdict.exit_code}): ${plain(verdict.reason, 400)}`, ''] : []

/** summary.md; `verdict`: what happened (gate/verdict.ts), said under the title. */
export function renderReportMarkdown(report: Report, verdict?: Verdict | null): string {
  if (report.providers?.length) {
    const names = report.providers.map((p) => providerName(p.provider))
    return [
      '# ghx-bench report',
      '',
      ...verdictLines(verdict),
      `${report.rows} rows from ${report.run_ids.length} run(s) of ${report.providers.length} providers (${names.join(', ')}). Each provider’s rows are reported apart, each mode against the baseline of the same provider: rows of two providers are never compared.`,
      '',
      ...report.providers.map((part, i) => providerPart(renderReportMarkdown(part), names[i]!)),
    ].join('\n')
  }
  const modes = Object.entries(report.modes)
  const out: string[] = [
    '# ghx-bench report',
    '',
    ...verdictLines(verdict),
    `${report.rows} rows from ${report.run_ids.length} run(s); baseline \`${report.baseline}\`; bootstrap seed ${report.bootstrap.seed}, ${report.bootstrap.resamples} resamples. Generated ${report.generated_at}.`,
    '',
    headline(report),
    '',
    '## Modes',
    '',
    'Rates are over all runs; medians and other distribution figures over the stable runs (success, valid output, no runner failure), the sample the gate measures efficiency on. Harness ms: wall - agent, the harness’s own time (fixtures, server start-up, checkpoints).',
    '',
    table(
      [
        'mode',
        'model',
        'runs (stable)',
        'success % [95% CI]',
        'valid %',
        'runner fail %',
        'timeout %',
        'retry %',
        'wall ms (median)',
        'harness ms (median)',
        'agent ms (median / p90 / p95)',
        'agent IQR / CV %',
        'tokens total',
        'tokens active (median / p90 / p95)',
        'tool calls',
        'tool schema tokens',
        'cost USD',
        'pass^k',
      ],
      modes.map(([mode, m]) => [
        `\`${mode}\``,
        m.models.join(', ') || '–',
        m.stable_runs === undefined ? String(m.runs) : `${m.runs} (${m.stable_runs})`,
        `${num(m.success_rate, 1)}${interval(m.success_rate_ci)}`,
        num(m.output_validity_rate, 1),
        num(m.runner_failure_rate, 1),
        num(m.timeout_stall_rate, 1),
        num(m.retry_rate, 1),
        num(m.median_latency_ms_wall),
        num(m.median_latency_ms_harness),
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
  out.push(...apiCostSection(report))
  for (const delta of report.deltas) {
    const e = delta.efficiency
    const reduction = (label: string, r: Reduction | null | undefined, note = ''): string[] => {
      if (!r) return [label, 'no data', '–', '–']
      if (r.missing) return [label, `– (${plain(r.missing, 120)})`, '–', '–']
      const worst = r.worst_scenario
        ? `${num(r.median_of_scenarios, 1)} (worst ${plain(r.worst_scenario, 60)} ${num(r.worst_pct, 1)})`
        : num(r.median_of_scenarios, 1)
      return [label + note, `${num(r.value, 1)}${interval(r.interval)}`, worst, mde(r.interval, delta.confidence)]
    }
    const harness = e.harness_latency_ms
    out.push(
      '',
      `## \`${delta.candidate}\` against \`${delta.baseline}\``,
      '',
      `Reductions on the stable sample (${e.eligible_scenarios} of ${e.total_scenarios} scenarios comparable), positive where the candidate spends less: the suite effect is the geometric-mean reduction over scenarios (paired by iteration block where the runner interleaved the modes) with a hierarchical bootstrap interval over scenarios and runs; beside it the median over scenarios of the per-scenario reduction of the medians (the predecessors’ figure, judged under decision point) and the worst scenario. Latency is the agent’s time; the wall latency, harness time included, is shown for reference${harness ? ` (harness time per run, median ms: \`${delta.baseline}\` ${num(harness.baseline)}, \`${delta.candidate}\` ${num(harness.candidate)})` : ''}.`,
      '',
      table(
        ['measure', 'value [CI]', 'median over scenarios (worst)', 'MDE'],
        [
          [
            'success rate delta (points)',
            `${num(delta.reliability.success_rate_delta_pp.value, 1)}${interval(delta.reliability.success_rate_delta_pp.interval)}`,
            '–',
            mde(delta.reliability.success_rate_delta_pp.interval, delta.confidence),
          ],
          reduction('active tokens reduction %', e.tokens_active_reduction_pct),
          reduction('agent latency reduction %', e.latency_reduction_pct),
          reduction('wall latency reduction %', e.latency_wall_reduction_pct, ' (not gated)'),
          reduction('tool call reduction %', e.tool_call_reduction_pct),
          reduction('cost reduction %', e.cost_reduction_pct),
        ],
      ),
      ...flipLines(delta),
      ...(apiCostSentence(delta) ? ['', apiCostSentence(delta)!] : []),
    )
  }
  if (report.deltas.length > 0) out.push('', MDE_NOTE)
  out.push(
    ...scenarioTable(
      report,
      modes.map(([mode]) => mode),
    ),
  )
  out.push(...fallbackSection(report))
  out.push(...renderFailures(report.failures, report.trace_root, 'summary.json'))
  out.push(...toolCallTables(report))
  const notApplicable = report.not_applicable ?? []
  if (notApplicable.length > 0) {
    const reasons = new Map<string, string[]>()
    for (const n of report.not_applicable ?? [])
      reasons.set(`${n.mode}: ${n.reason}`, [...(reasons.get(`${n.mode}: ${n.reason}`) ?? []), n.scenario_id])
    out.push(
      '',
      '## Not applicable',
      '',
      ...[...reasons].map(
        ([reason, ids]) =>
          `- \`${reason.split(':')[0]}\`${plain(reason.slice(reason.indexOf(':')), 300)} (${[...new Set(ids)].sort().join(', ')})`,
      ),
    )
  }
  out.push(...quarantineSection(report.quarantine))
  if (report.warnings.length > 0)
    out.push('', '## Warnings', '', ...report.warnings.slice(0, MAX_LISTED).map((w) => `- ${plain(w, 400)}`))
  if (report.warnings.length > MAX_LISTED)
    out.push(`- … and ${report.warnings.length - MAX_LISTED} more (see summary.json)`)
  return out.join('\n') + '\n'
}

/** The scenarios whose paired outcomes flipped between the modes, each with its discordant blocks and p-values. */
function flipLines(delta: Report['deltas'][number]): string[] {
  const flips = delta.success_flips
  if (!flips) return []
  const byId = new Map(delta.scenarios.map((s) => [s.scenario_id, s.success_flips]))
  const tested = delta.scenarios.filter((s) => s.success_flips).length
  const listed = (ids: string[]) =>
    ids.length === 0
      ? 'none'
      : ids
          .slice(0, MAX_LISTED)
          .map((id) => {
            const f = byId.get(id)!
            return `${code(id, 60)} (${f.pass_to_fail} PASS→FAIL, ${f.fail_to_pass} FAIL→PASS of ${f.paired_blocks}; p ${num(f.p_value, 3)}, adjusted ${num(f.p_adjusted, 3)})`
          })
          .join(', ') + (ids.length > MAX_LISTED ? `, … and ${ids.length - MAX_LISTED} more` : '')
  return [
    '',
    `Paired outcomes, per scenario (${tested} scenarios with blocks of both modes; ${flips.method}): PASS→FAIL ${listed(flips.pass_to_fail)}; FAIL→PASS ${listed(flips.fail_to_pass)}; significant at ${num((1 - (delta.confidence ?? 0.95)) * 100, 0)}% after adjustment: ${flips.significant.length === 0 ? 'none' : flips.significant.map((id) => code(id, 60)).join(', ')}.`,
  ]
}

const VERDICT_MARK: Record<string, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  inconclusive: '⚠️ inconclusive',
  skipped: '➖ skipped',
}

const METRIC_OF_CHECK: Record<
  string,
  {metric: 'tokens_active' | 'latency_agent' | 'tool_calls' | 'cost'; unit: string; digits: number}
> = {
  efficiency_tokens_active_reduction: {metric: 'tokens_active', unit: 'active tokens', digits: 0},
  efficiency_latency_reduction: {metric: 'latency_agent', unit: 'agent ms', digits: 0},
  efficiency_tool_call_reduction: {metric: 'tool_calls', unit: 'tool calls', digits: 1},
  efficiency_cost_reduction: {metric: 'cost', unit: 'USD', digits: 4},
}

/** Scenarios behind a failing or inconclusive efficiency check: the worst reductions first. */
const WORST_SHOWN = 5

/** A check's MDE (gate.json written before it was recorded: computed here). */
function checkMde(check: GateDocument['checks'][number], confidence?: number): number | null {
  if (check.mde !== undefined) return check.mde
  return check.name === 'efficiency_coverage' ? null : minimumDetectableEffect(check.interval, confidence)
}

function confidenceLabel(gate: GateDocument): string {
  const percent = (gate.confidence ?? 0.95) * 100
  return `${num(percent, Number.isInteger(Math.round(percent * 1e6) / 1e6) ? 0 : 2)}%`
}

/** A check's reason worth showing beside it: one other than the interval straddling (the table shows that). */
function shownReason(check: GateDocument['checks'][number]): boolean {
  return Boolean(check.reason) && check.verdict === 'inconclusive' && check.reason !== STRADDLES
}

/** The gate's warning that its PASS could not see a doubling of the baseline's failures, when it has one. */
function unseenDoublingLines(gate: GateDocument): string[] {
  return gate.unseen_doubling ? ['', `**${plain(gate.unseen_doubling, 400)}**`] : []
}

/** What each check could detect at this size (gate.json's `detectable`); none before it was recorded. */
function detectableSection(gate: GateDocument): string[] {
  const lines = gate.checks.flatMap((c) => (c.detectable ? [`- \`${c.name}\`: ${plain(c.detectable.text, 400)}`] : []))
  if (lines.length === 0) return []
  return ['', '## What this run could detect', '', DETECTABLE_NOTE, '', ...lines]
}

const DETECTABLE_NOTE =
  'With 80% power at this size: a reliability check catches a true value from the one given (its rule passes it only 20% of the time), and a smaller regression may well pass; a reduction is passed 80% of the time from the one given (its threshold plus its MDE).'

/** Why each check that did not pass came out as it did. */
function gateWhy(gate: GateDocument): string[] {
  const lines: string[] = []
  for (const check of gate.checks) {
    if (check.verdict !== 'fail' && check.verdict !== 'inconclusive') continue
    const mdeValue = checkMde(check, gate.confidence)
    let line = `- \`${check.name}\`: ${num(check.value, 1)} against ${check.operator} ${num(check.threshold, 1)}`
    if (shownReason(check)) line += `; inconclusive: ${plain(check.reason!, 300)}`
    else if (check.verdict === 'inconclusive') {
      line += `; the ${confidenceLabel(gate)} interval${interval(check.interval)} straddles the threshold`
      const margin = check.value === null ? null : Math.abs(check.value - check.threshold)
      if (mdeValue !== null && margin !== null && margin > 0) {
        line += ` (MDE ${num(mdeValue, 1)}, margin ${num(margin, 1)}: about ${num(Math.max(1, (mdeValue / margin) ** 2), 1)}× the runs would resolve it)`
      }
    } else if (gate.decision === 'ci' && check.interval)
      line += `; the whole ${confidenceLabel(gate)} interval${interval(check.interval)} is on the wrong side`
    const metric = METRIC_OF_CHECK[check.name]
    if (metric) {
      const pick = (figures: {[key: string]: number | null | undefined}) => figures[metric.metric] ?? null
      const worst = gate.comparison.scenarios
        .filter((s) => s.eligible && pick(s.reduction_pct) !== null)
        .sort((a, b) => pick(a.reduction_pct)! - pick(b.reduction_pct)!)
        .slice(0, WORST_SHOWN)
        .map(
          (s) =>
            `${plain(s.scenario_id, 100)} ${num(pick(s.baseline), metric.digits)} → ${num(pick(s.candidate), metric.digits)} (${num(pick(s.reduction_pct), 1)}%)`,
        )
      if (worst.length > 0)
        line += `. Worst scenarios (median ${metric.unit}, \`${gate.baseline}\` → \`${gate.candidate}\`): ${worst.join('; ')}`
    } else if (check.group === 'reliability' && gate.failures && gate.failures.failed_runs > 0)
      line += '. The failed runs are listed below'
    lines.push(line + '.')
  }
  return lines.length === 0 ? [] : ['', '## Why', '', ...lines]
}

/** With several providers: the rule, each provider's verdict, then each provider's gate. */
function providersGateMarkdown(gate: GateDocument, providers: NonNullable<GateDocument['providers']>): string {
  return [
    `# ghx-bench gate: ${gate.profile} — ${VERDICT_MARK[gate.verdict]}`,
    '',
    PROVIDERS_RULE,
    '',
    ...providers.map((part) => `- ${providerName(part.provider)}: ${VERDICT_MARK[part.verdict]}`),
    '',
    ...providers.map((part) =>
      providerPart(renderGateMarkdown(part), `${providerName(part.provider)} — ${VERDICT_MARK[part.verdict]}`),
    ),
  ].join('\n')
}

const PROVIDERS_RULE =
  'One gate per provider: each judges its candidate against its baseline on its own rows (rows of two providers are never compared); the verdict is the worst of theirs (fail, then inconclusive, then pass).'

export function renderGateMarkdown(gate: GateDocument): string {
  if (gate.providers?.length) return providersGateMarkdown(gate, gate.providers)
  const rows = gate.checks.map((c) => [
    `\`${c.name}\``,
    num(c.value, 1),
    `${c.operator} ${num(c.threshold, 1)}`,
    c.interval && c.interval.every((v) => v !== null) ? interval(c.interval).trim() : '–',
    num(checkMde(c, gate.confidence), 1),
    VERDICT_MARK[c.verdict]!,
    plain(shownReason(c) ? `${c.reason}. ${c.detail}` : c.detail, 400),
  ])
  const sequential = gate.sequential
    ? [
        '',
        `Judged at look ${gate.sequential.look} of ${gate.sequential.looks.length} (${gate.sequential.repetitions} repetitions per cell; looks ${gate.sequential.looks.join(', ')}), intervals at ${confidenceLabel(gate)} so that the ${gate.sequential.spending} spending of α = ${gate.sequential.alpha} over the looks keeps the overall error rate. Stopped: ${plain(gate.sequential.stopped, 300)}.`,
        ...(gate.sequential.history ?? []).map(
          (h) =>
            `- look ${h.look}: ${h.repetitions} repetitions, ${h.runs} runs so far, ${num(h.confidence * 100, 2)}% intervals, ${h.verdict}: ${plain(h.reason, 200)}`,
        ),
      ]
    : []
  return (
    [
      `# ghx-bench gate: ${gate.profile} — ${VERDICT_MARK[gate.verdict]}`,
      '',
      `\`${gate.candidate}\` against \`${gate.baseline}\`, ${gate.rows} rows, model ${gate.model ?? 'mixed'}${gate.override ? ` (thresholds for ${gate.override})` : ' (default thresholds)'}, decision \`${gate.decision}\`, estimand \`${gate.estimand ?? 'population'}\`, min_samples ${gate.min_samples}, bootstrap seed ${gate.bootstrap.seed} × ${gate.bootstrap.resamples}.`,
      ...unseenDoublingLines(gate),
      '',
      table(['check', 'value', 'rule', `${confidenceLabel(gate)} CI`, 'MDE', 'verdict', 'detail'], rows, 'lrrrrll'),
      ...fallbackLines(gate),
      ...quarantineSection(gate.quarantine),
      ...sequential,
      '',
      `Reliability values are percentages over all of \`${gate.candidate}\`’s runs, with Wilson intervals (the success check: points of difference, Newcombe’s interval); efficiency values are reductions in % on the stable sample (positive: \`${gate.candidate}\` spends less). ${gate.decision === 'ci' ? `Under decision \`ci\` a reduction passes only when its whole interval clears the threshold, is inconclusive when the interval straddles it, and decides nothing from cells with fewer than 3 runs; a reliability check applies its sized one-sided 5% rule (an exact binomial test at its limit; the success drop’s non-inferiority test), stated in its detail. An efficiency value is the geometric-mean reduction ${gate.estimand === 'suite' ? 'on these scenarios (estimand suite), its interval from their runs' : 'over scenarios like these (estimand population), with a hierarchical bootstrap interval (scenarios, then runs)'}.` : `Under decision \`point\` (the predecessors’ rule) the point value decides; an efficiency value is the median over scenarios of the reduction of the medians.`} Latency is the agent’s time; the harness’s own time is reported beside it. ${MDE_NOTE} Coverage is a count: it has neither interval nor MDE.`,
      ...detectableSection(gate),
      ...gateWhy(gate),
      ...renderFailures(
        gate.failures,
        gate.trace_root,
        'gate.json',
        `## Failed runs of \`${gate.baseline}\` and \`${gate.candidate}\``,
      ),
      ...(gate.warnings.length > 0
        ? ['', '## Warnings', '', ...gate.warnings.slice(0, MAX_LISTED).map((w) => `- ${plain(w, 400)}`)]
        : []),
    ].join('\n') + '\n'
  )
}

type QuarantineEntries = Report['quarantine']

const quarantineLabel = (q: NonNullable<QuarantineEntries>[number]): string =>
  `${q.scenario}${q.mode ? ` under ${q.mode}` : ''}${q.provider ? ` (${q.provider})` : ''} until ${q.expires}: ${plain(q.reason, 160)}`

/** The quarantine file's entries for these rows: named beside the figures, which still count them. */
function quarantineSection(entries: QuarantineEntries): string[] {
  if (!entries || entries.length === 0) return []
  const active = entries.filter((q) => !q.expired)
  const expired = entries.filter((q) => q.expired)
  return [
    '',
    '## Quarantined',
    '',
    'Scenarios the team found flaky (the quarantine file). Their runs are still counted in every figure and check above: weigh their failures knowing this.',
    '',
    ...active.map((q) => `- ${quarantineLabel(q)}`),
    ...expired.map((q) => `- expired: ${quarantineLabel(q)} (look at it again: it marks nothing now)`),
  ]
}

/** The gate's fallback figures beside its reliability checks: informational unless the profile judges them. */
function fallbackLines(gate: GateDocument): string[] {
  const sentence = fallbackSentence(gate.comparison)
  if (!sentence) return []
  const judged = gate.checks.some((c) => c.name === 'reliability_fallback_rate')
  return [
    '',
    `${sentence} ${judged ? 'Judged by `reliability_fallback_rate` above.' : 'Informational: the profile sets no `max_fallback_rate_pct`.'} ${FALLBACK_NOTE}`,
  ]
}

/** The compact table `gate` and `run` print to the terminal, above the verdict line (gate/verdict.ts). */
export function renderGateTable(gate: GateDocument): string {
  if (gate.providers?.length) {
    const parts = gate.providers.map(
      (part) =>
        `${providerName(part.provider).replace(/`/g, '')}:\n${renderGateTable(part)}\nprovider's verdict: ${part.verdict.toUpperCase()}`,
    )
    return [...parts, PROVIDERS_RULE].join('\n\n')
  }
  const lines = gate.checks.flatMap((c) => {
    const mdeValue = checkMde(c, gate.confidence)
    const why = shownReason(c) ? ` (${c.reason})` : ''
    // A reliability check's detectable regression under it: what its PASS could not see (efficiency: its MDE).
    const detects = c.group === 'reliability' && c.detectable ? [`${' '.repeat(13)}${c.detectable.text}`] : []
    return [
      `${c.verdict.toUpperCase().padEnd(12)} ${c.name.padEnd(40)} ${num(c.value, 1).padStart(8)} ${c.operator} ${num(c.threshold, 1).padEnd(6)}${interval(c.interval)}${mdeValue === null ? '' : `  MDE ${num(mdeValue, 1)}`}${why}`,
      ...detects,
    ]
  })
  const look = gate.sequential
    ? [
        `look ${gate.sequential.look} of ${gate.sequential.looks.length} (${gate.sequential.repetitions} repetitions per cell, ${confidenceLabel(gate)} intervals): ${gate.sequential.stopped}`,
      ]
    : []
  const fallbacks = gate.checks.some((c) => c.name === 'reliability_fallback_rate')
    ? null
    : fallbackSentence(gate.comparison, (m) => m)
  const quarantined = (gate.quarantine ?? []).filter((q) => !q.expired)
  const informational = [
    ...(gate.unseen_doubling ? [`${'WARNING'.padEnd(12)} ${gate.unseen_doubling}`] : []),
    ...(fallbacks ? [`${'INFO'.padEnd(12)} ${fallbacks}`] : []),
    ...(quarantined.length > 0
      ? [`${'QUARANTINED'.padEnd(12)} ${quarantined.map(quarantineLabel).join('; ')} (still judged above)`]
      : []),
  ]
  return [
    `gate ${gate.profile}: ${gate.candidate} vs ${gate.baseline} (${gate.decision}, estimand ${gate.estimand ?? 'population'}, model ${gate.model ?? 'mixed'})`,
    ...lines,
    ...informational,
    ...look,
  ].join('\n')
}
