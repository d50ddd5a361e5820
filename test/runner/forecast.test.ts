// The forecast of a plan from the runs stored in results_dir: each cell's median over the newest runs of
// the same suite and model, priced from the price table, its wall time shared over the concurrency, and
// the cells no run holds named.
import {mkdir, mkdtemp, utimes, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import type {Scenario} from '../../src/schemas/scenario.js'
import {writeRunInfo} from '../../src/results/run-info.js'
import {cellForecasts, forecastPlan, runForecast} from '../../src/runner/forecast.js'
import {oracleCountsOf, readOracleCounts} from '../../src/runner/oracle-counts.js'
import {buildPlan} from '../../src/runner/plan.js'
import {makeRow} from '../support/rows.js'

const MODEL = 'ghx-bench/oracle'

/** A stored run: its rows file and run.json, its file as old as `age` seconds. */
async function storeRun(dir: string, runId: string, suite: string, rows: Array<Partial<Row>>, age: number) {
  await writeRunInfo(dir, runId, {
    run_id: runId,
    suite,
    seed: 1,
    modes: ['agent_direct', 'mcp'],
    unavailable: [],
    not_applicable: [],
  })
  const file = path.join(dir, `${runId}.jsonl`)
  await writeFile(
    file,
    rows.map((row) => JSON.stringify(makeRow({run_id: runId, suite, model: MODEL, ...row})) + '\n').join(''),
  )
  const when = new Date(Date.now() - age * 1000)
  await utimes(file, when, when)
}

const tokens = (input: number, output: number, cacheRead = 0) => ({
  input,
  output,
  reasoning: 0,
  cache_read: cacheRead,
  cache_write: 0,
  total: input + output + cacheRead,
  active: input + output,
})

describe('the forecast', () => {
  it('expects each cell to spend its median over the comparable runs, and names the cells none holds', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-forecast-'))
    await mkdir(dir, {recursive: true})
    const cell = (mode: string, input: number, ms: number, iteration = 1): Partial<Row> => ({
      scenario_id: 'issue-view-001',
      mode,
      iteration,
      tokens: tokens(input, 100, 1000),
      latency_ms_wall: ms,
    })
    // Three runs of the suite: agent_direct's medians are 2000 input tokens and 2 s.
    await storeRun(dir, 'r1', 'smoke', [cell('agent_direct', 1000, 1000), cell('mcp', 9000, 5000)], 30)
    await storeRun(dir, 'r2', 'smoke', [cell('agent_direct', 2000, 2000)], 20)
    await storeRun(dir, 'r3', 'smoke', [cell('agent_direct', 9000, 3000), cell('agent_direct', 2000, 2000, 2)], 10)
    // Another suite's run and another model's rows are not comparable: never read into the figures.
    await storeRun(dir, 'other-suite', 'full-seeded', [cell('agent_direct', 1, 1)], 5)
    await storeRun(dir, 'other-model', 'smoke', [{...cell('agent_direct', 1, 1), model: 'openai/gpt-5'}], 1)
    const price = {input: 2, output: 10, cache_read: 0.5}
    const history = await cellForecasts(dir, {suite: 'smoke', model: MODEL, price}, dir)
    const {cells, fromRuns} = history
    expect(fromRuns).to.deep.equal(['r3', 'r2', 'r1'])
    const direct = cells.get('issue-view-001/agent_direct/agent-loop')!
    expect(direct).to.deep.equal({
      tokens: {input: 2000, output: 100, total: 3100},
      cost_usd: (2000 * 2 + 100 * 10 + 1000 * 0.5) / 1e6,
      wall_ms: 2000,
      source: 'runs',
    })
    const plan = buildPlan(['issue-view-001', 'pr-view-001'], ['agent_direct', 'mcp'], ['agent-loop'], 3, 1)
    const forecast = forecastPlan(plan, history, 2)
    const mcp = cells.get('issue-view-001/mcp/agent-loop')!
    expect(forecast).to.deep.include({
      from_runs: ['r3', 'r2', 'r1'],
      from_recorded: null,
      runs: 12,
      blocks: 6,
      concurrency: 2,
    })
    expect(forecast.tokens).to.deep.equal({
      input: 3 * (2000 + 9000),
      output: 3 * 200,
      total: 3 * (3100 + mcp.tokens.total),
    })
    expect(forecast.cost_usd).to.be.closeTo(3 * (direct.cost_usd! + mcp.cost_usd!), 1e-12)
    expect(forecast.wall_ms).to.equal((3 * (2000 + 5000)) / 2)
    expect(forecast.unforecast).to.deep.equal([
      {cell: 'pr-view-001/agent_direct/agent-loop', runs: 3},
      {cell: 'pr-view-001/mcp/agent-loop', runs: 3},
    ])
    expect(
      runForecast(
        cells,
        plan.find((run) => run.mode === 'mcp' && run.scenario_id === 'issue-view-001')!,
      ),
    ).to.deep.equal({
      runs: 1,
      tokens: mcp.tokens.total,
      cost_usd: mcp.cost_usd,
      ms: 5000,
    })
    expect(
      runForecast(
        cells,
        plan.find((run) => run.scenario_id === 'pr-view-001')!,
      ),
    ).to.equal(undefined)
  })

  it('prices from the rows’ own cost without a price table entry, and says nothing of cost without either', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-forecast-'))
    await storeRun(
      dir,
      'priced',
      'smoke',
      [{cost_usd: 0.25}, {cost_usd: 0.75, iteration: 2}, {cost_usd: 0.5, iteration: 3}],
      2,
    )
    const priced = await cellForecasts(dir, {suite: 'smoke', model: MODEL, price: undefined}, dir)
    expect(priced.cells.get('issue-view-001/agent_direct/agent-loop')!.cost_usd).to.equal(0.5)
    const bare = await mkdtemp(path.join(tmpdir(), 'ghx-bench-forecast-'))
    await storeRun(bare, 'unpriced', 'smoke', [{}], 1)
    const unpriced = await cellForecasts(bare, {suite: 'smoke', model: MODEL, price: undefined}, bare)
    const plan = buildPlan(['issue-view-001'], ['agent_direct'], ['agent-loop'], 1, 1)
    expect(forecastPlan(plan, unpriced, 1).cost_usd).to.equal(null)
    // No run at all: nothing to forecast from, every cell named.
    const empty = await cellForecasts(path.join(bare, 'none'), {suite: 'smoke', model: MODEL, price: undefined}, bare)
    expect(forecastPlan(plan, empty, 1)).to.deep.include({
      from_runs: [],
      unforecast: [{cell: 'issue-view-001/agent_direct/agent-loop', runs: 1}],
    })
  })

  it('reads the newest five comparable runs at most', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-forecast-'))
    for (let i = 1; i <= 7; i++) await storeRun(dir, `r${i}`, 'smoke', [{}], 100 - i)
    const {fromRuns} = await cellForecasts(dir, {suite: 'smoke', model: MODEL, price: undefined}, dir)
    expect(fromRuns).to.deep.equal(['r7', 'r6', 'r5', 'r4', 'r3'])
  })

  it('forecasts the cells no run holds from the oracle’s recorded counts, for scenarios as they were recorded', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-forecast-'))
    const scenario = (id: string, title: string) => ({id, title}) as unknown as Scenario
    const asRecorded = new Map([
      ['issue-view-001', scenario('issue-view-001', 'View an issue')],
      ['pr-view-001', scenario('pr-view-001', 'View a pull request')],
    ])
    const recordedRows = [
      makeRow({scenario_id: 'issue-view-001', mode: 'agent_direct', tokens: tokens(4000, 50), latency_ms_wall: 800}),
      makeRow({scenario_id: 'issue-view-001', mode: 'mcp', tokens: tokens(9000, 60), latency_ms_wall: 900}),
      makeRow({scenario_id: 'pr-view-001', mode: 'agent_direct', tokens: tokens(5000, 70), latency_ms_wall: 700}),
    ]
    const file = path.join(dir, 'oracle-counts.json')
    const recording = {run_id: 'oracle-counts', ghx_bench: '1.0.0', date: '2026-11-27'}
    await writeFile(file, JSON.stringify(oracleCountsOf(recordedRows, asRecorded, recording)))
    // pr-view-001 changed since: its recorded counts are another scenario's.
    const now = [asRecorded.get('issue-view-001')!, scenario('pr-view-001', 'View a pull request, and its checks')]
    const recorded = (await readOracleCounts(now, file))!
    expect([...recorded.cells.keys()]).to.deep.equal([
      'issue-view-001/agent_direct/agent-loop',
      'issue-view-001/mcp/agent-loop',
    ])
    // A previous run holds issue-view-001 under agent_direct: its figures win over the recording's.
    await storeRun(dir, 'r1', 'smoke', [{scenario_id: 'issue-view-001', tokens: tokens(3000, 40)}], 10)
    const history = await cellForecasts(dir, {suite: 'smoke', model: MODEL, price: undefined, recorded}, dir)
    const plan = buildPlan(['issue-view-001', 'pr-view-001'], ['agent_direct', 'mcp'], ['agent-loop'], 2, 1)
    const forecast = forecastPlan(plan, history, 1)
    expect(forecast.tokens.input).to.equal(2 * 3000 + 2 * 9000)
    expect(forecast.from_runs).to.deep.equal(['r1'])
    expect(forecast.from_recorded).to.deep.equal({...recording, runs: 2})
    expect(forecast.unforecast).to.deep.equal([
      {cell: 'pr-view-001/agent_direct/agent-loop', runs: 2},
      {cell: 'pr-view-001/mcp/agent-loop', runs: 2},
    ])
    expect(await readOracleCounts(now, path.join(dir, 'none.json'))).to.equal(undefined)
  })
})
