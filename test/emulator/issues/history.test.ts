// An issue's history as GitHub keeps it: events recorded when they happen (labels, assignees,
// milestones, renames, closing and reopening, review requests, drafts, merges, branch deletions,
// mentions), what follows from other state (comments, cross-references, commits that mention it, a
// pull request's commits and reviews), through REST (events, timeline) and GraphQL (timelineItems).
import {expect} from 'chai'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

type Item = {__typename: string} & Record<string, unknown>

describe('sandbox: issue and pull request history', function () {
  this.timeout(60_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  const ITEM = `
    __typename
    ... on LabeledEvent { actor { login } label { name } }
    ... on UnlabeledEvent { label { name } }
    ... on AssignedEvent { assignee { ... on User { login } } }
    ... on UnassignedEvent { assignee { ... on User { login } } }
    ... on MilestonedEvent { milestoneTitle }
    ... on RenamedTitleEvent { previousTitle currentTitle }
    ... on ClosedEvent { actor { login } stateReason closer { __typename ... on PullRequest { number } } }
    ... on ReopenedEvent { actor { login } }
    ... on IssueComment { body }
    ... on ReferencedEvent { commit { messageHeadline } }
    ... on CrossReferencedEvent { source { ... on PullRequest { number } ... on Issue { number } } willCloseTarget }
    ... on MentionedEvent { actor { login } }
    ... on SubscribedEvent { actor { login } }`
  const PR_ITEM = `
    ... on ReviewRequestedEvent { requestedReviewer { ... on User { login } } }
    ... on ReadyForReviewEvent { actor { login } }
    ... on MergedEvent { mergeRefName commit { oid } }
    ... on HeadRefDeletedEvent { headRefName }
    ... on PullRequestCommit { commit { messageHeadline } }
    ... on PullRequestReview { state }`

  /** GraphQL timelineItems of an issue or a pull request (their connections differ in type: one query each). */
  async function timelineItems(number: number, itemTypes?: string): Promise<{totalCount: number; nodes: Item[]}> {
    const args = itemTypes ? `first: 100, itemTypes: [${itemTypes}]` : 'first: 100'
    const kind = (await s.agent.rest.issues.get({...base, issue_number: number})).data.pull_request
      ? 'pullRequest'
      : 'issue'
    const query = `query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { ${kind}(number: $n) { timelineItems(${args}) { totalCount nodes { ${ITEM} ${kind === 'pullRequest' ? PR_ITEM : ''} } } } } }`
    const data = await s.agent.graphql<{
      repository: Record<string, {timelineItems: {totalCount: number; nodes: Item[]}}>
    }>(query, {n: number})
    return data.repository[kind]!.timelineItems
  }

  const restEvents = async (number: number) =>
    (await s.agent.rest.issues.listEvents({...base, issue_number: number})).data as Array<
      Record<string, unknown> & {event: string}
    >

  it('records an issue’s changes as events (REST events, GraphQL timelineItems), with the acting user', async () => {
    const issue = (
      await s.agent.rest.issues.create({...base, title: 'Flaky test', labels: ['bug'], assignees: ['ghx-bench-agent']})
    ).data
    await s.agent.rest.issues.createMilestone({...base, title: 'v1'})
    await s.reviewer.rest.issues.update({
      ...base,
      issue_number: issue.number,
      title: 'Flaky test in CI',
      milestone: 1,
      labels: ['bug', 'help wanted'],
    })
    await s.reviewer.rest.issues.removeLabel({...base, issue_number: issue.number, name: 'bug'})
    await s.agent.rest.issues.removeAssignees({...base, issue_number: issue.number, assignees: ['ghx-bench-agent']})
    await s.agent.rest.issues.update({
      ...base,
      issue_number: issue.number,
      state: 'closed',
      state_reason: 'not_planned',
    })
    await s.reviewer.rest.issues.update({...base, issue_number: issue.number, state: 'open'})
    const events = await restEvents(issue.number)
    expect(events.map((e) => [e.event, (e.actor as {login: string}).login])).to.deep.equal([
      ['labeled', 'ghx-bench-agent'],
      ['assigned', 'ghx-bench-agent'],
      ['renamed', 'ghx-bench-reviewer'],
      ['labeled', 'ghx-bench-reviewer'],
      ['milestoned', 'ghx-bench-reviewer'],
      ['unlabeled', 'ghx-bench-reviewer'],
      ['unassigned', 'ghx-bench-agent'],
      ['closed', 'ghx-bench-agent'],
      ['reopened', 'ghx-bench-reviewer'],
    ])
    expect(events[2]).to.deep.include({rename: {from: 'Flaky test', to: 'Flaky test in CI'}})
    expect(events[3]).to.deep.include({label: {name: 'help wanted', color: '008672'}})
    expect(events[7]).to.deep.include({state_reason: 'not_planned', commit_id: null})
    const items = await timelineItems(issue.number)
    expect(items.nodes.map((n) => n.__typename)).to.deep.equal([
      'LabeledEvent',
      'AssignedEvent',
      'RenamedTitleEvent',
      'LabeledEvent',
      'MilestonedEvent',
      'UnlabeledEvent',
      'UnassignedEvent',
      'ClosedEvent',
      'ReopenedEvent',
    ])
    expect(items.nodes[7]).to.deep.include({stateReason: 'NOT_PLANNED', closer: null})
    const filtered = await timelineItems(issue.number, 'LABELED_EVENT, UNLABELED_EVENT')
    expect(filtered.nodes).to.deep.equal([
      {__typename: 'LabeledEvent', actor: {login: 'ghx-bench-agent'}, label: {name: 'bug'}},
      {__typename: 'LabeledEvent', actor: {login: 'ghx-bench-reviewer'}, label: {name: 'help wanted'}},
      {__typename: 'UnlabeledEvent', label: {name: 'bug'}},
    ])
    // The repository's events name each issue; one event by id.
    const all = (await s.agent.rest.issues.listEventsForRepo({...base, per_page: 100})).data
    const reopened = all.find((e) => e.event === 'reopened')!
    expect(reopened.issue!.number).to.equal(issue.number)
    expect((await s.agent.rest.issues.getEvent({...base, event_id: reopened.id})).data.event).to.equal('reopened')
  })

  it('the timeline holds comments, mentions, cross-references and commits that reference the issue', async () => {
    const issue = (await s.agent.rest.issues.create({...base, title: 'Divide by zero'})).data
    await s.agent.rest.issues.createComment({
      ...base,
      issue_number: issue.number,
      body: '@ghx-bench-reviewer can you look?',
    })
    await s.reviewer.rest.issues.create({...base, title: 'Related', body: `See #${issue.number}.`})
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'FIX.md',
      message: `Guard the division (refs #${issue.number})`,
      content: Buffer.from('fixed\n').toString('base64'),
    })
    const timeline = (await s.agent.rest.issues.listEventsForTimeline({...base, issue_number: issue.number}))
      .data as Array<{event: string}>
    expect(timeline.map((e) => e.event)).to.deep.equal([
      'commented',
      'mentioned',
      'subscribed',
      'cross-referenced',
      'referenced',
    ])
    expect((await restEvents(issue.number)).map((e) => e.event)).to.deep.equal([
      'mentioned',
      'subscribed',
      'referenced',
    ])
    const items = await timelineItems(issue.number)
    expect(items.nodes).to.deep.equal([
      {__typename: 'IssueComment', body: '@ghx-bench-reviewer can you look?'},
      {__typename: 'MentionedEvent', actor: {login: 'ghx-bench-reviewer'}},
      {__typename: 'SubscribedEvent', actor: {login: 'ghx-bench-reviewer'}},
      {__typename: 'CrossReferencedEvent', source: {number: issue.number + 1}, willCloseTarget: false},
      {__typename: 'ReferencedEvent', commit: {messageHeadline: `Guard the division (refs #${issue.number})`}},
    ])
  })

  it('a pull request’s history: commits, review requests, drafts, reviews, the merge, the branch deletion; the merge closes the issues it fixes', async () => {
    const issue = (await s.agent.rest.issues.create({...base, title: 'Average of nothing'})).data
    const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/fix-average', sha: main.data.object.sha})
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'src/average.ts',
      branch: 'fix-average',
      message: 'Guard empty input',
      content: Buffer.from(
        'export const average = (v: number[]) => (v.length ? v.reduce((a, b) => a + b) / v.length : 0)\n',
      ).toString('base64'),
    })
    const pull = (
      await s.agent.rest.pulls.create({
        ...base,
        title: 'Fix average',
        head: 'fix-average',
        base: 'main',
        body: `Fixes #${issue.number}`,
        draft: true,
      })
    ).data
    await s.agent.rest.pulls.requestReviewers({...base, pull_number: pull.number, reviewers: ['ghx-bench-reviewer']})
    const {repository} = await s.agent.graphql<{repository: {pullRequest: {id: string}}}>(
      `query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { id } } }`,
      {n: pull.number},
    )
    await s.agent.graphql(
      `mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`,
      {id: repository.pullRequest.id},
    )
    await s.reviewer.rest.pulls.createReview({...base, pull_number: pull.number, event: 'APPROVE'})
    const merged = (await s.agent.rest.pulls.merge({...base, pull_number: pull.number, merge_method: 'squash'})).data
    await s.agent.rest.git.deleteRef({...base, ref: 'heads/fix-average'})
    const items = await timelineItems(pull.number)
    expect(items.nodes.map((n) => n.__typename)).to.deep.equal([
      'PullRequestCommit',
      'ReviewRequestedEvent',
      'ReadyForReviewEvent',
      'PullRequestReview',
      'MergedEvent',
      'ClosedEvent',
      'HeadRefDeletedEvent',
    ])
    expect(items.nodes.find((n) => n.__typename === 'MergedEvent')).to.deep.include({
      mergeRefName: 'main',
      commit: {oid: merged.sha},
    })
    expect(items.nodes.find((n) => n.__typename === 'HeadRefDeletedEvent')).to.deep.include({
      headRefName: 'fix-average',
    })
    const timeline = (await s.agent.rest.issues.listEventsForTimeline({...base, issue_number: pull.number}))
      .data as Array<{event: string}>
    expect(timeline.map((e) => e.event)).to.deep.equal([
      'committed',
      'review_requested',
      'ready_for_review',
      'reviewed',
      'merged',
      'closed',
      'head_ref_deleted',
    ])
    // The issue: closed by the merge, as GitHub closes what a pull request fixes when it lands on the default branch.
    const closed = (await s.agent.rest.issues.get({...base, issue_number: issue.number})).data
    expect(closed).to.deep.include({state: 'closed', state_reason: 'completed'})
    const closing = (await restEvents(issue.number)).find((e) => e.event === 'closed')!
    expect(closing).to.deep.include({commit_id: merged.sha})
    expect((closing.actor as {login: string}).login).to.equal('ghx-bench-agent')
    const issueItems = await timelineItems(issue.number, 'CLOSED_EVENT, CROSS_REFERENCED_EVENT')
    expect(issueItems.nodes).to.deep.equal([
      {__typename: 'CrossReferencedEvent', source: {number: pull.number}, willCloseTarget: true},
      {
        __typename: 'ClosedEvent',
        actor: {login: 'ghx-bench-agent'},
        stateReason: 'COMPLETED',
        closer: {__typename: 'PullRequest', number: pull.number},
      },
    ])
  })

  it('answers every item type GitHub names: the ones nothing in the sandbox makes are none', async () => {
    const types = [
      'PINNED_EVENT',
      'LOCKED_EVENT',
      'TRANSFERRED_EVENT',
      'CONNECTED_EVENT',
      'ADDED_TO_PROJECT_EVENT',
      'MARKED_AS_DUPLICATE_EVENT',
      'USER_BLOCKED_EVENT',
    ]
    expect((await timelineItems(s.issue, types.join(', '))).nodes).to.deep.equal([])
    const prTypes = [
      'AUTO_MERGE_ENABLED_EVENT',
      'DEPLOYED_EVENT',
      'ADDED_TO_MERGE_QUEUE_EVENT',
      'HEAD_REF_RESTORED_EVENT',
      'PULL_REQUEST_REVISION_MARKER',
    ]
    expect((await timelineItems(s.pr, prTypes.join(', '))).nodes).to.deep.equal([])
  })
})
