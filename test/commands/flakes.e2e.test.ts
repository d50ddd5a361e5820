import {expect} from 'chai'
import {mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {config, suite} from '../support/reliability.js'
import {shellCommandScenario} from '../support/scenarios.js'
import {makeRow} from '../support/rows.js'

describe('ghx-bench flakes', () => {
  it('over 5 runs of a suite with one flaky scenario names it, and only it, for quarantine', async function () {
    this.timeout(180_000)
    const counter = path.join(mkdtempSync(path.join(tmpdir(), 'ghx-bench-flaky-')), 'calls')
    // Passes on every other call: the answer names the repository only when the counter is even.
    const flaky = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; if [ $((n % 2)) -eq 0 ]; then echo sandbox; else echo nothing; fi`
    const project = await makeProject({
      '.ghxbenchrc.yml': config(),
      'catalogue/scenarios/repo-view-001.yml': readFileSync(
        path.join(PROJECT_ROOT, 'suites', 'scenarios', 'repo-view-001.yml'),
        'utf8',
      ),
      'catalogue/scenarios/repo-flaky-001.yml': shellCommandScenario('repo-flaky-001', 'Flaky', 20_000, flaky),
      'catalogue/two.yml': suite('two', ['repo-view-001', 'repo-flaky-001']),
    })
    for (let run = 1; run <= 5; run++) {
      const result = await runCliInProcess(['run', 'catalogue/two.yml', '--run-id', `run-${run}`, '--no-report'], {
        cwd: project,
        env: {CI: '1'},
      })
      expect(result.code, result.stderr).to.equal(0)
    }
    const ledger = await runCliInProcess(['flakes', '--json'], {cwd: project})
    expect(ledger.code, ledger.stderr).to.equal(0)
    const {entries, runs} = JSON.parse(ledger.stdout) as {
      runs: string[]
      entries: Array<{scenario_id: string; proposed_quarantine: boolean; flip_rate: number; passes: number}>
    }
    expect(runs).to.have.length(5)
    expect(entries.filter((e) => e.proposed_quarantine).map((e) => e.scenario_id)).to.deep.equal(['repo-flaky-001'])
    expect(entries.find((e) => e.scenario_id === 'repo-flaky-001')).to.include({flip_rate: 1, passes: 3})
    expect(entries.find((e) => e.scenario_id === 'repo-view-001')).to.include({flip_rate: 0, passes: 5})
    const text = await runCliInProcess(['flakes'], {cwd: project})
    expect(text.stdout).to.match(/QUARANTINE\? repo-flaky-001 agent_direct/)
    expect(text.stdout).not.to.match(/repo-view-001/)

    // Quarantined: the ledger says so, and the report names it beside its figures, which still count it.
    writeFileSync(
      path.join(project, 'quarantine.yml'),
      'quarantine:\n  - {scenario: repo-flaky-001, reason: "alternates by design", expires: 2999-12-31}\n',
    )
    const marked = await runCliInProcess(['flakes'], {cwd: project})
    expect(marked.stdout).to.match(/QUARANTINED until 2999-12-31 repo-flaky-001/)
    const report = await runCliInProcess(['report', '--run-id', 'run-5', '--format', 'md,json'], {cwd: project})
    expect(report.code, report.stderr).to.equal(0)
    const summary = readFileSync(path.join(project, 'reports', 'run-5', 'summary.md'), 'utf8')
    expect(summary).to.match(/## Quarantined[\s\S]*repo-flaky-001 until 2999-12-31: alternates by design/)
    const json = JSON.parse(readFileSync(path.join(project, 'reports', 'run-5', 'summary.json'), 'utf8')) as {
      quarantine: unknown[]
      modes: {agent_direct: {runs: number}}
    }
    expect(json.quarantine).to.deep.equal([
      {scenario: 'repo-flaky-001', reason: 'alternates by design', expires: '2999-12-31', expired: false},
    ])
    expect(json.modes.agent_direct.runs).to.equal(2)
  })

  it('reads together the runs of the newest run’s comparability key, and names each run it left out and why', async () => {
    const project = await makeProject({'.ghxbenchrc.yml': config()})
    const key = {
      ghx_bench: '0.1.0',
      catalogue_sha256: 'c0ffee',
      suite: 'smoke',
      scenarios: ['issue-view-001'],
      repetitions: 2,
      modes: {agent_direct: {tools: {}, options_sha256: 'x'}},
      providers: ['agent-loop'],
      plugins: {},
      model: 'openai/gpt-5.3-codex',
      target: 'sandbox',
      profile: null,
      seed: 1,
    }
    // Oldest first: a run before keys, then two of one key (one failing), one of another model, the newest of the first key.
    const runs: Array<[string, Partial<typeof key> | null]> = [
      ['run-1', null],
      ['run-2', {}],
      ['run-3', {model: 'openai/gpt-6'}],
      ['run-4', {}],
    ]
    mkdirSync(path.join(project, 'results'), {recursive: true})
    runs.forEach(([runId, changes], i) => {
      const started = `2026-11-2${i + 1}T00:00:00.000Z`
      const rows = [1, 2].map((iteration) =>
        JSON.stringify(
          makeRow({run_id: runId, iteration, started_at: started, success: !(runId === 'run-2' && iteration === 2)}),
        ),
      )
      writeFileSync(path.join(project, 'results', `${runId}.jsonl`), rows.join('\n') + '\n')
      utimesSync(path.join(project, 'results', `${runId}.jsonl`), new Date(started), new Date(started))
      if (changes === null) return
      mkdirSync(path.join(project, 'results', runId))
      writeFileSync(
        path.join(project, 'results', runId, 'run.json'),
        JSON.stringify({
          run_id: runId,
          suite: 'smoke',
          seed: 1,
          modes: ['agent_direct'],
          unavailable: [],
          not_applicable: [],
          key: {...key, ...changes},
        }),
      )
    })
    const ledger = await runCliInProcess(['flakes', '--json'], {cwd: project})
    expect(ledger.code, ledger.stderr).to.equal(0)
    const result = JSON.parse(ledger.stdout) as {
      runs: string[]
      left_out: Array<{run_id: string; reason: string}>
      entries: Array<{runs: number; passes: number}>
    }
    expect([...result.runs].sort()).to.deep.equal(['run-2', 'run-4'])
    expect(result.entries[0]).to.include({runs: 2, passes: 3})
    expect([...result.left_out].sort((a, b) => a.run_id.localeCompare(b.run_id))).to.deep.equal([
      {run_id: 'run-1', reason: 'no comparability key (run.json before keys, or imported rows)'},
      {run_id: 'run-3', reason: 'another comparability key: model differ'},
    ])
    const text = await runCliInProcess(['flakes'], {cwd: project})
    expect(text.stdout).to.include('  left out: run run-3: another comparability key: model differ')
  })

  it('refuses a flip threshold outside 0..1, naming the flag (exit 2)', async () => {
    const result = await runCliInProcess(['flakes', '--flip-threshold', '2'])
    expect(result.code).to.equal(2)
    expect(result.stderr).to.match(/--flip-threshold/)
  })
})
