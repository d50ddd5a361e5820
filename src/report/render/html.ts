/**
 * The HTML report (summary.html): one self-contained file, no request made to draw it. Everything
 * heavy is computed here, in Node: the per-mode distributions (box plots), the per-scenario
 * reductions of each mode against the baseline with seeded bootstrap intervals (forest plots), the
 * gate's checks against their thresholds, all drawn as inline SVG; the browser only pages through a
 * compact, gzip-compressed index of the runs and opens a run's trace on demand (./html/runs.ts says
 * how traces are reached from a file:// page). A Content-Security-Policy with the hashes of the
 * page's one script and one style sheet forbids any other script, style or request.
 */
import {createHash} from 'node:crypto'
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {writeFileAtomic} from '../../shared/atomic-write.js'
import {mean} from '../../stats/descriptive.js'
import {percentileOfSorted} from '../../stats/quantiles.js'
import {emptyAggregate, modeCells, type Aggregate, type MetricColumns} from '../aggregate/aggregate.js'
import {presentSorted} from '../aggregate/columns.js'
import {EFFICIENCY_METRICS, scenarioInterval, type EfficiencyMetric, type Reduction} from '../aggregate/compare.js'
import {
  boxPlotSvg,
  escapeHtml,
  forestPlotSvg,
  formatValue,
  MODE_COLOURS,
  thresholdSvg,
  type BoxStats,
  type ForestRow,
  type Unit,
} from './html/charts.js'
import {reportClientSource} from './html/client.js'
import {
  buildRunIndex,
  DEFAULT_TRACE_BUDGET,
  embedTraces,
  encodeRunIndex,
  indexForReport,
  type EmbeddedTraces,
  type TraceBudget,
} from './html/runs.js'
import {REPORT_CSS} from './html/style.js'
import {API_COST_NOTE, apiCostSentence, apiCostTable, FALLBACK_NOTE, fallbackSentence} from './markdown.js'
import type {LoadedRows} from '../aggregate/rows.js'
import type {GateDocument} from '../aggregate/report-schema.js'
import type {Report} from '../aggregate/summary.js'
import {verdictLine, type Verdict} from '../gate/verdict.js'

export const HTML_FILE = 'summary.html'
/** Rows a page of the runs table shows. */
const PAGE_SIZE = 100
/** Points drawn beyond a box plot's whiskers, per side: the page stays bounded whatever the rows. */
const OUTLIERS_PER_SIDE = 20

export interface Distribution {
  metric: keyof MetricColumns
  title: string
  unit: Unit
  boxes: Array<BoxStats | {mode: string; n: 0}>
}

interface MetricDeltas {
  metric: EfficiencyMetric
  title: string
  /** The suite value: the geometric-mean reduction over scenarios, with its hierarchical interval. */
  overall: {label: string; value: number | null; interval: [number, number] | null}
  rows: ForestRow[]
}

export interface ModeDeltas {
  baseline: string
  candidate: string
  metrics: MetricDeltas[]
}

export interface HtmlReportInput {
  report: Report
  gate: GateDocument | null
  /** Where the gate came from, when there is one. */
  gateSource?: string
  /** What happened (gate/verdict.ts): the page's headline; null: not decided (the gate was refused). */
  verdict: Verdict | null
  distributions: Distribution[]
  deltas: ModeDeltas[]
  /** The run index as the page embeds it (encodeRunIndex): one encoding for every page of a report. */
  runs: string
  traces: EmbeddedTraces
}

const DISTRIBUTIONS: Array<[keyof MetricColumns, string, Unit]> = [
  ['tokens_active', 'Active tokens per run', 'tokens'],
  ['latency_agent', 'Agent latency per run', 'ms'],
  ['latency_wall', 'Wall latency per run', 'ms'],
  ['tool_calls', 'Tool calls per run', 'calls'],
]

