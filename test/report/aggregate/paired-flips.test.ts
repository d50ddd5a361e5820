import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {buildReport} from '../../../src/report/aggregate/summary.js'
import {renderReportMarkdown} from '../../../src/report/render/markdown.js'
import {mulberry32} from '../../../src/stats/random.js'
import {makeRow} from '../../support/rows.js'

// The exact McNemar p-value by an independent route: enumerate every way the discordant pairs could
// have split under "no difference" (each with probability ½), and sum those at most as likely as the one seen.
function enumeratedMcNemar(b: number, c: number): number {
  const n = b + c
  if (n === 0) return 1
  const probability = (k: number) => {
    let p = 1
    for (let i = 0; i < n; i++) p *= 0.5
    let choose = 1
    for (let i = 1; i <= k; i++) choose = (choose * (n - i + 1)) / i
    return choose * p
  }
  const seen = probability(Math.min(b, c))
  let total = 0
  for (let k = 0; k <= n; k++) if (probability(k) <= seen * (1 + 1e-9)) total += probability(k)
  return Math.min(1, total)
}

describe('paired per-scenario comparison: success flips with the exact McNemar test', () => {
  // Per scenario, the outcome of each block as [baseline passed, candidate passed], drawn so the flips are known.
  const random = mulberry32(7)
  const design: Record<string, Array<[boolean, boolean]>> = {}
  const scenarios = {
    'regressed-001': [0.95, 0.3],
    'same-001': [0.8, 0.8],
    'improved-001': [0.2, 0.9],
    'steady-001': [1, 1],
  }
  for (const [id, [pb, pc]] of Object.entries(scenarios))
    design[id] = Array.from({length: 20}, () => [random() < pb!, random() < pc!])
  const aggregate = emptyAggregate()
  for (const [id, blocks] of Object.entries(design))
    blocks.forEach(([basePassed, candPassed], i) => {
      addRow(aggregate, makeRow({scenario_id: id, mode: 'agent_direct', iteration: i + 1, success: basePassed}))
      addRow(aggregate, makeRow({scenario_id: id, mode: 'mcp', iteration: i + 1, success: candPassed}))
    })
  const report = buildReport(aggregate, {inputs: [], warnings: [], baseline: 'agent_direct', seed: 1, resamples: 200})
  const delta = report.deltas[0]!

  it('counts each scenario’s discordant blocks and gives the exact McNemar p-value of an independent computation', () => {
    for (const [id, blocks] of Object.entries(design)) {
      const b = blocks.filter(([base, cand]) => base && !cand).length
      const c = blocks.filter(([base, cand]) => !base && cand).length
      const flips = delta.scenarios.find((s) => s.scenario_id === id)!.success_flips!
      expect(flips, id).to.include({paired_blocks: 20, pass_to_fail: b, fail_to_pass: c})
      expect(flips.p_value, id).to.be.closeTo(enumeratedMcNemar(b, c), 1e-12)
    }
  })

  it('adjusts the p-values by Holm across the scenarios and lists PASS→FAIL and FAIL→PASS scenarios by p-value', () => {
    const ps = Object.keys(design)
      .sort()
      .map((id) => delta.scenarios.find((s) => s.scenario_id === id)!.success_flips!)
    const sorted = [...ps].sort((x, y) => x.p_value - y.p_value)
    let running = 0
    sorted.forEach((f, rank) => {
      running = Math.max(running, Math.min(1, (ps.length - rank) * f.p_value))
      expect(f.p_adjusted).to.be.closeTo(running, 1e-12)
    })
    const counted = Object.entries(design).map(([id, blocks]) => {
      const b = blocks.filter(([base, cand]) => base && !cand).length
      const c = blocks.filter(([base, cand]) => !base && cand).length
      return {id, b, c, p: enumeratedMcNemar(b, c)}
    })
    const listed = (keep: (x: {b: number; c: number}) => boolean) =>
      counted
        .filter(keep)
        .sort((x, y) => x.p - y.p || x.id.localeCompare(y.id))
        .map((x) => x.id)
    expect(delta.success_flips!.pass_to_fail).to.deep.equal(listed((x) => x.b > x.c))
    expect(delta.success_flips!.fail_to_pass).to.deep.equal(listed((x) => x.c > x.b))
    expect(delta.success_flips!.pass_to_fail).to.include('regressed-001')
    expect(delta.success_flips!.fail_to_pass).to.deep.equal(['improved-001'])
    expect(delta.success_flips!.significant).to.have.members(['regressed-001', 'improved-001'])
  })

  it('names the flipped scenarios in summary.md, with their counts and p-values', () => {
    const markdown = renderReportMarkdown(report)
    expect(markdown).to.match(
      /PASS→FAIL `regressed-001` \(\d+ PASS→FAIL, \d+ FAIL→PASS of 20; p [\d.]+, adjusted [\d.]+\)/,
    )
    expect(markdown).to.match(/FAIL→PASS `improved-001`/)
    expect(markdown).not.to.match(/`steady-001` \(/)
  })

  it('pairs nothing across scenarios or runs: a block is one scenario × iteration of one run', () => {
    const split = emptyAggregate()
    addRow(split, makeRow({run_id: 'a', scenario_id: 'x-001', mode: 'agent_direct', iteration: 1, success: true}))
    addRow(split, makeRow({run_id: 'b', scenario_id: 'x-001', mode: 'mcp', iteration: 1, success: false}))
    const flips = buildReport(split, {inputs: [], warnings: [], baseline: 'agent_direct', seed: 1, resamples: 50})
      .deltas[0]!.scenarios[0]!.success_flips!
    expect(flips).to.include({paired_blocks: 0, pass_to_fail: 0, fail_to_pass: 0, p_value: 1})
  })
})
