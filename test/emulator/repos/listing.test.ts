// A user's repositories as gh repo list reads them (GraphQL's User.repositories), and a repository's
// contributors (the authors of its default branch's commits, most commits first).
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: repository lists and contributors', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
    await s.agent.rest.repos.createForAuthenticatedUser({name: 'agent-tools', description: 'Tools'})
    await s.agent.rest.repos.createForAuthenticatedUser({name: 'agent-notes', private: true})
  })
  after(() => s.sandbox.close())

  it('User.repositories: the owner’s repositories, by privacy, in the order asked', async () => {
    const data = await s.agent.graphql<{
      viewer: {repositories: {totalCount: number; nodes: Array<{nameWithOwner: string; isPrivate: boolean}>}}
    }>(
      'query { viewer { repositories(first: 10, ownerAffiliations: OWNER, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { nameWithOwner isPrivate } } } }',
    )
    expect(data.viewer.repositories.nodes).to.deep.equal([
      {nameWithOwner: 'ghx-bench-agent/agent-notes', isPrivate: true},
      {nameWithOwner: 'ghx-bench-agent/agent-tools', isPrivate: false},
    ])
    const publicOnly = await s.agent.graphql<{user: {repositories: {nodes: Array<{name: string}>}}}>(
      'query { user(login: "ghx-bench-agent") { repositories(first: 10, privacy: PUBLIC) { nodes { name } } } }',
    )
    expect(publicOnly.user.repositories.nodes).to.deep.equal([{name: 'agent-tools'}])
  })

  it('gh repo list', async function () {
    skipWithoutGh(this)
    const gh = await ghFor(s.sandbox)
    const mine = await gh(['repo', 'list'])
    expect(mine.code, mine.stderr).to.equal(0)
    expect(mine.stdout).to.match(/^ghx-bench-agent\/agent-tools\tTools\tpublic\t/m)
    expect(mine.stdout).to.match(/^ghx-bench-agent\/agent-notes\t\tprivate\t/m)
    const theirs = await gh(['repo', 'list', OWNER, '--json', 'nameWithOwner'])
    expect(theirs.code, theirs.stderr).to.equal(0)
    expect(JSON.parse(theirs.stdout)).to.deep.equal([{nameWithOwner: `${OWNER}/${REPO}`}])
  })

  it('GET contributors: the default branch’s commit authors with their counts', async () => {
    const before = (await s.agent.rest.repos.listContributors(base)).data
    expect(before.every((c) => typeof c.contributions === 'number' && c.contributions > 0)).to.equal(true)
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'contrib.md',
      message: 'contrib',
      content: Buffer.from('x').toString('base64'),
    })
    const after = (await s.agent.rest.repos.listContributors(base)).data
    const agent = (list: typeof after) => list.find((c) => c.login === 'ghx-bench-agent')?.contributions ?? 0
    expect(agent(after)).to.equal(agent(before) + 1)
    const counts = after.map((c) => c.contributions)
    expect(counts).to.deep.equal([...counts].sort((a, b) => b - a))
  })
})
