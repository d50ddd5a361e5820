// `ghx-bench run` on the embedded default (sandbox, oracle), in-process: rows, traces, reports, no secret
// written; faults, timeouts and stalls; an OpenAI-compatible endpoint; its output without a terminal (plain
// lines, JSON lines). Through the bin: kill -9 and Ctrl-C in test/e2e/run.test.ts, a terminal in
// test/e2e/tty.test.ts.
import {existsSync} from 'node:fs'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {keyOf, rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'
import {shellCommandScenario} from '../support/scenarios.js'

describe('ghx-bench run (CLI, sandbox + oracle)', function () {
  this.timeout(120_000)

  it('runs the smoke suite: every run passes, with rows, traces, a report, and no secret anywhere', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const result = await runCliInProcess(
      ['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--run-id', 'smoke'],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr + result.stdout).to.equal(0)
    expect(result.stdout).to.match(/agent_direct {2}6\/6 {2}pass 6 {2}fail 0/)
    const rows = rowsOf(dir)
    expect(rows.map((r) => [r.scenario_id, r.outcome])).to.have.deep.members([
      ['repo-view-001', 'pass'],
      ['issue-view-001', 'pass'],
      ['pr-view-001', 'pass'],
      ['workflow-run-view-001', 'pass'],
      ['release-list-001', 'pass'],
      ['issue-triage-comment-wf-001', 'pass'],
    ])
    for (const row of rows) {
      expect(row).to.include({
        provider: 'agent-loop',
        model: 'ghx-bench/oracle',
        mode: 'agent_direct',
        run_id: 'smoke',
        output_valid: true,
      })
      expect(row.tokens.total).to.be.above(0)
      expect(row.github_api_calls).to.be.above(0)
      // Every request the agent sent is one of GitHub's two rate-limit resources: a REST request or a GraphQL call.
      const api = row.github_api!
      expect(api.source).to.equal('sandbox')
      expect(api.rest_requests! + api.graphql_requests!).to.equal(row.github_api_calls)
      expect(api.graphql_points).to.be.at.least(api.graphql_requests!)
      expect(row.versions.plugins).to.have.property('mode-agent-direct')
      // The project folder is not a git repository: no commit to record.
      expect(row.git).to.equal(null)
      expect(existsSync(path.join(dir, 'results', row.trace!)), row.trace!).to.equal(true)
    }
    const workflow = rows.find((r) => r.scenario_type === 'workflow')!
    expect(workflow.checkpoints.map((c) => c.passed)).to.deep.equal([true, true, true])
    expect(workflow.variables).to.have.property('issue_number')
    const trace = JSON.parse(await readFile(path.join(dir, 'results', workflow.trace!), 'utf8')) as {
      turns: Array<{tool_calls: Array<{args: {command: string}; output: string}>}>
      prompt: string
    }
    expect(trace.prompt).to.include('Triage issue #')
    expect(trace.turns[0]!.tool_calls[0]!.args.command).to.match(/^gh issue view/)
    expect(existsSync(path.join(dir, 'reports', 'smoke', 'summary.md'))).to.equal(true)
    // The sandbox's tokens (saved with its state) appear in no result, trace or report.
    const state = JSON.parse(await readFile(path.join(dir, '.ghx-bench', 'sandbox.json'), 'utf8')) as {
      tokens: Record<string, string>
    }
    const secrets = Object.keys(state.tokens)
    expect(secrets.length).to.be.above(0)
    const files = await Promise.all(
      ['results', 'reports'].map(async (folder) =>
        (await readdir(path.join(dir, folder), {recursive: true})).map((f) => path.join(dir, folder, String(f))),
      ),
    )
    const written = await Promise.all(
      files
        .flat()
        .filter((f) => /\.(jsonl?|md)$/.test(f))
        .map((f) => readFile(f, 'utf8')),
    )
    expect(written.length).to.be.above(8)
    for (const secret of secrets) for (const text of written) expect(text).to.not.include(secret)
  })

  it('--dry-run prints the seeded plan; the same seed gives the same order', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const plan = async () =>
      JSON.parse(
        (
          await runCliInProcess(
            [
              'run',
              path.join(SUITES, 'smoke.yml'),
              '--mode',
              'agent_direct',
              '--repetitions',
              '2',
              '--seed',
              '9',
              '--dry-run',
              '--json',
            ],
            {cwd: dir},
          )
        ).stdout,
      ) as {runs: Array<{key: string}>; seed: number}
    const first = await plan()
    expect(first.runs).to.have.length(12)
    expect(first.seed).to.equal(9)
    expect((await plan()).runs).to.deep.equal(first.runs)
    expect(existsSync(path.join(dir, 'results'))).to.equal(false)
  })

  it('completes under 10% injected faults: infrastructure failures retried and recorded, no row lost', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const result = await runCliInProcess(
      [
        'run',
        path.join(SUITES, 'smoke.yml'),
        '--mode',
        'agent_direct',
        '--repetitions',
        '3',
        '--inject-faults',
        '0.1',
        '--run-id',
        'faults',
      ],
      {cwd: dir, env: {CI: '1'}},
    )
    const rows = rowsOf(dir)
    // A run whose every attempt met a fault is recorded as the infrastructure error it is; the exit code says so.
    const failed = rows.filter((r) => r.outcome !== 'pass')
    expect(result.code, result.stderr).to.equal(failed.length > 0 ? 1 : 0)
    expect(failed.every((r) => r.outcome === 'infra_error' && r.attempts.length === 3)).to.equal(true)
    expect(rows).to.have.length(18)
    expect(new Set(rows.map(keyOf)).size).to.equal(18)
    const retried = rows.filter((r) => r.retries > 0)
    expect(retried.length).to.be.above(0)
    for (const row of retried) {
      expect(row.attempts).to.have.length(row.retries + 1)
      expect(row.attempts.slice(0, -1).every((a) => a.outcome === 'infra_error')).to.equal(true)
    }
  })

  it('a hung tool is aborted at the run’s timeout; the next run is unaffected', async () => {
    const marker = `${Date.now() % 100000}.25`
    const dir = await makeProject({
      '.ghxbenchrc.yml': sandboxConfig('catalogue'),
      'catalogue/hang.yml': [
        'name: hang',
        'scenarios: {ids: [repo-hang-001, repo-view-001]}',
        'modes: [agent_direct]',
        'repetitions: 1',
        'concurrency: 1',
        'seed: 1',
        'timeouts: {stall_ms: 60000}',
        '',
      ].join('\n'),
      'catalogue/scenarios/repo-hang-001.yml': shellCommandScenario(
        'repo-hang-001',
        'A tool that never returns',
        1500,
        `sleep ${marker}`,
      ),
      'catalogue/scenarios/repo-view-001.yml': await readFile(
        path.join(SUITES, 'scenarios', 'repo-view-001.yml'),
        'utf8',
      ),
    })
    const started = Date.now()
    const result = await runCliInProcess(['run', 'catalogue/hang.yml'], {cwd: dir, env: {CI: '1'}})
    // No gate: the timed-out run fails the suite.
    expect(result.code, result.stderr).to.equal(1)
    expect(result.stdout.trim().split('\n').at(-1)).to.equal('verdict: FAIL (exit 1): no gate: 1 of 2 runs failed')
    expect(Date.now() - started).to.be.below(30_000)
    const rows = rowsOf(dir)
    const hung = rows.find((r) => r.scenario_id === 'repo-hang-001')!
    expect(hung.outcome).to.equal('timeout')
    expect(hung.error).to.deep.include({type: 'timeout'})
    expect(hung.retries).to.equal(0)
    expect(rows.find((r) => r.scenario_id === 'repo-view-001')!.outcome).to.equal('pass')
    const {execFileSync} = await import('node:child_process')
    expect(execFileSync('ps', ['-eo', 'args']).toString()).to.not.include(`sleep ${marker}`)
  })

  it('no progress for stall_ms is a stall; the warm-up run is not recorded; --fixture-manifest names the manifest', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': sandboxConfig('catalogue'),
      // The suite's own fixtures settings win over the project's (seed id here).
      'catalogue/stall.yml': [
        'name: stall',
        'scenarios: {ids: [repo-stall-001, repo-view-001]}',
        'modes: [agent_direct]',
        'seed: 3',
        'warmup: true',
        'timeouts: {stall_ms: 1000}',
        'fixtures: {seed_id: from-suite}',
        '',
      ].join('\n'),
      'catalogue/scenarios/repo-stall-001.yml': shellCommandScenario(
        'repo-stall-001',
        'A tool that goes quiet',
        30000,
        'sleep 20',
      ),
      'catalogue/scenarios/repo-view-001.yml': await readFile(
        path.join(SUITES, 'scenarios', 'repo-view-001.yml'),
        'utf8',
      ),
    })
    const result = await runCliInProcess(
      ['run', 'catalogue/stall.yml', '--fixture-manifest', 'elsewhere/manifest.json', '--run-id', 'stall'],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr).to.equal(1)
    expect(result.stdout.trim().split('\n').at(-1)).to.equal('verdict: FAIL (exit 1): no gate: 1 of 2 runs failed')
    const rows = rowsOf(dir)
    expect(rows.map(keyOf).sort()).to.deep.equal(['repo-stall-001/agent_direct/1', 'repo-view-001/agent_direct/1'])
    const stalled = rows.find((r) => r.scenario_id === 'repo-stall-001')!
    expect(stalled.outcome).to.equal('timeout')
    expect(stalled.error?.type).to.equal('stall')
    expect(stalled.latency_ms_wall).to.be.below(10_000)
    expect(existsSync(path.join(dir, 'elsewhere', 'manifest.json'))).to.equal(true)
    expect(rows.every((r) => r.fixture_seed === 'from-suite')).to.equal(true)
    expect(existsSync(path.join(dir, 'fixtures', 'latest.json'))).to.equal(false)
  })

  it('drives any OpenAI-compatible endpoint: endpoint.base_url and the key from the environment, never written down', async () => {
    const {startScriptedModels} = await import('../../src/agent/scripted-models.js')
    // Another server speaking the protocol, standing in for a hosted model: it plays a fixed plan.
    const remote = await startScriptedModels()
    try {
      const {baseUrl} = remote.register({
        model: 'oracle',
        steps: [
          {
            tool: 'shell',
            args: {
              command:
                "gh repo view ghx-bench/sandbox --json name,nameWithOwner,defaultBranchRef --jq '{name, nameWithOwner, defaultBranch: .defaultBranchRef.name}'",
            },
          },
        ],
        final: {kind: 'envelope'},
      })
      const dir = await makeProject({
        '.ghxbenchrc.yml': sandboxConfig(SUITES, `endpoint: {base_url: "${baseUrl}", api_key_env: ACME_KEY}`),
      })
      const result = await runCliInProcess(
        [
          'run',
          path.join(SUITES, 'smoke.yml'),
          '--mode',
          'agent_direct',
          '--scenario',
          'repo-view-001',
          '--model',
          'acme/agent-7',
          '--run-id',
          'remote',
        ],
        {cwd: dir, env: {CI: '1', ACME_KEY: 'sk-acme-secret-key-0123456789abcdef'}},
      )
      expect(result.code, result.stderr).to.equal(0)
      const [row] = rowsOf(dir)
      expect(row).to.deep.include({model: 'acme/agent-7', outcome: 'pass'})
      const trace = await readFile(path.join(dir, 'results', row!.trace!), 'utf8')
      expect(trace).to.not.include('sk-acme-secret-key')
      // Without a key, a remote endpoint is refused before any run, naming the variable.
      const refused = await runCliInProcess(
        ['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--model', 'gpt-4.1'],
        {
          cwd: await makeProject({
            '.ghxbenchrc.yml': sandboxConfig(SUITES, 'endpoint: {base_url: "https://api.example.com/v1"}'),
          }),
          env: {OPENAI_API_KEY: ''},
        },
      )
      expect(refused.code).to.equal(2)
      expect(refused.stderr).to.include('$OPENAI_API_KEY')
    } finally {
      await remote.close()
    }
  })

  it('an unknown mode is bad input: one message at the suite’s file:line:col, exit 2, no stack', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': sandboxConfig('catalogue'),
      'catalogue/bad.yml': 'name: bad\nscenarios: {ids: [repo-view-001]}\nmodes: [agent_direct, gh_turbo]\n',
      'catalogue/scenarios/repo-view-001.yml': await readFile(
        path.join(SUITES, 'scenarios', 'repo-view-001.yml'),
        'utf8',
      ),
    })
    const result = await runCliInProcess(['run', 'catalogue/bad.yml'], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('catalogue/bad.yml:3:')
    expect(result.stderr).to.include('unknown mode "gh_turbo"')
    expect(result.stderr).to.not.match(/\n\s+at /)
  })
})

