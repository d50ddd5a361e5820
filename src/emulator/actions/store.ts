/**
 * GitHub Actions in the store: workflows, runs dispatched on a branch, attempts, jobs and artifacts,
 * with a lifecycle that follows the clock (queued, then in progress, then completed); reruns of all
 * or the failed jobs, cancellation.
 */
import {found, notFound, refused, SandboxError} from '../core/errors.js'
import type {Artifact, Job, Repo, Run, RunAttempt, Tree, Workflow, WorkflowJobSpec} from '../core/state.js'
import {timestamp, type StoreCore} from '../core/store-core.js'

export type RunStatus = {
  status: 'queued' | 'in_progress' | 'completed'
  conclusion: 'success' | 'failure' | 'cancelled' | null
}

/** The store's Actions operations (../store.ts composes the services). */
export class Actions {
  constructor(private readonly core: StoreCore) {}

  addWorkflow(
    repo: Repo,
    path: string,
    name: string,
    jobs: WorkflowJobSpec[],
    inputs: string[] = [],
    onPush?: string[],
  ): Workflow {
    const workflow: Workflow = {
      id: this.core.nextId(),
      name,
      path,
      state: 'active',
      created_at: this.core.stamp(),
      inputs,
      jobs,
      ...(onPush ? {on_push: onPush} : {}),
    }
    repo.workflows[workflow.id] = workflow
    return workflow
  }

  workflow(repo: Repo, idOrFile: string | number): Workflow {
    return found(
      Object.values(repo.workflows).find(
        (w) => String(w.id) === String(idOrFile) || w.path.split('/').pop() === String(idOrFile),
      ),
    )
  }

  /** PUT .../enable and .../disable: a disabled workflow keeps its runs and starts no new one. */
  setEnabled(workflow: Workflow, enabled: boolean): void {
    workflow.state = enabled ? 'active' : 'disabled_manually'
  }

  dispatch(repo: Repo, workflow: Workflow, ref: string, inputs: Record<string, string>, actor: string): Run {
    if (workflow.state !== 'active') throw refused("Cannot trigger a 'workflow_dispatch' on a disabled workflow")
    const sha = repo.branches[ref]
    if (!sha) throw refused(`No ref found for: ${ref}`)
    const unknown = Object.keys(inputs).filter((k) => !workflow.inputs.includes(k))
    if (unknown.length > 0) throw refused(`Unexpected inputs provided: ${JSON.stringify(unknown)}`)
    const run = this.startRun(repo, workflow, {
      event: 'workflow_dispatch',
      head_branch: ref,
      head_sha: sha,
      display_title: inputs.seed_id ? `${workflow.name} (${inputs.seed_id})` : workflow.name,
      actor,
      inputs,
    })
    const artifact = {
      id: this.core.nextId(),
      run_id: run.id,
      name: 'bench-report',
      size_in_bytes: 1024,
      created_at: this.core.stamp(),
    }
    repo.artifacts[artifact.id] = artifact
    run.artifacts.push(artifact.id)
    return run
  }

  /**
   * A push to a branch (git push, a ref update, a file written through the API, a branch update): each
   * active workflow whose `on: push: branches` patterns match the branch starts a run on the pushed
   * commit, as GitHub Actions does (`github.event_name` push; its jobs are the commit's check runs).
   */
  push(repo: Repo, branch: string, sha: string): void {
    const commit = repo.commits[sha]
    if (!commit) return
    for (const workflow of Object.values(repo.workflows)) {
      if (workflow.state !== 'active' || !workflow.on_push?.some((pattern) => branchMatches(pattern, branch))) continue
      this.startRun(repo, workflow, {
        event: 'push',
        head_branch: branch,
        head_sha: sha,
        display_title: commit.message.split('\n')[0] ?? workflow.name,
        actor: this.core.actor ?? repo.owner,
        inputs: {},
      })
    }
  }

  private startRun(
    repo: Repo,
    workflow: Workflow,
    fields: Pick<Run, 'event' | 'head_branch' | 'head_sha' | 'display_title' | 'actor' | 'inputs'>,
  ): Run {
    const runNumber = Object.values(repo.runs).filter((r) => r.workflow_id === workflow.id).length + 1
    const run: Run = {
      id: this.core.nextId(),
      workflow_id: workflow.id,
      run_number: runNumber,
      ...fields,
      created_at: this.core.stamp(),
      attempts: [],
      artifacts: [],
    }
    repo.runs[run.id] = run
    this.startAttempt(repo, run, workflow, null)
    return run
  }

