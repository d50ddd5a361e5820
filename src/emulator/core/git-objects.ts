/**
 * Git's object ids for the sandbox's snapshots: a blob's id is git's (sha1 of "blob <size>\0"
 * content), a tree's is git's over its entries, a commit's is git's over the commit object the store's
 * fields make, so ids agree with what `git hash-object` would say, a bare repository written from the
 * store has the same ids, and the same content always has the same id. Commits keep their flat
 * path -> content trees (git.ts); directories are implied by paths, as in git's index.
 */
import {createHash} from 'node:crypto'
import type {Commit, Tree} from './state.js'

export interface TreeEntry {
  path: string
  mode: '100644' | '040000'
  type: 'blob' | 'tree'
  sha: string
  /** Blobs only. */
  size?: number
}

/** Git's id of an object: sha1 of "<type> <size>\0" and the body. */
export function objectSha(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex')
}

export function blobSha(content: string): string {
  return objectSha('blob', Buffer.from(content, 'utf8'))
}

/** The paths under `dir` ('' for the root), relative to it. */
function under(tree: Tree, dir: string): Array<[string, string]> {
  const prefix = dir === '' ? '' : `${dir}/`
  return Object.entries(tree)
    .filter(([path]) => path.startsWith(prefix))
    .map(([path, content]) => [path.slice(prefix.length), content])
}

/** Whether `dir` is a directory of the tree (the root always is). */
export function isDirectory(tree: Tree, dir: string): boolean {
  return dir === '' || Object.keys(tree).some((path) => path.startsWith(`${dir}/`))
}

/** The direct entries of a directory, in git's order (a directory sorts as its name and a slash). */
export function directoryEntries(tree: Tree, dir: string): TreeEntry[] {
  const join = (name: string) => (dir === '' ? name : `${dir}/${name}`)
  const files: TreeEntry[] = []
  const dirs = new Set<string>()
  for (const [relative, content] of under(tree, dir)) {
    const slash = relative.indexOf('/')
    if (slash < 0)
      files.push({
        path: join(relative),
        mode: '100644',
        type: 'blob',
        sha: blobSha(content),
        size: Buffer.byteLength(content),
      })
    else dirs.add(relative.slice(0, slash))
  }
  const entries = [
    ...files,
    ...[...dirs].map((name): TreeEntry => ({
      path: join(name),
      mode: '040000',
      type: 'tree',
      sha: treeSha(tree, join(name)),
    })),
  ]
  const key = (e: TreeEntry) => (e.type === 'tree' ? `${e.path}/` : e.path)
  return entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** Every entry below a directory, depth first, as `git ls-tree -r -t` lists them. */
export function recursiveEntries(tree: Tree, dir: string): TreeEntry[] {
  return directoryEntries(tree, dir).flatMap((entry) =>
    entry.type === 'tree' ? [entry, ...recursiveEntries(tree, entry.path)] : [entry],
  )
}

/** Ids by tree and directory: a commit's tree never changes once written. */
const treeIds = new WeakMap<Tree, Map<string, string>>()

/** Git's id of a directory of the tree. */
export function treeSha(tree: Tree, dir = ''): string {
  let ids = treeIds.get(tree)
  if (!ids) treeIds.set(tree, (ids = new Map()))
  let id = ids.get(dir)
  if (id === undefined) ids.set(dir, (id = objectSha('tree', treeObject(tree, dir))))
  return id
}

/** The body of a directory's tree object (what `git cat-file tree` prints). */
export function treeObject(tree: Tree, dir = ''): Buffer {
  return Buffer.concat(
    directoryEntries(tree, dir).map((entry) =>
      Buffer.concat([
        Buffer.from(`${entry.type === 'tree' ? '40000' : '100644'} ${entry.path.split('/').pop()}\0`),
        Buffer.from(entry.sha, 'hex'),
      ]),
    ),
  )
}

export interface GitIdentity {
  name: string
  email: string
}

/** A commit's author and committer: as given when it was made, or the login and its no-reply address. */
export function commitPeople(commit: Omit<Commit, 'sha'>): {author: GitIdentity; committer: GitIdentity} {
  const author = commit.author_git ?? {name: commit.author, email: `${commit.author}@users.noreply.github.localhost`}
  return {author, committer: commit.committer_git ?? author}
}

/**
 * The body of a commit's object (what `git cat-file commit` prints): a pushed commit's own text, or
 * the one its fields make (dates in UTC, the message as given).
 */
export function commitObject(commit: Omit<Commit, 'sha'>): string {
  if (commit.git_object !== undefined) return commit.git_object
  const {author, committer} = commitPeople(commit)
  const when = `${Math.floor(Date.parse(commit.date) / 1000)} +0000`
  return [
    `tree ${treeSha(commit.tree)}`,
    ...commit.parents.map((parent) => `parent ${parent}`),
    `author ${author.name} <${author.email}> ${when}`,
    `committer ${committer.name} <${committer.email}> ${when}`,
    '',
    commit.message,
  ].join('\n')
}

/** The sub-tree (re-rooted) of a directory. */
export function subtree(tree: Tree, dir: string): Tree {
  return Object.fromEntries(under(tree, dir))
}
