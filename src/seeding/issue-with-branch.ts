/**
 * The issue_with_branch kind: the fixture issue with a fix branch of one commit, and an open pull
 * request from another branch that closes it. Reset restores the issue, closes pull requests opened
 * from the fix branch, puts both branches back on their seeded commits and the closing pull request
 * back open.
 */
import {FIXTURE_LABEL, repoParams, seededCommitter, seedLabel, type FixtureContext} from './context.js'
import {sorted, type Snapshot} from './digest.js'
import {
  isIssueResource,
  ISSUE_STATUS_FIELDS,
  issueStatus,
  resetIssue,
  seedIssue,
  snapshotIssue,
  type IssueResource,
} from './issues.js'
import {fixtureKind, hasFields} from './kind.js'

export type IssueWithBranchResource = IssueResource & {
  branch: string
  /** The branch's commit when seeded (absent in manifests written before reset restored it). */
  branch_sha?: string
  /**
   * An open pull request from another branch whose body closes the issue: the pull request the issue
   * already has (issue-relations-prs-list-001). Absent in manifests written before it was seeded.
   */
  closing_pr?: ClosingPull
}

/** The seeded pull request that closes the issue, and its seeded state. */
interface ClosingPull {
  number: number
  branch: string
  head_sha: string
  title: string
  body: string
}

const CLOSING_PULL_TITLE = 'Add a regression test for the page offset'
const CLOSING_PULL_COMMIT = 'Test the page offset'
const closingPullBody = (issue: number) => `A test that pages through an export of three pages.\n\nFixes #${issue}`

export async function seedIssueWithBranch(ctx: FixtureContext, suffix = ''): Promise<IssueWithBranchResource> {
  const issue = await seedIssue({...ctx, seedId: ctx.seedId + suffix}, 'issue')
  const branch = `bench-fix-seed-${ctx.seedId}${suffix}`
  const sha = await branchWithCommit(ctx, branch, {
    path: 'src/paging.ts',
    message: `Fix the page offset (#${issue.number})`,
    content: 'export const pageOffset = (page: number, size: number) => (page - 1) * size\n',
  })
  const resource: IssueWithBranchResource = {
    ...issue,
    branch,
    branch_sha: sha,
    closing_pr: await seedClosingPull(ctx, issue.number, `bench-closes-seed-${ctx.seedId}${suffix}`),
  }
  await resetIssueWithBranch(ctx, resource)
  return resource
}

/** The head of `branch`, made first when missing: the default branch plus one commit that writes one file. */
async function branchWithCommit(
  ctx: FixtureContext,
  branch: string,
  file: {path: string; message: string; content: string},
): Promise<string> {
  const found = await branchSha(ctx, branch)
  if (found !== null) return found
  const repo = repoParams(ctx)
  const {data: repository} = await ctx.agent.rest.repos.get(repo)
  const base = (await ctx.agent.rest.git.getRef({...repo, ref: `heads/${repository.default_branch}`})).data.object.sha
  await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${branch}`, sha: base})
  const {data} = await ctx.agent.rest.repos.createOrUpdateFileContents({
    ...repo,
    branch,
    path: file.path,
    message: file.message,
    content: Buffer.from(file.content).toString('base64'),
    ...(await seededCommitter(ctx, ctx.agent)),
  })
  return data.commit.sha!
}

/** Finds (or opens, from a branch of its own) the pull request that closes the issue. */
async function seedClosingPull(ctx: FixtureContext, issue: number, branch: string): Promise<ClosingPull> {
  const repo = repoParams(ctx)
  const body = closingPullBody(issue)
  const existing = (
    await ctx.agent.paginate(ctx.agent.rest.pulls.list, {
      ...repo,
      state: 'all',
      head: `${ctx.owner}:${branch}`,
      per_page: 100,
    })
  ).find((p) => p.title === CLOSING_PULL_TITLE)
  const sha = await branchWithCommit(ctx, branch, {
    path: 'test/paging.test.ts',
    message: CLOSING_PULL_COMMIT,
    content:
      "import {pageOffset} from '../src/paging'\n\nif (pageOffset(3, 10) !== 20) throw new Error('page 3 starts at 20')\n",
  })
  if (existing) {
    // The seeded head is the fixture's own commit: a run killed before its reset may have pushed more.
    const commits = await ctx.agent.paginate(ctx.agent.rest.pulls.listCommits, {
      ...repo,
      pull_number: existing.number,
      per_page: 100,
    })
    return {
      number: existing.number,
      branch,
      head_sha: commits.filter((c) => c.commit.message === CLOSING_PULL_COMMIT).at(-1)?.sha ?? sha,
      title: CLOSING_PULL_TITLE,
      body,
    }
  }
  const {data: pull} = await ctx.agent.rest.pulls.create({
    ...repo,
    title: CLOSING_PULL_TITLE,
    body,
    head: branch,
    base: (await ctx.agent.rest.repos.get(repo)).data.default_branch,
  })
  await ctx.agent.rest.issues.addLabels({
    ...repo,
    issue_number: pull.number,
    labels: [FIXTURE_LABEL.name, seedLabel(ctx.seedId).name],
  })
  return {number: pull.number, branch, head_sha: sha, title: CLOSING_PULL_TITLE, body}
}

/** The seeded closing pull request back open, with its title, body and head (merged: nothing to undo, the snapshot shows it). */
async function resetClosingPull(ctx: FixtureContext, seeded: ClosingPull): Promise<void> {
  const repo = repoParams(ctx)
  const {data: pull} = await ctx.agent.rest.pulls.get({...repo, pull_number: seeded.number})
  if (pull.merged) return
  const sha = await branchSha(ctx, seeded.branch)
  if (sha === null)
    await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${seeded.branch}`, sha: seeded.head_sha})
  else if (sha !== seeded.head_sha)
    await ctx.agent.rest.git.updateRef({...repo, ref: `heads/${seeded.branch}`, sha: seeded.head_sha, force: true})
  const patch: {state?: 'open'; title?: string; body?: string} = {}
  if (pull.state !== 'open') patch.state = 'open'
  if (pull.title !== seeded.title) patch.title = seeded.title
  if ((pull.body ?? '') !== seeded.body) patch.body = seeded.body
  if (Object.keys(patch).length > 0) await ctx.agent.rest.pulls.update({...repo, pull_number: seeded.number, ...patch})
}

