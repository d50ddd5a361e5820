// The sandbox target gives each run a world of its own (GitHubTarget.openRun): a copy of the sandbox from
// the state it was in, on its own port, with its own git repositories. What one run writes, the runs beside
// it and after it never see; the sandbox itself (its saved state) stays as it was.
import {execFile} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {openConfig} from '../../src/app/project.js'
import {createClient} from '../../src/github/client.js'
import {openGitHubTarget} from '../../src/github/open-target.js'
import type {GitHubTarget, RunGitHub} from '../../src/github/target.js'
import {makeProject} from '../support/cli.js'
import {sandboxConfig} from '../support/sandbox-project.js'

const run = promisify(execFile)
const repo = {owner: 'ghx-bench', repo: 'sandbox'}

describe('the sandbox target: a world per run', function () {
  this.timeout(60_000)
  let target: GitHubTarget
  const folders: string[] = []
  const openRun = async () => {
    const workdir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-world-'))
    folders.push(workdir)
    return {workdir, github: await target.openRun(workdir)}
  }
  /** The run's agent as its tools are: its own token at its own URL. */
  const agentOf = (github: RunGitHub) =>
    createClient({baseUrl: github.access.apiUrl, token: github.access.token, retries: 0}).octokit
  const titles = async (github: RunGitHub) =>
    (await agentOf(github).rest.issues.listForRepo({...repo, state: 'all', per_page: 100})).data.map((i) => i.title)

  before(async () => {
    const cwd = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    // In its own process, as when runs overlap: the worlds are made and reached over IPC.
    target = await openGitHubTarget(await openConfig({cwd}), {sandboxProcess: true})
  })
  after(async () => {
    await target.close()
    await Promise.all(folders.map((dir) => rm(dir, {recursive: true, force: true})))
  })

  it('two runs writing in parallel do not see each other’s writes; a run after them starts from the same state', async () => {
    const [a, b] = await Promise.all([openRun(), openRun()])
    expect(a.github.access.apiUrl).to.not.equal(b.github.access.apiUrl)
    expect(a.github.startsAsSeeded).to.equal(true)
    const before = await titles(a.github)
    const [madeA, madeB] = await Promise.all([
      agentOf(a.github).rest.issues.create({...repo, title: 'written by run a'}),
      agentOf(b.github).rest.issues.create({...repo, title: 'written by run b'}),
    ])
    // The same state, so the same next number: each world numbered its issue alone.
    expect(madeA.data.number).to.equal(madeB.data.number)
    expect(await titles(a.github))
      .to.include('written by run a')
      .and.not.include('written by run b')
    expect(await titles(b.github))
      .to.include('written by run b')
      .and.not.include('written by run a')
    // The harness's identities in the run's world (fixtures, checkpoints) see what the run's agent wrote.
    const seenByChecks = await a.github.agent.rest.issues.get({...repo, issue_number: madeA.data.number})
    expect(seenByChecks.data.title).to.equal('written by run a')
    await Promise.all([a.github.release(), b.github.release()])

    const c = await openRun()
    expect(await titles(c.github)).to.deep.equal(before)
    // The sandbox itself never saw them.
    const base = await target.agent.rest.issues.listForRepo({...repo, state: 'all', per_page: 100})
    expect(base.data.map((i) => i.title)).to.deep.equal(before)
    // A world that is gone answers no more.
    const gone = await agentOf(a.github)
      .rest.repos.get(repo)
      .then(
        () => 'answered',
        (error: Error) => error.message,
      )
    expect(gone).to.not.equal('answered')
    await c.github.release()
  })

  it('a push over git goes to the run’s world only, from a clone made from the sandbox’s objects', async () => {
    const [a, b] = await Promise.all([openRun(), openRun()])
    const git = (workdir: string, github: RunGitHub, ...args: string[]) =>
      run('git', args, {cwd: workdir, env: {...process.env, ...github.access.env, HOME: workdir}})
    await git(a.workdir, a.github, 'clone', '--quiet', 'https://github.localhost/ghx-bench/sandbox.git', 'clone')
    const clone = path.join(a.workdir, 'clone')
    await writeFile(path.join(clone, 'world.txt'), 'only in run a\n')
    await git(clone, a.github, 'add', 'world.txt')
    await git(clone, a.github, 'commit', '--quiet', '-m', 'a commit of run a')
    await git(clone, a.github, 'push', '--quiet', 'origin', 'HEAD:refs/heads/run-a-branch')
    const branches = async (github: RunGitHub) =>
      (await agentOf(github).rest.repos.listBranches({...repo, per_page: 100})).data.map((branch) => branch.name)
    expect(await branches(a.github)).to.include('run-a-branch')
    expect(await branches(b.github)).to.not.include('run-a-branch')
    // Run b's clone is the sandbox's main, without run a's commit.
    await git(b.workdir, b.github, 'clone', '--quiet', 'https://github.localhost/ghx-bench/sandbox.git', 'clone')
    const {stdout} = await git(path.join(b.workdir, 'clone'), b.github, 'log', '--format=%s', '--all')
    expect(stdout).to.not.include('a commit of run a')
    await Promise.all([a.github.release(), b.github.release()])
  })

  it('counts the run’s own API calls in its world', async () => {
    const a = await openRun()
    await agentOf(a.github).rest.repos.get(repo)
    await agentOf(a.github).rest.issues.listForRepo(repo)
    // The harness's own requests in the world are not the agent's.
    await a.github.agent.rest.repos.get(repo)
    const counts = await a.github.access.counts()
    expect(counts.apiCalls).to.equal(2)
    expect(counts.api).to.deep.include({source: 'sandbox', rest_requests: 2})
    await a.github.release()
  })

  it('a world opened later keeps the first world’s clock: the state it starts from is as old', async () => {
    const a = await openRun()
    const openedAt = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    const b = await openRun()
    const made = await agentOf(b.github).rest.issues.create({...repo, title: 'when'})
    // The worlds' clock began at the first world's opening (this suite's first test): never later than a's.
    expect(Date.parse(made.data.created_at)).to.be.below(openedAt)
    await Promise.all([a.github.release(), b.github.release()])
  })
})

describe('the sandbox target: faults in a run’s world', function () {
  this.timeout(30_000)

  it('hit the run’s agent only, counted for its run', async () => {
    const cwd = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const target = await openGitHubTarget(await openConfig({cwd}), {
      faults: {rules: [{route: 'repos/get', rate: 1, kind: '503'}]},
    })
    const workdir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-world-'))
    try {
      const github = await target.openRun(workdir)
      const agent = createClient({baseUrl: github.access.apiUrl, token: github.access.token, retries: 0}).octokit
      const status = await agent.rest.repos.get(repo).then(
        () => 200,
        (error: {status: number}) => error.status,
      )
      expect(status).to.equal(503)
      // The harness's identity in the same world gets no fault.
      expect((await github.agent.rest.repos.get(repo)).status).to.equal(200)
      expect((await github.access.counts()).injectedFaults).to.equal(1)
      await github.release()
    } finally {
      await target.close()
      await rm(workdir, {recursive: true, force: true})
    }
  })
})
