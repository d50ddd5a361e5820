// GitHub's limits on pushes, with the real git against the sandbox: a file over the size limit is
// refused with GitHub's GH001 lines, one over the recommended size is taken with its warning (the
// limits lowered here, as the sandbox's internal options allow, so that no test writes 100 MB: the
// real limit is in git-limits.e2e.test.ts). A git request that outlasts its limit, and a sandbox
// closed during a push, end the push's git processes and free the repository.
import {randomBytes} from 'node:crypto'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../../src/emulator/index.js'
import {sandboxShell} from '../../support/git.js'
import {OWNER, REPO} from '../../support/sandbox.js'
import {gitRunning, processesLeft, stalledReceivePack} from './git-wire.js'

const MIB = 1024 * 1024
const URL = `https://github.localhost/${OWNER}/${REPO}.git`

/** A push to the default repository that stops halfway through its pack. */
const stalledPush = (sandbox: Sandbox) =>
  stalledReceivePack(
    sandbox.url,
    sandbox.token,
    `${OWNER}/${REPO}`,
    sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main!,
  )

describe('sandbox: GitHub’s limits on pushes (lowered), and pushes that do not end', function () {
  this.timeout(30_000)
  let home: string
  before(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-limits-'))
  })
  after(() => rm(home, {recursive: true, force: true}))

  it('refuses a push with a file over the size limit (GH001), changing nothing; takes one over the warning size with GitHub’s warning', async () => {
    const sandbox = await startSandbox({pushLimits: {fileSize: 2 * MIB, fileSizeWarning: MIB}})
    try {
      const shell = sandboxShell(sandbox, home)
      const clone = path.join(home, 'sizes')
      const git = (...args: string[]) => shell.ok(clone, 'git', ...args)
      await shell.ok(home, 'git', 'clone', '--quiet', URL, clone)
      const repo = sandbox.store.state.repos[`${OWNER}/${REPO}`]!
      const before = repo.branches.main

      // Binary too: the size is checked first, as GitHub's hook does, and the file is never read.
      await writeFile(path.join(clone, 'large.bin'), randomBytes(3 * MIB))
      await writeFile(path.join(clone, 'notes.txt'), 'x'.repeat(1.5 * MIB))
      await git('add', '.')
      await git('commit', '--quiet', '-m', 'Add large files')
      const refused = await shell.run(clone, 'git', ['push', 'origin', 'HEAD:main'])
      expect(refused.code).to.not.equal(0)
      expect(refused.stderr).to.include(
        "remote: warning: File notes.txt is 1.50 MB; this is larger than GitHub's recommended maximum file size of 1.00 MB",
      )
      expect(refused.stderr).to.include(
        "remote: error: File large.bin is 3.00 MB; this exceeds GitHub's file size limit of 2.00 MB",
      )
      expect(refused.stderr).to.include(
        'remote: error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.',
      )
      expect(refused.stderr).to.include('[remote rejected] HEAD -> main (pre-receive hook declined)')
      expect(repo.branches.main).to.equal(before)

      await git('rm', '--quiet', '--cached', 'large.bin')
      await git('commit', '--quiet', '--amend', '-m', 'Add notes')
      const taken = await shell.run(clone, 'git', ['push', 'origin', 'HEAD:main'])
      expect(taken.code, taken.stderr).to.equal(0)
      expect(taken.stderr).to.include(
        "remote: warning: File notes.txt is 1.50 MB; this is larger than GitHub's recommended maximum file size of 1.00 MB",
      )
      expect(taken.stderr).to.include(
        'remote: warning: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.',
      )
      expect(repo.branches.main).to.equal(await git('rev-parse', 'HEAD'))
      expect(repo.commits[repo.branches.main!]!.tree['notes.txt']).to.have.length(1.5 * MIB)
    } finally {
      await sandbox.close()
    }
  })

  it('ends a git request that outlasts its limit, with its git processes; the repository serves the next one', async function () {
    // Its git processes are found in /proc.
    if (!process.platform.startsWith('linux')) this.skip()
    const sandbox = await startSandbox({pushLimits: {requestTime: 1000}})
    try {
      const answer = stalledPush(sandbox)
      await gitRunning()
      // git had begun its answer: it is cut short, never a report of a push taken.
      expect(await answer).to.deep.include({status: 200, complete: false})
      expect((await answer).text).to.not.include('unpack ok')
      expect(await processesLeft()).to.deep.equal([])
      expect(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.stalled).to.equal(undefined)
      const shell = sandboxShell(sandbox, home)
      expect(await shell.ok(home, 'git', 'ls-remote', URL, 'refs/heads/main')).to.include('refs/heads/main')
    } finally {
      await sandbox.close()
    }
  })

  it('closing the sandbox during a push ends the push’s git processes and returns', async function () {
    // Its git processes are found in /proc.
    if (!process.platform.startsWith('linux')) this.skip()
    const sandbox = await startSandbox()
    const answer = stalledPush(sandbox)
    await gitRunning()
    await sandbox.close()
    expect(await processesLeft()).to.deep.equal([])
    expect(await answer).to.deep.include({complete: false})
  })
})
