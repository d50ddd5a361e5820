// State digests on the sandbox, for every fixture kind: seed (the digest is recorded), change each thing
// a scenario may change through the API as an agent would, check that verification names it, reset,
// and check that the resource reads exactly as seeded again. A check that cannot fail is no check: each
// change is verified to be seen before it is reset.
import {expect} from 'chai'
import type {Octokit} from '@octokit/rest'
import type {FixtureContext} from '../../src/seeding/context.js'
import {diffSnapshots, digestOf, stableJson, type StateDigest} from '../../src/seeding/digest.js'
import {
  assertFixturesAsSeeded,
  FixtureLeakError,
  fixturesStatus,
  resetFixtures,
  seedFixtures,
  snapshotFixture,
  verifyFixtures,
  type SeedOptions,
} from '../../src/seeding/index.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import type {FixtureKind} from '../../src/schemas/scenario.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {fixtureContext, octokitFor, OWNER, REPO} from '../support/sandbox.js'

const repo = {owner: OWNER, repo: REPO}
const OPTIONS: SeedOptions = {
  agentLogin: 'ghx-bench-agent',
  reviewerLogin: 'ghx-bench-reviewer',
  defaultBranch: 'main',
  workflowPollMs: 10,
}

type Resource = Record<string, unknown> & {number: number; id: number; node_id: string}

/** One change an agent can make, and the leak line verification must report for it. */
interface Change {
  what: string
  make(resource: Resource): Promise<unknown>
  leak: RegExp
}

