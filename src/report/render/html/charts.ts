/**
 * The HTML report's charts, drawn here as inline SVG strings from figures computed in Node: box plots
 * of a metric per mode, forest plots of per-scenario reductions with their intervals, and a gate
 * check's interval against its threshold. No script is needed to show them; every text is escaped.
 */

/** Text for HTML or SVG content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!,
  )
}

export type Unit = 'tokens' | 'ms' | 'calls' | 'pct' | 'usd'

/** A number as the charts show it: 1.2k tokens, 3.4 s, 12.5 %. */
export function formatValue(value: number | null | undefined, unit: Unit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  const abs = Math.abs(value)
  switch (unit) {
    case 'ms':
      if (abs >= 60_000) return `${trim(value / 60_000, 1)} min`
      if (abs >= 1000) return `${trim(value / 1000, abs >= 10_000 ? 1 : 2)} s`
      return `${trim(value, abs >= 100 ? 0 : 1)} ms`
    case 'pct':
      return `${trim(value, abs >= 100 ? 0 : 1)}%`
    case 'usd':
      return `$${trim(value, 4)}`
    default:
      if (abs >= 1e6) return `${trim(value / 1e6, 2)}M`
      if (abs >= 1e4) return `${trim(value / 1e3, 1)}k`
      return trim(value, abs >= 100 || Number.isInteger(value) ? 0 : 1)
  }
}

function trim(value: number, digits: number): string {
  return value.toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: 0})
}

/** Round numbers covering [low, high], about `count` of them. */
function niceTicks(low: number, high: number, count = 5): number[] {
  if (!(high > low)) return [low]
  const raw = (high - low) / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw
  const ticks: number[] = []
  for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step)
    ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t)
  return ticks
}

/** Colours of the modes, in the order the report lists them (the baseline first). */
export const MODE_COLOURS = [
  '#4e79a7',
  '#e15759',
  '#59a14f',
  '#f28e2b',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#bab0ac',
]

const n = (value: number): string => (Math.round(value * 10) / 10).toString()

/** The figures of one mode's box: Tukey whiskers (1.5 IQR), and a bounded sample of the points beyond them. */
export interface BoxStats {
  mode: string
  n: number
  min: number
  q1: number
  median: number
  q3: number
  max: number
  mean: number
  whisker_low: number
  whisker_high: number
  /** Points beyond the whiskers, at most a few dozen (evenly picked from each side). */
  outliers: number[]
  /** How many points lie beyond the whiskers in all. */
  outlier_count: number
}

export interface BoxPlotSpec {
  id: string
  title: string
  unit: Unit
  boxes: Array<BoxStats | {mode: string; n: 0}>
  /** Colour index of each mode. */
  colour: (mode: string) => string
}

const hasData = (box: BoxStats | {mode: string; n: 0}): box is BoxStats => box.n > 0

