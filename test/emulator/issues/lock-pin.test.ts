// Locking a conversation (REST's PUT/DELETE lock, GraphQL's lockLockable, gh issue lock) and pinning
// issues (pinIssue / unpinIssue, Repository.pinnedIssues), as GitHub answers them.
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: locked conversations and pinned issues', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  const issueState = async (number: number) =>
    (
      await s.agent.graphql<{
        repository: {issue: {locked: boolean; activeLockReason: string | null; isPinned: boolean}}
      }>(
        `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") { issue(number: $n) { locked activeLockReason isPinned } } }`,
        {n: number},
      )
    ).repository.issue

  it('locks with a reason and unlocks through REST; refuses a reason GitHub does not have', async () => {
    const locked = await s.agent.rest.issues.lock({...base, issue_number: s.issue, lock_reason: 'too heated'})
    expect(locked.status).to.equal(204)
    expect((await s.agent.rest.issues.get({...base, issue_number: s.issue})).data).to.deep.include({
      locked: true,
      active_lock_reason: 'too heated',
    })
    expect(await issueState(s.issue)).to.deep.include({locked: true, activeLockReason: 'TOO_HEATED'})
    expect((await s.agent.rest.issues.unlock({...base, issue_number: s.issue})).status).to.equal(204)
    expect((await s.agent.rest.issues.get({...base, issue_number: s.issue})).data).to.deep.include({
      locked: false,
      active_lock_reason: null,
    })
    const refused = await failure(
      s.agent.request(`PUT /repos/${OWNER}/${REPO}/issues/${s.issue}/lock`, {lock_reason: 'boring'}),
    )
    expect(refused.status).to.equal(422)
  })

  it('lockLockable and unlockLockable; gh issue lock and unlock', async function () {
    const {node_id: id} = (await s.agent.rest.issues.get({...base, issue_number: s.issue})).data
    await s.agent.graphql(
      'mutation($id: ID!) { lockLockable(input: {lockableId: $id, lockReason: SPAM}) { lockedRecord { locked } } }',
      {id},
    )
    expect(await issueState(s.issue)).to.deep.include({locked: true, activeLockReason: 'SPAM'})
    await s.agent.graphql(
      'mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) { unlockedRecord { locked } } }',
      {id},
    )
    expect(await issueState(s.issue)).to.deep.include({locked: false, activeLockReason: null})
    skipWithoutGh(this)
    const gh = await ghFor(s.sandbox)
    const lock = await gh(['issue', 'lock', String(s.issue), '-R', `${OWNER}/${REPO}`, '--reason', 'resolved'])
    expect(lock.code, lock.stderr).to.equal(0)
    expect(await issueState(s.issue)).to.deep.include({locked: true, activeLockReason: 'RESOLVED'})
    const unlock = await gh(['issue', 'unlock', String(s.issue), '-R', `${OWNER}/${REPO}`])
    expect(unlock.code, unlock.stderr).to.equal(0)
    expect((await issueState(s.issue)).locked).to.equal(false)
  })

  it('pins up to three issues, in order, and unpins them; a pull request is not pinned', async () => {
    const numbers = [s.issue]
    for (const title of ['Second', 'Third', 'Fourth'])
      numbers.push((await s.agent.rest.issues.create({...base, title})).data.number)
    const ids = await Promise.all(
      numbers.map(async (n) => (await s.agent.rest.issues.get({...base, issue_number: n})).data.node_id),
    )
    const pin = (id: string) =>
      s.agent.graphql<{pinIssue: {issue: {isPinned: boolean}}}>(
        'mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { isPinned } } }',
        {id},
      )
    for (const id of ids.slice(0, 3)) expect((await pin(id)).pinIssue.issue.isPinned).to.equal(true)
    const fourth = await pin(ids[3]!).then(
      () => expect.fail('expected a failure'),
      (e: {errors: Array<{message: string}>}) => e.errors[0]!.message,
    )
    expect(fourth).to.equal('You can only pin up to 3 issues.')
    const pinned = await s.agent.graphql<{
      repository: {pinnedIssues: {nodes: Array<{issue: {number: number}; pinnedBy: {login: string}}>}}
    }>(
      `query { repository(owner: "${OWNER}", name: "${REPO}") { pinnedIssues(first: 5) { nodes { issue { number } pinnedBy { login } } } } }`,
    )
    expect(pinned.repository.pinnedIssues.nodes.map((p) => p.issue.number)).to.deep.equal(numbers.slice(0, 3))
    expect(pinned.repository.pinnedIssues.nodes[0]!.pinnedBy.login).to.equal('ghx-bench-agent')
    await s.agent.graphql('mutation($id: ID!) { unpinIssue(input: {issueId: $id}) { issue { isPinned } } }', {
      id: ids[0],
    })
    expect((await issueState(s.issue)).isPinned).to.equal(false)
    const {node_id: pr} = (await s.agent.rest.pulls.get({...base, pull_number: s.pr})).data
    const refused = await pin(pr).then(
      () => expect.fail('expected a failure'),
      (e: {errors: Array<{message: string}>}) => e.errors[0]!.message,
    )
    expect(refused).to.equal('Pull requests cannot be pinned.')
  })
})