/** A box plot's figures from values sorted ascending. */
export function boxStats(mode: string, sorted: Float64Array): BoxStats | {mode: string; n: 0} {
  const count = sorted.length
  if (count === 0) return {mode, n: 0}
  const q1 = percentileOfSorted(sorted, 25)
  const q3 = percentileOfSorted(sorted, 75)
  const fence = 1.5 * (q3 - q1)
  let low = 0
  while (low < count && sorted[low]! < q1 - fence) low++
  let high = count - 1
  while (high > 0 && sorted[high]! > q3 + fence) high--
  const pick = (from: number, to: number): number[] => {
    const size = to - from
    if (size <= 0) return []
    const step = Math.max(1, size / OUTLIERS_PER_SIDE)
    const out = new Set<number>()
    for (let k = 0; k < size && out.size < OUTLIERS_PER_SIDE; k += step) out.add(sorted[from + Math.floor(k)]!)
    out.add(sorted[to - 1]!)
    return [...out]
  }
  return {
    mode,
    n: count,
    min: sorted[0]!,
    q1,
    median: percentileOfSorted(sorted, 50),
    q3,
    max: sorted[count - 1]!,
    mean: mean(sorted),
    whisker_low: sorted[low]!,
    whisker_high: sorted[high]!,
    outliers: [...pick(0, low), ...pick(high + 1, count)],
    outlier_count: low + (count - 1 - high),
  }
}

/** Every run of each mode, per metric (missing values left out). */
export function modeDistributions(aggregate: Aggregate, modes: string[]): Distribution[] {
  return DISTRIBUTIONS.map(([metric, title, unit]) => ({
    metric,
    title,
    unit,
    boxes: modes.map((mode) => {
      const cells = modeCells(aggregate, mode)
      const values = new Float64Array(cells.reduce((n, c) => n + c.all[metric].length, 0))
      let offset = 0
      for (const cell of cells) {
        values.set(cell.all[metric].values(), offset)
        offset += cell.all[metric].length
      }
      return boxStats(mode, presentSorted(values, true))
    }),
  }))
}

const DELTA_TITLES: Record<EfficiencyMetric, string> = {
  tokens_active: 'Active tokens reduction %',
  latency_agent: 'Agent latency reduction %',
  latency_wall: 'Wall latency reduction % (not gated)',
  tool_calls: 'Tool calls reduction %',
  cost: 'Cost reduction %',
}

/** The suite reduction of a metric in a comparison. */
function suiteReduction(delta: Report['deltas'][number], metric: EfficiencyMetric): Reduction | null | undefined {
  const e = delta.efficiency
  const byMetric: Record<EfficiencyMetric, Reduction | null | undefined> = {
    tokens_active: e.tokens_active_reduction_pct,
    latency_agent: e.latency_reduction_pct,
    latency_wall: e.latency_wall_reduction_pct,
    tool_calls: e.tool_call_reduction_pct,
    cost: e.cost_reduction_pct,
  }
  return byMetric[metric]
}

/**
 * Per scenario, each mode against the baseline: the scenario's effect (the reduction of the geometric
 * means, its part in the suite effect) with a seeded run-level bootstrap interval, and the suite
 * effect with its hierarchical interval.
 */
