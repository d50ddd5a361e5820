// Updating a pull request through REST as GitHub answers it: a merged pull request, or one whose head
// branch is gone, is not reopened (422, nothing changes); a closed one's base cannot change (the error
// live GitHub gave a PATCH with state=open and base together); an open one's title, state and base can.
import {expect} from 'chai'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: updating a pull request (REST)', function () {
  this.timeout(60_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  /** A pull request from a new branch with one file changed. */
  async function openPull(branch: string): Promise<number> {
    const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
    await s.agent.rest.git.createRef({...base, ref: `refs/heads/${branch}`, sha: main.data.object.sha})
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: `${branch}.txt`,
      message: branch,
      content: Buffer.from(`${branch}\n`).toString('base64'),
      branch,
    })
    return (await s.agent.rest.pulls.create({...base, title: branch, head: branch, base: 'main'})).data.number
  }

  it('changes an open pull request’s title, closes and reopens it', async () => {
    const number = await openPull('update-open')
    const renamed = await s.agent.rest.pulls.update({...base, pull_number: number, title: 'Renamed'})
    expect(renamed.data).to.deep.include({title: 'Renamed', state: 'open'})
    expect((await s.agent.rest.pulls.update({...base, pull_number: number, state: 'closed'})).data.state).to.equal(
      'closed',
    )
    expect((await s.agent.rest.pulls.update({...base, pull_number: number, state: 'open'})).data.state).to.equal('open')
  })

  it('does not reopen a merged pull request: 422, and it stays merged and closed', async () => {
    const number = await openPull('update-merged')
    await s.agent.rest.pulls.merge({...base, pull_number: number})
    const refused = await failure(s.agent.rest.pulls.update({...base, pull_number: number, state: 'open'}))
    expect(refused).to.deep.include({status: 422, message: 'Validation Failed'})
    expect(refused.errors).to.deep.equal([
      {
        resource: 'PullRequest',
        code: 'custom',
        field: 'state',
        message: 'state cannot be changed. The pull request cannot be reopened.',
      },
    ])
    const after = (await s.agent.rest.pulls.get({...base, pull_number: number})).data
    expect(after).to.deep.include({state: 'closed', merged: true})
  })

  it('does not reopen a closed pull request whose head branch is gone', async () => {
    const number = await openPull('update-gone')
    await s.agent.rest.pulls.update({...base, pull_number: number, state: 'closed'})
    await s.agent.rest.git.deleteRef({...base, ref: 'heads/update-gone'})
    const refused = await failure(s.agent.rest.pulls.update({...base, pull_number: number, state: 'open'}))
    expect(refused.status).to.equal(422)
    expect((await s.agent.rest.pulls.get({...base, pull_number: number})).data.state).to.equal('closed')
  })

  it('does not change a closed pull request’s base, even with state=open beside it', async () => {
    const number = await openPull('update-base')
    const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/other-base', sha: main.data.object.sha})
    await s.agent.rest.pulls.update({...base, pull_number: number, state: 'closed'})
    const refused = await failure(
      s.agent.rest.pulls.update({...base, pull_number: number, state: 'open', base: 'other-base'}),
    )
    expect(refused).to.deep.include({status: 422, message: 'Validation Failed'})
    expect(refused.errors).to.deep.equal([
      {
        message: 'Cannot change the base branch of a closed pull request.',
        resource: 'PullRequest',
        field: 'base',
        code: 'invalid',
      },
    ])
    const after = (await s.agent.rest.pulls.get({...base, pull_number: number})).data
    expect(after.state).to.equal('closed')
    expect(after.base.ref).to.equal('main')
    // Open, the same change goes through.
    await s.agent.rest.pulls.update({...base, pull_number: number, state: 'open'})
    expect(
      (await s.agent.rest.pulls.update({...base, pull_number: number, base: 'other-base'})).data.base.ref,
    ).to.equal('other-base')
  })
})
