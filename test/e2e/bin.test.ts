// The bin (bin/dev.js, a child process) for the command families no other test of test/e2e starts: the
// wiring from a shell to a command and back to an exit code. What the commands do is tested in-process
// in test/commands/; init, validate, run and fixtures through the bin in test/e2e/init.test.ts and
// test/e2e/run.test.ts, sandbox serve in test/e2e/sandbox-serve.test.ts.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {makeRow} from '../support/rows.js'
import {makeProject, PROJECT_ROOT, runCli} from '../support/cli.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'

const ROUTER = sharedPath('datasets', 'ghx-router-codex-5.3')

describe('ghx-bench (bin)', function () {
  this.timeout(60_000)

  it('--help lists the commands', async () => {
    const result = await runCli(['--help'])
    expect(result.code).to.equal(0)
    expect(result.stdout).to.include('validate')
    expect(result.stdout).to.include('init')
  })

  it('plugins --json lists the built-ins', async () => {
    const result = await runCli(['plugins', '--json'], {cwd: await makeProject({})})
    expect(result.code, result.stderr).to.equal(0)
    const {plugins} = JSON.parse(result.stdout) as {plugins: Array<{name: string}>}
    expect(plugins.map((p) => p.name)).to.include.members([
      'conditions-core',
      'mode-agent-direct',
      'provider-agent-loop',
    ])
  })

  it('regrade re-judges a results file and writes the re-graded rows beside it', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    await writeFile(path.join(dir, 'run.jsonl'), JSON.stringify(makeRow({scenario_id: 'issue-view-001'})) + '\n')
    const result = await runCli(['regrade', '--input', 'run.jsonl'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('1 rows: 0 re-graded, 1 copied as they were, 0 verdict(s) changed')
  })

  it('report summarises a dataset and exits 0', async function () {
    skipWithoutShared(this, ROUTER)
    const result = await runCli([
      'report',
      '--input',
      ROUTER,
      '--out',
      await mkdtemp(path.join(tmpdir(), 'ghx-bench-report-')),
      '--resamples',
      '200',
    ])
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('40 rows: agent_direct: 20 runs')
  })

  it('gate exits with the code its verdict names', async function () {
    skipWithoutShared(this, ROUTER)
    const result = await runCli([
      'gate',
      '--input',
      ROUTER,
      '--candidate',
      'ghx',
      '--out',
      await mkdtemp(path.join(tmpdir(), 'ghx-bench-gate-')),
      '--json',
      '--resamples',
      '200',
    ])
    const gate = JSON.parse(result.stdout) as {exit_code: number}
    expect([0, 1, 3]).to.include(gate.exit_code)
    expect(result.code).to.equal(gate.exit_code)
  })
})
