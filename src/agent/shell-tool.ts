/**
 * The shell tool a mode offers: one bash command per call, in the run's working folder, with the
 * mode's environment and nothing else. Nothing the command starts outlives the call: when it ends,
 * and at once when the run's signal aborts it (timeout, stall, Ctrl-C), every process it started is
 * killed, including those that left its process group (tool-processes.ts), and the call never waits
 * for pipes that a stray process keeps open. Calls run in the tool spawner's process (tool-spawner.ts).
 */
import {access, chmod, mkdtemp, readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {constants, mkdirSync} from 'node:fs'
import path from 'node:path'
import type {ModeContext, ModeSession, ToolDefinition, ToolResult} from '../plugins/api.js'
import type {BashCallOptions} from '../shared/process/bash-call.js'
import {runSpawnedBash} from '../shared/process/tool-spawner.js'

export const SHELL_TOOL: ToolDefinition = {
  name: 'shell',
  description:
    'Run one bash command in the working folder and return its combined stdout and stderr (and the exit code when it is not 0).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {command: {type: 'string', description: 'the bash command line'}},
  },
}

/** Whether a mode's session offers the shell tool (agent_direct, ghx), which an agent runtime maps onto its own. */
export const isShellArm = (session: {tools: ReadonlyArray<{name: string}>}): boolean =>
  session.tools.some((tool) => tool.name === SHELL_TOOL.name)

export {MAX_OUTPUT_CHARS} from '../shared/process/bash-call.js'

/** Where and with what environment a command runs (the subreaper is the harness's choice, not the arm's). */
export type ShellOptions = Omit<BashCallOptions, 'subreaper'>

/** One bash command, run by the tool spawner's process (the runner never forks), to its end or the signal's abort. */
export function runShellCommand(command: string, options: ShellOptions, signal: AbortSignal): Promise<ToolResult> {
  return runSpawnedBash(command, options, signal)
}

/**
 * The session of a shell arm: one `shell` tool running in the run's folder with PATH set to the arm's
 * isolated bin, HOME and TMPDIR in the run's folder, the target's gh environment and the arm's own
 * variables. TMPDIR: gh caches what it fetched there (run logs, by run id and start time), and a run must
 * not find another's (on the sandbox every run's world holds the same runs: it would make fewer calls).
 */
export function shellSession(
  context: ModeContext,
  bin: string,
  instructions: string,
  armEnv: Record<string, string> = {},
): ModeSession {
  const temporary = path.join(context.workdir, '.tmp')
  mkdirSync(temporary, {recursive: true})
  const env: Record<string, string> = {
    ...context.github.env,
    PATH: bin,
    HOME: context.workdir,
    TMPDIR: temporary,
    LANG: 'C.UTF-8',
    GH_PAGER: 'cat',
    PAGER: 'cat',
    NO_COLOR: '1',
    ...armEnv,
    [CALL_LOG_VARIABLE]: callLogPath(context.workdir),
  }
  return {
    instructions,
    tools: [SHELL_TOOL],
    env,
    workdir: context.workdir,
    call: async (tool, args, signal) => {
      if (tool !== SHELL_TOOL.name || typeof args.command !== 'string')
        return {ok: false, output: 'the shell tool takes {"command": "<bash command>"}'}
      return runShellCommand(args.command, {cwd: context.workdir, env}, signal)
    },
    close: async () => {},
  }
}

/** Utilities an agent's shell may use beside the mode's own tool; anything else stays off its PATH. */
export const BASE_UTILITIES = [
  'bash',
  'sh',
  'env',
  'cat',
  'echo',
  'printf',
  'grep',
  'egrep',
  'sed',
  'awk',
  'head',
  'tail',
  'cut',
  'tr',
  'sort',
  'uniq',
  'wc',
  'xargs',
  'jq',
  'ls',
  'pwd',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'touch',
  'date',
  'sleep',
  'tee',
  'base64',
  'diff',
  'find',
  'git',
  'test',
  'true',
  'false',
  'basename',
  'dirname',
  'seq',
  'python3',
]

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  )
}

/** The first executable of that name on a PATH string. */
export async function whichOnPath(name: string, pathValue = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const dir of pathValue.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name)
    if (await isExecutable(file)) return file
  }
  return undefined
}

