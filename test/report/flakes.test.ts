import {expect} from 'chai'
import {flakeLedger, type LedgerOutcome} from '../../src/report/flakes.js'

/** Outcomes of one cell over runs, each run a list of its iterations' successes. */
function cell(scenario: string, runs: boolean[][], mode = 'agent_direct'): LedgerOutcome[] {
  return runs.flatMap((iterations, r) =>
    iterations.map((success, i) => ({
      run_id: `run-${r + 1}`,
      run_started_at: `2026-11-2${r}T00:00:00Z`,
      scenario_id: scenario,
      mode,
      provider: 'agent-loop',
      iteration: i + 1,
      success,
    })),
  )
}

describe('the flake ledger', () => {
  const T = true
  const F = false
  const ledger = flakeLedger([
    ...cell('steady-001', [
      [T, T],
      [T, T],
      [T, T],
    ]),
    ...cell('broken-001', [
      [F, F],
      [F, F],
      [F, F],
    ]),
    ...cell('flaky-001', [
      [T, F],
      [T, T],
      [F, T],
    ]),
    ...cell('once-001', [
      [T, T],
      [T, T],
      [T, F],
    ]),
    ...cell('new-001', [[T, F]]),
  ])
  const entry = (id: string) => ledger.find((e) => e.scenario_id === id)!

  it('counts flips between consecutive outcomes, oldest run first, iterations in order', () => {
    // flaky: T F T T F T -> 4 flips in 5 steps; once: T T T T T F -> 1 in 5
    expect(entry('flaky-001').flip_rate).to.equal(4 / 5)
    expect(entry('once-001').flip_rate).to.equal(1 / 5)
    expect(entry('steady-001').flip_rate).to.equal(0)
    expect(entry('broken-001').flip_rate).to.equal(0)
  })

  it('gives pass^k at a run’s repetitions: C(passes, k) / C(outcomes, k)', () => {
    // flaky: 4 of 6 pass, k = 2 -> (4 * 3) / (6 * 5) = 0.4
    expect(entry('flaky-001').pass_hat_k.k).to.equal(2)
    expect(entry('flaky-001').pass_hat_k.value).to.be.closeTo(0.4, 1e-12)
    expect(entry('steady-001').pass_hat_k.value).to.equal(1)
    expect(entry('broken-001').pass_hat_k.value).to.equal(0)
  })

  it('names the first and last run that failed', () => {
    expect(entry('flaky-001')).to.include({first_failing: 'run-1', last_failing: 'run-3', runs: 3, outcomes: 6})
    expect(entry('steady-001')).to.include({first_failing: null, last_failing: null})
  })

  it('proposes only a cell that flips at the threshold, twice at least, with enough runs, listed first', () => {
    expect(ledger.filter((e) => e.proposed_quarantine).map((e) => e.scenario_id)).to.deep.equal(['flaky-001'])
    expect(ledger[0]!.scenario_id).to.equal('flaky-001')
    // once-001 flipped once, at the threshold: a change (a regression), not noise.
    expect(entry('once-001').proposed_quarantine).to.equal(false)
    // new-001 flips on every outcome but has one run: too few to judge.
    expect(entry('new-001')).to.include({flip_rate: 1, proposed_quarantine: false})
  })

  it('keeps modes and providers apart', () => {
    const two = flakeLedger([...cell('x-001', [[T], [F], [T]]), ...cell('x-001', [[T], [T], [T]], 'mcp')])
    expect(two.map((e) => [e.mode, e.proposed_quarantine])).to.deep.equal([
      ['agent_direct', true],
      ['mcp', false],
    ])
  })
})
