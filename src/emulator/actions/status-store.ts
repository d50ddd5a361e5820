/** Commit statuses and reported check runs in the store: what CI systems post on a commit. */
import {unprocessable} from '../core/errors.js'
import type {CommitStatus, Repo, ReportedCheckRun} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'
import type {Git} from '../repos/git-store.js'

const CONCLUSIONS = ['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required']

/** The store's commit status and check run operations, on git (../store.ts composes the services). */
export class CommitStatuses {
  constructor(
    private readonly core: StoreCore,
    private readonly git: Git,
  ) {}

  create(
    repo: Repo,
    sha: string,
    creator: string,
    fields: {state: CommitStatus['state']; context?: string; description?: string | null; target_url?: string | null},
  ): CommitStatus {
    this.git.commit(repo, sha)
    const status: CommitStatus = {
      id: this.core.nextId(),
      sha,
      state: fields.state,
      context: fields.context || 'default',
      description: fields.description ?? null,
      target_url: fields.target_url ?? null,
      creator,
      created_at: this.core.stamp(),
    }
    repo.statuses ??= {}
    repo.statuses[status.id] = status
    return status
  }

  /** POST check-runs: a check run on a commit; a completed one needs its conclusion, as GitHub requires. */
  reportCheckRun(
    repo: Repo,
    creator: string,
    fields: {
      head_sha: string
      name: string
      status?: string
      conclusion?: string
      details_url?: string
      external_id?: string
      started_at?: string
      completed_at?: string
      output?: {title?: string; summary?: string; text?: string}
    },
  ): ReportedCheckRun {
    this.git.commit(repo, fields.head_sha)
    const status = (fields.conclusion ? 'completed' : (fields.status ?? 'queued')) as ReportedCheckRun['status']
    if (!['queued', 'in_progress', 'completed'].includes(status)) throw unprocessable('Invalid status', 'status')
    if (fields.conclusion !== undefined && !CONCLUSIONS.includes(fields.conclusion))
      throw unprocessable('Invalid conclusion', 'conclusion')
    if (status === 'completed' && !fields.conclusion)
      throw unprocessable('Conclusion is required when status is completed', 'conclusion')
    const now = this.core.stamp()
    const run: ReportedCheckRun = {
      id: this.core.nextId(),
      head_sha: fields.head_sha,
      name: fields.name,
      status,
      conclusion: (fields.conclusion ?? null) as ReportedCheckRun['conclusion'],
      started_at: fields.started_at ?? now,
      completed_at: status === 'completed' ? (fields.completed_at ?? now) : null,
      details_url: fields.details_url ?? null,
      external_id: fields.external_id ?? null,
      output: {
        title: fields.output?.title ?? null,
        summary: fields.output?.summary ?? null,
        text: fields.output?.text ?? null,
      },
      creator,
    }
    repo.check_runs ??= {}
    repo.check_runs[run.id] = run
    return run
  }

  /** The check runs reported on a commit, in the order they were. */
  checkRunsOf(repo: Repo, sha: string): ReportedCheckRun[] {
    return Object.values(repo.check_runs ?? {}).filter((run) => run.head_sha === sha)
  }

  /** A commit's statuses, newest first. */
  of(repo: Repo, sha: string): CommitStatus[] {
    return Object.values(repo.statuses ?? {})
      .filter((s) => s.sha === sha)
      .sort((a, b) => b.id - a.id)
  }

  /** The latest status of each context, as the combined status and the status check rollup count them. */
  latest(repo: Repo, sha: string): CommitStatus[] {
    const latest = new Map<string, CommitStatus>()
    for (const status of this.of(repo, sha)) if (!latest.has(status.context)) latest.set(status.context, status)
    return [...latest.values()].sort((a, b) => a.context.localeCompare(b.context))
  }
}
