// Fallbacks in the report and the gate: runs whose mode's tool layer failed and a later gh call did the
// work (the rows' `fallback`), counted per cell (no per-row arrays), per mode in summary.json, summary.md
// and the HTML report, and beside the gate's reliability checks: informational unless a profile sets
// max_fallback_rate_pct.
import {expect} from 'chai'
import {
  addRow,
  emptyAggregate,
  mergePortable,
  toPortable,
  type Aggregate,
} from '../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../src/report/aggregate/compare.js'
import {evaluateGate} from '../../src/report/gate/gate.js'
import {renderHtmlReport} from '../../src/report/render/html.js'
import {renderGateMarkdown, renderGateTable, renderReportMarkdown} from '../../src/report/render/markdown.js'
import {gateSchema, reportSchema, type GateDocument} from '../../src/report/aggregate/report-schema.js'
import {buildReport} from '../../src/report/aggregate/summary.js'
import type {Row} from '../../src/results/row-schema.js'
import {profileSchema, type Thresholds} from '../../src/schemas/profile.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {makeRow} from '../support/rows.js'

const THRESHOLDS: Thresholds = {
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

/** agent_direct never falls back; ghx falls back in workflow-view-001 (3 of 3, one failing), not in issue-view-001. */
function rows(): Row[] {
  const out: Row[] = []
  for (let i = 1; i <= 3; i++) {
    for (const scenario of ['issue-view-001', 'workflow-view-001']) {
      out.push(makeRow({scenario_id: scenario, mode: 'agent_direct', iteration: i, fallback: false}))
      const fellBack = scenario === 'workflow-view-001'
      out.push(
        makeRow({
          scenario_id: scenario,
          mode: 'ghx',
          iteration: i,
          fallback: fellBack,
          success: !(fellBack && i === 3),
          route_used: fellBack ? 'cli' : 'graphql',
        }),
      )
    }
  }
  return out
}

const aggregateOf = (list: Row[]): Aggregate => {
  const aggregate = emptyAggregate()
  for (const row of list) addRow(aggregate, row)
  return aggregate
}

function gateOf(aggregate: Aggregate, thresholds: Thresholds): GateDocument {
  const comparison = compareModes(aggregate, {
    baseline: 'agent_direct',
    candidate: 'ghx',
    minSamples: 3,
    seed: 1,
    resamples: 200,
  })
  const {checks, verdict} = evaluateGate(comparison, {
    profile: 'p',
    decision: 'ci',
    min_samples: 3,
    override: null,
    thresholds,
  })
  return {
    schema_version: 1,
    generated_at: '2026-11-27T00:00:00.000Z',
    inputs: ['results/r.jsonl'],
    run_ids: ['run-1'],
    rows: aggregate.rows,
    warnings: [],
    bootstrap: {seed: 1, resamples: 200},
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
  }
}

describe('fallbacks in the report and the gate', () => {
  it('are counted per cell and per mode: fallbacks, the passes among them, the rate over the runs that record it; a worker’s share merges', () => {
    const aggregate = aggregateOf(rows())
    const cell = aggregate.cells.get('ghx')!.get('workflow-view-001')!
    expect([cell.fallbacks, cell.fallback_passes, cell.fallback_recorded]).to.deep.equal([3, 2, 3])
    const report = buildReport(aggregate, {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    expect(report.modes.ghx).to.deep.include({fallback_runs: 3, fallback_passes: 2, fallback_rate: 50})
    expect(report.modes.agent_direct).to.deep.include({fallback_runs: 0, fallback_passes: 0, fallback_rate: 0})
    expect(
      report.scenarios.find((s) => s.mode === 'ghx' && s.scenario_id === 'workflow-view-001')!.fallback_runs,
    ).to.equal(3)
    const validate = compileSchema(reportSchema)
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).to.equal(true)
    // Two readers' aggregates merged give the same counts.
    const [first, second] = [rows().slice(0, 6), rows().slice(6)]
    const merged = aggregateOf(first)
    mergePortable(merged, toPortable(aggregateOf(second)))
    expect(
      buildReport(merged, {inputs: ['x.jsonl'], warnings: [], baseline: 'agent_direct', seed: 1, resamples: 200}).modes
        .ghx,
    ).to.deep.include({fallback_runs: 3, fallback_passes: 2, fallback_rate: 50})
  })

  it('rows that do not record it (written before the field, imported) count as unknown, not as no fallback', () => {
    const aggregate = aggregateOf([
      makeRow({mode: 'ghx'}),
      makeRow({mode: 'ghx', iteration: 2, fallback: null}),
      makeRow({mode: 'ghx', iteration: 3, fallback: true}),
    ])
    const report = buildReport(aggregate, {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    expect(report.modes.ghx).to.deep.include({runs: 3, fallback_runs: 1, fallback_rate: 100})
    const none = buildReport(aggregateOf([makeRow({mode: 'ghx'})]), {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    expect(none.modes.ghx).to.deep.include({fallback_runs: null, fallback_passes: null, fallback_rate: null})
    // Nothing recorded, nothing shown: the markdown has no fallback section.
    expect(renderReportMarkdown(none)).to.not.include('Fallbacks')
  })

  it('summary.md says how many passes rest on a fallback, by mode and scenario', () => {
    const report = buildReport(aggregateOf(rows()), {
      inputs: ['x.jsonl'],
      warnings: [],
      baseline: 'agent_direct',
      seed: 1,
      resamples: 200,
    })
    const markdown = renderReportMarkdown(report)
    expect(markdown).to.include('2 passes rest on a fallback (`ghx` 2): see *Fallbacks*.')
    expect(markdown).to.include('## Fallbacks')
    expect(markdown).to.include('| `ghx` | 6 | 3 (50.0%) | 2 | workflow-view-001 (3/3) |')
    expect(markdown).to.include('| `agent_direct` | 6 | 0 (0.0%) | 0 | – |')
  })

  it('the gate shows each mode’s fallbacks beside its reliability checks, informational: no check, no verdict', () => {
    const gate = gateOf(aggregateOf(rows()), THRESHOLDS)
    expect(gate.checks.map((c) => c.name)).to.not.include('reliability_fallback_rate')
    const r = gate.comparison.reliability
    expect(r.fallbacks).to.deep.equal({
      baseline: {runs: 6, recorded: 6, fallbacks: 0, passes: 0},
      candidate: {runs: 6, recorded: 6, fallbacks: 3, passes: 2},
    })
    expect(r.fallback_rate!.value).to.equal(50)
    expect(r.fallback_rate!.interval![0]).to.be.below(50)
    expect(compileSchema(gateSchema)(JSON.parse(JSON.stringify(gate)))).to.equal(true)
    const markdown = renderGateMarkdown(gate)
    expect(markdown).to.match(
      /Fallbacks: `agent_direct` 0 of 6 runs \(0\.0%\); `ghx` 3 of 6 runs \(50\.0% \[[\d.]+, [\d.]+\]\), 2 of them passed\. Informational: the profile sets no `max_fallback_rate_pct`\./,
    )
    expect(renderGateTable(gate)).to.match(/^INFO +Fallbacks: agent_direct 0 of 6 runs/m)
    const html = renderHtmlReport({
      report: buildReport(aggregateOf(rows()), {
        inputs: ['x.jsonl'],
        warnings: [],
        baseline: 'agent_direct',
        seed: 1,
        resamples: 200,
      }),
      gate,
      verdict: null,
      distributions: [],
      deltas: [],
      runs: '',
      traces: {traces: {}, embedded: 0, linked: 0, bytes: 0, budget: {maxBytes: 0, maxTraces: 0}} as never,
    })
    expect(html).to.include('<th class="num">fallbacks</th>')
    expect(html).to.include('3 (50.0%), 2 passed')
    expect(html).to.include('Fallbacks: <code>agent_direct</code> 0 of 6 runs')
  })

  it('a profile that sets max_fallback_rate_pct (off by default) judges the candidate’s rate', () => {
    const validate = compileSchema(profileSchema)
    const profile = {name: 'p', decision: 'ci', min_samples: 3, thresholds: THRESHOLDS}
    expect(validate(profile)).to.equal(true)
    expect(validate({...profile, thresholds: {...THRESHOLDS, max_fallback_rate_pct: 10}})).to.equal(true)
    const judged = gateOf(aggregateOf(rows()), {...THRESHOLDS, max_fallback_rate_pct: 10})
    const check = judged.checks.find((c) => c.name === 'reliability_fallback_rate')!
    expect(check).to.deep.include({group: 'reliability', operator: '<=', threshold: 10, value: 50, verdict: 'fail'})
    expect(judged.verdict).to.equal('fail')
    expect(renderGateMarkdown(judged)).to.include('Judged by `reliability_fallback_rate` above.')
    expect(renderGateTable(judged)).to.not.match(/^INFO/m)
    // Rows that do not record it: nothing to judge.
    const unrecorded = gateOf(aggregateOf(rows().map(({fallback: _, ...row}) => row as Row)), {
      ...THRESHOLDS,
      max_fallback_rate_pct: 10,
    })
    expect(unrecorded.checks.find((c) => c.name === 'reliability_fallback_rate')).to.deep.include({
      verdict: 'skipped',
      value: null,
    })
  })
})
