/**
 * The remaining fixture kinds: an issue with a fix branch, a failed workflow run, a draft release,
 * and a Projects v2 board holding the fixture issue.
 */
import {LONG_RUNNING_WORKFLOW_FILE, RERUN_WORKFLOW_FILE} from '../emulator/defaults.js'
import {FIXTURE_LABEL, issueRef, repoParams, seedLabel, type FixtureContext} from './context.js'
import {sorted, type Snapshot} from './digest.js'
import {ISSUE_STATUS_FIELDS, issueStatus, resetIssue, seedIssue, snapshotIssue, type IssueResource} from './issues.js'

// ---- issue_with_branch ------------------------------------------------------------------------

export interface IssueWithBranchResource extends IssueResource {
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
export interface ClosingPull {
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
  const sha = await branchWithCommit(ctx, branch, {path: 'src/paging.ts', message: `Fix the page offset (#${issue.number})`, content: 'export const pageOffset = (page: number, size: number) => (page - 1) * size\n'})
  const resource: IssueWithBranchResource = {...issue, branch, branch_sha: sha, closing_pr: await seedClosingPull(ctx, issue.number, `bench-closes-seed-${ctx.seedId}${suffix}`)}
  await resetIssueWithBranch(ctx, resource)
  return resource
}

/** The head of `branch`, made first when missing: the default branch plus one commit that writes one file. */
async function branchWithCommit(ctx: FixtureContext, branch: string, file: {path: string; message: string; content: string}): Promise<string> {
  const found = await branchSha(ctx, branch)
  if (found !== null) return found
  const repo = repoParams(ctx)
  const {data: repository} = await ctx.agent.rest.repos.get(repo)
  const base = (await ctx.agent.rest.git.getRef({...repo, ref: `heads/${repository.default_branch}`})).data.object.sha
  await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${branch}`, sha: base})
  const {data} = await ctx.agent.rest.repos.createOrUpdateFileContents({...repo, branch, path: file.path, message: file.message, content: Buffer.from(file.content).toString('base64')})
  return data.commit.sha!
}

/** Finds (or opens, from a branch of its own) the pull request that closes the issue. */
async function seedClosingPull(ctx: FixtureContext, issue: number, branch: string): Promise<ClosingPull> {
  const repo = repoParams(ctx)
  const body = closingPullBody(issue)
  const existing = (await ctx.agent.paginate(ctx.agent.rest.pulls.list, {...repo, state: 'all', head: `${ctx.owner}:${branch}`, per_page: 100})).find((p) => p.title === CLOSING_PULL_TITLE)
  const sha = await branchWithCommit(ctx, branch, {path: 'test/paging.test.ts', message: CLOSING_PULL_COMMIT, content: "import {pageOffset} from '../src/paging'\n\nif (pageOffset(3, 10) !== 20) throw new Error('page 3 starts at 20')\n"})
  if (existing) {
    // The seeded head is the fixture's own commit: a run killed before its reset may have pushed more.
    const commits = await ctx.agent.paginate(ctx.agent.rest.pulls.listCommits, {...repo, pull_number: existing.number, per_page: 100})
    return {number: existing.number, branch, head_sha: commits.filter((c) => c.commit.message === CLOSING_PULL_COMMIT).at(-1)?.sha ?? sha, title: CLOSING_PULL_TITLE, body}
  }
  const {data: pull} = await ctx.agent.rest.pulls.create({...repo, title: CLOSING_PULL_TITLE, body, head: branch, base: (await ctx.agent.rest.repos.get(repo)).data.default_branch})
  await ctx.agent.rest.issues.addLabels({...repo, issue_number: pull.number, labels: [FIXTURE_LABEL.name, seedLabel(ctx.seedId).name]})
  return {number: pull.number, branch, head_sha: sha, title: CLOSING_PULL_TITLE, body}
}

/** The seeded closing pull request back open, with its title, body and head (merged: nothing to undo, the snapshot shows it). */
async function resetClosingPull(ctx: FixtureContext, seeded: ClosingPull): Promise<void> {
  const repo = repoParams(ctx)
  const {data: pull} = await ctx.agent.rest.pulls.get({...repo, pull_number: seeded.number})
  if (pull.merged) return
  const sha = await branchSha(ctx, seeded.branch)
  if (sha === null) await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${seeded.branch}`, sha: seeded.head_sha})
  else if (sha !== seeded.head_sha) await ctx.agent.rest.git.updateRef({...repo, ref: `heads/${seeded.branch}`, sha: seeded.head_sha, force: true})
  const patch: {state?: 'open'; title?: string; body?: string} = {}
  if (pull.state !== 'open') patch.state = 'open'
  if (pull.title !== seeded.title) patch.title = seeded.title
  if ((pull.body ?? '') !== seeded.body) patch.body = seeded.body
  if (Object.keys(patch).length > 0) await ctx.agent.rest.pulls.update({...repo, pull_number: seeded.number, ...patch})
}

