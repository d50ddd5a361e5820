// Issue 27, item 3: an agent's shell command cannot read other processes' environments or command
// lines from /proc (a concurrent run's MCP server holds its token in its environment): each call runs in
// a PID namespace of its own. The planted process below stands for that server; before the namespace,
// `grep` over /proc/*/environ found its secret.
import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {runShellCommand} from '../../src/agent/shell-tool.js'
import {pidNamespacePrefix} from '../../src/shared/process/pid-namespace.js'
import {startToolSpawner} from '../../src/shared/process/tool-spawner.js'

const env = {PATH: process.env.PATH ?? '/usr/bin:/bin'}
const never = new AbortController().signal

describe('reliability: a tool call sees only its own processes', function () {
  this.timeout(60_000)
  const secret = `planted-${randomBytes(8).toString('hex')}`
  let planted: ChildProcess

  before(async function () {
    if (!pidNamespacePrefix()) {
      console.log('    no PID namespace on this machine (unshare missing or refused): tool isolation not tested')
      this.skip()
    }
    planted = spawn('bash', ['-c', `sleep 600; true ${secret}`], {
      env: {...env, PLANTED_TOKEN: secret},
      stdio: 'ignore',
    })
    await startToolSpawner()
  })
  after(() => planted?.kill('SIGKILL'))

  it('finds no other process’s environment or command line in /proc', async () => {
    // The pattern comes from a file: on a command line it would find itself.
    const pattern = path.join(tmpdir(), `ghx-bench-pattern-${secret.slice(-6)}`)
    writeFileSync(pattern, `${secret}\n`)
    const search = `cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' '\\n' | grep -c -f ${pattern}; true`
    // The control: run outside any namespace, the same search finds the planted process (its environment and command line).
    expect(Number(execFileSync('bash', ['-c', search]).toString().trim())).to.be.at.least(2)
    const result = await runShellCommand(search, {cwd: tmpdir(), env}, never)
    expect(result.output.trim()).to.equal('0')
  })

  it('lists its own processes only, and still answers with its exit code', async () => {
    const listed = await runShellCommand(`sleep 5 & ls /proc | grep -c '^[0-9]'`, {cwd: tmpdir(), env}, never)
    // Its subreaper, bash, sleep, ls and grep: a handful, where the machine has many more.
    expect(Number(listed.output.trim())).to.be.within(2, 6)
    const failed = await runShellCommand('echo before; exit 3', {cwd: tmpdir(), env}, never)
    expect(failed).to.deep.equal({ok: false, output: 'before\n\n[exit code 3]'})
  })
})
