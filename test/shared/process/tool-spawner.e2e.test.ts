import {existsSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {expect} from 'chai'
import {isInfrastructureError} from '../../../src/plugins/api.js'
import {subreaperCommand} from '../../../src/shared/process/tool-processes.js'
import {killSpawnedTools, runSpawnedBash} from '../../../src/shared/process/tool-spawner.js'
import {marker, sleepsOf, toolSpawnerAbove} from '../../support/reliability.js'

const env = {PATH: process.env.PATH ?? '/usr/bin:/bin'}
const never = new AbortController().signal
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

/** The command's parent is the subreaper (bash itself without perl); its parent, read while the call runs, the process that started it. */
/** The spawner that runs this process's calls, found from outside from a call's process (a call cannot see its parents). */
async function spawnerPid(): Promise<number> {
  const m = marker()
  const controller = new AbortController()
  let ended: unknown
  const call = runSpawnedBash(`sleep ${m}`, {cwd: tmpdir(), env}, controller.signal).then(
    (result) => (ended = result),
    (error: unknown) => (ended = error),
  )
  // A spawner starting on a loaded machine takes seconds; `ps` is run at a slow pace: three callers
  // polling it every 20 ms starve the event loop that the spawner's start needs.
  const until = Date.now() + 40_000
  while (sleepsOf(m).length === 0 && ended === undefined && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 250))
  expect(sleepsOf(m), `the call's process (the call ended with ${String(ended)})`).to.have.length(1)
  const spawner = toolSpawnerAbove(Number(sleepsOf(m)[0]!.trim().split(/\s+/)[0]))
  controller.abort()
  await call
  return spawner
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
    this.timeout(120_000)
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
    // This process started the spawner's hub (or, without perl, the spawner): once it is reaped, the stop is known.
    const started = subreaperCommand() ? parentOf(restarted) : restarted
    process.kill(restarted, 'SIGKILL')
    while (existsSync(`/proc/${started}`)) await new Promise((resolve) => setTimeout(resolve, 20))
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
