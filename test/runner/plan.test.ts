import {expect} from 'chai'
import {buildPlan} from '../../src/runner/plan.js'

describe('the run plan', () => {
  const scenarios = ['a-001', 'b-001', 'c-001', 'd-001']
  const modes = ['agent_direct', 'mcp', 'ghx']

  it('holds every scenario x mode x iteration once, iteration by iteration', () => {
    const plan = buildPlan(scenarios, modes, 3, 1)
    expect(plan).to.have.length(36)
    expect(new Set(plan.map((r) => r.key)).size).to.equal(36)
    expect(plan.map((r) => r.iteration)).to.deep.equal([...Array(12).fill(1), ...Array(12).fill(2), ...Array(12).fill(3)])
  })

  it('interleaves modes in an order the seed reproduces', () => {
    const plan = buildPlan(scenarios, modes, 2, 42)
    expect(buildPlan(scenarios, modes, 2, 42)).to.deep.equal(plan)
    expect(buildPlan(scenarios, modes, 2, 43).map((r) => r.key)).to.not.deep.equal(plan.map((r) => r.key))
    // Not mode after mode: within the first iteration the mode changes many times.
    const first = plan.filter((r) => r.iteration === 1).map((r) => r.mode)
    const switches = first.slice(1).filter((mode, i) => mode !== first[i]).length
    expect(switches).to.be.at.least(4)
  })
})
