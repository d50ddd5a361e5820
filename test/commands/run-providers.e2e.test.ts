// A suite of several providers (issue 28, item 4): every run played under each, each provider's rows
// keyed, resumed, reported and gated apart; --provider picks among them; every provider is asked
// whether it can run before anything starts. In-process, on the sandbox with the oracle.
import {existsSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import type {GateDocument} from '../../src/report/aggregate/report-schema.js'
import type {Report} from '../../src/report/aggregate/summary.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

/** Test providers: `idle` answers at once without a tool call (its runs fail); `absent` cannot run here, and says how to install it. */
const PROVIDERS_PLUGIN = `export default {apiVersion: 1, name: 'test-providers', version: '1.0.0', providers: [
  {name: 'idle', optionsSchema: {type: 'object'}, run: async () => ({turns: [], final_text: 'done', stop_reason: 'final'})},
  {name: 'absent', optionsSchema: {type: 'object'}, available: async () => ({available: false, reason: 'absent-cli not found: npm install -g absent-cli'}), run: async () => { throw new Error('never run') }},
]}
`

const suite = (providers: string, extra = '') =>
  `# yaml-language-server: $schema=schemas/suite.schema.json\nname: two-providers\nscenarios: {ids: [repo-view-001]}\nmodes: [agent_direct, mcp]\n${providers}\nrepetitions: 2\n# A failed run's checkpoints are not polled for long.\ntimeouts: {checkpoint_ms: 200}\n${extra}`

async function project(providers = 'providers: [agent-loop, idle]', extra = ''): Promise<string> {
  return makeProject({
    '.ghxbenchrc.yml': sandboxConfig(SUITES, 'plugins: [./test-providers.js]'),
    'test-providers.js': PROVIDERS_PLUGIN,
    'two.yml': suite(providers, extra),
  })
}

const run = (dir: string, ...args: string[]) => runCliInProcess(['run', 'two.yml', ...args], {cwd: dir, env: {CI: '1'}})

describe('ghx-bench run with several providers (CLI, sandbox + oracle)', function () {
  this.timeout(180_000)

  it('plays every run under each provider, reports each apart, gates each, and resumes each provider’s runs apart', async () => {
    const dir = await project(
      'providers: [agent-loop, idle]',
      'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}\n',
    )
    const first = await run(dir, '--run-id', 'both')
    // idle's runs all fail: its gate fails, and so the run's.
    expect(first.code, first.stderr + first.stdout).to.equal(1)
    const rows = rowsOf(dir, 'both')
    expect(rows).to.have.length(8)
    const outcomes = (provider: string) => rows.filter((r) => r.provider === provider).map((r) => r.outcome)
    expect(outcomes('agent-loop'))
      .to.have.length(4)
      .and.to.satisfy((o: string[]) => o.every((x) => x === 'pass'))
    expect(outcomes('idle'))
      .to.have.length(4)
      .and.to.satisfy((o: string[]) => o.every((x) => x === 'fail'))
    // Each run its own trace: the same scenario, mode and iteration under two providers.
    expect(new Set(rows.map((r) => r.trace)).size).to.equal(8)
    expect(first.stdout).to.match(/agent-loop agent_direct: pass 2, fail 0/)
    expect(first.stdout).to.match(/idle mcp: pass 0, fail 2/)

    const report = JSON.parse(await readFile(path.join(dir, 'reports', 'both', 'summary.json'), 'utf8')) as Report
    expect(
      report.providers!.map((p) => [p.provider, p.modes.agent_direct!.success_rate, p.modes.mcp!.success_rate]),
    ).to.deep.equal([
      ['agent-loop', 100, 100],
      ['idle', 0, 0],
    ])
    const gate = JSON.parse(await readFile(path.join(dir, 'reports', 'both', 'gate.json'), 'utf8')) as GateDocument
    expect(gate.providers!.map((g) => [g.provider, g.rows])).to.deep.equal([
      ['agent-loop', 4],
      ['idle', 4],
    ])
    expect(gate.providers!.find((g) => g.provider === 'idle')!.verdict).to.equal('fail')
    // The verdict is the worst of theirs, and the top level is that provider's gate.
    expect(gate.verdict).to.equal('fail')
    expect(gate.provider).to.equal(gate.providers!.find((g) => g.verdict === 'fail')!.provider)
    // A page each: no chart or table of the HTML report mixes the providers' rows.
    for (const provider of ['agent-loop', 'idle']) {
      const html = await readFile(path.join(dir, 'reports', 'both', `summary-${provider}.html`), 'utf8')
      expect(html).to.include(`<h1>ghx-bench report, provider ${provider}`)
    }
    expect(existsSync(path.join(dir, 'reports', 'both', 'summary.html'))).to.equal(false)

    // Resume: idle's rows taken out (a crash before they were written), the same run id runs exactly those again.
    const file = path.join(dir, 'results', 'both.jsonl')
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean)
    await writeFile(
      file,
      lines.filter((line) => (JSON.parse(line) as {provider: string}).provider !== 'idle').join('\n') + '\n',
    )
    const resumed = await run(dir, '--run-id', 'both', '--json')
    expect(resumed.code, resumed.stderr).to.equal(1)
    const summary = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as {
      completed: number
      skipped: string[]
      runs: Array<{provider: string}>
    }
    expect(summary.completed).to.equal(4)
    expect(summary.skipped).to.have.length(4)
    expect(summary.runs.every((r) => r.provider === 'idle')).to.equal(true)
    expect(rowsOf(dir, 'both')).to.have.length(8)
    // Resuming with another set of providers would mix two runs: refused.
    const other = await run(dir, '--run-id', 'both', '--provider', 'agent-loop')
    expect(other.code).to.equal(2)
    expect(other.stderr).to.include('recorded with providers "agent-loop", "idle" (now "agent-loop")')
  })

  it('--provider picks among the suite’s providers (repeatable or comma-separated) or replaces them; an unknown one is exit 2 naming it', async () => {
    const dir = await project()
    const plan = async (...args: string[]) => {
      const result = await run(dir, '--dry-run', '--json', ...args)
      expect(result.code, result.stderr).to.equal(0)
      return JSON.parse(result.stdout) as {providers: string[]; runs: Array<{key: string; provider: string}>}
    }
    const both = await plan()
    expect(both.providers).to.deep.equal(['agent-loop', 'idle'])
    expect(both.runs).to.have.length(8)
    expect(both.runs.map((r) => r.key)).to.include.members([
      'repo-view-001/agent_direct/agent-loop/1',
      'repo-view-001/agent_direct/idle/1',
    ])
    expect((await plan('--provider', 'idle')).runs.map((r) => r.provider)).to.deep.equal(Array(4).fill('idle'))
    expect((await plan('--provider', 'idle,agent-loop')).providers).to.deep.equal(['idle', 'agent-loop'])
    expect((await plan('--provider', 'idle', '--provider', 'agent-loop')).runs).to.have.length(8)
    // A suite with one provider: --provider replaces it.
    const single = await project('provider: agent-loop')
    const replaced = await runCliInProcess(['run', 'two.yml', '--dry-run', '--json', '--provider', 'idle'], {
      cwd: single,
    })
    expect((JSON.parse(replaced.stdout) as {providers: string[]}).providers).to.deep.equal(['idle'])

    // --until-decided stops by one gate's checks: it decides one provider at a time.
    const gated = await project(
      'providers: [agent-loop, idle]',
      'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}\n',
    )
    const sequential = await run(gated, '--until-decided', '--dry-run')
    expect(sequential.code).to.equal(2)
    expect(sequential.stderr).to.include(
      "--provider error: --until-decided decides one provider's gate, and the run has 2: choose one with --provider",
    )
    expect((await run(gated, '--until-decided', '--dry-run', '--provider', 'idle')).code).to.equal(0)

    const unknown = await run(dir, '--dry-run', '--provider', 'agent-loop,nope')
    expect(unknown.code).to.equal(2)
    expect(unknown.stderr).to.match(
      /two\.yml error: --provider: unknown provider "nope" \(providers: .*agent-loop.*idle/,
    )
  })

  it('asks every provider before anything runs: one that cannot run here is exit 2 with its install hint', async () => {
    const dir = await project('providers: [agent-loop, absent]')
    const result = await run(dir, '--run-id', 'absent')
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'provider "absent" cannot run here: absent-cli not found: npm install -g absent-cli',
    )
    expect(result.stdout).to.not.include('recorded')
  })

  it('refuses provider beside providers, a provider listed twice and an unknown one, each at its file:line:col', async () => {
    const both = await project('provider: agent-loop\nproviders: [agent-loop, idle]')
    const together = await runCliInProcess(['validate', 'two.yml'], {cwd: both})
    expect(together.code).to.equal(2)
    expect(together.stderr).to.include(
      'two.yml:5:11 error: provider is not allowed beside providers: name one provider, or list them all under providers',
    )
    const twice = await project(
      'providers: [agent-loop, {name: idle}, {name: agent-loop, options: {stream: true}}, nope]',
    )
    const listed = await runCliInProcess(['validate', 'two.yml'], {cwd: twice})
    expect(listed.code).to.equal(2)
    expect(listed.stderr).to.include(
      'two.yml:5:39 error: provider "agent-loop" is listed twice (rows tell providers apart by name)',
    )
    expect(listed.stderr).to.match(/two\.yml:5:84 error: unknown provider "nope"/)
    const options = await project('providers: [{name: agent-loop, options: {streaming: true}}]')
    const bad = await runCliInProcess(['validate', 'two.yml'], {cwd: options})
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.match(/two\.yml:5:\d+ error: provider agent-loop options: unknown key "streaming"/)
  })
})