  private startAttempt(repo: Repo, run: Run, workflow: Workflow, onlyFailedOf: RunAttempt | null): RunAttempt {
    const number = run.attempts.length + 1
    const jobs: Job[] = workflow.jobs.map((spec) => {
      const previous = onlyFailedOf?.jobs.find((j) => j.name === spec.name)
      if (previous && previous.outcome === 'success')
        return {...previous, attempt: number, carried_from: previous.carried_from ?? previous.attempt}
      const matches = spec.fails_on_match
        ? grepMatches(repo.commits[run.head_sha]?.tree ?? {}, spec.fails_on_match)
        : []
      const outcome = spec.fail_on_attempts.includes(number) || matches.length > 0 ? 'failure' : 'success'
      const log = spec.log.replaceAll('{attempt}', String(number)).replaceAll('{seed_id}', run.inputs.seed_id ?? '')
      return {
        id: this.core.nextId(),
        name: spec.name,
        attempt: number,
        outcome,
        carried_from: null,
        log: matches.length > 0 ? `${log}${matches.join('\n')}\n##[error]Process completed with exit code 1.\n` : log,
      }
    })
    const durations = workflow.jobs.map((spec) => spec.duration_ms).filter((ms): ms is number => ms !== undefined)
    const attempt: RunAttempt = {
      attempt: number,
      started_ms: this.core.now(),
      cancelled_ms: null,
      jobs,
      ...(durations.length ? {running_ms: Math.max(...durations)} : {}),
    }
    run.attempts.push(attempt)
    return attempt
  }

  artifact(repo: Repo, id: number): Artifact {
    return found(repo.artifacts[id])
  }

  run(repo: Repo, id: number): Run {
    return found(repo.runs[id])
  }

  latestAttempt(run: Run): RunAttempt {
    return run.attempts.at(-1)!
  }

  /** A run's status follows its clock: queued, then in progress, then completed. */
  attemptStatus(attempt: RunAttempt): RunStatus {
    const elapsed = this.core.now() - attempt.started_ms
    if (attempt.cancelled_ms !== null) return {status: 'completed', conclusion: 'cancelled'}
    if (elapsed < this.core.timing.queued_ms) return {status: 'queued', conclusion: null}
    if (elapsed < this.core.timing.queued_ms + (attempt.running_ms ?? this.core.timing.running_ms))
      return {status: 'in_progress', conclusion: null}
    return {status: 'completed', conclusion: attempt.jobs.some((j) => j.outcome === 'failure') ? 'failure' : 'success'}
  }

  jobStatus(attempt: RunAttempt, job: Job): RunStatus {
    if (job.carried_from !== null && job.carried_from !== attempt.attempt)
      return {status: 'completed', conclusion: job.outcome}
    const run = this.attemptStatus(attempt)
    if (run.status !== 'completed' || run.conclusion === 'cancelled') return run
    return {status: 'completed', conclusion: job.outcome}
  }

  attemptTimes(attempt: RunAttempt): {started: string; completed: string | null} {
    const started = attempt.started_ms + this.core.timing.queued_ms
    const completed =
      attempt.cancelled_ms ??
      attempt.started_ms + this.core.timing.queued_ms + (attempt.running_ms ?? this.core.timing.running_ms)
    return {
      started: timestamp(started),
      completed: this.attemptStatus(attempt).status === 'completed' ? timestamp(completed) : null,
    }
  }

  rerun(repo: Repo, runId: number, onlyFailed: boolean): Run {
    const run = this.run(repo, runId)
    const last = this.latestAttempt(run)
    const status = this.attemptStatus(last)
    if (status.status !== 'completed') throw new SandboxError(403, 'This workflow is already running')
    if (onlyFailed && status.conclusion === 'success')
      throw new SandboxError(403, 'This workflow run has no failed jobs to re-run')
    this.startAttempt(repo, run, repo.workflows[run.workflow_id]!, onlyFailed ? last : null)
    return run
  }

  cancel(repo: Repo, runId: number): Run {
    const run = this.run(repo, runId)
    const last = this.latestAttempt(run)
    if (this.attemptStatus(last).status === 'completed')
      throw new SandboxError(409, 'Cannot cancel a workflow run that is completed.')
    last.cancelled_ms = this.core.now()
    return run
  }

  deleteRun(repo: Repo, runId: number): void {
    this.run(repo, runId)
    delete repo.runs[runId]
  }

  job(repo: Repo, jobId: number): {run: Run; attempt: RunAttempt; job: Job} {
    for (const run of Object.values(repo.runs)) {
      for (const attempt of [...run.attempts].reverse()) {
        const job = attempt.jobs.find((j) => j.id === jobId)
        if (job) return {run, attempt, job}
      }
    }
    throw notFound()
  }
}

/** A branch filter pattern of GitHub Actions: `*` matches within a path segment, `**` across them, `?` one character. */
function branchMatches(pattern: string, branch: string): boolean {
  const source = pattern
    .split(/(\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**') return '.*'
      if (part === '*') return '[^/]*'
      if (part === '?') return '[^/]'
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    })
    .join('')
  return new RegExp(`^${source}$`).test(branch)
}

/** What `grep -rnF <text> <under>` prints on a commit's files: `path:line:text`, files in path order. */
function grepMatches(tree: Tree, match: {text: string; under: string}): string[] {
  const folder = match.under.replace(/\/?$/, '/')
  return Object.keys(tree)
    .filter((path) => path.startsWith(folder))
    .sort()
    .flatMap((path) =>
      tree[path]!.split('\n')
        .map((line, i) => ({line, n: i + 1}))
        .filter(({line}) => line.includes(match.text))
        .map(({line, n}) => `${path}:${n}:${line}`),
    )
}
