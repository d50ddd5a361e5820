// summary.html's run index, built in typed columns and streamed into gzip, against the way it was first
// built (every column a JS array, JSON.stringify, gzipSync): the same bytes, the same traces embedded.
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {gzipSync} from 'node:zlib'
import {expect} from 'chai'
import {buildRunIndex, embedTraces, encodeRunIndex, type RunIndex} from '../../../../src/report/render/html/runs.js'
import type {Row} from '../../../../src/results/row-schema.js'
import {readRows} from '../../../../src/results/sources.js'
import {mulberry32} from '../../../../src/stats/random.js'
import {makeRow} from '../../../support/rows.js'

const OUTCOMES = ['pass', 'fail', 'timeout', 'infra_error'] as const
const SCENARIOS = ['issue-view-001', 'pr-view-001', 'repo-view-001', 'label ünïcode "quoted"']
const MODES = ['agent_direct', 'mcp', 'ghx']
const TRACE = JSON.stringify({prompt: 'Do it', turns: [], messages: [], checkpoints: []})

/** Varied rows of run `runId`: every outcome, errors, missing numbers, traces named both ways, some absent. */
function generatedRows(runId: string, count: number, seed: number): Row[] {
  const random = mulberry32(seed)
  return Array.from({length: count}, (_, n) => {
    const scenario = SCENARIOS[n % SCENARIOS.length]!
    const mode = MODES[Math.floor(n / SCENARIOS.length) % MODES.length]!
    const iteration = Math.floor(n / (SCENARIOS.length * MODES.length)) + 1
    const outcome = random() < 0.9 ? 'pass' : OUTCOMES[1 + Math.floor(random() * 3)]!
    const attempt = random() < 0.1 ? 2 : 1
    const traceKind = random()
    // Most rows have the runner's agent; a few (imported) none, and their traces are named without one.
    const provider = random() < 0.1 ? null : random() < 0.5 ? 'agent-loop' : 'opencode'
    const trace =
      traceKind < 0.5
        ? `${runId}/traces/${scenario}__${mode}__${provider === null ? '' : `${provider}__`}i${iteration}__a${attempt}.json`
        : traceKind < 0.6
          ? `${runId}/other/${n}.json`
          : traceKind < 0.7
            ? `${runId}/traces/absent-${n}.json`
            : null
    const row = makeRow({
      provider,
      run_id: runId,
      scenario_id: scenario,
      mode,
      iteration,
      success: outcome === 'pass',
      outcome,
      error:
        outcome === 'pass'
          ? null
          : {type: 'assertion_failed', message: `${'long '.repeat(Math.floor(random() * 100))}${n % 7}`},
      activeTokens: 100 + Math.floor(random() * 50_000),
      latency_ms_wall: random() * 60_000,
      latency_ms_agent: random() < 0.2 ? null : random() * 50_000,
      cost_usd: random() < 0.3 ? null : random() / 7,
      tool_calls: {total: Math.floor(random() * 20), failed: 0},
      retries: attempt - 1,
      trace,
    })
    // A retried run: its trace is the last attempt's.
    if (attempt === 2)
      row.attempts = [1, 2].map((a) => ({
        attempt: a,
        outcome: a === 1 ? 'infra_error' : row.outcome,
        error: a === 1 ? {type: 'network', message: 'reset'} : row.error,
        latency_ms_wall: row.latency_ms_wall / 2,
        tokens: row.tokens,
      }))
    return row
  })
}

/** The index as it was first built: a JS array per column, from the rows as read. */
async function referenceIndex(files: string[], reportDir: string, cwd: string): Promise<RunIndex> {
  const dictionary = () => {
    const values: string[] = []
    return {values, id: (value: string) => (values.includes(value) ? values.indexOf(value) : values.push(value) - 1)}
  }
  const [runIds, scenarios, modes, providers, errors, traceDirs, tracePaths] = Array.from({length: 7}, dictionary)
  const columns: RunIndex['columns'] = {
    run: [],
    scenario: [],
    mode: [],
    provider: [],
    iteration: [],
    outcome: [],
    tokens_active: [],
    tokens_total: [],
    latency_wall: [],
    latency_agent: [],
    tool_calls: [],
    cost: [],
    attempts: [],
    error: [],
    trace: [],
  }
  const url = (to: string) => path.relative(reportDir, to).split(path.sep).map(encodeURIComponent).join('/')
  const seen = new Set<string>()
  for (const file of files)
    for await (const row of readRows([file], () => {}, cwd)) {
      const key = `${row.run_id}\u0000${row.scenario_id}\u0000${row.mode}\u0000${row.provider}\u0000${row.iteration}`
      if (seen.has(key)) continue
      seen.add(key)
      const attempt = row.attempts.at(-1)?.attempt ?? row.retries + 1
      columns.run.push(runIds!.id(row.run_id))
      columns.scenario.push(scenarios!.id(row.scenario_id))
      columns.mode.push(modes!.id(row.mode))
      columns.provider.push(row.provider === null ? -1 : providers!.id(row.provider))
      columns.iteration.push(row.iteration)
      columns.outcome.push(OUTCOMES.indexOf(row.outcome))
      columns.tokens_active.push(row.tokens.active)
      columns.tokens_total.push(row.tokens.total)
      columns.latency_wall.push(Math.round(row.latency_ms_wall))
      columns.latency_agent.push(row.latency_ms_agent === null ? -1 : Math.round(row.latency_ms_agent))
      columns.tool_calls.push(row.tool_calls.total)
      columns.cost.push(row.cost_usd === null ? -1 : Number(row.cost_usd.toPrecision(4)))
      columns.attempts.push(attempt)
      const message = row.error?.message ?? ''
      columns.error.push(
        row.error
          ? errors!.id(`${row.error.type}: ${message.length > 300 ? `${message.slice(0, 299)}…` : message}`)
          : -1,
      )
      const traceFile = row.trace && !row.trace.includes('absent') ? path.resolve(path.dirname(file), row.trace) : null
      columns.trace.push(
        traceFile === null
          ? 0
          : row.trace!.includes('/traces/')
            ? traceDirs!.id(url(path.dirname(traceFile))) + 1
            : -(tracePaths!.id(url(traceFile)) + 1),
      )
    }
  return {
    count: columns.run.length,
    run_ids: runIds!.values,
    scenarios: scenarios!.values,
    modes: modes!.values,
    providers: providers!.values,
    outcomes: [...OUTCOMES],
    errors: errors!.values,
    trace_dirs: traceDirs!.values,
    trace_paths: tracePaths!.values,
    columns,
  }
}

