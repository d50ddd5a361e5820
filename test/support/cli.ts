// Runs the CLI as a user does: a child process, from the TypeScript source through bin/dev.js. For tests
// whose subject is the process (the bin, exit codes through a shell, signals, a terminal); the others run
// it in-process (test/support/cli-in-process.ts).
import {spawn} from 'node:child_process'
import {mkdtemp, mkdir, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DEV_BIN = path.join(PROJECT_ROOT, 'bin', 'dev.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEV_BIN, ...args], {
      cwd: options.cwd ?? PROJECT_ROOT,
      env: {...process.env, NO_COLOR: '1', ...options.env},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
  })
}

/** A temporary project folder with the given files (paths relative to it). */
export async function makeProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-test-'))
  // A package.json stops cosmiconfig's search at this folder.
  await writeFile(path.join(dir, 'package.json'), '{"name": "fixture-project", "private": true, "type": "module"}\n')
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true})
    await writeFile(path.join(dir, file), content)
  }
  return dir
}