async function closingPullSnapshot(ctx: FixtureContext, seeded: ClosingPull | undefined): Promise<Snapshot | null> {
  if (!seeded) return null
  const [{data: pull}, sha] = await Promise.all([ctx.agent.rest.pulls.get({...repoParams(ctx), pull_number: seeded.number}), branchSha(ctx, seeded.branch)])
  return {number: `#${pull.number}`, state: pull.merged ? 'merged' : pull.state, title: pull.title, body: pull.body ?? '', head_sha: sha}
}

async function branchSha(ctx: FixtureContext, branch: string): Promise<string | null> {
  return ctx.agent.rest.git.getRef({...repoParams(ctx), ref: `heads/${branch}`}).then((r) => r.data.object.sha, () => null)
}

async function openPullsFrom(ctx: FixtureContext, branch: string) {
  return ctx.agent.paginate(ctx.agent.rest.pulls.list, {...repoParams(ctx), state: 'open', head: `${ctx.owner}:${branch}`, per_page: 100})
}

/**
 * Restores the issue, closes any pull request opened from the branch (GitHub cannot delete one), puts
 * the branch back on its seeded commit (recreating it when it was deleted), and the seeded closing pull
 * request back open as seeded.
 */
export async function resetIssueWithBranch(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<void> {
  await resetIssue(ctx, resource)
  for (const pull of await openPullsFrom(ctx, resource.branch)) await ctx.agent.rest.pulls.update({...repoParams(ctx), pull_number: pull.number, state: 'closed'})
  if (resource.closing_pr) await resetClosingPull(ctx, resource.closing_pr)
  if (!resource.branch_sha) return
  const sha = await branchSha(ctx, resource.branch)
  if (sha === null) await ctx.agent.rest.git.createRef({...repoParams(ctx), ref: `refs/heads/${resource.branch}`, sha: resource.branch_sha})
  else if (sha !== resource.branch_sha) await ctx.agent.rest.git.updateRef({...repoParams(ctx), ref: `heads/${resource.branch}`, sha: resource.branch_sha, force: true})
}

/** The issue's snapshot, the branch's commit, the pull requests open from it, and the closing pull request. */
export async function snapshotIssueWithBranch(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<Snapshot> {
  const [issue, sha, open, closing] = await Promise.all([
    snapshotIssue(ctx, resource),
    branchSha(ctx, resource.branch),
    openPullsFrom(ctx, resource.branch),
    closingPullSnapshot(ctx, resource.closing_pr),
  ])
  return {...issue, branch: resource.branch, branch_sha: sha, open_pulls: sorted(open.map((p) => `#${p.number}`)), closing_pull: closing}
}

export async function issueWithBranchStatus(ctx: FixtureContext, resource: IssueWithBranchResource): Promise<string[]> {
  const problems = await issueStatus(ctx, resource)
  if ((await branchSha(ctx, resource.branch)) === null) problems.push(`branch ${resource.branch} is gone`)
  const open = await openPullsFrom(ctx, resource.branch)
  if (open.length > 0) problems.push(`an open pull request from ${resource.branch} (#${open[0]!.number})`)
  const closing = resource.closing_pr
  if (closing) {
    const pull = await ctx.agent.rest.pulls.get({...repoParams(ctx), pull_number: closing.number}).then((r) => r.data, () => null)
    if (!pull) problems.push(`closing pull request #${closing.number} cannot be read`)
    else if (pull.merged) problems.push(`closing pull request #${closing.number} merged (cannot be undone: seed per iteration)`)
    else if (pull.state !== 'open') problems.push(`closing pull request #${closing.number} is closed`)
  }
  return problems
}

export const ISSUE_WITH_BRANCH_STATUS_FIELDS = [...ISSUE_STATUS_FIELDS, 'open_pulls']

// ---- workflow_run -----------------------------------------------------------------------------

export interface WorkflowRunResource {
  id: number
  job_id: number
  check_run_id: number
  workflow_file: string
  seeded: {attempt: 1; conclusion: 'failure'} | {attempt: 1; status: 'in_progress'}
}

/** The two fixture runs: the failed first attempt of bench-rerun-failed.yml, or a run of bench-long-running.yml still in progress. */
export type WorkflowRunKind = 'workflow_run' | 'workflow_run_in_progress'

const RUN_KINDS = {
  workflow_run: {file: RERUN_WORKFLOW_FILE, ready: (status: string | null) => status === 'completed', seeded: {attempt: 1, conclusion: 'failure'} as const},
  workflow_run_in_progress: {file: LONG_RUNNING_WORKFLOW_FILE, ready: (status: string | null) => status === 'in_progress', seeded: {attempt: 1, status: 'in_progress'} as const},
}

/**
 * Dispatches the kind's workflow and waits for the state the fixture stands for: the failed first
 * attempt, or a run in progress. A rerun or a cancel cannot be undone, so resetting means dispatching
 * a fresh run (`replacing` the old one, which is cancelled if it still runs once the manifest points at
 * the new one).
 */
export async function seedWorkflowRun(ctx: FixtureContext, options: {kind?: WorkflowRunKind; timeoutMs?: number; pollMs?: number; replacing?: number} = {}): Promise<WorkflowRunResource> {
  const kind = RUN_KINDS[options.kind ?? 'workflow_run']
  const repo = repoParams(ctx)
  const {data: repository} = await ctx.agent.rest.repos.get(repo)
  const dispatchedAfter = Date.now() - 5000
  await ctx.agent.rest.actions.createWorkflowDispatch({...repo, workflow_id: kind.file, ref: repository.default_branch, inputs: {seed_id: ctx.seedId}})
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  for (;;) {
    const runs = await ctx.agent.rest.actions.listWorkflowRuns({...repo, workflow_id: kind.file, event: 'workflow_dispatch', per_page: 20})
    // The newest run of this seed created after the dispatch (GitHub does not return the run id), never the run it replaces.
    const run = runs.data.workflow_runs.find((r) => r.id !== options.replacing && r.display_title.includes(ctx.seedId) && Date.parse(r.created_at) >= dispatchedAfter - 1000)
    if (run && kind.ready(run.status)) {
      if (run.status === 'completed' && run.conclusion !== 'failure') throw new Error(`fixture run ${run.id} ended ${run.conclusion}, expected failure on attempt 1`)
      const jobs = await ctx.agent.rest.actions.listJobsForWorkflowRun({...repo, run_id: run.id})
      const job = jobs.data.jobs.find((j) => j.conclusion === 'failure') ?? jobs.data.jobs[0]!
      return {id: run.id, job_id: job.id, check_run_id: job.id, workflow_file: kind.file, seeded: kind.seeded}
    }
    if (run?.status === 'completed' && !kind.ready(run.status)) throw new Error(`the fixture run ${run.id} of ${kind.file} completed before it could be used`)
    if (Date.now() > deadline) throw new Error(`the fixture run of ${kind.file} did not reach its state in time`)
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 2000))
  }
}