export function scenarioDeltas(aggregate: Aggregate, report: Report): ModeDeltas[] {
  const {seed, resamples} = report.bootstrap
  return report.deltas.map((delta, d) => {
    const base = aggregate.cells.get(delta.baseline)
    const cand = aggregate.cells.get(delta.candidate)
    const metrics = EFFICIENCY_METRICS.filter((m) => {
      const suite = suiteReduction(delta, m)
      return suite && !suite.missing
    })
    return {
      baseline: delta.baseline,
      candidate: delta.candidate,
      metrics: metrics.map((metric, m): MetricDeltas => {
        const suite = suiteReduction(delta, metric)!
        const rows = delta.scenarios.map((s, i): ForestRow => {
          const value = s.effect_pct?.[metric] ?? null
          if (!s.eligible)
            return {
              label: s.scenario_id,
              value: null,
              interval: null,
              note: `not comparable (stable runs: ${s.baseline_stable_runs} / ${s.candidate_stable_runs})`,
            }
          if (value === null) return {label: s.scenario_id, value: null, interval: null, note: 'no data'}
          const interval = scenarioInterval(base!.get(s.scenario_id)!, cand!.get(s.scenario_id)!, metric, {
            seed: seed + 1000 * (d + 1) + 10 * i + m,
            resamples,
          })
          return {label: s.scenario_id, value, interval}
        })
        const interval =
          suite.interval && suite.interval[0] !== null && suite.interval[1] !== null
            ? ([suite.interval[0], suite.interval[1]] as [number, number])
            : null
        const worst = suite.worst_scenario ? `; worst ${suite.worst_scenario}` : ''
        return {
          metric,
          title: DELTA_TITLES[metric],
          overall: {label: `suite (geometric mean over scenarios${worst})`, value: suite.value, interval},
          rows,
        }
      }),
    }
  })
}

// ---- the page ----

const fixed = (value: number | null | undefined): string =>
  value === null || value === undefined ? '–' : value.toFixed(1)
const pct = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '–' : `${value.toFixed(digits)}%`
const interval = (values: ReadonlyArray<number | null> | null | undefined, unit: Unit = 'pct'): string =>
  !values || values[0] === null || values[1] === null || values[0] === undefined || values[1] === undefined
    ? ''
    : ` [${formatValue(values[0], unit)}, ${formatValue(values[1], unit)}]`

function swatch(colour: string): string {
  return `<svg class="swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${colour}"/></svg>`
}

