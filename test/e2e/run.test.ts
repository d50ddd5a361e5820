// `ghx-bench run` as a process: killed with -9 mid-run and resumed, stopped with Ctrl-C (SIGINT). The rest
// of run in-process: test/commands/run.e2e.test.ts.
import path from 'node:path'
import {expect} from 'chai'
import {makeProject, runCli} from '../support/cli.js'
import {finished, start} from '../support/reliability.js'
import {keyOf, rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

describe('ghx-bench run (CLI, sandbox + oracle)', function () {
  this.timeout(120_000)

  it('resumes after kill -9: no completed row lost, none duplicated', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const args = [path.join(SUITES, 'smoke.yml'), '--mode', 'agent_direct', '--repetitions', '2', '--run-id', 'crash']
    const first = start(['run', ...args, '--json'], dir)
    await first.waitFor(finished(4))
    first.child.kill('SIGKILL')
    await first.done
    const before = rowsOf(dir)
    expect(before.length).to.be.within(4, 11)
    const second = await runCli(['run', ...args], {cwd: dir, env: {CI: '1'}})
    expect(second.code, second.stderr).to.equal(0)
    const after = rowsOf(dir)
    expect(after).to.have.length(12)
    expect(new Set(after.map(keyOf)).size).to.equal(12)
    // The rows recorded before the crash are kept as they were.
    expect(after.slice(0, before.length)).to.deep.equal(before)
    expect(after.every((r) => r.outcome === 'pass')).to.equal(true)
  })

  it('Ctrl-C stops cleanly: in-flight runs aborted, rows intact, fixtures reset, and how to resume', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const run = start(
      [
        'run',
        path.join(SUITES, 'smoke.yml'),
        '--mode',
        'agent_direct',
        '--repetitions',
        '3',
        '--run-id',
        'stopped',
        '--json',
      ],
      dir,
    )
    await run.waitFor(finished(2))
    run.child.kill('SIGINT')
    expect(await run.done).to.equal(130)
    expect(run.stderr()).to.include('ghx-bench run')
    expect(run.stderr()).to.include('--run-id stopped')
    const rows = rowsOf(dir)
    expect(rows.length).to.be.within(2, 17)
    expect(new Set(rows.map(keyOf)).size).to.equal(rows.length)
    const status = await runCli(['fixtures', 'status', '--json'], {cwd: dir})
    expect(status.code, status.stdout + status.stderr).to.equal(0)
    const report = JSON.parse(status.stdout) as {kinds: Array<{kind: string; problems: string[]}>}
    for (const kind of report.kinds) expect(kind.problems, kind.kind).to.deep.equal([])
  })
})
