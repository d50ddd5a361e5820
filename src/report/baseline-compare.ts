/**
 * `report --compare <run-id|file>`: this run against a previous one — a run id under results_dir, a
 * results file or folder, or a summary.json (a blessed baseline is a summary.json kept in the
 * repository). Per mode, per scenario x mode and per gate check (each mode's deltas against the
 * baseline, as the report computes them), every figure before and after, flagged where it regressed
 * beyond a stated tolerance: success down by more than `rate_points` points; median active tokens,
 * wall latency or tool calls up by more than `relative_pct` %; a gate rate worse by more than
 * `rate_points` points; a gate reduction down by more than `relative_pct` points.
 *
 * Not to be confused with compare.ts, which compares two modes within one set of rows.
 */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import type {FromSchema} from 'json-schema-to-ts'
import type {LoadedConfig} from '../config/load-config.js'
import {BadInputError} from '../shared/diagnostics.js'
import {compileSchema} from '../shared/schema-validator.js'
import {SCHEMA_BASE, SCHEMA_DIALECT} from '../schemas/common.js'
import {thresholdKeys, type Thresholds} from '../schemas/profile.js'
import {displayPath} from '../shared/source-document.js'
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from '../stats/bootstrap.js'
import {evaluateGate} from './gate/gate.js'
import {code, MAX_LISTED, num, plain} from './render/markdown.js'
import {outputDir, writeOutputs, type OutputOptions} from './write.js'
import {reportSchema} from './aggregate/report-schema.js'
import {buildProvidersReport, type Report} from './aggregate/summary.js'
import {loadRows, type LoadedRows} from './aggregate/rows.js'
import {runFlips, runFlipsSchema, type RunFlips} from './run-flips.js'
import {keyDifferences} from '../results/comparability.js'
import type {RunInfo} from '../results/run-info.js'

const DEFAULT_TOLERANCES = {relative_pct: 10, rate_points: 5} as const

const figure = {type: ['number', 'null']} as const
const METRIC_NAMES = ['success_rate', 'median_tokens_active', 'median_latency_ms_wall', 'median_tool_calls'] as const
const metricSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'previous', 'current', 'change', 'change_pct', 'regressed'],
  properties: {
    name: {type: 'string', enum: METRIC_NAMES},
    previous: figure,
    current: figure,
    change: {...figure, description: 'current - previous (points for the success rate)'},
    change_pct: {...figure, description: 'the change relative to previous, in % (medians only)'},
    regressed: {type: 'boolean'},
  },
} as const
const runsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'run_ids', 'rows'],
  properties: {
    source: {type: 'string'},
    run_ids: {type: 'array', items: {type: 'string'}},
    rows: {type: 'integer', minimum: 0},
  },
} as const
const status = {
  type: 'string',
  enum: ['both', 'added', 'removed', 'not_applicable'],
  description:
    'both: rows on both sides; added: only now; removed: only before; not_applicable: declared n/a now, rows before',
} as const

