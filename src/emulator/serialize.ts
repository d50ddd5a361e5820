/**
 * REST representations in GitHub's shapes (the OpenAPI description's required fields), built from
 * the store. URLs point at the origin the client used, so links it follows come back here.
 */
import type {FileChange} from './git.js'
import {treeSha} from './git-objects.js'
import {gitPeople} from './serialize-git.js'
import {diskUsage, license, primaryLanguage} from './repo-meta.js'
import {nodeId, timestamp, type Store} from './store.js'
import type {Artifact, Commit, Issue, IssueComment, Label, Milestone, Pull, Reaction, Release, Repo, Review, ReviewComment, Run, RunAttempt, Workflow, Job} from './state.js'

export interface Links {
  /** REST base the client used, e.g. http://127.0.0.1:4000 or http://api.github.localhost */
  api: string
  /** Web base, e.g. http://github.localhost */
  html: string
}

type Json = Record<string, unknown>

export class Serializer {
  constructor(
    readonly store: Store,
    readonly links: Links,
  ) {}

  private repoApi(repo: Repo): string {
    return `${this.links.api}/repos/${repo.owner}/${repo.name}`
  }

  private repoHtml(repo: Repo): string {
    return `${this.links.html}/${repo.owner}/${repo.name}`
  }

  user(login: string | null): Json | null {
    if (login === null) return null
    const user = this.store.user(login)
    const url = `${this.links.api}/users/${user.login}`
    return {
      login: user.login,
      id: user.id,
      node_id: nodeId('user', user.id),
      avatar_url: `${this.links.html}/avatars/${user.login}`,
      gravatar_id: '',
      url,
      html_url: `${this.links.html}/${user.login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: user.type,
      user_view_type: 'public',
      site_admin: false,
      ...(user.name ? {name: user.name} : {}),
    }
  }

  /** The detailed public profile (GET /user, GET /users/{username}). */
  userDetail(login: string): Json {
    const user = this.store.user(login)
    const created = timestamp(0)
    return {
      ...this.user(login),
      name: user.name,
      company: null,
      blog: '',
      location: null,
      email: null,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: Object.values(this.store.state.repos).filter((r) => r.owner === login).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: created,
      updated_at: created,
    }
  }

  /** GET /: the API's index of URL templates. */
  root(): Json {
    const a = this.links.api
    return {
      current_user_url: `${a}/user`,
      current_user_authorizations_html_url: `${this.links.html}/settings/connections/applications{/client_id}`,
      authorizations_url: `${a}/authorizations`,
      code_search_url: `${a}/search/code?q={query}{&page,per_page,sort,order}`,
      commit_search_url: `${a}/search/commits?q={query}{&page,per_page,sort,order}`,
      emails_url: `${a}/user/emails`,
      emojis_url: `${a}/emojis`,
      events_url: `${a}/events`,
      feeds_url: `${a}/feeds`,
      followers_url: `${a}/user/followers`,
      following_url: `${a}/user/following{/target}`,
      gists_url: `${a}/gists{/gist_id}`,
      issue_search_url: `${a}/search/issues?q={query}{&page,per_page,sort,order}`,
      issues_url: `${a}/issues`,
      keys_url: `${a}/user/keys`,
      label_search_url: `${a}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
      notifications_url: `${a}/notifications`,
      organization_url: `${a}/orgs/{org}`,
      organization_repositories_url: `${a}/orgs/{org}/repos{?type,page,per_page,sort}`,
      organization_teams_url: `${a}/orgs/{org}/teams`,
      public_gists_url: `${a}/gists/public`,
      rate_limit_url: `${a}/rate_limit`,
      repository_url: `${a}/repos/{owner}/{repo}`,
      repository_search_url: `${a}/search/repositories?q={query}{&page,per_page,sort,order}`,
      current_user_repositories_url: `${a}/user/repos{?type,page,per_page,sort}`,
      starred_url: `${a}/user/starred{/owner}{/repo}`,
      starred_gists_url: `${a}/gists/starred`,
      user_url: `${a}/users/{user}`,
      user_organizations_url: `${a}/user/orgs`,
      user_repositories_url: `${a}/users/{user}/repos{?type,page,per_page,sort}`,
      user_search_url: `${a}/search/users?q={query}{&page,per_page,sort,order}`,
    }
  }