describe('fixture state digests', function () {
  this.timeout(60_000)
  let sandbox: Sandbox
  let ctx: FixtureContext
  let agent: Octokit
  let reviewer: Octokit
  let manifest: Manifest
  let helper: {number: number; id: number; node_id: string}

  const resource = (kind: FixtureKind) => manifest.resources[kind] as unknown as Resource
  const graphql = (octokit: Octokit, query: string, variables: Record<string, unknown>) =>
    octokit.graphql(query, variables)
  const react = (octokit: Octokit, subject: string, content: string) =>
    graphql(
      octokit,
      'mutation($s: ID!, $c: ReactionContent!) { addReaction(input: {subjectId: $s, content: $c}) { reaction { content } } }',
      {s: subject, c: content},
    )
  const leaksOf = async (kind: FixtureKind) => (await verifyFixtures(ctx, manifest, [kind]))[0]!.leaks
  const reset = async (kind: FixtureKind) => {
    manifest = await resetFixtures(ctx, manifest, [kind], OPTIONS)
  }
  const digestNow = async (kind: FixtureKind) => digestOf(await snapshotFixture(ctx, kind, manifest.resources[kind]!))
  const seededDigest = (kind: FixtureKind) => (manifest.resources[kind]!.digest as StateDigest).sha256

  /** Each change alone is seen by verification and undone by reset; then all of them at once. */
  async function exercise(kind: FixtureKind, changes: Change[]): Promise<void> {
    expect(await leaksOf(kind), 'as seeded').to.deep.equal([])
    for (const change of changes) {
      await change.make(resource(kind))
      const leaks = await leaksOf(kind)
      expect(
        leaks.some((l) => change.leak.test(l)),
        `${change.what}: ${leaks.join(' | ') || 'no leak reported'}`,
      ).to.equal(true)
      await reset(kind)
      expect(await leaksOf(kind), `${change.what} reset`).to.deep.equal([])
    }
    for (const change of changes) await change.make(resource(kind))
    expect(await leaksOf(kind)).to.have.length.above(0)
    await reset(kind)
    expect(await digestNow(kind)).to.equal(seededDigest(kind))
    await assertFixturesAsSeeded(ctx, manifest, [kind])
  }

  before(async () => {
    sandbox = await startSandbox({timing: {queued_ms: 10, running_ms: 20}})
    ctx = fixtureContext(sandbox)
    agent = octokitFor(sandbox)
    reviewer = octokitFor(sandbox, sandbox.reviewerToken)
    const kinds: FixtureKind[] = [
      'issue',
      'issue_for_triage',
      'issue_bug_to_close',
      'issue_closed',
      'issue_with_branch',
      'pr',
      'pr_with_bugs',
      'pr_with_changes',
      'pr_with_reviews',
      'pr_with_mixed_threads',
      'workflow_run',
      'workflow_run_in_progress',
      'release',
      'project',
    ]
    manifest = await seedFixtures(ctx, kinds, OPTIONS)
    const created = (await agent.rest.issues.create({...repo, title: 'An unrelated issue'})).data
    helper = {number: created.number, id: created.id, node_id: created.node_id}
    await agent.rest.git.createRef({
      ...repo,
      ref: 'refs/heads/other-base',
      sha: (await agent.rest.git.getRef({...repo, ref: 'heads/main'})).data.object.sha,
    })
  })
  after(() => sandbox.close())

  describe('snapshots and their comparison', () => {
    it('serializes with sorted keys, so equal state has an equal digest', () => {
      expect(stableJson({b: [2, {d: 1, c: null}], a: 'x'})).to.equal('{"a":"x","b":[2,{"c":null,"d":1}]}')
      expect(digestOf({a: 1, b: 2}))
        .to.equal(digestOf({b: 2, a: 1}))
        .and.to.match(/^[0-9a-f]{64}$/)
    })

    it('names what differs as readable paths', () => {
      expect(
        diffSnapshots(
          'issue #12',
          {sub_issues: [], title: 'A', threads: {'a.ts:2': {resolved: true}}},
          {sub_issues: ['#40'], title: 'B', threads: {'a.ts:2': {resolved: false}}},
        ),
      ).to.deep.equal([
        'issue #12: sub_issues [#40] (seeded [])',
        'issue #12: threads[a.ts:2].resolved false (seeded true)',
        'issue #12: title "B" (seeded "A")',
      ])
      expect(diffSnapshots('x', {a: null}, {a: null})).to.deep.equal([])
    })
  })

  it('seeding records a digest per resource, equal to the state read back', async () => {
    for (const [kind, res] of Object.entries(manifest.resources)) {
      const digest = res.digest as StateDigest
      expect(digest.sha256, kind).to.equal(digestOf(digest.snapshot))
      expect(await digestNow(kind as FixtureKind), kind).to.equal(digest.sha256)
    }
    // Nothing volatile: seeding again (which finds every resource and resets it) records the same digests,
    // even after a run that was killed before its reset (a commit pushed to a head, a sub-issue set).
    const pr = resource('pr')
    await agent.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'killed.md',
      branch: String(pr.head),
      message: 'Pushed by a killed run',
      content: Buffer.from('x\n').toString('base64'),
    })
    await agent.rest.issues.addSubIssue({
      ...repo,
      issue_number: resource('issue').number,
      sub_issue_id: resource('issue_for_triage').id,
    })
    const again = await seedFixtures(ctx, Object.keys(manifest.resources) as FixtureKind[], OPTIONS, manifest)
    expect((again.resources.pr!.seeded as {head_sha: string}).head_sha).to.equal(
      (pr.seeded as {head_sha: string}).head_sha,
    )
    for (const kind of Object.keys(manifest.resources).filter((k) => !k.startsWith('workflow_run'))) {
      expect((again.resources[kind]!.digest as StateDigest).sha256, kind).to.equal(seededDigest(kind as FixtureKind))
    }
    // A fresh run (seeding dispatches one) reads as the seeded one: its id is not part of the digest.
    expect(again.resources.workflow_run!.id).to.not.equal(resource('workflow_run').id)
    expect((again.resources.workflow_run!.digest as StateDigest).sha256).to.equal(seededDigest('workflow_run'))
  })

  function issueChanges(kind: FixtureKind, kindLabel: string | undefined): Change[] {
    const base = (r: Resource) => ({...repo, issue_number: r.number})
    type Seeded = {
      comments?: Array<{login: string; body: string}>
      relations?: {
        parent: {number: number} | null
        sub_issues: Array<{number: number; id: number}>
        blocked_by: Array<{number: number; id: number}>
      }
    }
    const seeded = (r: Resource) => r.seeded as Seeded
    const changes: Change[] = [
      {
        what: 'title',
        make: (r) => agent.rest.issues.update({...base(r), title: 'changed'}),
        leak: /^issue #\d+: title "changed" \(seeded "/,
      },
      {
        what: 'body',
        make: (r) => agent.rest.issues.update({...base(r), body: 'rewritten'}),
        leak: /: body "rewritten"/,
      },
      {
        what: 'closed as not planned',
        make: (r) => agent.rest.issues.update({...base(r), state: 'closed', state_reason: 'not_planned'}),
        leak: /: state_reason "not_planned" \(seeded (none|"completed")\)/,
      },
      {
        what: 'labels',
        make: (r) => agent.rest.issues.setLabels({...base(r), labels: ['enhancement']}),
        leak: /: labels \[enhancement\] \(seeded \[/,
      },
      {
        what: 'assignees',
        make: (r) => agent.rest.issues.addAssignees({...base(r), assignees: ['ghx-bench']}),
        leak: /: assignees \[ghx-bench\] \(seeded \[\]\)/,
      },
      {
        what: 'milestone',
        make: async (r) =>
          agent.rest.issues.update({
            ...base(r),
            milestone: (await agent.rest.issues.listMilestones(repo)).data[0]!.number,
          }),
        leak: /: milestone 1 \(seeded none\)/,
      },
      {
        what: 'issue type',
        make: (r) => agent.rest.issues.update({...base(r), type: 'Bug'}),
        leak: /: type "Bug" \(seeded none\)/,
      },
      {
        what: 'comments (two identities)',
        make: async (r) => {
          await agent.rest.issues.createComment({...base(r), body: 'an agent was here'})
          await reviewer.rest.issues.createComment({...base(r), body: 'so was a reviewer'})
        },
        leak: /: comments \[(.+, )?ghx-bench-agent: an agent was here, ghx-bench-reviewer: so was a reviewer\] \(seeded \[/,
      },
      {
        what: 'reactions (two identities)',
        make: async (r) => {
          await react(agent, r.node_id, 'THUMBS_UP')
          await react(reviewer, r.node_id, 'HEART')
          // REST shows the same reactions in its rollup.
          expect((await agent.rest.issues.get(base(r))).data.reactions).to.include({total_count: 2, '+1': 1, heart: 1})
        },
        leak: /: reactions \[HEART by ghx-bench-reviewer, THUMBS_UP by ghx-bench-agent\] \(seeded \[\]\)/,
      },
      {
        what: 'parent',
        make: async (r) => {
          const parent = seeded(r).relations?.parent
          if (parent) await agent.rest.issues.removeSubIssue({...repo, issue_number: parent.number, sub_issue_id: r.id})
          await agent.rest.issues.addSubIssue({...repo, issue_number: helper.number, sub_issue_id: r.id})
        },
        leak: /: parent "#\d+" \(seeded (none|"#\d+")\)/,
      },
      {
        what: 'sub-issues',
        make: (r) => agent.rest.issues.addSubIssue({...base(r), sub_issue_id: helper.id}),
        leak: /: sub_issues \[(#\d+, )*#\d+\] \(seeded \[/,
      },
      {
        what: 'blocked by',
        make: (r) => agent.rest.issues.addBlockedByDependency({...base(r), issue_id: helper.id}),
        leak: /: blocked_by \[(#\d+, )*#\d+\] \(seeded \[/,
      },
      {
        what: 'blocking',
        make: (r) => agent.rest.issues.addBlockedByDependency({...repo, issue_number: helper.number, issue_id: r.id}),
        leak: /: blocking \[#\d+\] \(seeded \[\]\)/,
      },
    ]
    if (kindLabel) {
      changes.push({
        what: `repository label ${kindLabel} deleted`,
        make: () => agent.rest.issues.deleteLabel({...repo, name: kindLabel}),
        leak: /: repo_labels \[.*\] \(seeded \[/,
      })
    }
    const r0 = resource(kind)
    if (seeded(r0).comments?.length) {
      const firstComment = async (r: Resource) => (await agent.rest.issues.listComments(base(r))).data[0]!.id
      changes.push(
        {
          what: 'a seeded comment deleted',
          make: async (r) => agent.rest.issues.deleteComment({...repo, comment_id: await firstComment(r)}),
          leak: /: comments \[.*\] \(seeded \[/,
        },
        {
          what: 'a seeded comment edited',
          make: async (r) =>
            agent.rest.issues.updateComment({...repo, comment_id: await firstComment(r), body: 'edited'}),
          leak: /: comments \[ghx-bench-reviewer: edited, /,
        },
      )
    }
    const relations = seeded(r0).relations
    if (relations) {
      const [child] = relations.sub_issues
      const [blocker] = relations.blocked_by
      // All changes are also made at once: a relation another change already removed is left as it is.
      const gone = () => undefined
      changes.push(
        {
          what: 'the seeded parent removed',
          make: (r) =>
            agent.rest.issues
              .removeSubIssue({...repo, issue_number: relations.parent!.number, sub_issue_id: r.id})
              .catch(gone),
          leak: /: parent (none|"#\d+") \(seeded "#\d+"\)/,
        },
        {
          what: 'a seeded sub-issue removed',
          make: (r) => agent.rest.issues.removeSubIssue({...base(r), sub_issue_id: child!.id}),
          leak: new RegExp(`: sub_issues \\[.*\\] \\(seeded \\[.*#${child!.number}`),
        },
        {
          what: 'a seeded sub-issue moved to another parent',
          make: async (r) => {
            await agent.rest.issues.removeSubIssue({...base(r), sub_issue_id: child!.id}).catch(gone)
            await agent.rest.issues.addSubIssue({...repo, issue_number: helper.number, sub_issue_id: child!.id})
          },
          leak: new RegExp(`: sub_issues \\[.*\\] \\(seeded \\[.*#${child!.number}`),
        },
        {
          what: 'a seeded blocker removed',
          make: (r) => agent.rest.issues.removeDependencyBlockedBy({...base(r), issue_id: blocker!.id}),
          leak: /: blocked_by \[\] \(seeded \[#\d+\]\)/,
        },
      )
    }
    if (kind === 'issue_closed')
      changes.push({
        what: 'reopened',
        make: (r) => agent.rest.issues.update({...base(r), state: 'open'}),
        leak: /: state "open" \(seeded "closed"\)/,
      })
    return changes
  }

  for (const [kind, label] of [
    ['issue', undefined],
    ['issue_for_triage', 'priority:high'],
    ['issue_bug_to_close', 'resolved'],
    ['issue_closed', undefined],
  ] as const) {
    it(`${kind}: title, body, state, labels, assignees, milestone, type, comments, reactions, parent, sub-issues, dependencies${label ? ', its repository labels' : ''}`, async () => {
      await exercise(kind, issueChanges(kind, label))
    })
  }

  it('issue_with_branch: the issue, a pull request opened from the branch, commits pushed to it, the branch deleted, its closing pull request', async () => {
    const branch = () => String(resource('issue_with_branch').branch)
    const closing = () => resource('issue_with_branch').closing_pr as {number: number; branch: string}
    await exercise('issue_with_branch', [
      {
        what: 'issue title',
        make: (r) => agent.rest.issues.update({...repo, issue_number: r.number, title: 'changed'}),
        leak: /: title "changed"/,
      },
      {
        what: 'pull request',
        make: (r) =>
          agent.rest.pulls.create({
            ...repo,
            title: 'Fix paging',
            head: branch(),
            base: 'main',
            body: `Fixes #${r.number}`,
          }),
        leak: /: open_pulls \[#\d+\] \(seeded \[\]\)/,
      },
      {
        what: 'a commit pushed',
        make: () =>
          agent.rest.repos.createOrUpdateFileContents({
            ...repo,
            path: 'NOTES.md',
            branch: branch(),
            message: 'More',
            content: Buffer.from('more\n').toString('base64'),
          }),
        leak: /: branch_sha "[0-9a-f]+" \(seeded "[0-9a-f]+"\)/,
      },
      {
        what: 'branch deleted',
        make: () => agent.rest.git.deleteRef({...repo, ref: `heads/${branch()}`}),
        leak: /: branch_sha none \(seeded "/,
      },
      {
        what: 'the closing pull request closed',
        make: () => agent.rest.pulls.update({...repo, pull_number: closing().number, state: 'closed'}),
        leak: /: closing_pull\.state "closed" \(seeded "open"\)/,
      },
      {
        what: 'the closing pull request edited',
        make: () => agent.rest.pulls.update({...repo, pull_number: closing().number, body: 'No longer fixes it'}),
        leak: /: closing_pull\.body "No longer fixes it"/,
      },
      {
        what: 'the closing pull request’s branch deleted',
        make: () => agent.rest.git.deleteRef({...repo, ref: `heads/${closing().branch}`}),
        leak: /: closing_pull\.head_sha none \(seeded "/,
      },
    ])
    // The issue has its closing pull request, open, and only that one.
    const prs = await agent.graphql<{
      repository: {issue: {closedByPullRequestsReferences: {nodes: Array<{number: number; state: string}>}}}
    }>(
      'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { issue(number: $n) { closedByPullRequestsReferences(first: 10) { nodes { number state } } } } }',
      {n: resource('issue_with_branch').number},
    )
    expect(prs.repository.issue.closedByPullRequestsReferences.nodes.filter((p) => p.state === 'OPEN')).to.deep.equal([
      {number: closing().number, state: 'OPEN'},
    ])
  })

  function pullChanges(kind: FixtureKind, options: {reviewerToRequest: string; threads: boolean}): Change[] {
    const pull = (r: Resource) => ({...repo, pull_number: r.number})
    const head = (r: Resource) => String(r.head)
    const changes: Change[] = [
      {
        what: 'title',
        make: (r) => agent.rest.pulls.update({...pull(r), title: 'renamed'}),
        leak: /^pull request #\d+: title "renamed"/,
      },
      {what: 'body', make: (r) => agent.rest.pulls.update({...pull(r), body: 'rewritten'}), leak: /: body "rewritten"/},
      {
        what: 'base',
        make: (r) => agent.rest.pulls.update({...pull(r), base: 'other-base'}),
        leak: /: base "other-base" \(seeded "main"\)/,
      },
      {
        what: 'closed',
        make: (r) => agent.rest.pulls.update({...pull(r), state: 'closed'}),
        leak: /: state "closed" \(seeded "open"\)/,
      },
      {
        what: 'draft',
        make: (r) =>
          graphql(
            agent,
            'mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }',
            {id: r.node_id},
          ),
        leak: /: draft true \(seeded false\)/,
      },
      {
        what: 'labels',
        make: (r) => agent.rest.issues.addLabels({...repo, issue_number: r.number, labels: ['enhancement']}),
        leak: /: labels \[.*enhancement.*\] \(seeded/,
      },
      {
        what: 'assignees',
        make: (r) => agent.rest.issues.addAssignees({...repo, issue_number: r.number, assignees: ['ghx-bench']}),
        leak: /: assignees \[ghx-bench\]/,
      },
      {
        what: 'requested reviewers',
        make: (r) => agent.rest.pulls.requestReviewers({...pull(r), reviewers: [options.reviewerToRequest]}),
        leak: new RegExp(`: requested_reviewers \\[${options.reviewerToRequest}\\] \\(seeded \\[\\]\\)`),
      },
      {
        what: 'a pending review',
        make: (r) => agent.rest.pulls.createReview({...pull(r), body: 'draft thoughts'}),
        leak: /: reviews \[(.+, )?PENDING by ghx-bench-agent: draft thoughts\] \(seeded \[[^\]]*\]\)/,
      },
      {
        what: 'a conversation comment',
        make: (r) => agent.rest.issues.createComment({...repo, issue_number: r.number, body: 'Looks good'}),
        leak: /: comments \[ghx-bench-agent: Looks good\]/,
      },
      {
        what: 'a reaction',
        make: (r) => react(agent, r.node_id, 'ROCKET'),
        leak: /: reactions \[ROCKET by ghx-bench-agent\]/,
      },
      {
        what: 'a new review thread',
        make: async (r) => {
          const {data} = await agent.rest.pulls.get(pull(r))
          const file = (await agent.rest.pulls.listFiles(pull(r))).data[0]!.filename
          await agent.rest.pulls.createReviewComment({
            ...pull(r),
            body: 'One more thing',
            path: file,
            line: 1,
            side: 'RIGHT',
            commit_id: data.head.sha,
          })
        },
        leak: /: threads(\[[^\]]+\]|\.[\w]+)?( \(2\))?/,
      },
      {
        what: 'a commit pushed to the head',
        make: (r) =>
          agent.rest.repos.createOrUpdateFileContents({
            ...repo,
            path: `pushed-${kind}.md`,
            branch: head(r),
            message: 'Pushed',
            content: Buffer.from('pushed\n').toString('base64'),
          }),
        leak: /: head_sha "[0-9a-f]+" \(seeded "[0-9a-f]+"\)/,
      },
    ]
    if (kind === 'pr')
      changes.push({
        what: 'branch updated from base',
        make: (r) => agent.rest.pulls.updateBranch(pull(r)),
        leak: /: head_sha /,
      })
    if (options.threads) {
      const seededThread = (r: Resource, resolved: boolean) =>
        (r.seeded as {threads: Array<{id: string; resolved: boolean; comment_id: number}>}).threads.find(
          (t) => t.resolved === resolved,
        )!
      changes.push(
        {
          what: 'a reply to a thread',
          make: (r) =>
            graphql(
              agent,
              'mutation($id: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: "Done."}) { comment { id } } }',
              {id: seededThread(r, false).id},
            ),
          leak: /: threads\[[^\]]+\]\.comments \[ghx-bench-reviewer: .*, ghx-bench-agent: Done\.\]/,
        },
        {
          what: 'a thread resolved',
          make: (r) =>
            graphql(agent, 'mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { id } } }', {
              id: seededThread(r, false).id,
            }),
          leak: /: threads\[[^\]]+\]\.resolved true \(seeded false\)/,
        },
        {
          what: 'a seeded comment edited',
          make: (r) =>
            reviewer.rest.pulls.updateReviewComment({
              ...repo,
              comment_id: seededThread(r, false).comment_id,
              body: 'edited',
            }),
          leak: /: threads\[[^\]]+\]\.comments \[ghx-bench-reviewer: edited\]/,
        },
        {
          what: 'a reaction on a seeded comment',
          make: async (r) =>
            react(
              agent,
              (await agent.rest.pulls.getReviewComment({...repo, comment_id: seededThread(r, false).comment_id})).data
                .node_id,
              'EYES',
            ),
          leak: /: threads\[[^\]]+\]\.reactions \[EYES by ghx-bench-agent\]/,
        },
      )
      if ((resource(kind).seeded as {threads: Array<{resolved: boolean}>}).threads.some((t) => t.resolved)) {
        changes.push({
          what: 'a thread unresolved',
          make: (r) =>
            graphql(agent, 'mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { id } } }', {
              id: seededThread(r, true).id,
            }),
          leak: /: threads\[[^\]]+\]\.resolved false \(seeded true\)/,
        })
      }
    }
    return changes
  }

  it('pr: title, body, base, state, draft, labels, assignees, reviewers, pending review, comments, reactions, threads, head pushed or updated', async () => {
    await exercise('pr', pullChanges('pr', {reviewerToRequest: 'ghx-bench-reviewer', threads: true}))
  })

  it('pr_with_mixed_threads: the same, and replies, resolutions, edits and reactions on the seeded threads', async () => {
    await exercise(
      'pr_with_mixed_threads',
      pullChanges('pr_with_mixed_threads', {reviewerToRequest: 'ghx-bench-reviewer', threads: true}),
    )
  })

  it('pr_with_bugs (opened by the second identity): the same', async () => {
    await exercise('pr_with_bugs', pullChanges('pr_with_bugs', {reviewerToRequest: 'ghx-bench', threads: false}))
  })

  it('pr_with_changes (opened by the second identity): the same', async () => {
    await exercise('pr_with_changes', pullChanges('pr_with_changes', {reviewerToRequest: 'ghx-bench', threads: false}))
  })

  it('pr_with_reviews: the same, and its seeded threads', async () => {
    await exercise(
      'pr_with_reviews',
      pullChanges('pr_with_reviews', {reviewerToRequest: 'ghx-bench-reviewer', threads: true}),
    )
  })

  it('workflow_run: a rerun is undone by a fresh run that reads as the seeded one', async () => {
    const before = resource('workflow_run').id
    await agent.rest.actions.reRunWorkflowFailedJobs({...repo, run_id: before})
    expect(await leaksOf('workflow_run')).to.include(`workflow run ${before}: attempt 2 (seeded 1)`)
    await reset('workflow_run')
    expect(resource('workflow_run').id).to.not.equal(before)
    expect(await leaksOf('workflow_run')).to.deep.equal([])
    // A reset that did not replace the run is reported.
    const stale = {
      ...manifest,
      resources: {...manifest.resources, workflow_run: {...manifest.resources.workflow_run!, id: before}},
    }
    const leaks = (await verifyFixtures(ctx, stale, ['workflow_run']))[0]!.leaks
    expect(leaks.join(' | ')).to.match(/attempt 2 \(seeded 1\)/)
  })

  it('workflow_run_in_progress: a cancel is undone by a fresh run still in progress; a replaced run still running is cancelled', async () => {
    const before = resource('workflow_run_in_progress').id
    expect((await agent.rest.actions.getWorkflowRun({...repo, run_id: before})).data.status).to.equal('in_progress')
    await agent.rest.actions.cancelWorkflowRun({...repo, run_id: before})
    expect((await leaksOf('workflow_run_in_progress')).join(' | ')).to.match(
      /status "completed" \(seeded "in_progress"\)/,
    )
    await reset('workflow_run_in_progress')
    const fresh = resource('workflow_run_in_progress').id
    expect(fresh).to.not.equal(before)
    expect(await leaksOf('workflow_run_in_progress')).to.deep.equal([])
    // The agent did nothing this time: the reset cancels the run it replaces, so none is left running.
    await reset('workflow_run_in_progress')
    expect((await agent.rest.actions.getWorkflowRun({...repo, run_id: fresh})).data.conclusion).to.equal('cancelled')
  })

  it('release: name, notes, draft, prerelease, tag and target', async () => {
    const update = (r: Resource, patch: Record<string, unknown>) =>
      agent.rest.repos.updateRelease({...repo, release_id: r.id, ...patch})
    await exercise('release', [
      {what: 'name', make: (r) => update(r, {name: 'Renamed'}), leak: /^release v0\.0\.0-bench-test: name "Renamed"/},
      {what: 'notes', make: (r) => update(r, {body: 'Shipped.'}), leak: /: body "Shipped\."/},
      {what: 'published', make: (r) => update(r, {draft: false}), leak: /: draft false \(seeded true\)/},
      {what: 'prerelease', make: (r) => update(r, {prerelease: true}), leak: /: prerelease true \(seeded false\)/},
      {what: 'tag', make: (r) => update(r, {tag_name: 'v9.9.9'}), leak: /: tag_name "v9\.9\.9"/},
      {
        what: 'target',
        make: (r) => update(r, {target_commitish: 'other-base'}),
        leak: /: target_commitish "other-base" \(seeded "main"\)/,
      },
    ])
  })

  it('project: field values, items added, the seeded item removed (re-added; the resource names the new item)', async () => {
    const triage = manifest.resources.issue_for_triage as unknown as Resource
    const seededItem = String(resource('project').item_id)
    await exercise('project', [
      {
        what: 'a Status value',
        make: (r) =>
          graphql(
            agent,
            'mutation($p: ID!, $i: ID!, $f: ID!, $o: String!) { updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f, value: {singleSelectOptionId: $o}}) { projectV2Item { id } } }',
            {
              p: r.id,
              i: r.item_id,
              f: r.field_id,
              o: r.option_id,
            },
          ),
        leak: /^project #\d+: items\[#\d+\]\.values\.Status "[^"]+" \(seeded absent\)/,
      },
      {
        what: 'an issue added',
        make: (r) =>
          graphql(
            agent,
            'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
            {p: r.id, c: triage.node_id},
          ),
        leak: new RegExp(
          `^project #\\d+: items\\[#${triage.number}\\] \\{type: ISSUE, values: \\{\\}\\} \\(seeded absent\\)`,
        ),
      },
      {
        what: 'the seeded issue removed',
        make: (r) =>
          graphql(
            agent,
            'mutation($p: ID!, $i: ID!) { deleteProjectV2Item(input: {projectId: $p, itemId: $i}) { deletedItemId } }',
            {p: r.id, i: r.item_id},
          ),
        leak: /^project #\d+: items\[#\d+\] absent \(seeded \{type: ISSUE, values: \{\}\}\)/,
      },
    ])
    const project = resource('project')
    expect(project.item_id).to.not.equal(seededItem)
    const items = await graphql(
      agent,
      'query($id: ID!) { node(id: $id) { ... on ProjectV2 { items(first: 10) { nodes { id } } } } }',
      {id: project.id},
    )
    expect((items as {node: {items: {nodes: Array<{id: string}>}}}).node.items.nodes.map((n) => n.id)).to.deep.equal([
      project.item_id,
    ])
  })

  describe('a reset that misses something', () => {
    it('is reported by name: a relation left behind, with no reset at all', async () => {
      const parent = resource('issue')
      const child = manifest.resources.issue_for_triage as unknown as Resource
      await agent.rest.issues.addSubIssue({...repo, issue_number: parent.number, sub_issue_id: child.id})
      const results = await verifyFixtures(ctx, manifest, ['issue', 'issue_for_triage'])
      expect(results).to.deep.equal([
        {kind: 'issue', leaks: [`issue #${parent.number}: sub_issues [#${child.number}] (seeded [])`]},
        {kind: 'issue_for_triage', leaks: [`issue #${child.number}: parent "#${parent.number}" (seeded none)`]},
      ])
      try {
        await assertFixturesAsSeeded(ctx, manifest, ['issue'])
        expect.fail('expected a FixtureLeakError')
      } catch (error) {
        expect(error).to.be.instanceOf(FixtureLeakError)
        expect((error as Error).message).to.equal(
          `fixture state not restored by reset: issue #${parent.number}: sub_issues [#${child.number}] (seeded [])`,
        )
      }
      // `fixtures status` shows it too (the kind's own checks do not look at relations).
      const status = await fixturesStatus(ctx, manifest)
      expect(status.find((s) => s.kind === 'issue')!.problems).to.deep.equal([
        `issue #${parent.number}: sub_issues [#${child.number}] (seeded [])`,
      ])
      // Resetting the parent alone undoes the relation for both.
      await reset('issue')
      expect(
        (await verifyFixtures(ctx, manifest, ['issue', 'issue_for_triage'])).flatMap((v) => v.leaks),
      ).to.deep.equal([])
    })

    it('is reported by name: what GitHub cannot undo (a submitted review) survives the reset', async () => {
      const pr = resource('pr_with_bugs')
      await agent.rest.pulls.createReview({
        ...repo,
        pull_number: pr.number,
        event: 'REQUEST_CHANGES',
        body: 'Bugs.',
        comments: [{path: 'src/utils/stats.ts', line: 4, body: 'div by zero'}],
      })
      await reset('pr_with_bugs')
      const leaks = await leaksOf('pr_with_bugs')
      expect(leaks).to.deep.equal([
        `pull request #${pr.number}: reviews [CHANGES_REQUESTED by ghx-bench-agent: Bugs.] (seeded [])`,
      ])
    })

    it('is reported when no seeded digest was recorded (nothing to compare with is no pass)', async () => {
      const {digest: _digest, ...bare} = manifest.resources.release!
      const leaks = (await verifyFixtures(ctx, {...manifest, resources: {release: bare}}, ['release']))[0]!.leaks
      expect(leaks).to.deep.equal([
        `release ${String(bare.tag_name)}: no seeded digest recorded (seed the fixtures again: ghx-bench fixtures seed)`,
      ])
    })
  })

  it('the kinds the workflow scenarios need seed the labels their tasks add, as a real repository has them', async () => {
    const labels = (await agent.paginate(agent.rest.issues.listLabelsForRepo, {...repo, per_page: 100})).map(
      (l) => l.name,
    )
    // issue-close-with-context-wf-001 adds `resolved`; issue-triage-and-assign-wf-001 adds `bug` and `priority:high`.
    expect(labels).to.include.members(['resolved', 'bug', 'priority:high', 'enhancement', 'tracking', 'triage'])
    const fresh = await startSandbox()
    try {
      const clean = fixtureContext(fresh)
      const labelsOf = async () =>
        (await clean.agent.paginate(clean.agent.rest.issues.listLabelsForRepo, {...repo, per_page: 100})).map(
          (l) => l.name,
        )
      await clean.agent.rest.issues.deleteLabel({...repo, name: 'bug'})
      expect(await labelsOf()).to.not.include('bug')
      await seedFixtures(clean, ['issue_bug_to_close'], OPTIONS)
      expect(await labelsOf()).to.include.members(['resolved', 'bug'])
      await seedFixtures(clean, ['issue_for_triage'], OPTIONS)
      expect(await labelsOf()).to.include.members(['priority:high', 'bug'])
    } finally {
      await fresh.close()
    }
  })
})