export const runComparisonSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'compare.schema.json',
  title: 'ghx-bench comparison with a previous run (compare.json)',
  type: 'object',
  additionalProperties: false,
  required: [
    'schema_version',
    'generated_at',
    'current',
    'previous',
    'tolerances',
    'regressions',
    'modes',
    'checks',
    'scenarios',
    'warnings',
  ],
  properties: {
    schema_version: {const: 1},
    generated_at: {type: 'string'},
    current: runsSchema,
    previous: runsSchema,
    tolerances: {
      type: 'object',
      additionalProperties: false,
      required: ['relative_pct', 'rate_points'],
      properties: {
        relative_pct: {
          type: 'number',
          minimum: 0,
          description:
            'a median may rise, and a gate reduction fall, by this much (% / points) before it is a regression',
        },
        rate_points: {
          type: 'number',
          minimum: 0,
          description: 'a success rate may fall, and a gate rate worsen, by this many points before it is a regression',
        },
      },
    },
    regressions: {
      type: 'integer',
      minimum: 0,
      description: 'figures flagged, over modes, scenario x mode pairs and gate checks',
    },
    modes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['mode', 'status', 'metrics', 'regressed'],
        properties: {
          mode: {type: 'string'},
          status,
          metrics: {type: 'array', items: metricSchema},
          regressed: {type: 'boolean'},
        },
      },
    },
    checks: {
      type: 'array',
      description: 'the gate checks’ values of each mode against the baseline, before and after',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['baseline', 'candidate', 'name', 'operator', 'previous', 'current', 'change', 'regressed'],
        properties: {
          baseline: {type: 'string'},
          candidate: {type: 'string'},
          name: {type: 'string'},
          operator: {type: 'string', enum: ['>=', '<='], description: '>=: higher is better; <=: lower is better'},
          previous: figure,
          current: figure,
          change: figure,
          regressed: {type: 'boolean'},
        },
      },
    },
    scenarios: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scenario_id', 'mode', 'status', 'metrics', 'regressed'],
        properties: {
          scenario_id: {type: 'string'},
          mode: {type: 'string'},
          status,
          metrics: {type: 'array', items: metricSchema},
          regressed: {type: 'boolean'},
        },
      },
    },
    warnings: {type: 'array', items: {type: 'string'}},
    comparability: {
      type: 'object',
      additionalProperties: false,
      required: ['checked', 'differences'],
      description:
        'the two sides’ comparability keys (run.json): checked false when a side records none (runs before keys, imported rows, a summary.json); differences: each field that differs, with both values (compared anyway only under --allow-incomparable)',
      properties: {
        checked: {type: 'boolean'},
        differences: {type: 'array', items: {type: 'string'}},
      },
    },
    run_flips: runFlipsSchema,
  },
} as const

export type RunComparison = FromSchema<typeof runComparisonSchema>
type Metric = RunComparison['modes'][number]['metrics'][number]
type MetricName = (typeof METRIC_NAMES)[number]
export type Tolerances = RunComparison['tolerances']

interface Figures {
  success_rate: number | null
  median_tokens_active: number | null
  median_latency_ms_wall: number | null
  median_tool_calls: number | null
}

function metric(name: MetricName, previous: number | null, current: number | null, tolerances: Tolerances): Metric {
  if (previous === null || current === null)
    return {name, previous, current, change: null, change_pct: null, regressed: false}
  const change = current - previous
  if (name === 'success_rate')
    return {name, previous, current, change, change_pct: null, regressed: change < -tolerances.rate_points}
  const changePct = previous > 0 ? (change / previous) * 100 : null
  // Up from nothing (no tool calls before, some now) is a regression whatever the tolerance.
  const regressed = changePct === null ? previous === 0 && current > 0 : changePct > tolerances.relative_pct
  return {name, previous, current, change, change_pct: changePct, regressed}
}

function metrics(previous: Figures | undefined, current: Figures | undefined, tolerances: Tolerances): Metric[] {
  return METRIC_NAMES.map((name) => metric(name, previous?.[name] ?? null, current?.[name] ?? null, tolerances))
}

/** The gate checks' values of a delta; the thresholds do not change a value, so they are set to 0. */
function checkValues(
  delta: Report['deltas'][number],
): Array<{name: string; operator: '>=' | '<='; value: number | null}> {
  const thresholds = Object.fromEntries(thresholdKeys.map((key) => [key, 0])) as Thresholds
  return evaluateGate(delta, {
    profile: 'values',
    decision: 'point',
    min_samples: delta.min_samples,
    thresholds,
    override: null,
  }).checks.map((c) => ({name: c.name, operator: c.operator, value: c.value}))
}

