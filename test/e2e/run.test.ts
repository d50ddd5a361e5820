// `ghx-bench run` end to end, as a user runs it: a child process on the embedded default (sandbox, oracle).
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync} from 'node:fs'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {isRow} from '../../src/results/store.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT, runCli} from '../support/cli.js'
import {shellCommandScenario} from '../support/scenarios.js'

const SUITES = path.join(PROJECT_ROOT, 'suites')

function config(suitesDir = SUITES, extra = ''): string {
  return [
    'target: sandbox',
    'model: oracle',
    `suites_dir: ${suitesDir}`,
    'results_dir: results',
    'reports_dir: reports',
    'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: e2e, sandbox_repos: [ghx-bench/sandbox]}',
    extra,
  ].join('\n')
}

async function rowsOf(dir: string): Promise<Row[]> {
  const results = path.join(dir, 'results')
  const files = (await readdir(results)).filter((f) => f.endsWith('.jsonl'))
  const rows: Row[] = []
  for (const file of files) {
    for (const line of (await readFile(path.join(results, file), 'utf8')).split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as unknown
      expect(isRow(row), line.slice(0, 200)).to.equal(true)
      rows.push(row as Row)
    }
  }
  return rows
}

const keyOf = (row: Row) => `${row.scenario_id}/${row.mode}/${row.iteration}`

/** Starts `run --json` and resolves each JSON event line as it comes. */
function startRun(args: string[], cwd: string): {child: ChildProcess; events: Array<{type: string}>; waitFor(test: (events: Array<{type: string}>) => boolean): Promise<void>; done: Promise<number>} {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'dev.js'), 'run', ...args, '--json'], {cwd, env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  const events: Array<{type: string}> = []
  const waiters: Array<{test: (e: typeof events) => boolean; resolve: () => void}> = []
  let buffer = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    let end: number
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 1)
      if (line.startsWith('{"type"')) events.push(JSON.parse(line) as {type: string})
      for (const waiter of waiters.filter((w) => w.test(events))) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  const done = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + 9 : -1))))
  return {child, events, done, waitFor: (test) => new Promise((resolve) => (test(events) ? resolve() : waiters.push({test, resolve})))}
}

const finished = (n: number) => (events: Array<{type: string}>) => events.filter((e) => e.type === 'run_finished').length >= n

