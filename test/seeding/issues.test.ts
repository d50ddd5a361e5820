// Issue fixtures on the sandbox: seeding is idempotent, status notices every change, and reset
// restores exactly the seeded state (mutate, reset, compare).
import {expect} from 'chai'
import type {FixtureContext} from '../../src/seeding/context.js'
import {ISSUE_KIND_NAMES, issueStatus, resetIssue, seedIssue} from '../../src/seeding/issues.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {fixtureContext, OWNER, REPO} from '../support/sandbox.js'

describe('issue fixtures', () => {
  let sandbox: Sandbox
  let ctx: FixtureContext

  before(async () => {
    sandbox = await startSandbox()
    ctx = fixtureContext(sandbox)
  })
  after(() => sandbox.close())

  for (const kind of ISSUE_KIND_NAMES) {
    it(`${kind}: seeds once, reuses on a second seeding, resets what an agent changed`, async () => {
      const first = await seedIssue(ctx, kind)
      const second = await seedIssue(ctx, kind)
      expect(second.number).to.equal(first.number)
      expect(await issueStatus(ctx, first)).to.deep.equal([])
      const base = {owner: OWNER, repo: REPO, issue_number: first.number}
      await ctx.agent.rest.issues.update({
        ...base,
        title: 'changed',
        state: first.seeded.state === 'closed' ? 'open' : 'closed',
        labels: ['enhancement'],
        assignees: ['ghx-bench'],
      })
      await ctx.agent.rest.issues.createComment({...base, body: 'an agent was here'})
      const problems = await issueStatus(ctx, first)
      expect(problems).to.have.length(5)
      expect(problems[0]).to.match(/^title is "changed", seeded "/)
      await resetIssue(ctx, first)
      expect(await issueStatus(ctx, first)).to.deep.equal([])
    })
  }

  it('records what scenarios bind to: numbers, the search term, the milestone', async () => {
    expect(await seedIssue(ctx, 'issue_bug_to_close')).to.include({search_term: 'Memory leak in connection pooling'})
    const issue = await seedIssue(ctx, 'issue')
    expect(issue.milestone_number).to.be.a('number')
    expect(issue.seeded.labels).to.deep.equal(['bench-fixture', 'bench-seed:test'])
  })

  it('reports an issue that is gone', async () => {
    const ghost = {...(await seedIssue(ctx, 'issue')), number: 9999}
    expect((await issueStatus(ctx, ghost))[0]).to.match(/^issue #9999 cannot be read: Not Found/)
  })
})
