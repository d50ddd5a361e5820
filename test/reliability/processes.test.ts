// Defect 1: a hung tool is aborted, and nothing a tool starts outlives its call, the run or ghx-bench
// (setsid, `cmd &`, a cleared environment, a grandchild holding stdout open, a tool that kills its
// subreaper parent, a fork loop, kill -9 of ghx-bench, alone or with its tool spawner and its hub).
import {execFileSync, spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {runAgentLoop} from '../../src/agent/agent-loop.js'
import {startScriptedModels} from '../../src/agent/scripted-models.js'
import {runShellCommand} from '../../src/agent/shell-tool.js'
import {pidNamespacePrefix} from '../../src/shared/process/pid-namespace.js'
import {reapOrphanedTools, subreaperCommand} from '../../src/shared/process/tool-processes.js'
import {startToolSpawner} from '../../src/shared/process/tool-spawner.js'
import type {ModeSession} from '../../src/plugins/api.js'
import {
  marker,
  processesWith,
  project,
  rowsOf,
  runCli,
  shellCommandScenario,
  sleep,
  sleepsOf,
  suite,
  toolSpawnerAbove,
} from '../support/reliability.js'

const env = {PATH: process.env.PATH ?? '/usr/bin:/bin'}
const never = new AbortController().signal
const which = (name: string) =>
  execFileSync('bash', ['-c', `command -v ${name}`])
    .toString()
    .trim()

const statFields = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}
const parentOf = (pid: number) => Number(statFields(pid)[1])

/** How many of a process's children are zombies (ended, never reaped). */
function zombieChildrenOf(pid: number): number {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ').filter(Boolean).map(Number),
  )
  return children.filter((child) => {
    try {
      return statFields(child)[0] === 'Z'
    } catch {
      return false
    }
  }).length
}

async function gone(mark: string, withinMs = 2000): Promise<string[]> {
  const until = Date.now() + withinMs
  let left = processesWith(mark)
  while (left.length > 0 && Date.now() < until) {
    await sleep(50)
    left = processesWith(mark)
  }
  return left
}

