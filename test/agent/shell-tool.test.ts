import {execFileSync} from 'node:child_process'
import {mkdtemp, writeFile, chmod} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {isolatedBin, MAX_OUTPUT_CHARS, runShellCommand} from '../../src/agent/shell-tool.js'

const env = {PATH: process.env.PATH ?? '/usr/bin:/bin'}

describe('the shell tool', () => {
  it('returns stdout and stderr together, and the exit code when it is not 0', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'shell-'))
    const ok = await runShellCommand('echo out; echo err >&2', {cwd, env}, new AbortController().signal)
    expect(ok).to.deep.equal({ok: true, output: 'out\nerr\n'})
    const failed = await runShellCommand('echo nope; exit 3', {cwd, env}, new AbortController().signal)
    expect(failed.ok).to.equal(false)
    expect(failed.output).to.equal('nope\n\n[exit code 3]')
  })

  it('cuts long output and says so', async () => {
    const result = await runShellCommand(
      `head -c ${MAX_OUTPUT_CHARS * 2} /dev/zero | tr '\\0' a`,
      {cwd: tmpdir(), env},
      new AbortController().signal,
    )
    expect(result.output).to.have.length.below(MAX_OUTPUT_CHARS + 100)
    expect(result.output).to.match(/\[output cut at 64000 characters\]$/)
  })

  it('an abort kills the command and everything it started', async () => {
    const marker = `${Date.now() % 100000}.123`
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 300)
    const result = await runShellCommand(
      `(sleep ${marker}) & sleep ${marker}; wait`,
      {cwd: tmpdir(), env},
      controller.signal,
    )
    expect(Date.now() - started).to.be.below(5000)
    expect(result.ok).to.equal(false)
    expect(result.output).to.include('[aborted]')
    await new Promise((resolve) => setTimeout(resolve, 100))
    const left = execFileSync('ps', ['-eo', 'args'])
      .toString()
      .split('\n')
      .filter((line) => line.includes(`sleep ${marker}`))
    expect(left).to.deep.equal([])
  })

  it('an isolated bin holds the named tools and common utilities, nothing else from PATH', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bin-'))
    // A tool of another arm, on the parent's PATH: it must not reach the isolated shell.
    await writeFile(path.join(dir, 'ghx'), '#!/bin/sh\necho should-not-run\n')
    await chmod(path.join(dir, 'ghx'), 0o755)
    const bin = await isolatedBin({mytool: '/bin/echo'})
    expect(await isolatedBin({mytool: '/bin/echo'})).to.equal(bin)
    const result = await runShellCommand(
      'command -v ghx || echo no-ghx; mytool hello; command -v jq >/dev/null && echo has-jq',
      {cwd: dir, env: {PATH: bin}},
      new AbortController().signal,
    )
    expect(result.output).to.include('no-ghx')
    expect(result.output).to.include('hello')
  })
})