function table(header: string[], rows: string[][], numeric: (column: number) => boolean = (c) => c > 0): string {
  const head = header.map((h, c) => `<th${numeric(c) ? ' class="num"' : ''}>${h}</th>`).join('')
  const body = rows
    .map((r) => `<tr>${r.map((cell, c) => `<td${numeric(c) ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`)
    .join('\n')
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`
}

/** JSON for a data block: "<" escaped, so no row content can close the script element. */
/** The provider a page of a report of several is about (each provider's page is its own). */
const providerOf = (report: Report): string =>
  report.provider === undefined ? '' : `, provider ${escapeHtml(report.provider ?? '(none)')}`

function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
  return `<script type="application/json" id="${id}">${json}</script>`
}

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

function gateSection(gate: GateDocument, source: string | undefined): string {
  const rows = gate.checks.map((c) => [
    `<code>${escapeHtml(c.name)}</code>`,
    escapeHtml(
      `${fixed(c.value)}${c.interval && c.interval[0] !== null && c.interval[1] !== null ? ` [${fixed(c.interval[0])}, ${fixed(c.interval[1])}]` : ''}${c.mde === null || c.mde === undefined ? '' : ` · MDE ${fixed(c.mde)}`}`,
    ),
    escapeHtml(`${c.operator} ${fixed(c.threshold)}`),
    thresholdSvg(c),
    `<span class="verdict ${escapeHtml(c.verdict)}">${escapeHtml(c.verdict)}</span>`,
    escapeHtml(c.detectable?.text ?? '–'),
    escapeHtml(c.reason && c.verdict !== 'pass' && c.verdict !== 'fail' ? `${c.reason}. ${c.detail}` : c.detail),
  ])
  const level = `${Math.round((gate.confidence ?? 0.95) * 1000) / 10}%`
  return [
    '<section id="gate"><h2>Gate</h2>',
    `<div class="banner ${escapeHtml(gate.verdict)}"><span class="verdict ${escapeHtml(gate.verdict)}">${escapeHtml(gate.verdict.toUpperCase())}</span> `,
    `profile <code>${escapeHtml(gate.profile)}</code>: <code>${escapeHtml(gate.candidate)}</code> against <code>${escapeHtml(gate.baseline)}</code>, `,
    `model ${escapeHtml(gate.model ?? 'mixed')}${gate.override ? ` (thresholds for ${escapeHtml(gate.override)})` : ' (default thresholds)'}, decision <code>${escapeHtml(gate.decision)}</code>, min_samples ${gate.min_samples}, `,
    `bootstrap seed ${gate.bootstrap.seed} × ${gate.bootstrap.resamples}; exit code ${gate.exit_code}.${source ? ` <span class="muted">(${escapeHtml(source)})</span>` : ''}</div>`,
    ...(gate.unseen_doubling ? [`<div class="banner inconclusive">${escapeHtml(gate.unseen_doubling)}</div>`] : []),
    `<p class="muted">Each check's value with its ${level} interval against its threshold: the shaded side passes. Under decision <code>ci</code> an interval that straddles the threshold is inconclusive, and cells with fewer than 3 runs decide nothing. MDE: the minimum detectable effect at this many runs. Detects: what this size catches with 80% power (a reliability check: the true value its rule passes only 20% of the time, a smaller regression may pass; a reduction: the true one it passes 80% of the time).${gate.sequential ? ` Judged at look ${gate.sequential.look} of ${gate.sequential.looks.length} (${gate.sequential.repetitions} repetitions per cell): ${escapeHtml(gate.sequential.stopped)}.` : ''}</p>`,
    table(
      [
        'check',
        `value [${level} CI] · MDE`,
        'rule',
        'against the threshold',
        'verdict',
        'detects (80% power)',
        'detail',
      ],
      rows,
      (c) => c === 1 || c === 2,
    ),
    ...fallbackParagraph(gate),
    '</section>',
  ].join('\n')
}

/** The gate's fallback figures under its checks: informational unless the profile judges them. */
function fallbackParagraph(gate: GateDocument): string[] {
  // The sentence is numbers and fixed words around the mode names, which are escaped here.
  const sentence = fallbackSentence(gate.comparison, (mode) => `<code>${escapeHtml(mode)}</code>`)
  if (!sentence) return []
  const judged = gate.checks.some((c) => c.name === 'reliability_fallback_rate')
  return [
    `<p class="muted">${sentence} ${judged ? 'Judged by <code>reliability_fallback_rate</code> above.' : 'Informational: the profile sets no <code>max_fallback_rate_pct</code>.'} ${escapeHtml(FALLBACK_NOTE)}</p>`,
  ]
}

/** The failed runs per scenario x mode (outcomes, error types); each run's reason is in *Runs*. */
function failuresSection(report: Report): string {
  const failures = report.failures
  if (!failures || failures.failed_runs === 0) return ''
  const count = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')
  return [
    '<section id="failures"><h2>Failed runs</h2>',
    `<p>${failures.failed_runs} run(s) failed in ${failures.by_scenario_mode.length} scenario × mode pair(s). Choose the outcome in <a href="#runs">Runs</a> to see each one's error, checkpoints and trace.</p>`,
    table(
      ['scenario', 'mode', 'failed', 'outcomes', 'error types'],
      failures.by_scenario_mode.map((p) => [
        escapeHtml(p.scenario_id),
        `<code>${escapeHtml(p.mode)}</code>`,
        escapeHtml(`${p.failed} of ${p.runs}`),
        escapeHtml(count(p.outcomes)),
        escapeHtml(count(p.error_types)),
      ]),
      (c) => c === 2,
    ),
    '</section>',
  ].join('\n')
}

/** Each mode's GitHub API cost, and each comparison's, where rows record it. */
function apiCostSection(report: Report): string {
  const cost = apiCostTable(report)
  if (!cost) return ''
  const code = (mode: string) => `<code>${escapeHtml(mode)}</code>`
  const sentences = report.deltas.map((delta) => apiCostSentence(delta, code)).filter(Boolean)
  return [
    '<section id="api-cost"><h2>GitHub API cost</h2>',
    `<p class="muted">${escapeHtml(API_COST_NOTE)}</p>`,
    table(
      cost.header.map(escapeHtml),
      cost.rows.map(([mode, ...rest]) => [code(mode!), ...rest.map(escapeHtml)]),
    ),
    ...sentences.map((sentence) => `<p>${sentence}</p>`),
    '</section>',
  ].join('\n')
}

function modesSection(report: Report, colour: (mode: string) => string): string {
  // Fallbacks where the rows record them (rows before the field do not): a column, and what it means.
  const fallbacks = Object.values(report.modes).some((m) => m.fallback_runs !== null && m.fallback_runs !== undefined)
  const rows = Object.entries(report.modes).map(([mode, m]) => [
    `${swatch(colour(mode))}<code>${escapeHtml(mode)}</code>`,
    escapeHtml(m.models.join(', ') || '–'),
    String(m.runs),
    escapeHtml(`${pct(m.success_rate)}${interval(m.success_rate_ci)}`),
    escapeHtml(pct(m.output_validity_rate)),
    escapeHtml(pct(m.runner_failure_rate)),
    escapeHtml(pct(m.timeout_stall_rate)),
    escapeHtml(pct(m.retry_rate)),
    escapeHtml(formatValue(m.median_latency_ms_wall, 'ms')),
    escapeHtml(`${formatValue(m.median_latency_ms_agent, 'ms')} / ${formatValue(m.p90_latency_ms_agent, 'ms')}`),
    escapeHtml(`${formatValue(m.median_tokens_active, 'tokens')} / ${formatValue(m.p90_tokens_active, 'tokens')}`),
    escapeHtml(formatValue(m.median_tool_calls, 'calls')),
    escapeHtml(formatValue(m.median_tool_schema_tokens, 'tokens')),
    escapeHtml(formatValue(m.median_cost_usd, 'usd')),
    m.pass_hat_k.value === null ? '–' : escapeHtml(`${m.pass_hat_k.value.toFixed(2)} (k=${m.pass_hat_k.k})`),
    ...(fallbacks
      ? [
          m.fallback_runs === null || m.fallback_runs === undefined
            ? '–'
            : escapeHtml(`${m.fallback_runs} (${pct(m.fallback_rate)}), ${m.fallback_passes ?? 0} passed`),
        ]
      : []),
  ])
  return [
    '<section id="modes"><h2>Modes</h2>',
    table(
      [
        'mode',
        'model',
        'runs',
        'success [95% CI]',
        'valid',
        'runner fail',
        'timeout',
        'retry',
        'wall (median)',
        'agent (median / p90)',
        'active tokens (median / p90)',
        'tool calls',
        'tool schema tokens',
        'cost',
        'pass^k',
        ...(fallbacks ? ['fallbacks'] : []),
      ],
      rows,
      (c) => c >= 2,
    ),
    ...(fallbacks ? [`<p class="muted">${escapeHtml(FALLBACK_NOTE)}</p>`] : []),
    '</section>',
  ].join('\n')
}

function distributionsSection(distributions: Distribution[], colour: (mode: string) => string): string {
  const figures = distributions.map(
    (d) =>
      `<figure>${`<figcaption>${escapeHtml(d.title)}</figcaption>`}${boxPlotSvg({id: `dist-${d.metric}`, title: `${d.title}, by mode`, unit: d.unit, boxes: d.boxes, colour})}</figure>`,
  )
  return [
    '<section id="distributions"><h2>Distributions by mode</h2>',
    '<p class="muted">Every run of each mode. Box: quartiles; thick line: median; diamond: mean; whiskers: the furthest runs within 1.5 IQR of the box; circles: runs beyond (a sample of at most 20 a side). Hover for the figures.</p>',
    `<div class="charts">${figures.join('\n')}</div>`,
    '</section>',
  ].join('\n')
}

function deltasSection(report: Report, deltas: ModeDeltas[]): string {
  if (deltas.length === 0)
    return `<section id="deltas"><h2>Against the baseline</h2><p class="muted">No mode to compare with the baseline <code>${escapeHtml(report.baseline)}</code>.</p></section>`
  const parts = ['<section id="deltas"><h2>Against the baseline</h2>']
  for (const [d, delta] of deltas.entries()) {
    const summary = report.deltas[d]!
    const e = summary.efficiency
    parts.push(
      `<h3><code>${escapeHtml(delta.candidate)}</code> against <code>${escapeHtml(delta.baseline)}</code></h3>`,
      `<p class="muted">Per scenario, the reduction of the candidate's geometric mean against the baseline's on stable runs (success, valid output, no runner failure), paired by iteration block where the runner interleaved the modes, with its seeded run-level bootstrap 95% interval (${report.bootstrap.resamples.toLocaleString('en-US')} resamples); positive means the candidate spends less. ${e.eligible_scenarios} of ${e.total_scenarios} scenarios are comparable. The band is the suite effect (the geometric mean over scenarios) and its hierarchical interval over scenarios and runs.</p>`,
      table(
        ['measure', 'value [95% CI]'],
        [
          [
            'success rate delta (points)',
            escapeHtml(
              `${fixed(summary.reliability.success_rate_delta_pp.value)}${interval(summary.reliability.success_rate_delta_pp.interval, 'calls')}`,
            ),
          ],
          ...delta.metrics.map((m) => [
            escapeHtml(`${m.title}, ${m.overall.label}`),
            escapeHtml(`${formatValue(m.overall.value, 'pct')}${interval(m.overall.interval)}`),
          ]),
        ],
      ),
      `<div class="charts">${delta.metrics
        .map(
          (m) =>
            `<figure><figcaption>${escapeHtml(m.title)}</figcaption>${forestPlotSvg({id: `delta-${d}-${m.metric}`, title: `${m.title}: ${delta.candidate} against ${delta.baseline}, per scenario`, rows: m.rows, overall: m.overall})}</figure>`,
        )
        .join('\n')}</div>`,
    )
  }
  parts.push('</section>')
  return parts.join('\n')
}

function scenariosSection(report: Report): string {
  const modes = Object.keys(report.modes)
  const ids = [...new Set(report.scenarios.map((s) => s.scenario_id))].sort()
  const cell = new Map(report.scenarios.map((s) => [`${s.scenario_id}\u0000${s.mode}`, s]))
  const na = new Map((report.not_applicable ?? []).map((n) => [`${n.scenario_id}\u0000${n.mode}`, n.reason]))
  const rows = ids.map((id) => [
    `<code>${escapeHtml(id)}</code>`,
    ...modes.map((mode) => {
      const s = cell.get(`${id}\u0000${mode}`)
      const reason = na.get(`${id}\u0000${mode}`)
      if (!s) return reason ? `<span class="muted" title="${escapeHtml(reason)}">n/a</span>` : '–'
      return escapeHtml(
        `${pct(s.success_rate, 0)} · ${formatValue(s.median_tokens_active, 'tokens')} · ${formatValue(s.median_latency_ms_wall, 'ms')} · ${formatValue(s.median_tool_calls, 'calls')}`,
      )
    }),
  ])
  return [
    '<section id="scenarios"><h2>Scenarios</h2>',
    '<p class="muted">Per scenario and mode: success · median active tokens · median wall latency · median tool calls; n/a: the scenario declares the mode cannot solve it (hover for the reason).</p>',
    table(['scenario', ...modes.map((m) => `<code>${escapeHtml(m)}</code>`)], rows, () => false),
    '</section>',
  ].join('\n')
}

function runsSection(input: HtmlReportInput): string {
  const {traces} = input
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1)
  const traceNote =
    traces.embedded + traces.linked === 0
      ? 'No run has a trace file (imported rows carry none).'
      : `${traces.embedded} of ${traces.embedded + traces.linked} traces are embedded in this page (${mb(traces.bytes)} MB compressed; failed runs first, then one run of every scenario × mode, up to ${mb(traces.budget.totalBytes)} MB) and open from a file as they are. The others are linked: the link opens the trace JSON file (beside the results, at its path relative to this page), and when the page is served over http it is shown here.`
  // A trace behind a symbolic link could be any file of this machine's: it is left out, and said so.
  const linkNote =
    traces.links > 0
      ? ` ${traces.links} trace(s) are symbolic links (or in a folder that is one) and were left out: ghx-bench does not follow links under its results folder.`
      : ''
  return [
    '<section id="runs"><h2>Runs</h2>',
    `<p class="muted">Click a run to see its trace: the prompt, every turn with its tool calls (arguments and output), the messages, the checkpoints. ${escapeHtml(traceNote + linkNote)}</p>`,
    '<div class="filters">',
    '<label>mode <select id="f-mode"><option value="">all</option></select></label>',
    '<label>scenario <select id="f-scenario"><option value="">all</option></select></label>',
    '<label>outcome <select id="f-outcome"><option value="">all</option></select></label>',
    '<label>search <input id="f-text" type="search" placeholder="scenario or error contains"></label>',
    '<span id="runs-status" class="muted">reading the runs…</span>',
    '</div>',
    '<div class="pager"><button type="button" id="p-first" title="first page">«</button><button type="button" id="p-prev" title="previous page">‹</button><span id="p-info"></span><button type="button" id="p-next" title="next page">›</button><button type="button" id="p-last" title="last page">»</button>',
    `<label class="muted">rows a page <select id="p-size">${[50, 100, 250, 1000].map((n) => `<option${n === PAGE_SIZE ? ' selected' : ''}>${n}</option>`).join('')}</select></label></div>`,
    '<div class="scroll"><table id="runs-table"><thead><tr></tr></thead><tbody></tbody></table></div>',
    '<div id="run-detail" hidden></div>',
    '</section>',
  ].join('\n')
}