/** Cancels a replaced fixture run that still runs, so no run is left behind (GitHub: 409 once it completed). */
export async function cancelIfRunning(ctx: FixtureContext, resource: WorkflowRunResource): Promise<void> {
  const {data} = await ctx.agent.rest.actions.getWorkflowRun({...repoParams(ctx), run_id: resource.id}).catch(() => ({data: null}))
  if (data && data.status !== 'completed') await ctx.agent.rest.actions.cancelWorkflowRun({...repoParams(ctx), run_id: resource.id}).catch(() => undefined)
}

/** The run as a reader sees it, without its id (reset replaces the run by a fresh one). */
export async function snapshotWorkflowRun(ctx: FixtureContext, resource: WorkflowRunResource): Promise<Snapshot> {
  const repo = repoParams(ctx)
  const [{data: run}, jobs] = await Promise.all([
    ctx.agent.rest.actions.getWorkflowRun({...repo, run_id: resource.id}),
    ctx.agent.paginate(ctx.agent.rest.actions.listJobsForWorkflowRun, {...repo, run_id: resource.id, per_page: 100}),
  ])
  return {
    workflow: resource.workflow_file,
    event: run.event,
    head_branch: run.head_branch ?? null,
    status: run.status ?? null,
    conclusion: run.conclusion ?? null,
    attempt: run.run_attempt ?? 1,
    jobs: sorted(jobs.map((j) => `${j.name}: ${j.conclusion ?? j.status}`)),
  }
}

