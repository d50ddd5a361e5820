// Reviews as GitHub does them: a review is created whole or not at all; comments are placed by file
// line (and side) inside a hunk of the diff, or by diff position; `start_line` makes a multi-line
// comment; every comment carries its real diff hunk, through REST and GraphQL alike.
import {expect} from 'chai'
import type {Octokit} from '@octokit/rest'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}
const LONG = Array.from({length: 40}, (_, i) => `line ${i + 1}`)

describe('sandbox: pull request reviews', function () {
  this.timeout(60_000)
  let s: Seeded
  let agent: Octokit
  /** A pull request (by the reviewer identity) that modifies src/long.ts in two places far apart. */
  let pr: number
  let head: string

  before(async () => {
    s = await seedSandbox()
    agent = s.agent
    const put = (octokit: Octokit, lines: string[], branch: string, sha?: string) =>
      octokit.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'src/long.ts',
        branch,
        message: 'long',
        content: Buffer.from(`${lines.join('\n')}\n`).toString('base64'),
        ...(sha ? {sha} : {}),
      })
    const created = await put(agent, LONG, 'main')
    const main = await agent.rest.git.getRef({...base, ref: 'heads/main'})
    await s.reviewer.rest.git.createRef({...base, ref: 'refs/heads/two-hunks', sha: main.data.object.sha})
    const changed = [...LONG]
    changed[4] = 'line 5 changed'
    changed.splice(29, 1, 'line 30a', 'line 30b')
    await put(s.reviewer, changed, 'two-hunks', created.data.content!.sha)
    const pull = await s.reviewer.rest.pulls.create({...base, title: 'Two hunks', head: 'two-hunks', base: 'main'})
    pr = pull.data.number
    head = pull.data.head.sha
  })
  after(() => s.sandbox.close())

  const pendingOf = async (login: string) =>
    (await agent.rest.pulls.listReviews({...base, pull_number: pr})).data.filter(
      (r) => r.user!.login === login && r.state === 'PENDING',
    )

  it('the patch has two hunks: lines inside them resolve, lines between them do not', async () => {
    const files = await agent.rest.pulls.listFiles({...base, pull_number: pr})
    const patch = files.data[0]!.patch!
    expect(patch.split('\n').filter((l) => l.startsWith('@@'))).to.deep.equal(['@@ -2,7 +2,7 @@', '@@ -27,7 +27,8 @@'])
    const outside = await failure(
      agent.rest.pulls.createReviewComment({
        ...base,
        pull_number: pr,
        commit_id: head,
        path: 'src/long.ts',
        line: 15,
        side: 'RIGHT',
        body: 'x',
      }),
    )
    expect(outside).to.deep.include({status: 422, message: 'Validation Failed'})
    expect(outside.errors).to.deep.equal([
      {
        resource: 'PullRequestReviewComment',
        code: 'custom',
        field: 'pull_request_review_thread.line',
        message: 'pull_request_review_thread.line must be part of the diff',
      },
    ])
    // A context line inside a hunk resolves on either side; a deleted line only on the LEFT.
    const context = await agent.rest.pulls.createReviewComment({
      ...base,
      pull_number: pr,
      commit_id: head,
      path: 'src/long.ts',
      line: 3,
      side: 'RIGHT',
      body: 'context',
    })
    expect(context.data).to.deep.include({line: 3, side: 'RIGHT', position: 2})
    const deleted = await agent.rest.pulls.createReviewComment({
      ...base,
      pull_number: pr,
      commit_id: head,
      path: 'src/long.ts',
      line: 30,
      side: 'LEFT',
      body: 'deleted',
    })
    expect(deleted.data).to.deep.include({line: 30, side: 'LEFT'})
    expect(deleted.data.diff_hunk).to.equal(
      ['@@ -27,7 +27,8 @@', ' line 27', ' line 28', ' line 29', '-line 30'].join('\n'),
    )
    const notOnRight = await failure(
      agent.rest.pulls.createReviewComment({
        ...base,
        pull_number: pr,
        commit_id: head,
        path: 'src/long.ts',
        line: 40,
        side: 'RIGHT',
        body: 'x',
      }),
    )
    expect(notOnRight.status).to.equal(422)
  })

  it('a review is atomic: one comment that cannot be placed fails it all (GitHub’s "Line could not be resolved"), leaving no pending review', async () => {
    const before = (await agent.rest.pulls.listReviewComments({...base, pull_number: pr})).data.length
    const refused = await failure(
      agent.rest.pulls.createReview({
        ...base,
        pull_number: pr,
        body: 'Mixed',
        comments: [
          {path: 'src/long.ts', line: 5, body: 'fine'},
          {path: 'src/long.ts', line: 15, body: 'between hunks'},
        ],
      }),
    )
    expect(refused).to.deep.include({
      status: 422,
      message: 'Unprocessable Entity',
      errors: ['Line could not be resolved'],
    })
    expect(await pendingOf('ghx-bench-agent')).to.deep.equal([])
    expect((await agent.rest.pulls.listReviewComments({...base, pull_number: pr})).data).to.have.length(before)
    // A refused event leaves nothing behind either: the reviewer cannot approve their own pull request.
    const own = await failure(
      s.reviewer.rest.pulls.createReview({
        ...base,
        pull_number: pr,
        event: 'APPROVE',
        comments: [{path: 'src/long.ts', line: 5, body: 'self'}],
      }),
    )
    expect(own.status).to.equal(422)
    expect(await pendingOf('ghx-bench-reviewer')).to.deep.equal([])
  })

  it('refuses a body that is not GitHub’s schema: comments not an array, a line that is not an integer', async () => {
    // What an agent sends with `gh api -f comments='[…]'`: a string. (Typed loosely: Octokit's types forbid it.)
    const request = agent.request as (route: string, params: Record<string, unknown>) => Promise<unknown>
    const notArray = await failure(
      request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...base,
        pull_number: pr,
        event: 'COMMENT',
        body: 'x',
        comments: '[{"path":"src/long.ts","line":5,"body":"x"}]',
      }),
    )
    expect(notArray).to.deep.include({
      status: 422,
      message:
        'Invalid request.\n\nFor \'properties/comments\', "[{\\"path\\":\\"src/long.ts\\",\\"line\\":5,\\"body\\":\\"x\\"}]" is not an array.',
    })
    const stringLine = await failure(
      request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...base,
        pull_number: pr,
        event: 'COMMENT',
        comments: [{path: 'src/long.ts', line: '5', body: 'x'}],
      }),
    )
    expect(stringLine).to.deep.include({
      status: 422,
      message: 'Invalid request.\n\nFor \'properties/line\', "5" is not an integer.',
    })
    const fraction = await failure(
      agent.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
        ...base,
        pull_number: pr,
        commit_id: head,
        path: 'src/long.ts',
        line: 5.5,
        body: 'x',
      }),
    )
    expect(fraction.message).to.equal("Invalid request.\n\nFor 'properties/line', 5.5 is not an integer.")
    expect(await pendingOf('ghx-bench-agent')).to.deep.equal([])
  })

  it('accepts `position` (lines below the first hunk header; later headers count) and maps it onto the file', async () => {
    // Patch lines: 0 "@@ -2,7 +2,7 @@", 1 " line 2", 2 " line 3", 3 " line 4", 4 "-line 5", 5 "+line 5 changed", …, 8 " line 8", 9 "@@ -27,7 +27,8 @@", 10 " line 27", …
    const review = await agent.rest.pulls.createReview({
      ...base,
      pull_number: pr,
      event: 'COMMENT',
      body: 'By position',
      comments: [
        {path: 'src/long.ts', position: 5, body: 'the changed line'},
        {path: 'src/long.ts', position: 4, body: 'the deleted line'},
        {path: 'src/long.ts', position: 10, body: 'first line of the second hunk'},
      ],
    })
    const comments = (
      await agent.rest.pulls.listCommentsForReview({...base, pull_number: pr, review_id: review.data.id})
    ).data
    expect(comments.map((c) => [c.body, c.line, c.side, c.position])).to.deep.equal([
      ['the changed line', 5, 'RIGHT', 5],
      ['the deleted line', 5, 'LEFT', 4],
      ['first line of the second hunk', 27, 'RIGHT', 10],
    ])
    expect(comments[0]!.diff_hunk).to.equal(
      ['@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+line 5 changed'].join('\n'),
    )
    const header = await failure(
      agent.rest.pulls.createReview({
        ...base,
        pull_number: pr,
        event: 'COMMENT',
        comments: [{path: 'src/long.ts', position: 9, body: 'a hunk header'}],
      }),
    )
    expect(header).to.deep.include({status: 422, errors: ['Position could not be resolved']})
    const beyond = await failure(
      agent.rest.pulls.createReview({
        ...base,
        pull_number: pr,
        event: 'COMMENT',
        comments: [{path: 'src/long.ts', position: 99, body: 'past the patch'}],
      }),
    )
    expect(beyond.errors).to.deep.equal(['Position could not be resolved'])
  })

  it('start_line makes a multi-line comment within one hunk (REST and GraphQL), refused across hunks', async () => {
    const multi = await agent.rest.pulls.createReviewComment({
      ...base,
      pull_number: pr,
      commit_id: head,
      path: 'src/long.ts',
      start_line: 27,
      start_side: 'RIGHT',
      line: 31,
      side: 'RIGHT',
      body: 'This block',
    })
    expect(multi.data).to.deep.include({
      start_line: 27,
      original_start_line: 27,
      start_side: 'RIGHT',
      line: 31,
      side: 'RIGHT',
    })
    expect(multi.data.diff_hunk.split('\n').at(-1)).to.equal('+line 30b')
    const across = await failure(
      agent.rest.pulls.createReviewComment({
        ...base,
        pull_number: pr,
        commit_id: head,
        path: 'src/long.ts',
        start_line: 5,
        line: 28,
        body: 'x',
      }),
    )
    expect(across.errors).to.deep.equal([
      {
        resource: 'PullRequestReviewComment',
        code: 'custom',
        field: 'pull_request_review_thread.start_line',
        message: 'pull_request_review_thread.start_line must be part of the same hunk as the line.',
      },
    ])
    const thread = await agent.graphql<{
      repository: {
        pullRequest: {
          reviewThreads: {
            nodes: Array<{
              startLine: number | null
              line: number
              diffSide: string
              startDiffSide: string | null
              comments: {nodes: Array<{body: string; diffHunk: string; startLine: number | null; line: number}>}
            }>
          }
        }
      }
    }>(
      `query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { reviewThreads(first: 20) { nodes { startLine line diffSide startDiffSide comments(first: 1) { nodes { body diffHunk startLine line } } } } } } }`,
      {n: pr},
    )
    const node = thread.repository.pullRequest.reviewThreads.nodes.find(
      (t) => t.comments.nodes[0]!.body === 'This block',
    )!
    expect(node).to.deep.include({startLine: 27, line: 31, diffSide: 'RIGHT', startDiffSide: 'RIGHT'})
    expect(node.comments.nodes[0]!.diffHunk).to.equal(multi.data.diff_hunk)
  })

  it('GraphQL: addPullRequestReview places threads by line (with startLine) and comments by position; addPullRequestReviewThread too', async () => {
    const {repository} = await agent.graphql<{repository: {pullRequest: {id: string}}}>(
      `query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { id } } }`,
      {n: pr},
    )
    const added = await agent.graphql<{
      addPullRequestReview: {
        pullRequestReview: {
          id: string
          comments: {
            nodes: Array<{body: string; line: number; startLine: number | null; position: number; diffHunk: string}>
          }
        }
      }
    }>(
      `mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id, body: "GraphQL review", threads: [{path: "src/long.ts", line: 8, startLine: 6, body: "lines 6-8"}], comments: [{path: "src/long.ts", position: 11, body: "by position"}]}) {
        pullRequestReview { id comments(first: 5) { nodes { body line startLine position diffHunk } } } } }`,
      {id: repository.pullRequest.id},
    )
    expect(
      added.addPullRequestReview.pullRequestReview.comments.nodes.map((c) => [c.body, c.line, c.startLine, c.position]),
    ).to.deep.equal([
      ['lines 6-8', 8, 6, 8],
      ['by position', 28, null, 11],
    ])
    const reviewId = added.addPullRequestReview.pullRequestReview.id
    const thread = await agent.graphql<{
      addPullRequestReviewThread: {
        thread: {startLine: number | null; line: number; comments: {nodes: Array<{diffHunk: string}>}}
      }
    }>(
      `mutation($id: ID!) { addPullRequestReviewThread(input: {pullRequestReviewId: $id, path: "src/long.ts", startLine: 2, line: 4, body: "top"}) { thread { startLine line comments(first: 1) { nodes { diffHunk } } } } }`,
      {id: reviewId},
    )
    expect(thread.addPullRequestReviewThread.thread).to.deep.include({startLine: 2, line: 4})
    expect(thread.addPullRequestReviewThread.thread.comments.nodes[0]!.diffHunk).to.equal(
      ['@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4'].join('\n'),
    )
    const refused = await agent
      .graphql(
        `mutation($id: ID!) { addPullRequestReviewThread(input: {pullRequestReviewId: $id, path: "src/long.ts", line: 15, body: "between"}) { thread { id } } }`,
        {id: reviewId},
      )
      .catch((e: {errors: Array<{message: string}>}) => e)
    expect((refused as {errors: Array<{message: string}>}).errors[0]!.message).to.equal(
      'pull_request_review_thread.line must be part of the diff',
    )
    await agent.graphql(
      `mutation($id: ID!) { submitPullRequestReview(input: {pullRequestReviewId: $id, event: COMMENT}) { pullRequestReview { state } } }`,
      {id: reviewId},
    )
  })
})