/** Horizontal box plots, one row per mode, on a shared linear axis from 0 (or the lowest value, if negative). */
export function boxPlotSvg(spec: BoxPlotSpec): string {
  const width = 720
  const left = 130
  const right = 150
  const top = 10
  const row = 34
  const plotWidth = width - left - right
  const height = top + spec.boxes.length * row + 30
  const present = spec.boxes.filter(hasData)
  const low = Math.min(0, ...present.map((b) => b.min))
  const high = Math.max(0, ...present.map((b) => b.max))
  const ticks = niceTicks(low, high > low ? high : low + 1)
  const domainLow = Math.min(low, ticks[0]!)
  const domainHigh = Math.max(high > low ? high : low + 1, ticks.at(-1)!)
  const x = (v: number) => left + ((v - domainLow) / (domainHigh - domainLow)) * plotWidth
  const out: string[] = [
    `<svg class="chart box-plot" id="${escapeHtml(spec.id)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(spec.title)}">`,
    `<title>${escapeHtml(spec.title)}</title>`,
  ]
  for (const t of ticks) {
    out.push(`<line x1="${n(x(t))}" x2="${n(x(t))}" y1="${top}" y2="${height - 24}" stroke="#e3e6ea"/>`)
    out.push(
      `<text x="${n(x(t))}" y="${height - 10}" text-anchor="middle" class="tick">${escapeHtml(formatValue(t, spec.unit))}</text>`,
    )
  }
  spec.boxes.forEach((box, i) => {
    const y = top + i * row + row / 2
    const label = box.mode.length > 18 ? `${box.mode.slice(0, 17)}…` : box.mode
    out.push(
      `<text x="${left - 8}" y="${y + 4}" text-anchor="end" class="axis-label"><title>${escapeHtml(box.mode)}</title>${escapeHtml(label)}</text>`,
    )
    if (!hasData(box)) {
      out.push(`<text x="${left + 4}" y="${y + 4}" class="muted">no data</text>`)
      return
    }
    const colour = spec.colour(box.mode)
    const f = (v: number) => formatValue(v, spec.unit)
    const tip = `${box.mode}: n ${box.n}, min ${f(box.min)}, q1 ${f(box.q1)}, median ${f(box.median)}, q3 ${f(box.q3)}, max ${f(box.max)}, mean ${f(box.mean)}${box.outlier_count > 0 ? `, ${box.outlier_count} beyond the whiskers` : ''}`
    out.push(`<g class="box" data-mode="${escapeHtml(box.mode)}"><title>${escapeHtml(tip)}</title>`)
    out.push(`<line x1="${n(x(box.whisker_low))}" x2="${n(x(box.q1))}" y1="${y}" y2="${y}" stroke="${colour}"/>`)
    out.push(`<line x1="${n(x(box.q3))}" x2="${n(x(box.whisker_high))}" y1="${y}" y2="${y}" stroke="${colour}"/>`)
    for (const w of [box.whisker_low, box.whisker_high])
      out.push(`<line x1="${n(x(w))}" x2="${n(x(w))}" y1="${y - 6}" y2="${y + 6}" stroke="${colour}"/>`)
    const boxWidth = Math.max(1.5, x(box.q3) - x(box.q1))
    out.push(
      `<rect x="${n(x(box.q1))}" y="${y - 10}" width="${n(boxWidth)}" height="20" fill="${colour}" fill-opacity="0.25" stroke="${colour}"/>`,
    )
    out.push(
      `<line x1="${n(x(box.median))}" x2="${n(x(box.median))}" y1="${y - 10}" y2="${y + 10}" stroke="${colour}" stroke-width="2.5"/>`,
    )
    out.push(`<path d="M${n(x(box.mean))} ${y - 4}l4 4l-4 4l-4 -4z" fill="#fff" stroke="${colour}"/>`)
    for (const o of box.outliers) out.push(`<circle cx="${n(x(o))}" cy="${y}" r="2" fill="none" stroke="${colour}"/>`)
    out.push('</g>')
    out.push(
      `<text x="${width - right + 14}" y="${y + 4}" class="value">median ${escapeHtml(f(box.median))} · n ${escapeHtml(formatValue(box.n, 'calls'))}</text>`,
    )
  })
  out.push('</svg>')
  return out.join('')
}

export interface ForestRow {
  label: string
  value: number | null
  interval: [number, number] | null
  /** Why there is no value (not comparable, no data). */
  note?: string
}

export interface ForestSpec {
  id: string
  title: string
  rows: ForestRow[]
  /** The suite value (the median over scenarios) and its interval, drawn as a band. */
  overall: {label: string; value: number | null; interval: [number, number] | null} | null
}

/** A reduction of 99% or more (a candidate median of 0) is drawn at 99%: the log scale has no 100%. */
const MIN_RATIO = 0.01

/** Where a reduction % sits on the chart: log10 of the candidate / baseline ratio it stands for. */
const logRatio = (reduction: number): number => Math.log10(Math.max(MIN_RATIO, 1 - reduction / 100))