/** The figures of this run against a previous one's; pure. */
export function compareRuns(
  current: Report,
  previous: Report,
  sources: {current: string; previous: string},
  tolerances: Tolerances = DEFAULT_TOLERANCES,
  now = new Date(),
): RunComparison {
  const warnings: string[] = []
  if (current.run_ids.join() === previous.run_ids.join())
    warnings.push(
      `both sides hold the same run(s) (${current.run_ids.join(', ')}): nothing can have changed but the analysis`,
    )
  if (current.baseline !== previous.baseline)
    warnings.push(
      `the baselines differ (now ${current.baseline}, before ${previous.baseline}): gate checks are compared only for the same baseline and candidate`,
    )
  const modes = [...new Set([...Object.keys(current.modes), ...Object.keys(previous.modes)])]
  const modeRows = modes.map((mode) => {
    const now = current.modes[mode]
    const before = previous.modes[mode]
    const items = metrics(before, now, tolerances)
    return {
      mode,
      status: now && before ? ('both' as const) : now ? ('added' as const) : ('removed' as const),
      metrics: items,
      regressed: items.some((m) => m.regressed),
    }
  })

  const pairKey = (scenario: string, mode: string) => `${scenario}\u0000${mode}`
  const nowPairs = new Map(current.scenarios.map((s) => [pairKey(s.scenario_id, s.mode), s]))
  const beforePairs = new Map(previous.scenarios.map((s) => [pairKey(s.scenario_id, s.mode), s]))
  const nowNotApplicable = new Set((current.not_applicable ?? []).map((n) => pairKey(n.scenario_id, n.mode)))
  const keys = [...new Set([...nowPairs.keys(), ...beforePairs.keys()])].sort()
  const scenarios = keys.map((key) => {
    const now = nowPairs.get(key)
    const before = beforePairs.get(key)
    const [scenario_id, mode] = key.split('\u0000') as [string, string]
    const items = metrics(before, now, tolerances)
    const status =
      now && before
        ? ('both' as const)
        : now
          ? ('added' as const)
          : nowNotApplicable.has(key)
            ? ('not_applicable' as const)
            : ('removed' as const)
    return {scenario_id, mode, status, metrics: items, regressed: items.some((m) => m.regressed)}
  })

  const checks: RunComparison['checks'] = []
  for (const delta of current.deltas) {
    const before = previous.deltas.find((d) => d.baseline === delta.baseline && d.candidate === delta.candidate)
    if (!before) {
      warnings.push(
        `no ${delta.candidate} against ${delta.baseline} in the previous run: its gate checks are not compared`,
      )
      continue
    }
    const beforeValues = new Map(checkValues(before).map((c) => [c.name, c.value]))
    for (const check of checkValues(delta)) {
      const previousValue = beforeValues.get(check.name) ?? null
      const change = previousValue === null || check.value === null ? null : check.value - previousValue
      const allowed = /^efficiency_.*_reduction$/.test(check.name) ? tolerances.relative_pct : tolerances.rate_points
      const regressed = change !== null && (check.operator === '>=' ? change < -allowed : change > allowed)
      checks.push({
        baseline: delta.baseline,
        candidate: delta.candidate,
        name: check.name,
        operator: check.operator,
        previous: previousValue,
        current: check.value,
        change,
        regressed,
      })
    }
  }
  const regressions =
    modeRows.reduce((n, m) => n + m.metrics.filter((x) => x.regressed).length, 0) +
    scenarios.reduce((n, s) => n + s.metrics.filter((x) => x.regressed).length, 0) +
    checks.filter((c) => c.regressed).length
  return {
    schema_version: 1,
    generated_at: now.toISOString(),
    current: {source: sources.current, run_ids: current.run_ids, rows: current.rows},
    previous: {source: sources.previous, run_ids: previous.run_ids, rows: previous.rows},
    tolerances,
    regressions,
    modes: modeRows,
    checks,
    scenarios,
    warnings,
  }
}

const FLAG = '🔻'

function metricCell(m: Metric | undefined): string {
  if (!m) return '–'
  const digits = m.name === 'success_rate' || m.name === 'median_tool_calls' ? 1 : 0
  if (m.previous === null && m.current === null) return '–'
  const change =
    m.change === null
      ? ''
      : m.name === 'success_rate'
        ? ` (${m.change >= 0 ? '+' : ''}${num(m.change, 1)} pts)`
        : m.change_pct === null
          ? m.change === 0
            ? ''
            : ' (new)'
          : ` (${m.change_pct >= 0 ? '+' : ''}${num(m.change_pct, 1)}%)`
  return `${num(m.previous, digits)} → ${num(m.current, digits)}${change}${m.regressed ? ` ${FLAG}` : ''}`
}

function table(header: string[], rows: string[][], left: number): string {
  const align = header.map((_, i) => (i < left ? ':--' : '--:'))
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n')
}

