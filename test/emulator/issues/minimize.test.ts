// Hiding a comment (minimizeComment) and showing it again (unminimizeComment), an issue comment's and
// a review comment's, with GitHub's reason.
import {expect} from 'chai'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: minimized comments', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  type Minimized = {isMinimized: boolean; minimizedReason: string | null}
  const minimize = (id: string, classifier: string) =>
    s.agent.graphql<{minimizeComment: {minimizedComment: Minimized}}>(
      `mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: ${classifier}}) { minimizedComment { isMinimized minimizedReason } } }`,
      {id},
    )
  const node = async (id: string) =>
    (
      await s.agent.graphql<{node: Minimized}>(
        'query($id: ID!) { node(id: $id) { ... on Minimizable { isMinimized minimizedReason } } }',
        {id},
      )
    ).node

  it('hides an issue comment as off-topic, and shows it again', async () => {
    const comment = await s.agent.rest.issues.createComment({...base, issue_number: s.issue, body: 'Unrelated'})
    const hidden = await minimize(comment.data.node_id, 'OFF_TOPIC')
    expect(hidden.minimizeComment.minimizedComment).to.deep.equal({isMinimized: true, minimizedReason: 'off-topic'})
    expect(await node(comment.data.node_id)).to.deep.equal({isMinimized: true, minimizedReason: 'off-topic'})
    await s.agent.graphql(
      'mutation($id: ID!) { unminimizeComment(input: {subjectId: $id}) { unminimizedComment { isMinimized } } }',
      {
        id: comment.data.node_id,
      },
    )
    expect(await node(comment.data.node_id)).to.deep.equal({isMinimized: false, minimizedReason: null})
  })

  it('hides a review comment as outdated', async () => {
    const [comment] = (await s.agent.rest.pulls.listReviewComments({...base, pull_number: s.pr})).data
    await minimize(comment!.node_id, 'OUTDATED')
    expect(await node(comment!.node_id)).to.deep.equal({isMinimized: true, minimizedReason: 'outdated'})
  })
})
