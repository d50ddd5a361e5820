/**
 * The in-memory GitHub: one state behind REST and GraphQL, and the operations both APIs share.
 * Every rule a client can observe (numbering, validation, the workflow-run lifecycle) lives here once.
 */
import {createHash} from 'node:crypto'
import {diffTrees, type FileChange, type Tree} from './git.js'
import {alreadyExists, found, notFound, notModelled, SandboxError, unprocessable} from './errors.js'
import {blobSha, subtree, treeSha} from './git-objects.js'
import {closesIssue, mentionedLogins} from './events.js'
import {placeOf, resolvePlace, type Place, type PlaceRequest} from './review-place.js'
import type {
  Commit,
  CommitStatus,
  Issue,
  IssueEvent,
  Job,
  Label,
  Project,
  Pull,
  Reaction,
  Release,
  Repo,
  Review,
  ReviewComment,
  ReviewThread,
  Run,
  RunAttempt,
  SandboxState,
  User,
  Workflow,
  WorkflowJobSpec,
} from './state.js'

/** GitHub's default labels of a new repository (name, colour, description). */
export const DEFAULT_LABELS: ReadonlyArray<readonly [string, string, string]> = [
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

export interface WorkflowTiming {
  /** How long a run stays queued, then in progress, before it completes. */
  queued_ms: number
  running_ms: number
}

/** Git identities given for a commit (the API's `author` and `committer`). */
export interface GitIdentities {
  author?: {name: string; email: string}
  committer?: {name: string; email: string}
}

export type RunStatus = {status: 'queued' | 'in_progress' | 'completed'; conclusion: 'success' | 'failure' | 'cancelled' | null}

/** Node ids: a type prefix and the global numeric id, as GitHub's opaque ids look. */
const NODE_PREFIX = {
  user: 'U',
  repo: 'R',
  issue: 'I',
  pull: 'PR',
  label: 'LA',
  milestone: 'MI',
  comment: 'IC',
  review: 'PRR',
  review_comment: 'PRRC',
  thread: 'PRRT',
  workflow: 'W',
  run: 'WFR',
  job: 'CR',
  release: 'RE',
  artifact: 'MDg',
  issue_type: 'IT',
  reaction: 'REA',
} as const
export type NodeKind = keyof typeof NODE_PREFIX

export function nodeId(kind: NodeKind, id: number): string {
  return `${NODE_PREFIX[kind]}_kw${Buffer.from(String(id)).toString('base64url')}`
}

export function parseNodeId(node: string): {kind: NodeKind; id: number} | undefined {
  const match = /^([A-Za-z]+)_kw([A-Za-z0-9_-]+)$/.exec(node)
  if (!match) return undefined
  const kind = (Object.keys(NODE_PREFIX) as NodeKind[]).find((k) => NODE_PREFIX[k] === match[1])
  const id = Number(Buffer.from(match[2]!, 'base64url').toString())
  return kind && Number.isInteger(id) ? {kind, id} : undefined
}

export function timestamp(ms = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

export function emptyState(): SandboxState {
  return {version: 1, next_id: 1000, users: {}, tokens: {}, repos: {}, projects: []}
}

export class Store {
  readonly state: SandboxState
  timing: WorkflowTiming
  private readonly now: () => number

  constructor(state: SandboxState = emptyState(), options: {timing?: WorkflowTiming; now?: () => number} = {}) {
    this.state = state
    this.timing = options.timing ?? {queued_ms: 150, running_ms: 350}
    this.now = options.now ?? Date.now
  }

  private nextId(): number {
    return this.state.next_id++
  }

  /** Who is acting (the request's viewer), for the events a change records. */
  private actor: string | undefined

  /** Runs a change on behalf of a user: events it records name them as the actor. */
  as<T>(login: string, change: () => T): T {
    const previous = this.actor
    this.actor = login
    try {
      return change()
    } finally {
      this.actor = previous
    }
  }

  /** Records an event on an issue or pull request (GitHub's REST event names). */
  private record(repo: Repo, number: number, event: string, fields: Partial<IssueEvent> = {}): IssueEvent {
    const recorded: IssueEvent = {id: this.nextId(), issue: number, event, actor: this.actor ?? repo.owner, created_at: this.stamp(), ...fields}
    repo.events ??= {}
    repo.events[recorded.id] = recorded
    return recorded
  }

  /** `mentioned` and `subscribed` events for the users a new text @-mentions (not its author), as GitHub records them. */
  private recordMentions(repo: Repo, number: number, author: string, text: string | null): void {
    for (const login of mentionedLogins(text)) {
      const user = this.state.users[login] ?? Object.values(this.state.users).find((u) => u.login.toLowerCase() === login.toLowerCase())
      if (!user || user.type !== 'User' || user.login === author) continue
      this.record(repo, number, 'mentioned', {actor: user.login, user: user.login})
      const subscribed = Object.values(repo.events ?? {}).some((e) => e.issue === number && e.event === 'subscribed' && e.actor === user.login)
      if (!subscribed) this.record(repo, number, 'subscribed', {actor: user.login, user: user.login})
    }
  }

  private labelEvent(repo: Repo, number: number, event: 'labeled' | 'unlabeled', name: string): void {
    const label = Object.values(repo.labels).find((l) => l.name === name)
    this.record(repo, number, event, {label: {name, color: label?.color ?? 'ededed'}})
  }

  private stamp(): string {
    return timestamp(this.now())
  }

  // ---- users and tokens -------------------------------------------------------------------------

  ensureUser(login: string, type: User['type'] = 'User', name: string | null = null): User {
    return (this.state.users[login] ??= {id: this.nextId(), login, name, type})
  }

  user(login: string): User {
    return this.state.users[login] ?? this.ensureUser(login)
  }

  addToken(token: string, login: string, type: User['type'] = 'User'): void {
    this.ensureUser(login, type)
    this.state.tokens[token] = login
  }

  loginForToken(token: string): string | undefined {
    return this.state.tokens[token]
  }

  // ---- repositories and git ---------------------------------------------------------------------

  /** A new repository; `files: null` makes an empty one (no commits, no branches, as GitHub's without auto_init). */
  createRepo(owner: string, name: string, options: {default_branch?: string; description?: string | null; files?: Tree | null; private?: boolean; homepage?: string | null} = {}): Repo {
    const key = `${owner}/${name}`
    if (this.state.repos[key]) throw unprocessable('name already exists on this account', 'name', 'Repository')
    this.ensureUser(owner)
    const branch = options.default_branch ?? 'main'
    const repo: Repo = {
      id: this.nextId(),
      owner,
      name,
      description: options.description ?? null,
      private: options.private ?? false,
      default_branch: branch,
      created_at: this.stamp(),
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
    this.state.repos[key] = repo
    if (options.files !== null) repo.branches[branch] = this.writeCommit(repo, [], options.files ?? {'README.md': `# ${name}\n`}, 'Initial commit', owner)
    for (const [typeName, color, description] of [
      ['Bug', 'red', 'An unexpected problem or behavior'],
      ['Feature', 'blue', 'A request, idea, or new functionality'],
      ['Task', 'yellow', 'A specific piece of work'],
    ] as const) {
      repo.issue_types.push({id: this.nextId(), name: typeName, description, color})
    }
    // Every new GitHub repository starts with these labels; agents rely on `bug` and `enhancement` existing.
    for (const [label, color, description] of DEFAULT_LABELS) this.createLabel(repo, label, color, description).default = true
    return repo
  }

  repo(owner: string, name: string): Repo {
    return found(this.state.repos[`${owner}/${name}`])
  }

  private writeCommit(repo: Repo, parents: string[], tree: Tree, message: string, author: string, identities: GitIdentities = {}): string {
    const date = this.stamp()
    const seq = this.nextId()
    const sha = createHash('sha1').update(JSON.stringify({parents, tree, message, author, date, n: seq})).digest('hex')
    repo.commits[sha] = {sha, message, parents, tree, author, date, seq, ...(identities.author ? {author_git: identities.author} : {}), ...(identities.committer ? {committer_git: identities.committer} : {})}
    return sha
  }

  commit(repo: Repo, sha: string): Commit {
    const commit = repo.commits[sha]
    if (!commit) throw notFound('No commit found for SHA: ' + sha)
    return commit
  }

  branchSha(repo: Repo, branch: string): string {
    const sha = repo.branches[branch]
    if (!sha) throw notFound('Branch not found')
    return sha
  }

  createBranch(repo: Repo, name: string, sha: string): void {
    if (repo.branches[name]) throw unprocessable('Reference already exists', 'ref', 'Reference')
    this.commit(repo, sha)
    repo.branches[name] = sha
  }

  updateBranch(repo: Repo, name: string, sha: string, force: boolean): void {
    const current = this.branchSha(repo, name)
    this.commit(repo, sha)
    const fastForward = this.isAncestor(repo, current, sha)
    if (!force && !fastForward) throw unprocessable('Update is not a fast forward', 'sha', 'Reference')
    repo.branches[name] = sha
    if (fastForward) return
    // A force push shows on the open pull requests whose head or base the branch is.
    for (const pull of Object.values(repo.pulls).filter((p) => repo.issues[p.number]!.state === 'open')) {
      if (pull.head === name) this.record(repo, pull.number, 'head_ref_force_pushed', {ref: {before: current, after: sha}})
      if (pull.base === name) this.record(repo, pull.number, 'base_ref_force_pushed', {ref: {before: current, after: sha}})
    }
  }

  deleteBranch(repo: Repo, name: string): void {
    if (!repo.branches[name]) throw unprocessable('Reference does not exist', 'ref', 'Reference')
    for (const pull of Object.values(repo.pulls)) {
      if (pull.head === name && !pull.head_sha_frozen) pull.head_sha_frozen = repo.branches[name]!
      if (pull.head === name) this.record(repo, pull.number, 'head_ref_deleted', {ref: {from: name}})
      else if (pull.base === name && repo.issues[pull.number]!.state === 'open') this.record(repo, pull.number, 'base_ref_deleted', {ref: {from: name}})
    }
    delete repo.branches[name]
  }

  /** Writes files (null deletes) on top of a branch as one commit. */
  commitFiles(repo: Repo, branch: string, changes: Record<string, string | null>, message: string, author: string, identities: GitIdentities = {}): string {
    // The first commit of an empty repository starts its default branch.
    const empty = Object.keys(repo.branches).length === 0 && branch === repo.default_branch
    const parent = empty ? undefined : this.branchSha(repo, branch)
    const tree: Tree = parent ? {...this.commit(repo, parent).tree} : {}
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) delete tree[path]
      else tree[path] = content
    }
    const sha = this.writeCommit(repo, parent ? [parent] : [], tree, message, author, identities)
    repo.branches[branch] = sha
    return sha
  }

  /** A fork of a repository under another owner: its branches (or only the default one) and their history; no issues. */
  forkRepo(source: Repo, owner: string, name = source.name, defaultBranchOnly = false): Repo {
    const existing = Object.values(this.state.repos).find((r) => r.owner === owner && r.fork_of === `${source.owner}/${source.name}`)
    // Forking again answers the fork that exists, as GitHub does.
    if (existing) return existing
    const fork = this.createRepo(owner, name, {files: null, description: source.description, default_branch: source.default_branch, private: source.private})
    fork.fork_of = `${source.owner}/${source.name}`
    fork.issue_types = []
    fork.commits = {...source.commits}
    fork.branches = defaultBranchOnly ? (source.branches[source.default_branch] ? {[source.default_branch]: source.branches[source.default_branch]!} : {}) : {...source.branches}
    return fork
  }

  // ---- the git database (blobs, trees, commits that no branch points at yet) ---------------------

  createBlob(repo: Repo, content: string): string {
    const sha = blobSha(content)
    repo.git_blobs ??= {}
    repo.git_blobs[sha] = content
    return sha
  }

  /** A blob by id: one written with POST git/blobs, or a file of any commit. */
  blob(repo: Repo, sha: string): string {
    const written = repo.git_blobs?.[sha]
    if (written !== undefined) return written
    for (const commit of Object.values(repo.commits)) {
      for (const content of Object.values(commit.tree)) if (blobSha(content) === sha) return content
    }
    for (const tree of Object.values(repo.git_trees ?? {})) for (const content of Object.values(tree)) if (blobSha(content) === sha) return content
    throw notFound()
  }

  /**
   * A tree by id: a directory of any commit or of a tree made with POST git/trees; a commit id, a
   * branch or a tag name stands for its commit's root tree (GitHub peels them).
   */
  tree(repo: Repo, shaOrRef: string): {tree: Tree; dir: string} {
    const commitSha = repo.branches[shaOrRef] ?? this.tagRefs(repo)[shaOrRef] ?? (repo.commits[shaOrRef] ? shaOrRef : undefined)
    if (commitSha) return {tree: this.commit(repo, commitSha).tree, dir: ''}
    const made = repo.git_trees?.[shaOrRef]
    if (made) return {tree: made, dir: ''}
    const candidates = [...Object.values(repo.commits).map((c) => c.tree), ...Object.values(repo.git_trees ?? {})]
    for (const tree of candidates) {
      const dirs = new Set([''])
      for (const path of Object.keys(tree)) {
        const parts = path.split('/')
        for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'))
      }
      for (const dir of dirs) if (treeSha(tree, dir) === shaOrRef) return {tree, dir}
    }
    throw notFound()
  }

  /**
   * POST git/trees: entries on top of `base_tree` (a tree id, or a commit id GitHub peels): a blob by
   * content or id, a sub-tree by id, or a null sha that deletes the path. Returns the new tree's id.
   */
  createTree(repo: Repo, entries: Array<{path: string; type?: string; sha?: string | null; content?: string}>, baseTree?: string): string {
    let tree: Tree = {}
    if (baseTree !== undefined) {
      let base: {tree: Tree; dir: string}
      try {
        base = this.tree(repo, baseTree)
      } catch {
        throw unprocessable('base_tree is not a valid tree oid', 'base_tree', 'Tree')
      }
      tree = subtree(base.tree, base.dir)
    }
    for (const entry of entries) {
      const path = entry.path.replace(/^\/+|\/+$/g, '')
      if (entry.type === 'commit') throw notModelled('submodules (tree entries of type commit)')
      if (entry.sha === null) {
        for (const existing of Object.keys(tree)) if (existing === path || existing.startsWith(`${path}/`)) delete tree[existing]
        continue
      }
      if (entry.type === 'tree') {
        let graft: {tree: Tree; dir: string}
        try {
          graft = this.tree(repo, entry.sha ?? '')
        } catch {
          throw unprocessable(`tree.sha ${entry.sha ?? ''} is not a valid tree`, 'tree', 'Tree')
        }
        for (const existing of Object.keys(tree)) if (existing.startsWith(`${path}/`)) delete tree[existing]
        for (const [relative, content] of Object.entries(subtree(graft.tree, graft.dir))) tree[`${path}/${relative}`] = content
        continue
      }
      if (entry.content !== undefined) tree[path] = entry.content
      else {
        try {
          tree[path] = this.blob(repo, entry.sha ?? '')
        } catch {
          throw unprocessable(`tree.sha ${entry.sha ?? ''} is not a valid blob`, 'tree', 'Tree')
        }
      }
    }
    const sha = treeSha(tree)
    repo.git_trees ??= {}
    repo.git_trees[sha] = tree
    return sha
  }

  /** POST git/commits: a commit of a tree on parents; no branch moves until a ref is updated. */
  createCommit(repo: Repo, by: string, fields: {message: string; tree: string; parents: string[]} & GitIdentities): Commit {
    let root: {tree: Tree; dir: string}
    try {
      root = this.tree(repo, fields.tree)
    } catch {
      throw unprocessable('Tree SHA does not exist', 'tree', 'Commit')
    }
    for (const parent of fields.parents) if (!repo.commits[parent]) throw unprocessable('Parent SHA does not exist or is not a commit object', 'parents', 'Commit')
    const sha = this.writeCommit(repo, fields.parents, subtree(root.tree, root.dir), fields.message, by, {author: fields.author, committer: fields.committer})
    return repo.commits[sha]!
  }

  /** Tags by name: lightweight tags made through the API, and published releases' tags. */
  tagRefs(repo: Repo): Record<string, string> {
    const fromReleases = Object.values(repo.releases).filter((r) => r.tag_sha).map((r) => [r.tag_name, r.tag_sha!] as const)
    return {...Object.fromEntries(fromReleases), ...repo.tags}
  }

  createTag(repo: Repo, name: string, sha: string): void {
    if (this.tagRefs(repo)[name] !== undefined) throw unprocessable('Reference already exists', 'ref', 'Reference')
    this.commit(repo, sha)
    repo.tags ??= {}
    repo.tags[name] = sha
  }

  deleteTag(repo: Repo, name: string): void {
    if (repo.tags?.[name] === undefined) throw unprocessable('Reference does not exist', 'ref', 'Reference')
    delete repo.tags[name]
  }

  private ancestors(repo: Repo, sha: string): string[] {
    const order: string[] = []
    const seen = new Set<string>()
    const queue = [sha]
    while (queue.length > 0) {
      const next = queue.shift()!
      if (seen.has(next)) continue
      seen.add(next)
      order.push(next)
      queue.push(...(repo.commits[next]?.parents ?? []))
    }
    return order
  }

  isAncestor(repo: Repo, ancestor: string, of: string): boolean {
    return this.ancestors(repo, of).includes(ancestor)
  }

  mergeBase(repo: Repo, a: string, b: string): string {
    const ofB = new Set(this.ancestors(repo, b))
    const base = this.ancestors(repo, a).find((sha) => ofB.has(sha))
    if (!base) throw unprocessable('no merge base')
    return base
  }

  // ---- labels and milestones --------------------------------------------------------------------

  createLabel(repo: Repo, name: string, color = 'ededed', description: string | null = null): Label {
    if (Object.keys(repo.labels).some((n) => n.toLowerCase() === name.toLowerCase())) {
      throw alreadyExists('name', 'Label')
    }
    const label: Label = {id: this.nextId(), name, color: color.replace(/^#/, ''), description, created_at: this.stamp(), updated_at: this.stamp()}
    repo.labels[name] = label
    return label
  }

  label(repo: Repo, name: string): Label {
    return found(Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase()))
  }

  updateLabel(repo: Repo, name: string, patch: {new_name?: string; color?: string; description?: string | null}): Label {
    const label = this.label(repo, name)
    if (patch.new_name && patch.new_name !== label.name) {
      delete repo.labels[label.name]
      for (const issue of Object.values(repo.issues)) issue.labels = issue.labels.map((n) => (n === label.name ? patch.new_name! : n))
      label.name = patch.new_name
      repo.labels[label.name] = label
    }
    if (patch.color) label.color = patch.color.replace(/^#/, '')
    if (patch.description !== undefined) label.description = patch.description
    label.updated_at = this.stamp()
    return label
  }

  deleteLabel(repo: Repo, name: string): void {
    const label = this.label(repo, name)
    delete repo.labels[label.name]
    for (const issue of Object.values(repo.issues)) issue.labels = issue.labels.filter((n) => n !== label.name)
  }

  /** Labels named on an issue that do not exist yet are created, as GitHub does. */
  private resolveLabels(repo: Repo, names: string[]): string[] {
    return names.map((name) => {
      const existing = Object.values(repo.labels).find((l) => l.name.toLowerCase() === name.toLowerCase())
      return (existing ?? this.createLabel(repo, name)).name
    })
  }

  createMilestone(repo: Repo, title: string, creator: string, options: {description?: string; due_on?: string | null} = {}) {
    const milestone = {
      id: this.nextId(),
      number: repo.milestones.length + 1,
      title,
      description: options.description ?? null,
      state: 'open' as const,
      due_on: options.due_on ?? null,
      creator,
      created_at: this.stamp(),
      updated_at: this.stamp(),
      closed_at: null,
    }
    repo.milestones.push(milestone)
    return milestone
  }

  milestone(repo: Repo, number: number) {
    return found(repo.milestones.find((m) => m.number === number))
  }

  // ---- issues -----------------------------------------------------------------------------------

  issue(repo: Repo, number: number): Issue {
    return found(repo.issues[number])
  }

  issueById(repo: Repo, id: number): Issue {
    return found(Object.values(repo.issues).find((i) => i.id === id))
  }

  createIssue(
    repo: Repo,
    author: string,
    fields: {title: string; body?: string | null; labels?: string[]; assignees?: string[]; milestone?: number | null; type?: string | null},
    isPull = false,
  ): Issue {
    if (!fields.title || typeof fields.title !== 'string') throw unprocessable('title is missing', 'title', 'Issue')
    if (fields.milestone) this.milestone(repo, fields.milestone)
    const issue: Issue = {
      id: this.nextId(),
      number: repo.next_number++,
      title: fields.title,
      body: fields.body ?? null,
      user: author,
      state: 'open',
      state_reason: null,
      labels: this.resolveLabels(repo, fields.labels ?? []),
      assignees: (fields.assignees ?? []).map((login) => this.ensureUser(login).login),
      milestone: fields.milestone ?? null,
      comments: [],
      created_at: this.stamp(),
      updated_at: this.stamp(),
      closed_at: null,
      locked: false,
      is_pull: isPull,
      parent: null,
      sub_issues: [],
      blocked_by: [],
      issue_type: fields.type ?? null,
    }
    repo.issues[issue.number] = issue
    // What an issue is created with shows in its history as GitHub records it.
    this.as(this.actor ?? author, () => {
      for (const name of issue.labels) this.labelEvent(repo, issue.number, 'labeled', name)
      for (const login of issue.assignees) this.record(repo, issue.number, 'assigned', {user: login})
      if (issue.milestone !== null) this.record(repo, issue.number, 'milestoned', {milestone: this.milestone(repo, issue.milestone).title})
      if (issue.issue_type) this.record(repo, issue.number, 'issue_type_added', {issue_type: issue.issue_type})
      this.recordMentions(repo, issue.number, author, issue.body)
    })
    return issue
  }

  updateIssue(
    repo: Repo,
    number: number,
    patch: {
      title?: string
      body?: string | null
      state?: 'open' | 'closed'
      state_reason?: Issue['state_reason']
      labels?: string[]
      assignees?: string[]
      milestone?: number | null
      type?: string | null
    },
  ): Issue {
    const issue = this.issue(repo, number)
    if (patch.milestone !== undefined && patch.milestone !== null) this.milestone(repo, patch.milestone)
    if (patch.type !== undefined && patch.type !== null && !repo.issue_types.some((t) => t.name === patch.type)) throw unprocessable(`issue type ${patch.type} does not exist`, 'type', 'Issue')
    if (patch.title !== undefined && patch.title !== issue.title) {
      this.record(repo, number, 'renamed', {rename: {from: issue.title, to: patch.title}})
      issue.title = patch.title
    }
    if (patch.body !== undefined) issue.body = patch.body
    if (patch.labels !== undefined) {
      const labels = this.resolveLabels(repo, patch.labels)
      for (const name of issue.labels.filter((n) => !labels.includes(n))) this.labelEvent(repo, number, 'unlabeled', name)
      for (const name of labels.filter((n) => !issue.labels.includes(n))) this.labelEvent(repo, number, 'labeled', name)
      issue.labels = labels
    }
    if (patch.assignees !== undefined) {
      const assignees = [...new Set(patch.assignees.map((login) => this.ensureUser(login).login))]
      for (const login of issue.assignees.filter((a) => !assignees.includes(a))) this.record(repo, number, 'unassigned', {user: login})
      for (const login of assignees.filter((a) => !issue.assignees.includes(a))) this.record(repo, number, 'assigned', {user: login})
      issue.assignees = assignees
    }
    if (patch.milestone !== undefined && patch.milestone !== issue.milestone) {
      if (issue.milestone !== null) this.record(repo, number, 'demilestoned', {milestone: this.milestone(repo, issue.milestone).title})
      if (patch.milestone !== null) this.record(repo, number, 'milestoned', {milestone: this.milestone(repo, patch.milestone).title})
      issue.milestone = patch.milestone
    }
    if (patch.type !== undefined && patch.type !== issue.issue_type) {
      const event = issue.issue_type === null ? 'issue_type_added' : patch.type === null ? 'issue_type_removed' : 'issue_type_changed'
      this.record(repo, number, event, {issue_type: patch.type ?? issue.issue_type, prev_issue_type: event === 'issue_type_changed' ? issue.issue_type : null})
      issue.issue_type = patch.type
    }
    if (patch.state && patch.state !== issue.state) {
      const reason = issue.is_pull ? null : patch.state === 'closed' ? (patch.state_reason ?? 'completed') : 'reopened'
      this.record(repo, number, patch.state === 'closed' ? 'closed' : 'reopened', {commit_id: null, state_reason: reason})
      issue.state = patch.state
      issue.closed_at = patch.state === 'closed' ? this.stamp() : null
      issue.state_reason = patch.state === 'closed' ? (patch.state_reason ?? 'completed') : 'reopened'
      if (issue.is_pull && patch.state === 'closed') {
        const pull = repo.pulls[number]!
        pull.head_sha_frozen ??= repo.branches[pull.head] ?? null
      }
      // A reopened pull request follows its head branch again.
      if (issue.is_pull && patch.state === 'open') {
        const pull = repo.pulls[number]!
        if (!pull.merged_at && repo.branches[pull.head]) pull.head_sha_frozen = null
      }
    } else if (patch.state_reason !== undefined && issue.state === 'closed') issue.state_reason = patch.state_reason
    issue.updated_at = this.stamp()
    return issue
  }

  addLabels(repo: Repo, number: number, names: string[]): Issue {
    const issue = this.issue(repo, number)
    for (const name of this.resolveLabels(repo, names)) {
      if (issue.labels.includes(name)) continue
      issue.labels.push(name)
      this.labelEvent(repo, number, 'labeled', name)
    }
    issue.updated_at = this.stamp()
    return issue
  }

  removeLabel(repo: Repo, number: number, name: string): Issue {
    const issue = this.issue(repo, number)
    const present = issue.labels.find((n) => n.toLowerCase() === name.toLowerCase())
    if (!present) throw notFound('Label does not exist')
    issue.labels = issue.labels.filter((n) => n !== present)
    this.labelEvent(repo, number, 'unlabeled', present)
    issue.updated_at = this.stamp()
    return issue
  }

  addAssignees(repo: Repo, number: number, logins: string[]): Issue {
    const issue = this.issue(repo, number)
    for (const login of logins) {
      if (issue.assignees.includes(login)) continue
      issue.assignees.push(this.ensureUser(login).login)
      this.record(repo, number, 'assigned', {user: login})
    }
    issue.updated_at = this.stamp()
    return issue
  }

  removeAssignees(repo: Repo, number: number, logins: string[]): Issue {
    const issue = this.issue(repo, number)
    for (const login of issue.assignees.filter((a) => logins.includes(a))) this.record(repo, number, 'unassigned', {user: login})
    issue.assignees = issue.assignees.filter((login) => !logins.includes(login))
    issue.updated_at = this.stamp()
    return issue
  }

  /** Deletes an issue (GitHub's deleteIssue): its comments, reactions, relations and project items go with it; its number is not reused. */
  deleteIssue(repo: Repo, number: number): void {
    const issue = this.issue(repo, number)
    if (issue.is_pull) throw notFound()
    for (const id of issue.comments) this.deleteComment(repo, id)
    this.dropReactions(repo, {kind: 'issue', id: issue.id})
    for (const other of Object.values(repo.issues)) {
      other.sub_issues = other.sub_issues.filter((n) => n !== number)
      other.blocked_by = other.blocked_by.filter((n) => n !== number)
      if (other.parent === number) other.parent = null
    }
    const key = `${repo.owner}/${repo.name}`
    for (const project of this.state.projects) project.items = project.items.filter((i) => !(i.content.repo === key && i.content.number === number))
    for (const event of Object.values(repo.events ?? {})) if (event.issue === number) delete repo.events![event.id]
    delete repo.issues[number]
  }

  addComment(repo: Repo, number: number, author: string, body: string) {
    if (!body) throw unprocessable('body is missing', 'body', 'IssueComment')
    const issue = this.issue(repo, number)
    const comment = {id: this.nextId(), issue: number, body, user: author, created_at: this.stamp(), updated_at: this.stamp()}
    repo.comments[comment.id] = comment
    issue.comments.push(comment.id)
    issue.updated_at = this.stamp()
    this.recordMentions(repo, number, author, body)
    return comment
  }

  comment(repo: Repo, id: number) {
    return found(repo.comments[id])
  }

  deleteComment(repo: Repo, id: number): void {
    const comment = this.comment(repo, id)
    const issue = this.issue(repo, comment.issue)
    issue.comments = issue.comments.filter((c) => c !== id)
    delete repo.comments[id]
    this.record(repo, comment.issue, 'comment_deleted', {user: comment.user})
    this.dropReactions(repo, {kind: 'comment', id})
  }

  addSubIssue(repo: Repo, parentNumber: number, childId: number): Issue {
    const parent = this.issue(repo, parentNumber)
    const child = this.issueById(repo, childId)
    if (child.parent !== null) throw unprocessable('Issue may not contain duplicate sub-issues or have more than one parent', 'sub_issue_id')
    if (child.number === parent.number) throw unprocessable('an issue cannot be its own sub-issue', 'sub_issue_id')
    child.parent = parent.number
    parent.sub_issues.push(child.number)
    this.record(repo, parent.number, 'sub_issue_added', {other: child.number})
    this.record(repo, child.number, 'parent_issue_added', {other: parent.number})
    return parent
  }

  removeSubIssue(repo: Repo, parentNumber: number, childId: number): Issue {
    const parent = this.issue(repo, parentNumber)
    const child = this.issueById(repo, childId)
    if (child.parent !== parent.number) throw notFound('Sub-issue not found')
    child.parent = null
    parent.sub_issues = parent.sub_issues.filter((n) => n !== child.number)
    this.record(repo, parent.number, 'sub_issue_removed', {other: child.number})
    this.record(repo, child.number, 'parent_issue_removed', {other: parent.number})
    return parent
  }

  addBlockedBy(repo: Repo, number: number, blockerId: number): Issue {
    const issue = this.issue(repo, number)
    const blocker = this.issueById(repo, blockerId)
    if (blocker.number === number) throw unprocessable('an issue cannot block itself', 'issue_id')
    if (!issue.blocked_by.includes(blocker.number)) {
      issue.blocked_by.push(blocker.number)
      this.record(repo, number, 'blocked_by_added', {other: blocker.number})
      this.record(repo, blocker.number, 'blocking_added', {other: number})
    }
    return issue
  }

  removeBlockedBy(repo: Repo, number: number, blockerId: number): Issue {
    const issue = this.issue(repo, number)
    const blocker = this.issueById(repo, blockerId)
    if (!issue.blocked_by.includes(blocker.number)) throw notFound('Dependency not found')
    issue.blocked_by = issue.blocked_by.filter((n) => n !== blocker.number)
    this.record(repo, number, 'blocked_by_removed', {other: blocker.number})
    this.record(repo, blocker.number, 'blocking_removed', {other: number})
    return issue
  }

  // ---- reactions --------------------------------------------------------------------------------

  /** Reactions on one subject, oldest first. */
  reactions(repo: Repo, subject: Reaction['subject']): Reaction[] {
    return Object.values(repo.reactions ?? {})
      .filter((r) => r.subject.kind === subject.kind && r.subject.id === subject.id)
      .sort((a, b) => a.id - b.id)
  }

  /** A user reacts with each content at most once: reacting again returns the existing reaction, as GitHub does. */
  addReaction(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction {
    const existing = this.reactions(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) return existing
    const reaction: Reaction = {id: this.nextId(), subject, user, content, created_at: this.stamp()}
    repo.reactions ??= {}
    repo.reactions[reaction.id] = reaction
    return reaction
  }

  /** Removes the user's reaction of this content; null when there was none. */
  removeReaction(repo: Repo, subject: Reaction['subject'], user: string, content: Reaction['content']): Reaction | null {
    const existing = this.reactions(repo, subject).find((r) => r.user === user && r.content === content)
    if (existing) delete repo.reactions![existing.id]
    return existing ?? null
  }

  private dropReactions(repo: Repo, subject: Reaction['subject']): void {
    for (const reaction of this.reactions(repo, subject)) delete repo.reactions![reaction.id]
  }

  /** Issues this one blocks: those whose blocked-by list holds it. */
  blocking(repo: Repo, number: number): Issue[] {
    this.issue(repo, number)
    return Object.values(repo.issues).filter((i) => i.blocked_by.includes(number)).sort((a, b) => a.number - b.number)
  }

  // ---- pull requests ----------------------------------------------------------------------------

  pull(repo: Repo, number: number): {issue: Issue; pull: Pull} {
    const pull = repo.pulls[number]
    if (!pull) throw notFound()
    return {issue: repo.issues[number]!, pull}
  }

  headSha(repo: Repo, pull: Pull): string {
    return pull.head_sha_frozen ?? this.branchSha(repo, pull.head)
  }

  createPull(repo: Repo, author: string, fields: {title: string; head: string; base: string; body?: string | null; draft?: boolean}): {issue: Issue; pull: Pull} {
    const head = fields.head.includes(':') ? fields.head.split(':')[1]! : fields.head
    if (!repo.branches[head]) throw unprocessable(`head ${fields.head} does not exist`, 'head', 'PullRequest')
    if (!repo.branches[fields.base]) throw unprocessable(`base ${fields.base} does not exist`, 'base', 'PullRequest')
    if (repo.branches[head] === repo.branches[fields.base]) {
      throw unprocessable(`No commits between ${fields.base} and ${head}`, undefined, 'PullRequest')
    }
    const open = Object.values(repo.pulls).find((p) => p.head === head && p.base === fields.base && repo.issues[p.number]!.state === 'open')
    if (open) throw unprocessable(`A pull request already exists for ${repo.owner}:${head}.`, undefined, 'PullRequest')
    const issue = this.createIssue(repo, author, {title: fields.title, body: fields.body ?? null}, true)
    const pull: Pull = {
      number: issue.number,
      head,
      base: fields.base,
      draft: fields.draft ?? false,
      merged_at: null,
      merged_by: null,
      merge_commit_sha: null,
      requested_reviewers: [],
      maintainer_can_modify: true,
      head_sha_frozen: null,
    }
    repo.pulls[issue.number] = pull
    return {issue, pull}
  }

  pullFiles(repo: Repo, number: number): FileChange[] {
    const {pull} = this.pull(repo, number)
    const head = this.headSha(repo, pull)
    const base = pull.merge_commit_sha ? this.commit(repo, pull.merge_commit_sha).parents[0]! : this.mergeBase(repo, head, this.branchSha(repo, pull.base))
    return diffTrees(this.commit(repo, base).tree, this.commit(repo, head).tree)
  }

  /** The pull request's diff as of one of its commits (a review or comment on an earlier commit sees that commit's diff). */
  pullFilesAt(repo: Repo, number: number, sha: string): FileChange[] {
    const {pull} = this.pull(repo, number)
    if (!repo.commits[sha]) throw unprocessable('commit_id is not part of the pull request', 'commit_id', 'PullRequestReviewComment')
    if (sha === this.headSha(repo, pull)) return this.pullFiles(repo, number)
    const base = pull.merge_commit_sha ? this.commit(repo, pull.merge_commit_sha).parents[0]! : this.mergeBase(repo, sha, this.branchSha(repo, pull.base))
    return diffTrees(this.commit(repo, base).tree, this.commit(repo, sha).tree)
  }

  pullCommits(repo: Repo, number: number): Commit[] {
    const {pull} = this.pull(repo, number)
    const head = this.headSha(repo, pull)
    const base = this.mergeBase(repo, head, this.branchSha(repo, pull.base))
    const exclude = new Set(this.ancestors(repo, base))
    return this.ancestors(repo, head)
      .filter((sha) => !exclude.has(sha))
      .map((sha) => this.commit(repo, sha))
      .reverse()
  }

  /** Whether the head is behind its base (a branch update would bring commits in). */
  pullBehindBy(repo: Repo, pull: Pull): number {
    const base = this.branchSha(repo, pull.base)
    const head = this.headSha(repo, pull)
    const inHead = new Set(this.ancestors(repo, head))
    return this.ancestors(repo, base).filter((sha) => !inHead.has(sha)).length
  }

  mergePull(repo: Repo, number: number, by: string, method: 'merge' | 'squash' | 'rebase' = 'merge', message?: string): string {
    const {issue, pull} = this.pull(repo, number)
    if (pull.merged_at) throw new SandboxError(405, 'Pull Request is not mergeable')
    if (issue.state !== 'open') throw new SandboxError(405, 'Pull Request is not mergeable')
    if (pull.draft) throw new SandboxError(405, 'Pull Request is still a draft')
    const files = this.pullFiles(repo, number)
    const headTree = this.commit(repo, this.headSha(repo, pull)).tree
    const changes = Object.fromEntries(files.map((f) => [f.filename, f.status === 'removed' ? null : headTree[f.filename]!]))
    const parents = [this.branchSha(repo, pull.base), ...(method === 'merge' ? [this.headSha(repo, pull)] : [])]
    const tree: Tree = {...this.commit(repo, parents[0]!).tree}
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) delete tree[path]
      else tree[path] = content
    }
    const sha = this.writeCommit(repo, parents, tree, message ?? `${issue.title} (#${number})`, by)
    repo.branches[pull.base] = sha
    pull.merged_at = this.stamp()
    pull.merged_by = by
    pull.merge_commit_sha = sha
    pull.head_sha_frozen = repo.branches[pull.head] ?? pull.head_sha_frozen
    issue.state = 'closed'
    issue.closed_at = this.stamp()
    issue.state_reason = 'completed'
    this.as(this.actor ?? by, () => {
      this.record(repo, number, 'merged', {commit_id: sha, ref: {to: pull.base}})
      this.record(repo, number, 'closed', {commit_id: null, state_reason: null})
      // Merged into the default branch, a pull request closes the issues its body says it fixes.
      if (pull.base !== repo.default_branch) return
      for (const closed of Object.values(repo.issues).filter((i) => !i.is_pull && i.state === 'open' && closesIssue(issue.body, i.number))) {
        closed.state = 'closed'
        closed.closed_at = this.stamp()
        closed.state_reason = 'completed'
        closed.updated_at = this.stamp()
        this.record(repo, closed.number, 'closed', {commit_id: sha, state_reason: 'completed', closer: number})
      }
    })
    return sha
  }

  /** Changes a pull request's base branch (it must exist). */
  changePullBase(repo: Repo, number: number, base: string): Pull {
    const {pull} = this.pull(repo, number)
    this.branchSha(repo, base)
    if (base !== pull.base) {
      this.record(repo, number, 'base_ref_changed', {ref: {from: pull.base, to: base}})
      pull.base = base
    }
    return pull
  }

  /** Dismisses a submitted approval or change request (a pending review cannot be dismissed). */
  dismissReview(repo: Repo, reviewId: number, message: string): Review {
    const review = this.review(repo, reviewId)
    if (review.state === 'PENDING') throw unprocessable('Can not dismiss a pending review', 'state', 'PullRequestReview')
    this.record(repo, review.pull, 'review_dismissed', {review: {id: review.id, state: review.state, message}})
    review.state = 'DISMISSED'
    return review
  }

  /** Merges the base into the head branch (PUT .../update-branch). */
  updatePullBranch(repo: Repo, number: number, by: string): string {
    const {pull} = this.pull(repo, number)
    if (this.pullBehindBy(repo, pull) === 0) throw unprocessable('There are no new commits on the base branch.')
    const base = this.branchSha(repo, pull.base)
    const head = this.branchSha(repo, pull.head)
    const tree: Tree = {...this.commit(repo, base).tree}
    for (const change of diffTrees(this.commit(repo, this.mergeBase(repo, head, base)).tree, this.commit(repo, head).tree)) {
      const headTree = this.commit(repo, head).tree
      if (change.status === 'removed') delete tree[change.filename]
      else tree[change.filename] = headTree[change.filename]!
    }
    const sha = this.writeCommit(repo, [head, base], tree, `Merge branch '${pull.base}' into ${pull.head}`, by)
    repo.branches[pull.head] = sha
    return sha
  }

  /** Converts to a draft, or marks ready for review. */
  setPullDraft(repo: Repo, number: number, draft: boolean): Pull {
    const {pull} = this.pull(repo, number)
    if (pull.draft !== draft) this.record(repo, number, draft ? 'convert_to_draft' : 'ready_for_review')
    pull.draft = draft
    return pull
  }

  requestReviewers(repo: Repo, number: number, logins: string[]): Pull {
    const {issue, pull} = this.pull(repo, number)
    for (const login of logins) {
      if (login === issue.user) throw unprocessable('Review cannot be requested from pull request author.', 'reviewers')
      this.ensureUser(login)
      if (pull.requested_reviewers.includes(login)) continue
      pull.requested_reviewers.push(login)
      this.record(repo, number, 'review_requested', {user: login})
    }
    return pull
  }

  removeRequestedReviewers(repo: Repo, number: number, logins: string[]): Pull {
    const {pull} = this.pull(repo, number)
    for (const login of pull.requested_reviewers.filter((l) => logins.includes(l))) this.record(repo, number, 'review_request_removed', {user: login})
    pull.requested_reviewers = pull.requested_reviewers.filter((login) => !logins.includes(login))
    return pull
  }

  // ---- reviews, review comments, threads -----------------------------------------------------------

  review(repo: Repo, id: number): Review {
    return found(repo.reviews[id])
  }

  /**
   * A review with inline comments. Without an event it stays PENDING until submitted; a user has at
   * most one pending review per pull request, and cannot approve or request changes on their own.
   * It is atomic, as on GitHub: a comment that cannot be placed, or an event that is refused, leaves
   * nothing behind (no pending review, no comments).
   */
  createReview(
    repo: Repo,
    number: number,
    author: string,
    fields: {event?: string; body?: string; commit_id?: string; comments?: Array<PlaceRequest & {body: string}>},
  ): Review {
    const {issue, pull} = this.pull(repo, number)
    if (Object.values(repo.reviews).some((r) => r.pull === number && r.user === author && r.state === 'PENDING')) {
      throw unprocessable('User can only have one pending review per pull request', 'user_id', 'PullRequestReview')
    }
    const commitId = fields.commit_id ?? this.headSha(repo, pull)
    const files = this.pullFilesAt(repo, number, commitId)
    // Every comment is placed before anything is written.
    const places = (fields.comments ?? []).map((comment) => ({comment, place: resolvePlace(files, comment, 'review')}))
    const review: Review = {id: this.nextId(), pull: number, user: author, body: fields.body ?? '', state: 'PENDING', commit_id: commitId, submitted_at: null}
    repo.reviews[review.id] = review
    try {
      for (const {comment, place} of places) this.writeReviewComment(repo, number, author, review.id, commitId, comment.body, place)
      if (fields.event) this.submitReview(repo, review.id, fields.event, fields.body, issue.user)
    } catch (error) {
      this.discardReview(repo, review.id)
      throw error
    }
    return review
  }

  /** Removes a review with its comments and the threads they started. */
  private discardReview(repo: Repo, reviewId: number): void {
    for (const comment of Object.values(repo.review_comments).filter((c) => c.review_id === reviewId)) this.deleteReviewComment(repo, comment.id)
    delete repo.reviews[reviewId]
  }

  submitReview(repo: Repo, reviewId: number, event: string, body?: string, pullAuthor?: string): Review {
    const review = this.review(repo, reviewId)
    if (review.state !== 'PENDING') throw unprocessable('Can not submit a review that is not pending', 'event', 'PullRequestReview')
    const states: Record<string, Review['state']> = {APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED'}
    const state = states[event]
    if (!state) throw unprocessable(`event ${event} is not one of APPROVE, REQUEST_CHANGES, COMMENT`, 'event', 'PullRequestReview')
    const author = pullAuthor ?? this.issue(repo, review.pull).user
    if (state !== 'COMMENTED' && author === review.user) {
      throw unprocessable(`Can not ${event === 'APPROVE' ? 'approve' : 'request changes on'} your own pull request`, 'event', 'PullRequestReview')
    }
    const comments = Object.values(repo.review_comments).filter((c) => c.review_id === reviewId)
    const text = body ?? review.body
    if ((state === 'CHANGES_REQUESTED' || state === 'COMMENTED') && !text && comments.length === 0) {
      throw unprocessable('Review body is required', 'body', 'PullRequestReview')
    }
    review.body = text
    review.state = state
    review.submitted_at = this.stamp()
    const pull = repo.pulls[review.pull]!
    pull.requested_reviewers = pull.requested_reviewers.filter((login) => login !== review.user)
    return review
  }

  deletePendingReview(repo: Repo, reviewId: number): Review {
    const review = this.review(repo, reviewId)
    if (review.state !== 'PENDING') throw unprocessable('Can not delete a non-pending pull request review')
    for (const comment of Object.values(repo.review_comments).filter((c) => c.review_id === reviewId)) this.deleteReviewComment(repo, comment.id)
    delete repo.reviews[reviewId]
    return review
  }

  /**
   * A review comment: a new thread on a line (or lines, or the whole file) of the diff, placed as
   * GitHub places it (review-place.ts), or (in_reply_to) a reply in a thread.
   */
  addReviewComment(
    repo: Repo,
    number: number,
    author: string,
    fields: PlaceRequest & {body: string; commit_id?: string; in_reply_to?: number},
    reviewId?: number,
  ): ReviewComment {
    const {pull} = this.pull(repo, number)
    if (!fields.body) throw unprocessable('body is missing', 'body', 'PullRequestReviewComment')
    if (fields.in_reply_to !== undefined) {
      const parent = repo.review_comments[fields.in_reply_to]
      if (!parent || parent.pull !== number) throw notFound('parent comment not found')
      const thread = repo.threads[parent.thread_id]!
      const first = repo.review_comments[thread.comments[0]!]!
      const review = reviewId ?? this.createStandaloneReview(repo, number, author, fields.commit_id ?? this.headSha(repo, pull))
      return this.writeReviewComment(repo, number, author, review, fields.commit_id ?? first.commit_id, fields.body, placeOf(first), thread)
    }
    const commitId = fields.commit_id ?? this.headSha(repo, pull)
    const place = resolvePlace(this.pullFilesAt(repo, number, commitId), fields, 'comment')
    const review = reviewId ?? this.createStandaloneReview(repo, number, author, commitId)
    return this.writeReviewComment(repo, number, author, review, commitId, fields.body, place)
  }

  /** Writes a placed comment: in a thread when it replies, else as the first comment of a new thread. */
  private writeReviewComment(repo: Repo, number: number, author: string, reviewId: number, commitId: string, body: string, place: Place, thread?: ReviewThread): ReviewComment {
    if (!thread) {
      thread = {id: this.nextId(), pull: number, path: place.path, line: place.line, side: place.side, start_line: place.start_line, start_side: place.start_side, comments: [], resolved: false, resolved_by: null}
      repo.threads[thread.id] = thread
    }
    const comment: ReviewComment = {
      id: this.nextId(),
      pull: number,
      review_id: reviewId,
      thread_id: thread.id,
      user: author,
      body,
      path: place.path,
      line: place.line,
      side: place.side,
      start_line: place.start_line,
      start_side: place.start_side,
      position: place.position,
      diff_hunk: place.diff_hunk,
      subject_type: place.subject_type,
      commit_id: commitId,
      in_reply_to_id: thread.comments.length > 0 ? thread.comments[0]! : null,
      created_at: this.stamp(),
      updated_at: this.stamp(),
    }
    repo.review_comments[comment.id] = comment
    thread.comments.push(comment.id)
    return comment
  }

  /** A single comment outside a pending review gets a COMMENTED review of its own, as on GitHub. */
  private createStandaloneReview(repo: Repo, number: number, author: string, commit: string): number {
    const review: Review = {id: this.nextId(), pull: number, user: author, body: '', state: 'COMMENTED', commit_id: commit, submitted_at: this.stamp()}
    repo.reviews[review.id] = review
    return review.id
  }

  reviewComment(repo: Repo, id: number): ReviewComment {
    return found(repo.review_comments[id])
  }

  deleteReviewComment(repo: Repo, id: number): void {
    const comment = this.reviewComment(repo, id)
    const thread = repo.threads[comment.thread_id]!
    thread.comments = thread.comments.filter((c) => c !== id)
    if (thread.comments.length === 0) delete repo.threads[thread.id]
    delete repo.review_comments[id]
    this.dropReactions(repo, {kind: 'review_comment', id})
  }

  thread(repo: Repo, id: number): ReviewThread {
    const thread = repo.threads[id]
    if (!thread) throw notFound('Could not resolve to a PullRequestReviewThread')
    return thread
  }

  /** Threads of a pull request in creation order; pending reviews' threads only for their author. */
  threads(repo: Repo, number: number, viewer?: string): ReviewThread[] {
    return Object.values(repo.threads)
      .filter((t) => t.pull === number)
      .filter((t) => {
        const first = repo.review_comments[t.comments[0]!]
        const review = first ? repo.reviews[first.review_id] : undefined
        return review?.state !== 'PENDING' || review.user === viewer
      })
      .sort((a, b) => a.id - b.id)
  }

  setThreadResolved(repo: Repo, id: number, resolved: boolean, by: string): ReviewThread {
    const thread = this.thread(repo, id)
    thread.resolved = resolved
    thread.resolved_by = resolved ? by : null
    return thread
  }

  // ---- workflows and runs -----------------------------------------------------------------------

  addWorkflow(repo: Repo, path: string, name: string, jobs: WorkflowJobSpec[], inputs: string[] = []): Workflow {
    const workflow: Workflow = {id: this.nextId(), name, path, state: 'active', created_at: this.stamp(), inputs, jobs}
    repo.workflows[workflow.id] = workflow
    return workflow
  }

  workflow(repo: Repo, idOrFile: string | number): Workflow {
    return found(Object.values(repo.workflows).find((w) => String(w.id) === String(idOrFile) || w.path.split('/').pop() === String(idOrFile)))
  }

  dispatch(repo: Repo, workflow: Workflow, ref: string, inputs: Record<string, string>, actor: string): Run {
    const sha = repo.branches[ref]
    if (!sha) throw unprocessable(`No ref found for: ${ref}`, 'ref')
    const unknown = Object.keys(inputs).filter((k) => !workflow.inputs.includes(k))
    if (unknown.length > 0) throw unprocessable(`Unexpected inputs provided: ${JSON.stringify(unknown)}`, 'inputs')
    const runNumber = Object.values(repo.runs).filter((r) => r.workflow_id === workflow.id).length + 1
    const run: Run = {
      id: this.nextId(),
      workflow_id: workflow.id,
      run_number: runNumber,
      event: 'workflow_dispatch',
      head_branch: ref,
      head_sha: sha,
      display_title: inputs.seed_id ? `${workflow.name} (${inputs.seed_id})` : workflow.name,
      actor,
      inputs,
      created_at: this.stamp(),
      attempts: [],
      artifacts: [],
    }
    repo.runs[run.id] = run
    this.startAttempt(run, workflow, null)
    const artifact = {id: this.nextId(), run_id: run.id, name: 'bench-report', size_in_bytes: 1024, created_at: this.stamp()}
    repo.artifacts[artifact.id] = artifact
    run.artifacts.push(artifact.id)
    return run
  }

  private startAttempt(run: Run, workflow: Workflow, onlyFailedOf: RunAttempt | null): RunAttempt {
    const number = run.attempts.length + 1
    const jobs: Job[] = workflow.jobs.map((spec) => {
      const previous = onlyFailedOf?.jobs.find((j) => j.name === spec.name)
      if (previous && previous.outcome === 'success') return {...previous, attempt: number, carried_from: previous.carried_from ?? previous.attempt}
      const outcome = spec.fail_on_attempts.includes(number) ? 'failure' : 'success'
      return {id: this.nextId(), name: spec.name, attempt: number, outcome, carried_from: null, log: spec.log.replaceAll('{attempt}', String(number)).replaceAll('{seed_id}', run.inputs.seed_id ?? '')}
    })
    const durations = workflow.jobs.map((spec) => spec.duration_ms).filter((ms): ms is number => ms !== undefined)
    const attempt: RunAttempt = {attempt: number, started_ms: this.now(), cancelled_ms: null, jobs, ...(durations.length ? {running_ms: Math.max(...durations)} : {})}
    run.attempts.push(attempt)
    return attempt
  }

  run(repo: Repo, id: number): Run {
    return found(repo.runs[id])
  }

  latestAttempt(run: Run): RunAttempt {
    return run.attempts.at(-1)!
  }

  /** A run's status follows its clock: queued, then in progress, then completed. */
  attemptStatus(attempt: RunAttempt): RunStatus {
    const elapsed = this.now() - attempt.started_ms
    if (attempt.cancelled_ms !== null) return {status: 'completed', conclusion: 'cancelled'}
    if (elapsed < this.timing.queued_ms) return {status: 'queued', conclusion: null}
    if (elapsed < this.timing.queued_ms + (attempt.running_ms ?? this.timing.running_ms)) return {status: 'in_progress', conclusion: null}
    return {status: 'completed', conclusion: attempt.jobs.some((j) => j.outcome === 'failure') ? 'failure' : 'success'}
  }

  jobStatus(attempt: RunAttempt, job: Job): RunStatus {
    if (job.carried_from !== null && job.carried_from !== attempt.attempt) return {status: 'completed', conclusion: job.outcome}
    const run = this.attemptStatus(attempt)
    if (run.status !== 'completed' || run.conclusion === 'cancelled') return run
    return {status: 'completed', conclusion: job.outcome}
  }

  attemptTimes(attempt: RunAttempt): {started: string; completed: string | null} {
    const started = attempt.started_ms + this.timing.queued_ms
    const completed = attempt.cancelled_ms ?? attempt.started_ms + this.timing.queued_ms + (attempt.running_ms ?? this.timing.running_ms)
    return {started: timestamp(started), completed: this.attemptStatus(attempt).status === 'completed' ? timestamp(completed) : null}
  }

  rerun(repo: Repo, runId: number, onlyFailed: boolean): Run {
    const run = this.run(repo, runId)
    const last = this.latestAttempt(run)
    const status = this.attemptStatus(last)
    if (status.status !== 'completed') throw new SandboxError(403, 'This workflow is already running')
    if (onlyFailed && status.conclusion === 'success') throw new SandboxError(403, 'This workflow run has no failed jobs to re-run')
    this.startAttempt(run, repo.workflows[run.workflow_id]!, onlyFailed ? last : null)
    return run
  }

  cancel(repo: Repo, runId: number): Run {
    const run = this.run(repo, runId)
    const last = this.latestAttempt(run)
    if (this.attemptStatus(last).status === 'completed') throw new SandboxError(409, 'Cannot cancel a workflow run that is completed.')
    last.cancelled_ms = this.now()
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

  // ---- commit statuses --------------------------------------------------------------------------

  createStatus(repo: Repo, sha: string, creator: string, fields: {state: CommitStatus['state']; context?: string; description?: string | null; target_url?: string | null}): CommitStatus {
    this.commit(repo, sha)
    const status: CommitStatus = {
      id: this.nextId(),
      sha,
      state: fields.state,
      context: fields.context || 'default',
      description: fields.description ?? null,
      target_url: fields.target_url ?? null,
      creator,
      created_at: this.stamp(),
    }
    repo.statuses ??= {}
    repo.statuses[status.id] = status
    return status
  }

  /** A commit's statuses, newest first. */
  statuses(repo: Repo, sha: string): CommitStatus[] {
    return Object.values(repo.statuses ?? {})
      .filter((s) => s.sha === sha)
      .sort((a, b) => b.id - a.id)
  }

  /** The latest status of each context, as the combined status and the status check rollup count them. */
  latestStatuses(repo: Repo, sha: string): CommitStatus[] {
    const latest = new Map<string, CommitStatus>()
    for (const status of this.statuses(repo, sha)) if (!latest.has(status.context)) latest.set(status.context, status)
    return [...latest.values()].sort((a, b) => a.context.localeCompare(b.context))
  }

  // ---- releases ---------------------------------------------------------------------------------

  createRelease(repo: Repo, author: string, fields: {tag_name: string; name?: string | null; body?: string | null; draft?: boolean; prerelease?: boolean; target_commitish?: string}): Release {
    if (!fields.tag_name) throw unprocessable('tag_name is missing', 'tag_name', 'Release')
    if (Object.values(repo.releases).some((r) => r.tag_name === fields.tag_name)) throw alreadyExists('tag_name', 'Release')
    const draft = fields.draft ?? false
    const release: Release = {
      id: this.nextId(),
      tag_name: fields.tag_name,
      name: fields.name ?? null,
      body: fields.body ?? null,
      draft,
      prerelease: fields.prerelease ?? false,
      target_commitish: fields.target_commitish ?? repo.default_branch,
      author,
      created_at: this.stamp(),
      published_at: draft ? null : this.stamp(),
      tag_sha: null,
    }
    if (!draft) release.tag_sha = this.commitish(repo, release.target_commitish)
    repo.releases[release.id] = release
    return release
  }

  /** The commit a branch name or a commit SHA names (null when it names neither). */
  private commitish(repo: Repo, ref: string): string | null {
    return repo.branches[ref] ?? repo.commits[ref]?.sha ?? null
  }

  release(repo: Repo, id: number): Release {
    return found(repo.releases[id])
  }

  releaseByTag(repo: Repo, tag: string): Release {
    return found(Object.values(repo.releases).find((r) => r.tag_name === tag))
  }

  updateRelease(repo: Repo, id: number, patch: Partial<Pick<Release, 'tag_name' | 'name' | 'body' | 'draft' | 'prerelease' | 'target_commitish'>>): Release {
    const release = this.release(repo, id)
    if (patch.tag_name && patch.tag_name !== release.tag_name && Object.values(repo.releases).some((r) => r.tag_name === patch.tag_name)) {
      throw alreadyExists('tag_name', 'Release')
    }
    const wasDraft = release.draft
    Object.assign(release, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)))
    if (wasDraft && !release.draft) {
      release.published_at = this.stamp()
      release.tag_sha = this.commitish(repo, release.target_commitish)
    }
    return release
  }

  deleteRelease(repo: Repo, id: number): void {
    this.release(repo, id)
    delete repo.releases[id]
  }

  // ---- Projects v2 ------------------------------------------------------------------------------

  createProject(owner: string, title: string): Project {
    this.ensureUser(owner)
    const number = this.state.projects.filter((p) => p.owner === owner).length + 1
    const id = this.nextId()
    const project: Project = {
      id: `PVT_kw${Buffer.from(String(id)).toString('base64url')}`,
      number,
      owner,
      title,
      created_at: this.stamp(),
      fields: [
        {id: `PVTF_kw${Buffer.from(`${id}:title`).toString('base64url')}`, name: 'Title', data_type: 'TITLE', options: []},
        {
          id: `PVTSSF_kw${Buffer.from(`${id}:status`).toString('base64url')}`,
          name: 'Status',
          data_type: 'SINGLE_SELECT',
          options: ['Todo', 'In Progress', 'Done'].map((name) => ({id: createHash('sha1').update(`${id}:${name}`).digest('hex').slice(0, 8), name})),
        },
      ],
      items: [],
    }
    this.state.projects.push(project)
    return project
  }

  project(owner: string, number: number): Project {
    const project = this.state.projects.find((p) => p.owner === owner && p.number === number)
    if (!project) throw notFound(`Could not resolve to a ProjectV2 with the number ${number}.`)
    return project
  }

  projectById(id: string): Project {
    const project = this.state.projects.find((p) => p.id === id)
    if (!project) throw notFound(`Could not resolve to a node with the global id of '${id}'`)
    return project
  }

  deleteProject(id: string): Project {
    const project = this.projectById(id)
    this.state.projects = this.state.projects.filter((p) => p.id !== id)
    return project
  }

  addProjectItem(project: Project, repo: Repo, number: number): string {
    this.issue(repo, number)
    const key = `${repo.owner}/${repo.name}`
    const existing = project.items.find((i) => i.content.repo === key && i.content.number === number)
    if (existing) return existing.id
    const id = `PVTI_kw${Buffer.from(String(this.nextId())).toString('base64url')}`
    project.items.push({id, content: {repo: key, number}, values: {}, created_at: this.stamp()})
    return id
  }

  removeProjectItem(project: Project, itemId: string): void {
    const before = project.items.length
    project.items = project.items.filter((i) => i.id !== itemId)
    if (project.items.length === before) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
  }

  setProjectField(project: Project, itemId: string, fieldId: string, optionId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    const field = project.fields.find((f) => f.id === fieldId)
    if (!field) throw notFound(`Could not resolve to a ProjectV2Field with the id ${fieldId}`)
    if (field.data_type !== 'SINGLE_SELECT' || !field.options.some((o) => o.id === optionId)) {
      throw unprocessable(`The single select option Id does not belong to the field`, 'singleSelectOptionId')
    }
    item.values[fieldId] = optionId
  }

  clearProjectField(project: Project, itemId: string, fieldId: string): void {
    const item = project.items.find((i) => i.id === itemId)
    if (!item) throw notFound(`Could not resolve to a ProjectV2Item with the id ${itemId}`)
    delete item.values[fieldId]
  }
}