export function renderComparisonMarkdown(comparison: RunComparison): string {
  const t = comparison.tolerances
  const byName = (items: Metric[]) => new Map(items.map((m) => [m.name, m]))
  const metricHeader = ['success %', 'median active tokens', 'median wall ms', 'median tool calls']
  const out = [
    '# ghx-bench: against a previous run',
    '',
    `Now: ${comparison.current.run_ids.map((id) => `\`${id}\``).join(', ')} (${comparison.current.rows} rows). Before: ${code(comparison.previous.source, 200)} — ${comparison.previous.run_ids.map((id) => `\`${id}\``).join(', ')} (${comparison.previous.rows} rows).`,
    '',
    comparison.regressions === 0
      ? '✅ No regression beyond tolerance.'
      : `${FLAG} ${comparison.regressions} regression(s) beyond tolerance.`,
    '',
    `Tolerance: a success rate may fall by ${num(t.rate_points, 1)} points and a median (active tokens, wall latency, tool calls) rise by ${num(t.relative_pct, 1)}% before it is flagged; of the gate checks, a rate may worsen by ${num(t.rate_points, 1)} points and a reduction fall by ${num(t.relative_pct, 1)} points. Each cell: before → now (change).`,
    '',
    '## Modes',
    '',
    table(
      ['mode', ...metricHeader],
      comparison.modes.map((m) => {
        const items = byName(m.metrics)
        return [
          `\`${m.mode}\`${m.status === 'both' ? '' : ` (${m.status})`}`,
          ...METRIC_NAMES.map((name) => metricCell(items.get(name))),
        ]
      }),
      1,
    ),
  ]
  const pairs = [...new Set(comparison.checks.map((c) => `${c.candidate}\u0000${c.baseline}`))]
  for (const pair of pairs) {
    const [candidate, baseline] = pair.split('\u0000') as [string, string]
    out.push(
      '',
      `## Gate checks: \`${candidate}\` against \`${baseline}\``,
      '',
      table(
        ['check', 'before', 'now', 'change', ''],
        comparison.checks
          .filter((c) => c.candidate === candidate && c.baseline === baseline)
          .map((c) => [
            `\`${c.name}\``,
            num(c.previous, 1),
            num(c.current, 1),
            c.change === null ? '–' : `${c.change >= 0 ? '+' : ''}${num(c.change, 1)}`,
            c.regressed ? `${FLAG} regressed` : '',
          ]),
        1,
      ),
    )
  }
  const regressed = comparison.scenarios.filter((s) => s.regressed)
  out.push('', '## Scenario × mode', '')
  if (regressed.length === 0)
    out.push(
      `No scenario × mode pair regressed (${comparison.scenarios.filter((s) => s.status === 'both').length} compared).`,
    )
  else {
    out.push(
      `${regressed.length} of ${comparison.scenarios.filter((s) => s.status === 'both').length} pairs compared regressed:`,
      '',
      table(
        ['scenario', 'mode', ...metricHeader],
        regressed.slice(0, MAX_LISTED).map((s) => {
          const items = byName(s.metrics)
          return [
            plain(s.scenario_id, 100),
            `\`${s.mode}\``,
            ...METRIC_NAMES.map((name) => metricCell(items.get(name))),
          ]
        }),
        2,
      ),
    )
    if (regressed.length > MAX_LISTED) out.push('', `… and ${regressed.length - MAX_LISTED} more (see compare.json).`)
  }
  for (const [statusName, label] of [
    ['added', 'Only now (new scenario × mode pairs)'],
    ['removed', 'Only before (no rows now)'],
    ['not_applicable', 'Declared not applicable now, run before'],
  ] as const) {
    const items = comparison.scenarios.filter((s) => s.status === statusName)
    if (items.length === 0) continue
    const names = items.slice(0, MAX_LISTED).map((s) => `${plain(s.scenario_id, 100)} (\`${s.mode}\`)`)
    out.push(
      '',
      `${label}: ${names.join(', ')}${items.length > MAX_LISTED ? `, … and ${items.length - MAX_LISTED} more` : ''}.`,
    )
  }
  out.push(...runFlipLines(comparison.run_flips))
  if (comparison.warnings.length > 0)
    out.push('', '## Warnings', '', ...comparison.warnings.map((w) => `- ${plain(w, 400)}`))
  return out.join('\n') + '\n'
}

