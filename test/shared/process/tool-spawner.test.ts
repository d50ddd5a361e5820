import {readdirSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {expect} from 'chai'
import {isInfrastructureError} from '../../../src/plugins/api.js'
import {subreaperCommand} from '../../../src/shared/process/tool-processes.js'
import {killSpawnedTools, runSpawnedBash} from '../../../src/shared/process/tool-spawner.js'
import {marker, sleepsOf} from '../../support/reliability.js'

const env = {PATH: process.env.PATH ?? '/usr/bin:/bin'}
const never = new AbortController().signal
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

/** The command's parent is the subreaper (bash itself without perl); its parent, read while the call runs, the process that started it. */
/** The live spawner of this process, once a call has gone through it (read from outside: a call cannot see its parents). */
async function spawnerPid(): Promise<number> {
  await runSpawnedBash('true', {cwd: tmpdir(), env}, never)
  const descendsFromUs = (pid: number) => parentOf(pid) === process.pid || parentOf(parentOf(pid)) === process.pid
  const spawners = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('tool-spawner-main') && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1')) && descendsFromUs(pid)
      } catch {
        return false
      }
    })
  // Its hub (perl) names the spawner's command line too: the spawner is the one not above another.
  const spawner = spawners.length === 1 ? spawners : spawners.filter((pid) => spawners.includes(parentOf(pid)))
  expect(spawner, 'one live tool spawner').to.have.length(1)
  return spawner[0]!
}

describe('the tool spawner', function () {
  this.timeout(20_000)

  it('starts a tool call from its own process: the runner never forks', async function () {
    if (!process.platform.startsWith('linux')) this.skip()
    const spawner = await spawnerPid()
    expect(spawner).to.not.equal(process.pid)
    // Under its hub (a subreaper of its own) where there is perl; started by this process either way.
    expect(subreaperCommand() ? parentOf(parentOf(spawner)) : parentOf(spawner)).to.equal(process.pid)
  })

  it('is started again when it stopped (once for calls at the same moment); a call in flight when it stopped fails as infrastructure, with why, and its processes end', async function () {
    if (!process.platform.startsWith('linux')) this.skip()
    const spawner = await spawnerPid()
    const m = marker()
    const inFlight = runSpawnedBash(`sleep ${m}`, {cwd: tmpdir(), env}, never)
    // Kill it only once the call's process runs: a loaded machine can take longer than any fixed wait to start it.
    const until = Date.now() + 10_000
    while (sleepsOf(m).length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
    process.kill(spawner, 'SIGKILL')
    // The harness failed, not the agent: the runner records an infrastructure error (and retries), not a failed tool call.
    const failed = await inFlight.then(
      () => expect.fail('a call whose spawner died must not come back as a tool result'),
      (error: Error) => error,
    )
    expect(isInfrastructureError(failed), 'an infrastructure error').to.equal(true)
    expect(failed.message).to.match(/tool spawner process stopped/)
    const next = await runSpawnedBash('echo again', {cwd: tmpdir(), env}, never)
    expect(next).to.deep.equal({ok: true, output: 'again\n'})
    // Calls at the same moment after it stopped start one spawner between them.
    const restarted = await spawnerPid()
    process.kill(restarted, 'SIGKILL')
    await new Promise((resolve) => setTimeout(resolve, 100))
    const together = await Promise.all([spawnerPid(), spawnerPid(), spawnerPid()])
    expect(new Set(together).size).to.equal(1)
    expect(together[0]).to.not.equal(restarted)
    // What the killed spawner left running ends with it: its hub kills all it holds (without perl, the next run's sweep does).
    if (!subreaperCommand()) return
    const gone = Date.now() + 10_000
    while (sleepsOf(m).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sleepsOf(m)).to.deep.equal([])
  })

  it('kills the processes of every call it runs, synchronously, for a ghx-bench that exits before they end', async function () {
    if (!process.platform.startsWith('linux')) this.skip()
    const m = marker()
    const running = runSpawnedBash(`setsid sleep ${m} & sleep ${m}`, {cwd: tmpdir(), env}, never)
    const until = Date.now() + 5000
    while (sleepsOf(m).length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sleepsOf(m)).to.have.length(2)
    killSpawnedTools()
    // Gone before this process's event loop turns again: an exit handler can remove their folders next.
    expect(sleepsOf(m)).to.deep.equal([])
    expect((await running).output).to.match(/\[exit code (SIGKILL|signal 9)\]$/)
  })
})
