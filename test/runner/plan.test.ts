import {expect} from 'chai'
import {buildPlan} from '../../src/runner/plan.js'

describe('the run plan', () => {
  const scenarios = ['a-001', 'b-001', 'c-001', 'd-001']
  const modes = ['agent_direct', 'mcp', 'ghx']
  const one = ['agent-loop']

  it('holds every scenario x mode x iteration once, iteration by iteration', () => {
    const plan = buildPlan(scenarios, modes, one, 3, 1)
    expect(plan).to.have.length(36)
    expect(new Set(plan.map((r) => r.key)).size).to.equal(36)
    expect(plan.map((r) => r.iteration)).to.deep.equal([
      ...Array(12).fill(1),
      ...Array(12).fill(2),
      ...Array(12).fill(3),
    ])
  })

  it('interleaves modes in an order the seed reproduces', () => {
    const plan = buildPlan(scenarios, modes, one, 2, 42)
    expect(buildPlan(scenarios, modes, one, 2, 42)).to.deep.equal(plan)
    expect(buildPlan(scenarios, modes, one, 2, 43).map((r) => r.key)).to.not.deep.equal(plan.map((r) => r.key))
    // Not mode after mode: within the first iteration the mode changes many times.
    const first = plan.filter((r) => r.iteration === 1).map((r) => r.mode)
    const switches = first.slice(1).filter((mode, i) => mode !== first[i]).length
    expect(switches).to.be.at.least(4)
  })

  it('plays every scenario x mode x iteration under each provider, each run its own key, providers interleaved', () => {
    const plan = buildPlan(scenarios, modes, ['agent-loop', 'claude-code'], 2, 7)
    expect(plan).to.have.length(48)
    expect(new Set(plan.map((r) => r.key)).size).to.equal(48)
    for (const provider of ['agent-loop', 'claude-code']) {
      const own = plan.filter((r) => r.provider === provider)
      expect(own.map((r) => `${r.scenario_id}/${r.mode}/${r.iteration}`).sort()).to.deep.equal(
        buildPlan(scenarios, modes, one, 2, 7)
          .map((r) => `${r.scenario_id}/${r.mode}/${r.iteration}`)
          .sort(),
      )
      expect(own.every((r) => r.key === `${r.scenario_id}/${r.mode}/${provider}/${r.iteration}`)).to.equal(true)
    }
    const first = plan.filter((r) => r.iteration === 1).map((r) => r.provider)
    expect(first.slice(1).filter((provider, i) => provider !== first[i]).length).to.be.at.least(4)
  })
})
