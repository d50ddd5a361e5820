// run --until-decided against the embedded sandbox with the scripted models, in process: looks add
// repetitions to one run id, the gate is judged at each look's confidence, and the run stops when
// the gate is decided, at the last look, or before a look that would overrun the budget.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {runUntilDecided} from '../../src/app/run-until-decided.js'
import {lookConfidences} from '../../src/report/gate/sequential.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'

const SCENARIOS = ['issue-view-001', 'pr-view-001']
const rowsOf = async (dir: string, runId: string) =>
  (await readFile(path.join(dir, 'results', `${runId}.jsonl`), 'utf8'))
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          iteration: number
          latency_ms_harness: number
          latency_ms_agent: number
          latency_ms_wall: number
        },
    )

describe('run --until-decided', function () {
  this.timeout(120_000)
  let dir: string

  before(async () => {
    const scenarios = Object.fromEntries(
      await Promise.all(
        SCENARIOS.map(async (id) => [
          `catalogue/scenarios/${id}.yml`,
          await readFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', `${id}.yml`), 'utf8'),
        ]),
      ),
    )
    dir = await makeProject({
      '.ghxbenchrc.yml': 'target: sandbox\nmodel: oracle\nsuites_dir: catalogue\nfixtures: {seed_id: until-decided}\n',
      'catalogue/decide.yml': `name: decide\nscenarios: {ids: [${SCENARIOS.join(', ')}]}\nmodes: [agent_direct, mcp]\ngate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}\n`,
      // Every rate passes whatever happens; only coverage can hold a run open (noop's runs all fail, so none is comparable).
      'catalogue/wait.yml': `name: wait\nscenarios: {ids: [${SCENARIOS.join(', ')}]}\nmodes: [agent_direct, mcp]\ngate: {profile: lenient, baseline: agent_direct, candidate: mcp}\n`,
      'catalogue/profiles/lenient.yml': [
        'name: lenient',
        'decision: ci',
        'min_samples: 3',
        'thresholds:',
        '  {max_success_rate_drop_pct: 100, min_output_validity_rate_pct: 0, max_runner_failure_rate_pct: 100, max_timeout_stall_rate_pct: 100, max_retry_rate_pct: 100,',
        '   min_efficiency_coverage_pct: 50, min_tokens_active_reduction_pct: 0, min_latency_reduction_pct: 0, min_tool_call_reduction_pct: 0, min_cost_reduction_pct: 0}',
        '',
      ].join('\n'),
      ...scenarios,
    })
  })

  it('stops at the first look once a check fails decisively (the oracle’s mcp arm sends ten times the tokens)', async () => {
    const {summary, judgement} = await runUntilDecided({
      cwd: dir,
      suitePath: 'catalogue/decide.yml',
      runId: 'decided',
      untilDecided: {looks: '3,6'},
    })
    expect(summary.completed).to.equal(12) // 3 repetitions x 2 scenarios x 2 modes
    const gate = judgement!.gate!
    expect(gate.verdict).to.equal('fail')
    expect(judgement!.verdict.exit_code).to.equal(1)
    expect(gate.sequential).to.deep.include({look: 1, looks: [3, 6], repetitions: 3, spending: 'power', alpha: 0.05})
    expect(gate.sequential!.stopped).to.match(/^decided: .*efficiency_tokens_active_reduction.* failed$/)
    expect(gate.confidence).to.be.closeTo(lookConfidences({looks: [3, 6], alpha: 0.05, spending: 'power'})[0]!, 1e-12)
    expect(gate.checks.find((c) => c.name === 'efficiency_tokens_active_reduction')!.verdict).to.equal('fail')
    expect(await readFile(path.join(dir, 'reports', 'decided', 'gate.md'), 'utf8')).to.include(
      'Judged at look 1 of 2 (3 repetitions per cell; looks 3, 6)',
    )
    // Every row keeps the agent's time and the harness's own, which add up to the wall time.
    for (const row of await rowsOf(dir, 'decided'))
      expect(row.latency_ms_agent + row.latency_ms_harness).to.be.closeTo(row.latency_ms_wall, 1e-6)
  })

  it('goes on to the next look in the same run while the gate is undecided, and stops at the last', async () => {
    // noop answers nothing: every run fails, coverage falls short, and only more looks could change that.
    const {summary, judgement} = await runUntilDecided({
      cwd: dir,
      suitePath: 'catalogue/wait.yml',
      runId: 'undecided',
      overrides: {model: 'noop'},
      untilDecided: {looks: '3,4'},
    })
    expect(summary.completed).to.equal(16)
    expect((await rowsOf(dir, 'undecided')).map((r) => r.iteration).sort()).to.deep.equal([
      1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
    ])
    const gate = judgement!.gate!
    expect(gate.sequential!.look).to.equal(2)
    expect(gate.sequential!.history!.map((h) => [h.look, h.repetitions, h.runs])).to.deep.equal([
      [1, 3, 12],
      [2, 4, 16],
    ])
    // At the last look coverage is decided: 0 of 2 scenarios comparable.
    expect(gate.sequential!.stopped).to.equal('decided: efficiency_coverage failed')
    expect(gate.verdict).to.equal('fail')
  })

  it('stops before a look that would overrun the budget, and refuses --repetitions beside the looks', async () => {
    const {summary, judgement} = await runUntilDecided({
      cwd: dir,
      suitePath: 'catalogue/wait.yml',
      runId: 'budget',
      overrides: {model: 'noop'},
      untilDecided: {looks: '3,6'},
      budget: ['runs=20'],
    })
    expect(summary.completed).to.equal(12)
    expect(judgement!.gate!.sequential!.stopped).to.equal(
      'budget: the next look needs 12 runs, which would bring the total to 24 (budget 20)',
    )
    let error: unknown
    await runUntilDecided({cwd: dir, suitePath: 'catalogue/decide.yml', repetitions: 5, untilDecided: {}}).catch(
      (e: unknown) => (error = e),
    )
    expect((error as {name: string; diagnostics: Array<{file: string}>}).diagnostics[0]!.file).to.equal('--repetitions')
    await runUntilDecided({cwd: dir, suitePath: 'catalogue/decide.yml', untilDecided: {looks: '6,3'}}).catch(
      (e: unknown) => (error = e),
    )
    expect((error as {diagnostics: Array<{message: string}>}).diagnostics[0]!.message).to.equal(
      'looks must be ascending positive repetitions, got "6,3"',
    )
  })
})
