// Code changes as an agent makes them, with the real `git` and `gh` in the sandbox's environment
// (ghEnv): pushes to a pull request's branch (it follows, force pushes recorded), tags and branches
// pushed and deleted, pushes the store cannot keep refused; and with gh: gh repo clone, a commit on a
// new branch, git push, gh pr create from the checked-out branch (no --head), the pull request's
// files, diff and head equal to what was pushed in gh, REST and GraphQL, gh pr checkout of it in a
// second clone (skipped, with a line saying so, where gh is missing).
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../../src/emulator/index.js'
import {whichOnPath} from '../../../src/agent/shell-tool.js'
import {sandboxShell} from '../../support/git.js'
import {OWNER, REPO, octokitFor} from '../../support/sandbox.js'

const URL = `https://github.localhost/${OWNER}/${REPO}.git`

describe('sandbox: git pushes to pull requests, tags, refusals', function () {
  this.timeout(60_000)
  let sandbox: Sandbox
  let home: string
  let clone: string
  let shell: ReturnType<typeof sandboxShell>
  const run = (...args: Parameters<typeof shell.run>) => shell.run(...args)
  const git = (...args: string[]) => shell.ok(clone, 'git', ...args)

  before(async () => {
    sandbox = await startSandbox()
    home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-git-'))
    shell = sandboxShell(sandbox, home)
    clone = path.join(home, 'clone')
    await shell.ok(home, 'git', 'clone', '--quiet', URL, clone)
  })
  after(async () => {
    await sandbox.close()
    await rm(home, {recursive: true, force: true})
  })

  async function openPull(): Promise<number> {
    await git('checkout', '--quiet', '-b', 'fix-typo')
    await writeFile(path.join(clone, 'docs.md'), '# Docs\n\nNew.\n')
    await git('add', '.')
    await git('commit', '--quiet', '-m', 'Add docs')
    await git('push', '--quiet', '-u', 'origin', 'fix-typo')
    const {data} = await octokitFor(sandbox).pulls.create({
      owner: OWNER,
      repo: REPO,
      head: 'fix-typo',
      base: 'main',
      title: 'Docs',
    })
    return data.number
  }

  it('a push to a pull request’s branch moves its head (synchronize); a force push records head_ref_force_pushed', async () => {
    const octokit = octokitFor(sandbox)
    const o = {owner: OWNER, repo: REPO}
    const pull = {number: await openPull()}
    const before = sandbox.store.state.repos[`${OWNER}/${REPO}`]!.issues[pull.number]!.updated_at
    // The store's clock has a grain of one second.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await writeFile(path.join(clone, 'docs.md'), '# Docs\n\nNewer.\n')
    await git('commit', '--quiet', '-am', 'Reword the docs')
    await git('push', '--quiet')
    const head = await git('rev-parse', 'HEAD')
    const {data: updated} = await octokit.pulls.get({...o, pull_number: pull.number})
    expect(updated.head.sha).to.equal(head)
    expect(updated.commits).to.equal(2)
    expect(updated.updated_at).to.not.equal(before)
    const timeline = (await octokit.issues.listEventsForTimeline({...o, issue_number: pull.number})).data
    expect(timeline.filter((e) => e.event === 'committed').map((e) => (e as {sha: string}).sha)).to.include(head)

    await git('commit', '--quiet', '--amend', '-m', 'Reword the docs, amended')
    await git('push', '--quiet', '--force')
    const amended = await git('rev-parse', 'HEAD')
    expect((await octokit.pulls.get({...o, pull_number: pull.number})).data.head.sha).to.equal(amended)
    const events = (await octokit.issues.listEvents({...o, issue_number: pull.number})).data
    expect(events.map((e) => e.event)).to.include('head_ref_force_pushed')
  })

  it('pushes and deletes tags and branches', async () => {
    await git('tag', 'v9.0.0')
    await git('push', '--quiet', 'origin', 'v9.0.0', 'HEAD:refs/heads/scratch')
    const repo = sandbox.store.state.repos[`${OWNER}/${REPO}`]!
    const head = await git('rev-parse', 'HEAD')
    expect(repo.tags?.['v9.0.0']).to.equal(head)
    expect(repo.branches.scratch).to.equal(head)
    await git('push', '--quiet', 'origin', ':refs/heads/scratch', ':refs/tags/v9.0.0')
    expect(repo.branches.scratch).to.equal(undefined)
    expect(repo.tags?.['v9.0.0']).to.equal(undefined)
    expect(await git('ls-remote', '--heads', 'origin', 'scratch')).to.equal('')
  })

  it('refuses what the store cannot keep, and the default branch’s deletion, changing nothing', async () => {
    const repo = sandbox.store.state.repos[`${OWNER}/${REPO}`]!
    const branch = repo.branches['fix-typo']
    await writeFile(path.join(clone, 'logo.bin'), Buffer.from([0, 1, 2, 255]))
    await git('add', 'logo.bin')
    await git('commit', '--quiet', '-m', 'Add a binary file')
    const binary = await run(clone, 'git', ['push', 'origin', 'fix-typo'])
    expect(binary.code).to.not.equal(0)
    expect(binary.stderr).to.include('logo.bin is a binary file: the sandbox keeps text (UTF-8) files only')
    expect(repo.branches['fix-typo']).to.equal(branch)
    await git('reset', '--quiet', '--hard', 'HEAD~1')
    const main = await run(clone, 'git', ['push', 'origin', ':main'])
    expect(main.stderr).to.include('refusing to delete the current branch: refs/heads/main')
  })
})

