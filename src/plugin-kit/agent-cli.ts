/**
 * What a provider that drives an agent CLI (Claude Code, Codex) needs from ghx-bench: finding the
 * pinned binary, its version, a fresh home removed after the run, an allow-listed environment, and
 * running it to its end under process-tree control (startServerProcess: a perl subreaper, every
 * process the CLI started killed when it ends, times out or is aborted), its stdout read as JSON
 * lines, each event stamped with when it arrived.
 */
import {execFile} from 'node:child_process'
import {closeSync, existsSync, openSync, readSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import {createServer, request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import type {AddressInfo} from 'node:net'
import {homedir, tmpdir} from 'node:os'
import path from 'node:path'
import {createInterface} from 'node:readline'
import type {Availability, ModeSession} from '../plugins/api.js'
import {whichOnPath} from '../agent/shell-tool.js'
import {startServerProcess} from '../shared/process/server-process.js'
import {makeShortTempFolder, removeShortTempFolder} from '../shared/process/temp-root.js'

/** An agent CLI as scripts/ensure-<script>.sh installs it, pinned, outside the repository. */
export interface AgentCli {
  /** For people: `Claude Code`. */
  title: string
  /** The npm package (`@anthropic-ai/claude-code`). */
  npmPackage: string
  /** Its executable (`claude`): in node_modules/.bin and on PATH. */
  bin: string
  /** The pinned version the ensure script installs. */
  version: string
  /** The variable that names the executable (`CLAUDE_CODE_BIN`). */
  envVariable: string
  /** The ensure script (`ensure-claude-code.sh`); it installs into <cache>/ghx-bench/<cacheFolder>-<version>. */
  script: string
  cacheFolder: string
}

export function agentCliInstallHint(cli: AgentCli): string {
  return (
    `${cli.title} not found: run \`bash scripts/${cli.script}\` in a ghx-bench checkout, or \`npm install ${cli.npmPackage}@${cli.version}\` into any folder ` +
    `and point the provider option \`binary\` or $${cli.envVariable} at its node_modules/.bin/${cli.bin}`
  )
}

/**
 * How many tokens of a tool's output the CLI passes to the model. Both CLIs cut long outputs by
 * default (Claude Code an MCP result at 25,000 tokens; Codex any at 10,000): a list the task asks for
 * (89 KB of issues over MCP) then never reaches the answer, and the run measures the CLI's cut rather
 * than the arm. ghx-bench gives both the same, larger budget (Codex's tool_output_token_limit, Claude
 * Code's MAX_MCP_OUTPUT_TOKENS). Claude Code 2.1.332 still moves an MCP result of more than 50,000
 * characters into a file (`<persisted-output>`) whatever the budget, which an MCP arm, with no file tool,
 * cannot read: the model must page (docs/providers.md).
 */
export const DEFAULT_TOOL_OUTPUT_TOKENS = 100_000

/** The options of an agent-CLI provider: its executable and the tool-output budget. */
export function agentCliOptionsSchema(cli: AgentCli): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      binary: {
        type: 'string',
        minLength: 1,
        description: `path of the ${cli.bin} executable (default: $${cli.envVariable}, the pinned ${cli.version} of scripts/${cli.script}, ${cli.bin} on PATH)`,
      },
      max_tool_output_tokens: {
        type: 'integer',
        minimum: 1000,
        maximum: 10_000_000,
        description: `tokens of a tool's output passed to the model (default ${DEFAULT_TOOL_OUTPUT_TOKENS}; the CLI cuts the rest)`,
      },
    },
  }
}

/** The tool-output budget the options give. */
export const toolOutputTokens = (options: Record<string, unknown>): number =>
  typeof options.max_tool_output_tokens === 'number' ? options.max_tool_output_tokens : DEFAULT_TOOL_OUTPUT_TOKENS

/** The cache folder's executable the ensure script installs for the pinned version. */
export function pinnedAgentCliPath(cli: AgentCli): string {
  const cache = process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache')
  return path.join(cache, 'ghx-bench', `${cli.cacheFolder}-${cli.version}`, 'node_modules', '.bin', cli.bin)
}

/** The executable: option `binary`, then $<envVariable>, then the ensure script's cache folder, then PATH; undefined when none is there. */
export async function findAgentCli(cli: AgentCli, options: Record<string, unknown>): Promise<string | undefined> {
  const configured = typeof options.binary === 'string' ? options.binary : process.env[cli.envVariable]
  if (configured) return existsSync(configured) ? path.resolve(configured) : undefined
  const pinned = pinnedAgentCliPath(cli)
  return existsSync(pinned) ? pinned : whichOnPath(cli.bin)
}

