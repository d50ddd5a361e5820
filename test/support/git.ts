// Commands run as an agent runs them against a sandbox: asynchronously (the sandbox serves from the
// test's own process) in the sandbox's environment (ghEnv: gh, and git through its config variables).
import {execFile} from 'node:child_process'
import path from 'node:path'
import {expect} from 'chai'
import type {Sandbox} from '../../src/emulator/index.js'

export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}

/** A runner of commands in the sandbox's environment, HOME (and gh's config) in `home`. */
export function sandboxShell(sandbox: Sandbox, home: string) {
  const run = (cwd: string, file: string, args: string[], env: Record<string, string> = {}): Promise<CommandResult> =>
    new Promise((resolve) => {
      const all = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        GIT_TERMINAL_PROMPT: '0',
        ...sandbox.ghEnv(path.join(home, 'gh')),
        ...env,
      }
      execFile(file, args, {cwd, env: all, timeout: 30_000}, (error, stdout, stderr) =>
        resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
      )
    })
  /** Runs a command that must succeed; its output, trimmed. */
  const ok = async (cwd: string, file: string, ...args: string[]): Promise<string> => {
    const result = await run(cwd, file, args)
    expect(result.code, `${file} ${args.join(' ')}\n${result.stderr}`).to.equal(0)
    return result.stdout.trim()
  }
  return {run, ok}
}
