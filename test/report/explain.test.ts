// Reports that explain: why each run failed, bounded for a PR comment, and the gate's MDE.
import {expect} from 'chai'
import {
  addRow,
  emptyAggregate,
  mergePortable,
  toPortable,
  type Aggregate,
} from '../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../src/report/aggregate/compare.js'
import {DETAILS_LIMIT, DETAILS_PER_PAIR} from '../../src/report/aggregate/failures.js'
import {evaluateGate} from '../../src/report/gate/gate.js'
import {MAX_LISTED, renderGateMarkdown, renderReportMarkdown} from '../../src/report/render/markdown.js'
import {minimumDetectableEffect} from '../../src/report/gate/mde.js'
import {gateSchema, reportSchema} from '../../src/report/aggregate/report-schema.js'
import type {GateDocument} from '../../src/report/aggregate/report-schema.js'
import {buildReport, summarizeFailures, type Report} from '../../src/report/aggregate/summary.js'
import type {Row} from '../../src/results/row-schema.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {makeRow} from '../support/rows.js'

const failedCheckpointRow = (overrides: Partial<Row>): Row =>
  makeRow({
    scenario_id: 'issue-triage-wf-001',
    scenario_type: 'workflow',
    success: false,
    outcome: 'fail',
    error: {type: 'checkpoint_failed', message: 'Workflow checkpoint verification failed: label_added'},
    checkpoints: [
      {name: 'comment_added', passed: true, expected: 'non_empty', actual: [{body: 'x'}]},
      {
        name: 'label_added',
        passed: false,
        expected: 'some element: field_equals',
        actual: ['bug', 'triage'],
        message: 'none of the 2 elements of labels passes field_equals',
        result: {huge: 'x'.repeat(10_000)},
      },
    ],
    trace: 'run-1/traces/issue-triage-wf-001__mcp__i2__a1.json',
    ...overrides,
  })

function reportOf(
  aggregate: Aggregate,
  notApplicable: Array<{scenario_id: string; mode: string; reason: string}> = [],
): Report {
  return buildReport(aggregate, {
    inputs: ['results/run-1.jsonl'],
    warnings: [],
    baseline: 'agent_direct',
    seed: 1,
    resamples: 200,
    notApplicable,
  })
}

