/**
 * Git in the store: commits, branches, files written as commits, the git database (blobs, trees,
 * commits that no branch points at yet), tags and ancestry.
 */
import {notFound, notModelled, refused, unprocessable} from '../core/errors.js'
import {blobSha, commitObject, objectSha, subtree, treeSha} from '../core/git-objects.js'
import {checkRefName, treePathProblem} from '../core/git-names.js'
import {timestamp, type StoreCore} from '../core/store-core.js'
import type {Commit, Repo, Tree} from '../core/state.js'

/** Git identities given for a commit (the API's `author` and `committer`). */
export interface GitIdentities {
  author?: {name: string; email: string}
  committer?: {name: string; email: string}
  /** The commit's date (the API's `committer.date`, else `author.date`); absent: now. */
  date?: string
}

/** Told of every branch a push, a ref update or a file written through the API creates or moves (GitHub's push event). */
export type PushListener = (repo: Repo, branch: string, sha: string) => void

/** The store's git operations (../store.ts composes the services). */
export class Git {
  constructor(
    private readonly core: StoreCore,
    private readonly onPush: PushListener = () => {},
  ) {}

  writeCommit(
    repo: Repo,
    parents: string[],
    tree: Tree,
    message: string,
    author: string,
    identities: GitIdentities = {},
  ): string {
    const fields: Omit<Commit, 'sha'> = {
      message,
      parents,
      tree,
      author,
      date: identities.date === undefined ? this.core.stamp() : timestamp(Date.parse(identities.date)),
      seq: this.core.nextId(),
      ...(identities.author ? {author_git: identities.author} : {}),
      ...(identities.committer ? {committer_git: identities.committer} : {}),
    }
    // Git's own id: the same commit made twice in one second is one object, as in git.
    const sha = objectSha('commit', Buffer.from(commitObject(fields), 'utf8'))
    repo.commits[sha] ??= {sha, ...fields}
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
    checkRefName(`refs/heads/${name}`)
    if (repo.branches[name]) throw refused('Reference already exists')
    this.commit(repo, sha)
    repo.branches[name] = sha
    this.onPush(repo, name, sha)
  }

  updateBranch(repo: Repo, name: string, sha: string, force: boolean): void {
    const current = this.branchSha(repo, name)
    this.commit(repo, sha)
    const fastForward = this.isAncestor(repo, current, sha)
    if (!force && !fastForward) throw refused('Update is not a fast forward')
    this.moveHead(repo, name, sha)
    if (fastForward) return
    // A force push shows on the open pull requests whose head or base the branch is.
    for (const pull of Object.values(repo.pulls).filter((p) => repo.issues[p.number]!.state === 'open')) {
      if (pull.head === name)
        this.core.record(repo, pull.number, 'head_ref_force_pushed', {ref: {before: current, after: sha}})
      if (pull.base === name)
        this.core.record(repo, pull.number, 'base_ref_force_pushed', {ref: {before: current, after: sha}})
    }
  }

  deleteBranch(repo: Repo, name: string): void {
    if (!repo.branches[name]) throw refused('Reference does not exist')
    for (const pull of Object.values(repo.pulls)) {
      if (pull.head === name && !pull.head_sha_frozen) pull.head_sha_frozen = repo.branches[name]!
      if (pull.head === name) this.core.record(repo, pull.number, 'head_ref_deleted', {ref: {from: name}})
      else if (pull.base === name && repo.issues[pull.number]!.state === 'open')
        this.core.record(repo, pull.number, 'base_ref_deleted', {ref: {from: name}})
    }
    delete repo.branches[name]
  }

