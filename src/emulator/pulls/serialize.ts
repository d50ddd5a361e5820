/** REST representations of pull requests, reviews and review comments. */
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Issue, Pull, Repo, Review, ReviewComment} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {IssueSerializer} from '../issues/serialize.js'
import type {ReactionSerializer} from '../reactions/serialize.js'
import type {RepoSerializer} from '../repos/serialize.js'
import type {UserSerializer} from '../users/serialize.js'

/** Pull requests and reviews, on users, repositories, issues and reaction rollups (../serialize.ts composes the serializers). */
export class PullSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
    private readonly repos: RepoSerializer,
    private readonly issues: IssueSerializer,
    private readonly reactions: ReactionSerializer,
  ) {}

  private ref(repo: Repo, branch: string, sha: string): Json {
    return {
      label: `${repo.owner}:${branch}`,
      ref: branch,
      sha,
      user: this.users.user(repo.owner),
      repo: this.repos.repo(repo),
    }
  }

  /** The full pull request (GET one); `simple` for lists, as GitHub returns fewer fields there. */
  pull(repo: Repo, issue: Issue, pull: Pull, simple = false): Json {
    const api = `${this.core.repoApi(repo)}/pulls/${pull.number}`
    const html = `${this.core.repoHtml(repo)}/pull/${pull.number}`
    const head = this.core.store.pulls.headSha(repo, pull)
    const base = repo.branches[pull.base] ?? ''
    const labels = issue.labels.map((name) => this.issues.label(repo, this.core.store.labels.get(repo, name)))
    const assignees = issue.assignees.map((login) => this.users.user(login))
    const simpleFields: Json = {
      url: api,
      id: issue.id,
      node_id: nodeId('pull', issue.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${this.core.repoApi(repo)}/issues/${pull.number}`,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: `${this.core.repoApi(repo)}/pulls/comments{/number}`,
      comments_url: `${this.core.repoApi(repo)}/issues/${pull.number}/comments`,
      statuses_url: `${this.core.repoApi(repo)}/statuses/${head}`,
      number: pull.number,
      state: issue.state,
      locked: issue.locked,
      title: issue.title,
      user: this.users.user(issue.user),
      body: issue.body,
      labels,
      milestone:
        issue.milestone === null
          ? null
          : this.issues.milestone(repo, this.core.store.milestones.get(repo, issue.milestone)),
      active_lock_reason: issue.active_lock_reason ?? null,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      merged_at: pull.merged_at,
      merge_commit_sha: pull.merge_commit_sha,
      assignee: assignees[0] ?? null,
      assignees,
      requested_reviewers: pull.requested_reviewers.map((login) => this.users.user(login)),
      requested_teams: [],
      head: this.ref(repo, pull.head, head),
      base: this.ref(repo, pull.base, base),
      _links: {
        self: {href: api},
        html: {href: html},
        issue: {href: `${this.core.repoApi(repo)}/issues/${pull.number}`},
        comments: {href: `${this.core.repoApi(repo)}/issues/${pull.number}/comments`},
        review_comments: {href: `${api}/comments`},
        review_comment: {href: `${this.core.repoApi(repo)}/pulls/comments{/number}`},
        commits: {href: `${api}/commits`},
        statuses: {href: `${this.core.repoApi(repo)}/statuses/${head}`},
      },
      author_association: issue.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      auto_merge: null,
      draft: pull.draft,
    }
    if (simple) return simpleFields
    const files = this.core.store.pulls.files(repo, pull.number)
    const open = issue.state === 'open'
    const conflicting = this.core.store.pulls.conflicting(repo, pull)
    return {
      ...simpleFields,
      merged: pull.merged_at !== null,
      mergeable: open ? !conflicting : null,
      rebaseable: open ? !conflicting : null,
      // GitHub says "behind" only under a branch protection that requires up-to-date branches, which the sandbox does not model.
      mergeable_state: !open ? 'unknown' : conflicting ? 'dirty' : pull.draft ? 'draft' : 'clean',
      merged_by: this.users.user(pull.merged_by),
      comments: issue.comments.length,
      review_comments: Object.values(repo.review_comments).filter((c) => c.pull === pull.number).length,
      maintainer_can_modify: pull.maintainer_can_modify,
      commits: this.core.store.pulls.commits(repo, pull.number).length,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      changed_files: files.length,
    }
  }

  review(repo: Repo, review: Review): Json {
    const html = `${this.core.repoHtml(repo)}/pull/${review.pull}#pullrequestreview-${review.id}`
    return {
      id: review.id,
      node_id: nodeId('review', review.id),
      user: this.users.user(review.user),
      body: review.body,
      state: review.state,
      html_url: html,
      pull_request_url: `${this.core.repoApi(repo)}/pulls/${review.pull}`,
      author_association: review.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      _links: {html: {href: html}, pull_request: {href: `${this.core.repoApi(repo)}/pulls/${review.pull}`}},
      ...(review.submitted_at ? {submitted_at: review.submitted_at} : {}),
      commit_id: review.commit_id,
    }
  }

  reviewComment(repo: Repo, comment: ReviewComment): Json {
    const url = `${this.core.repoApi(repo)}/pulls/comments/${comment.id}`
    const html = `${this.core.repoHtml(repo)}/pull/${comment.pull}#discussion_r${comment.id}`
    const line = comment.line
    // State saved before positions and hunks were kept: the line stands in for the position.
    const position = line === null ? null : (comment.position ?? line)
    return {
      url,
      pull_request_review_id: comment.review_id,
      id: comment.id,
      node_id: nodeId('review_comment', comment.id),
      diff_hunk: comment.diff_hunk ?? '',
      path: comment.path,
      position,
      original_position: position,
      commit_id: comment.commit_id,
      original_commit_id: comment.commit_id,
      ...(comment.in_reply_to_id === null ? {} : {in_reply_to_id: comment.in_reply_to_id}),
      user: this.users.user(comment.user),
      body: comment.body,
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      html_url: html,
      pull_request_url: `${this.core.repoApi(repo)}/pulls/${comment.pull}`,
      author_association: comment.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      _links: {
        self: {href: url},
        html: {href: html},
        pull_request: {href: `${this.core.repoApi(repo)}/pulls/${comment.pull}`},
      },
      start_line: comment.start_line ?? null,
      original_start_line: comment.start_line ?? null,
      start_side: comment.start_line == null ? null : (comment.start_side ?? comment.side),
      line,
      original_line: line,
      side: comment.side,
      subject_type: comment.subject_type,
      reactions: this.reactions.rollup(`${url}/reactions`, repo, {kind: 'review_comment', id: comment.id}),
    }
  }
}
