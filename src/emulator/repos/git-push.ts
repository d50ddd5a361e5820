/**
 * A push taken into the store: the pre-receive hook of a bare repository (git-mirror.ts) hands the
 * sandbox the ref updates while git holds the pushed objects in quarantine; the new commits are read
 * with `git cat-file --batch` (their trees walked, their blobs decoded), checked against what the
 * store can keep, and the refs moved through the store's own operations (the ones the REST ref API
 * uses), so pull requests follow their head branch. A refusal is a message git shows the pusher.
 *
 * GitHub's limits come first (GH001): a file over 100 MB refuses the push, one over 50 MB is taken with
 * a warning; only their sizes are read (`git cat-file --batch-check`), never a large file's contents.
 * The store keeps flat path -> UTF-8 text trees, so a push is refused when it holds what that cannot
 * keep faithfully (ids would change): a binary file, an executable, a symbolic link, a submodule, an
 * annotated tag, a commit whose text is not UTF-8.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {SandboxError} from '../core/errors.js'
import {isValidRefName} from '../core/git-names.js'
import type {Tree} from '../core/state.js'
import {treeSha} from '../core/git-objects.js'
import type {Commit, Repo} from '../core/state.js'
import {timestamp} from '../core/store-core.js'
import type {Store} from '../store.js'

const ZERO = '0'.repeat(40)

/** One line of the pre-receive hook's input: `<old> <new> <ref>`. */
export interface RefUpdate {
  old: string
  new: string
  ref: string
}

export function parseRefUpdates(input: string): RefUpdate[] {
  return input
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [old, next, ref] = line.trim().split(' ') as [string, string, string]
      return {old, new: next, ref}
    })
}

/**
 * GitHub's limits on a push (docs.github.com, "About large files on GitHub"). Internal options can
 * lower them (tests); the defaults are GitHub's.
 */
export interface PushLimits {
  /** A file larger than this many bytes is refused, and the push with it (GH001). */
  fileSize: number
  /** A file larger than this many bytes is taken with a warning. */
  fileSizeWarning: number
  /**
   * The longest a git request (a push, a clone, a fetch) may take, in ms: then its git processes are
   * ended and its answer cut. A repository serves one request at a time, so a client that stalls
   * mid-push would otherwise hold every other request to it (and a stop of the sandbox) for good.
   */
  requestTime: number
}

const MIB = 1024 * 1024

export const GITHUB_PUSH_LIMITS: PushLimits = {
  fileSize: 100 * MIB,
  fileSizeWarning: 50 * MIB,
  // Far above any push a run makes (a 100 MB file takes seconds on loopback).
  requestTime: 5 * 60_000,
}

const LFS_HINT = 'GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.'

/** Why a push is refused (shown to the pusher as `remote: …`). */
class Refusal extends Error {}

interface GitObject {
  type: string
  size: number
  /** Empty for `--batch-check`, which tells the type and size only. */
  body: Buffer
}

/**
 * `git cat-file --batch` (contents) or `--batch-check` (type and size) over the repository with the
 * push's quarantined objects: one object a request, answered in order. An object's body is gathered
 * from the pipe's chunks and joined once, so reading a large one costs its size, not its square.
 */
class CatFile {
  private readonly child: ChildProcessWithoutNullStreams
  private header = ''
  private body: {type: string; size: number; parts: Buffer[]; received: number} | undefined
  private ended: Error | undefined
  private readonly waiting: Array<{resolve: (object: GitObject) => void; reject: (e: Error) => void}> = []

