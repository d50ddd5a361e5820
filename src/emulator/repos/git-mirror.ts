/**
 * The sandbox's repositories as bare git repositories on disk, for `git http-backend` to serve, kept in
 * step with the store: before git serves a repository, the store's commits (with their trees and
 * blobs) are written as loose objects and its refs set to the store's branches, tags and pull request
 * heads. The store stays the source of truth; a repository on disk is a copy made on demand.
 *
 * Loose objects are written here rather than through `git fast-import`: the store already computes
 * every object's id (core/git-objects.ts), writing one is a deflate and a rename with no process to
 * start, and only objects not yet written are, so keeping a repository in step costs next to nothing.
 *
 * A copy of the sandbox (a run's own, Sandbox.fork) borrows its base's objects through git's alternates:
 * its repository starts with the base's objects already there, and writes only what the copy adds.
 */
import {execFile} from 'node:child_process'
import {mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {deflate} from 'node:zlib'
import {containedPath, writablePath} from '../../shared/contained-path.js'
import {commitObject, recursiveEntries, treeObject, treeSha} from '../core/git-objects.js'
import {isValidRefName} from '../core/git-names.js'
import type {Repo} from '../core/state.js'
import type {Git} from './git-store.js'

const run = promisify(execFile)
const deflated = promisify(deflate)
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  )

/** The environment git runs in on the sandbox's side: no user or system configuration. */
export function gitEnvironment(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  }
}

/**
 * A bare repository's configuration: pushes served, and checked by git's fsck as GitHub's are (no
 * `..` or `.git` in a tree); no automatic gc (its refs stay loose files, written here).
 */
const BARE_CONFIG = `[http]
\treceivepack = true
[receive]
\tfsckObjects = true
\tautogc = false
\thideRefs = refs/pull
[gc]
\tauto = 0
`

/** The repositories a copy of the sandbox borrows objects from: its base's, and the base's state of each. */
export interface BareReposBase {
  repos: BareRepos
  repo(key: string): Repo | undefined
}

/** The sandbox's bare repositories, in a temporary folder of their own made on first use. */
export class BareRepos {
  private root: Promise<string> | undefined
  /** Object ids already on disk, by repository: objects never change, so each is written once. */
  private readonly written = new Map<string, Set<string>>()
  /** Each repository's latest sync: syncs of one repository run one at a time (copies sync their base's too). */
  private readonly syncing = new Map<string, Promise<unknown>>()

  constructor(
    private readonly git: Git,
    /** The pre-receive hook's script, written into each repository. */
    private readonly preReceive: string,
    private readonly base?: BareReposBase,
  ) {}

  folder(): Promise<string> {
    this.root ??= mkdtemp(path.join(tmpdir(), 'ghx-sandbox-git-'))
    return this.root
  }

  /** The repository's git folder, made if new, with the store's objects and refs. */
  sync(repo: Repo): Promise<string> {
    const key = `${repo.owner}/${repo.name}`
    const turn = (this.syncing.get(key) ?? Promise.resolve()).catch(() => {}).then(() => this.syncNow(repo))
    this.syncing.set(key, turn)
    return turn
  }

