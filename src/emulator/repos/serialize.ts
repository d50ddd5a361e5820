/** REST representations of repositories, commits and the files a diff changes. */
import type {FileChange} from '../core/git.js'
import {treeSha} from '../core/git-objects.js'
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Commit, Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {UserSerializer} from '../users/serialize.js'
import {diskUsage, forksOf, license, primaryLanguage, pushedAt} from './meta.js'
import {gitPeople} from './serialize-git.js'

/** Repositories and commits, on users (../serialize.ts composes the serializers). */
export class RepoSerializer {
  constructor(
    private readonly core: SerializerCore,
    private readonly users: UserSerializer,
  ) {}

  repo(repo: Repo): Json {
    const api = this.core.repoApi(repo)
    const openIssues = Object.values(repo.issues).filter((i) => i.state === 'open').length
    const pushed = pushedAt(repo)
    const forks = forksOf(this.core.store.state.repos, repo).length
    const detected = license(repo)
    const templated = (name: string, suffix = '') => `${api}/${name}${suffix}`
    return {
      id: repo.id,
      node_id: nodeId('repo', repo.id),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      private: repo.private,
      owner: this.users.user(repo.owner),
      html_url: this.core.repoHtml(repo),
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
      clone_url: `${this.core.repoHtml(repo)}.git`,
      mirror_url: null,
      hooks_url: templated('hooks'),
      svn_url: this.core.repoHtml(repo),
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
      license: detected
        ? {
            key: detected.key,
            name: detected.name,
            spdx_id: detected.spdx_id,
            url: detected.key === 'other' ? null : `${this.core.links.api}/licenses/${detected.key}`,
            node_id: `L_kw${Buffer.from(detected.key).toString('base64url')}`,
          }
        : null,
      network_count: forks,
      subscribers_count: 0,
    }
  }

  /** The repository as other objects embed it (a run, a check suite, a search hit): its ids, names and URLs. */
  minimal(repo: Repo): Json {
    const full = this.repo(repo)
    const keep = new Set([
      'id',
      'node_id',
      'name',
      'full_name',
      'private',
      'owner',
      'html_url',
      'description',
      'fork',
      'url',
    ])
    return Object.fromEntries(Object.entries(full).filter(([key]) => keep.has(key) || key.endsWith('_url')))
  }

  diffEntry(repo: Repo, commitSha: string, change: FileChange): Json {
    return {
      // The file's blob (of a removed file, the blob it had), not the commit's id.
      sha: change.blobs.head ?? change.blobs.base,
      filename: change.filename,
      status: change.status,
      additions: change.additions,
      deletions: change.deletions,
      changes: change.additions + change.deletions,
      blob_url: `${this.core.repoHtml(repo)}/blob/${commitSha}/${change.filename}`,
      raw_url: `${this.core.repoHtml(repo)}/raw/${commitSha}/${change.filename}`,
      contents_url: `${this.core.repoApi(repo)}/contents/${change.filename}?ref=${commitSha}`,
      patch: change.patch,
    }
  }

  commit(repo: Repo, commit: Commit): Json {
    const people = gitPeople(commit)
    const tree = treeSha(commit.tree)
    return {
      url: `${this.core.repoApi(repo)}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: `C_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
      html_url: `${this.core.repoHtml(repo)}/commit/${commit.sha}`,
      comments_url: `${this.core.repoApi(repo)}/commits/${commit.sha}/comments`,
      commit: {
        url: `${this.core.repoApi(repo)}/git/commits/${commit.sha}`,
        author: people.author,
        committer: people.committer,
        message: commit.message,
        tree: {sha: tree, url: `${this.core.repoApi(repo)}/git/trees/${tree}`},
        comment_count: 0,
      },
      author: this.users.user(commit.author),
      committer: this.users.user(commit.author),
      parents: commit.parents.map((sha) => ({
        sha,
        url: `${this.core.repoApi(repo)}/commits/${sha}`,
        html_url: `${this.core.repoHtml(repo)}/commit/${sha}`,
      })),
    }
  }
}
