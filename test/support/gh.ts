/**
 * Debian's gh (/usr/bin/gh) against a sandbox, as the agent_direct arm runs it. Where it is not
 * installed the tests that drive it leave themselves out, each saying so in one line.
 */
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {Sandbox} from '../../src/emulator/index.js'

export const GH_PATH = '/usr/bin/gh'

export interface GhResult {
  code: number
  stdout: string
  stderr: string
}

/** Skips the test when gh is not installed, printing one line that says so. */
export function skipWithoutGh(context: Mocha.Context): void {
  if (existsSync(GH_PATH)) return
  console.log(`    skipped: ${context.test?.fullTitle() ?? ''}: needs gh at ${GH_PATH}`)
  context.skip()
}

/** A gh runner against the sandbox, with a configuration folder of its own; asynchronous, as the sandbox serves from this process. */
export async function ghFor(sandbox: Sandbox): Promise<(args: string[], token?: string) => Promise<GhResult>> {
  const configDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-'))
  return (args, token) =>
    new Promise((resolve) => {
      const child = execFile(
        GH_PATH,
        args,
        // A configuration per token: gh's login for the sandbox host is written there.
        {env: {...process.env, ...sandbox.ghEnv(path.join(configDir, token ?? 'agent'), token)}, timeout: 20_000},
        (error, stdout, stderr) => resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
      )
      child.stdin!.end()
    })
}