  constructor(
    gitDir: string,
    env: Record<string, string>,
    private readonly contents: boolean,
    signal: AbortSignal,
  ) {
    this.child = spawn('git', ['cat-file', contents ? '--batch' : '--batch-check'], {
      env: {...env, GIT_DIR: gitDir},
      signal,
    })
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk))
    this.child.stdin.on('error', () => {})
    this.child.on('error', (error) => this.fail(error))
    this.child.on('close', () => this.fail(new Error('git cat-file ended')))
  }

  read(sha: string): Promise<GitObject> {
    if (this.ended) return Promise.reject(this.ended)
    return new Promise((resolve, reject) => {
      this.waiting.push({resolve, reject})
      this.child.stdin.write(`${sha}\n`)
    })
  }

  close(): void {
    this.child.stdin.end()
  }

  private take(chunk: Buffer): void {
    let at = 0
    while (at < chunk.length) {
      if (this.body) {
        // The body, then the newline that ends it.
        const part = chunk.subarray(at, at + this.body.size + 1 - this.body.received)
        this.body.parts.push(part)
        this.body.received += part.length
        at += part.length
        if (this.body.received <= this.body.size) continue
        const {type, size, parts} = this.body
        this.body = undefined
        this.waiting.shift()?.resolve({type, size, body: Buffer.concat(parts, size + 1).subarray(0, size)})
        continue
      }
      const newline = chunk.indexOf(10, at)
      this.header += chunk.toString('latin1', at, newline < 0 ? chunk.length : newline)
      if (newline < 0) return
      at = newline + 1
      const [sha, type = '', size = '0'] = this.header.split(' ')
      this.header = ''
      if (type === 'missing') this.waiting.shift()?.reject(new Refusal(`object ${sha} is missing`))
      else if (this.contents) this.body = {type, size: Number(size), parts: [], received: 0}
      else this.waiting.shift()?.resolve({type, size: Number(size), body: Buffer.alloc(0)})
    }
  }

  private fail(error: Error): void {
    this.ended ??= error
    for (const waiter of this.waiting.splice(0)) waiter.reject(error)
  }
}

/** The push's objects: their sizes (never a large file's contents), and the contents of what the store keeps. */
interface PushObjects {
  sizes: CatFile
  contents: CatFile
}

/** A file of a tree, by its path from the tree's root. */
interface Listed {
  path: string
  mode: string
  sha: string
}

const IDENTITY = /^(.*) <(.*)> (\d+) [+-]\d{4}$/

/** The commit's fields from its object's text (its id and text kept as git wrote them). */
function parseCommit(sha: string, text: string): Omit<Commit, 'tree' | 'author' | 'seq'> & {treeSha: string} {
  const split = text.indexOf('\n\n')
  const headers = (split < 0 ? text : text.slice(0, split)).split('\n')
  const message = split < 0 ? '' : text.slice(split + 2).replace(/\n$/, '')
  const field = (name: string) =>
    headers.filter((line) => line.startsWith(`${name} `)).map((l) => l.slice(name.length + 1))
  const person = (name: string) => {
    const match = IDENTITY.exec(field(name)[0] ?? '')
    if (!match) throw new Refusal(`commit ${sha} has no valid ${name}`)
    return {identity: {name: match[1]!, email: match[2]!}, epoch: Number(match[3])}
  }
  const author = person('author')
  const committer = person('committer')
  return {
    sha,
    message,
    parents: field('parent'),
    treeSha: field('tree')[0] ?? '',
    date: timestamp(committer.epoch * 1000),
    author_git: author.identity,
    committer_git: committer.identity,
    git_object: text,
  }
}

/** The sandbox user a commit belongs to: the one whose no-reply address is its author's email, else the pusher. */
function attributedLogin(store: Store, email: string, pusher: string): string {
  const match = /^(?:\d+\+)?([^@]+)@users\.noreply\.github\.localhost$/i.exec(email)
  return match && store.state.users[match[1]!] ? match[1]! : pusher
}

/** A size as GitHub prints it in GH001's lines. */
const megabytes = (bytes: number) => `${(bytes / MIB).toFixed(2)} MB`

/**
 * GitHub's check of a push's files (GH001): the lines of its warnings (files over the recommended
 * size), or a refusal when a file is over the limit. Only sizes are read: a large file is never loaded.
 */