  repo(repo: Repo): Json {
    const api = this.repoApi(repo)
    const openIssues = Object.values(repo.issues).filter((i) => i.state === 'open').length
    const pushed = Object.values(repo.commits).reduce((latest, c) => (c.date > latest ? c.date : latest), repo.created_at)
    const forks = Object.values(this.store.state.repos).filter((r) => r.fork_of === `${repo.owner}/${repo.name}`).length
    const detected = license(repo)
    const templated = (name: string, suffix = '') => `${api}/${name}${suffix}`
    return {
      id: repo.id,
      node_id: nodeId('repo', repo.id),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      private: repo.private,
      owner: this.user(repo.owner),
      html_url: this.repoHtml(repo),
      description: repo.description,
      fork: repo.fork_of !== undefined,
      url: api,
      archive_url: templated('{archive_format}{/ref}'),
      assignees_url: templated('assignees', '{/user}'),
      blobs_url: templated('git/blobs', '{/sha}'),
      branches_url: templated('branches', '{/branch}'),
      collaborators_url: templated('collaborators', '{/collaborator}'),
      comments_url: templated('comments', '{/number}'),
      commits_url: templated('commits', '{/sha}'),
      compare_url: templated('compare/{base}...{head}'),
      contents_url: templated('contents/{+path}'),
      contributors_url: templated('contributors'),
      deployments_url: templated('deployments'),
      downloads_url: templated('downloads'),
      events_url: templated('events'),
      forks_url: templated('forks'),
      git_commits_url: templated('git/commits', '{/sha}'),
      git_refs_url: templated('git/refs', '{/sha}'),
      git_tags_url: templated('git/tags', '{/sha}'),
      git_url: `git://github.localhost/${repo.owner}/${repo.name}.git`,
      issue_comment_url: templated('issues/comments', '{/number}'),
      issue_events_url: templated('issues/events', '{/number}'),
      issues_url: templated('issues', '{/number}'),
      keys_url: templated('keys', '{/key_id}'),
      labels_url: templated('labels', '{/name}'),
      languages_url: templated('languages'),
      merges_url: templated('merges'),
      milestones_url: templated('milestones', '{/number}'),
      notifications_url: templated('notifications{?since,all,participating}'),
      pulls_url: templated('pulls', '{/number}'),
      releases_url: templated('releases', '{/id}'),
      ssh_url: `git@github.localhost:${repo.owner}/${repo.name}.git`,
      stargazers_url: templated('stargazers'),
      statuses_url: templated('statuses/{sha}'),
      subscribers_url: templated('subscribers'),
      subscription_url: templated('subscription'),
      tags_url: templated('tags'),
      teams_url: templated('teams'),
      trees_url: templated('git/trees', '{/sha}'),
      clone_url: `${this.repoHtml(repo)}.git`,
      mirror_url: null,
      hooks_url: templated('hooks'),
      svn_url: this.repoHtml(repo),
      homepage: repo.homepage ?? null,
      language: primaryLanguage(repo)?.name ?? null,
      forks_count: forks,
      forks,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      size: diskUsage(repo),
      default_branch: repo.default_branch,
      open_issues_count: openIssues,
      open_issues: openIssues,
      is_template: false,
      topics: repo.topics ?? [],
      has_issues: true,
      has_projects: true,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      pushed_at: pushed,
      created_at: repo.created_at,
      updated_at: pushed,
      permissions: {admin: true, maintain: true, push: true, triage: true, pull: true},
      allow_forking: true,
      license: detected ? {key: detected.key, name: detected.name, spdx_id: detected.spdx_id, url: detected.key === 'other' ? null : `${this.links.api}/licenses/${detected.key}`, node_id: `L_kw${Buffer.from(detected.key).toString('base64url')}`} : null,
      network_count: forks,
      subscribers_count: 0,
    }
  }

