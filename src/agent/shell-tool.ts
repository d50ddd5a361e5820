/**
 * The shell tool a mode offers: one bash command per call, in the run's working folder, with the
 * mode's environment and nothing else. The command runs in its own process group so that an abort
 * (timeout, stall, Ctrl-C) kills it and everything it started, instead of leaving it running.
 */
import {spawn} from 'node:child_process'
import {access, mkdtemp, symlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {constants} from 'node:fs'
import path from 'node:path'
import type {ModeContext, ModeSession, ToolDefinition, ToolResult} from '../plugins/api.js'

export const SHELL_TOOL: ToolDefinition = {
  name: 'shell',
  description: 'Run one bash command in the working folder and return its combined stdout and stderr (and the exit code when it is not 0).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {command: {type: 'string', description: 'the bash command line'}},
  },
}

/** The tool's answer is cut to this many characters; the model sees that it was cut. */
export const MAX_OUTPUT_CHARS = 64_000

export interface ShellOptions {
  cwd: string
  env: Record<string, string>
}

export function runShellCommand(command: string, options: ShellOptions, signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ok: false, output: 'aborted before it started'})
    const child = spawn('bash', ['-c', command], {cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    let truncated = false
    const collect = (chunk: Buffer) => {
      if (output.length >= MAX_OUTPUT_CHARS) return void (truncated = true)
      output += chunk.toString('utf8')
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    signal.addEventListener('abort', kill, {once: true})
    child.on('error', (error) => {
      signal.removeEventListener('abort', kill)
      resolve({ok: false, output: `could not start bash: ${error.message}`})
    })
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', kill)
      let text = output.length > MAX_OUTPUT_CHARS || truncated ? `${output.slice(0, MAX_OUTPUT_CHARS)}\n[output cut at ${MAX_OUTPUT_CHARS} characters]` : output
      if (signal.aborted) text += '\n[aborted]'
      else if (code !== 0) text += `\n[exit code ${code ?? killedBy}]`
      resolve({ok: code === 0 && !signal.aborted, output: text})
    })
  })
}

/**
 * The session of a shell arm: one `shell` tool running in the run's folder with PATH set to the arm's
 * isolated bin, HOME in the run's folder, the target's gh environment and the arm's own variables.
 */
export function shellSession(context: ModeContext, bin: string, instructions: string, armEnv: Record<string, string> = {}): ModeSession {
  const env: Record<string, string> = {...context.github.env, PATH: bin, HOME: context.workdir, LANG: 'C.UTF-8', GH_PAGER: 'cat', PAGER: 'cat', NO_COLOR: '1', ...armEnv}
  return {
    instructions,
    tools: [SHELL_TOOL],
    env,
    workdir: context.workdir,
    call: async (tool, args, signal) => {
      if (tool !== SHELL_TOOL.name || typeof args.command !== 'string') return {ok: false, output: 'the shell tool takes {"command": "<bash command>"}'}
      return runShellCommand(args.command, {cwd: context.workdir, env}, signal)
    },
    close: async () => {},
  }
}

/** Utilities an agent's shell may use beside the mode's own tool; anything else stays off its PATH. */
export const BASE_UTILITIES = [
  'bash', 'sh', 'env', 'cat', 'echo', 'printf', 'grep', 'egrep', 'sed', 'awk', 'head', 'tail', 'cut', 'tr', 'sort', 'uniq',
  'wc', 'xargs', 'jq', 'ls', 'pwd', 'mkdir', 'rm', 'cp', 'mv', 'touch', 'date', 'sleep', 'tee', 'base64', 'diff', 'find',
  'git', 'test', 'true', 'false', 'basename', 'dirname', 'seq', 'python3',
]

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(() => true, () => false)
}

/** The first executable of that name on a PATH string. */
export async function whichOnPath(name: string, pathValue = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const dir of pathValue.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name)
    if (await isExecutable(file)) return file
  }
  return undefined
}

const bins = new Map<string, Promise<string>>()

/**
 * A bin folder holding links to exactly the named executables (plus the base utilities that exist):
 * the PATH of an isolated arm. Links are read-only and the same for every run of an arm, so one
 * folder per set of tools is made once per process and shared. Returns the folder.
 */
export function isolatedBin(tools: Record<string, string>): Promise<string> {
  const key = JSON.stringify(Object.entries(tools).sort())
  let bin = bins.get(key)
  if (!bin) {
    bin = makeBin(tools)
    bins.set(key, bin)
  }
  return bin
}

async function makeBin(tools: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ghx-bench-bin-'))
  const links: Record<string, string> = {}
  for (const name of BASE_UTILITIES) {
    const found = await whichOnPath(name)
    if (found) links[name] = found
  }
  Object.assign(links, tools)
  await Promise.all(Object.entries(links).map(([name, target]) => symlink(target, path.join(folder, name))))
  return folder
}
