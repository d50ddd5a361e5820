// Reactions through REST, as GitHub answers them: created on an issue, an issue comment and a review
// comment (201; the same reaction again is the first one, 200), listed (by content too), deleted;
// content outside GitHub's list refused (422); the same reactions in the embedded rollups.
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: reactions (REST)', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  it('on an issue: create (201, then 200 for the same), list, filter by content, delete', async () => {
    const heart = await s.agent.rest.reactions.createForIssue({...base, issue_number: s.issue, content: 'heart'})
    expect(heart.status).to.equal(201)
    expect(heart.data).to.deep.include({content: 'heart'})
    expect(heart.data.user?.login).to.equal('ghx-bench-agent')
    const again = await s.agent.rest.reactions.createForIssue({...base, issue_number: s.issue, content: 'heart'})
    expect(again.status).to.equal(200)
    expect(again.data.id).to.equal(heart.data.id)
    await s.reviewer.rest.reactions.createForIssue({...base, issue_number: s.issue, content: '+1'})
    const all = await s.agent.rest.reactions.listForIssue({...base, issue_number: s.issue})
    expect(all.data.map((r) => r.content)).to.deep.equal(['heart', '+1'])
    const hearts = await s.agent.rest.reactions.listForIssue({...base, issue_number: s.issue, content: 'heart'})
    expect(hearts.data).to.have.length(1)
    const issue = await s.agent.rest.issues.get({...base, issue_number: s.issue})
    expect(issue.data.reactions).to.deep.include({total_count: 2, heart: 1, '+1': 1})
    const removed = await s.agent.rest.reactions.deleteForIssue({
      ...base,
      issue_number: s.issue,
      reaction_id: heart.data.id,
    })
    expect(removed.status).to.equal(204)
    expect((await s.agent.rest.reactions.listForIssue({...base, issue_number: s.issue})).data).to.have.length(1)
    const refused = await failure(
      s.agent.request(`POST /repos/${OWNER}/${REPO}/issues/${s.issue}/reactions`, {content: 'love'}),
    )
    expect(refused.status).to.equal(422)
  })

  it('on an issue comment and a review comment', async () => {
    const comment = await s.agent.rest.issues.createComment({...base, issue_number: s.issue, body: 'A comment'})
    const rocket = await s.agent.rest.reactions.createForIssueComment({
      ...base,
      comment_id: comment.data.id,
      content: 'rocket',
    })
    expect(rocket.status).to.equal(201)
    expect(
      (await s.agent.rest.reactions.listForIssueComment({...base, comment_id: comment.data.id})).data.map(
        (r) => r.content,
      ),
    ).to.deep.equal(['rocket'])
    const [reviewComment] = (await s.agent.rest.pulls.listReviewComments({...base, pull_number: s.pr})).data
    const eyes = await s.agent.rest.reactions.createForPullRequestReviewComment({
      ...base,
      comment_id: reviewComment!.id,
      content: 'eyes',
    })
    expect(eyes.status).to.equal(201)
    const listed = await s.agent.rest.reactions.listForPullRequestReviewComment({
      ...base,
      comment_id: reviewComment!.id,
    })
    expect(listed.data.map((r) => r.content)).to.deep.equal(['eyes'])
    await s.agent.rest.reactions.deleteForPullRequestComment({
      ...base,
      comment_id: reviewComment!.id,
      reaction_id: eyes.data.id,
    })
    expect(
      (await s.agent.rest.reactions.listForPullRequestReviewComment({...base, comment_id: reviewComment!.id})).data,
    ).to.deep.equal([])
  })

  it('gh api -X POST …/reactions', async function () {
    skipWithoutGh(this)
    const gh = await ghFor(s.sandbox)
    const result = await gh([
      'api',
      '-X',
      'POST',
      `repos/${OWNER}/${REPO}/issues/${s.issue}/reactions`,
      '-f',
      'content=hooray',
    ])
    expect(result.code, result.stderr).to.equal(0)
    expect(JSON.parse(result.stdout)).to.deep.include({content: 'hooray'})
  })
})
