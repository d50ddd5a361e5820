// Merging as git merges: a pull request whose head and base changed the same lines since they parted
// conflicts (REST mergeable false / dirty, GraphQL CONFLICTING / DIRTY), and GitHub refuses to merge it
// (405) or to update its branch (422), through REST, GraphQL and gh; one whose changes do not overlap
// merges with both sides' changes, not the head's files over the base's.
import {expect} from 'chai'
import {ghFor, skipWithoutGh, type GhResult} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}
const R = `${OWNER}/${REPO}`
const LINES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight']
const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('')
const edit = (index: number, line: string) => text(LINES.map((l, i) => (i === index ? line : l)))

describe('sandbox: merge conflicts and three-way merges', function () {
  this.timeout(30_000)
  let s: Seeded
  let gh: (args: string[]) => Promise<GhResult>

  before(async () => {
    s = await seedSandbox()
    gh = await ghFor(s.sandbox)
  })
  after(() => s.sandbox.close())

  async function read(ref: string, path: string): Promise<{content: string; sha: string} | undefined> {
    try {
      const {data} = await s.agent.rest.repos.getContent({...base, path, ref})
      const file = data as {content: string; sha: string}
      return {content: Buffer.from(file.content, 'base64').toString(), sha: file.sha}
    } catch {
      return undefined
    }
  }

  async function write(branch: string, path: string, content: string): Promise<void> {
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path,
      branch,
      message: `edit ${path}`,
      content: Buffer.from(content).toString('base64'),
      sha: (await read(branch, path))?.sha,
    })
  }

  /** A pull request of `name` whose head edits `path` to `head` after main had it as LINES and then as `main`. */
  async function pullWith(name: string, head: string, main: string): Promise<number> {
    const path = `${name}.txt`
    await write('main', path, text(LINES))
    const sha = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    await s.agent.rest.git.createRef({...base, ref: `refs/heads/${name}`, sha})
    await write(name, path, head)
    await write('main', path, main)
    return (await s.agent.rest.pulls.create({...base, title: name, head: name, base: 'main'})).data.number
  }

  async function mergeState(number: number): Promise<{mergeable: string; mergeStateStatus: string}> {
    const data = await s.agent.graphql<{repository: {pullRequest: {mergeable: string; mergeStateStatus: string}}}>(
      `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") { pullRequest(number: $n) { mergeable mergeStateStatus } } }`,
      {n: number},
    )
    return data.repository.pullRequest
  }

  it('a pull request that changed the lines its base changed is CONFLICTING / dirty, and is not merged', async () => {
    const number = await pullWith('conflicting', edit(1, 'TWO from head'), edit(1, 'TWO from main'))
    const pull = (await s.agent.rest.pulls.get({...base, pull_number: number})).data
    expect(pull).to.deep.include({mergeable: false, mergeable_state: 'dirty', rebaseable: false})
    expect(await mergeState(number)).to.deep.equal({mergeable: 'CONFLICTING', mergeStateStatus: 'DIRTY'})
    const mainBefore = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha

    const refused = await failure(s.agent.rest.pulls.merge({...base, pull_number: number}))
    expect(refused).to.deep.equal({
      status: 405,
      message: 'Pull Request is not mergeable',
      documentation_url: 'https://docs.github.com/rest',
    })
    const graphql = await s.agent
      .graphql('mutation($id: ID!) { mergePullRequest(input: {pullRequestId: $id}) { pullRequest { merged } } }', {
        id: pull.node_id,
      })
      .then(
        () => expect.fail('expected a failure'),
        (e: {errors: Array<{message: string}>}) => e.errors,
      )
    expect(graphql[0]!.message).to.equal('Pull Request is not mergeable')
    const updated = await failure(s.agent.rest.pulls.updateBranch({...base, pull_number: number}))
    expect(updated).to.deep.include({status: 422, message: 'merge conflict between base and head'})

    expect((await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha).to.equal(mainBefore)
    expect((await s.agent.rest.pulls.get({...base, pull_number: number})).data).to.deep.include({
      merged: false,
      state: 'open',
    })
  })

  it('gh pr merge refuses a conflicting pull request', async function () {
    skipWithoutGh(this)
    const number = await pullWith('conflicting-gh', edit(7, 'EIGHT from head'), edit(7, 'EIGHT from main'))
    const result = await gh(['pr', 'merge', String(number), '--merge', '-R', R])
    expect(result.code).to.not.equal(0)
    expect(result.stderr).to.include(
      `Pull request #${number} is not mergeable: the merge commit cannot be cleanly created.`,
    )
    expect((await s.agent.rest.pulls.get({...base, pull_number: number})).data.merged).to.equal(false)
  })

  it('edits of different lines of one file merge cleanly, keeping the base’s changes', async () => {
    const number = await pullWith('clean', edit(0, 'ONE from head'), edit(7, 'EIGHT from main'))
    expect((await s.agent.rest.pulls.get({...base, pull_number: number})).data).to.deep.include({
      mergeable: true,
      mergeable_state: 'clean',
    })
    expect(await mergeState(number)).to.deep.equal({mergeable: 'MERGEABLE', mergeStateStatus: 'CLEAN'})
    const merged = await s.agent.rest.pulls.merge({...base, pull_number: number, merge_method: 'squash'})
    expect(merged.data.merged).to.equal(true)
    const expected = text(LINES.map((l, i) => (i === 0 ? 'ONE from head' : i === 7 ? 'EIGHT from main' : l)))
    expect((await read('main', 'clean.txt'))?.content).to.equal(expected)
  })

  it('a branch update merges the base’s changes into the head, both kept', async () => {
    const number = await pullWith('update', edit(0, 'ONE from head'), edit(7, 'EIGHT from main'))
    await s.agent.rest.pulls.updateBranch({...base, pull_number: number})
    const expected = text(LINES.map((l, i) => (i === 0 ? 'ONE from head' : i === 7 ? 'EIGHT from main' : l)))
    expect((await read('update', 'update.txt'))?.content).to.equal(expected)
    const head = (await s.agent.rest.git.getRef({...base, ref: 'heads/update'})).data.object.sha
    expect((await s.agent.rest.git.getCommit({...base, commit_sha: head})).data.parents).to.have.length(2)
  })

  it('gh pr merge merges a clean pull request', async function () {
    skipWithoutGh(this)
    const number = await pullWith('clean-gh', edit(2, 'THREE from head'), edit(5, 'SIX from main'))
    const result = await gh(['pr', 'merge', String(number), '--merge', '-R', R])
    expect(result.code, result.stderr).to.equal(0)
    const expected = text(LINES.map((l, i) => (i === 2 ? 'THREE from head' : i === 5 ? 'SIX from main' : l)))
    expect((await read('main', 'clean-gh.txt'))?.content).to.equal(expected)
  })
})
