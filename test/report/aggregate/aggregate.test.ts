// The aggregate: the harness time derived where the row's own figure equals wall - agent, the stable
// sample and its sorted values, readers' aggregates merged with their runs renumbered, and the bytes a
// row costs.
import {expect} from 'chai'
import {
  addRow,
  columnBytes,
  emptyAggregate,
  mergePortable,
  modeCells,
  sealAggregate,
  stableSample,
  stableMedian,
  withStableSorted,
  toPortable,
  transferList,
  type Aggregate,
} from '../../../src/report/aggregate/aggregate.js'
import type {Row} from '../../../src/results/row-schema.js'
import {mulberry32} from '../../../src/stats/random.js'
import {makeRow} from '../../support/rows.js'

const cellOf = (aggregate: Aggregate, mode = 'agent_direct', scenario = 'issue-view-001') =>
  aggregate.cells.get(mode)!.get(scenario)!

describe('aggregate', () => {
  it('derives the harness time as wall - agent at no cost, and keeps a row’s own figure where it differs', () => {
    const aggregate = emptyAggregate()
    addRow(aggregate, makeRow({iteration: 1, latency_ms_wall: 10_000, latency_ms_agent: 9000}))
    addRow(
      aggregate,
      makeRow({iteration: 2, latency_ms_wall: 10_000, latency_ms_agent: 9000, latency_ms_harness: 1000}),
    )
    addRow(aggregate, makeRow({iteration: 3, latency_ms_wall: 10_000, latency_ms_agent: null}))
    addRow(aggregate, makeRow({iteration: 4, latency_ms_wall: 5000, latency_ms_agent: 6000}))
    addRow(aggregate, makeRow({iteration: 5, latency_ms_wall: 10_000, latency_ms_agent: 9000, latency_ms_harness: 700}))
    addRow(aggregate, makeRow({iteration: 6, latency_ms_wall: 10_000, latency_ms_agent: null, latency_ms_harness: 300}))
    const harness = cellOf(aggregate).all.latency_harness
    expect(Array.from(harness.values())).to.deep.equal([1000, 1000, Number.NaN, 0, 700, 300])
    // Only the two rows whose own figure is not wall - agent are stored.
    const stored = harness.chunks.flatMap((c) =>
      c.data
        ? Array.from(c.data.subarray(0, c.length)).filter((v) => v !== c.mark)
        : Number.isNaN(c.constant)
          ? []
          : [c.constant],
    )
    expect(stored).to.deep.equal([700, 300])
  })

  it('samples the stable rows’ present values in row order with their blocks, and sorts them', () => {
    const aggregate = emptyAggregate()
    const rows: Row[] = [
      makeRow({iteration: 1, activeTokens: 500}),
      makeRow({iteration: 2, activeTokens: 300, success: false, outcome: 'fail'}),
      makeRow({iteration: 3, activeTokens: 100, latency_ms_agent: null}),
      makeRow({iteration: 4, activeTokens: 200, outcome: 'timeout'}),
      makeRow({run_id: 'run-2', iteration: 1, activeTokens: 400}),
    ]
    for (const row of rows) addRow(aggregate, row)
    const cell = cellOf(aggregate)
    expect(cell.stable_runs).to.equal(3)
    const tokens = stableSample(cell, 'tokens_active', 'baseline')
    expect(Array.from(tokens.values)).to.deep.equal([500, 100, 400])
    expect(Array.from(tokens.blocks)).to.deep.equal([1, 3, 2 ** 20 + 1])
    // The other side has its own buffers: the baseline's sample is still intact.
    expect(Array.from(stableSample(cell, 'latency_agent', 'candidate').values)).to.deep.equal([9000, 9000])
    expect(Array.from(tokens.values)).to.deep.equal([500, 100, 400])
    expect(stableMedian([cell], 'tokens_active')).to.equal(400)
    expect(stableMedian([cell], 'latency_agent')).to.equal(9000)
    // The buffer is reused: a second median is of its own values, not the first one's leftovers.
    expect(stableMedian([cell], 'tokens_active')).to.equal(400)
    expect(Number.isNaN(stableMedian([cell], 'cost'))).to.equal(true)
  })

  it('merges a mode’s cells into one sorted sample', () => {
    const aggregate = emptyAggregate()
    const random = mulberry32(5)
    const expected: number[] = []
    for (let i = 1; i <= 3000; i++) {
      const scenario = `s-${i % 7}`
      const active = Math.round(random() * 5000) + (i % 11 === 0 ? 0.5 : 0)
      const success = i % 13 !== 0
      addRow(
        aggregate,
        makeRow({
          scenario_id: scenario,
          iteration: i,
          activeTokens: active,
          success,
          outcome: success ? 'pass' : 'fail',
        }),
      )
      if (success) expected.push(active)
    }
    expect(
      withStableSorted(modeCells(aggregate, 'agent_direct'), 'tokens_active', (sorted) => Array.from(sorted)),
    ).to.deep.equal(expected.sort((a, b) => a - b))
  })

  it('merges readers’ aggregates in reading order, renumbering the runs of one that met them in another order', () => {
    const rows: Row[] = []
    for (const run of ['run-a', 'run-b', 'run-a', 'run-c']) {
      for (let i = 1; i <= 40; i++) {
        rows.push(
          makeRow({
            run_id: run,
            iteration: rows.length + i,
            activeTokens: 1000 + rows.length,
            latency_ms_wall: 0.5 + rows.length,
            mode: i % 2 ? 'ghx' : 'agent_direct',
          }),
        )
      }
    }
    const whole = emptyAggregate()
    for (const row of rows) addRow(whole, row)
    // The second reader starts with run-b, so its run 0 is our run 1.
    const first = emptyAggregate()
    const second = emptyAggregate()
    rows.forEach((row, i) => addRow(i < 40 ? first : second, row))
    expect([...second.run_ids]).to.deep.equal(['run-b', 'run-a', 'run-c'])
    const merged = emptyAggregate()
    mergePortable(merged, toPortable(first))
    mergePortable(merged, toPortable(second))
    expect([...merged.run_ids]).to.deep.equal(['run-a', 'run-b', 'run-c'])
    for (const mode of ['ghx', 'agent_direct']) {
      const [a, b] = [cellOf(whole, mode), cellOf(merged, mode)]
      expect(Array.from(b.blocks.values())).to.deep.equal(Array.from(a.blocks.values()))
      expect(Array.from(b.all.tokens_active.values())).to.deep.equal(Array.from(a.all.tokens_active.values()))
      expect(Array.from(b.all.latency_wall.values())).to.deep.equal(Array.from(a.all.latency_wall.values()))
      expect(Array.from(b.stable.values())).to.deep.equal(Array.from(a.stable.values()))
      expect(b.runs).to.equal(a.runs)
    }
  })

  it('hands its arrays over for transfer, each buffer once', () => {
    const aggregate = emptyAggregate()
    for (let i = 1; i <= 100; i++) addRow(aggregate, makeRow({iteration: i, activeTokens: 1000 + i}))
    const portable = toPortable(aggregate)
    const buffers = transferList(portable)
    expect(new Set(buffers).size).to.equal(buffers.length)
    // Varying columns (tokens, blocks) have arrays; constant ones (agent time, cost) have none.
    expect(buffers.length).to.be.above(0)
    const cell = portable.cells[0]!
    expect(cell.all[1]!.every((c) => c.data === null)).to.equal(true)
  })

  it('keeps a row in about 14 bytes where eight Float64 columns took 73', () => {
    const aggregate = emptyAggregate()
    const random = mulberry32(9)
    const n = 60_000
    for (let i = 0; i < n; i++) {
      const success = random() > 0.03
      addRow(
        aggregate,
        makeRow({
          scenario_id: `s-${i % 30}`,
          mode: ['agent_direct', 'mcp', 'ghx'][i % 3]!,
          iteration: Math.floor(i / 90) + 1,
          success,
          outcome: success ? 'pass' : 'fail',
          latency_ms_wall: Math.round(20_000 * random()),
          latency_ms_agent: Math.round(18_000 * random()),
          activeTokens: Math.round(800 + 500 * random()),
          cost_usd: Math.round(2000 * random()) / 1e6,
          tool_calls: {total: Math.round(6 * random()), failed: 0},
        }),
      )
    }
    sealAggregate(aggregate)
    expect(columnBytes(aggregate) / n).to.be.below(16)
  })
})
