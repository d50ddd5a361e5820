/**
 * The workflow run kinds: the failed first attempt of bench-rerun-failed.yml (workflow_run), and a run
 * of bench-long-running.yml still in progress (workflow_run_in_progress). A rerun or a cancel cannot be
 * undone, so a reset dispatches a fresh run that takes the old one's place.
 */
import {LONG_RUNNING_WORKFLOW_FILE, RERUN_WORKFLOW_FILE} from '../emulator/defaults.js'
import {repoParams, type FixtureContext} from './context.js'
import {sorted, type Snapshot} from './digest.js'
import {fixtureKind, hasFields, type FixtureKindEntry} from './kind.js'

export interface WorkflowRunResource {
  id: number
  job_id: number
  check_run_id: number
  workflow_file: string
  seeded: {attempt: 1; conclusion: 'failure'} | {attempt: 1; status: 'in_progress'}
  [extra: string]: unknown
}

/** The two fixture runs: the failed first attempt of bench-rerun-failed.yml, or a run of bench-long-running.yml still in progress. */
export type WorkflowRunKind = 'workflow_run' | 'workflow_run_in_progress'

const RUN_KINDS = {
  workflow_run: {
    file: RERUN_WORKFLOW_FILE,
    ready: (status: string | null) => status === 'completed',
    seeded: {attempt: 1, conclusion: 'failure'} as const,
  },
  workflow_run_in_progress: {
    file: LONG_RUNNING_WORKFLOW_FILE,
    ready: (status: string | null) => status === 'in_progress',
    seeded: {attempt: 1, status: 'in_progress'} as const,
  },
}

/**
 * Dispatches the kind's workflow and waits for the state the fixture stands for: the failed first
 * attempt, or a run in progress. A rerun or a cancel cannot be undone, so resetting means dispatching
 * a fresh run (`replacing` the old one, which is cancelled if it still runs once the manifest points at
 * the new one).
 */
export async function seedWorkflowRun(
  ctx: FixtureContext,
  options: {kind?: WorkflowRunKind; timeoutMs?: number; pollMs?: number; replacing?: number} = {},
): Promise<WorkflowRunResource> {
  const kind = RUN_KINDS[options.kind ?? 'workflow_run']
  const repo = repoParams(ctx)
  const {data: repository} = await ctx.agent.rest.repos.get(repo)
  const dispatchedAfter = Date.now() - 5000
  await ctx.agent.rest.actions.createWorkflowDispatch({
    ...repo,
    workflow_id: kind.file,
    ref: repository.default_branch,
    inputs: {seed_id: ctx.seedId},
  })
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  for (;;) {
    const runs = await ctx.agent.rest.actions.listWorkflowRuns({
      ...repo,
      workflow_id: kind.file,
      event: 'workflow_dispatch',
      per_page: 20,
    })
    // The newest run of this seed created after the dispatch (GitHub does not return the run id), never the run it replaces.
    const run = runs.data.workflow_runs.find(
      (r) =>
        r.id !== options.replacing &&
        r.display_title.includes(ctx.seedId) &&
        Date.parse(r.created_at) >= dispatchedAfter - 1000,
    )
    if (run && kind.ready(run.status)) {
      if (run.status === 'completed' && run.conclusion !== 'failure')
        throw new Error(`fixture run ${run.id} ended ${run.conclusion}, expected failure on attempt 1`)
      const jobs = await ctx.agent.rest.actions.listJobsForWorkflowRun({...repo, run_id: run.id})
      const job = jobs.data.jobs.find((j) => j.conclusion === 'failure') ?? jobs.data.jobs[0]!
      return {id: run.id, job_id: job.id, check_run_id: job.id, workflow_file: kind.file, seeded: kind.seeded}
    }
    if (run?.status === 'completed' && !kind.ready(run.status))
      throw new Error(`the fixture run ${run.id} of ${kind.file} completed before it could be used`)
    if (Date.now() > deadline) throw new Error(`the fixture run of ${kind.file} did not reach its state in time`)
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 2000))
  }
}

/** Cancels a replaced fixture run that still runs, so no run is left behind (GitHub: 409 once it completed). */
async function cancelIfRunning(ctx: FixtureContext, resource: WorkflowRunResource): Promise<void> {
  const {data} = await ctx.agent.rest.actions
    .getWorkflowRun({...repoParams(ctx), run_id: resource.id})
    .catch(() => ({data: null}))
  if (data && data.status !== 'completed')
    await ctx.agent.rest.actions.cancelWorkflowRun({...repoParams(ctx), run_id: resource.id}).catch(() => undefined)
}

/** The run as a reader sees it, without its id (reset replaces the run by a fresh one). */
async function snapshotWorkflowRun(ctx: FixtureContext, resource: WorkflowRunResource): Promise<Snapshot> {
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

export async function workflowRunStatus(ctx: FixtureContext, resource: WorkflowRunResource): Promise<string[]> {
  try {
    const {data} = await ctx.agent.rest.actions.getWorkflowRun({...repoParams(ctx), run_id: resource.id})
    const problems: string[] = []
    if ((data.run_attempt ?? 1) !== 1)
      problems.push(`run ${resource.id} is on attempt ${data.run_attempt} (reset dispatches a fresh run)`)
    const seeded =
      'status' in resource.seeded ? `${resource.seeded.status}/none` : `completed/${resource.seeded.conclusion}`
    if (`${data.status}/${data.conclusion ?? 'none'}` !== seeded)
      problems.push(`run ${resource.id} is ${data.status}/${data.conclusion ?? 'none'}, seeded ${seeded}`)
    return problems
  } catch (error) {
    return [`run ${resource.id} cannot be read: ${(error as Error).message}`]
  }
}

/**
 * The kind's entry. Its reset dispatches the fresh run and has the manifest name it before the old run
 * is cancelled, so whichever manifest is on disk names a run that still reads as seeded.
 */
export function workflowRunKind(kind: WorkflowRunKind): FixtureKindEntry {
  return fixtureKind(kind, {
    is: (resource): resource is WorkflowRunResource => hasFields(resource, {id: 'number', workflow_file: 'string'}),
    seed: (ctx, {workflowPollMs}) => seedWorkflowRun(ctx, {kind, pollMs: workflowPollMs}),
    async reset(ctx, resource, {workflowPollMs}, replace) {
      await replace(await seedWorkflowRun(ctx, {kind, pollMs: workflowPollMs, replacing: resource.id}))
      await cancelIfRunning(ctx, resource)
    },
    snapshot: snapshotWorkflowRun,
    status: workflowRunStatus,
    statusFields: ['attempt', 'conclusion', 'status'],
    label: (resource) => `workflow run ${String(resource.id)}`,
  })
}
