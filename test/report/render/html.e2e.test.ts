// The HTML report generator: self-contained, a chart per mode, row content escaped, traces embedded
// within their budget and linked otherwise, the gate's checks, and a page that stays bounded at 100k rows.
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {mkdir, readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {Script} from 'node:vm'
import {gunzipSync} from 'node:zlib'
import {expect} from 'chai'
import {loadConfig, type LoadedConfig} from '../../../src/config/load-config.js'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {boxStats, HTML_FILE, scenarioDeltas, writeHtmlReport} from '../../../src/report/render/html.js'
import {escapeHtml, type BoxStats} from '../../../src/report/render/html/charts.js'
import {reportClientSource} from '../../../src/report/render/html/client.js'
import type {RunIndex} from '../../../src/report/render/html/runs.js'
import {judge} from '../../../src/report/judge.js'
import {buildReport} from '../../../src/report/aggregate/summary.js'
import {mulberry32} from '../../../src/stats/random.js'
import type {Row} from '../../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT} from '../../support/cli.js'
import {makeRow} from '../../support/rows.js'

const RUN = 'r1'

function configYaml(): string {
  return [
    'target: sandbox',
    'model: oracle',
    `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
    'results_dir: results',
    'reports_dir: reports',
    'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: t, sandbox_repos: [ghx-bench/sandbox]}',
  ].join('\n')
}

/** The name the runner gives a run's first attempt's trace (runner/trace-file.ts). */
const traceName = (row: Row) => `${row.scenario_id}__${row.mode}__${row.provider}__i${row.iteration}__a1.json`

function traceOf(row: Row, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: row.run_id,
    scenario_id: row.scenario_id,
    mode: row.mode,
    iteration: row.iteration,
    prompt: `Do ${row.scenario_id}`,
    stop_reason: 'final',
    final_text: 'done',
    turns: [
      {
        usage: {input: 10, output: 2},
        tool_calls: [{tool: 'shell', args: {command: 'gh issue view 1'}, output: '{"number":1}', ok: true, ms: 5}],
        started_at: '2026-11-22T00:00:00Z',
        ms: 9,
      },
    ],
    messages: [{role: 'user', content: `Do ${row.scenario_id}`}],
    checkpoints: [],
    ...extra,
  }
}

/** A project with the rows as results/r1.jsonl and, for rows with a `trace`, their trace files. */
async function project(
  rows: Row[],
  traces: Map<Row, Record<string, unknown>> = new Map(),
): Promise<{dir: string; config: LoadedConfig}> {
  const dir = await makeProject({
    '.ghxbenchrc.yml': configYaml(),
    [`results/${RUN}.jsonl`]: rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
  })
  await mkdir(path.join(dir, 'results', RUN, 'traces'), {recursive: true})
  for (const row of rows)
    if (row.trace)
      await writeFile(path.join(dir, 'results', row.trace), JSON.stringify(traces.get(row) ?? traceOf(row), null, 2))
  return {dir, config: await loadConfig({cwd: dir, env: {}})}
}

/** Two modes, three scenarios, four iterations; ghx uses about half the tokens; one failed run. */
function comparedRows(): Row[] {
  const rows: Row[] = []
  for (const scenario of ['issue-view-001', 'pr-view-001', 'repo-view-001']) {
    for (let i = 1; i <= 4; i++) {
      for (const [mode, scale] of [
        ['agent_direct', 1],
        ['ghx', 0.5],
      ] as const) {
        const failed = mode === 'ghx' && scenario === 'pr-view-001' && i === 4
        rows.push(
          makeRow({
            run_id: RUN,
            scenario_id: scenario,
            mode,
            iteration: i,
            success: !failed,
            error: failed ? {type: 'assertion_failed', message: 'data.number is missing'} : null,
            activeTokens: Math.round((1000 + 37 * i) * scale),
            latency_ms_wall: (2000 + 91 * i) * scale,
            latency_ms_agent: (1800 + 80 * i) * scale,
            tool_calls: {total: mode === 'ghx' ? 1 : 2, failed: 0},
            trace: `${RUN}/traces/${scenario}__${mode}__agent-loop__i${i}__a1.json`,
          }),
        )
      }
    }
  }
  return rows
}

function scriptBlock(html: string, id: string): string {
  const match = new RegExp(`<script type="[^"]+" id="${id}"[^>]*>([\\s\\S]*?)</script>`).exec(html)
  expect(match, id).to.not.equal(null)
  return match![1]!
}

function runIndexOf(html: string): RunIndex {
  return JSON.parse(gunzipSync(Buffer.from(scriptBlock(html, 'ghxb-runs'), 'base64')).toString('utf8')) as RunIndex
}

async function htmlOf(
  dir: string,
  config: LoadedConfig,
  extra: {resamples?: number} = {},
): Promise<{html: string; file: string}> {
  const {files} = await judge(config, {
    cwd: dir,
    runId: RUN,
    resamples: extra.resamples ?? 1000,
    report: true,
    gate: null,
    gateBeside: true,
    output: {cwd: dir, formats: ['html'], env: {}},
  })
  const file = files.find((f) => f.endsWith(HTML_FILE))!
  return {html: await readFile(file, 'utf8'), file}
}

describe('HTML report', () => {
  it('is one self-contained file: no URL, no external script, style, image or font; one script, allowed by its hash only', async () => {
    const {dir, config} = await project(comparedRows())
    const {html, file} = await htmlOf(dir, config)
    expect(path.relative(dir, file)).to.equal(path.join('reports', RUN, 'summary.html'))
    expect(html).to.match(/^<!doctype html>/)
    expect(html).to.not.match(/https?:\/\//i)
    expect(html).to.not.match(/<link\b|\bsrc\s*=|@import|\burl\(|@font-face/i)
    const executable = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
    expect(executable).to.have.length(1)
    expect(executable[0]).to.equal(reportClientSource())
    expect(executable[0]).to.not.match(/<\/script|<!--/i)
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!
    const sha = (text: string) => createHash('sha256').update(text).digest('base64')
    expect(csp)
      .to.include(`default-src 'none'`)
      .and.include(`script-src 'sha256-${sha(executable[0]!)}'`)
    expect(csp).to.include(`style-src 'sha256-${sha(/<style>([\s\S]*?)<\/style>/.exec(html)![1]!)}'`)
    // Markup cannot restyle past the hashed sheet: no inline style attribute anywhere.
    expect(html).to.not.match(/\sstyle=/)
    // The script compiles (it runs in the browser test).
    expect(() => new Script(executable[0]!)).to.not.throw()
  })

  it('draws a box plot of each metric with one box per mode, and a forest plot per scenario against the baseline', async () => {
    const {dir, config} = await project(comparedRows())
    const {html} = await htmlOf(dir, config)
    for (const metric of ['tokens_active', 'latency_agent', 'latency_wall', 'tool_calls']) {
      const svg = new RegExp(`<svg class="chart box-plot" id="dist-${metric}"[\\s\\S]*?</svg>`).exec(html)
      expect(svg, metric).to.not.equal(null)
      expect([...svg![0].matchAll(/<g class="box" data-mode="([^"]+)">/g)].map((m) => m[1])).to.deep.equal([
        'agent_direct',
        'ghx',
      ])
    }
    for (const metric of ['tokens_active', 'latency_wall', 'tool_calls']) {
      const svg = new RegExp(`<svg class="chart forest" id="delta-0-${metric}"[\\s\\S]*?</svg>`).exec(html)![0]
      expect(svg.match(/<g class="estimate">/g), metric).to.have.length(3)
    }
    expect(html).to.include('<section id="scenarios">').and.include('<section id="runs">')
    expect(runIndexOf(html).count).to.equal(24)
  })

  it('computes each scenario’s reduction with a seeded bootstrap interval around the report’s value', () => {
    const aggregate = emptyAggregate()
    for (const row of comparedRows()) addRow(aggregate, row)
    const report = buildReport(aggregate, {
      inputs: [],
      warnings: [],
      baseline: 'agent_direct',
      seed: 7,
      resamples: 2000,
    })
    const [deltas] = scenarioDeltas(aggregate, report)
    expect(deltas!.candidate).to.equal('ghx')
    const tokens = deltas!.metrics.find((m) => m.metric === 'tokens_active')!
    for (const row of tokens.rows) {
      const [low, high] = row.interval!
      expect(row.value).to.be.closeTo(50, 2)
      expect(low).to.be.at.most(row.value! + 1e-9)
      expect(high).to.be.at.least(row.value! - 1e-9)
      expect(low).to.be.above(45)
    }
    expect(tokens.overall.value).to.equal(report.deltas[0]!.efficiency.tokens_active_reduction_pct.value)
    expect(scenarioDeltas(aggregate, report)).to.deep.equal([deltas])
  })

  it('keeps a box plot bounded: Tukey whiskers, at most 20 outliers drawn a side', () => {
    const values = Float64Array.from([...Array(1000).keys()].map((i) => (i < 950 ? 100 + (i % 10) : 10_000 + i))).sort()
    const box = boxStats('m', values) as BoxStats
    expect(box).to.include({n: 1000, min: 100, max: 10_999, whisker_low: 100, whisker_high: 109, outlier_count: 50})
    expect(box.outliers.length).to.be.at.most(21)
    expect(box.outliers).to.include(10_999)
    expect(boxStats('empty', new Float64Array(0))).to.deep.equal({mode: 'empty', n: 0})
  })

  it('escapes row content: scenario ids, modes, errors and trace text cannot inject markup or script', async () => {
    const evilScenario = '<img src=x onerror=alert(1)>'
    const evilMode = '"><script>alert(2)</script>'
    const rows = [
      makeRow({run_id: RUN, scenario_id: evilScenario, mode: 'agent_direct', trace: `${RUN}/traces/evil.json`}),
      makeRow({
        run_id: RUN,
        scenario_id: evilScenario,
        mode: evilMode,
        success: false,
        error: {type: 'x</script><script>alert(3)</script>', message: '<b>bold</b> & "quoted"'},
      }),
    ]
    const traces = new Map([
      [
        rows[0]!,
        traceOf(rows[0]!, {final_text: '</script><script>alert(4)</script>', prompt: '<!-- <script>alert(5)</script>'}),
      ],
    ])
    const {dir, config} = await project(rows, traces)
    const {html} = await htmlOf(dir, config)
    expect(html).to.not.include('<img src=x').and.not.include('<script>alert').and.not.include('<b>bold</b>')
    expect(html.match(/<script\b/g)).to.have.length(4)
    expect(html).to.include(escapeHtml(evilScenario)).and.include(escapeHtml(evilMode))
    // The data keeps the values as they are; the page sets them as text.
    const index = runIndexOf(html)
    expect(index.scenarios).to.deep.equal([evilScenario])
    expect(index.modes).to.deep.equal(['agent_direct', evilMode])
    expect(index.errors).to.deep.equal(['x</script><script>alert(3)</script>: <b>bold</b> & "quoted"'])
    const embedded = JSON.parse(scriptBlock(html, 'ghxb-traces')) as Record<string, string>
    expect(JSON.parse(gunzipSync(Buffer.from(embedded['0']!, 'base64')).toString('utf8'))).to.include({
      final_text: '</script><script>alert(4)</script>',
    })
    expect(reportClientSource())
      .to.not.include('innerHTML')
      .and.not.include('insertAdjacentHTML')
      .and.not.include('document.write')
  })

  it('embeds traces within the budget, failed runs first, and links every trace by its path from the report', async () => {
    const rows = comparedRows()
    const {dir, config} = await project(rows)
    const {loaded, report} = await judge(config, {
      cwd: dir,
      runId: RUN,
      resamples: 500,
      report: true,
      gate: null,
      output: null,
    })
    const out = path.join(dir, 'elsewhere', 'deep')
    // Room for about two traces.
    const [file] = await writeHtmlReport({
      dir: out,
      loaded,
      report: report!,
      gate: null,
      verdict: null,
      cwd: dir,
      traceBudget: {totalBytes: 1100, perTraceBytes: 1000},
    })
    const html = await readFile(file!, 'utf8')
    const embedded = Object.keys(JSON.parse(scriptBlock(html, 'ghxb-traces')) as Record<string, string>).map(Number)
    const index = runIndexOf(html)
    const failed = index.columns.outcome.findIndex((o) => index.outcomes[o] === 'fail')
    expect(embedded).to.include(failed)
    expect(embedded.length).to.be.within(1, 3)
    expect(html).to.include(`${embedded.length} of 24 traces are embedded`)
    expect(index.trace_dirs).to.deep.equal([`../../results/${RUN}/traces`])
    // Every link resolves, from the report's folder, to the run's trace file.
    index.columns.trace.forEach((code, i) => {
      const name = `${index.scenarios[index.columns.scenario[i]!]}__${index.modes[index.columns.mode[i]!]}__${index.providers[index.columns.provider[i]!]}__i${index.columns.iteration[i]}__a${index.columns.attempts[i]}.json`
      expect(code).to.equal(1)
      expect(existsSync(path.resolve(out, decodeURIComponent(index.trace_dirs[0]!), name))).to.equal(true)
      expect(name).to.equal(
        traceName(
          rows.find(
            (r) =>
              r.scenario_id === index.scenarios[index.columns.scenario[i]!] &&
              r.mode === index.modes[index.columns.mode[i]!] &&
              r.iteration === index.columns.iteration[i],
          )!,
        ),
      )
    })
  })

  it('shows the gate’s checks against their thresholds: given, or from gate.json of the same rows', async () => {
    const {dir, config} = await project(comparedRows())
    const gate = (
      await judge(config, {
        cwd: dir,
        runId: RUN,
        resamples: 500,
        report: false,
        gate: {profile: 'verify_pr', candidate: 'ghx'},
        output: {cwd: dir, formats: ['json'], env: {}},
      })
    ).gate!
    const {html} = await htmlOf(dir, config, {resamples: 500})
    const section = /<section id="gate">[\s\S]*?<\/section>/.exec(html)![0]
    expect(section)
      .to.include(`<span class="verdict ${gate.verdict}">${gate.verdict.toUpperCase()}</span>`)
      .and.include('from gate.json of the same rows')
    for (const check of gate.checks) expect(section).to.include(`<code>${check.name}</code>`)
    expect(section.match(/<svg class="chart threshold"/g)).to.have.length(gate.checks.length)
    expect(section).to.include('&gt;= 15.0')
    // Other rows, other gate: gate.json is not shown for them.
    await writeFile(path.join(dir, 'results', `${RUN}.jsonl`), JSON.stringify(comparedRows()[0]) + '\n')
    expect((await htmlOf(dir, config)).html).to.not.include('<section id="gate">')
  })

  it('stays bounded at 100,000 rows: aggregates and a compressed run index, generated in seconds', async function () {
    this.timeout(300_000)
    const dir = await makeProject({'.ghxbenchrc.yml': configYaml()})
    const modes = ['agent_direct', 'mcp', 'ghx']
    const errors = [
      'assertion_failed: data.number is missing',
      'timeout: the run reached its time limit',
      'runner_error: model returned 502',
    ]
    const random = mulberry32(12345)
    const lines: string[] = []
    const total = 100_000
    for (let i = 0; i < total; i++) {
      const mode = modes[i % 3]!
      const failed = random() < 0.04
      const scale = mode === 'mcp' ? 9 : mode === 'ghx' ? 0.7 : 1
      const row = makeRow({
        run_id: RUN,
        scenario_id: `scenario-${String(Math.floor(i / 3) % 60).padStart(3, '0')}`,
        mode,
        iteration: Math.floor(i / 180) + 1,
        success: !failed,
        outcome: failed ? (random() < 0.3 ? 'timeout' : 'fail') : 'pass',
        error: failed ? {type: 'x', message: errors[Math.floor(random() * 3)]!} : null,
        activeTokens: Math.round((800 + random() * 1500) * scale),
        latency_ms_wall: 500 + random() * 20_000 * scale,
        latency_ms_agent: random() < 0.01 ? null : 400 + random() * 15_000 * scale,
        tool_calls: {total: 1 + Math.floor(random() * 6), failed: 0},
      })
      lines.push(JSON.stringify(row))
    }
    // Two files of half the rows each, read on the main thread (one file over 64 MB is read by worker threads).
    await mkdir(path.join(dir, 'results'), {recursive: true})
    const inputs = ['part-1.jsonl', 'part-2.jsonl'].map((name) => path.join(dir, 'results', name))
    await writeFile(inputs[0]!, lines.slice(0, total / 2).join('\n') + '\n')
    await writeFile(inputs[1]!, lines.slice(total / 2).join('\n') + '\n')
    const rowsBytes = (await stat(inputs[0]!)).size + (await stat(inputs[1]!)).size
    const config = await loadConfig({cwd: dir, env: {}})
    const started = performance.now()
    const {files} = await judge(config, {
      cwd: dir,
      inputs,
      report: true,
      gate: null,
      gateBeside: true,
      output: {cwd: dir, out: path.join(dir, 'report'), formats: ['html'], env: {}},
    })
    const file = files[0]!
    const html = await readFile(file, 'utf8')
    const seconds = (performance.now() - started) / 1000
    const size = (await stat(file)).size
    console.log(
      `      100,000 rows (${(rowsBytes / 1048576).toFixed(0)} MB of JSONL): summary.html ${(size / 1048576).toFixed(2)} MB, generated in ${seconds.toFixed(1)} s (report + HTML, 10,000 resamples)`,
    )
    const index = runIndexOf(html)
    expect(index.count).to.equal(total)
    expect(index.columns.tokens_active).to.have.length(total)
    expect(html.match(/<g class="box"/g)).to.have.length(4 * 3)
    // Charts stay the same size whatever the rows: 60 scenarios x 2 candidates x 3 metrics of forest rows, boxes with at most 40 outliers.
    expect(html.length - scriptBlock(html, 'ghxb-runs').length).to.be.below(1.5 * 1048576)
    expect(size).to.be.below(8 * 1048576)
  })
})
