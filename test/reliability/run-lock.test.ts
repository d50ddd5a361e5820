// Defect 3: one process per run id: a lock with the holder's pid, stale when that process is gone, and
// a clear exit 2 for a second process with the same --run-id.
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {acquireRunLock, lockFileOf} from '../../src/results/run-lock.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {project, rowsOf, runCli, scratch, shellCommandScenario, start, suite} from '../support/reliability.js'

describe('reliability: the run id lock', function () {
  this.timeout(60_000)

  it('is exclusive while held, released after, and taken over when its process is gone', async () => {
    const dir = await scratch()
    const lock = acquireRunLock(dir, 'r1')
    const holder = JSON.parse(readFileSync(lockFileOf(dir, 'r1'), 'utf8')) as {pid: number; host: string}
    expect(holder).to.include({pid: process.pid, host: hostname()})
    expect(() => acquireRunLock(dir, 'r1')).to.throw(
      BadInputError,
      new RegExp(`run id "r1" is in use by process ${process.pid}`),
    )
    lock.release()
    expect(existsSync(lockFileOf(dir, 'r1'))).to.equal(false)
    // A holder that is gone (kill -9): its pid no longer runs.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(
      lockFileOf(dir, 'r2'),
      JSON.stringify({pid: Number(dead), start: '1', host: hostname(), since: '2026-01-01T00:00:00Z'}),
    )
    const taken = acquireRunLock(dir, 'r2')
    expect(taken.tookOver).to.deep.include({pid: Number(dead)})
    taken.release()
    // A lock half-written by a crash (no holder to read), and old: stale too.
    writeFileSync(lockFileOf(dir, 'r3'), '')
    const {utimesSync} = await import('node:fs')
    utimesSync(lockFileOf(dir, 'r3'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    acquireRunLock(dir, 'r3').release()
  })

  it('a second process with the same --run-id exits 2 naming the holder; only the first runs', async () => {
    const gate = path.join(await scratch(), 'release')
    // The first run's tool waits until the test lets it go: the others surely start while it holds the lock.
    const dir = await project({
      'catalogue/scenarios/repo-slow-001.yml': shellCommandScenario(
        'repo-slow-001',
        'A slow tool',
        30_000,
        `while [ ! -e ${gate} ]; do sleep 0.1; done; echo done`,
      ),
      'catalogue/slow.yml': suite('slow', ['repo-slow-001']),
    })
    const first = start(['run', 'catalogue/slow.yml', '--run-id', 'shared', '--no-report', '--json'], dir)
    await first.waitFor((events) => events.some((e) => e.type === 'run_started'))
    const [second, json] = await Promise.all([
      runCli(['run', 'catalogue/slow.yml', '--run-id', 'shared', '--no-report'], {cwd: dir}),
      runCli(['run', 'catalogue/slow.yml', '--run-id', 'shared', '--json'], {cwd: dir}),
    ])
    expect(second.code, second.stderr).to.equal(2)
    expect(second.stderr).to.match(
      new RegExp(`--run-id error: run id "shared" is in use by process ${first.child.pid} on `),
    )
    expect(json.code).to.equal(2)
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!)).to.deep.include({type: 'error', ok: false})
    writeFileSync(gate, '')
    expect(await first.done).to.equal(0)
    expect(rowsOf(dir, 'shared').map((r) => r.scenario_id)).to.deep.equal(['repo-slow-001'])
    expect(existsSync(path.join(dir, 'results', 'shared.lock'))).to.equal(false)
  })
})
