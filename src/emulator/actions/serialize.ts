/** REST representations of workflows, workflow runs, jobs and artifacts. */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Artifact, Job, Repo, Run, RunAttempt, Workflow} from '../core/state.js'
import {nodeId, timestamp} from '../core/store-core.js'
import type {RepoSerializer} from '../repos/serialize.js'
import type {UserSerializer} from '../users/serialize.js'

/** Actions, on users and repositories (../serialize.ts composes the serializers). */
export class ActionsSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
    private readonly repos: RepoSerializer,
  ) {}

  workflow(repo: Repo, workflow: Workflow): Json {
    return {
      id: workflow.id,
      node_id: nodeId('workflow', workflow.id),
      name: workflow.name,
      path: workflow.path,
      state: workflow.state,
      created_at: workflow.created_at,
      updated_at: workflow.created_at,
      url: `${this.core.repoApi(repo)}/actions/workflows/${workflow.id}`,
      html_url: `${this.core.repoHtml(repo)}/blob/${repo.default_branch}/${workflow.path}`,
      badge_url: `${this.core.repoHtml(repo)}/workflows/${encodeURIComponent(workflow.name)}/badge.svg`,
    }
  }

  run(repo: Repo, run: Run, attempt: RunAttempt = this.core.store.actions.latestAttempt(run)): Json {
    const workflow = repo.workflows[run.workflow_id]!
    const status = this.core.store.actions.attemptStatus(attempt)
    const times = this.core.store.actions.attemptTimes(attempt)
    const api = `${this.core.repoApi(repo)}/actions/runs/${run.id}`
    const head = this.core.store.git.commit(repo, run.head_sha)
    const person = {name: head.author, email: `${head.author}@users.noreply.github.localhost`}
    return {
      id: run.id,
      name: workflow.name,
      node_id: nodeId('run', run.id),
      head_branch: run.head_branch,
      head_sha: run.head_sha,
      path: workflow.path,
      display_title: run.display_title,
      run_number: run.run_number,
      event: run.event,
      status: status.status,
      conclusion: status.conclusion,
      workflow_id: workflow.id,
      check_suite_id: run.id + 1,
      check_suite_node_id: nodeId('run', run.id + 1),
      url: api,
      html_url: `${this.core.repoHtml(repo)}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: run.created_at,
      updated_at: times.completed ?? times.started,
      actor: this.users.user(run.actor),
      triggering_actor: this.users.user(run.actor),
      run_attempt: attempt.attempt,
      referenced_workflows: [],
      run_started_at: times.started,
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.core.repoApi(repo)}/check-suites/${run.id + 1}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      previous_attempt_url: attempt.attempt > 1 ? `${api}/attempts/${attempt.attempt - 1}` : null,
      workflow_url: `${this.core.repoApi(repo)}/actions/workflows/${workflow.id}`,
      head_commit: {
        id: head.sha,
        tree_id: head.sha,
        message: head.message,
        timestamp: head.date,
        author: person,
        committer: person,
      },
      repository: this.repos.minimal(repo),
      head_repository: this.repos.minimal(repo),
    }
  }

  job(repo: Repo, run: Run, attempt: RunAttempt, job: Job): Json {
    const workflow = repo.workflows[run.workflow_id]!
    const status = this.core.store.actions.jobStatus(attempt, job)
    const owner = run.attempts.find((a) => a.attempt === (job.carried_from ?? attempt.attempt)) ?? attempt
    const times = this.core.store.actions.attemptTimes(owner)
    return {
      id: job.id,
      run_id: run.id,
      workflow_name: workflow.name,
      head_branch: run.head_branch,
      run_url: `${this.core.repoApi(repo)}/actions/runs/${run.id}`,
      run_attempt: job.carried_from ?? attempt.attempt,
      node_id: nodeId('job', job.id),
      head_sha: run.head_sha,
      url: `${this.core.repoApi(repo)}/actions/jobs/${job.id}`,
      html_url: `${this.core.repoHtml(repo)}/actions/runs/${run.id}/job/${job.id}`,
      status: status.status,
      conclusion: status.conclusion,
      created_at: timestamp(owner.started_ms),
      started_at: times.started,
      completed_at: status.status === 'completed' ? times.completed : null,
      name: job.name,
      steps: [
        {
          name: 'Set up job',
          status: status.status,
          conclusion: status.status === 'completed' ? 'success' : null,
          number: 1,
          started_at: times.started,
          completed_at: times.completed,
        },
        {
          name: `Run ${job.name}`,
          status: status.status,
          conclusion: status.conclusion,
          number: 2,
          started_at: times.started,
          completed_at: times.completed,
        },
      ],
      check_run_url: `${this.core.repoApi(repo)}/check-runs/${job.id}`,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'GitHub Actions 1',
      runner_group_id: 1,
      runner_group_name: 'GitHub Actions',
    }
  }

  artifact(repo: Repo, artifact: Artifact): Json {
    const api = `${this.core.repoApi(repo)}/actions/artifacts/${artifact.id}`
    return {
      id: artifact.id,
      node_id: nodeId('artifact', artifact.id),
      name: artifact.name,
      size_in_bytes: artifact.size_in_bytes,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: false,
      created_at: artifact.created_at,
      expires_at: timestamp(Date.parse(artifact.created_at) + 90 * 86_400_000),
      updated_at: artifact.created_at,
      digest: null,
      workflow_run: {
        id: artifact.run_id,
        repository_id: repo.id,
        head_repository_id: repo.id,
        head_branch: repo.default_branch,
        head_sha: repo.runs[artifact.run_id]?.head_sha ?? '',
      },
    }
  }
}