export function renderHtmlReport(input: HtmlReportInput): string {
  const {report, gate, verdict} = input
  const modes = Object.keys(report.modes)
  const colour = (mode: string) => MODE_COLOURS[Math.max(0, modes.indexOf(mode)) % MODE_COLOURS.length]!
  const script = reportClientSource()
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(REPORT_CSS)}; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'`
  const runIds =
    report.run_ids.length <= 6
      ? report.run_ids.join(', ')
      : `${report.run_ids.slice(0, 5).join(', ')} and ${report.run_ids.length - 5} more`
  const notApplicable = report.not_applicable ?? []
  const sections = [
    gate ? gateSection(gate, input.gateSource) : '',
    failuresSection(report),
    modesSection(report, colour),
    apiCostSection(report),
    distributionsSection(input.distributions, colour),
    deltasSection(report, input.deltas),
    scenariosSection(report),
    runsSection(input),
    notApplicable.length > 0
      ? `<section id="not-applicable"><h2>Not applicable</h2><ul>${notApplicable.map((n) => `<li><code>${escapeHtml(n.mode)}</code> · <code>${escapeHtml(n.scenario_id)}</code>: ${escapeHtml(n.reason)}</li>`).join('')}</ul></section>`
      : '',
    report.warnings.length > 0
      ? `<section id="warnings"><h2>Warnings</h2><ul>${report.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></section>`
      : '',
  ]
  const toc = [
    ['gate', gate !== null],
    ['failures', (report.failures?.failed_runs ?? 0) > 0],
    ['modes', true],
    ['distributions', true],
    ['deltas', true],
    ['scenarios', true],
    ['runs', true],
    ['not-applicable', notApplicable.length > 0],
    ['warnings', report.warnings.length > 0],
  ]
    .filter(([, present]) => present)
    .map(([id]) => `<a href="#${id as string}">${(id as string).replace('-', ' ')}</a>`)
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="ghx-bench">',
    `<title>ghx-bench report: ${escapeHtml(report.run_ids.join(', ') || 'rows')}${providerOf(report)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head><body><main>',
    `<h1>ghx-bench report${providerOf(report)}${verdict ? ` <span class="verdict ${escapeHtml(verdict.verdict)}">${escapeHtml(verdict.verdict)}</span>` : ''}</h1>`,
    verdict
      ? `<p id="verdict" class="banner ${escapeHtml(verdict.verdict)}">${escapeHtml(verdictLine(verdict))}</p>`
      : '',
    `<p class="lead">${report.rows.toLocaleString('en-US')} rows from run ${escapeHtml(runIds)}; baseline <code>${escapeHtml(report.baseline)}</code>; bootstrap seed ${report.bootstrap.seed}, ${report.bootstrap.resamples.toLocaleString('en-US')} resamples. Generated ${escapeHtml(report.generated_at)}. Inputs: ${report.inputs.map((i) => `<code>${escapeHtml(i)}</code>`).join(', ')}.</p>`,
    `<nav class="toc">${toc.join('')}</nav>`,
    ...sections.filter(Boolean),
    '</main>',
    jsonBlock('ghxb-meta', {
      page_size: PAGE_SIZE,
      trace_budget_bytes: input.traces.budget.totalBytes,
      embedded: input.traces.embedded,
      linked: input.traces.linked,
    }),
    `<script type="application/octet-stream" id="ghxb-runs" data-encoding="gzip+base64">${input.runs}</script>`,
    jsonBlock('ghxb-traces', input.traces.traces),
    `<script>${script}</script>`,
    '</body></html>',
    '',
  ].join('\n')
}

// ---- the service ----

export interface HtmlReportOptions {
  /** The folder summary.html goes to (the report's). */
  dir: string
  loaded: LoadedRows
  report: Report
  /** The gate of these rows, if any. */
  gate: GateDocument | null
  /** Where the gate came from, when not from this judgement (gate.json of the same rows). */
  gateSource?: string
  /** What happened: every page's headline (with several providers, the verdict of them all). */
  verdict: Verdict | null
  cwd?: string
  traceBudget?: TraceBudget
}

/**
 * Writes summary.html into `dir` and returns its path; with rows of several providers, a page for each
 * provider's report and gate (summary-<provider>.html), none mixing them.
 */
export async function writeHtmlReport(options: HtmlReportOptions): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd()
  const {providers} = options.loaded
  const files = options.loaded.inputs.map((input) => path.resolve(cwd, input))
  const {gate, gateSource, verdict} = options
  const built = options.loaded.runIndex
    ? indexForReport(options.loaded.runIndex, options.dir)
    : await buildRunIndex(files, options.dir, cwd)
  const traces = await embedTraces(built, options.traceBudget ?? DEFAULT_TRACE_BUDGET)
  const runs = await encodeRunIndex(built.index)
  const pages = options.report.providers?.length
    ? options.report.providers.map((report) => ({
        report,
        aggregate: providers.get(report.provider),
        gate: gate?.providers?.find((g) => g.provider === report.provider) ?? null,
        file: `summary-${(report.provider ?? 'none').replace(/[^A-Za-z0-9._-]/g, '_')}.html`,
      }))
    : [{report: options.report, aggregate: [...providers.values()][0], gate, file: HTML_FILE}]
  await mkdir(options.dir, {recursive: true})
  const written: string[] = []
  for (const page of pages) {
    const aggregate = page.aggregate ?? emptyAggregate()
    const html = renderHtmlReport({
      report: page.report,
      gate: page.gate,
      gateSource,
      verdict,
      distributions: modeDistributions(aggregate, Object.keys(page.report.modes)),
      deltas: scenarioDeltas(aggregate, page.report),
      runs,
      traces,
    })
    written.push(path.join(options.dir, page.file))
    await writeFileAtomic(written.at(-1)!, html)
  }
  return written
}
