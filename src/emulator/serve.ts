/** `ghx-bench sandbox serve`: the sandbox as a standalone server, its state loaded from and saved to a file. */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'
import {startSandbox, type Sandbox} from './server.js'
import type {SandboxState} from './core/state.js'

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
  const statePath = options.statePath ? path.resolve(options.cwd ?? process.cwd(), options.statePath) : undefined
  const state = statePath ? await readState(statePath) : undefined
  const sandbox = await startSandbox({port: options.port, repos: options.repos, state})
  return {
    sandbox,
    statePath,
    loaded: state !== undefined,
    async stop() {
      // Write then rename: a crash while saving leaves the previous state, never half of one.
      if (statePath && !options.readOnly) await writeFileAtomic(statePath, JSON.stringify(sandbox.store.state) + '\n')
      await sandbox.close()
    },
  }
}

async function readState(file: string): Promise<SandboxState | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return undefined
  }
  let state: SandboxState
  try {
    state = JSON.parse(text) as SandboxState
  } catch (error) {
    throw new BadInputError([{file, code: 'io', message: `not a sandbox state file: ${(error as Error).message}`}])
  }
  if (state?.version !== 1 || typeof state.repos !== 'object') throw new BadInputError([{file, code: 'io', message: 'not a sandbox state file (version 1)'}])
  return state
}

/** The lines a person pastes to point gh at the sandbox. */
export function ghExports(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `export ${key}=${value}`)
    .join('\n')
}
