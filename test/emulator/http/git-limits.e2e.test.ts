// GitHub's own limit on a file (100 MB) with a file over it, pushed by the real git, and
// `ghx-bench sandbox serve` stopped by SIGTERM while a push is in flight: the slow cases of
// git-limits.test.ts (which lowers the limits).
import {spawn} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {mkdtemp, open, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {setTimeout as sleep} from 'node:timers/promises'
import {expect} from 'chai'
import {startSandbox} from '../../../src/emulator/index.js'
import {startSandboxService} from '../../../src/emulator/service/client.js'
import {PROJECT_ROOT} from '../../support/cli.js'
import {sandboxShell} from '../../support/git.js'
import {OWNER, REPO} from '../../support/sandbox.js'
import {gitRunning, processesLeft, stalledReceivePack} from './git-wire.js'

const MIB = 1024 * 1024

/** `size` bytes of text no two runs share (hex of random bytes), written a MiB at a time. */
async function writeLargeText(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w')
  try {
    for (let written = 0; written < size; written += MIB)
      await handle.write(randomBytes(MIB / 2).toString('hex'), null, 'latin1')
  } finally {
    await handle.close()
  }
}

describe('sandbox: a file over GitHub’s 100 MB limit; SIGTERM during a push', function () {
  this.timeout(90_000)
  let home: string
  before(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-large-'))
  })
  after(() => rm(home, {recursive: true, force: true}))

  it('refuses a 101 MB file with GitHub’s GH001 lines, answering other requests meanwhile', async function () {
    // Its git processes are found in /proc.
    if (!process.platform.startsWith('linux')) this.skip()
    const sandbox = await startSandbox()
    try {
      const shell = sandboxShell(sandbox, home)
      const clone = path.join(home, 'large')
      await shell.ok(home, 'git', 'clone', '--quiet', `https://github.localhost/${OWNER}/${REPO}.git`, clone)
      await writeLargeText(path.join(clone, 'data.txt'), 101 * MIB)
      // Stored, not compressed, on the client's side: the test spends its time on the sandbox's.
      const fast = ['-c', 'core.bigFileThreshold=1m', '-c', 'core.compression=0', '-c', 'pack.compression=0']
      await shell.ok(clone, 'git', ...fast, 'add', 'data.txt')
      await shell.ok(clone, 'git', 'commit', '--quiet', '-m', 'Add the data')
      const before = sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main

      let pushing = true
      const statuses: number[] = []
      const answering = (async () => {
        while (pushing) {
          const response = await fetch(`${sandbox.url}/repos/${OWNER}/${REPO}`, {
            headers: {authorization: `token ${sandbox.token}`},
          })
          await response.arrayBuffer()
          statuses.push(response.status)
          await sleep(20)
        }
      })()
      const pushed = await shell.run(clone, 'git', [...fast, 'push', 'origin', 'HEAD:main'])
      pushing = false
      await answering

      expect(pushed.code).to.not.equal(0)
      expect(pushed.stderr).to.include(
        "remote: error: File data.txt is 101.00 MB; this exceeds GitHub's file size limit of 100.00 MB",
      )
      expect(pushed.stderr).to.include(
        'remote: error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.',
      )
      expect(pushed.stderr).to.include('(pre-receive hook declined)')
      expect(statuses.length).to.be.greaterThan(0)
      expect(new Set(statuses)).to.deep.equal(new Set([200]))
      expect(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main).to.equal(before)
      expect(await processesLeft()).to.deep.equal([])
    } finally {
      await sandbox.close()
    }
  })

  it('`sandbox serve` stops on SIGTERM during a push: promptly, its state saved, no git process left', async function () {
    // Its git processes are found in /proc.
    if (!process.platform.startsWith('linux')) this.skip()
    // The sandbox's folder of repositories goes under this one: its git processes are those whose HOME is there.
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-serve-push-'))
    const statePath = path.join(dir, 'state.json')
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'bin', 'dev.js'), 'sandbox', 'serve', '--port', '0', '--state', statePath, '--json'],
      {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, TMPDIR: dir}},
    )
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      const info = await new Promise<{url: string; token: string}>((resolve, reject) => {
        createInterface({input: child.stdout}).once('line', (line) =>
          resolve(JSON.parse(line) as {url: string; token: string}),
        )
        void exited.then((code) => reject(new Error(`sandbox serve exited ${code}`)))
      })
      const headers = {authorization: `token ${info.token}`, 'content-type': 'application/json'}
      const issue = await fetch(`${info.url}/repos/${OWNER}/${REPO}/issues`, {
        method: 'POST',
        headers,
        body: JSON.stringify({title: 'Saved with a push in flight'}),
      })
      expect(issue.status).to.equal(201)
      const branch = (await (await fetch(`${info.url}/repos/${OWNER}/${REPO}/branches/main`, {headers})).json()) as {
        commit: {sha: string}
      }
      // Under its temporary root there, wherever that root is made.
      const prefix = `${dir}/`
      const answer = stalledReceivePack(info.url, info.token, `${OWNER}/${REPO}`, branch.commit.sha)
      await gitRunning(prefix)

      child.kill('SIGTERM')
      const code = await Promise.race([exited, timeout(15_000, 'sandbox serve still runs 15 s after SIGTERM')])
      expect(code, 'the exit code of sandbox serve after SIGTERM').to.equal(0)
      expect(await answer).to.deep.include({complete: false})
      expect(await processesLeft(prefix)).to.deep.equal([])
      const saved = JSON.parse(await readFile(statePath, 'utf8')) as {
        repos: Record<string, {issues: Record<string, {title: string}>; branches: Record<string, string>}>
      }
      const repo = saved.repos[`${OWNER}/${REPO}`]!
      expect(Object.values(repo.issues).map((i) => i.title)).to.include('Saved with a push in flight')
      expect(repo.branches.stalled).to.equal(undefined)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('the sandbox in its own process (as the runner starts it) stops during a push: its state saved, no git process left', async function () {
    // Its git processes are found in /proc.
    if (!process.platform.startsWith('linux')) this.skip()
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-service-push-'))
    const statePath = path.join(dir, 'sandbox.json')
    const service = await startSandboxService({statePath, repos: [`${OWNER}/${REPO}`], repo: `${OWNER}/${REPO}`})
    try {
      const headers = {authorization: `token ${service.token}`}
      const branch = (await (await fetch(`${service.url}/repos/${OWNER}/${REPO}/branches/main`, {headers})).json()) as {
        commit: {sha: string}
      }
      // The service's process shares this one's temporary folder: its git processes have their HOME in it.
      const prefix = `${tmpdir()}/`
      const answer = stalledReceivePack(service.url, service.token, `${OWNER}/${REPO}`, branch.commit.sha)
      await gitRunning(prefix)
      await Promise.race([service.stop(), timeout(15_000, 'the sandbox’s process still runs 15 s after stop')])
      expect(await answer).to.deep.include({complete: false})
      expect(await processesLeft(prefix)).to.deep.equal([])
      const saved = JSON.parse(await readFile(statePath, 'utf8')) as {repos: Record<string, {branches: object}>}
      expect(saved.repos[`${OWNER}/${REPO}`]!.branches).to.not.have.property('stalled')
    } finally {
      await service.stop().catch(() => {})
      await rm(dir, {recursive: true, force: true})
    }
  })
})

/** Fails after `ms` with `message` (a process that should have stopped by then). */
function timeout(ms: number, message: string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms).unref())
}