describe('ghx-bench run output without a terminal', function () {
  this.timeout(120_000)
  let dir: string

  before(async () => {
    dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
  })
  it('plain (CI): a line per finished run and a summary line per mode', async () => {
    const result = await runCliInProcess(
      ['run', path.join(SUITES, 'smoke.yml'), '-m', 'agent_direct', '-r', '1', '--run-id', 'plain'],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr).to.equal(0)
    const runs = result.stdout
      .split('\n')
      .filter((l) =>
        /^agent_direct {2}\S+ #1 {2}(pass|fail|timeout|infra_error) {2}tokens \d+ {2}\d+ ms {2}\(\d\/6\)$/.test(l),
      )
    expect(runs, result.stdout).to.have.length(6)
    expect(result.stdout).to.match(/^run plain: 6 run\(s\) to do \(agent_direct 6\), 0 already recorded, seed 1$/m)
    expect(result.stdout).to.match(/^agent_direct {2}6\/6 {2}pass 6 {2}fail 0 {2}tokens \d+ {2}ETA -$/m)
  })

  it('--json: every stdout line is JSON, the last the summary; an error is a JSON line with the exit code', async () => {
    const result = await runCliInProcess(
      ['run', path.join(SUITES, 'smoke.yml'), '-m', 'agent_direct', '-r', '1', '--run-id', 'json', '--json'],
      {cwd: dir},
    )
    expect(result.code, result.stderr).to.equal(0)
    const lines = result.stdout.split('\n').filter(Boolean)
    const events = lines.map((line) => {
      expect(() => JSON.parse(line), line).to.not.throw()
      return JSON.parse(line) as {type: string}
    })
    expect(events[0]!.type).to.equal('suite_started')
    expect(events.filter((e) => e.type === 'run_finished')).to.have.length(6)
    const summary = events.at(-1) as {type: string; run_id: string; completed: number; files: string[]}
    expect(summary).to.include({type: 'summary', run_id: 'json', completed: 6})
    expect(summary.files.some((f) => f.endsWith('summary.md'))).to.equal(true)

    const bad = await runCliInProcess(['run', path.join(SUITES, 'smoke.yml'), '-m', 'nope', '--json'], {cwd: dir})
    expect(bad.code, bad.stdout + bad.stderr).to.equal(2)
    const badLines = bad.stdout.split('\n').filter(Boolean)
    expect(badLines).to.have.length(1)
    expect(JSON.parse(badLines[0]!)).to.deep.include({type: 'error', ok: false})
    const parse = await runCliInProcess(['run', '--json', '--no-such-flag', path.join(SUITES, 'smoke.yml')], {cwd: dir})
    expect(parse.code, parse.stdout + parse.stderr).to.equal(2)
    expect(JSON.parse(parse.stdout)).to.deep.include({type: 'error', ok: false})
  })
})