describe('reports that explain', () => {
  it('summary.md says per failed run its outcome, failing checkpoint with expected and actual, error and trace', () => {
    const aggregate = emptyAggregate()
    addRow(aggregate, makeRow({scenario_id: 'issue-triage-wf-001', mode: 'agent_direct'}))
    addRow(aggregate, failedCheckpointRow({mode: 'mcp', iteration: 2}))
    addRow(
      aggregate,
      makeRow({
        scenario_id: 'issue-view-001',
        mode: 'mcp',
        success: false,
        outcome: 'timeout',
        error: {type: 'timeout', message: 'no answer within 60000 ms'},
        trace: null,
      }),
    )
    addRow(aggregate, makeRow({scenario_id: 'issue-view-001', mode: 'agent_direct'}))
    addRow(aggregate, makeRow({scenario_id: 'release-list-001', mode: 'agent_direct'}))
    const report = reportOf(aggregate, [
      {scenario_id: 'release-list-001', mode: 'mcp', reason: 'the npm GitHub MCP server has no release tools'},
    ])
    const validate = compileSchema(reportSchema)
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).to.equal(true)
    expect(report.trace_root).to.equal('results')
    expect(report.failures!.failed_runs).to.equal(2)
    const run = report.failures!.runs.find((r) => r.mode === 'mcp' && r.scenario_id === 'issue-triage-wf-001')!
    // Only the failing checkpoint, and never its whole stored result.
    expect(run.checkpoints).to.deep.equal([
      {
        name: 'label_added',
        expected: 'some element: field_equals',
        actual: '["bug","triage"]',
        message: 'none of the 2 elements of labels passes field_equals',
      },
    ])

    const markdown = renderReportMarkdown(report)
    expect(markdown).to.include('❌ 2 of 5 runs failed (`mcp` 2)')
    expect(markdown).to.include('## Failed runs')
    expect(markdown).to.include('| issue-triage-wf-001 | `mcp` | 1 of 1 | fail 1 | checkpoint_failed 1 |')
    expect(markdown).to.include(
      '**checkpoint_failed**: Workflow checkpoint verification failed: label_added<br>✗ `label_added`: expected `some element: field_equals`, got `["bug","triage"]` — none of the 2 elements of labels passes field_equals',
    )
    expect(markdown).to.include('`results/run-1/traces/issue-triage-wf-001__mcp__i2__a1.json`')
    expect(markdown).to.include(
      '| issue-view-001 | `mcp` | run-1 #1 | timeout | **timeout**: no answer within 60000 ms | – |',
    )
    expect(markdown).to.match(
      /<details>\n<summary>Each failed run: [^<]*2 of 2 shown<\/summary>\n\n\| scenario \| mode \| run \| outcome \| reason \| trace \|/,
    )
    // The scenario x mode table: pass rate, median tokens, latency, tool calls; n/a where declared.
    expect(markdown).to.include('| release-list-001 | ✅ 1/1 (100%) · 1,000 · 10,000 · 3.0 | n/a |')
    // Medians are over stable runs: a cell whose one run failed has none.
    expect(markdown).to.include(
      '| issue-triage-wf-001 | ✅ 1/1 (100%) · 1,000 · 10,000 · 3.0 | ❌ 0/1 (0%) · – · – · – |',
    )
  })

  it('bounds the list for a PR comment: 50 runs, then "… and N more (see summary.json)", and escapes what rows say', () => {
    const aggregate = emptyAggregate()
    for (let i = 1; i <= 120; i++) {
      addRow(
        aggregate,
        failedCheckpointRow({
          scenario_id: `s-${String(i).padStart(3, '0')}`,
          error: {type: 'assertion_failed', message: `bad | table <script>alert(1)</script> ${'long '.repeat(500)}`},
          checkpoints: [1, 2, 3, 4, 5].map((n) => ({
            name: `cp_${n}`,
            passed: false,
            expected: 'x'.repeat(1000),
            actual: {nested: 'y'.repeat(1000)},
          })),
        }),
      )
    }
    const report = reportOf(aggregate)
    const markdown = renderReportMarkdown(report)
    const listed = markdown.split('\n').filter((line) => /^\| s-\d{3} \| `agent_direct` \| run-1 #1 \|/.test(line))
    expect(listed.length).to.be.at.most(MAX_LISTED)
    expect(markdown).to.include(`… and ${120 - listed.length} more (see summary.json)`)
    expect(markdown).to.include(
      `… and ${120 - MAX_LISTED} more scenario × mode pair(s) with failures (see summary.json)`,
    )
    expect(markdown).to.include('… and 2 more failing checkpoint(s)')
    expect(markdown).not.to.include('<script>')
    expect(markdown).to.include('bad \\| table &lt;script')
    // Every table row keeps its columns: escaped pipes do not split cells.
    for (const line of listed) expect(line.replace(/\\\|/g, '').split('|').length).to.equal(8)
    expect(markdown.length).to.be.below(60_000)
  })

  it('counts every failure but keeps the details bounded, the same whether read in one pass or merged from workers', () => {
    const rows = Array.from({length: 1500}, (_, i) =>
      failedCheckpointRow({scenario_id: `s-${i % 60}`, iteration: Math.floor(i / 60) + 1}),
    )
    const whole = emptyAggregate()
    for (const row of rows) addRow(whole, row)
    const first = emptyAggregate()
    const second = emptyAggregate()
    rows.forEach((row, i) => addRow(i < 700 ? first : second, row))
    const merged = emptyAggregate()
    mergePortable(merged, toPortable(first))
    mergePortable(merged, toPortable(second))
    for (const aggregate of [whole, merged]) {
      const failures = summarizeFailures(aggregate)
      expect(failures.failed_runs).to.equal(1500)
      expect(failures.by_scenario_mode).to.have.length(60)
      expect(failures.by_scenario_mode.every((g) => g.failed === 25 && g.runs === 25)).to.equal(true)
      expect(failures.runs.length).to.equal(Math.min(DETAILS_LIMIT, 60 * DETAILS_PER_PAIR))
    }
    expect(summarizeFailures(merged)).to.deep.equal(summarizeFailures(whole))
  })

  it('MDE is (z + 0.84) x SE with SE from the interval, for every check with one (not coverage, a count)', () => {
    expect(minimumDetectableEffect([10, 30])).to.be.closeTo(((1.959964 + 0.841621) * 20) / (2 * 1.959964), 1e-9)
    // At a sequential look's 99% the same width is a smaller SE.
    expect(minimumDetectableEffect([10, 30], 0.99)).to.be.closeTo(((2.575829 + 0.841621) * 20) / (2 * 2.575829), 1e-5)
    expect(minimumDetectableEffect([5, 5])).to.equal(0)
    expect(minimumDetectableEffect(null)).to.equal(null)
    expect(minimumDetectableEffect([null, 3])).to.equal(null)

    const aggregate = emptyAggregate()
    for (const scenario of ['a-001', 'b-001', 'c-001']) {
      for (let i = 1; i <= 5; i++) {
        addRow(
          aggregate,
          makeRow({
            scenario_id: scenario,
            mode: 'agent_direct',
            iteration: i,
            activeTokens: 1000 + 97 * i,
            latency_ms_wall: 10_000 + 1000 * i,
          }),
        )
        addRow(
          aggregate,
          makeRow({
            scenario_id: scenario,
            mode: 'ghx',
            iteration: i,
            activeTokens: 800 + 131 * i,
            latency_ms_wall: 9000 + 1500 * i,
            success: i !== 5,
          }),
        )
      }
    }
    const comparison = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'ghx',
      minSamples: 3,
      seed: 3,
      resamples: 1000,
    })
    const thresholds = {
      max_success_rate_drop_pct: 3,
      min_output_validity_rate_pct: 97,
      max_runner_failure_rate_pct: 5,
      max_timeout_stall_rate_pct: 2,
      max_retry_rate_pct: 15,
      min_efficiency_coverage_pct: 80,
      min_tokens_active_reduction_pct: 15,
      min_latency_reduction_pct: 15,
      min_tool_call_reduction_pct: 20,
      min_cost_reduction_pct: 10,
    }
    const {checks, verdict} = evaluateGate(comparison, {
      profile: 'p',
      decision: 'ci',
      min_samples: 3,
      override: null,
      thresholds,
    })
    const tokens = checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!
    const [low, high] = tokens.interval as [number, number]
    expect(high - low).to.be.above(0)
    expect(tokens.mde).to.be.closeTo((high - low) * 0.714, 0.01 * (high - low))
    // Under ci a reliability check's interval is its sized rule's, one-sided 5% at each end: a 90% interval, z = 1.645.
    for (const check of checks.filter((c) => c.group === 'reliability')) {
      const [rateLow, rateHigh] = check.interval as [number, number]
      expect(check.mde, check.name).to.be.closeTo((rateHigh - rateLow) * 0.756, 0.01 * (rateHigh - rateLow))
    }
    expect(checks.find((c) => c.name === 'efficiency_coverage')!.mde).to.equal(null)

    const gate: GateDocument = {
      schema_version: 1,
      generated_at: '2026-11-22T00:00:00.000Z',
      inputs: ['results/run-1.jsonl'],
      run_ids: ['run-1'],
      rows: aggregate.rows,
      warnings: [],
      bootstrap: {seed: 3, resamples: 1000},
      profile: 'p',
      model: null,
      override: null,
      decision: 'ci',
      min_samples: 3,
      thresholds,
      baseline: 'agent_direct',
      candidate: 'ghx',
      checks,
      verdict,
      exit_code: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : 3,
      comparison,
      trace_root: 'results',
      failures: summarizeFailures(aggregate, ['agent_direct', 'ghx']),
    }
    expect(compileSchema(gateSchema)(JSON.parse(JSON.stringify(gate)))).to.equal(true)
    const markdown = renderGateMarkdown(gate)
    expect(markdown).to.include('| check | value | rule | 95% CI | MDE | verdict | detail |')
    const tokenLine = markdown.split('\n').find((line) => line.startsWith('| `efficiency_tokens_active_reduction`'))!
    expect(tokenLine).to.include(`| [${low.toFixed(1)}, ${high.toFixed(1)}] | ${tokens.mde!.toFixed(1)} |`)
    expect(markdown).to.include('MDE (minimum detectable effect)')
    expect(markdown).to.include('## Failed runs of `agent_direct` and `ghx`')
    expect(markdown).to.include('3 run(s) failed in 3 scenario × mode pair(s).')
    if (verdict !== 'pass') expect(markdown).to.include('## Why')
  })
})