describe('ghx-bench run (CLI, sandbox + oracle)', function () {
  this.timeout(120_000)

  it('runs the smoke suite: every run passes, with rows, traces, a report, and no secret anywhere', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config()})
    const result = await runCli(['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--run-id', 'smoke'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr + result.stdout).to.equal(0)
    expect(result.stdout).to.match(/agent_direct {2}6\/6 {2}pass 6 {2}fail 0/)
    const rows = await rowsOf(dir)
    expect(rows.map((r) => [r.scenario_id, r.outcome])).to.have.deep.members([
      ['repo-view-001', 'pass'], ['issue-view-001', 'pass'], ['pr-view-001', 'pass'], ['workflow-run-view-001', 'pass'], ['release-list-001', 'pass'], ['issue-triage-comment-wf-001', 'pass'],
    ])
    for (const row of rows) {
      expect(row).to.include({provider: 'agent-loop', model: 'ghx-bench/oracle', mode: 'agent_direct', run_id: 'smoke', output_valid: true})
      expect(row.tokens.total).to.be.above(0)
      expect(row.github_api_calls).to.be.above(0)
      expect(row.versions.plugins).to.have.property('mode-agent-direct')
      // The project folder is not a git repository: no commit to record.
      expect(row.git).to.equal(null)
      expect(existsSync(path.join(dir, 'results', row.trace!)), row.trace!).to.equal(true)
    }
    const workflow = rows.find((r) => r.scenario_type === 'workflow')!
    expect(workflow.checkpoints.map((c) => c.passed)).to.deep.equal([true, true, true])
    expect(workflow.variables).to.have.property('issue_number')
    const trace = JSON.parse(await readFile(path.join(dir, 'results', workflow.trace!), 'utf8')) as {turns: Array<{tool_calls: Array<{args: {command: string}; output: string}>}>; prompt: string}
    expect(trace.prompt).to.include('Triage issue #')
    expect(trace.turns[0]!.tool_calls[0]!.args.command).to.match(/^gh issue view/)
    expect(existsSync(path.join(dir, 'reports', 'smoke', 'summary.md'))).to.equal(true)
    // The sandbox's tokens (saved with its state) appear in no result, trace or report.
    const state = JSON.parse(await readFile(path.join(dir, '.ghx-bench', 'sandbox.json'), 'utf8')) as {tokens: Record<string, string>}
    const secrets = Object.keys(state.tokens)
    expect(secrets.length).to.be.above(0)
    const files = await Promise.all(['results', 'reports'].map(async (folder) => (await readdir(path.join(dir, folder), {recursive: true})).map((f) => path.join(dir, folder, String(f)))))
    const written = await Promise.all(files.flat().filter((f) => /\.(jsonl?|md)$/.test(f)).map((f) => readFile(f, 'utf8')))
    expect(written.length).to.be.above(8)
    for (const secret of secrets) for (const text of written) expect(text).to.not.include(secret)
  })

  it('--dry-run prints the seeded plan; the same seed gives the same order', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config()})
    const plan = async () => JSON.parse((await runCli(['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--repetitions', '2', '--seed', '9', '--dry-run', '--json'], {cwd: dir})).stdout) as {runs: Array<{key: string}>; seed: number}
    const first = await plan()
    expect(first.runs).to.have.length(12)
    expect(first.seed).to.equal(9)
    expect((await plan()).runs).to.deep.equal(first.runs)
    expect(existsSync(path.join(dir, 'results'))).to.equal(false)
  })

  it('resumes after kill -9: no completed row lost, none duplicated', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config()})
    const args = [path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--repetitions', '2', '--run-id', 'crash']
    const first = startRun(args, dir)
    await first.waitFor(finished(4))
    first.child.kill('SIGKILL')
    await first.done
    const before = await rowsOf(dir)
    expect(before.length).to.be.within(4, 11)
    const second = await runCli(['run', ...args], {cwd: dir, env: {CI: '1'}})
    expect(second.code, second.stderr).to.equal(0)
    const after = await rowsOf(dir)
    expect(after).to.have.length(12)
    expect(new Set(after.map(keyOf)).size).to.equal(12)
    // The rows recorded before the crash are kept as they were.
    expect(after.slice(0, before.length)).to.deep.equal(before)
    expect(after.every((r) => r.outcome === 'pass')).to.equal(true)
  })

  it('completes under 10% injected faults: infrastructure failures retried and recorded, no row lost', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config()})
    const result = await runCli(['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--repetitions', '3', '--inject-faults', '0.1', '--run-id', 'faults'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr).to.equal(0)
    const rows = await rowsOf(dir)
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
      '.ghxbenchrc.yml': config('catalogue'),
      'catalogue/hang.yml': ['name: hang', 'scenarios: {ids: [repo-hang-001, repo-view-001]}', 'modes: [agent_direct]', 'repetitions: 1', 'concurrency: 1', 'seed: 1', 'timeouts: {stall_ms: 60000}', ''].join('\n'),
      'catalogue/scenarios/repo-hang-001.yml': shellCommandScenario('repo-hang-001', 'A tool that never returns', 1500, `sleep ${marker}`),
      'catalogue/scenarios/repo-view-001.yml': await readFile(path.join(SUITES, 'scenarios', 'repo-view-001.yml'), 'utf8'),
    })
    const started = Date.now()
    const result = await runCli(['run', 'catalogue/hang.yml'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr).to.equal(0)
    expect(Date.now() - started).to.be.below(30_000)
    const rows = await rowsOf(dir)
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
      '.ghxbenchrc.yml': config('catalogue'),
      // The suite's own fixtures settings win over the project's (seed id here).
      'catalogue/stall.yml': ['name: stall', 'scenarios: {ids: [repo-stall-001, repo-view-001]}', 'modes: [agent_direct]', 'seed: 3', 'warmup: true', 'timeouts: {stall_ms: 1000}', 'fixtures: {seed_id: from-suite}', ''].join('\n'),
      'catalogue/scenarios/repo-stall-001.yml': shellCommandScenario('repo-stall-001', 'A tool that goes quiet', 30000, 'sleep 20'),
      'catalogue/scenarios/repo-view-001.yml': await readFile(path.join(SUITES, 'scenarios', 'repo-view-001.yml'), 'utf8'),
    })
    const result = await runCli(['run', 'catalogue/stall.yml', '--fixture-manifest', 'elsewhere/manifest.json', '--run-id', 'stall'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr).to.equal(0)
    const rows = await rowsOf(dir)
    expect(rows.map(keyOf).sort()).to.deep.equal(['repo-stall-001/agent_direct/1', 'repo-view-001/agent_direct/1'])
    const stalled = rows.find((r) => r.scenario_id === 'repo-stall-001')!
    expect(stalled.outcome).to.equal('timeout')
    expect(stalled.error?.type).to.equal('stall')
    expect(stalled.latency_ms_wall).to.be.below(10_000)
    expect(existsSync(path.join(dir, 'elsewhere', 'manifest.json'))).to.equal(true)
    expect(rows.every((r) => r.fixture_seed === 'from-suite')).to.equal(true)
    expect(existsSync(path.join(dir, 'fixtures', 'latest.json'))).to.equal(false)
  })

  it('Ctrl-C stops cleanly: in-flight runs aborted, rows intact, fixtures reset, and how to resume', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config()})
    const run = startRun([path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--repetitions', '3', '--run-id', 'stopped'], dir)
    let stderr = ''
    run.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    await run.waitFor(finished(2))
    run.child.kill('SIGINT')
    expect(await run.done).to.equal(130)
    expect(stderr).to.include('ghx-bench run')
    expect(stderr).to.include('--run-id stopped')
    const rows = await rowsOf(dir)
    expect(rows.length).to.be.within(2, 17)
    expect(new Set(rows.map(keyOf)).size).to.equal(rows.length)
    const status = await runCli(['fixtures', 'status', '--json'], {cwd: dir})
    expect(status.code, status.stdout + status.stderr).to.equal(0)
    const report = JSON.parse(status.stdout) as {kinds: Array<{kind: string; problems: string[]}>}
    for (const kind of report.kinds) expect(kind.problems, kind.kind).to.deep.equal([])
  })

  it('drives any OpenAI-compatible endpoint: endpoint.base_url and the key from the environment, never written down', async () => {
    const {startScriptedModels} = await import('../../src/agent/scripted-models.js')
    // Another server speaking the protocol, standing in for a hosted model: it plays a fixed plan.
    const remote = await startScriptedModels()
    try {
      const {baseUrl} = remote.register({model: 'oracle', steps: [{tool: 'shell', args: {command: 'gh repo view ghx-bench/sandbox --json name,nameWithOwner,defaultBranchRef --jq \'{name, nameWithOwner, defaultBranch: .defaultBranchRef.name}\''}}], final: {kind: 'envelope'}})
      const dir = await makeProject({'.ghxbenchrc.yml': config(SUITES, `endpoint: {base_url: "${baseUrl}", api_key_env: ACME_KEY}`)})
      const result = await runCli(['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--scenario', 'repo-view-001', '--model', 'acme/agent-7', '--run-id', 'remote'], {cwd: dir, env: {CI: '1', ACME_KEY: 'sk-acme-secret-key-0123456789abcdef'}})
      expect(result.code, result.stderr).to.equal(0)
      const [row] = await rowsOf(dir)
      expect(row).to.deep.include({model: 'acme/agent-7', outcome: 'pass'})
      const trace = await readFile(path.join(dir, 'results', row!.trace!), 'utf8')
      expect(trace).to.not.include('sk-acme-secret-key')
      // Without a key, a remote endpoint is refused before any run, naming the variable.
      const refused = await runCli(['run', path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--model', 'gpt-4.1'], {cwd: await makeProject({'.ghxbenchrc.yml': config(SUITES, 'endpoint: {base_url: "https://api.example.com/v1"}')}), env: {OPENAI_API_KEY: ''}})
      expect(refused.code).to.equal(2)
      expect(refused.stderr).to.include('$OPENAI_API_KEY')
    } finally {
      await remote.close()
    }
  })

  it('an unknown mode is bad input: one message at the suite’s file:line:col, exit 2, no stack', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': config('catalogue'),
      'catalogue/bad.yml': 'name: bad\nscenarios: {ids: [repo-view-001]}\nmodes: [agent_direct, gh_turbo]\n',
      'catalogue/scenarios/repo-view-001.yml': await readFile(path.join(SUITES, 'scenarios', 'repo-view-001.yml'), 'utf8'),
    })
    const result = await runCli(['run', 'catalogue/bad.yml'], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('catalogue/bad.yml:3:')
    expect(result.stderr).to.include('unknown mode "gh_turbo"')
    expect(result.stderr).to.not.match(/\n\s+at /)
  })
})