// Issue 27, items 2 and 7: a run id names one run. Resuming refuses rows of another suite, model,
// provider, modes or seed (they mixed silently), and a new run id may not be another run's re-graded rows.
describe('ghx-bench run: run ids (CLI)', function () {
  this.timeout(120_000)

  it('refuses to resume a run id with another model, seed or modes (exit 2 naming each), and resumes it with the same ones', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const args = [
      'run',
      path.join(SUITES, 'smoke.yml'),
      '-m',
      'agent_direct',
      '-s',
      'repo-view-001',
      '-r',
      '1',
      '--run-id',
      'one',
      '--no-report',
    ]
    const first = await runCliInProcess(args, {cwd: dir, env: {CI: '1'}})
    expect(first.code, first.stderr).to.equal(0)
    const recorded = rowsOf(dir, 'one')
    expect(recorded.map((r) => r.model)).to.deep.equal(['ghx-bench/oracle'])

    const resume = (...more: string[]) =>
      runCliInProcess([...args.filter((a) => a !== '-r' && a !== '1'), '-r', '2', ...more], {cwd: dir, env: {CI: '1'}})
    const model = await resume('--model', 'noop')
    expect(model.code, model.stdout + model.stderr).to.equal(2)
    expect(model.stderr).to.include(
      `${path.join('results', 'one.jsonl')} error: run id "one" holds 1 row(s) of another run: recorded with model "ghx-bench/oracle" (now "ghx-bench/noop")`,
    )
    expect(model.stderr).to.not.match(/\n\s+at /)
    const seed = await resume('--seed', '7')
    expect(seed.code, seed.stdout + seed.stderr).to.equal(2)
    expect(seed.stderr).to.include('recorded with seed 1 (now 7)')
    const modes = await runCliInProcess(
      [
        'run',
        path.join(SUITES, 'smoke.yml'),
        '-s',
        'repo-view-001',
        '-r',
        '2',
        '--run-id',
        'one',
        '--model',
        'noop',
        '--no-report',
      ],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(modes.code, modes.stdout + modes.stderr).to.equal(2)
    expect(modes.stderr).to.include(
      'recorded with model "ghx-bench/oracle" (now "ghx-bench/noop"); modes agent_direct (now agent_direct, mcp)',
    )
    // Nothing was added to the run's rows.
    expect(rowsOf(dir, 'one')).to.deep.equal(recorded)

    const same = await resume()
    expect(same.code, same.stdout + same.stderr).to.equal(0)
    expect(rowsOf(dir, 'one').map(keyOf)).to.deep.equal([
      'repo-view-001/agent_direct/1',
      'repo-view-001/agent_direct/2',
    ])
  })

  it('refuses a run id that ends in .regraded, the name of another run’s re-graded rows', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    for (const runId of ['one.regraded', 'one.Regraded']) {
      const result = await runCliInProcess(
        [
          'run',
          path.join(SUITES, 'smoke.yml'),
          '-m',
          'agent_direct',
          '-s',
          'repo-view-001',
          '-r',
          '1',
          '--run-id',
          runId,
        ],
        {cwd: dir, env: {CI: '1'}},
      )
      expect(result.code, result.stdout + result.stderr).to.equal(2)
      expect(result.stderr).to.include(
        `--run-id error: run id "${runId}" ends in ".regraded", which names the re-graded rows of run "one"`,
      )
      expect(existsSync(path.join(dir, 'results'))).to.equal(false)
    }
  })
})
