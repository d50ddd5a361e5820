// A hangup (the terminal closed, SIGHUP) ends `run` as the signal does, but only after what runs at
// exit: the run id's lock is released, the tool processes end, the temporary folders go.
import {existsSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {
  leftInTmp,
  marker,
  privateTmp,
  processesWith,
  project,
  shellCommandScenario,
  sleep,
  start,
  suite,
} from '../support/reliability.js'

describe('reliability: SIGHUP', function () {
  this.timeout(90_000)

  it('releases the run lock, ends the tools and removes the temporary folders', async () => {
    const m = marker()
    const dir = await project({
      'catalogue/scenarios/repo-slow-001.yml': shellCommandScenario(
        'repo-slow-001',
        'A slow tool',
        60_000,
        `setsid sleep ${m} & sleep ${m}`,
      ),
      'catalogue/slow.yml': suite('slow', ['repo-slow-001']),
    })
    const tmp = privateTmp()
    const run = start(['run', 'catalogue/slow.yml', '--run-id', 'hup', '--no-report', '--json'], dir, {TMPDIR: tmp})
    await run.waitFor((events) => events.some((e) => e.type === 'run_started'))
    const lock = path.join(dir, 'results', 'hup.lock')
    expect(existsSync(lock), 'the run holds its lock').to.equal(true)
    const deadline = Date.now() + 60_000
    while (processesWith(m).length < 2 && Date.now() < deadline) await sleep(50)
    expect(processesWith(m).length, 'the tool runs').to.be.at.least(2)
    run.child.kill('SIGHUP')
    await run.done
    expect(run.child.signalCode, run.stderr()).to.equal('SIGHUP')
    expect(existsSync(lock), 'the lock is released').to.equal(false)
    while (processesWith(m).length > 0 && Date.now() < deadline) await sleep(50)
    expect(processesWith(m)).to.deep.equal([])
    expect(leftInTmp(tmp)).to.deep.equal([])
  })
})