  /** Writes files (null deletes) on top of a branch as one commit. */
  commitFiles(
    repo: Repo,
    branch: string,
    changes: Record<string, string | null>,
    message: string,
    author: string,
    identities: GitIdentities = {},
  ): string {
    // The first commit of an empty repository starts its default branch.
    const empty = Object.keys(repo.branches).length === 0 && branch === repo.default_branch
    const parent = empty ? undefined : this.branchSha(repo, branch)
    const tree: Tree = parent ? {...this.commit(repo, parent).tree} : {}
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) delete tree[path]
      else tree[path] = content
    }
    const sha = this.writeCommit(repo, parent ? [parent] : [], tree, message, author, identities)
    this.moveHead(repo, branch, sha)
    return sha
  }

  /**
   * Moves a branch, as a REST ref update, a file written through the API and a push all do: the open
   * pull requests whose head it is are synchronized (GitHub's `synchronize`: their head, files and
   * commits follow the branch, and they count as updated), and the push starts the workflows it triggers.
   */
  private moveHead(repo: Repo, name: string, sha: string): void {
    repo.branches[name] = sha
    for (const pull of Object.values(repo.pulls))
      if (pull.head === name && repo.issues[pull.number]!.state === 'open')
        repo.issues[pull.number]!.updated_at = this.core.stamp()
    this.onPush(repo, name, sha)
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
    for (const tree of Object.values(repo.git_trees ?? {}))
      for (const content of Object.values(tree)) if (blobSha(content) === sha) return content
    throw notFound()
  }

  /**
   * A tree by id: a directory of any commit or of a tree made with POST git/trees; a commit id, a
   * branch or a tag name stands for its commit's root tree (GitHub peels them).
   */
  tree(repo: Repo, shaOrRef: string): {tree: Tree; dir: string} {
    const commitSha =
      repo.branches[shaOrRef] ?? this.tagRefs(repo)[shaOrRef] ?? (repo.commits[shaOrRef] ? shaOrRef : undefined)
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
  createTree(
    repo: Repo,
    entries: Array<{path: string; type?: string; sha?: string | null; content?: string}>,
    baseTree?: string,
  ): string {
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
      const problem = treePathProblem(path)
      if (problem) throw refused(`tree.path ${problem}`)
      if (entry.type === 'commit') throw notModelled('submodules (tree entries of type commit)')
      if (entry.sha === null) {
        for (const existing of Object.keys(tree))
          if (existing === path || existing.startsWith(`${path}/`)) delete tree[existing]
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
        for (const [relative, content] of Object.entries(subtree(graft.tree, graft.dir)))
          tree[`${path}/${relative}`] = content
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
  createCommit(
    repo: Repo,
    by: string,
    fields: {message: string; tree: string; parents: string[]} & GitIdentities,
  ): Commit {
    let root: {tree: Tree; dir: string}
    try {
      root = this.tree(repo, fields.tree)
    } catch {
      throw refused('Tree SHA does not exist')
    }
    for (const parent of fields.parents)
      if (!repo.commits[parent]) throw refused('Parent SHA does not exist or is not a commit object')
    const sha = this.writeCommit(repo, fields.parents, subtree(root.tree, root.dir), fields.message, by, {
      author: fields.author,
      committer: fields.committer,
      date: fields.date,
    })
    return repo.commits[sha]!
  }

  /** Tags by name: lightweight tags made through the API, and published releases' tags. */
  tagRefs(repo: Repo): Record<string, string> {
    const fromReleases = Object.values(repo.releases)
      .filter((r) => r.tag_sha)
      .map((r) => [r.tag_name, r.tag_sha!] as const)
    return {...Object.fromEntries(fromReleases), ...repo.tags}
  }

  createTag(repo: Repo, name: string, sha: string): void {
    checkRefName(`refs/tags/${name}`)
    if (this.tagRefs(repo)[name] !== undefined) throw refused('Reference already exists')
    this.commit(repo, sha)
    repo.tags ??= {}
    repo.tags[name] = sha
  }

  /** Moves a tag (which must exist) to another commit. */
  moveTag(repo: Repo, name: string, sha: string): void {
    if (this.tagRefs(repo)[name] === undefined) throw unprocessable('Reference does not exist', 'ref', 'Reference')
    this.commit(repo, sha)
    repo.tags = {...repo.tags, [name]: sha}
  }

  deleteTag(repo: Repo, name: string): void {
    if (repo.tags?.[name] === undefined) throw refused('Reference does not exist')
    delete repo.tags[name]
  }

  ancestors(repo: Repo, sha: string): string[] {
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
}
