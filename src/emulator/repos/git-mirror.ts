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
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {deflateSync} from 'node:zlib'
import {commitObject, recursiveEntries, treeObject, treeSha} from '../core/git-objects.js'
import type {Repo} from '../core/state.js'
import type {Git} from './git-store.js'

const run = promisify(execFile)

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

/** A bare repository's configuration: pushes served, no automatic gc (its refs stay loose files, written here). */
const BARE_CONFIG = `[http]
\treceivepack = true
[receive]
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
    const gitDir = path.join(root, repo.owner, `${repo.name}.git`)
    if (!existsSync(path.join(gitDir, 'HEAD'))) {
      await run('git', ['init', '--bare', '--quiet', gitDir], {env: gitEnvironment(root)})
      writeFileSync(path.join(gitDir, 'config'), BARE_CONFIG, {flag: 'a'})
      writeFileSync(path.join(gitDir, 'hooks', 'pre-receive'), this.preReceive, {mode: 0o755})
      const baseRepo = this.base?.repo(key)
      if (baseRepo) {
        // The base's objects, in step with its state, are this repository's too: only what the copy adds is written.
        const baseDir = await this.base!.repos.sync(baseRepo)
        writeFileSync(path.join(gitDir, 'objects', 'info', 'alternates'), `${path.join(baseDir, 'objects')}\n`)
        this.written.set(key, new Set(this.base!.repos.written.get(key)))
      }
    }
    this.writeObjects(repo, gitDir)
    this.writeRefs(repo, gitDir)
    return gitDir
  }

  async remove(): Promise<void> {
    const root = this.root
    this.root = undefined
    this.written.clear()
    this.syncing.clear()
    if (root) await rm(await root, {recursive: true, force: true, maxRetries: 3})
  }

  private writeObjects(repo: Repo, gitDir: string): void {
    const key = `${repo.owner}/${repo.name}`
    let written = this.written.get(key)
    if (!written) this.written.set(key, (written = new Set()))
    const write = (type: 'blob' | 'tree' | 'commit', sha: string, body: () => Buffer) => {
      if (written.has(sha)) return
      const file = path.join(gitDir, 'objects', sha.slice(0, 2), sha.slice(2))
      if (!existsSync(file)) {
        const data = body()
        mkdirSync(path.dirname(file), {recursive: true})
        // Write then rename: git never sees half an object.
        writeFileSync(`${file}.tmp`, deflateSync(Buffer.concat([Buffer.from(`${type} ${data.length}\0`), data])))
        renameSync(`${file}.tmp`, file)
      }
      written.add(sha)
    }
    for (const commit of Object.values(repo.commits)) {
      if (written.has(commit.sha)) continue
      const tree = commit.tree
      for (const entry of recursiveEntries(tree, ''))
        write(entry.type, entry.sha, () =>
          entry.type === 'tree' ? treeObject(tree, entry.path) : Buffer.from(tree[entry.path]!, 'utf8'),
        )
      write('tree', treeSha(tree), () => treeObject(tree))
      write('commit', commit.sha, () => Buffer.from(commitObject(commit), 'utf8'))
    }
  }

  /** Branches, tags and pull requests' heads (refs/pull/N/head, as GitHub serves them) as the store has them. */
  private writeRefs(repo: Repo, gitDir: string): void {
    const wanted = new Map<string, string>()
    for (const [name, sha] of Object.entries(repo.branches)) wanted.set(`refs/heads/${name}`, sha)
    for (const [name, sha] of Object.entries(this.git.tagRefs(repo))) wanted.set(`refs/tags/${name}`, sha)
    for (const pull of Object.values(repo.pulls)) {
      const head = pull.head_sha_frozen ?? repo.branches[pull.head]
      if (head) wanted.set(`refs/pull/${pull.number}/head`, head)
    }
    const refsDir = path.join(gitDir, 'refs')
    for (const file of readdirSync(refsDir, {recursive: true, withFileTypes: true})) {
      if (!file.isFile()) continue
      const full = path.join(file.parentPath, file.name)
      const ref = path.relative(gitDir, full).split(path.sep).join('/')
      if (!wanted.has(ref)) rmSync(full)
    }
    for (const [ref, sha] of wanted) {
      const file = path.join(gitDir, ref)
      if (existsSync(file) && readFileSync(file, 'utf8').trim() === sha) continue
      mkdirSync(path.dirname(file), {recursive: true})
      writeFileSync(`${file}.tmp`, `${sha}\n`)
      renameSync(`${file}.tmp`, file)
    }
    writeFileSync(path.join(gitDir, 'HEAD'), `ref: refs/heads/${repo.default_branch}\n`)
  }
}
