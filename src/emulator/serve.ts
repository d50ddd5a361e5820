/** `ghx-bench sandbox serve`: the sandbox as a standalone server, its state loaded from and saved to a file. */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {startSandbox, type Sandbox} from './server.js'
import type {Commit, SandboxState} from './core/state.js'
import {commitObject, objectSha} from './core/git-objects.js'
import {isObject} from '../shared/is-object.js'

export interface ServeOptions {
  port?: number
  repos?: string[]
  statePath?: string
  cwd?: string
  /** Load the state file but never write it (a dry run has no side effects). */
  readOnly?: boolean
}

export interface Served {
  sandbox: Sandbox
  statePath?: string
  loaded: boolean
  /** Writes the state file (when there is one) and stops the server. */
  stop(): Promise<void>
}

export async function serveSandbox(options: ServeOptions): Promise<Served> {
  const cwd = options.cwd ?? process.cwd()
  const statePath = options.statePath ? path.resolve(cwd, options.statePath) : undefined
  const shown = statePath && displayPath(statePath, cwd)
  const state = statePath ? await readState(statePath, shown!) : undefined
  let sandbox: Sandbox
  try {
    sandbox = await startSandbox({port: options.port, repos: options.repos, state})
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      const why = code === 'EADDRINUSE' ? 'is in use' : 'may not be opened by this user'
      throw new BadInputError([
        {
          file: '--port',
          code: 'config',
          message: `port ${options.port} on 127.0.0.1 ${why}: free it, pick another --port, or leave --port out for a free one`,
        },
      ])
    }
    // The state's shape was checked; a store that still cannot be built from it was written by something else.
    if (state && !(error instanceof BadInputError))
      throw new BadInputError([
        {
          file: shown!,
          code: 'io',
          message: `not a sandbox state file: ${(error as Error).message} (move it away to start afresh)`,
        },
      ])
    throw error
  }
  return {
    sandbox,
    statePath,
    loaded: state !== undefined,
    async stop() {
      // Closed first: no request (a push in flight included) changes the state once it is saved.
      try {
        await sandbox.close()
      } finally {
        // Write then rename: a crash while saving leaves the previous state, never half of one.
        if (statePath && !options.readOnly) await writeFileAtomic(statePath, JSON.stringify(sandbox.store.state) + '\n')
      }
    },
  }
}

async function readState(file: string, shown: string): Promise<SandboxState | undefined> {
  const bad = (message: string) => new BadInputError([{file: shown, code: 'io', message}])
  const found = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw bad(`cannot read the state file: ${error.message}`)
  })
  // No file yet: a new sandbox, saved there on exit. A folder could be neither read nor saved to.
  if (!found) return undefined
  if (!found.isFile())
    throw bad(
      `${found.isDirectory() ? 'is a folder' : 'not a regular file'}, not a sandbox state file (give --state a file path)`,
    )
  let state: unknown
  try {
    state = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw bad(`not a sandbox state file: ${(error as Error).message}`)
  }
  const problem = stateProblem(state)
  if (problem) throw bad(`not a sandbox state file (version 1): ${problem} (move it away to start afresh)`)
  return state as SandboxState
}

/** What is wrong with a state file's outline (what a store is built from), or undefined. */
function stateProblem(state: unknown): string | undefined {
  if (!isObject(state) || state.version !== 1) return 'no "version": 1'
  if (!Number.isSafeInteger(state.next_id)) return '"next_id" is not an integer'
  for (const key of ['users', 'tokens', 'repos'] as const) if (!isObject(state[key])) return `"${key}" is not an object`
  if (!Array.isArray(state.projects)) return '"projects" is not a list'
  for (const [key, map] of [
    ['users', state.users],
    ['repos', state.repos],
  ] as const) {
    const entry = Object.entries(map as Record<string, unknown>).find(([, value]) => !isObject(value))
    if (entry) return `${key}["${entry[0]}"] is not an object`
  }
  const token = Object.entries(state.tokens as Record<string, unknown>).find(([, login]) => typeof login !== 'string')
  if (token) return 'a token names no user'
  return staleCommit(state.repos as Record<string, {commits?: Record<string, Omit<Commit, 'sha'>>}>)
}

/**
 * A commit whose id is not its git object's: the state was saved by an older ghx-bench (its ids were not
 * git's), and git would serve objects under ids that their content does not hash to (clones fail).
 */
function staleCommit(repos: Record<string, {commits?: Record<string, Omit<Commit, 'sha'>>}>): string | undefined {
  for (const [name, repo] of Object.entries(repos))
    for (const [sha, commit] of Object.entries(repo.commits ?? {}))
      if (objectSha('commit', Buffer.from(commitObject(commit), 'utf8')) !== sha)
        return `commit ${sha} of ${name} is not its git object's id: saved by an older ghx-bench, whose commit ids were not git's`
  return undefined
}

/** The lines a person pastes to point gh (and git) at the sandbox. */
export function ghExports(env: Record<string, string>): string {
  return (
    Object.entries(env)
      // Quoted for the shell where needed (git's credential helper is a shell function).
      .map(
        ([key, value]) =>
          `export ${key}=${/^[\w./:@%+=,-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`}`,
      )
      .join('\n')
  )
}