/** Failed runs first, then the first run of every scenario x mode, then the rest: the order as first written. */
function referenceEmbeddingOrder(index: RunIndex): number[] {
  const {outcome, trace, scenario, mode} = index.columns
  const withTrace = [...Array(index.count).keys()].filter((i) => trace[i] !== 0)
  const failed = withTrace.filter((i) => outcome[i] !== 0)
  const taken = new Set(failed)
  const cells = new Set<number>()
  const firsts: number[] = []
  for (const i of withTrace) {
    const cell = scenario[i]! * index.modes.length + mode[i]!
    if (!cells.has(cell)) {
      cells.add(cell)
      if (!taken.has(i)) firsts.push(i)
      taken.add(i)
    }
  }
  return [...failed, ...firsts, ...withTrace.filter((i) => !taken.has(i))]
}

describe('summary.html run index', function () {
  this.timeout(60_000)
  let dir: string
  let files: string[]
  let reportDir: string

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-run-index-'))
    reportDir = path.join(dir, 'reports', 'r1')
    // Two inputs, the second repeating 500 of the first's rows (counted once) and adding its own.
    const first = generatedRows('r1', 3000, 1)
    const second = [...first.slice(1000, 1500), ...generatedRows('r2', 1200, 2)]
    files = [path.join(dir, 'results', 'r1.jsonl'), path.join(dir, 'results', 'r2.jsonl')]
    for (const [file, rows] of [
      [files[0]!, first],
      [files[1]!, second],
    ] as const) {
      await mkdir(path.dirname(file), {recursive: true})
      await writeFile(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n')
      for (const row of rows)
        if (row.trace && !row.trace.includes('absent')) {
          const traceFile = path.join(path.dirname(file), row.trace)
          await mkdir(path.dirname(traceFile), {recursive: true})
          await writeFile(traceFile, TRACE)
        }
    }
  })

  after(() => rm(dir, {recursive: true, force: true}))

  it('encodes the same bytes as JSON.stringify of every column as an array, gzipped, across pieces', async () => {
    const reference = await referenceIndex(files, reportDir, dir)
    expect(reference.count).to.equal(3000 + 1200)
    expect(reference.trace_dirs).to.have.length(2)
    expect(reference.trace_paths.length).to.be.above(100)
    expect(reference.columns.latency_agent).to.include(-1)
    expect(reference.columns.outcome).to.include.members([0, 1, 2, 3])
    const expected = gzipSync(JSON.stringify(reference)).toString('base64')
    const built = await buildRunIndex(files, reportDir, dir)
    // Pieces of 999 rows: a piece ends inside every column, and the last one is short.
    expect(await encodeRunIndex(built.index, 999)).to.equal(expected)
    expect(await encodeRunIndex(built.index)).to.equal(expected)
  })

  it('embeds the traces the first order embedded: failed runs, then a run of every scenario x mode, then the rest', async () => {
    const reference = await referenceIndex(files, reportDir, dir)
    const order = referenceEmbeddingOrder(reference)
    const built = await buildRunIndex(files, reportDir, dir)
    const traceBytes = gzipSync(TRACE, {level: 9}).toString('base64').length
    for (const fit of [3, 40, 300]) {
      const embedded = await embedTraces(built, {totalBytes: fit * traceBytes, perTraceBytes: traceBytes})
      expect(Object.keys(embedded.traces).map(Number)).to.have.members(order.slice(0, fit))
      expect(embedded.embedded).to.equal(fit)
      expect(embedded.linked).to.equal(order.length - fit)
    }
  })
})
