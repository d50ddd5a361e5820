// Reading a repository's files through GraphQL, as agents do: Repository.object(expression:) of
// `rev:path` answers a Blob's text or a Tree's entries, a bare revision a Commit, a path or revision
// that does not exist null (as GitHub answers), and object(oid:) the object of that id.
import {expect} from 'chai'
import {blobSha} from '../../../src/emulator/core/git-objects.js'
import {BUGGY_FILE, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

describe('sandbox: git objects through GraphQL', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  const object = async (args: string) =>
    (
      await s.agent.graphql<{repository: {object: Record<string, unknown> | null}}>(
        `query { repository(owner: "${OWNER}", name: "${REPO}") { object(${args}) { __typename oid ... on Blob { text byteSize isBinary } ... on Tree { entries { name path type mode oid } } ... on Commit { messageHeadline } } } }`,
      )
    ).repository.object

  it('a file’s text, a directory’s entries, a commit; null where nothing is', async () => {
    const file = await object('expression: "bench-bugs:src/utils/stats.ts"')
    expect(file).to.deep.equal({
      __typename: 'Blob',
      oid: blobSha(BUGGY_FILE),
      text: BUGGY_FILE,
      byteSize: Buffer.byteLength(BUGGY_FILE),
      isBinary: false,
    })
    const dir = await object('expression: "bench-bugs:src/utils"')
    expect(dir).to.deep.include({__typename: 'Tree'})
    expect(dir!.entries).to.deep.equal([
      {name: 'stats.ts', path: 'src/utils/stats.ts', type: 'blob', mode: 33188, oid: blobSha(BUGGY_FILE)},
    ])
    const root = await object('expression: "HEAD:"')
    expect(
      (root!.entries as Array<{name: string; type: string}>).some((e) => e.name === '.github' && e.type === 'tree'),
    ).to.equal(true)
    expect(await object(`expression: "${s.prHeadSha}"`)).to.deep.include({__typename: 'Commit', oid: s.prHeadSha})
    expect(await object('expression: "main:no/such/file"')).to.equal(null)
    expect(await object('expression: "no-such-branch:README.md"')).to.equal(null)
    expect(await object(`oid: "${blobSha(BUGGY_FILE)}"`)).to.deep.include({__typename: 'Blob', text: BUGGY_FILE})
  })
})
