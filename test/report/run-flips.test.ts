// Run against run: outcomes paired by scenario, mode and iteration, on a generated dataset whose flips are
// known, against an independent computation (direct binomial sums, Holm by hand) written here.
import {expect} from 'chai'
import {addRow, emptyAggregate, type ProviderAggregates} from '../../src/report/aggregate/aggregate.js'
import {runFlips} from '../../src/report/run-flips.js'
import {mulberry32} from '../../src/stats/random.js'
import {makeRow} from '../support/rows.js'

// Two-sided exact McNemar by direct binomial sums: 2 · Σ_{k ≤ min(b, c)} C(b + c, k) / 2^(b + c), at most 1.
function mcnemarBySums(b: number, c: number): number {
  const n = b + c
  if (n === 0) return 1
  let tail = 0
  let choose = 1
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += choose / 2 ** n
    choose = (choose * (n - k)) / (k + 1)
  }
  return Math.min(1, 2 * tail)
}

// Holm by its definition: p_(i) × (m − i + 1) for the i-th smallest, the running maximum, capped at 1.
function holmByHand(ps: number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const out = new Array<number>(ps.length)
  let max = 0
  order.forEach(([p, i], rank) => {
    max = Math.max(max, Math.min(1, (ps.length - rank) * p))
    out[i] = max
  })
  return out
}

describe('report --compare: run-vs-run paired flips', () => {
  // Per scenario × mode, each iteration's [passed before, passed now], drawn so the flips are known.
  const random = mulberry32(11)
  const chances: Record<string, [number, number]> = {
    'regressed-001': [0.95, 0.2],
    'same-001': [0.7, 0.7],
    'improved-001': [0.1, 0.95],
    'steady-001': [1, 1],
  }
  const modes = ['agent_direct', 'ghx']
  const design = new Map<string, Array<[boolean, boolean]>>()
  for (const mode of modes)
    for (const [scenario, [before, now]] of Object.entries(chances))
      design.set(
        `${scenario} ${mode}`,
        Array.from({length: 24}, () => [random() < before, random() < now]),
      )
  const side = (pick: 0 | 1, runId: string): ProviderAggregates => {
    const aggregate = emptyAggregate()
    for (const [key, outcomes] of design) {
      const [scenario, mode] = key.split(' ') as [string, string]
      outcomes.forEach((passed, i) =>
        addRow(
          aggregate,
          makeRow({run_id: runId, scenario_id: scenario, mode, iteration: i + 1, success: passed[pick]}),
        ),
      )
    }
    // Rows of the same provider on both sides: one aggregate each, as the report reads them.
    return new Map([['agent-loop', aggregate]])
  }
  const flips = runFlips(side(1, 'run-2'), side(0, 'run-1'))

  it('lists each pair’s PASS→FAIL and FAIL→PASS iterations and its exact McNemar p-value, as computed independently', () => {
    expect(flips.pairs).to.have.length(8)
    for (const [key, outcomes] of design) {
      const [scenario, mode] = key.split(' ') as [string, string]
      const pair = flips.pairs.find((p) => p.scenario_id === scenario && p.mode === mode)!
      const passToFail = outcomes.flatMap(([before, now], i) => (before && !now ? [i + 1] : []))
      const failToPass = outcomes.flatMap(([before, now], i) => (!before && now ? [i + 1] : []))
      expect(pair, key).to.deep.include({
        provider: 'agent-loop',
        paired: 24,
        pass_to_fail: passToFail,
        fail_to_pass: failToPass,
      })
      expect(pair.p_value, key).to.be.closeTo(mcnemarBySums(passToFail.length, failToPass.length), 1e-12)
    }
    // The design makes flips that cannot be missed.
    const regressed = flips.pairs.find((p) => p.scenario_id === 'regressed-001' && p.mode === 'ghx')!
    expect(regressed.pass_to_fail.length).to.be.above(10)
    expect(flips.pairs.find((p) => p.scenario_id === 'steady-001')!.p_value).to.equal(1)
  })

  it('adjusts by Holm across the scenarios of each mode, and lists PASS→FAIL, FAIL→PASS and significant pairs by p-value', () => {
    for (const mode of modes) {
      const family = flips.pairs.filter((p) => p.mode === mode)
      const adjusted = holmByHand(family.map((p) => p.p_value))
      family.forEach((p, i) => expect(p.p_adjusted, `${p.scenario_id} ${mode}`).to.be.closeTo(adjusted[i]!, 1e-12))
    }
    const names = (keep: (p: (typeof flips.pairs)[number]) => boolean) =>
      [...flips.pairs]
        .filter(keep)
        .sort((a, b) => a.p_value - b.p_value)
        .map(({scenario_id, mode, provider}) => ({scenario_id, mode, provider}))
    expect(flips.pass_to_fail).to.deep.equal(names((p) => p.pass_to_fail.length > p.fail_to_pass.length))
    expect(flips.fail_to_pass).to.deep.equal(names((p) => p.fail_to_pass.length > p.pass_to_fail.length))
    const significant = flips.significant.map((p) => `${p.scenario_id} ${p.mode}`).sort()
    expect(significant).to.include.members(['regressed-001 ghx', 'regressed-001 agent_direct', 'improved-001 ghx'])
    expect(significant).to.deep.equal(
      flips.pairs
        .filter((p) => p.pass_to_fail.length !== p.fail_to_pass.length && p.p_adjusted < 0.05)
        .map((p) => `${p.scenario_id} ${p.mode}`)
        .sort(),
    )
  })

  it('pairs nothing for an iteration a side holds twice, and nothing across providers', () => {
    const twice = emptyAggregate()
    const once = emptyAggregate()
    for (const runId of ['run-a', 'run-b']) addRow(twice, makeRow({run_id: runId, iteration: 1, success: false}))
    addRow(twice, makeRow({run_id: 'run-a', iteration: 2, success: false}))
    addRow(once, makeRow({iteration: 1}))
    addRow(once, makeRow({iteration: 2}))
    const paired = runFlips(new Map([['agent-loop', twice]]), new Map([['agent-loop', once]]))
    expect(paired.pairs).to.deep.equal([
      {
        scenario_id: 'issue-view-001',
        mode: 'agent_direct',
        provider: 'agent-loop',
        paired: 1,
        pass_to_fail: [2],
        fail_to_pass: [],
        p_value: 1,
        p_adjusted: 1,
      },
    ])
    expect(runFlips(new Map([['opencode', twice]]), new Map([['agent-loop', once]])).pairs).to.deep.equal([])
  })
})