/**
 * Where a run's shell arm logs each invocation of its counted tools (gh, ghx): one line
 * `<caller> <tool>` per process started, `agent` when the agent's shell started it, or the counted
 * tool that did (ghx running gh for its CLI routes). Static accounting reads commands as written; this
 * log says how often they really ran (a loop over three thread ids runs `ghx run` three times).
 */
const CALL_LOG_VARIABLE = 'GHX_BENCH_CALL_LOG'
export const callLogPath = (workdir: string) => path.join(workdir, '.ghx-bench-calls.log')

/**
 * Where a shell arm's tool layer writes its own log of the run (ghx: GHX_LOG_DIR), for the mode's
 * accounting to read (ToolLayerAccounting.readLog): the mode points the layer's log here in its session's
 * environment; the files are read with the call log, once the agent is done, before the folder goes.
 */
export const layerLogDir = (workdir: string) => path.join(workdir, '.ghx-bench-layer-log')

/** At most this much of a run's layer log is kept (whole lines, oldest first): a runaway loop cannot fill memory. */
const MAX_LAYER_LOG_CHARS = 4 * 1024 * 1024

/**
 * The text of the files in the run's layer log folder, in name order (ghx: ghx-YYYY-MM-DD.jsonl, so by
 * date); null without any. Only what the mode's readLog makes of it reaches the row, never the raw log.
 */
export async function readLayerLog(workdir: string): Promise<string | null> {
  const dir = layerLogDir(workdir)
  const names = await readdir(dir).catch(() => null)
  if (!names || names.length === 0) return null
  let text = ''
  for (const name of names.sort()) {
    const part = await readFile(path.join(dir, name), 'utf8').catch(() => '')
    text += part.length > 0 && !part.endsWith('\n') ? `${part}\n` : part
    if (text.length > MAX_LAYER_LOG_CHARS) return text.slice(0, text.lastIndexOf('\n', MAX_LAYER_LOG_CHARS) + 1)
  }
  return text
}

/** The counted invocations of a run, from its call log: `{gh: 3, ghx: 5, 'ghx>gh': 2}`; null without a log. */
export async function readCallLog(workdir: string): Promise<Record<string, number> | null> {
  const text = await readFile(callLogPath(workdir), 'utf8').catch(() => null)
  if (text === null) return null
  const counts: Record<string, number> = {}
  for (const line of text.split('\n')) {
    const [caller, tool] = line.trim().split(' ')
    if (!caller || !tool) continue
    const key = caller === 'agent' ? tool : `${caller}>${tool}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

const bins = new Map<string, Promise<string>>()

/**
 * A bin folder holding exactly the named executables (plus the base utilities that exist): the PATH
 * of an isolated arm. The `counted` tools are small sh wrappers that log each start to the run's call
 * log and exec the tool (exit code, signals and process group unchanged); the rest are links. The
 * folder is the same for every run of an arm, so one per set of tools is made once per process and shared.
 */
export function isolatedBin(tools: Record<string, string>, counted: readonly string[] = []): Promise<string> {
  const key = JSON.stringify([Object.entries(tools).sort(), [...counted].sort()])
  let bin = bins.get(key)
  if (!bin) {
    bin = makeBin(tools, counted)
    bins.set(key, bin)
  }
  return bin
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

async function makeBin(tools: Record<string, string>, counted: readonly string[]): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ghx-bench-bin-'))
  const links: Record<string, string> = {}
  for (const name of BASE_UTILITIES) {
    const found = await whichOnPath(name)
    if (found) links[name] = found
  }
  Object.assign(links, tools)
  await Promise.all(
    Object.entries(links).map(async ([name, target]) => {
      const file = path.join(folder, name)
      if (!counted.includes(name)) return symlink(target, file)
      // The tool's own children see it as their caller: ghx's gh calls are not the agent's.
      const wrapper = [
        '#!/bin/sh',
        `[ -n "$${CALL_LOG_VARIABLE}" ] && printf '%s %s\\n' "\${GHX_BENCH_CALLER:-agent}" ${name} >> "$${CALL_LOG_VARIABLE}"`,
        `GHX_BENCH_CALLER=${name} exec ${shellQuote(target)} "$@"`,
        '',
      ].join('\n')
      await writeFile(file, wrapper)
      await chmod(file, 0o755)
    }),
  )
  return folder
}
