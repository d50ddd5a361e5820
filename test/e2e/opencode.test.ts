// The opencode provider end to end: the real opencode runtime (bash tool, MCP tools) driven by the
// oracle, on the sandbox. opencode is not a dependency (354 MB): `npm test` installs it outside the
// repository first (scripts/ensure-opencode.sh).
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {homedir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {whichOnPath} from '../../src/agent/shell-tool.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT, runCli} from '../support/cli.js'
import {shellCommandScenario} from '../support/scenarios.js'

describe('provider opencode (CLI, sandbox + oracle)', function () {
  this.timeout(240_000)
  let binary: string | undefined

  before(async function () {
    // `npm test` installs it first (scripts/ensure-opencode.sh, in pretest); skipped only where that could not be done.
    const cached = path.join(
      process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
      'ghx-bench',
      'opencode',
      'node_modules',
      '.bin',
      'opencode',
    )
    binary =
      [process.env.OPENCODE_BIN, cached].find((file) => file && existsSync(file)) ?? (await whichOnPath('opencode'))
    if (!binary) {
      console.log('    opencode not installed and not installable here: run scripts/ensure-opencode.sh')
      this.skip()
    }
  })

  it('runs a read and a workflow of the smoke suite under agent_direct and mcp, every run passing, with the arm’s tools only', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': [
        'target: sandbox',
        'model: oracle',
        `provider: {name: opencode, options: {binary: ${binary}}}`,
        `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
        'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: oc, sandbox_repos: [ghx-bench/sandbox]}',
        '',
      ].join('\n'),
    })
    // A read and a workflow that changes GitHub, each under both arms: every opencode session starts its own
    // server (seconds each), so the smoke suite's other scenarios would add time and no new path.
    const result = await runCli(
      [
        'run',
        path.join(PROJECT_ROOT, 'suites', 'smoke.yml'),
        '--run-id',
        'oc',
        '-s',
        'repo-view-001',
        '-s',
        'issue-triage-comment-wf-001',
      ],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr + result.stdout).to.equal(0)
    const rows = (await readFile(path.join(dir, 'results', 'oc.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row)
    expect(rows.map((r) => `${r.scenario_id}/${r.mode}`).sort()).to.deep.equal([
      'issue-triage-comment-wf-001/agent_direct',
      'issue-triage-comment-wf-001/mcp',
      'repo-view-001/agent_direct',
      'repo-view-001/mcp',
    ])
    for (const row of rows) {
      expect(row.outcome, `${row.scenario_id}/${row.mode}: ${row.error?.message}`).to.equal('pass')
      expect(row.provider).to.equal('opencode')
      // Session-level usage: every assistant message of the session, opencode's own system prompt included.
      expect(row.tokens.input).to.be.above(1000)
    }
    const direct = rows.filter((r) => r.mode === 'agent_direct')
    expect(
      direct.every((r) => (r.tool_calls.by_category?.gh_cli ?? 0) >= 1 && !r.tool_calls.by_category?.mcp_tool),
    ).to.equal(true)
    const mcp = rows.filter((r) => r.mode === 'mcp')
    expect(
      mcp.every((r) => (r.tool_calls.by_category?.mcp_tool ?? 0) >= 1 && !r.tool_calls.by_category?.gh_cli),
    ).to.equal(true)
    const trace = JSON.parse(await readFile(path.join(dir, 'results', mcp[0]!.trace!), 'utf8')) as {
      turns: Array<{tool_calls: Array<{tool: string}>}>
    }
    expect(
      trace.turns.flatMap((t) => t.tool_calls.map((c) => c.tool)).every((tool) => tool.startsWith('github_')),
    ).to.equal(true)
  })

  it('aborts the session at the run’s timeout and leaves no server behind', async () => {
    const marker = `${Date.now() % 100000}.75`
    const dir = await makeProject({
      '.ghxbenchrc.yml': `target: sandbox\nmodel: oracle\nprovider: {name: opencode, options: {binary: ${binary}}}\nsuites_dir: catalogue\nfixtures: {seed_id: oct}\n`,
      'catalogue/hang.yml': 'name: hang\nscenarios: {ids: [repo-hang-001]}\nmodes: [agent_direct]\n',
      'catalogue/scenarios/repo-hang-001.yml': shellCommandScenario(
        'repo-hang-001',
        'A tool that never returns',
        8000,
        `sleep ${marker}`,
      ),
    })
    const {execFileSync} = await import('node:child_process')
    const servers = () =>
      execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((line) => line.includes('opencode serve')).length
    const before = servers()
    const result = await runCli(['run', 'catalogue/hang.yml', '--run-id', 'hang', '--no-report'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(result.code, result.stderr).to.equal(0)
    const row = JSON.parse((await readFile(path.join(dir, 'results', 'hang.jsonl'), 'utf8')).trim()) as Row
    expect(row.outcome).to.equal('timeout')
    expect(execFileSync('ps', ['-eo', 'args']).toString()).to.not.include(`sleep ${marker}`)
    expect(servers()).to.equal(before)
  })
})