  private async syncNow(repo: Repo): Promise<string> {
    const root = await this.folder()
    const key = `${repo.owner}/${repo.name}`
    // The owner and name were checked when the repository was made; a state file from elsewhere was not.
    const gitDir = await writablePath(root, repo.owner, `${repo.name}.git`)
    if (!(await exists(path.join(gitDir, 'HEAD')))) {
      await run('git', ['init', '--bare', '--quiet', gitDir], {env: gitEnvironment(root)})
      await writeFile(path.join(gitDir, 'config'), BARE_CONFIG, {flag: 'a'})
      await writeFile(path.join(gitDir, 'hooks', 'pre-receive'), this.preReceive, {mode: 0o755})
      const baseRepo = this.base?.repo(key)
      if (baseRepo) {
        // The base's objects, in step with its state, are this repository's too: only what the copy adds is written.
        const baseDir = await this.base!.repos.sync(baseRepo)
        await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), `${path.join(baseDir, 'objects')}\n`)
        this.written.set(key, new Set(this.base!.repos.written.get(key)))
      }
    }
    await this.writeObjects(repo, gitDir)
    await this.writeRefs(repo, gitDir)
    return gitDir
  }

  async remove(): Promise<void> {
    const root = this.root
    this.root = undefined
    this.written.clear()
    this.syncing.clear()
    if (root) await rm(await root, {recursive: true, force: true, maxRetries: 3})
  }

  /** The store's objects not yet on disk, compressed off the event loop (a file may be tens of MB). */
  private async writeObjects(repo: Repo, gitDir: string): Promise<void> {
    const key = `${repo.owner}/${repo.name}`
    let written = this.written.get(key)
    if (!written) this.written.set(key, (written = new Set()))
    const write = async (type: 'blob' | 'tree' | 'commit', sha: string, body: () => Buffer) => {
      if (written.has(sha)) return
      const file = await writablePath(gitDir, 'objects', sha.slice(0, 2), sha.slice(2))
      if (!(await exists(file))) {
        const data = body()
        await mkdir(path.dirname(file), {recursive: true})
        // Write then rename: git never sees half an object.
        await writeFile(`${file}.tmp`, await deflated(Buffer.concat([Buffer.from(`${type} ${data.length}\0`), data])))
        await rename(`${file}.tmp`, file)
      }
      written.add(sha)
    }
    for (const commit of Object.values(repo.commits)) {
      if (written.has(commit.sha)) continue
      const tree = commit.tree
      for (const entry of recursiveEntries(tree, ''))
        await write(entry.type, entry.sha, () =>
          entry.type === 'tree' ? treeObject(tree, entry.path) : Buffer.from(tree[entry.path]!, 'utf8'),
        )
      await write('tree', treeSha(tree), () => treeObject(tree))
      await write('commit', commit.sha, () => Buffer.from(commitObject(commit), 'utf8'))
    }
  }

  /**
   * Branches, tags and pull requests' heads (refs/pull/N/head, as GitHub serves them) as the store has
   * them, each a file named after its ref: a name git would not take (from a state file) is left out.
   */
  private async writeRefs(repo: Repo, gitDir: string): Promise<void> {
    const wanted = new Map<string, string>()
    const want = (ref: string, sha: string) => {
      if (isValidRefName(ref)) wanted.set(ref, sha)
    }
    for (const [name, sha] of Object.entries(repo.branches)) want(`refs/heads/${name}`, sha)
    for (const [name, sha] of Object.entries(this.git.tagRefs(repo))) want(`refs/tags/${name}`, sha)
    for (const pull of Object.values(repo.pulls)) {
      const head = pull.head_sha_frozen ?? repo.branches[pull.head]
      if (head) want(`refs/pull/${pull.number}/head`, head)
    }
    const refsDir = path.join(gitDir, 'refs')
    for (const file of await readdir(refsDir, {recursive: true, withFileTypes: true})) {
      if (!file.isFile()) continue
      const full = path.join(file.parentPath, file.name)
      const ref = path.relative(gitDir, full).split(path.sep).join('/')
      if (!wanted.has(ref)) await rm(full)
    }
    for (const [ref, sha] of wanted) {
      const current = await readFile(containedPath(gitDir, ...ref.split('/')), 'utf8').catch(() => '')
      if (current.trim() === sha) continue
      const file = await writablePath(gitDir, ...ref.split('/'))
      await mkdir(path.dirname(file), {recursive: true})
      // `.lock`, as git's own: no ref is named so, so writing one ref never overwrites another (`x` and `x.tmp`).
      await writeFile(`${file}.lock`, `${sha}\n`)
      await rename(`${file}.lock`, file)
    }
    if (isValidRefName(`refs/heads/${repo.default_branch}`))
      await writeFile(path.join(gitDir, 'HEAD'), `ref: refs/heads/${repo.default_branch}\n`)
  }
}