/** A provider's `available()`: the executable found, with its version under the provider's name, or the install command. */
export async function agentCliAvailability(
  cli: AgentCli,
  provider: string,
  options: Record<string, unknown>,
): Promise<Availability> {
  const binary = await findAgentCli(cli, options)
  if (!binary) return {available: false, reason: agentCliInstallHint(cli)}
  const version = await agentCliVersion(binary)
  return {available: true, ...(version ? {tools: {[provider]: version}} : {})}
}

/** The executable for a run; an error naming the install command when it is gone. */
export async function requireAgentCli(cli: AgentCli, options: Record<string, unknown>): Promise<string> {
  const binary = await findAgentCli(cli, options)
  if (!binary) throw new Error(agentCliInstallHint(cli))
  return binary
}

/**
 * How to start the executable without PATH: a Node script (`#!/usr/bin/env node`: Codex's entry) runs
 * under this Node, since the arm's PATH has no node and must not get one.
 */
function launcher(binary: string): {file: string; args: string[]} {
  const head = Buffer.alloc(64)
  try {
    const file = openSync(binary, 'r')
    try {
      readSync(file, head, 0, head.length, 0)
    } finally {
      closeSync(file)
    }
  } catch {
    // not readable: started as it is, and its error reported
  }
  return /^#!.*\bnode\b/.test(head.toString('latin1'))
    ? {file: process.execPath, args: [binary]}
    : {file: binary, args: []}
}

const versions = new Map<string, Promise<string | undefined>>()

/** The executable's `--version`, its first dotted number (`2.1.332`); asked once per executable. */
export function agentCliVersion(binary: string): Promise<string | undefined> {
  let version = versions.get(binary)
  if (!version) {
    const {file, args} = launcher(binary)
    version = new Promise((resolve) => {
      execFile(
        file,
        [...args, '--version'],
        {timeout: 30_000, env: {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir()}},
        (error, stdout) => resolve(error ? undefined : /\d+\.\d+\.\d+\S*/.exec(stdout)?.[0]),
      )
    })
    versions.set(binary, version)
  }
  return version
}

/**
 * A home of the run's own (with the `tmp` folder agentCliEnv names), removed after `work`, whatever
 * happens. Its path is short (temp-root.ts's makeShortTempFolder): a CLI binds its sockets under it
 * (Claude Code: <TMPDIR>/cc-socks/<pid>.sock), and where that path is too long for a socket it binds them
 * in a folder of /tmp shared by every run and left behind.
 */
export async function withFreshHome<T>(name: string, work: (home: string) => Promise<T>): Promise<T> {
  const home = await makeShortTempFolder(name)
  try {
    await mkdir(path.join(home, 'tmp'))
    return await work(home)
  } finally {
    await removeShortTempFolder(home).catch(() => {})
  }
}

/**
 * The CLI's whole environment: the session's (the arm's PATH, the token, gh's sandbox variables the
 * mode set), a home and temporary folder inside the fresh home, and the CLI's own variables (model
 * key, switches); nothing else of the caller's. The model endpoint is on loopback or remote, never
 * behind the proxy that points gh at the sandbox: NO_PROXY keeps 127.0.0.1 (not `localhost`: Go
 * matches NO_PROXY as a suffix, and gh would then bypass the proxy for api.github.localhost).
 */
export function agentCliEnv(
  session: Pick<ModeSession, 'env'>,
  home: string,
  own: Record<string, string>,
): Record<string, string> {
  return {
    ...session.env,
    PATH: session.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    NO_PROXY: session.env.NO_PROXY ?? '127.0.0.1',
    ...own,
  }
}

/** One event of the CLI's stream; `at` is when it arrived (ms since the run started; 0 when read from a file). */
export interface AgentCliEvent {
  at: number
  event: Record<string, unknown>
}

export interface AgentCliRun {
  /** How it ended: `exit 0`, `signal 9`, `could not start: …`, or `aborted`. */
  ended: string
  events: AgentCliEvent[]
  /** The last of what it printed on stderr, for an error message. */
  stderr: string
}