async function closingPullSnapshot(ctx: FixtureContext, seeded: ClosingPull | undefined): Promise<Snapshot | null> {
  if (!seeded) return null
  const [{data: pull}, sha] = await Promise.all([
    ctx.agent.rest.pulls.get({...repoParams(ctx), pull_number: seeded.number}),
    branchSha(ctx, seeded.branch),
  ])
  return {
    number: `#${pull.number}`,
    state: pull.merged ? 'merged' : pull.state,
    title: pull.title,
    body: pull.body ?? '',
    head_sha: sha,
  }
}

async function branchSha(ctx: FixtureContext, branch: string): Promise<string | null> {
  return ctx.agent.rest.git.getRef({...repoParams(ctx), ref: `heads/${branch}`}).then(
    (r) => r.data.object.sha,
    () => null,
  )
}

async function openPullsFrom(ctx: FixtureContext, branch: string) {
  return ctx.agent.paginate(ctx.agent.rest.pulls.list, {
    ...repoParams(ctx),
    state: 'open',
    head: `${ctx.owner}:${branch}`,
    per_page: 100,
  })
}

/**
 * Restores the issue, closes any pull request opened from the branch (GitHub cannot delete one), puts
 * the branch back on its seeded commit (recreating it when it was deleted), and the seeded closing pull
 * request back open as seeded.
 */
export async function resetIssueWithBranch(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<void> {
  await resetIssue(ctx, resource)
  for (const pull of await openPullsFrom(ctx, resource.branch))
    await ctx.agent.rest.pulls.update({...repoParams(ctx), pull_number: pull.number, state: 'closed'})
  if (resource.closing_pr) await resetClosingPull(ctx, resource.closing_pr)
  if (!resource.branch_sha) return
  const sha = await branchSha(ctx, resource.branch)
  if (sha === null)
    await ctx.agent.rest.git.createRef({
      ...repoParams(ctx),
      ref: `refs/heads/${resource.branch}`,
      sha: resource.branch_sha,
    })
  else if (sha !== resource.branch_sha)
    await ctx.agent.rest.git.updateRef({
      ...repoParams(ctx),
      ref: `heads/${resource.branch}`,
      sha: resource.branch_sha,
      force: true,
    })
}

/** The issue's snapshot, the branch's commit, the pull requests open from it, and the closing pull request. */
async function snapshotIssueWithBranch(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<Snapshot> {
  const [issue, sha, open, closing] = await Promise.all([
    snapshotIssue(ctx, resource),
    branchSha(ctx, resource.branch),
    openPullsFrom(ctx, resource.branch),
    closingPullSnapshot(ctx, resource.closing_pr),
  ])
  return {
    ...issue,
    branch: resource.branch,
    branch_sha: sha,
    open_pulls: sorted(open.map((p) => `#${p.number}`)),
    closing_pull: closing,
  }
}

export async function issueWithBranchStatus(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<string[]> {
  const problems = await issueStatus(ctx, resource)
  if ((await branchSha(ctx, resource.branch)) === null) problems.push(`branch ${resource.branch} is gone`)
  const open = await openPullsFrom(ctx, resource.branch)
  if (open.length > 0) problems.push(`an open pull request from ${resource.branch} (#${open[0]!.number})`)
  const closing = resource.closing_pr
  if (closing) {
    const pull = await ctx.agent.rest.pulls.get({...repoParams(ctx), pull_number: closing.number}).then(
      (r) => r.data,
      () => null,
    )
    if (!pull) problems.push(`closing pull request #${closing.number} cannot be read`)
    else if (pull.merged)
      problems.push(`closing pull request #${closing.number} merged (cannot be undone: seed per iteration)`)
    else if (pull.state !== 'open') problems.push(`closing pull request #${closing.number} is closed`)
  }
  return problems
}

export const issueWithBranchKind = fixtureKind('issue_with_branch', {
  is: (resource): resource is IssueWithBranchResource =>
    isIssueResource(resource) && hasFields(resource, {branch: 'string'}),
  seed: (ctx, {suffix}) => seedIssueWithBranch(ctx, suffix),
  reset: (ctx, resource) => resetIssueWithBranch(ctx, resource),
  snapshot: snapshotIssueWithBranch,
  status: issueWithBranchStatus,
  statusFields: [...ISSUE_STATUS_FIELDS, 'open_pulls'],
  label: (resource) => `issue #${String(resource.number)}`,
})