/** Ratios 1, 2, 5 x 10^k within [low, high] (log10), thinned to powers of ten when there are many. */
function ratioTicks(low: number, high: number): number[] {
  const ticks = (multipliers: number[]) => {
    const out: number[] = []
    for (let k = Math.floor(low); k <= Math.ceil(high); k++) for (const m of multipliers) out.push(m * 10 ** k)
    return out.filter((r) => Math.log10(r) >= low - 1e-9 && Math.log10(r) <= high + 1e-9)
  }
  const dense = ticks([1, 2, 5])
  return dense.length <= 9 ? dense : ticks([1])
}

/**
 * A forest plot: one row per scenario, its reduction % as a point, its 95% interval as a bar, the zero
 * line, and the suite value's interval as a shaded band. The axis is logarithmic in the ratio
 * candidate / baseline (labelled as the reduction it means), so that spending 10x more (-900%) and
 * 10x less (90%) are as far from 0 and no point has to be cut off. Green when the interval is above
 * 0 (the candidate spends less), red when below, grey when it straddles 0.
 */
export function forestPlotSvg(spec: ForestSpec): string {
  const width = 720
  const left = 230
  const right = 170
  const top = 24
  const row = 17
  const plotWidth = width - left - right
  const bottom = top + Math.max(1, spec.rows.length) * row
  const height = bottom + 40
  const figures = spec.rows
    .flatMap((r) => [r.value, ...(r.interval ?? [])])
    .filter((v): v is number => v !== null && Number.isFinite(v))
  if (spec.overall?.value !== null && spec.overall?.value !== undefined)
    figures.push(spec.overall.value, ...(spec.overall.interval ?? []))
  const positions = figures.map(logRatio)
  let low = Math.min(Math.log10(0.5), ...positions)
  let high = Math.max(Math.log10(2), ...positions)
  const pad = (high - low) * 0.04
  low -= pad
  high += pad
  // More reduction to the right: the axis runs from the highest ratio to the lowest.
  const x = (reduction: number) => left + ((high - logRatio(reduction)) / (high - low)) * plotWidth
  const out: string[] = [
    `<svg class="chart forest" id="${escapeHtml(spec.id)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(spec.title)}">`,
    `<title>${escapeHtml(spec.title)}</title>`,
  ]
  for (const ratio of ratioTicks(low, high)) {
    const reduction = (1 - ratio) * 100
    const at = n(x(reduction))
    out.push(
      `<line x1="${at}" x2="${at}" y1="${top - 4}" y2="${bottom}" stroke="${ratio === 1 ? '#555' : '#e3e6ea'}"/>`,
    )
    out.push(
      `<text x="${at}" y="${bottom + 14}" text-anchor="middle" class="tick">${escapeHtml(formatValue(reduction, 'pct'))}</text>`,
    )
  }
  out.push(
    `<text x="${left + plotWidth / 2}" y="${bottom + 30}" text-anchor="middle" class="muted">reduction (log scale of candidate ÷ baseline; right: the candidate spends less)</text>`,
  )
  const overall = spec.overall
  if (overall && overall.value !== null) {
    if (overall.interval) {
      const [a, b] = overall.interval
      out.push(
        `<rect x="${n(Math.min(x(a), x(b)))}" y="${top - 4}" width="${n(Math.max(1, Math.abs(x(a) - x(b))))}" height="${bottom - top + 4}" fill="#4e79a7" fill-opacity="0.10"/>`,
      )
    }
    out.push(
      `<line x1="${n(x(overall.value))}" x2="${n(x(overall.value))}" y1="${top - 4}" y2="${bottom}" stroke="#4e79a7" stroke-dasharray="4 3"/>`,
    )
    out.push(
      `<text x="${left + plotWidth / 2}" y="${top - 10}" text-anchor="middle" class="value">${escapeHtml(overall.label)} ${escapeHtml(formatValue(overall.value, 'pct'))}${overall.interval ? escapeHtml(` [${formatValue(overall.interval[0], 'pct')}, ${formatValue(overall.interval[1], 'pct')}]`) : ''}</text>`,
    )
  }
  spec.rows.forEach((r, i) => {
    const y = top + i * row + row / 2
    const label = r.label.length > 34 ? `${r.label.slice(0, 33)}…` : r.label
    out.push(
      `<text x="${left - 8}" y="${y + 4}" text-anchor="end" class="axis-label"><title>${escapeHtml(r.label)}</title>${escapeHtml(label)}</text>`,
    )
    if (r.value === null || !Number.isFinite(r.value)) {
      out.push(`<text x="${left + 4}" y="${y + 4}" class="muted">${escapeHtml(r.note ?? 'no data')}</text>`)
      return
    }
    const [a, b] = r.interval ?? [r.value, r.value]
    const colour = a > 0 ? '#2e7d32' : b < 0 ? '#c62828' : '#666'
    const text = `${formatValue(r.value, 'pct')}${r.interval ? ` [${formatValue(a, 'pct')}, ${formatValue(b, 'pct')}]` : ''}`
    out.push(`<g class="estimate"><title>${escapeHtml(`${r.label}: ${text}`)}</title>`)
    if (r.interval)
      out.push(`<line x1="${n(x(a))}" x2="${n(x(b))}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/>`)
    out.push(`<circle cx="${n(x(r.value))}" cy="${y}" r="3.5" fill="${colour}"/>`)
    out.push('</g>')
    out.push(`<text x="${width - right + 10}" y="${y + 4}" class="value">${escapeHtml(text)}</text>`)
  })
  out.push('</svg>')
  return out.join('')
}

