import {expect} from 'chai'
import {gateModesProblem, unmetRequirement, type Preflight} from '../../src/runner/preflight.js'
import type {SuiteContext} from '../../src/runner/suite-context.js'

describe('scenario tool requirements (requires.<mode>.tools)', () => {
  const requirement = {tools: {gh: '2.50.0'}, reason: 'pr.checks.list runs `gh pr checks --json`'}

  it('is met by the same or a newer version, compared number by number', () => {
    expect(unmetRequirement(requirement, {gh: '2.50.0'})).to.equal(null)
    expect(unmetRequirement(requirement, {gh: '2.100.1', ghx: '0.8.0'})).to.equal(null)
    expect(unmetRequirement(undefined, {})).to.equal(null)
  })

  it('says which tool falls short, the version found and why, when older or unknown', () => {
    expect(unmetRequirement(requirement, {gh: '2.23.0'})).to.equal(
      'needs gh >= 2.50.0 (here: 2.23.0): pr.checks.list runs `gh pr checks --json`',
    )
    expect(unmetRequirement(requirement, {gh: '2.9.9'})).to.match(/^needs gh >= 2\.50\.0 \(here: 2\.9\.9\)/)
    expect(unmetRequirement(requirement, undefined)).to.match(/here: unknown/)
  })
})

describe('the modes of the gate a run will judge (gateModesProblem)', () => {
  const gate = {profile: 'verify_pr', baseline: 'agent_direct', candidate: 'ghx'}
  // Only the names of the modes that can run matter here.
  const ran = (...names: string[]): Preflight['modes'] =>
    new Map(names.map((name) => [name, {} as NonNullable<ReturnType<SuiteContext['modes']['get']>>]))
  const run = (over: Partial<Parameters<typeof gateModesProblem>[1]> = {}) => ({
    modes: ['agent_direct', 'ghx', 'mcp'],
    preflight: {modes: ran('agent_direct', 'ghx', 'mcp'), unavailable: []},
    scenarios: ['a-001', 'b-001'],
    notApplicable: [],
    ...over,
  })

  it('is no problem when both can run: an extra mode that cannot is left out as before', () => {
    expect(gateModesProblem(gate, run(), 'suites/s.yml')).to.equal(null)
    const extraLeftOut = run({
      preflight: {modes: ran('agent_direct', 'ghx'), unavailable: [{mode: 'mcp', reason: 'no server'}]},
    })
    expect(gateModesProblem(gate, extraLeftOut, 'suites/s.yml')).to.equal(null)
    // Some scenarios not applicable to the candidate: the others compare.
    const some = run({notApplicable: [{scenario_id: 'a-001', mode: 'ghx'}]})
    expect(gateModesProblem(gate, some, 'suites/s.yml')).to.equal(null)
  })

  it('names the mode that cannot run, why, and the fix: make it available, or --no-gate (exit 2, before the first run)', () => {
    const leftOut = run({
      preflight: {
        modes: ran('agent_direct', 'mcp'),
        unavailable: [{mode: 'ghx', reason: 'ghx not found: install it.'}],
      },
    })
    const problem = gateModesProblem(gate, leftOut, 'suites/s.yml')!
    expect(problem.diagnostics).to.have.length(1)
    expect(problem.diagnostics[0]).to.include({file: 'suites/s.yml', code: 'config'})
    expect(problem.diagnostics[0]!.message).to.equal(
      'gate verify_pr (ghx against agent_direct) needs its candidate mode ghx, which cannot run here: ghx not found: install it. Stopped before the first run, nothing run: make ghx available (install it, or fix its options), or pass --no-gate to record the rows of the modes that can run, with no gate verdict',
    )
    // A dry run says what a run would do.
    expect(gateModesProblem(gate, leftOut, 'suites/s.yml', true)!.message).to.include(
      'A run would stop here, before its first run: make ghx available',
    )
  })

  it('says each mode of the gate that cannot give rows: unavailable, not among the run’s modes, or applicable to no scenario', () => {
    const baselineDown = run({
      modes: ['agent_direct', 'mcp'],
      preflight: {modes: ran('mcp'), unavailable: [{mode: 'agent_direct', reason: 'gh not found'}]},
    })
    const messages = gateModesProblem(gate, baselineDown, 's.yml')!.diagnostics.map((d) => d.message)
    expect(messages).to.have.length(2)
    expect(messages[0]).to.match(/needs its baseline mode agent_direct, which cannot run here: gh not found\. /)
    expect(messages[1]).to.match(
      /needs its candidate mode ghx, which is not among the run's modes \(agent_direct, mcp\)\. .*: run it too \(--mode ghx, or the suite's modes\), or pass --no-gate/,
    )
    const notApplicable = run({
      notApplicable: [
        {scenario_id: 'a-001', mode: 'ghx'},
        {scenario_id: 'b-001', mode: 'ghx'},
      ],
    })
    expect(gateModesProblem(gate, notApplicable, 's.yml')!.message).to.match(
      /candidate mode ghx, which is not applicable to any scenario of the run\. .*: choose scenarios ghx can solve, or pass --no-gate/,
    )
  })
})
