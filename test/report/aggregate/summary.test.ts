import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {reportSchema} from '../../../src/report/aggregate/report-schema.js'
import {buildReport, summarizeMode} from '../../../src/report/aggregate/summary.js'
import {renderReportMarkdown} from '../../../src/report/render/markdown.js'
import {compileSchema} from '../../../src/shared/schema-validator.js'
import {makeRow} from '../../support/rows.js'

describe('report summary', () => {
  // Two scenarios x 4 iterations of agent_direct, hand-made so every figure can be checked by hand.
  const aggregate = emptyAggregate()
  const latencies = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]
  latencies.forEach((latency, i) => {
    addRow(
      aggregate,
      makeRow({
        scenario_id: i < 4 ? 'a-001' : 'b-001',
        iteration: (i % 4) + 1,
        latency_ms_wall: latency + 500,
        latency_ms_agent: latency,
        activeTokens: (i + 1) * 100,
        success: i !== 7,
        tool_calls: {total: i + 1, failed: 0},
        retries: i === 0 ? 1 : 0,
        cost_usd: 0.01 * (i + 1),
      }),
    )
  })
  const summary = summarizeMode(aggregate, 'agent_direct')

  it('rates are percentages of all rows, with a Wilson interval on success', () => {
    expect(summary.runs).to.equal(8)
    expect(summary.success_rate).to.equal(87.5)
    expect(summary.retry_rate).to.equal(12.5)
    expect(summary.success_rate_ci![0]).to.be.closeTo(52.91, 0.01)
    expect(summary.success_rate_ci![1]).to.be.closeTo(97.76, 0.01)
  })

  it('medians are over the stable runs, the gate’s sample: the failed run (the slowest, the most tokens) is left out', () => {
    // Stable runs: i = 0..6, agent latency 1000..7000, wall 1500..7500.
    expect(summary.stable_runs).to.equal(7)
    expect(summary.median_latency_ms_wall).to.equal(4500)
    expect(summary.median_latency_ms_agent).to.equal(4000)
    expect(summary.median_latency_ms_harness).to.equal(500)
    expect(summary.p90_latency_ms_agent).to.be.closeTo(6400, 1e-9) // index 5.4
    expect(summary.p95_latency_ms_agent).to.be.closeTo(6700, 1e-9) // index 5.7
    expect(summary.iqr_latency_ms_agent).to.equal(3000) // 5500 - 2500
    expect(summary.cv_latency_agent_pct).to.be.closeTo(50, 1e-9) // population SD 2000 / mean 4000
  })

  it('token, tool-call and cost medians over the stable runs, and pass^k at the common k over all runs', () => {
    expect(summary.median_tokens_active).to.equal(400)
    expect(summary.median_tokens_total).to.equal(4400)
    expect(summary.median_tool_calls).to.equal(4)
    expect(summary.median_cost_usd).to.be.closeTo(0.04, 1e-12)
    // a-001: 4 of 4 pass -> pass^4 = 1; b-001: 3 of 4 -> 0; mean 0.5
    expect(summary.pass_hat_k).to.deep.equal({k: 4, value: 0.5})
  })

  it('the report JSON matches schemas/report.schema.json, with nulls where there is no data', () => {
    addRow(aggregate, makeRow({mode: 'mcp', latency_ms_agent: null}))
    const report = buildReport(aggregate, {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    const validate = compileSchema(reportSchema)
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).to.equal(true)
    expect(Object.keys(report.modes)).to.deep.equal(['agent_direct', 'mcp'])
    expect(report.modes.mcp!.median_latency_ms_agent).to.equal(null)
    expect(report.deltas.map((d) => d.candidate)).to.deep.equal(['mcp'])
  })

  it('GitHub API cost per mode over all runs that record it (failed ones too), and per comparison, in summary.md', () => {
    const rows = emptyAggregate()
    const api = (rest: number, points: number, waits = 0) => ({
      source: 'sandbox' as const,
      rest_requests: rest,
      graphql_requests: points,
      graphql_points: points,
      secondary_limit_waits: waits,
      retry_after_s: waits,
    })
    // agent_direct: REST 4, 6, 10 (a failed run's 10 counts) and no GraphQL; ghx: GraphQL 1, 3, 2 and REST 0.
    ;[4, 6, 10].forEach((rest, i) =>
      addRow(rows, makeRow({iteration: i + 1, success: i !== 2, github_api: api(rest, 0, i === 1 ? 1 : 0)})),
    )
    ;[1, 3, 2].forEach((points, i) =>
      addRow(rows, makeRow({mode: 'ghx', iteration: i + 1, github_api: api(0, points)})),
    )
    // A row from before the field says nothing: not counted.
    addRow(rows, makeRow({mode: 'ghx', iteration: 4}))
    const report = buildReport(rows, {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    expect(report.modes.agent_direct!.github_api).to.deep.equal({
      runs: 3,
      rest_requests: {median: 6, total: 20},
      graphql_points: {median: 0, total: 0},
      secondary_limit_waits: {median: 0, total: 1},
    })
    expect(report.modes.ghx!.github_api).to.deep.include({runs: 3, graphql_points: {median: 2, total: 6}})
    expect(report.deltas[0]!.github_api).to.deep.equal({
      rest_requests: {baseline: 6, candidate: 0, reduction_pct: 100},
      graphql_points: {baseline: 0, candidate: 2, reduction_pct: null},
    })
    const validate = compileSchema(reportSchema)
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).to.equal(true)
    const markdown = renderReportMarkdown(report)
    expect(markdown).to.include('## GitHub API cost')
    expect(markdown).to.include('| `agent_direct` | 3 of 3 | 6 / 20 | 0 / 0 | 1 |')
    expect(markdown).to.include('| `ghx` | 3 of 4 | 0 / 0 | 2 / 6 | 0 |')
    expect(markdown).to.include(
      'GitHub API cost per run (median over all runs): REST requests `agent_direct` 6.0, `ghx` 0.0 (reduction 100.0%); GraphQL points `agent_direct` 0.0, `ghx` 2.0.',
    )
    // Rows that record none: no section, no figure.
    expect(summary.github_api).to.equal(null)
  })
})
