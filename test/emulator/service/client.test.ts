import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {createClient} from '../../../src/github/client.js'
import {startSandboxService, type SandboxService} from '../../../src/emulator/service/client.js'
import {BadInputError} from '../../../src/shared/diagnostics.js'
import {Store} from '../../../src/emulator/store.js'
import {createFixtureRepo} from '../../../src/emulator/defaults.js'

describe('the sandbox in its own process (emulator/service)', () => {
  let dir: string
  let sandbox: SandboxService
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-service-'))
    sandbox = await startSandboxService({
      statePath: path.join(dir, 'sandbox.json'),
      repos: ['ghx-bench/sandbox'],
      repo: 'ghx-bench/sandbox',
    })
  })
  after(async () => {
    await sandbox.stop().catch(() => {})
    await rm(dir, {recursive: true, force: true})
  })

  it('serves the emulator on loopback, with the fixture repository made and its default branch told', async () => {
    expect(sandbox.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.defaultBranch).to.equal('main')
    expect(sandbox.repos).to.deep.equal(['ghx-bench/sandbox'])
    const {octokit} = createClient({baseUrl: sandbox.url, token: sandbox.token, retries: 0})
    const {data} = await octokit.rest.repos.get({owner: 'ghx-bench', repo: 'sandbox'})
    expect(data.default_branch).to.equal('main')
  })

  it('counts an agent token’s requests, scopes faults to agent tokens, and forgets the token on release', async () => {
    const token = 'ghs_runservicetest0001'
    const env = await sandbox.addAgentToken(token, path.join(dir, 'gh-config'))
    // The environment that points gh at the sandbox as the run's token, which gh's config holds for the sandbox host.
    expect(env).to.include({
      GH_HOST: 'github.localhost',
      GH_TOKEN: '',
      HTTP_PROXY: sandbox.url,
      GH_CONFIG_DIR: path.join(dir, 'gh-config'),
    })
    expect(await readFile(path.join(dir, 'gh-config', 'hosts.yml'), 'utf8')).to.include(`oauth_token: ${token}\n`)
    await sandbox.configureFaults({seed: 1, rules: [{route: '*', rate: 1, kind: '503'}]})
    try {
      const agent = createClient({baseUrl: sandbox.url, token, retries: 0}).octokit
      const harness = createClient({baseUrl: sandbox.url, token: sandbox.token, retries: 0}).octokit
      // Every request of the agent's token is faulted; the harness's own token never is.
      const faulted = await agent.rest.repos.get({owner: 'ghx-bench', repo: 'sandbox'}).then(
        () => 0,
        (error: {status: number}) => error.status,
      )
      expect(faulted).to.equal(503)
      await harness.rest.repos.get({owner: 'ghx-bench', repo: 'sandbox'})
      expect(await sandbox.tokenCounts(token)).to.deep.include({requests: 1, faults: 1})
      // The faulted request was charged (the minimum); the harness's own is not the agent's.
      expect((await sandbox.tokenCounts(token)).cost).to.deep.include({rest_requests: 1, graphql_points: 0})
    } finally {
      await sandbox.configureFaults(undefined)
    }
    const agent = createClient({baseUrl: sandbox.url, token, retries: 0}).octokit
    await agent.rest.repos.get({owner: 'ghx-bench', repo: 'sandbox'})
    expect((await sandbox.tokenCounts(token)).requests).to.equal(2)
    await sandbox.releaseToken(token)
    expect(await sandbox.tokenCounts(token)).to.deep.include({requests: 0, faults: 0})
    expect((await sandbox.tokenCounts(token)).cost).to.deep.include({rest_requests: 0, graphql_requests: 0})
    const refused = await agent.rest.repos.get({owner: 'ghx-bench', repo: 'sandbox'}).then(
      () => 200,
      (error: {status: number}) => error.status,
    )
    expect(refused).to.equal(401)
  })

  it('saves and restores the whole state (mutation testing undoes each perturbation)', async () => {
    const {octokit} = createClient({baseUrl: sandbox.url, token: sandbox.token, retries: 0})
    const saved = await sandbox.saveState()
    const created = await octokit.rest.issues.create({
      owner: 'ghx-bench',
      repo: 'sandbox',
      title: 'made after the save',
    })
    await sandbox.restoreState(saved)
    const gone = await octokit.rest.issues
      .get({owner: 'ghx-bench', repo: 'sandbox', issue_number: created.data.number})
      .then(
        () => 200,
        (error: {status: number}) => error.status,
      )
    expect(gone).to.equal(404)
    await sandbox.forgetState(saved)
    const error = await sandbox.restoreState(saved).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).to.equal(`no saved sandbox state ${saved}`)
  })

  it('writes its state file when stopped, and a call after that is refused', async () => {
    const {octokit} = createClient({baseUrl: sandbox.url, token: sandbox.token, retries: 0})
    const issue = await octokit.rest.issues.create({
      owner: 'ghx-bench',
      repo: 'sandbox',
      title: 'kept in the state file',
    })
    await sandbox.stop()
    const state = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8')) as {
      repos: Record<string, {issues: Record<string, {title: string}>}>
    }
    expect(JSON.stringify(state)).to.include('kept in the state file')
    expect(issue.data.number).to.be.a('number')
    const error = await sandbox.tokenCounts('ghs_x').then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).to.match(/the sandbox process stopped/)
  })

  /** The service on the fixture repository with a state file. */
  const startWithState = (file: string) =>
    startSandboxService({statePath: file, repos: ['ghx-bench/sandbox'], repo: 'ghx-bench/sandbox'})

  it('a state file that is not one is bad input naming the file, from the service process', async () => {
    const file = path.join(dir, 'broken.json')
    await writeFile(file, '{"version": 2}')
    const error = await startWithState(file).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error).to.be.instanceOf(BadInputError)
    expect((error as BadInputError).diagnostics[0]).to.include({file})
    expect((error as BadInputError).diagnostics[0]!.message).to.match(
      /^not a sandbox state file \(version 1\): no "version": 1/,
    )
  })

  it('a state saved by an older ghx-bench (a commit id that is not its git object’s) is bad input, not clones that fail', async () => {
    const store = new Store()
    createFixtureRepo(store, 'ghx-bench/sandbox')
    const file = path.join(dir, 'older.json')
    await writeFile(file, JSON.stringify(store.state))
    // The fresh state loads: every commit's id is its object's.
    const service = await startWithState(file)
    await service.stop()
    const older = structuredClone(store.state)
    const commits = older.repos['ghx-bench/sandbox']!.commits
    const [sha, commit] = Object.entries(commits)[0]!
    commits[sha] = {...commit, message: `${commit.message} (as an older version wrote it)`}
    await writeFile(file, JSON.stringify(older))
    const error = await startWithState(file).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error).to.be.instanceOf(BadInputError)
    expect((error as BadInputError).diagnostics[0]!.message).to.include(
      `commit ${sha} of ghx-bench/sandbox is not its git object's id`,
    )
  })
})
