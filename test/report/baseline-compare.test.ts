// `report --compare`: this run against a previous one, flagged beyond a stated tolerance.
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../src/report/aggregate/aggregate.js'
import {compareRuns, renderComparisonMarkdown, runComparisonSchema} from '../../src/report/baseline-compare.js'
import {buildReport} from '../../src/report/aggregate/summary.js'
import type {Row} from '../../src/results/row-schema.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {makeRow} from '../support/rows.js'

type Shape = Record<string, {tokens: number; latency: number; calls: number; passes: number}>

/** Three iterations of a-001 and b-001 under agent_direct and ghx, per "scenario mode" key. */
function reportOf(runId: string, shape: Shape, extra: Row[] = []) {
  const aggregate = emptyAggregate()
  for (const [key, s] of Object.entries(shape)) {
    const [scenario, mode] = key.split(' ') as [string, string]
    for (let i = 1; i <= 3; i++) {
      addRow(
        aggregate,
        makeRow({
          run_id: runId,
          scenario_id: scenario,
          mode,
          iteration: i,
          activeTokens: s.tokens,
          latency_ms_wall: s.latency,
          tool_calls: {total: s.calls, failed: 0},
          success: i <= s.passes,
        }),
      )
    }
  }
  for (const row of extra) addRow(aggregate, row)
  return buildReport(aggregate, {
    inputs: [`results/${runId}.jsonl`],
    warnings: [],
    baseline: 'agent_direct',
    seed: 1,
    resamples: 200,
  })
}

const before: Shape = {
  'a-001 agent_direct': {tokens: 1000, latency: 10_000, calls: 4, passes: 3},
  'a-001 ghx': {tokens: 500, latency: 5000, calls: 2, passes: 3},
  'b-001 agent_direct': {tokens: 2000, latency: 20_000, calls: 6, passes: 3},
  'b-001 ghx': {tokens: 1000, latency: 10_000, calls: 3, passes: 3},
}

describe('report --compare (a run against a previous one)', () => {
  it('finds no regression within tolerance, and writes schema-valid JSON', () => {
    const now = reportOf('run-2', {...before, 'a-001 ghx': {tokens: 540, latency: 5400, calls: 2, passes: 3}})
    const comparison = compareRuns(
      now,
      reportOf('run-1', before),
      {current: 'results/run-2.jsonl', previous: 'run run-1'},
      {relative_pct: 10, rate_points: 5},
    )
    const validate = compileSchema(runComparisonSchema)
    expect(validate(JSON.parse(JSON.stringify(comparison))), JSON.stringify(validate.errors)).to.equal(true)
    expect(comparison.regressions).to.equal(0)
    const pair = comparison.scenarios.find((s) => s.scenario_id === 'a-001' && s.mode === 'ghx')!
    expect(pair.metrics.find((m) => m.name === 'median_tokens_active')).to.deep.include({
      previous: 500,
      current: 540,
      change: 40,
      regressed: false,
    })
    expect(pair.metrics.find((m) => m.name === 'median_tokens_active')!.change_pct).to.be.closeTo(8, 1e-9)
    expect(renderComparisonMarkdown(comparison)).to.include('✅ No regression beyond tolerance.')
  })

  it('flags success down, tokens, latency and tool calls up beyond tolerance, per mode, pair and gate check', () => {
    const now = reportOf('run-2', {
      ...before,
      'a-001 ghx': {tokens: 800, latency: 5000, calls: 2, passes: 2},
      'b-001 ghx': {tokens: 1000, latency: 12_000, calls: 4, passes: 3},
    })
    const comparison = compareRuns(now, reportOf('run-1', before), {
      current: 'results/run-2.jsonl',
      previous: 'run run-1',
    })
    const pair = (scenario: string, mode: string) =>
      comparison.scenarios.find((s) => s.scenario_id === scenario && s.mode === mode)!
    const flagged = (items: Array<{name: string; regressed: boolean}>) =>
      items.filter((m) => m.regressed).map((m) => m.name)
    expect(flagged(pair('a-001', 'ghx').metrics)).to.deep.equal(['success_rate', 'median_tokens_active'])
    expect(flagged(pair('b-001', 'ghx').metrics)).to.deep.equal(['median_latency_ms_wall', 'median_tool_calls'])
    expect(pair('a-001', 'agent_direct').regressed).to.equal(false)
    expect(flagged(comparison.modes.find((m) => m.mode === 'ghx')!.metrics)).to.include('success_rate')
    const check = (name: string) => comparison.checks.find((c) => c.candidate === 'ghx' && c.name === name)!
    expect(check('reliability_success_rate_non_inferior')).to.deep.include({previous: 0, regressed: true})
    expect(check('reliability_success_rate_non_inferior').current).to.be.closeTo(-16.67, 0.01)
    expect(check('reliability_runner_failure_rate')).to.deep.include({
      operator: '<=',
      previous: 0,
      current: 0,
      regressed: false,
    })
    // Token reduction: before median(50, 50) = 50 %; now a-001 20 %, b-001 50 %: median 35 %, down 15 points > 10.
    expect(check('efficiency_tokens_active_reduction')).to.deep.include({
      previous: 50,
      current: 35,
      change: -15,
      regressed: true,
    })
    expect(comparison.regressions).to.equal(
      comparison.modes.reduce((n, m) => n + flagged(m.metrics).length, 0) +
        comparison.scenarios.reduce((n, s) => n + flagged(s.metrics).length, 0) +
        comparison.checks.filter((c) => c.regressed).length,
    )

    const markdown = renderComparisonMarkdown(comparison)
    expect(markdown).to.include(`🔻 ${comparison.regressions} regression(s) beyond tolerance.`)
    expect(markdown).to.include('| a-001 | `ghx` | 100.0 → 66.7 (-33.3 pts) 🔻 | 500 → 800 (+60.0%) 🔻 |')
    expect(markdown).to.include('| `efficiency_tokens_active_reduction` | 50.0 | 35.0 | -15.0 | 🔻 regressed |')
    expect(markdown).to.include(
      'a success rate may fall by 5.0 points and a median (active tokens, wall latency, tool calls) rise by 10.0%',
    )
  })

  it('lists pairs only on one side without flagging them, and a larger tolerance silences the flags', () => {
    const now = reportOf('run-2', {...before, 'a-001 ghx': {tokens: 800, latency: 5000, calls: 2, passes: 3}}, [
      makeRow({run_id: 'run-2', scenario_id: 'c-001', mode: 'ghx'}),
    ])
    const previous = reportOf('run-1', {...before, 'd-001 ghx': {tokens: 1, latency: 1, calls: 1, passes: 3}})
    const strict = compareRuns(now, previous, {current: 'now', previous: 'before'})
    expect(strict.scenarios.find((s) => s.scenario_id === 'c-001')).to.deep.include({status: 'added', regressed: false})
    expect(strict.scenarios.find((s) => s.scenario_id === 'd-001')).to.deep.include({
      status: 'removed',
      regressed: false,
    })
    expect(strict.regressions).to.be.above(0)
    const lenient = compareRuns(
      now,
      previous,
      {current: 'now', previous: 'before'},
      {relative_pct: 100, rate_points: 100},
    )
    expect(lenient.regressions).to.equal(0)
    const markdown = renderComparisonMarkdown(strict)
    expect(markdown).to.include('Only now (new scenario × mode pairs): c-001 (`ghx`).')
    expect(markdown).to.include('Only before (no rows now): d-001 (`ghx`).')
  })
})
