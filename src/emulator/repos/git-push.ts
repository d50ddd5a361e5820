/**
 * A push taken into the store: the pre-receive hook of a bare repository (git-mirror.ts) hands the
 * sandbox the ref updates while git holds the pushed objects in quarantine; the new commits are read
 * with `git cat-file --batch` (their trees walked, their blobs decoded), checked against what the
 * store can keep, and the refs moved through the store's own operations (the ones the REST ref API
 * uses), so pull requests follow their head branch. A refusal is a message git shows the pusher.
 *
 * The store keeps flat path -> UTF-8 text trees, so a push is refused when it holds what that cannot
 * keep faithfully (ids would change): a binary file, an executable, a symbolic link, a submodule, an
 * annotated tag, a commit whose text is not UTF-8.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {SandboxError} from '../core/errors.js'
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

/** Why a push is refused (shown to the pusher as `remote: …`). */
class Refusal extends Error {}

/** `git cat-file --batch` over the repository with the push's quarantined objects: one object a request, in order. */
class ObjectReader {
  private readonly child: ChildProcessWithoutNullStreams
  private buffered = Buffer.alloc(0)
  private readonly waiting: Array<{
    resolve: (object: {type: string; body: Buffer}) => void
    reject: (e: Error) => void
  }> = []

  constructor(gitDir: string, env: Record<string, string>) {
    this.child = spawn('git', ['cat-file', '--batch'], {env: {...env, GIT_DIR: gitDir}})
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk])
      this.drain()
    })
    this.child.on('error', (error) => this.fail(error))
    this.child.on('close', () => this.fail(new Error('git cat-file ended')))
  }

  read(sha: string): Promise<{type: string; body: Buffer}> {
    return new Promise((resolve, reject) => {
      this.waiting.push({resolve, reject})
      this.child.stdin.write(`${sha}\n`)
    })
  }

  close(): void {
    this.child.stdin.end()
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const newline = this.buffered.indexOf(10)
      if (newline < 0) return
      const header = this.buffered.subarray(0, newline).toString('utf8').split(' ')
      if (header[1] === 'missing') {
        this.buffered = this.buffered.subarray(newline + 1)
        this.waiting.shift()!.reject(new Refusal(`object ${header[0]} is missing`))
        continue
      }
      const size = Number(header[2])
      if (this.buffered.length < newline + 1 + size + 1) return
      const body = this.buffered.subarray(newline + 1, newline + 1 + size)
      this.buffered = this.buffered.subarray(newline + 1 + size + 1)
      this.waiting.shift()!.resolve({type: header[1]!, body})
    }
  }

  private fail(error: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.reject(error)
  }
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

/** Reads the commits a push adds (parents first) with their trees as the store keeps them. */
async function readNewCommits(
  store: Store,
  repo: Repo,
  pusher: string,
  reader: ObjectReader,
  tips: string[],
): Promise<Commit[]> {
  const trees = new Map<string, Tree>()
  const readTree = async (sha: string, dir: string): Promise<Tree> => {
    const cached = trees.get(sha)
    if (cached) return cached
    const {body} = await reader.read(sha)
    const tree: Tree = {}
    for (let at = 0; at < body.length;) {
      const space = body.indexOf(32, at)
      const nul = body.indexOf(0, space)
      const mode = body.subarray(at, space).toString('utf8')
      const name = body.subarray(space + 1, nul).toString('utf8')
      const id = body.subarray(nul + 1, nul + 21).toString('hex')
      at = nul + 21
      const where = dir === '' ? name : `${dir}/${name}`
      if (mode === '40000') {
        for (const [relative, content] of Object.entries(await readTree(id, where)))
          tree[`${name}/${relative}`] = content
      } else if (mode === '100644') {
        const blob = (await reader.read(id)).body
        try {
          tree[name] = new TextDecoder('utf-8', {fatal: true}).decode(blob)
        } catch {
          throw new Refusal(`${where} is a binary file: the sandbox keeps text (UTF-8) files only`)
        }
      } else {
        const kind =
          {'100755': 'an executable', '120000': 'a symbolic link', '160000': 'a submodule'}[mode] ?? `mode ${mode}`
        throw new Refusal(`${where} is ${kind}: the sandbox keeps plain files only`)
      }
    }
    trees.set(sha, tree)
    return tree
  }

  const order: Commit[] = []
  const seen = new Set<string>()
  const visit = async (sha: string): Promise<void> => {
    if (seen.has(sha) || repo.commits[sha]) return
    seen.add(sha)
    const object = await reader.read(sha)
    if (object.type === 'tag') throw new Refusal('annotated tags are not modelled: push a lightweight tag')
    if (object.type !== 'commit') throw new Refusal(`${sha} is a ${object.type}, not a commit`)
    const text = object.body.toString('utf8')
    if (!Buffer.from(text, 'utf8').equals(object.body)) throw new Refusal(`commit ${sha} is not UTF-8 text`)
    const {treeSha: rootSha, ...fields} = parseCommit(sha, text)
    for (const parent of fields.parents) await visit(parent)
    const tree = await readTree(rootSha, '')
    if (treeSha(tree) !== rootSha) throw new Refusal(`the tree of commit ${sha} cannot be kept by the sandbox`)
    order.push({...fields, tree, author: attributedLogin(store, fields.author_git!.email, pusher)})
  }
  for (const tip of tips) await visit(tip)
  return order
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

/**
 * Takes a push into the store, or refuses it: `undefined` when taken, else the reason. `env` is the
 * hook's git environment (the quarantined objects' folders).
 */
export async function receivePush(
  store: Store,
  repo: Repo,
  pusher: string,
  gitDir: string,
  env: Record<string, string>,
  updates: RefUpdate[],
): Promise<string | undefined> {
  const reader = new ObjectReader(gitDir, env)
  try {
    checkUpdates(store, repo, updates)
    const commits = await readNewCommits(
      store,
      repo,
      pusher,
      reader,
      updates.filter((u) => u.new !== ZERO).map((u) => u.new),
    )
    // Checked again with the commits read: the store may have moved meanwhile. From here on, nothing awaits.
    const checked = checkUpdates(store, repo, updates)
    for (const commit of commits) repo.commits[commit.sha] ??= {...commit, seq: store.nextId()}
    store.as(pusher, () => {
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
    return undefined
  } catch (error) {
    if (error instanceof Refusal || error instanceof SandboxError) return error.message
    throw error
  } finally {
    reader.close()
  }
}
