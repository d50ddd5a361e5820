/**
 * Repositories in the store: a new one (its first commit, GitHub's default labels and issue types),
 * one by name, and forks.
 */
import {found, unprocessable} from '../core/errors.js'
import {checkRefName} from '../core/git-names.js'
import type {Tree} from '../core/state.js'
import type {Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'
import type {Labels} from '../issues/label-store.js'
import type {Git} from './git-store.js'

/** GitHub's default labels of a new repository (name, colour, description). */
const DEFAULT_LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['bug', 'd73a4a', "Something isn't working"],
  ['documentation', '0075ca', 'Improvements or additions to documentation'],
  ['duplicate', 'cfd3d7', 'This issue or pull request already exists'],
  ['enhancement', 'a2eeef', 'New feature or request'],
  ['good first issue', '7057ff', 'Good for newcomers'],
  ['help wanted', '008672', 'Extra attention is needed'],
  ['invalid', 'e4e669', "This doesn't seem right"],
  ['question', 'd876e3', 'Further information is requested'],
  ['wontfix', 'ffffff', 'This will not be worked on'],
]

/**
 * The name GitHub gives a repository asked to be called `asked`, or its 422: characters outside
 * [A-Za-z0-9._-] become '-', a `.git` suffix is dropped, at most 100 characters; `.` and `..` are
 * reserved, and so is a name with nothing left once its `.git` is dropped (`.git` itself).
 */
export function repositoryName(asked: string): string {
  const name = asked
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/(?:\.git)+$/, '')
  if (asked.trim() === '') throw unprocessable("name can't be blank", 'name', 'Repository')
  if (name === '' || name === '.' || name === '..')
    throw unprocessable(`The repository ${asked.trim()} is reserved`, 'name', 'Repository')
  if (name.length > 100) throw unprocessable('Name cannot be more than 100 characters.', 'name', 'Repository')
  return name
}

/** The store's repository operations, on git and labels (../store.ts composes the services). */
export class Repos {
  constructor(
    private readonly core: StoreCore,
    private readonly git: Git,
    private readonly labels: Labels,
  ) {}

  /** A new repository; `files: null` makes an empty one (no commits, no branches, as GitHub's without auto_init). */
  create(
    owner: string,
    name: string,
    options: {
      default_branch?: string
      description?: string | null
      files?: Tree | null
      /** The first commit's date (default: now). */
      date?: string
      private?: boolean
      homepage?: string | null
    } = {},
  ): Repo {
    // Names from a request were made GitHub's by repositoryName; these come from configuration and forks too.
    if (repositoryName(name) !== name)
      throw unprocessable(`${name} is not a repository name GitHub gives`, 'name', 'Repository')
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,38}$/.test(owner))
      throw unprocessable(`${owner} is not a GitHub login`, 'owner', 'Repository')
    const branch = options.default_branch ?? 'main'
    checkRefName(`refs/heads/${branch}`)
    const key = `${owner}/${name}`
    if (this.core.state.repos[key]) throw unprocessable('name already exists on this account', 'name', 'Repository')
    this.core.ensureUser(owner)
    const repo: Repo = {
      id: this.core.nextId(),
      owner,
      name,
      description: options.description ?? null,
      private: options.private ?? false,
      default_branch: branch,
      created_at: this.core.stamp(),
      next_number: 1,
      labels: {},
      milestones: [],
      issues: {},
      pulls: {},
      comments: {},
      reviews: {},
      review_comments: {},
      threads: {},
      branches: {},
      commits: {},
      workflows: {},
      runs: {},
      artifacts: {},
      releases: {},
      issue_types: [],
      reactions: {},
      ...(options.homepage ? {homepage: options.homepage} : {}),
    }
    this.core.state.repos[key] = repo
    if (options.files !== null)
      repo.branches[branch] = this.git.writeCommit(
        repo,
        [],
        options.files ?? {'README.md': `# ${name}\n`},
        'Initial commit',
        owner,
        options.date === undefined ? {} : {date: options.date},
      )
    for (const [typeName, color, description] of [
      ['Bug', 'red', 'An unexpected problem or behavior'],
      ['Feature', 'blue', 'A request, idea, or new functionality'],
      ['Task', 'yellow', 'A specific piece of work'],
    ] as const) {
      repo.issue_types.push({id: this.core.nextId(), name: typeName, description, color})
    }
    // Every new GitHub repository starts with these labels; agents rely on `bug` and `enhancement` existing.
    for (const [label, color, description] of DEFAULT_LABELS)
      this.labels.create(repo, label, color, description).default = true
    return repo
  }

  get(owner: string, name: string): Repo {
    return found(this.core.state.repos[`${owner}/${name}`])
  }

  /** A fork of a repository under another owner: its branches (or only the default one) and their history; no issues. */
  fork(source: Repo, owner: string, name = source.name, defaultBranchOnly = false): Repo {
    const existing = Object.values(this.core.state.repos).find(
      (r) => r.owner === owner && r.fork_of === `${source.owner}/${source.name}`,
    )
    // Forking again answers the fork that exists, as GitHub does.
    if (existing) return existing
    const fork = this.create(owner, name, {
      files: null,
      description: source.description,
      default_branch: source.default_branch,
      private: source.private,
    })
    fork.fork_of = `${source.owner}/${source.name}`
    fork.issue_types = []
    fork.commits = {...source.commits}
    fork.branches = defaultBranchOnly
      ? source.branches[source.default_branch]
        ? {[source.default_branch]: source.branches[source.default_branch]!}
        : {}
      : {...source.branches}
    return fork
  }
}
