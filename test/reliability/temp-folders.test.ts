// Defect 10: temporary folders are removed at exit: after a run, after Ctrl-C (once or twice), after
// `sandbox serve` stops; a ghx-bench killed with -9 leaves its folder to the next one, which removes it.
import {readdirSync} from 'node:fs'
import {expect} from 'chai'
import {finished, leftInTmp, privateTmp, project, runCli, sleep, start} from '../support/reliability.js'

describe('reliability: temporary folders', function () {
  this.timeout(60_000)

  it('none left after a run, after Ctrl-C, and after Ctrl-C twice', async () => {
    const dir = await project()
    const tmp = privateTmp()
    const env = {TMPDIR: tmp}
    const run = await runCli(['run', 'catalogue/one.yml', '--run-id', 'whole'], {cwd: dir, env: {...env, CI: '1'}})
    expect(run.code, run.stderr).to.equal(0)
    expect(leftInTmp(tmp)).to.deep.equal([])

    const once = start(['run', 'catalogue/one.yml', '--repetitions', '6', '--run-id', 'once', '--json'], dir, env)
    await once.waitFor(finished(1))
    once.child.kill('SIGINT')
    expect(await once.done).to.equal(130)
    expect(leftInTmp(tmp)).to.deep.equal([])

    const twice = start(['run', 'catalogue/one.yml', '--repetitions', '6', '--run-id', 'twice', '--json'], dir, env)
    await twice.waitFor((events) => events.some((e) => e.type === 'run_started'))
    twice.child.kill('SIGINT')
    await sleep(20)
    twice.child.kill('SIGINT')
    expect(await twice.done).to.equal(130)
    expect(leftInTmp(tmp)).to.deep.equal([])
  })

  it('none left after `sandbox serve` stops on Ctrl-C or SIGTERM', async () => {
    const dir = await project()
    const tmp = privateTmp()
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const served = start(['sandbox', 'serve', '--state', 'state.json'], dir, {TMPDIR: tmp})
      while (!served.stdout().includes('export GH_CONFIG_DIR=')) await sleep(50)
      // The gh config folder it prints lives in the temporary folder while it serves.
      expect(leftInTmp(tmp)).to.have.length(1)
      served.child.kill(signal)
      await served.done
      expect(leftInTmp(tmp), signal).to.deep.equal([])
    }
    expect(readdirSync(dir)).to.include('state.json')
  })

  it('a folder left by kill -9 is removed by the next ghx-bench', async () => {
    const dir = await project()
    const tmp = privateTmp()
    const run = start(['run', 'catalogue/one.yml', '--repetitions', '6', '--run-id', 'killed', '--json'], dir, {
      TMPDIR: tmp,
    })
    await run.waitFor((events) => events.some((e) => e.type === 'run_started'))
    run.child.kill('SIGKILL')
    await run.done
    expect(leftInTmp(tmp)).to.have.length(1)
    const next = await runCli(['validate'], {cwd: dir, env: {TMPDIR: tmp}})
    expect(next.code, next.stderr).to.equal(0)
    expect(leftInTmp(tmp)).to.deep.equal([])
  })
})
