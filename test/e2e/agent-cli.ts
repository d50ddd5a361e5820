// What the end-to-end tests of a real agent CLI (Claude Code, Codex) share: finding the pinned binary
// that scripts/ensure-<cli>.sh installed (never installing it: tests do not reach a registry), and
// running it to its end with a fresh home, a clean environment and a time limit, its JSON event
// stream read line by line.
import {spawn} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {homedir, tmpdir} from 'node:os'
import path from 'node:path'
import {startScriptedModels, type ScriptedModels} from '../../src/agent/scripted-models.js'
import {PROJECT_ROOT} from '../support/cli.js'

/**
 * The CLI that `scripts/<script>` installs: $<envVariable>, else the script's cache folder for its
 * pinned version (read from the script, so that the test follows the pin), else undefined.
 */
function installedCli(script: string, envVariable: string, folder: string, bin: string): string | undefined {
  const configured = process.env[envVariable]
  if (configured) return existsSync(configured) ? configured : undefined
  const version = /^VERSION=(\S+)$/m.exec(readFileSync(path.join(PROJECT_ROOT, 'scripts', script), 'utf8'))?.[1]
  const cache = process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache')
  const binary = path.join(cache, 'ghx-bench', `${folder}-${version}`, 'node_modules', '.bin', bin)
  return existsSync(binary) ? binary : undefined
}

/**
 * In a describe: the pinned CLI and the scripted models on loopback for its tests, both ended after
 * them; the suite leaves itself out, saying so in one line, when the CLI is not installed.
 */
export function agentCliSuite(name: string, script: string, envVariable: string, folder: string, bin: string): {binary(): string; models(): ScriptedModels} {
  let binary: string | undefined
  let models: ScriptedModels | undefined
  before(async function () {
    binary = installedCli(script, envVariable, folder, bin)
    if (!binary) {
      console.log(`    ${name} not installed: run scripts/${script}`)
      this.skip()
    }
    models = await startScriptedModels()
  })
  after(async () => {
    await models?.close()
    await removeFreshFolders()
  })
  return {binary: () => binary!, models: () => models!}
}

export interface CliRun {
  code: number | null
  events: Array<Record<string, unknown>>
  stderr: string
}

const folders: string[] = []

/** A folder of its own for one run's home, config and working directory (removed by removeFreshFolders). */
export async function freshFolder(name: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), `ghx-bench-${name}-`))
  folders.push(folder)
  return folder
}

export async function removeFreshFolders(): Promise<void> {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, {recursive: true, force: true})))
}

/**
 * Runs the CLI with only the given environment (and PATH): no credential of the caller's reaches it.
 * Its stdout is JSON lines; a line that is not JSON fails the test, as it would fail a provider.
 */
export function runJsonLines(binary: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 90_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {cwd, env: {PATH: process.env.PATH ?? '/usr/bin:/bin', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      try {
        const events = stdout
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as Record<string, unknown>)
        resolve({code, events, stderr})
      } catch (error) {
        reject(new Error(`${path.basename(binary)} printed a line that is not JSON: ${(error as Error).message}\n${stdout.slice(0, 2000)}`))
      }
    })
  })
}
