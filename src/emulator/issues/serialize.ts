/** REST representations of labels, milestones, issue types, issues and issue comments. */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Issue, IssueComment, Label, Milestone, Repo} from '../core/state.js'
import {nodeId, timestamp} from '../core/store-core.js'
import type {ReactionSerializer} from '../reactions/serialize.js'
import type {UserSerializer} from '../users/serialize.js'

/** Issues and what they carry, on users and reaction rollups (../serialize.ts composes the serializers). */
export class IssueSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
    private readonly reactions: ReactionSerializer,
  ) {}

  label(repo: Repo, label: Label): Json {
    return {
      id: label.id,
      node_id: nodeId('label', label.id),
      url: `${this.core.repoApi(repo)}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      description: label.description,
      color: label.color,
      default: label.default === true,
    }
  }

  milestone(repo: Repo, milestone: Milestone): Json {
    const issues = Object.values(repo.issues).filter((i) => i.milestone === milestone.number)
    return {
      url: `${this.core.repoApi(repo)}/milestones/${milestone.number}`,
      html_url: `${this.core.repoHtml(repo)}/milestone/${milestone.number}`,
      labels_url: `${this.core.repoApi(repo)}/milestones/${milestone.number}/labels`,
      id: milestone.id,
      node_id: nodeId('milestone', milestone.id),
      number: milestone.number,
      state: milestone.state,
      title: milestone.title,
      description: milestone.description,
      creator: this.users.user(milestone.creator),
      open_issues: issues.filter((i) => i.state === 'open').length,
      closed_issues: issues.filter((i) => i.state === 'closed').length,
      created_at: milestone.created_at,
      updated_at: milestone.updated_at,
      closed_at: milestone.closed_at,
      due_on: milestone.due_on,
    }
  }

  issue(repo: Repo, issue: Issue): Json {
    const api = `${this.core.repoApi(repo)}/issues/${issue.number}`
    const milestone =
      issue.milestone === null ? null : this.milestone(repo, this.core.store.milestones.get(repo, issue.milestone))
    const assignees = issue.assignees.map((login) => this.users.user(login))
    const type = issue.issue_type ? repo.issue_types.find((t) => t.name === issue.issue_type) : undefined
    return {
      url: api,
      repository_url: this.core.repoApi(repo),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: `${this.core.repoHtml(repo)}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}`,
      id: issue.id,
      node_id: nodeId(issue.is_pull ? 'pull' : 'issue', issue.id),
      number: issue.number,
      title: issue.title,
      user: this.users.user(issue.user),
      labels: issue.labels.map((name) => this.label(repo, this.core.store.labels.get(repo, name))),
      state: issue.state,
      locked: issue.locked,
      assignee: assignees[0] ?? null,
      assignees,
      milestone,
      comments: issue.comments.length,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      author_association: issue.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      active_lock_reason: issue.active_lock_reason ?? null,
      body: issue.body,
      closed_by: null,
      reactions: this.reactions.rollup(`${api}/reactions`, repo, {kind: 'issue', id: issue.id}),
      timeline_url: `${api}/timeline`,
      performed_via_github_app: null,
      state_reason: issue.state_reason,
      type: type ? this.issueType(type) : null,
      sub_issues_summary: {
        total: issue.sub_issues.length,
        completed: issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length,
        percent_completed:
          issue.sub_issues.length === 0
            ? 0
            : Math.round(
                (issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length / issue.sub_issues.length) *
                  100,
              ),
      },
      ...(issue.is_pull
        ? {
            pull_request: {
              url: `${this.core.repoApi(repo)}/pulls/${issue.number}`,
              html_url: `${this.core.repoHtml(repo)}/pull/${issue.number}`,
              diff_url: `${this.core.repoHtml(repo)}/pull/${issue.number}.diff`,
              patch_url: `${this.core.repoHtml(repo)}/pull/${issue.number}.patch`,
              merged_at: repo.pulls[issue.number]!.merged_at,
            },
          }
        : {}),
    }
  }

  issueType(type: {id: number; name: string; description: string; color: string}): Json {
    return {
      id: type.id,
      node_id: nodeId('issue_type', type.id),
      name: type.name,
      description: type.description,
      color: type.color,
      created_at: timestamp(0),
      updated_at: timestamp(0),
      is_enabled: true,
    }
  }

  comment(repo: Repo, comment: IssueComment): Json {
    return {
      id: comment.id,
      node_id: nodeId('comment', comment.id),
      url: `${this.core.repoApi(repo)}/issues/comments/${comment.id}`,
      html_url: `${this.core.repoHtml(repo)}/${repo.issues[comment.issue]?.is_pull ? 'pull' : 'issues'}/${comment.issue}#issuecomment-${comment.id}`,
      body: comment.body,
      user: this.users.user(comment.user),
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      issue_url: `${this.core.repoApi(repo)}/issues/${comment.issue}`,
      author_association: comment.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      performed_via_github_app: null,
      reactions: this.reactions.rollup(`${this.core.repoApi(repo)}/issues/comments/${comment.id}/reactions`, repo, {
        kind: 'comment',
        id: comment.id,
      }),
    }
  }
}