async function checkFileSizes(objects: PushObjects, files: Listed[], limits: PushLimits): Promise<string[]> {
  // A submodule's entry names a commit of another repository: it has no size here.
  const blobs = files.filter((file) => file.mode !== '160000')
  // Asked all at once: git answers in order, without a round trip per file.
  const unique = [...new Set(blobs.map((file) => file.sha))]
  const sizes = new Map(
    await Promise.all(unique.map(async (sha) => [sha, (await objects.sizes.read(sha)).size] as const)),
  )
  const warned = new Map<string, number>()
  const refused = new Map<string, number>()
  for (const file of blobs) {
    const size = sizes.get(file.sha)!
    if (size > limits.fileSize) refused.set(file.path, size)
    else if (size > limits.fileSizeWarning) warned.set(file.path, size)
  }
  const warnings = [...warned].map(
    ([path, size]) =>
      `warning: File ${path} is ${megabytes(size)}; this is larger than GitHub's recommended maximum file size of ${megabytes(limits.fileSizeWarning)}`,
  )
  if (warnings.length > 0) warnings.push(`warning: ${LFS_HINT}`)
  if (refused.size > 0)
    throw new Refusal(
      [
        ...warnings,
        ...[...refused].map(
          ([path, size]) =>
            `error: File ${path} is ${megabytes(size)}; this exceeds GitHub's file size limit of ${megabytes(limits.fileSize)}`,
        ),
        `error: ${LFS_HINT}`,
      ].join('\n'),
    )
  return warnings
}

/**
 * Reads the commits a push adds (parents first) with their trees as the store keeps them, after
 * GitHub's check of their files' sizes; returns them with that check's warnings.
 */
async function readNewCommits(
  store: Store,
  repo: Repo,
  pusher: string,
  objects: PushObjects,
  tips: string[],
  limits: PushLimits,
): Promise<{commits: Commit[]; warnings: string[]}> {
  const listings = new Map<string, Listed[]>()
  /** A tree's files (not its directories), by their paths from it. */
  const listTree = async (sha: string): Promise<Listed[]> => {
    const cached = listings.get(sha)
    if (cached) return cached
    const {body} = await objects.contents.read(sha)
    const files: Listed[] = []
    for (let at = 0; at < body.length;) {
      const space = body.indexOf(32, at)
      const nul = body.indexOf(0, space)
      const mode = body.subarray(at, space).toString('utf8')
      const name = body.subarray(space + 1, nul).toString('utf8')
      const id = body.subarray(nul + 1, nul + 21).toString('hex')
      at = nul + 21
      if (mode === '40000') for (const file of await listTree(id)) files.push({...file, path: `${name}/${file.path}`})
      else files.push({path: name, mode, sha: id})
    }
    listings.set(sha, files)
    return files
  }

  const walked: Array<{fields: Omit<Commit, 'tree' | 'author' | 'seq'>; rootSha: string; files: Listed[]}> = []
  const seen = new Set<string>()
  const visit = async (sha: string): Promise<void> => {
    if (seen.has(sha) || repo.commits[sha]) return
    seen.add(sha)
    const object = await objects.contents.read(sha)
    if (object.type === 'tag') throw new Refusal('annotated tags are not modelled: push a lightweight tag')
    if (object.type !== 'commit') throw new Refusal(`${sha} is a ${object.type}, not a commit`)
    const text = object.body.toString('utf8')
    if (!Buffer.from(text, 'utf8').equals(object.body)) throw new Refusal(`commit ${sha} is not UTF-8 text`)
    const {treeSha: rootSha, ...fields} = parseCommit(sha, text)
    for (const parent of fields.parents) await visit(parent)
    walked.push({fields, rootSha, files: await listTree(rootSha)})
  }
  for (const tip of tips) await visit(tip)
  const warnings = await checkFileSizes(
    objects,
    walked.flatMap((commit) => commit.files),
    limits,
  )

  const texts = new Map<string, string>()
  const commits: Commit[] = []
  for (const {fields, rootSha, files} of walked) {
    const tree: Tree = {}
    for (const file of files) {
      if (file.mode !== '100644') {
        const kind =
          {'100755': 'an executable', '120000': 'a symbolic link', '160000': 'a submodule'}[file.mode] ??
          `mode ${file.mode}`
        throw new Refusal(`${file.path} is ${kind}: the sandbox keeps plain files only`)
      }
      let text = texts.get(file.sha)
      if (text === undefined) {
        const {body} = await objects.contents.read(file.sha)
        try {
          text = new TextDecoder('utf-8', {fatal: true}).decode(body)
        } catch {
          throw new Refusal(`${file.path} is a binary file: the sandbox keeps text (UTF-8) files only`)
        }
        texts.set(file.sha, text)
      }
      tree[file.path] = text
    }
    if (treeSha(tree) !== rootSha) throw new Refusal(`the tree of commit ${fields.sha} cannot be kept by the sandbox`)
    commits.push({...fields, tree, author: attributedLogin(store, fields.author_git!.email, pusher)})
  }
  return {commits, warnings}
}