// Wall-time bounds here are far below the tools' sleeps (600 s and more): they tell "ended at the abort"
// from "waited for the sleep" on a loaded machine too, and time nothing finer.
describe('reliability: tool processes', function () {
  this.timeout(90_000)

  it('a grandchild that escapes with setsid and keeps stdout open neither holds the call nor outlives it', async () => {
    const m = marker()
    // The spawner's start is no part of the call (it takes seconds on a loaded machine).
    await startToolSpawner()
    const started = Date.now()
    const result = await runShellCommand(`setsid sleep ${m} & echo answered`, {cwd: tmpdir(), env}, never)
    // Far below the grandchild's sleep (600 s and more): the call did not wait for the pipe it holds.
    expect(Date.now() - started).to.be.below(60_000)
    expect(result).to.deep.equal({ok: true, output: 'answered\n'})
    expect(await gone(m)).to.deep.equal([])
  })

  it('an abort ends a hung call at once, with everything it started (setsid, background, nohup)', async () => {
    const m = marker()
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const started = Date.now()
    const result = await runShellCommand(
      `setsid sleep ${m} & (setsid sleep ${m} &) ; nohup sleep ${m} >/dev/null 2>&1 & sleep ${m}`,
      {cwd: tmpdir(), env},
      controller.signal,
    )
    expect(Date.now() - started).to.be.below(60_000)
    expect(result.ok).to.equal(false)
    expect(result.output).to.match(/\[aborted\]$/)
    expect(await gone(m)).to.deep.equal([])
  })

  it('`cmd &` that the shell leaves behind ends with the call', async () => {
    const m = marker()
    const result = await runShellCommand(
      `nohup sleep ${m} >/dev/null 2>&1 & sleep ${m} </dev/null >/dev/null 2>&1 & echo left`,
      {cwd: tmpdir(), env},
      never,
    )
    expect(result.output).to.equal('left\n')
    expect(await gone(m)).to.deep.equal([])
  })

  it('a double fork that clears its environment (no marker) and detaches at once is caught by the subreaper', async function () {
    if (!subreaperCommand()) this.skip()
    const m = marker()
    // The shell exits at once: only the subreaper still links the orphan to the call.
    await runShellCommand(`(setsid env -i sleep ${m} </dev/null >/dev/null 2>&1 &)`, {cwd: tmpdir(), env}, never)
    expect(await gone(m)).to.deep.equal([])
  })

  it('the command’s parent is a clean process: /proc/$PPID/environ shows the tool’s environment only', async function () {
    if (!subreaperCommand()) this.skip()
    const result = await runShellCommand(
      `tr '\\0' '\\n' < /proc/$PPID/environ | cut -d= -f1 | sort`,
      {cwd: tmpdir(), env: {...env, ONLY_THIS: '1'}},
      never,
    )
    // GHX_BENCH_PROJECT, the project marker, is there once a run in this process has set one (an earlier test's).
    const names = result.output.trim().split('\n')
    expect(names.filter((name) => name !== 'GHX_BENCH_PROJECT')).to.deep.equal([
      'GHX_BENCH_RUN_TOKEN',
      'ONLY_THIS',
      'PATH',
    ])
  })

  it('without the subreaper (no perl), the process tree and the environment marker still find setsid and background processes', async () => {
    process.env.GHX_BENCH_NO_SUBREAPER = '1'
    try {
      const m = marker()
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 600)
      const started = Date.now()
      await runShellCommand(
        `setsid sleep ${m} & nohup sleep ${m} >/dev/null 2>&1 & sleep ${m}`,
        {cwd: tmpdir(), env},
        controller.signal,
      )
      expect(Date.now() - started).to.be.below(60_000)
      expect(await gone(m)).to.deep.equal([])
      const left = marker()
      await runShellCommand(`setsid sleep ${left} </dev/null >/dev/null 2>&1 & echo ok`, {cwd: tmpdir(), env}, never)
      expect(await gone(left)).to.deep.equal([])
    } finally {
      delete process.env.GHX_BENCH_NO_SUBREAPER
    }
  })

  it('the agent loop does not wait for a tool that ignores the abort', async () => {
    const models = await startScriptedModels()
    try {
      const {baseUrl, release} = models.register({
        model: 'oracle',
        steps: [{tool: 'stuck', args: {}}],
        final: {kind: 'text'},
      })
      const session: ModeSession = {
        instructions: 'x',
        tools: [{name: 'stuck', description: 'never answers', inputSchema: {type: 'object'}}],
        env: {},
        call: () => new Promise(() => {}),
        close: async () => {},
      }
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 300)
      const started = Date.now()
      const trace = await runAgentLoop(
        {
          prompt: 'go',
          session,
          model: {id: 'oracle', baseUrl},
          options: {},
          limits: {timeout_ms: 300},
          signal: controller.signal,
        },
        {stream: false, maxTurns: 5},
      )
      expect(Date.now() - started).to.be.below(60_000)
      expect(trace.stop_reason).to.equal('aborted')
      release()
    } finally {
      await models.close()
    }
  })

  /** A ghx-bench process running one tool call (`sleep <mark>`) in its tool spawner; resolves once the call runs. */
  async function harnessWithTool(m: string, detached: boolean) {
    // Its tools are marked as the project of results folder /tmp/<mark>, as a run marks them.
    const script = `import {runShellCommand} from ${JSON.stringify(path.resolve('src/agent/shell-tool.ts'))}\nimport {markToolsAsProject} from ${JSON.stringify(path.resolve('src/shared/process/tool-processes.ts'))}\nmarkToolsAsProject('/tmp/${m}')\nvoid runShellCommand('sleep ${m}', {cwd: '/tmp', env: {PATH: process.env.PATH}}, new AbortController().signal)\n`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: 'ignore',
      detached,
    })
    const closed = new Promise((resolve) => child.on('close', resolve))
    const until = Date.now() + 10_000
    while (sleepsOf(m).length === 0 && Date.now() < until) await sleep(50)
    expect(sleepsOf(m)).to.have.length(1)
    return {child, closed}
  }

  it('tools of a ghx-bench killed with -9 end with it (its tool spawner sees it go)', async () => {
    const m = marker()
    const {child, closed} = await harnessWithTool(m, false)
    child.kill('SIGKILL')
    await closed
    expect(await gone(m)).to.deep.equal([])
  })

  /** The tool spawner running `sleep <mark>` (the parent of the call's subreaper) and, above it, its hub. */
  function spawnerOf(m: string): {spawner: number; hub: number} {
    const spawner = toolSpawnerAbove(Number(sleepsOf(m)[0]!.trim().split(/\s+/)[0]))
    return {spawner, hub: parentOf(spawner)}
  }

  it('tools of a ghx-bench killed with -9 together with its tool spawner end with them (the spawner’s hub kills what it held)', async function () {
    if (!subreaperCommand()) this.skip()
    const m = marker()
    // Its own process group, killed as a CI timeout kills it; then the spawner too.
    const {child, closed} = await harnessWithTool(m, true)
    const {spawner} = spawnerOf(m)
    process.kill(-child.pid!, 'SIGKILL')
    // The spawner may have ended already (the group's kill reached it first, or its parent's end did): ESRCH is that.
    try {
      process.kill(spawner, 'SIGKILL')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
    }
    await closed
    expect(await gone(m, 10_000)).to.deep.equal([])
  })

  it('tools of a ghx-bench killed with -9 together with its tool spawner and its hub are ended by the next one (reapOrphanedTools)', async function () {
    if (!subreaperCommand()) this.skip()
    const m = marker()
    const {child, closed} = await harnessWithTool(m, true)
    const {spawner, hub} = spawnerOf(m)
    for (const pid of [hub, spawner, child.pid!]) process.kill(pid, 'SIGKILL')
    await closed
    await sleep(100)
    expect(sleepsOf(m), 'a -9 of all three leaves the tool running').to.have.length(1)
    expect(reapOrphanedTools(`/tmp/${m}-another`), 'another project’s run').to.equal(0)
    expect(sleepsOf(m)).to.have.length(1)
    expect(reapOrphanedTools(`/tmp/${m}`)).to.be.at.least(1)
    expect(await gone(m)).to.deep.equal([])
  })

  for (const signal of ['-9', '-TERM']) {
    it(`a tool that kills its subreaper parent (kill ${signal} $PPID) leaves nothing running past the call: its setsid children end with it`, async () => {
      const m = marker()
      // In a PID namespace the subreaper is its first process, which a signal from inside does not reach:
      // the call then runs to its abort. Without one, the kill ends it.
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), pidNamespacePrefix() ? 1000 : 60_000)
      const result = await runShellCommand(
        `setsid sleep ${m} & (setsid env -i sleep ${m} </dev/null >/dev/null 2>&1 &) ; nohup sleep ${m} >/dev/null 2>&1 & kill ${signal} $PPID; sleep ${m}`,
        {cwd: tmpdir(), env},
        controller.signal,
      )
      clearTimeout(timer)
      expect(result.ok).to.equal(false)
      expect(await gone(m, 5000)).to.deep.equal([])
    })
  }

  it('a fork loop leaves no zombies under the subreaper while the call runs, and nothing after it', async function () {
    if (!subreaperCommand()) this.skip()
    // Forking is slow on a loaded machine (a 1,000-fork loop took 30 s on 2 busy cores).
    this.timeout(180_000)
    const m = marker()
    // 300 orphans that end at once (each re-parented to the subreaper), then a wait the test ends.
    const controller = new AbortController()
    const call = runShellCommand(
      `for i in $(seq 300); do (true &); done; sleep ${m}`,
      {cwd: tmpdir(), env},
      controller.signal,
    )
    const until = Date.now() + 150_000
    while (sleepsOf(m).length === 0 && Date.now() < until) await sleep(50)
    expect(sleepsOf(m), 'the loop ran to its end').to.have.length(1)
    // The last command runs in place of bash: its parent is the subreaper.
    const subreaper = parentOf(Number(sleepsOf(m)[0]!.trim().split(/\s+/)[0]))
    let zombies = zombieChildrenOf(subreaper)
    while (zombies > 0 && Date.now() < until) {
      await sleep(50)
      zombies = zombieChildrenOf(subreaper)
    }
    expect(zombies, 'zombies under the subreaper').to.equal(0)
    controller.abort()
    expect((await call).output).to.match(/\[aborted\]$/)
    expect(await gone(m)).to.deep.equal([])
  })

  it('a run with hostile tools ends at its timeout, and leaves 0 processes once ghx-bench exits', async function () {
    this.timeout(300_000)
    const m = marker()
    const setsid = which('setsid')
    const nohup = which('nohup')
    // The agent's PATH holds no setsid or nohup; absolute paths reach them, as an attacker would.
    const hang = `${setsid} sleep ${m} & (${setsid} env -i sleep ${m} </dev/null >/dev/null 2>&1 &) ; ${nohup} sleep ${m} >/dev/null 2>&1 & sleep ${m}`
    const leave = `${nohup} sleep ${m} >/dev/null 2>&1 & ${setsid} sleep ${m} & echo started`
    const dir = await project({
      'catalogue/scenarios/repo-hang-001.yml': shellCommandScenario(
        'repo-hang-001',
        'A tool that hangs and escapes',
        1500,
        hang,
      ),
      'catalogue/scenarios/repo-leave-001.yml': shellCommandScenario(
        'repo-leave-001',
        'A tool that leaves processes behind',
        20_000,
        leave,
      ),
      'catalogue/hostile.yml': suite(
        'hostile',
        ['repo-hang-001', 'repo-leave-001', 'repo-view-001'],
        ['timeouts: {stall_ms: 60000}'],
      ),
    })
    const started = Date.now()
    const result = await runCli(['run', 'catalogue/hostile.yml', '--run-id', 'hostile', '--no-report'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(result.code, result.stderr).to.equal(0)
    // Bounds far below the tools' sleeps (600 s and more), so that a loaded machine does not fail them:
    // the hung run ended at its timeout, and nothing waited for what the tools left running.
    expect(Date.now() - started).to.be.below(300_000)
    const rows = rowsOf(dir, 'hostile')
    const hung = rows.find((r) => r.scenario_id === 'repo-hang-001')!
    expect(hung.outcome).to.equal('timeout')
    expect(hung.latency_ms_wall).to.be.below(120_000)
    expect(rows.find((r) => r.scenario_id === 'repo-view-001')!.outcome).to.equal('pass')
    expect(await gone(m, 500)).to.deep.equal([])
  })
})