export const WORKFLOW_RUN_STATUS_FIELDS = ['attempt', 'conclusion', 'status']

export async function workflowRunStatus(ctx: FixtureContext, resource: WorkflowRunResource): Promise<string[]> {
  try {
    const {data} = await ctx.agent.rest.actions.getWorkflowRun({...repoParams(ctx), run_id: resource.id})
    const problems: string[] = []
    if ((data.run_attempt ?? 1) !== 1) problems.push(`run ${resource.id} is on attempt ${data.run_attempt} (reset dispatches a fresh run)`)
    const seeded = 'status' in resource.seeded ? `${resource.seeded.status}/none` : `completed/${resource.seeded.conclusion}`
    if (`${data.status}/${data.conclusion ?? 'none'}` !== seeded) problems.push(`run ${resource.id} is ${data.status}/${data.conclusion ?? 'none'}, seeded ${seeded}`)
    return problems
  } catch (error) {
    return [`run ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

// ---- release ----------------------------------------------------------------------------------

export interface ReleaseResource {
  id: number
  tag_name: string
  seeded: {
    tag_name: string
    name: string
    body: string
    draft: true
    /** Absent in manifests written before reset restored them. */
    prerelease?: false
    target_commitish?: string
  }
}

export async function seedRelease(ctx: FixtureContext, suffix = ''): Promise<ReleaseResource> {
  const seeded = {tag_name: `v0.0.0-bench-${ctx.seedId}${suffix}`, name: `Benchmark draft (bench-seed:${ctx.seedId})`, body: 'Draft release for ghx-bench scenarios.', draft: true as const, prerelease: false as const}
  const {data: repository} = await ctx.agent.rest.repos.get(repoParams(ctx))
  const full = {...seeded, target_commitish: repository.default_branch}
  const releases = await ctx.agent.paginate(ctx.agent.rest.repos.listReleases, {...repoParams(ctx), per_page: 100})
  const existing = releases.find((r) => r.tag_name === seeded.tag_name)
  const release = existing ?? (await ctx.agent.rest.repos.createRelease({...repoParams(ctx), ...full})).data
  const resource: ReleaseResource = {id: release.id, tag_name: seeded.tag_name, seeded: full}
  if (existing) await resetRelease(ctx, resource)
  return resource
}

/** Name, notes, tag, target, draft and prerelease back to the seeded values (written only when they differ). */
export async function resetRelease(ctx: FixtureContext, resource: ReleaseResource): Promise<void> {
  const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
  const seeded = resource.seeded
  const differs =
    data.tag_name !== seeded.tag_name ||
    data.name !== seeded.name ||
    (data.body ?? '') !== seeded.body ||
    data.draft !== seeded.draft ||
    data.prerelease !== (seeded.prerelease ?? false) ||
    (seeded.target_commitish !== undefined && data.target_commitish !== seeded.target_commitish)
  if (differs) await ctx.agent.rest.repos.updateRelease({...repoParams(ctx), release_id: resource.id, ...seeded, prerelease: seeded.prerelease ?? false})
}

export async function snapshotRelease(ctx: FixtureContext, resource: ReleaseResource): Promise<Snapshot> {
  const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
  return {tag_name: data.tag_name, name: data.name ?? null, body: data.body ?? '', draft: data.draft, prerelease: data.prerelease, target_commitish: data.target_commitish}
}

export async function releaseStatus(ctx: FixtureContext, resource: ReleaseResource): Promise<string[]> {
  try {
    const {data} = await ctx.agent.rest.repos.getRelease({...repoParams(ctx), release_id: resource.id})
    const problems: string[] = []
    if (!data.draft) problems.push('published (seeded as a draft)')
    if (data.name !== resource.seeded.name) problems.push(`name is "${data.name}", seeded "${resource.seeded.name}"`)
    if ((data.body ?? '') !== resource.seeded.body) problems.push('notes differ from the seeded notes')
    return problems
  } catch (error) {
    return [`release ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

export const RELEASE_STATUS_FIELDS = ['draft', 'name', 'body']

// ---- project ----------------------------------------------------------------------------------

export interface ProjectResource {
  id: string
  number: number
  owner: string
  item_id: string
  field_id: string
  option_id: string
  seeded: {
    items: string[]
    /** The issues on the board when seeded (absent in manifests written before reset re-added a removed one). */
    contents?: Array<{number: number; node_id: string}>
  }
}

interface FieldRef {
  id?: string
  name?: string
  dataType?: string
}

interface ProjectNode {
  id: string
  number: number
  title: string
  fields: {nodes: Array<{id?: string; name?: string; options?: Array<{id: string; name: string}>}>}
  items: {
    nodes: Array<{
      id: string
      type?: string
      content: {number?: number; repository?: {nameWithOwner: string}; title?: string} | null
      fieldValues: {nodes: Array<{optionId?: string; name?: string; text?: string; number?: number; date?: string; field?: FieldRef}>}
    }>
  }
}

const FIELD_REF = 'field { ... on ProjectV2FieldCommon { id name dataType } }'
const PROJECT_FIELDS = `id number title fields(first: 50) { nodes { ... on ProjectV2FieldCommon { id name } ... on ProjectV2SingleSelectField { options { id name } } } } items(first: 100) { nodes { id type content { ... on Issue { number repository { nameWithOwner } } ... on PullRequest { number repository { nameWithOwner } } ... on DraftIssue { title } } fieldValues(first: 50) { nodes { ... on ProjectV2ItemFieldSingleSelectValue { optionId name ${FIELD_REF} } ... on ProjectV2ItemFieldTextValue { text ${FIELD_REF} } ... on ProjectV2ItemFieldNumberValue { number ${FIELD_REF} } ... on ProjectV2ItemFieldDateValue { date ${FIELD_REF} } } } } }`

async function findProject(ctx: FixtureContext, login: string, title: string): Promise<ProjectNode | undefined> {
  const data = await ctx.agent.graphql<{user: {projectsV2: {nodes: ProjectNode[]}}}>(`query($login: String!) { user(login: $login) { projectsV2(first: 100) { nodes { ${PROJECT_FIELDS} } } } }`, {login})
  return data.user.projectsV2.nodes.find((p) => p.title === title)
}

async function readProject(ctx: FixtureContext, id: string): Promise<ProjectNode> {
  return (await ctx.agent.graphql<{node: ProjectNode}>(`query($id: ID!) { node(id: $id) { ... on ProjectV2 { ${PROJECT_FIELDS} } } }`, {id})).node
}

/** Values a run can set on an item: the Title (the content's own title) is not one. */
function setValues(item: ProjectNode['items']['nodes'][number]): Array<{field: FieldRef; value: string | number}> {
  return item.fieldValues.nodes.flatMap((v) => {
    if (!v.field?.name || v.field.dataType === 'TITLE') return []
    const value = v.name ?? v.text ?? v.number ?? v.date
    return value === undefined ? [] : [{field: v.field, value}]
  })
}

/** A board owned by the agent with the fixture issue on it and a single-select Status field. */
export async function seedProject(ctx: FixtureContext, issue: IssueResource): Promise<ProjectResource> {
  const viewer = (await ctx.agent.graphql<{viewer: {id: string; login: string}}>('{ viewer { id login } }')).viewer
  const title = `GHX Bench Fixtures (bench-seed:${ctx.seedId})`
  let project = await findProject(ctx, viewer.login, title)
  if (!project) {
    await ctx.agent.graphql('mutation($owner: ID!, $title: String!) { createProjectV2(input: {ownerId: $owner, title: $title}) { projectV2 { id } } }', {owner: viewer.id, title})
    project = (await findProject(ctx, viewer.login, title))!
  }
  const status = project.fields.nodes.find((f) => f.name === 'Status' && f.options)!
  const resource: ProjectResource = {
    id: project.id,
    number: project.number,
    owner: viewer.login,
    item_id: '',
    field_id: status.id!,
    option_id: status.options![0]!.id,
    seeded: {items: [], contents: [{number: issue.number, node_id: issue.node_id}]},
  }
  // The fixture issue goes on the board when it is not there (a new board, or the issue was seeded anew); other items go.
  return resetProject(ctx, resource)
}

/**
 * Only the seeded issues stay on the board (a removed one is added again: the resource then names
 * its new item), with no field value set. Returns the resource as it now is.
 */
export async function resetProject(ctx: FixtureContext, resource: ProjectResource): Promise<ProjectResource> {
  const contents = resource.seeded.contents
  const refOf = (item: ProjectNode['items']['nodes'][number]) => (item.content?.number === undefined ? undefined : issueRef(ctx, item.content.number, item.content.repository?.nameWithOwner))
  const seededRefs = new Set((contents ?? []).map((c) => issueRef(ctx, c.number)))
  const isSeeded = (item: ProjectNode['items']['nodes'][number]) => (contents ? seededRefs.has(refOf(item) ?? '') : resource.seeded.items.includes(item.id))
  let project = await readProject(ctx, resource.id)
  for (const item of project.items.nodes) {
    if (!isSeeded(item)) {
      await ctx.agent.graphql('mutation($p: ID!, $i: ID!) { deleteProjectV2Item(input: {projectId: $p, itemId: $i}) { deletedItemId } }', {p: resource.id, i: item.id})
      continue
    }
    for (const {field} of setValues(item)) {
      await ctx.agent.graphql('mutation($p: ID!, $i: ID!, $f: ID!) { clearProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f}) { projectV2Item { id } } }', {p: resource.id, i: item.id, f: field.id})
    }
  }
  const missing = (contents ?? []).filter((c) => !project.items.nodes.some((i) => refOf(i) === issueRef(ctx, c.number)))
  for (const content of missing) {
    await ctx.agent.graphql('mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }', {p: resource.id, c: content.node_id})
  }
  if (missing.length === 0 && resource.item_id) return resource
  project = await readProject(ctx, resource.id)
  const first = contents?.[0]
  const item = first ? project.items.nodes.find((i) => refOf(i) === issueRef(ctx, first.number)) : undefined
  return {...resource, item_id: item?.id ?? resource.item_id, seeded: {...resource.seeded, items: project.items.nodes.filter(isSeeded).map((i) => i.id)}}
}

/** The board's title, fields and items (by content, with the values set on them). */
export async function snapshotProject(ctx: FixtureContext, resource: ProjectResource): Promise<Snapshot> {
  const project = await readProject(ctx, resource.id)
  const items: Record<string, Snapshot> = {}
  for (const item of project.items.nodes) {
    const key = item.content?.number !== undefined ? issueRef(ctx, item.content.number, item.content.repository?.nameWithOwner) : `draft: ${item.content?.title ?? item.id}`
    const values: Snapshot = {}
    for (const {field, value} of setValues(item)) values[field.name!] = value
    items[key] = {type: item.type ?? null, values}
  }
  return {
    title: project.title,
    fields: sorted(project.fields.nodes.filter((f) => f.name).map((f) => (f.options ? `${f.name}: ${f.options.map((o) => o.name).join(' | ')}` : f.name!))),
    items,
  }
}

export async function projectStatus(ctx: FixtureContext, resource: ProjectResource): Promise<string[]> {
  try {
    const project = await readProject(ctx, resource.id)
    const problems: string[] = []
    const items = project.items.nodes.map((i) => i.id)
    if (items.sort().join() !== [...resource.seeded.items].sort().join()) problems.push(`${items.length} item(s), seeded ${resource.seeded.items.length}`)
    if (project.items.nodes.some((i) => setValues(i).length > 0)) problems.push('a Status value is set (seeded unset)')
    return problems
  } catch (error) {
    return [`project ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

export const PROJECT_STATUS_FIELDS = ['items']
