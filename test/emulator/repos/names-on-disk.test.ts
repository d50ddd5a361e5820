// The sandbox writes only inside its own folder: every name a client chooses that ends up in a path
// on disk (refs, branches, tags, a release's tag, a repository's name) or in a tree (a file's path) is
// one git and GitHub take, refused as GitHub refuses it otherwise. Each case aims a name at a path
// outside the sandbox's folder, lets git read the repository (which brings it in step with the store,
// writing its ref files), and checks that nothing appeared there.
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import type {Octokit} from '@octokit/rest'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../../src/emulator/index.js'
import {sandboxShell} from '../../support/git.js'
import {failure, octokitFor, OWNER, REPO} from '../../support/sandbox.js'
import {push, pushBody} from '../http/git-wire.js'

const base = {owner: OWNER, repo: REPO}
const b64 = (text: string) => Buffer.from(text).toString('base64')

describe('sandbox: names from clients never lead outside its folder', function () {
  this.timeout(30_000)
  let sandbox: Sandbox
  let octokit: Octokit
  let head: string
  let count = 0

  /** A path outside the sandbox's folder (beside it, in this process's temporary folder), not there yet. */
  const outside = () => {
    const target = path.join(tmpdir(), `outside-${process.pid}-${++count}`)
    expect(existsSync(target)).to.equal(false)
    return target
  }
  /** A relative name that climbs from any folder to `target`. */
  const climb = (target: string) => `${'../'.repeat(24)}${target.replace(/^\//, '')}`
  /** A repository name that would climb from its owner's folder (in the sandbox's) to `target` (beside it). */
  const climbFromOwner = (target: string) => `../../${path.basename(target)}`

  /** Git reads the repository: the sandbox writes its refs to disk first. */
  async function gitReads(fullName = `${OWNER}/${REPO}`): Promise<void> {
    const response = await fetch(`${sandbox.url}/${fullName}.git/info/refs?service=git-upload-pack`, {
      headers: {authorization: `token ${sandbox.token}`},
    })
    await response.arrayBuffer()
    expect(response.status).to.equal(200)
  }

  const request = (method: string, route: string, body?: unknown) =>
    fetch(`${sandbox.url}${route}`, {
      method,
      headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
      ...(body === undefined ? {} : {body: JSON.stringify(body)}),
    }).then(async (response) => ({status: response.status, body: (await response.json()) as Record<string, unknown>}))

  before(async () => {
    sandbox = await startSandbox()
    octokit = octokitFor(sandbox)
    head = sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main!
  })
  after(() => sandbox.close())

  it('POST git/refs: a ref name git refuses is 422 "Reference name invalid"; a good one is made', async () => {
    const target = outside()
    const invalid = [
      `refs/heads/${climb(target)}`,
      `refs/tags/${climb(target)}`,
      'refs/heads/a..b',
      'refs/heads/.hidden',
      'refs/heads/x.lock',
      'refs/heads/with space',
      'refs/heads/a@{1}',
      'refs/heads/trailing.',
      'refs/heads/colon:x',
      'refs/heads/back\\slash',
      'refs/heads/dir/',
    ]
    for (const ref of invalid) {
      const refused = await failure(octokit.rest.git.createRef({...base, ref, sha: head}))
      expect([ref, refused.status, refused.message]).to.deep.equal([ref, 422, 'Reference name invalid'])
    }
    await gitReads()
    expect(existsSync(target)).to.equal(false)
    const made = await octokit.rest.git.createRef({...base, ref: 'refs/heads/feature/ok-name', sha: head})
    expect(made.data.ref).to.equal('refs/heads/feature/ok-name')
    await gitReads()
  })

  it('PATCH git/refs/{ref}: 422 "Reference name invalid" for a name git refuses', async () => {
    const target = outside()
    const refused = await failure(
      octokit.rest.git.updateRef({...base, ref: `heads/${climb(target)}`, sha: head, force: true}),
    )
    expect([refused.status, refused.message]).to.deep.equal([422, 'Reference name invalid'])
    await gitReads()
    expect(existsSync(target)).to.equal(false)
  })

  it('releases: a tag_name git refuses is 422 Validation Failed (Release, tag_name, invalid) on create and update', async () => {
    const target = outside()
    const invalidTag = {
      status: 422,
      message: 'Validation Failed',
      errors: [{resource: 'Release', code: 'invalid', field: 'tag_name'}],
    }
    for (const draft of [false, true]) {
      const refused = await failure(octokit.rest.repos.createRelease({...base, tag_name: climb(target), draft}))
      expect(refused).to.deep.include(invalidTag)
    }
    const release = await octokit.rest.repos.createRelease({...base, tag_name: 'v1.0.0-names'})
    for (const tag of [climb(target), 'v1..0', '']) {
      const refused = await failure(
        octokit.rest.repos.updateRelease({...base, release_id: release.data.id, tag_name: tag}),
      )
      expect(refused).to.deep.include(invalidTag)
    }
    expect((await octokit.rest.repos.getRelease({...base, release_id: release.data.id})).data.tag_name).to.equal(
      'v1.0.0-names',
    )
    await gitReads()
    expect(existsSync(target)).to.equal(false)
  })

  it('branches: renaming one is not modelled (501), so no name reaches the disk that way', async () => {
    const target = outside()
    const refused = await request('POST', `/repos/${OWNER}/${REPO}/branches/main/rename`, {new_name: climb(target)})
    expect(refused.status).to.equal(501)
    await gitReads()
    expect(existsSync(target)).to.equal(false)
  })

  it('contents and git/trees: a path with `..`, `.git` or an empty component is 422, as GitHub words it', async () => {
    const malformed = {
      status: 422,
      body: {
        message: 'path contains a malformed path component',
        errors: [{resource: 'Commit', field: 'path', code: 'invalid'}],
      },
    }
    // Encoded slashes: the request's path keeps `..` as the file path's own components.
    for (const encoded of [
      '..%2F..%2Fescape.txt',
      'docs%2F..%2F..%2Fescape.txt',
      '.git%2Fconfig',
      '.GIT%2Fhooks%2Fpost-checkout',
    ]) {
      const put = await request('PUT', `/repos/${OWNER}/${REPO}/contents/${encoded}`, {message: 'm', content: b64('x')})
      expect(put).to.deep.include({status: malformed.status})
      expect(put.body).to.deep.include(malformed.body)
      const del = await request('DELETE', `/repos/${OWNER}/${REPO}/contents/${encoded}`, {message: 'm', sha: head})
      expect(del.status).to.equal(422)
    }
    const tree = await request('POST', `/repos/${OWNER}/${REPO}/git/trees`, {
      base_tree: head,
      tree: [{path: 'docs/../../escape.txt', mode: '100644', type: 'blob', content: 'x'}],
    })
    expect(tree).to.deep.include({status: 422})
    expect(tree.body.message).to.equal('tree.path contains a malformed path component')
    const files = Object.keys(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.commits[head]!.tree)
    expect(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main).to.equal(head)
    expect(
      files.some((file) => file.split('/').some((part) => part === '..' || part.toLowerCase() === '.git')),
    ).to.equal(false)
  })

  it('repositories: `.`, `..` and `.git` are reserved (422); a `.git` suffix is dropped; other characters become `-`', async () => {
    for (const name of ['.', '..', '.git', '...git']) {
      const refused = await failure(octokit.rest.repos.createForAuthenticatedUser({name}))
      expect(refused.status).to.equal(422)
      expect(refused.errors).to.deep.equal([
        {resource: 'Repository', field: 'name', code: 'invalid', message: `The repository ${name} is reserved`},
      ])
    }
    expect((await octokit.rest.repos.createForAuthenticatedUser({name: 'tools.git'})).data.full_name).to.equal(
      'ghx-bench-agent/tools',
    )
    const target = outside()
    const climbing = await octokit.rest.repos.createForAuthenticatedUser({
      name: climbFromOwner(target),
      auto_init: true,
    })
    expect(climbing.data.name).to.match(/^[A-Za-z0-9._-]+$/)
    await gitReads(climbing.data.full_name)
    expect(existsSync(`${target}.git`)).to.equal(false)
  })

  it('repositories through GraphQL and forks: the same names, the same refusals', async () => {
    const target = outside()
    const created = await octokit.graphql<{createRepository: {repository: {name: string}}}>(
      `mutation($name: String!) {createRepository(input: {name: $name, visibility: PUBLIC}) {repository {name}}}`,
      {name: climbFromOwner(target)},
    )
    expect(created.createRepository.repository.name).to.match(/^[A-Za-z0-9._-]+$/)
    const reserved = await octokit
      .graphql(`mutation {createRepository(input: {name: "..", visibility: PUBLIC}) {repository {name}}}`)
      .then(
        () => expect.fail('expected a refusal'),
        (error: {errors: Array<{type: string; message: string}>}) => error.errors[0],
      )
    expect(reserved).to.deep.include({type: 'UNPROCESSABLE', message: 'The repository .. is reserved'})
    // A fork is another user's: the reviewer forks the agent's repository.
    const reviewer = octokitFor(sandbox, sandbox.reviewerToken)
    const refused = await failure(reviewer.rest.repos.createFork({...base, name: '..'}))
    expect(refused.status).to.equal(422)
    const fork = await reviewer.rest.repos.createFork({...base, name: climbFromOwner(target)})
    expect(fork.data.name).to.match(/^[A-Za-z0-9._-]+$/)
    await gitReads(fork.data.full_name)
    expect(existsSync(`${target}.git`)).to.equal(false)
  })

  it('git push: a ref name git refuses is refused (git itself, or the sandbox’s hook) and never stored', async () => {
    const target = outside()
    const ref = `refs/heads/${climb(target)}`
    // By hand, as git would never send it: receive-pack asks the pre-receive hook before it checks names.
    const answer = await push(sandbox.url, sandbox.token, `${OWNER}/${REPO}`, pushBody([{new: head, ref}]))
    expect(answer.status).to.equal(200)
    expect(answer.text).to.include(`ng ${ref} pre-receive hook declined`)
    expect(Object.keys(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches)).to.not.include(climb(target))
    await gitReads()
    expect(existsSync(target)).to.equal(false)

    // The real client refuses such a refspec before it connects.
    const home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-names-'))
    try {
      const shell = sandboxShell(sandbox, home)
      const clone = path.join(home, 'clone')
      await shell.ok(home, 'git', 'clone', '--quiet', `https://github.localhost/${OWNER}/${REPO}.git`, clone)
      const refused = await shell.run(clone, 'git', ['push', 'origin', `HEAD:${ref}`])
      expect(refused.code).to.not.equal(0)
      expect(refused.stderr).to.include('invalid refspec')
      // A tree naming `..` (git mktree takes it) is refused by git's fsck on the sandbox's side, as GitHub's is.
      const blob = await shell.ok(clone, 'sh', '-c', 'echo escape | git hash-object -w --stdin')
      const tree = await shell.ok(clone, 'sh', '-c', `printf '100644 blob ${blob}\\t..\\n' | git mktree`)
      const commit = await shell.ok(clone, 'git', 'commit-tree', tree, '-p', 'HEAD', '-m', 'Dot-dot')
      const dotdot = await shell.run(clone, 'git', ['push', 'origin', `${commit}:refs/heads/dotdot`])
      expect(dotdot.code).to.not.equal(0)
      expect(dotdot.stderr).to.match(/hasDotdot|contains '\.\.'/)
      expect(sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.dotdot).to.equal(undefined)
    } finally {
      await rm(home, {recursive: true, force: true})
    }
  })

  it('a state file (written elsewhere) naming a ref that climbs out: served without that ref, nothing written', async () => {
    const target = outside()
    const state = structuredClone(sandbox.store.state)
    state.repos[`${OWNER}/${REPO}`]!.branches[climb(target)] = head
    state.repos[`${OWNER}/${REPO}`]!.tags = {[climb(`${target}-tag`)]: head}
    const restored = await startSandbox({state})
    try {
      const listed = await promisify(execFile)('git', ['ls-remote', `${restored.url}/${OWNER}/${REPO}.git`], {
        env: {PATH: process.env.PATH ?? '', HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1'},
      })
      expect(listed.stdout).to.include('refs/heads/main')
      expect(listed.stdout).to.not.include('..')
      expect(existsSync(target)).to.equal(false)
      expect(existsSync(`${target}-tag`)).to.equal(false)
    } finally {
      await restored.close()
    }
  })
})
