// Pull request fixtures on the sandbox: idempotent seeding, the review threads and authors scenarios
// need, and reset verified by mutate-reset-compare.
import {expect} from 'chai'
import type {FixtureContext} from '../../src/seeding/context.js'
import {PULL_KIND_NAMES, pullStatus, resetPull, seedPull} from '../../src/seeding/pulls.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {ghFor, skipWithoutGh} from '../support/gh.js'
import {fixtureContext, OWNER, REPO} from '../support/sandbox.js'

describe('pull request fixtures', () => {
  let sandbox: Sandbox
  let ctx: FixtureContext
  const repo = {owner: OWNER, repo: REPO}

  before(async () => {
    sandbox = await startSandbox()
    ctx = fixtureContext(sandbox)
  })
  after(() => sandbox.close())

  for (const kind of PULL_KIND_NAMES) {
    it(`${kind}: seeds once and is as seeded`, async () => {
      const first = await seedPull(ctx, kind)
      const again = await seedPull(ctx, kind)
      expect(again.number).to.equal(first.number)
      expect(await pullStatus(ctx, first)).to.deep.equal([])
    })
  }

  it('every fixture’s head carries one completed, successful bench/ci check run, reported once (the lint fixture also its failing lint); gh pr checks passes', async function () {
    for (const kind of PULL_KIND_NAMES) {
      const pr = await seedPull(ctx, kind)
      await seedPull(ctx, kind)
      const {data} = await ctx.agent.rest.checks.listForRef({...repo, ref: pr.seeded.head_sha})
      expect(
        data.check_runs.filter((run) => run.name === 'bench/ci').map((run) => [run.name, run.status, run.conclusion]),
        kind,
      ).to.deep.equal([['bench/ci', 'completed', 'success']])
      // The lint fixture's branch is linted on every push (bench-lint.yml): its head's lint run fails, as seeded.
      expect(
        data.check_runs.filter((run) => run.name !== 'bench/ci').map((run) => run.name),
        kind,
      ).to.deep.equal(kind === 'pr_failing_lint' ? ['lint'] : [])
    }
    skipWithoutGh(this)
    const pr = await seedPull(ctx, 'pr_with_bugs')
    const checks = await (await ghFor(sandbox))(['pr', 'checks', String(pr.number), '-R', `${OWNER}/${REPO}`])
    expect(checks.code, checks.stderr).to.equal(0)
    expect(checks.stdout).to.match(/^bench\/ci\tpass\t/m)
  })

  it('pr_with_bugs is opened by the second identity, so the agent can request changes; that review cannot be reset', async () => {
    const pr = await seedPull(ctx, 'pr_with_bugs')
    const {data} = await ctx.agent.rest.pulls.get({...repo, pull_number: pr.number})
    expect(data.user.login).to.equal('ghx-bench-reviewer')
    await ctx.agent.rest.pulls.createReview({
      ...repo,
      pull_number: pr.number,
      event: 'REQUEST_CHANGES',
      body: 'Bugs.',
      comments: [{path: 'src/utils/stats.ts', line: 4, body: 'div by zero'}],
    })
    await resetPull(ctx, pr)
    expect(await pullStatus(ctx, pr)).to.deep.equal(['1 submitted review(s) (cannot be undone: seed per iteration)'])
    const fresh = await seedPull(ctx, 'pr_with_bugs', '-iter2')
    expect(fresh.number).to.not.equal(pr.number)
    expect(await pullStatus(ctx, fresh)).to.deep.equal([])
  })

  it('pr_with_mixed_threads: seven threads, the first four resolved; replies and resolutions reset', async () => {
    const pr = await seedPull(ctx, 'pr_with_mixed_threads')
    expect(pr).to.include({thread_count: 7, resolved_count: 4, unresolved_count: 3})
    const unresolved = pr.seeded.threads.filter((t) => !t.resolved)
    for (const thread of unresolved) {
      await ctx.agent.graphql(
        'mutation($id: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: "Done."}) { comment { id } } }',
        {id: thread.id},
      )
      await ctx.agent.graphql('mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { id } } }', {
        id: thread.id,
      })
    }
    await ctx.agent.graphql('mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { id } } }', {
      id: pr.seeded.threads[0]!.id,
    })
    const problems = await pullStatus(ctx, pr)
    expect(problems).to.include('thread on line 2 is unresolved, seeded resolved')
    expect(problems).to.include('thread on line 18 has 1 reply')
    await resetPull(ctx, pr)
    expect(await pullStatus(ctx, pr)).to.deep.equal([])
  })

  it('pr_with_reviews: a failing and a passing commit status on its head, and the reviewer’s request for changes, each made once', async () => {
    const pr = await seedPull(ctx, 'pr_with_reviews')
    const again = await seedPull(ctx, 'pr_with_reviews')
    expect(again.seeded.review).to.deep.equal(pr.seeded.review)
    const {data: combined} = await ctx.agent.rest.repos.getCombinedStatusForRef({...repo, ref: pr.seeded.head_sha})
    expect(combined.statuses.map((s) => [s.context, s.state])).to.have.deep.members([
      ['bench/lint', 'success'],
      ['bench/unit-tests', 'failure'],
    ])
    const {data: statuses} = await ctx.agent.rest.repos.listCommitStatusesForRef({...repo, ref: pr.seeded.head_sha})
    expect(statuses).to.have.length(2)
    const reviews = (await ctx.agent.rest.pulls.listReviews({...repo, pull_number: pr.number})).data.filter(
      (r) => r.state === 'CHANGES_REQUESTED',
    )
    expect(reviews.map((r) => [r.id, r.user?.login])).to.deep.equal([[pr.seeded.review!.id, 'ghx-bench-reviewer']])
    const decision = await ctx.agent.graphql<{repository: {pullRequest: {reviewDecision: string}}}>(
      'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { reviewDecision } } }',
      {n: pr.number},
    )
    expect(decision.repository.pullRequest.reviewDecision).to.equal('CHANGES_REQUESTED')
    // The seeded review is part of the seeded state, not a change to report.
    expect(await pullStatus(ctx, pr)).to.deep.equal([])
  })

  it('pr: behind its base for a branch update; title, reviewers and a moved head reset', async () => {
    const pr = await seedPull(ctx, 'pr')
    const {data} = await ctx.agent.rest.pulls.get({...repo, pull_number: pr.number})
    // Behind, but not blocked: GitHub reports "behind" only when a branch protection requires up-to-date branches.
    expect(data.mergeable_state).to.equal('clean')
    await ctx.agent.rest.pulls.update({...repo, pull_number: pr.number, title: 'renamed'})
    await ctx.agent.rest.pulls.requestReviewers({...repo, pull_number: pr.number, reviewers: ['ghx-bench-reviewer']})
    await ctx.agent.rest.pulls.updateBranch({...repo, pull_number: pr.number})
    expect(await pullStatus(ctx, pr)).to.have.members([
      `title is "renamed", seeded "${pr.seeded.title}"`,
      'head branch moved since seeding',
      'reviews requested since seeding',
    ])
    await resetPull(ctx, pr)
    expect(await pullStatus(ctx, pr)).to.deep.equal([])
  })

  it('pr_conflicting and pr_behind_base: a base of their own, which a merge into the default branch does not move and reset puts back', async () => {
    for (const [kind, base] of [
      ['pr_conflicting', `bench-conflict-base-seed-${ctx.seedId}`],
      ['pr_behind_base', `bench-behind-base-seed-${ctx.seedId}`],
    ] as const) {
      const pr = await seedPull(ctx, kind)
      expect(pr.seeded.base, kind).to.equal(base)
      const {data} = await ctx.agent.rest.pulls.get({...repo, pull_number: pr.number})
      expect([data.base.ref, data.base.sha], kind).to.deep.equal([base, pr.seeded.base_sha])
      // Another scenario's merge into the default branch leaves the fixture as seeded.
      await ctx.agent.rest.repos.createOrUpdateFileContents({
        ...repo,
        path: `.bench/elsewhere-${kind}.md`,
        message: 'A merge elsewhere',
        content: Buffer.from('elsewhere\n').toString('base64'),
        branch: 'main',
      })
      const {data: compare} = await ctx.agent.rest.repos.compareCommits({...repo, base, head: pr.head})
      expect(compare.behind_by, kind).to.equal(1)
      expect(await pullStatus(ctx, pr), kind).to.deep.equal([])
      // A run that pushes to the base, or deletes it, is undone by the reset.
      await ctx.agent.rest.git.updateRef({...repo, ref: `heads/${base}`, sha: pr.seeded.head_sha, force: true})
      expect(await pullStatus(ctx, pr), kind).to.include(`base branch ${base} moved since seeding`)
      await resetPull(ctx, pr)
      expect(await pullStatus(ctx, pr), kind).to.deep.equal([])
      expect((await seedPull(ctx, kind)).seeded.base_sha, kind).to.equal(pr.seeded.base_sha)
    }
  })
})