describe('sandbox: git and gh, a pull request from a push', function () {
  this.timeout(120_000)
  let sandbox: Sandbox
  let home: string

  let shell: ReturnType<typeof sandboxShell>
  const ok = (...args: Parameters<typeof shell.ok>) => shell.ok(...args)

  before(async function () {
    if (!(await whichOnPath('gh'))) {
      console.log('    (gh is not installed: the git and gh tests are skipped)')
      this.skip()
    }
    sandbox = await startSandbox()
    home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-git-gh-'))
    shell = sandboxShell(sandbox, home)
  })
  after(async () => {
    await sandbox?.close()
    if (home) await rm(home, {recursive: true, force: true})
  })

  it('gh repo clone, git push, gh pr create: the pull request is what was pushed in gh, REST and GraphQL; gh pr checkout', async () => {
    await ok(home, 'gh', 'repo', 'clone', `${OWNER}/${REPO}`, 'work')
    const work = path.join(home, 'work')
    await ok(work, 'git', 'checkout', '--quiet', '-b', 'add-notes')
    await writeFile(path.join(work, 'NOTES.md'), 'One.\nTwo.\n')
    await writeFile(path.join(work, 'README.md'), 'Rewritten.\n')
    await ok(work, 'git', 'add', '.')
    await ok(work, 'git', 'commit', '--quiet', '-m', 'Add notes')
    await ok(work, 'git', 'push', '--quiet', '-u', 'origin', 'add-notes')
    const head = await ok(work, 'git', 'rev-parse', 'HEAD')
    const url = await ok(work, 'gh', 'pr', 'create', '--title', 'Add notes', '--body', 'Notes.')
    const number = Number(url.split('/').pop())
    expect(url).to.equal(`http://github.localhost/${OWNER}/${REPO}/pull/${number}`)

    const viewed = JSON.parse(await ok(work, 'gh', 'pr', 'view', String(number), '--json', 'files,headRefOid')) as {
      files: Array<{path: string; additions: number; deletions: number}>
      headRefOid: string
    }
    expect(viewed.headRefOid).to.equal(head)
    const numstat = (await ok(work, 'git', 'diff', '--numstat', 'origin/main...HEAD'))
      .split('\n')
      .map((line) => line.split('\t'))
      .map(([additions, deletions, file]) => ({path: file, additions: Number(additions), deletions: Number(deletions)}))
    expect(viewed.files).to.deep.equal(numstat)

    const changed = (text: string) => text.split('\n').filter((line) => /^(?:[+-][^+-]|[+-]$|diff --git)/.test(line))
    const pushed = changed(await ok(work, 'git', 'diff', 'origin/main...HEAD'))
    expect(changed(await ok(work, 'gh', 'pr', 'diff', String(number)))).to.deep.equal(pushed)
    const octokit = octokitFor(sandbox)
    const rest = await octokit.pulls.get({owner: OWNER, repo: REPO, pull_number: number, mediaType: {format: 'diff'}})
    expect(changed(rest.data as unknown as string)).to.deep.equal(pushed)
    expect((await octokit.pulls.get({owner: OWNER, repo: REPO, pull_number: number})).data.head.sha).to.equal(head)
    const graphql = await octokit.graphql<{repository: {pullRequest: {headRefOid: string; changedFiles: number}}}>(
      `{repository(owner: "${OWNER}", name: "${REPO}") {pullRequest(number: ${number}) {headRefOid changedFiles}}}`,
    )
    expect(graphql.repository.pullRequest).to.deep.equal({headRefOid: head, changedFiles: 2})

    await ok(home, 'git', 'clone', '--quiet', `https://github.localhost/${OWNER}/${REPO}.git`, 'review')
    const review = path.join(home, 'review')
    await ok(review, 'gh', 'pr', 'checkout', String(number))
    expect(await ok(review, 'git', 'rev-parse', 'HEAD')).to.equal(head)
    expect(await ok(review, 'git', 'branch', '--show-current')).to.equal('add-notes')
  })
})