/** The runs of the two sides paired by iteration: the scenario × mode pairs whose outcomes flipped, each with its iterations and p-values. */
function runFlipLines(flips: RunFlips | undefined): string[] {
  if (!flips) return []
  const name = (p: {scenario_id: string; mode: string; provider: string | null}) =>
    `${plain(p.scenario_id, 100)} (\`${p.mode}\`${p.provider ? `, ${plain(p.provider, 60)}` : ''})`
  const flipped = flips.pairs.filter((p) => p.pass_to_fail.length + p.fail_to_pass.length > 0)
  const iterations = (list: number[]) => (list.length === 0 ? '–' : list.join(', '))
  const significant = flips.significant.map(name)
  const out = [
    '',
    '## Run against run: paired outcomes',
    '',
    `Per scenario × mode, the runs of both sides paired by iteration (${flips.pairs.length} pairs, ${flips.pairs.reduce((n, p) => n + p.paired, 0)} paired runs; ${flips.method}). Significant at ${num((1 - flips.confidence) * 100, 0)}% after adjustment: ${significant.length === 0 ? 'none' : significant.join(', ')}.`,
  ]
  if (flipped.length === 0) return [...out, '', 'No run flipped between PASS and FAIL.']
  return [
    ...out,
    '',
    table(
      ['scenario (mode)', 'paired', 'PASS→FAIL iterations', 'FAIL→PASS iterations', 'p', 'p adjusted'],
      flipped
        .slice(0, MAX_LISTED)
        .map((p) => [
          name(p),
          String(p.paired),
          iterations(p.pass_to_fail),
          iterations(p.fail_to_pass),
          num(p.p_value, 3),
          num(p.p_adjusted, 3),
        ]),
      1,
    ),
    ...(flipped.length > MAX_LISTED ? ['', `… and ${flipped.length - MAX_LISTED} more (see compare.json).`] : []),
  ]
}

export interface RunComparisonOptions extends OutputOptions {
  /** A run id under results_dir, a results file or folder, or a summary.json. */
  against: string
  /** Compare runs whose comparability keys differ (the differences are kept in compare.json); refused otherwise. */
  allowIncomparable?: boolean
  baseline?: string
  seed?: number
  resamples?: number
  tolerances?: Partial<Tolerances>
}

function isReportDocument(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'modes' in value &&
    'scenarios' in value &&
    'deltas' in value
  )
}

function isGateDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'checks' in value && 'verdict' in value
}

/** summary.json as a Report, or undefined when the file holds rows; a gate.json or a broken summary is bad input. */
async function readReportFile(file: string, shown: string): Promise<Report | undefined> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined // JSONL rows, or not JSON: the row reader says which
  }
  if (isGateDocument(value)) {
    throw new BadInputError([
      {
        file: shown,
        code: 'schema',
        message:
          'a gate.json holds no per-scenario figures: compare with the run’s summary.json, its results or its run id',
      },
    ])
  }
  if (!isReportDocument(value)) return undefined
  const validate = compileSchema(reportSchema)
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    throw new BadInputError([
      {file: shown, code: 'schema', message: `not a ghx-bench summary.json: ${problems.join('; ')}`},
    ])
  }
  return value as Report
}

/** The previous run as a report, how to name it, and its rows when it is rows (not a summary.json). */
async function loadPrevious(
  config: LoadedConfig,
  options: RunComparisonOptions,
): Promise<{report: Report; source: string; loaded?: LoadedRows}> {
  const cwd = options.cwd ?? process.cwd()
  const target = path.resolve(cwd, options.against)
  const info = await stat(target).catch(() => undefined)
  if (info?.isDirectory()) {
    const summary = path.join(target, 'summary.json')
    const report = (await stat(summary).catch(() => undefined))?.isFile()
      ? await readReportFile(summary, displayPath(summary, cwd))
      : undefined
    if (report) return {report, source: displayPath(summary, cwd)}
  } else if (info?.isFile()) {
    const report = options.against.endsWith('.json')
      ? await readReportFile(target, displayPath(target, cwd))
      : undefined
    if (report) return {report, source: displayPath(target, cwd)}
  } else if (/[\\/]|\.(jsonl?|csv)$/.test(options.against)) {
    throw new BadInputError([
      {
        file: options.against,
        code: 'io',
        message: '--compare: no such file or folder (give a run id, a results file or folder, or a summary.json)',
      },
    ])
  }
  const selection = info ? {inputs: [options.against], cwd} : {runId: options.against, cwd}
  const loaded = await loadRows(config, selection)
  const report = buildProvidersReport(loaded.providers, {
    inputs: loaded.inputs,
    warnings: loaded.warnings,
    notApplicable: loaded.runInfos.flatMap((i) => i.not_applicable),
    baseline: options.baseline ?? config.values.gate.baseline,
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  })
  return {report, source: info ? displayPath(target, cwd) : `run ${options.against}`, loaded}
}