/** The ref's value in the store now (ZERO when it does not exist). */
function storeValue(store: Store, repo: Repo, kind: 'heads' | 'tags', name: string): string {
  return (kind === 'heads' ? repo.branches[name] : store.git.tagRefs(repo)[name]) ?? ZERO
}

/** Checks every update before anything changes, so a refused push changes nothing. */
function checkUpdates(
  store: Store,
  repo: Repo,
  updates: RefUpdate[],
): Array<RefUpdate & {kind: 'heads' | 'tags'; name: string}> {
  return updates.map((update) => {
    const match = /^refs\/(heads|tags)\/(.+)$/.exec(update.ref)
    if (!match) throw new Refusal(`${update.ref}: only branches and tags can be pushed`)
    // receive-pack checks names only after this hook has taken the push: the store must keep none git refuses.
    if (!isValidRefName(update.ref)) throw new Refusal(`${update.ref}: Reference name invalid`)
    const kind = match[1] as 'heads' | 'tags'
    const name = match[2]!
    if (storeValue(store, repo, kind, name) !== update.old)
      throw new Refusal(`${update.ref} changed on the sandbox since it was fetched: fetch first`)
    if (update.new === ZERO && kind === 'heads' && name === repo.default_branch)
      throw new Refusal(`refusing to delete the current branch: ${update.ref}`)
    if (update.new === ZERO && kind === 'tags' && repo.tags?.[name] === undefined)
      throw new Refusal(`${update.ref} is a published release's tag: delete the release instead`)
    return {...update, kind, name}
  })
}

/** A push the pre-receive hook hands over: where, by whom, the ref updates, and when to give up (the request ended). */
export interface IncomingPush {
  repo: Repo
  pusher: string
  gitDir: string
  /** The hook's git environment (the quarantined objects' folders). */
  env: Record<string, string>
  updates: RefUpdate[]
  limits: PushLimits
  signal: AbortSignal
}

/** The answer the pusher sees: whether the push was taken, and what to tell them (`remote: …` lines; may be empty). */
export interface PushAnswer {
  taken: boolean
  message: string
}

/** Takes a push into the store, or refuses it. */
export async function receivePush(store: Store, push: IncomingPush): Promise<PushAnswer> {
  const {repo, updates, signal} = push
  const objects: PushObjects = {
    sizes: new CatFile(push.gitDir, push.env, false, signal),
    contents: new CatFile(push.gitDir, push.env, true, signal),
  }
  try {
    checkUpdates(store, repo, updates)
    const {commits, warnings} = await readNewCommits(
      store,
      repo,
      push.pusher,
      objects,
      updates.filter((u) => u.new !== ZERO).map((u) => u.new),
      push.limits,
    )
    if (signal.aborted) throw new Refusal('the push ended before it was taken')
    // Checked again with the commits read: the store may have moved meanwhile. From here on, nothing awaits.
    const checked = checkUpdates(store, repo, updates)
    for (const commit of commits) repo.commits[commit.sha] ??= {...commit, seq: store.nextId()}
    store.as(push.pusher, () => {
      for (const update of checked) {
        if (update.kind === 'heads') {
          if (update.new === ZERO) store.git.deleteBranch(repo, update.name)
          else if (update.old === ZERO) store.git.createBranch(repo, update.name, update.new)
          else store.git.updateBranch(repo, update.name, update.new, true)
        } else if (update.new === ZERO) store.git.deleteTag(repo, update.name)
        else if (update.old === ZERO) store.git.createTag(repo, update.name, update.new)
        else store.git.moveTag(repo, update.name, update.new)
      }
    })
    return {taken: true, message: warnings.join('\n')}
  } catch (error) {
    if (error instanceof Refusal || error instanceof SandboxError) return {taken: false, message: error.message}
    throw error
  } finally {
    objects.sizes.close()
    objects.contents.close()
  }
}