/** Its JSON lines; a line that is not a JSON object (a warning) is left out. */
export function parseJsonLines(text: string, at = 0): AgentCliEvent[] {
  return text.split('\n').flatMap((line) => {
    const event = parseLine(line)
    return event ? [{at, event}] : []
  })
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.trim()) return undefined
  try {
    const value: unknown = JSON.parse(line)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

const STDERR_KEPT = 4000
/** How long stdout may stay open once the CLI has exited (a child that inherited it) before the rest is killed. */
const DRAIN_MS = 500

/**
 * Runs the CLI to its end, stdin closed, in `cwd`, with exactly `env`: every process it started is
 * killed when it exits, and at once when `signal` aborts (then `ended` is `aborted`). `onEvent` sees
 * each event as it arrives (the stall watchdog's progress).
 */
export async function runAgentCli(
  binary: string,
  args: readonly string[],
  options: {cwd: string; env: Record<string, string>; signal: AbortSignal; onEvent?: (event: AgentCliEvent) => void},
): Promise<AgentCliRun> {
  const started = performance.now()
  const events: AgentCliEvent[] = []
  let stderr = ''
  if (options.signal.aborted) return {ended: 'aborted', events, stderr}
  const {file, args: before} = launcher(binary)
  const cli = startServerProcess(file, [...before, ...args], {cwd: options.cwd, env: options.env, stderr: true})
  cli.stdin.end()
  cli.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)))
  const stdoutClosed = new Promise<void>((resolve) => {
    const lines = createInterface({input: cli.stdout, crlfDelay: Infinity})
    lines.on('line', (line) => {
      const event = parseLine(line)
      if (!event) return
      const stamped = {at: Math.round(performance.now() - started), event}
      events.push(stamped)
      options.onEvent?.(stamped)
    })
    lines.once('close', resolve)
  })
  let onAbort: (() => void) | undefined
  const aborted = new Promise<string>((resolve) => {
    onAbort = () => resolve('aborted')
    options.signal.addEventListener('abort', onAbort, {once: true})
  })
  try {
    const ended = await Promise.race([cli.ended, aborted])
    if (ended !== 'aborted') await Promise.race([stdoutClosed, new Promise((resolve) => setTimeout(resolve, DRAIN_MS))])
    return {ended, events, stderr}
  } finally {
    options.signal.removeEventListener('abort', onAbort!)
    cli.stop()
    // Killed is not yet gone: the run returns once the CLI's process has ended (bounded, as a kill -9 is).
    await Promise.race([cli.ended, new Promise((resolve) => setTimeout(resolve, DRAIN_MS))])
  }
}

export interface RequestTap {
  /** The base URL to give the CLI: the relay's, with the endpoint's path. */
  baseUrl: string
  /** The tools the CLI's first request with tools offered the model, by name (`namespace.name` for a namespaced one); undefined before one. */
  offeredTools(): string[] | undefined
  close(): Promise<void>
}

/** The relay's base path; what follows it in a request is the endpoint's path after its base URL's. */
const RELAY_PATH = '/relay'

/** Tool names of a model request's body: Anthropic's and the Responses API's `tools`, a Responses namespace's tools each under it. */
function toolNames(tools: unknown, namespace?: string): string[] {
  if (!Array.isArray(tools)) return []
  return tools.flatMap((tool: {type?: unknown; name?: unknown; tools?: unknown}) => {
    if (typeof tool?.name !== 'string') return []
    if (tool.type === 'namespace') return toolNames(tool.tools, tool.name)
    return [namespace ? `${namespace}.${tool.name}` : tool.name]
  })
}

/**
 * A relay on loopback in front of the model endpoint, for a CLI that does not say which tools it
 * offers the model (Codex): every request and answer goes through byte for byte (streams included);
 * the first request that offers tools is read for their names.
 */
export async function startRequestTap(baseUrl: string): Promise<RequestTap> {
  const target = new URL(baseUrl)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  let offered: string[] | undefined
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks)
      if (offered === undefined && body.length > 0) {
        try {
          const names = toolNames((JSON.parse(body.toString('utf8')) as {tools?: unknown}).tools)
          if (names.length > 0) offered = names
        } catch {
          // not JSON (a compressed body): the next request may say
        }
      }
      const path = `${target.pathname.replace(/\/$/, '')}${(request.url ?? RELAY_PATH).slice(RELAY_PATH.length)}`
      const upstream = send(
        new URL(path, target.origin),
        {method: request.method, headers: {...request.headers, host: target.host}},
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        },
      )
      upstream.on('error', () => response.destroy())
      upstream.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${RELAY_PATH}`,
    offeredTools: () => offered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
