// Git over smart HTTP on the sandbox with the real `git`, configured by the sandbox's own environment
// (ghEnv: gh's https clone URLs over http through the sandbox as proxy, the token from a credential
// helper): clone with the store's ids, push a branch and open a pull request of it, credentials, and
// the repositories on disk gone when the sandbox closes. Pushes to a pull request's branch, tags and
// refusals: git-http.e2e.test.ts.
import {existsSync, readdirSync} from 'node:fs'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../../src/emulator/index.js'
import {sandboxShell} from '../../support/git.js'
import {OWNER, REPO, octokitFor} from '../../support/sandbox.js'

const URL = `https://github.localhost/${OWNER}/${REPO}.git`

describe('sandbox: git over smart HTTP', function () {
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

  it('clones with the store’s own commit ids (git checks every object it receives)', async () => {
    const repo = sandbox.store.state.repos[`${OWNER}/${REPO}`]!
    expect(await git('rev-parse', 'HEAD')).to.equal(repo.branches[repo.default_branch])
    expect(await git('fsck', '--strict')).to.equal('')
    const readme = await git('show', 'HEAD:README.md')
    expect(readme).to.equal(repo.commits[repo.branches.main!]!.tree['README.md']!.trim())
  })

  it('pushes a new branch; a pull request of it has the pushed files, diff and head in REST and GraphQL', async () => {
    await git('checkout', '--quiet', '-b', 'fix-typo')
    await writeFile(path.join(clone, 'README.md'), 'Fixed\n')
    await writeFile(path.join(clone, 'docs.md'), '# Docs\n\nNew.\n')
    await git('add', '.')
    await git('commit', '--quiet', '-m', 'Fix the typo\n\nAnd add docs.')
    await git('push', '--quiet', '-u', 'origin', 'fix-typo')
    const head = await git('rev-parse', 'HEAD')
    const octokit = octokitFor(sandbox)
    const o = {owner: OWNER, repo: REPO}
    const {data: pull} = await octokit.pulls.create({...o, head: 'fix-typo', base: 'main', title: 'Fix'})
    expect(pull.head.sha).to.equal(head)
    const {data: files} = await octokit.pulls.listFiles({...o, pull_number: pull.number})
    expect(files.map((f) => [f.filename, f.status])).to.deep.equal([
      ['README.md', 'modified'],
      ['docs.md', 'added'],
    ])
    const {data: commits} = await octokit.pulls.listCommits({...o, pull_number: pull.number})
    expect(commits.map((c) => [c.sha, c.commit.message, c.commit.author?.name])).to.deep.equal([
      [head, 'Fix the typo\n\nAnd add docs.', 'ghx-bench-agent'],
    ])
    const diff = (await octokit.pulls.get({...o, pull_number: pull.number, mediaType: {format: 'diff'}}))
      .data as unknown as string
    expect(diff).to.include('+++ b/docs.md\n@@ -0,0 +1,3 @@\n+# Docs\n+\n+New.\n')
    const gitDiff = await git('diff', 'origin/main...fix-typo')
    const changed = (text: string) => text.split('\n').filter((line) => /^[+-][^+-]/.test(line))
    expect(changed(diff)).to.deep.equal(changed(gitDiff))
    const graphql = await octokit.graphql<{
      repository: {pullRequest: {headRefOid: string; files: {nodes: Array<{path: string; additions: number}>}}}
    }>(`{repository(owner: "${OWNER}", name: "${REPO}") {pullRequest(number: ${pull.number}) {
      headRefOid files(first: 10) {nodes {path additions}}}}}`)
    expect(graphql.repository.pullRequest.headRefOid).to.equal(head)
    expect(graphql.repository.pullRequest.files.nodes).to.deep.equal([
      {path: 'README.md', additions: 1},
      {path: 'docs.md', additions: 3},
    ])
  })

  it('asks for credentials to push: 401 without a token or with one the sandbox does not know; the helper gives the environment’s token', async () => {
    const noHelper = {GIT_CONFIG_KEY_2: 'credential.http://github.localhost.helper', GIT_CONFIG_VALUE_2: ''}
    const anonymous = await run(clone, 'git', ['push', 'origin', 'HEAD:refs/heads/anonymous'], noHelper)
    expect(anonymous.code).to.not.equal(0)
    expect(anonymous.stderr).to.match(/could not read Username|Authentication failed/)
    const bad = await run(clone, 'git', ['push', 'origin', 'HEAD:refs/heads/bad'], {
      GIT_CONFIG_VALUE_2: '!f() { echo username=x-access-token; echo password=ghs_not_a_token; }; f',
    })
    expect(bad.code).to.not.equal(0)
    expect(bad.stderr).to.include('Authentication failed')
    expect(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.anonymous).to.equal(undefined)
    // The credential helper answers with the token the environment was made for (a run's own).
    const fill = (env: Record<string, string> = {}) =>
      run(clone, 'sh', ['-c', 'printf "protocol=http\\nhost=github.localhost\\n\\n" | git credential fill'], env)
    expect((await fill()).stdout).to.include(`password=${sandbox.token}\n`)
    sandbox.store.addToken('ghs_run_token', 'ghx-bench-agent')
    expect((await fill(sandbox.ghEnv(path.join(home, 'gh'), 'ghs_run_token'))).stdout).to.include(
      'username=x-access-token\npassword=ghs_run_token\n',
    )
    // Fetching a public repository needs none.
    const fetched = await run(clone, 'git', ['ls-remote', URL], noHelper)
    expect(fetched.code, fetched.stderr).to.equal(0)
  })

  it('removes the bare repositories when the sandbox closes', async () => {
    const other = await startSandbox()
    const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('ghx-sandbox-git-')))
    const response = await fetch(`${other.url}/${OWNER}/${REPO}.git/info/refs?service=git-upload-pack`)
    expect(response.status).to.equal(200)
    await response.arrayBuffer()
    const made = readdirSync(tmpdir()).filter((name) => name.startsWith('ghx-sandbox-git-') && !before.has(name))
    expect(made).to.have.length(1)
    expect(existsSync(path.join(tmpdir(), made[0]!, OWNER, `${REPO}.git`, 'HEAD'))).to.equal(true)
    await other.close()
    expect(existsSync(path.join(tmpdir(), made[0]!))).to.equal(false)
  })
})