  label(repo: Repo, label: Label): Json {
    return {
      id: label.id,
      node_id: nodeId('label', label.id),
      url: `${this.repoApi(repo)}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      description: label.description,
      color: label.color,
      default: label.default === true,
    }
  }

  milestone(repo: Repo, milestone: Milestone): Json {
    const issues = Object.values(repo.issues).filter((i) => i.milestone === milestone.number)
    return {
      url: `${this.repoApi(repo)}/milestones/${milestone.number}`,
      html_url: `${this.repoHtml(repo)}/milestone/${milestone.number}`,
      labels_url: `${this.repoApi(repo)}/milestones/${milestone.number}/labels`,
      id: milestone.id,
      node_id: nodeId('milestone', milestone.id),
      number: milestone.number,
      state: milestone.state,
      title: milestone.title,
      description: milestone.description,
      creator: this.user(milestone.creator),
      open_issues: issues.filter((i) => i.state === 'open').length,
      closed_issues: issues.filter((i) => i.state === 'closed').length,
      created_at: milestone.created_at,
      updated_at: milestone.updated_at,
      closed_at: milestone.closed_at,
      due_on: milestone.due_on,
    }
  }

  /** The reaction rollup GitHub embeds in issues and comments. */
  private reactions(url: string, repo: Repo, subject: Reaction['subject']): Json {
    const counts: Record<string, number> = {'+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0}
    const reactions = this.store.reactions(repo, subject)
    for (const reaction of reactions) counts[reaction.content]!++
    return {url, total_count: reactions.length, ...counts}
  }

  issue(repo: Repo, issue: Issue): Json {
    const api = `${this.repoApi(repo)}/issues/${issue.number}`
    const milestone = issue.milestone === null ? null : this.milestone(repo, this.store.milestone(repo, issue.milestone))
    const assignees = issue.assignees.map((login) => this.user(login))
    const type = issue.issue_type ? repo.issue_types.find((t) => t.name === issue.issue_type) : undefined
    return {
      url: api,
      repository_url: this.repoApi(repo),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: `${this.repoHtml(repo)}/${issue.is_pull ? 'pull' : 'issues'}/${issue.number}`,
      id: issue.id,
      node_id: nodeId(issue.is_pull ? 'pull' : 'issue', issue.id),
      number: issue.number,
      title: issue.title,
      user: this.user(issue.user),
      labels: issue.labels.map((name) => this.label(repo, this.store.label(repo, name))),
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
      active_lock_reason: null,
      body: issue.body,
      closed_by: null,
      reactions: this.reactions(`${api}/reactions`, repo, {kind: 'issue', id: issue.id}),
      timeline_url: `${api}/timeline`,
      performed_via_github_app: null,
      state_reason: issue.state_reason,
      type: type ? this.issueType(type) : null,
      sub_issues_summary: {
        total: issue.sub_issues.length,
        completed: issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length,
        percent_completed: issue.sub_issues.length === 0 ? 0 : Math.round((issue.sub_issues.filter((n) => repo.issues[n]?.state === 'closed').length / issue.sub_issues.length) * 100),
      },
      ...(issue.is_pull
        ? {pull_request: {url: `${this.repoApi(repo)}/pulls/${issue.number}`, html_url: `${this.repoHtml(repo)}/pull/${issue.number}`, diff_url: `${this.repoHtml(repo)}/pull/${issue.number}.diff`, patch_url: `${this.repoHtml(repo)}/pull/${issue.number}.patch`, merged_at: repo.pulls[issue.number]!.merged_at}}
        : {}),
    }
  }

  issueType(type: {id: number; name: string; description: string; color: string}): Json {
    return {id: type.id, node_id: nodeId('issue_type', type.id), name: type.name, description: type.description, color: type.color, created_at: timestamp(0), updated_at: timestamp(0), is_enabled: true}
  }

  comment(repo: Repo, comment: IssueComment): Json {
    return {
      id: comment.id,
      node_id: nodeId('comment', comment.id),
      url: `${this.repoApi(repo)}/issues/comments/${comment.id}`,
      html_url: `${this.repoHtml(repo)}/${repo.issues[comment.issue]?.is_pull ? 'pull' : 'issues'}/${comment.issue}#issuecomment-${comment.id}`,
      body: comment.body,
      user: this.user(comment.user),
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      issue_url: `${this.repoApi(repo)}/issues/${comment.issue}`,
      author_association: comment.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      performed_via_github_app: null,
      reactions: this.reactions(`${this.repoApi(repo)}/issues/comments/${comment.id}/reactions`, repo, {kind: 'comment', id: comment.id}),
    }
  }