/** A gate check: the pass side of the threshold shaded, the threshold line, the interval and the value. */
export function thresholdSvg(check: {
  value: number | null
  interval: ReadonlyArray<number | null> | null
  operator: '>=' | '<='
  threshold: number
  verdict: string
}): string {
  const width = 240
  const height = 26
  const pad = 8
  const [a, b] =
    check.interval && check.interval[0] !== null && check.interval[1] !== null
      ? [check.interval[0]!, check.interval[1]!]
      : [null, null]
  const figures = [check.threshold, ...[check.value, a, b].filter((v): v is number => v !== null && Number.isFinite(v))]
  let low = Math.min(...figures)
  let high = Math.max(...figures)
  const span = high - low || Math.max(1, Math.abs(high))
  low -= span * 0.15
  high += span * 0.15
  const x = (v: number) => pad + ((v - low) / (high - low)) * (width - 2 * pad)
  const t = x(check.threshold)
  const passX = check.operator === '>=' ? t : pad
  const passWidth = check.operator === '>=' ? width - pad - t : t - pad
  const colour = {pass: '#2e7d32', fail: '#c62828', inconclusive: '#ef6c00'}[check.verdict] ?? '#888'
  const out = [
    `<svg class="chart threshold" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="value against threshold">`,
    `<rect x="${n(passX)}" y="3" width="${n(Math.max(0, passWidth))}" height="${height - 6}" fill="#2e7d32" fill-opacity="0.10"/>`,
    `<line x1="${n(t)}" x2="${n(t)}" y1="1" y2="${height - 1}" stroke="#333" stroke-width="1.5"/>`,
  ]
  if (a !== null && b !== null)
    out.push(
      `<line x1="${n(x(a))}" x2="${n(x(b))}" y1="${height / 2}" y2="${height / 2}" stroke="${colour}" stroke-width="3"/>`,
    )
  if (check.value !== null && Number.isFinite(check.value))
    out.push(`<circle cx="${n(x(check.value))}" cy="${height / 2}" r="4" fill="${colour}"/>`)
  else out.push(`<text x="${pad}" y="${height / 2 + 4}" class="muted">no data</text>`)
  out.push('</svg>')
  return out.join('')
}
