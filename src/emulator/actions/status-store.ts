/** Commit statuses in the store: what CI systems post on a commit with a token. */
import type {CommitStatus, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'
import type {Git} from '../repos/git-store.js'

/** The store's commit status operations, on git (../store.ts composes the services). */
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