  private ref(repo: Repo, branch: string, sha: string): Json {
    return {label: `${repo.owner}:${branch}`, ref: branch, sha, user: this.user(repo.owner), repo: this.repo(repo)}
  }

  /** The full pull request (GET one); `simple` for lists, as GitHub returns fewer fields there. */
  pull(repo: Repo, issue: Issue, pull: Pull, simple = false): Json {
    const api = `${this.repoApi(repo)}/pulls/${pull.number}`
    const html = `${this.repoHtml(repo)}/pull/${pull.number}`
    const head = this.store.headSha(repo, pull)
    const base = repo.branches[pull.base] ?? ''
    const labels = issue.labels.map((name) => this.label(repo, this.store.label(repo, name)))
    const assignees = issue.assignees.map((login) => this.user(login))
    const simpleFields: Json = {
      url: api,
      id: issue.id,
      node_id: nodeId('pull', issue.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${this.repoApi(repo)}/issues/${pull.number}`,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: `${this.repoApi(repo)}/pulls/comments{/number}`,
      comments_url: `${this.repoApi(repo)}/issues/${pull.number}/comments`,
      statuses_url: `${this.repoApi(repo)}/statuses/${head}`,
      number: pull.number,
      state: issue.state,
      locked: issue.locked,
      title: issue.title,
      user: this.user(issue.user),
      body: issue.body,
      labels,
      milestone: issue.milestone === null ? null : this.milestone(repo, this.store.milestone(repo, issue.milestone)),
      active_lock_reason: null,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      merged_at: pull.merged_at,
      merge_commit_sha: pull.merge_commit_sha,
      assignee: assignees[0] ?? null,
      assignees,
      requested_reviewers: pull.requested_reviewers.map((login) => this.user(login)),
      requested_teams: [],
      head: this.ref(repo, pull.head, head),
      base: this.ref(repo, pull.base, base),
      _links: {
        self: {href: api},
        html: {href: html},
        issue: {href: `${this.repoApi(repo)}/issues/${pull.number}`},
        comments: {href: `${this.repoApi(repo)}/issues/${pull.number}/comments`},
        review_comments: {href: `${api}/comments`},
        review_comment: {href: `${this.repoApi(repo)}/pulls/comments{/number}`},
        commits: {href: `${api}/commits`},
        statuses: {href: `${this.repoApi(repo)}/statuses/${head}`},
      },
      author_association: issue.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      auto_merge: null,
      draft: pull.draft,
    }
    if (simple) return simpleFields
    const files = this.store.pullFiles(repo, pull.number)
    return {
      ...simpleFields,
      merged: pull.merged_at !== null,
      mergeable: issue.state === 'open' ? true : null,
      rebaseable: issue.state === 'open' ? true : null,
      // GitHub says "behind" only under a branch protection that requires up-to-date branches, which the sandbox does not model.
      mergeable_state: issue.state !== 'open' ? 'unknown' : pull.draft ? 'draft' : 'clean',
      merged_by: this.user(pull.merged_by),
      comments: issue.comments.length,
      review_comments: Object.values(repo.review_comments).filter((c) => c.pull === pull.number).length,
      maintainer_can_modify: pull.maintainer_can_modify,
      commits: this.store.pullCommits(repo, pull.number).length,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      changed_files: files.length,
    }
  }

  diffEntry(repo: Repo, sha: string, change: FileChange): Json {
    return {
      sha,
      filename: change.filename,
      status: change.status,
      additions: change.additions,
      deletions: change.deletions,
      changes: change.additions + change.deletions,
      blob_url: `${this.repoHtml(repo)}/blob/${sha}/${change.filename}`,
      raw_url: `${this.repoHtml(repo)}/raw/${sha}/${change.filename}`,
      contents_url: `${this.repoApi(repo)}/contents/${change.filename}?ref=${sha}`,
      patch: change.patch,
    }
  }

  commit(repo: Repo, commit: Commit): Json {
    const people = gitPeople(this, commit)
    const tree = treeSha(commit.tree)
    return {
      url: `${this.repoApi(repo)}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: `C_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
      html_url: `${this.repoHtml(repo)}/commit/${commit.sha}`,
      comments_url: `${this.repoApi(repo)}/commits/${commit.sha}/comments`,
      commit: {
        url: `${this.repoApi(repo)}/git/commits/${commit.sha}`,
        author: people.author,
        committer: people.committer,
        message: commit.message,
        tree: {sha: tree, url: `${this.repoApi(repo)}/git/trees/${tree}`},
        comment_count: 0,
      },
      author: this.user(commit.author),
      committer: this.user(commit.author),
      parents: commit.parents.map((sha) => ({sha, url: `${this.repoApi(repo)}/commits/${sha}`, html_url: `${this.repoHtml(repo)}/commit/${sha}`})),
    }
  }

  review(repo: Repo, review: Review): Json {
    const html = `${this.repoHtml(repo)}/pull/${review.pull}#pullrequestreview-${review.id}`
    return {
      id: review.id,
      node_id: nodeId('review', review.id),
      user: this.user(review.user),
      body: review.body,
      state: review.state,
      html_url: html,
      pull_request_url: `${this.repoApi(repo)}/pulls/${review.pull}`,
      author_association: review.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      _links: {html: {href: html}, pull_request: {href: `${this.repoApi(repo)}/pulls/${review.pull}`}},
      ...(review.submitted_at ? {submitted_at: review.submitted_at} : {}),
      commit_id: review.commit_id,
    }
  }

  reviewComment(repo: Repo, comment: ReviewComment): Json {
    const url = `${this.repoApi(repo)}/pulls/comments/${comment.id}`
    const html = `${this.repoHtml(repo)}/pull/${comment.pull}#discussion_r${comment.id}`
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
      user: this.user(comment.user),
      body: comment.body,
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      html_url: html,
      pull_request_url: `${this.repoApi(repo)}/pulls/${comment.pull}`,
      author_association: comment.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR',
      _links: {self: {href: url}, html: {href: html}, pull_request: {href: `${this.repoApi(repo)}/pulls/${comment.pull}`}},
      start_line: comment.start_line ?? null,
      original_start_line: comment.start_line ?? null,
      start_side: comment.start_line == null ? null : (comment.start_side ?? comment.side),
      line,
      original_line: line,
      side: comment.side,
      subject_type: comment.subject_type,
      reactions: this.reactions(`${url}/reactions`, repo, {kind: 'review_comment', id: comment.id}),
    }
  }

  workflow(repo: Repo, workflow: Workflow): Json {
    return {
      id: workflow.id,
      node_id: nodeId('workflow', workflow.id),
      name: workflow.name,
      path: workflow.path,
      state: workflow.state,
      created_at: workflow.created_at,
      updated_at: workflow.created_at,
      url: `${this.repoApi(repo)}/actions/workflows/${workflow.id}`,
      html_url: `${this.repoHtml(repo)}/blob/${repo.default_branch}/${workflow.path}`,
      badge_url: `${this.repoHtml(repo)}/workflows/${encodeURIComponent(workflow.name)}/badge.svg`,
    }
  }

  run(repo: Repo, run: Run, attempt: RunAttempt = this.store.latestAttempt(run)): Json {
    const workflow = repo.workflows[run.workflow_id]!
    const status = this.store.attemptStatus(attempt)
    const times = this.store.attemptTimes(attempt)
    const api = `${this.repoApi(repo)}/actions/runs/${run.id}`
    const head = this.store.commit(repo, run.head_sha)
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
      html_url: `${this.repoHtml(repo)}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: run.created_at,
      updated_at: times.completed ?? times.started,
      actor: this.user(run.actor),
      triggering_actor: this.user(run.actor),
      run_attempt: attempt.attempt,
      referenced_workflows: [],
      run_started_at: times.started,
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.repoApi(repo)}/check-suites/${run.id + 1}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      previous_attempt_url: attempt.attempt > 1 ? `${api}/attempts/${attempt.attempt - 1}` : null,
      workflow_url: `${this.repoApi(repo)}/actions/workflows/${workflow.id}`,
      head_commit: {id: head.sha, tree_id: head.sha, message: head.message, timestamp: head.date, author: person, committer: person},
      repository: this.minimalRepo(repo),
      head_repository: this.minimalRepo(repo),
    }
  }

  private minimalRepo(repo: Repo): Json {
    const full = this.repo(repo)
    const keep = new Set(['id', 'node_id', 'name', 'full_name', 'private', 'owner', 'html_url', 'description', 'fork', 'url'])
    return Object.fromEntries(Object.entries(full).filter(([key]) => keep.has(key) || key.endsWith('_url')))
  }

  job(repo: Repo, run: Run, attempt: RunAttempt, job: Job): Json {
    const workflow = repo.workflows[run.workflow_id]!
    const status = this.store.jobStatus(attempt, job)
    const owner = run.attempts.find((a) => a.attempt === (job.carried_from ?? attempt.attempt)) ?? attempt
    const times = this.store.attemptTimes(owner)
    return {
      id: job.id,
      run_id: run.id,
      workflow_name: workflow.name,
      head_branch: run.head_branch,
      run_url: `${this.repoApi(repo)}/actions/runs/${run.id}`,
      run_attempt: job.carried_from ?? attempt.attempt,
      node_id: nodeId('job', job.id),
      head_sha: run.head_sha,
      url: `${this.repoApi(repo)}/actions/jobs/${job.id}`,
      html_url: `${this.repoHtml(repo)}/actions/runs/${run.id}/job/${job.id}`,
      status: status.status,
      conclusion: status.conclusion,
      created_at: timestamp(owner.started_ms),
      started_at: times.started,
      completed_at: status.status === 'completed' ? times.completed : null,
      name: job.name,
      steps: [
        {name: 'Set up job', status: status.status, conclusion: status.status === 'completed' ? 'success' : null, number: 1, started_at: times.started, completed_at: times.completed},
        {name: `Run ${job.name}`, status: status.status, conclusion: status.conclusion, number: 2, started_at: times.started, completed_at: times.completed},
      ],
      check_run_url: `${this.repoApi(repo)}/check-runs/${job.id}`,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'GitHub Actions 1',
      runner_group_id: 1,
      runner_group_name: 'GitHub Actions',
    }
  }

  artifact(repo: Repo, artifact: Artifact): Json {
    const api = `${this.repoApi(repo)}/actions/artifacts/${artifact.id}`
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
      workflow_run: {id: artifact.run_id, repository_id: repo.id, head_repository_id: repo.id, head_branch: repo.default_branch, head_sha: repo.runs[artifact.run_id]?.head_sha ?? ''},
    }
  }

  release(repo: Repo, release: Release): Json {
    const api = `${this.repoApi(repo)}/releases/${release.id}`
    return {
      url: api,
      html_url: `${this.repoHtml(repo)}/releases/tag/${release.tag_name}`,
      assets_url: `${api}/assets`,
      upload_url: `${this.links.api.replace('://api.', '://uploads.')}/repos/${repo.owner}/${repo.name}/releases/${release.id}/assets{?name,label}`,
      tarball_url: `${this.repoApi(repo)}/tarball/${release.tag_name}`,
      zipball_url: `${this.repoApi(repo)}/zipball/${release.tag_name}`,
      id: release.id,
      node_id: nodeId('release', release.id),
      tag_name: release.tag_name,
      target_commitish: release.target_commitish,
      name: release.name,
      body: release.body,
      draft: release.draft,
      prerelease: release.prerelease,
      immutable: false,
      created_at: release.created_at,
      published_at: release.published_at,
      updated_at: release.published_at ?? release.created_at,
      author: this.user(release.author),
      assets: [],
    }
  }
}
