// Defect 6: --inject-faults hits the system under test only (its agent token, its model endpoint),
// never the harness's seeding, resets or checkpoints; a failed run whose traffic got faults is an
// infra_error with the count, never the agent's fail; at 0.6 every row is recorded.
import {expect} from 'chai'
import {Faults} from '../../src/emulator/faults.js'
import {keyOf, project, rowsOf, runCli} from '../support/reliability.js'

const TRIAGE = 'issue-triage-comment-wf-001'

describe('reliability: injected faults', function () {
  this.timeout(120_000)

  it('scoped to tokens: only requests with a scoped token get faults, counted per token', () => {
    const faults = new Faults()
    faults.configure({seed: 3, rules: [{route: '*', rate: 1, kind: '502'}]})
    const agents = new Set(['agent-1'])
    faults.scopeTo(agents)
    expect(faults.decide('issues/get', 'harness').status).to.equal(undefined)
    expect(faults.decide('issues/get').status).to.equal(undefined)
    expect(faults.decide('issues/get', 'agent-1').status).to.equal(502)
    expect(faults.injectedByToken.get('agent-1')).to.equal(1)
    agents.delete('agent-1')
    expect(faults.decide('issues/get', 'agent-1').status).to.equal(undefined)
  })

  it('--inject-faults 0.6 starts (fixtures seed), completes with every row recorded, and no faulted failure is the agent’s', async () => {
    const {readFile} = await import('node:fs/promises')
    const path = await import('node:path')
    const {PROJECT_ROOT} = await import('../support/cli.js')
    const workflow = await readFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', `${TRIAGE}.yml`), 'utf8')
    const dir = await project({
      [`catalogue/scenarios/${TRIAGE}.yml`]: workflow,
      'catalogue/faulty.yml': [
        'name: faulty',
        `scenarios: {ids: [repo-view-001, ${TRIAGE}]}`,
        'modes: [agent_direct]',
        'repetitions: 3',
        'seed: 5',
        '',
      ].join('\n'),
    })
    const result = await runCli(['run', 'catalogue/faulty.yml', '--inject-faults', '0.6', '--run-id', 'faulty'], {
      cwd: dir,
      env: {CI: '1'},
    })
    const rows = rowsOf(dir, 'faulty')
    // No gate: the suite fails (exit 1) when a run did not pass (faults past the retries end it as an infra error).
    const failed = rows.filter((r) => r.outcome !== 'pass').length
    expect(result.code, result.stderr + result.stdout).to.equal(failed > 0 ? 1 : 0)
    expect(result.stdout.trim().split('\n').at(-1)).to.equal(
      failed > 0
        ? `verdict: FAIL (exit 1): no gate: ${failed} of 6 runs failed`
        : 'verdict: PASS (exit 0): no gate: all 6 runs passed',
    )
    expect(rows).to.have.length(6)
    expect(new Set(rows.map(keyOf)).size).to.equal(6)
    for (const row of rows) {
      expect(row.injected_faults, keyOf(row)).to.be.a('number')
      expect(row.attempts.reduce((sum, a) => sum + (a.injected_faults ?? 0), 0)).to.equal(row.injected_faults)
      for (const attempt of row.attempts) {
        // A failed attempt with faults in its traffic is infrastructure, not the agent.
        if ((attempt.injected_faults ?? 0) > 0) expect(attempt.outcome, JSON.stringify(attempt)).to.not.equal('fail')
      }
    }
    expect(rows.reduce((sum, r) => sum + (r.injected_faults ?? 0), 0)).to.be.above(0)
    expect(
      rows.some(
        (r) => r.error?.type === 'injected_faults' || r.attempts.some((a) => a.error?.type === 'injected_faults'),
      ),
    ).to.equal(true)
    // The harness's own work is never faulted: fixtures were seeded and every workflow run was checked.
    expect(rows.some((r) => r.error?.type === 'fixture_error')).to.equal(false)
  })
})
