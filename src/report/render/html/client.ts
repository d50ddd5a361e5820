/**
 * The HTML report's only script, run in the browser: the runs table (filters, sorting, 100 rows a
 * page over the compact index) and the drill-down into a run's trace. It is type-checked here and
 * inlined as its source text (`reportClientSource`), so it must not use anything from outside its
 * body (types aside: they are gone from the text). Every value from the rows reaches the page through
 * textContent, never as markup.
 */
import type {RunIndex} from './runs.js'

function reportClient(): void {
  interface Meta {
    page_size: number
    trace_budget_bytes: number
    embedded: number
    linked: number
  }
  interface ToolCall {
    tool?: string
    args?: unknown
    output?: unknown
    ok?: boolean
    ms?: number
  }
  interface Turn {
    usage?: Record<string, number>
    tool_calls?: ToolCall[]
    ms?: number
    text?: string
  }
  interface Message {
    role?: string
    content?: unknown
    tool_calls?: Array<{function?: {name?: string; arguments?: string}; name?: string; arguments?: unknown}>
    name?: string
    tool_call_id?: string
  }
  interface Trace {
    prompt?: string | null
    final_text?: string | null
    stop_reason?: string | null
    turns?: Turn[]
    messages?: Message[]
    checkpoints?: Array<{name?: string; passed?: boolean; message?: string; task?: string}>
    assertion?: unknown
    attempt?: {attempt?: number; outcome?: string; error?: {type?: string; message?: string} | null}
  }

  const byId = (id: string): HTMLElement => document.getElementById(id)!
  const meta = JSON.parse(byId('ghxb-meta').textContent) as Meta
  const status = byId('runs-status')
  const tbody = byId('runs-table').querySelector('tbody')!
  const detail = byId('run-detail')
  let index: RunIndex
  let filtered = new Int32Array(0)
  let page = 0
  let pageSize = meta.page_size
  let sortKey = ''
  let sortDirection = 1
  let selected = -1
  let embeddedTraces: Record<string, string> | undefined
  const traceCache = new Map<number, Trace>()

  /** An element with text children (never markup). */
  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    props: Record<string, string> = {},
    ...children: Array<Node | string | null | undefined>
  ): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(props)) {
      if (key === 'class') node.className = value
      else node.setAttribute(key, value)
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child)
    return node
  }

  async function gunzipBase64(data: string): Promise<string> {
    const binary = atob(data)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
    return new Response(stream).text()
  }

  const number = (value: number, digits = 0): string =>
    value < 0 ? '–' : value.toLocaleString('en-US', {maximumFractionDigits: digits})
  const ms = (value: number): string =>
    value < 0
      ? '–'
      : value >= 1000
        ? `${(value / 1000).toLocaleString('en-US', {maximumFractionDigits: 2})} s`
        : `${value} ms`

  function traceUrl(i: number, attempt?: number): string | null {
    const code = index.columns.trace[i]!
    if (code === 0) return null
    if (code < 0) return attempt === undefined ? index.trace_paths[-code - 1]! : null
    const c = index.columns
    // The runner's name of the attempt's trace (results/trace-name.ts), spelled again here: this script runs in the page.
    const provider = c.provider[i]!
    const name = `${index.scenarios[c.scenario[i]!]}__${index.modes[c.mode[i]!]}__${provider < 0 ? '' : `${index.providers[provider]}__`}i${c.iteration[i]}__a${attempt ?? c.attempts[i]}.json`
    return `${index.trace_dirs[code - 1]}/${encodeURIComponent(name)}`
  }

  // ---- filters, sorting, pages ----

  const modeSelect = byId('f-mode') as HTMLSelectElement
  const scenarioSelect = byId('f-scenario') as HTMLSelectElement
  const outcomeSelect = byId('f-outcome') as HTMLSelectElement
  const textInput = byId('f-text') as HTMLInputElement
  const sizeSelect = byId('p-size') as HTMLSelectElement

  function fillSelect(select: HTMLSelectElement, names: string[]): void {
    const order = names.map((name, id) => ({name, id})).sort((a, b) => a.name.localeCompare(b.name))
    for (const {name, id} of order) select.append(el('option', {value: String(id)}, name))
  }

  function applyFilters(): void {
    const c = index.columns
    const mode = modeSelect.value === '' ? -1 : Number(modeSelect.value)
    const scenario = scenarioSelect.value === '' ? -1 : Number(scenarioSelect.value)
    const outcome = outcomeSelect.value === '' ? -1 : Number(outcomeSelect.value)
    const text = textInput.value.trim().toLowerCase()
    // A text filter is matched once per dictionary entry, not once per row.
    const scenarioHits = text ? index.scenarios.map((s) => s.toLowerCase().includes(text)) : null
    const errorHits = text ? index.errors.map((e) => e.toLowerCase().includes(text)) : null
    const out = new Int32Array(index.count)
    let n = 0
    for (let i = 0; i < index.count; i++) {
      if (mode >= 0 && c.mode[i] !== mode) continue
      if (scenario >= 0 && c.scenario[i] !== scenario) continue
      if (outcome >= 0 && c.outcome[i] !== outcome) continue
      if (scenarioHits && !scenarioHits[c.scenario[i]!] && !(c.error[i]! >= 0 && errorHits![c.error[i]!])) continue
      out[n++] = i
    }
    filtered = out.slice(0, n)
    sortRows()
    page = 0
    render()
  }

  function sortRows(): void {
    if (!sortKey) return
    const c = index.columns
    let key: ArrayLike<number>
    if (sortKey === 'scenario' || sortKey === 'mode' || sortKey === 'run') {
      // Names sort by their place in the sorted dictionary.
      const names = sortKey === 'scenario' ? index.scenarios : sortKey === 'mode' ? index.modes : index.run_ids
      const rank = new Float64Array(names.length)
      names
        .map((name, id) => ({name, id}))
        .sort((a, b) => a.name.localeCompare(b.name))
        .forEach(({id}, r) => (rank[id] = r))
      const ids = c[sortKey]
      const ranks = new Float64Array(ids.length)
      for (let i = 0; i < ids.length; i++) ranks[i] = rank[ids[i]!]!
      key = ranks
    } else if (sortKey === 'index') {
      const own = new Float64Array(index.count)
      for (let i = 0; i < index.count; i++) own[i] = i
      key = own
    } else key = c[sortKey as keyof RunIndex['columns']]
    // Integer keys (every sortable column) sort natively, packed with the row number as (key, row):
    // a typed-array sort of 100k numbers takes milliseconds, a comparator sort most of a second.
    let low = Infinity
    let high = -Infinity
    let integers = true
    for (const i of filtered) {
      const k = key[i]!
      if (k < low) low = k
      if (k > high) high = k
      if (!Number.isInteger(k)) integers = false
    }
    const rows = index.count
    if (integers && Number.isSafeInteger((high - low + 1) * rows)) {
      const packed = new Float64Array(filtered.length)
      for (let n = 0; n < filtered.length; n++) {
        const i = filtered[n]!
        packed[n] = (sortDirection > 0 ? key[i]! - low : high - key[i]!) * rows + i
      }
      packed.sort()
      for (let n = 0; n < packed.length; n++) filtered[n] = packed[n]! % rows
      return
    }
    const order = Array.from(filtered)
    order.sort((a, b) => (key[a]! - key[b]!) * sortDirection || a - b)
    filtered = Int32Array.from(order)
  }

  const COLUMNS: Array<[string, string, (i: number) => string, string?]> = [
    ['index', '#', (i) => String(i + 1), 'num'],
    ['scenario', 'scenario', (i) => index.scenarios[index.columns.scenario[i]!]!],
    ['mode', 'mode', (i) => index.modes[index.columns.mode[i]!]!],
    ['iteration', 'iter', (i) => String(index.columns.iteration[i]), 'num'],
    ['outcome', 'outcome', (i) => index.outcomes[index.columns.outcome[i]!] ?? '?'],
    ['tokens_active', 'active tokens', (i) => number(index.columns.tokens_active[i]!), 'num'],
    ['latency_agent', 'agent', (i) => ms(index.columns.latency_agent[i]!), 'num'],
    ['latency_wall', 'wall', (i) => ms(index.columns.latency_wall[i]!), 'num'],
    ['tool_calls', 'tool calls', (i) => number(index.columns.tool_calls[i]!), 'num'],
    ['error', 'error', (i) => (index.columns.error[i]! >= 0 ? index.errors[index.columns.error[i]!]! : '')],
  ]

  function renderHeader(): void {
    const row = byId('runs-table').querySelector('thead tr')!
    row.replaceChildren(
      ...COLUMNS.map(([key, label, , kind]) => {
        const arrow = sortKey === key ? (sortDirection > 0 ? ' ▲' : ' ▼') : ''
        const th = el('th', {'data-key': key, class: kind ?? '', title: `sort by ${label}`}, label + arrow)
        th.addEventListener('click', () => {
          if (sortKey === key) sortDirection = -sortDirection
          else {
            sortKey = key
            sortDirection = 1
          }
          sortRows()
          page = 0
          render()
        })
        return th
      }),
    )
  }

  function render(): void {
    renderHeader()
    const pages = Math.max(1, Math.ceil(filtered.length / pageSize))
    page = Math.min(page, pages - 1)
    const start = page * pageSize
    const end = Math.min(filtered.length, start + pageSize)
    const rows: HTMLTableRowElement[] = []
    for (let k = start; k < end; k++) {
      const i = filtered[k]!
      const tr = el('tr', {
        'data-run': String(i),
        tabindex: '0',
        class: `outcome-${index.outcomes[index.columns.outcome[i]!] ?? 'unknown'}${i === selected ? ' selected' : ''}`,
      })
      for (const [, , cell, kind] of COLUMNS) tr.append(el('td', {class: kind ?? ''}, cell(i)))
      tr.addEventListener('click', () => void openRun(i))
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') void openRun(i)
      })
      rows.push(tr)
    }
    tbody.replaceChildren(...rows)
    byId('p-info').textContent =
      filtered.length === 0
        ? 'no runs match'
        : `runs ${start + 1}–${end} of ${filtered.length.toLocaleString('en-US')} (page ${page + 1} of ${pages})`
    status.textContent = `${index.count.toLocaleString('en-US')} runs; ${filtered.length.toLocaleString('en-US')} shown by the filters`
  }

  function go(target: number): void {
    page = Math.max(0, Math.min(target, Math.ceil(filtered.length / pageSize) - 1))
    render()
  }

  // ---- a run's trace ----

  function pre(text: string, limit = 4000): HTMLElement {
    const box = el('pre', {}, text.length > limit ? text.slice(0, limit) : text)
    if (text.length <= limit) return box
    const more = el(
      'button',
      {type: 'button', class: 'more'},
      `show all ${text.length.toLocaleString('en-US')} characters`,
    )
    more.addEventListener('click', () => {
      box.textContent = text
      more.remove()
    })
    return el('div', {}, box, more)
  }

  const asText = (value: unknown): string =>
    typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '')

  function argumentsText(value: unknown): string {
    if (typeof value !== 'string') return asText(value)
    try {
      return JSON.stringify(JSON.parse(value), null, 2)
    } catch {
      return value
    }
  }

  function section(title: string, open: boolean, ...children: Array<Node | string>): HTMLDetailsElement {
    const details = el('details', {class: 'trace-section'}, el('summary', {}, title), ...children)
    details.open = open
    return details
  }

  function renderTrace(trace: Trace): HTMLElement {
    const out = el('div', {class: 'trace'})
    if (trace.prompt) out.append(section('Prompt', true, pre(trace.prompt)))
    const turns = trace.turns ?? []
    const calls = turns.reduce((n, t) => n + (t.tool_calls?.length ?? 0), 0)
    const turnList = el('ol', {class: 'turns'})
    turns.forEach((turn) => {
      const usage = turn.usage
        ? Object.entries(turn.usage)
            .filter(([, v]) => v > 0)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')
        : ''
      const item = el(
        'li',
        {class: 'turn'},
        el(
          'div',
          {class: 'turn-head'},
          `${turn.ms === undefined ? '' : ms(Math.round(turn.ms))}${usage ? ` · ${usage}` : ''}`,
        ),
      )
      if (turn.text) item.append(pre(turn.text, 1500))
      for (const call of turn.tool_calls ?? []) {
        item.append(
          el(
            'div',
            {class: `tool-call${call.ok === false ? ' failed' : ''}`},
            el(
              'div',
              {class: 'tool-head'},
              el('code', {class: 'tool-name'}, call.tool ?? '?'),
              ` ${call.ok === false ? 'failed' : 'ok'}${call.ms === undefined ? '' : ` · ${ms(Math.round(call.ms))}`}`,
            ),
            el('div', {class: 'label'}, 'arguments'),
            pre(argumentsText(call.args), 2000),
            el('div', {class: 'label'}, 'output'),
            pre(asText(call.output ?? ''), 3000),
          ),
        )
      }
      turnList.append(item)
    })
    out.append(
      section(
        `Turns and tool calls (${turns.length} turns, ${calls} tool calls)`,
        true,
        turns.length ? turnList : 'no turns recorded',
      ),
    )
    const messages = trace.messages ?? []
    const messageList = el('ol', {class: 'messages'})
    for (const message of messages) {
      const item = el(
        'li',
        {class: `message role-${(message.role ?? 'unknown').replace(/[^a-z_]/gi, '')}`},
        el(
          'div',
          {class: 'role'},
          `${message.role ?? '?'}${message.name ? ` (${message.name})` : ''}${message.tool_call_id ? ` · ${message.tool_call_id}` : ''}`,
        ),
      )
      if (message.content !== null && message.content !== undefined && message.content !== '')
        item.append(pre(asText(message.content), 3000))
      for (const call of message.tool_calls ?? []) {
        const name = call.function?.name ?? call.name ?? '?'
        item.append(
          el('div', {class: 'tool-head'}, 'calls ', el('code', {class: 'tool-name'}, name)),
          pre(argumentsText(call.function?.arguments ?? call.arguments), 2000),
        )
      }
      messageList.append(item)
    }
    out.append(
      section(
        `Messages (${messages.length})`,
        messages.length <= 12,
        messages.length ? messageList : 'no messages recorded',
      ),
    )
    if (trace.final_text)
      out.append(section(`Final answer (stop: ${trace.stop_reason ?? '?'})`, true, pre(trace.final_text)))
    const checkpoints = trace.checkpoints ?? []
    if (checkpoints.length > 0) {
      const list = el('ul', {class: 'checkpoints'})
      for (const c of checkpoints)
        list.append(
          el(
            'li',
            {class: c.passed ? 'pass' : 'fail'},
            `${c.passed ? '✓' : '✗'} ${c.name ?? '?'}${c.task ? ` (${c.task})` : ''}: ${c.message ?? ''}`,
          ),
        )
      out.append(
        section(
          `Checkpoints (${checkpoints.filter((c) => c.passed).length} of ${checkpoints.length} passed)`,
          true,
          list,
        ),
      )
    }
    if (trace.assertion) out.append(section('Assertion', false, pre(asText(trace.assertion))))
    const raw = section('Raw trace JSON', false)
    raw.addEventListener('toggle', () => {
      if (raw.open && raw.childElementCount === 1) raw.append(pre(JSON.stringify(trace, null, 2), 20000))
    })
    out.append(raw)
    return out
  }

  async function loadTrace(i: number): Promise<Trace | null> {
    const cached = traceCache.get(i)
    if (cached) return cached
    embeddedTraces ??= JSON.parse(byId('ghxb-traces').textContent || '{}') as Record<string, string>
    const data = embeddedTraces[String(i)]
    let trace: Trace | null = null
    if (data) trace = JSON.parse(await gunzipBase64(data)) as Trace
    else if (location.protocol === 'http:' || location.protocol === 'https:') {
      const url = traceUrl(i)
      const response = url ? await fetch(url).catch(() => null) : null
      if (response?.ok) trace = (await response.json()) as Trace
    }
    if (trace) traceCache.set(i, trace)
    return trace
  }

  async function openRun(i: number): Promise<void> {
    selected = i
    for (const tr of tbody.querySelectorAll('tr.selected')) tr.classList.remove('selected')
    tbody.querySelector(`tr[data-run="${i}"]`)?.classList.add('selected')
    if (location.hash !== `#run-${i + 1}`) history.replaceState(null, '', `#run-${i + 1}`)
    const c = index.columns
    const outcome = index.outcomes[c.outcome[i]!] ?? '?'
    const facts: Array<[string, string]> = [
      ['run', index.run_ids[c.run[i]!]!],
      ['outcome', outcome],
      ['active tokens', number(c.tokens_active[i]!)],
      ['total tokens', number(c.tokens_total[i]!)],
      ['agent latency', ms(c.latency_agent[i]!)],
      ['wall latency', ms(c.latency_wall[i]!)],
      ['tool calls', number(c.tool_calls[i]!)],
      ['cost', c.cost[i]! < 0 ? '–' : `$${c.cost[i]}`],
      ['attempts', String(c.attempts[i])],
    ]
    const heading = el(
      'h3',
      {},
      `#${i + 1} ${index.scenarios[c.scenario[i]!]} · ${index.modes[c.mode[i]!]} · iteration ${c.iteration[i]}`,
    )
    const close = el('button', {type: 'button', class: 'close', title: 'close'}, '×')
    close.addEventListener('click', () => {
      detail.hidden = true
      selected = -1
      for (const tr of tbody.querySelectorAll('tr.selected')) tr.classList.remove('selected')
    })
    const factList = el('dl', {class: 'facts'})
    for (const [k, v] of facts)
      factList.append(el('dt', {}, k), el('dd', {class: k === 'outcome' ? `outcome-${outcome}` : ''}, v))
    const traceBox = el('div', {class: 'trace-box'}, 'loading the trace…')
    const links = el('p', {class: 'trace-links'})
    const url = traceUrl(i)
    if (url) {
      links.append(el('a', {href: url, target: '_blank', rel: 'noopener', class: 'trace-link'}, 'open the trace JSON'))
      for (let a = 1; a < c.attempts[i]!; a++) {
        const earlier = traceUrl(i, a)
        if (earlier) links.append(' · ', el('a', {href: earlier, target: '_blank', rel: 'noopener'}, `attempt ${a}`))
      }
    }
    detail.replaceChildren(close, heading, factList)
    if (c.error[i]! >= 0) detail.append(el('p', {class: 'error'}, index.errors[c.error[i]!]))
    detail.append(links, traceBox)
    detail.hidden = false
    detail.scrollIntoView({block: 'nearest'})
    if (!url) {
      traceBox.textContent = 'This run has no trace file (imported rows, or the file is gone).'
      return
    }
    try {
      const trace = await loadTrace(i)
      if (selected !== i) return
      if (trace) traceBox.replaceChildren(renderTrace(trace))
      else {
        const why =
          location.protocol === 'file:'
            ? `This trace is not embedded in the page (it embeds ${meta.embedded} of ${meta.embedded + meta.linked} traces, failed runs first, up to ${Math.round(meta.trace_budget_bytes / 1048576)} MB), and a page opened from a file cannot read other files. Open the trace JSON with the link above, or serve the folders over http (for example \`npx http-server\` from their common parent) to see it here.`
            : 'The trace could not be read from the server: open it with the link above.'
        traceBox.replaceChildren(el('p', {class: 'muted'}, why))
      }
    } catch (error) {
      traceBox.replaceChildren(el('p', {class: 'error'}, `could not read the trace: ${(error as Error).message}`))
    }
  }

  function init(data: RunIndex): void {
    index = data
    fillSelect(modeSelect, index.modes)
    fillSelect(scenarioSelect, index.scenarios)
    index.outcomes.forEach((o, id) => outcomeSelect.append(el('option', {value: String(id)}, o)))
    for (const select of [modeSelect, scenarioSelect, outcomeSelect]) select.addEventListener('change', applyFilters)
    let typing: number | undefined
    textInput.addEventListener('input', () => {
      clearTimeout(typing)
      typing = window.setTimeout(applyFilters, 150)
    })
    sizeSelect.addEventListener('change', () => {
      pageSize = Number(sizeSelect.value)
      go(0)
    })
    byId('p-first').addEventListener('click', () => go(0))
    byId('p-prev').addEventListener('click', () => go(page - 1))
    byId('p-next').addEventListener('click', () => go(page + 1))
    byId('p-last').addEventListener('click', () => go(Number.MAX_SAFE_INTEGER))
    applyFilters()
    const linked = /^#run-(\d+)$/.exec(location.hash)
    if (linked && Number(linked[1]) >= 1 && Number(linked[1]) <= index.count) void openRun(Number(linked[1]) - 1)
  }

  gunzipBase64(byId('ghxb-runs').textContent.trim())
    .then((text) => init(JSON.parse(text) as RunIndex))
    .catch((error: unknown) => {
      status.textContent = `could not read the runs index: ${(error as Error).message}`
    })
}

/** The script's text for the page. tsx (running from source) wraps named functions in `__name()`: define it. */
export function reportClientSource(): string {
  return `var __name = function (target) { return target };\n(${reportClient.toString()})();\n`
}