/**
 * Whether the two sides are the same experiment: one comparability key a side (run.json), the same on
 * both. Not checked where a side records none; a side whose runs disagree among themselves is a difference.
 */
function comparabilityOf(
  current: readonly RunInfo[],
  previous: readonly RunInfo[] | undefined,
): NonNullable<RunComparison['comparability']> {
  const keyOf = (infos: readonly RunInfo[] | undefined, side: string) => {
    if (!infos || infos.length === 0 || infos.some((info) => !info.key)) return {key: undefined, differences: []}
    const [first, ...rest] = infos
    const differences = rest.flatMap((info) =>
      keyDifferences(first!.key!, info.key!).map(
        (d) => `${side}, run ${first!.run_id} against run ${info.run_id}: ${d}`,
      ),
    )
    return {key: first!.key!, differences}
  }
  const now = keyOf(current, 'now')
  const before = keyOf(previous, 'before')
  if (!now.key || !before.key) return {checked: false, differences: []}
  return {
    checked: true,
    differences: [
      ...now.differences,
      ...before.differences,
      ...(now.differences.length + before.differences.length === 0
        ? keyDifferences(before.key, now.key).map((d) => `before vs now: ${d}`)
        : []),
    ],
  }
}

/**
 * Compares the report just made (from `rows`) with the previous run and writes compare.md and
 * compare.json beside it. Runs whose comparability keys differ are bad input (each field named) unless
 * allowed; where both sides are rows, their runs are paired too (run-flips.ts).
 */
export async function produceRunComparison(
  config: LoadedConfig,
  current: Report,
  rows: LoadedRows,
  options: RunComparisonOptions,
): Promise<{comparison: RunComparison; files: string[]}> {
  const previous = await loadPrevious(config, {
    ...options,
    baseline: options.baseline ?? current.baseline,
    seed: options.seed ?? current.bootstrap.seed,
    resamples: options.resamples ?? current.bootstrap.resamples,
  })
  const comparability = comparabilityOf(rows.runInfos, previous.loaded?.runInfos)
  if (comparability.differences.length > 0 && !options.allowIncomparable)
    throw new BadInputError([
      {
        file: options.against,
        code: 'config',
        message: `--compare: the runs are not comparable (their run.json keys differ): ${comparability.differences.join('; ')}. Compare runs of the same suite, model, modes, tools and seed, or pass --allow-incomparable to compare them anyway`,
      },
    ])
  const tolerances = {...DEFAULT_TOLERANCES, ...options.tolerances}
  const compared = compareRuns(
    current,
    previous.report,
    {current: current.inputs.join(', '), previous: previous.source},
    tolerances,
  )
  const flips: RunFlips | undefined = previous.loaded ? runFlips(rows.providers, previous.loaded.providers) : undefined
  const comparison: RunComparison = {
    ...compared,
    warnings: [
      ...compared.warnings,
      ...(comparability.checked
        ? comparability.differences.map((d) => `not comparable (compared under --allow-incomparable): ${d}`)
        : ['comparability not checked: a side records no key (a run before keys, imported rows or a summary.json)']),
      ...(flips ? [] : ['no run-vs-run flips: the previous side is a summary.json, which holds no runs to pair']),
    ],
    comparability,
    ...(flips ? {run_flips: flips} : {}),
  }
  const formats = options.formats.filter((f) => f === 'md' || f === 'json')
  const files = await writeOutputs(
    outputDir(config, current, options),
    'compare',
    comparison,
    renderComparisonMarkdown(comparison),
    {...options, formats: formats.length > 0 ? formats : ['md', 'json']},
  )
  return {comparison, files}
}
