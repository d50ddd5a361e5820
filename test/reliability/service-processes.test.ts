// The sandbox's, the scripted models' and the tool spawner's own processes (src/shared/service-process.ts)
// end with the ghx-bench that started them, also when it is killed with -9; they ignore Ctrl-C, which
// the runner handles for them (it saves the sandbox's state before it stops them).
import {spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {expect} from 'chai'
import {sleep} from '../support/reliability.js'

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  )
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

async function untilGone(pids: number[], withinMs = 5000): Promise<number[]> {
  const until = Date.now() + withinMs
  while (pids.some(alive) && Date.now() < until) await sleep(50)
  return pids.filter(alive)
}

describe('reliability: service processes', function () {
  this.timeout(30_000)

  it('end when the ghx-bench that started them is killed with -9, and shrug off Ctrl-C', async () => {
    const source = (file: string) => JSON.stringify(path.resolve(file))
    const script = [
      `import {openSandbox} from ${source('src/emulator/service/client.ts')}`,
      `import {openScriptedModels} from ${source('src/agent/scripted-models-service.ts')}`,
      `import {runSpawnedBash} from ${source('src/shared/process/tool-spawner.ts')}`,
      `const sandbox = await openSandbox({repos: ['ghx-bench/sandbox'], repo: 'ghx-bench/sandbox'}, {ownProcess: true})`,
      `const models = await openScriptedModels()`,
      `await models.countTokens('ready')`,
      `await runSpawnedBash('true', {cwd: '/tmp', env: {PATH: process.env.PATH}}, new AbortController().signal)`,
      `console.log(sandbox.url)`,
      `setInterval(() => {}, 1000)`,
    ].join('\n')
    const harness = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const url = await new Promise<string>((resolve) => createInterface({input: harness.stdout}).once('line', resolve))
    // Its service processes (a harness run through tsx may have an esbuild child too).
    const services = childrenOf(harness.pid!).filter((pid) =>
      /(service\/main|scripted-models-main|tool-spawner-main)\.ts/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8')),
    )
    expect(services, 'a sandbox process, a scripted models process and a tool spawner').to.have.length(3)
    // Ctrl-C reaches the whole process group from a terminal: the services wait for the runner to stop them.
    for (const pid of services) process.kill(pid, 'SIGINT')
    await sleep(300)
    expect(services.filter(alive)).to.have.length(3)
    expect((await fetch(`${url}/rate_limit`)).status).to.equal(401)
    harness.kill('SIGKILL')
    expect(await untilGone(services)).to.deep.equal([])
  })
})
