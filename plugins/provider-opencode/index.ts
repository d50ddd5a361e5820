/**
 * Provider `opencode`: drives the opencode agent runtime the way the predecessors did, with the fixes
 * they lacked. Each run gets its own `opencode serve` (its environment is the run's: the arm's PATH
 * and the run's token), configured to exactly the mode's arm: the bash tool for shell arms, the mode's
 * MCP servers for MCP arms, every other built-in tool off. The mode's instructions go once, as the
 * prompt's `system`. On timeout the session is aborted and the server stopped, not abandoned. Usage is
 * summed over every assistant message of the session. opencode itself is not a dependency (its
 * binary is 354 MB): it is found on PATH, at the `binary` option or $OPENCODE_BIN.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {
  definePlugin,
  type ModeSession,
  type Provider,
  type ProviderRunInput,
  type ProviderToolCall,
  type ProviderTrace,
  type ProviderTurn,
  type Usage,
} from 'ghx-bench'
import {InfrastructureError, isShellArm, whichOnPath} from 'ghx-bench/plugin-kit'

export const OPENCODE_INSTALL_HINT =
  'opencode not found: install it (npm install -g opencode-ai@1.18.33, or into any folder and point the provider option `binary` or $OPENCODE_BIN at node_modules/.bin/opencode)'

/** opencode's built-in tools: all off, but bash for shell arms. */
const BUILT_IN_TOOLS = [
  'bash',
  'edit',
  'write',
  'read',
  'glob',
  'grep',
  'list',
  'patch',
  'todowrite',
  'todoread',
  'webfetch',
  'websearch',
  'codesearch',
  'task',
  'skill',
  'lsp',
  'multiedit',
  'invalid',
  'question',
]
const armTools = (shell: boolean): Record<string, boolean> =>
  Object.fromEntries(BUILT_IN_TOOLS.map((tool) => [tool, shell && tool === 'bash']))
const PROVIDER_ID = 'ghxbench'
const MCP_KEY = 'github'

async function findOpencode(options: Record<string, unknown>): Promise<string | undefined> {
  const configured = typeof options.binary === 'string' ? options.binary : process.env.OPENCODE_BIN
  if (configured)
    return (await whichOnPath(path.basename(configured), path.dirname(path.resolve(configured))))
      ? path.resolve(configured)
      : undefined
  return whichOnPath('opencode')
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
  })
}

function opencodeConfig(input: ProviderRunInput, shell: boolean): Record<string, unknown> {
  const mcp: Record<string, unknown> = {}
  for (const server of input.session.mcpServers ?? []) {
    mcp[MCP_KEY] = server.url
      ? {type: 'remote', url: server.url, enabled: true}
      : {
          type: 'local',
          command: [server.command!, ...(server.args ?? [])],
          environment: server.env ?? {},
          enabled: true,
        }
  }
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'ghx-bench model endpoint',
        options: {baseURL: input.model.baseUrl, apiKey: input.model.apiKey ?? 'none'},
        models: {[input.model.id]: {name: input.model.id, tool_call: true}},
      },
    },
    model: `${PROVIDER_ID}/${input.model.id}`,
    small_model: `${PROVIDER_ID}/${input.model.id}`,
    autoupdate: false,
    share: 'disabled',
    instructions: [],
    plugin: [],
    mcp,
    tools: armTools(shell),
    permission: {
      bash: shell ? 'allow' : 'deny',
      edit: 'deny',
      webfetch: 'deny',
      external_directory: 'deny',
      doom_loop: 'deny',
    },
  }
}

interface OpencodePart {
  type: string
  text?: string
  tool?: string
  state?: {
    status?: string
    input?: Record<string, unknown>
    output?: string
    error?: string
    time?: {start?: number; end?: number}
  }
}

interface OpencodeMessage {
  info: {
    role: string
    time?: {created?: number; completed?: number}
    cost?: number
    tokens?: {input?: number; output?: number; reasoning?: number; cache?: {read?: number; write?: number}}
  }
  parts: OpencodePart[]
}

function toTrace(messages: OpencodeMessage[], stop: ProviderTrace['stop_reason']): ProviderTrace {
  const assistant = messages.filter((m) => m.info.role === 'assistant')
  const turns: ProviderTurn[] = assistant.map((m) => {
    const tokens = m.info.tokens ?? {}
    const usage: Usage = {
      input: tokens.input ?? 0,
      output: tokens.output ?? 0,
      reasoning: tokens.reasoning ?? 0,
      cache_read: tokens.cache?.read ?? 0,
      cache_write: tokens.cache?.write ?? 0,
    }
    const toolCalls: ProviderToolCall[] = m.parts
      .filter((p) => p.type === 'tool')
      .map((p) => ({
        tool: p.tool ?? 'unknown',
        args: p.state?.input ?? {},
        output: p.state?.output ?? p.state?.error ?? '',
        ok: p.state?.status === 'completed',
        ms: Math.max(0, (p.state?.time?.end ?? 0) - (p.state?.time?.start ?? 0)),
      }))
    const created = m.info.time?.created ?? Date.now()
    const text = m.parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('')
    return {
      usage,
      tool_calls: toolCalls,
      started_at: new Date(created).toISOString(),
      ms: Math.max(0, (m.info.time?.completed ?? created) - created),
      ...(text ? {text} : {}),
    }
  })
  const cost = assistant.reduce((sum, m) => sum + (m.info.cost ?? 0), 0)
  return {
    turns,
    final_text: turns.at(-1)?.text ?? '',
    stop_reason: stop,
    messages,
    ...(cost > 0 ? {cost_usd: cost} : {}),
  }
}

/** The server of one run: started with the run's environment and the arm's config; killed with its children. */
async function startServer(
  binary: string,
  input: ProviderRunInput,
  home: string,
): Promise<{url: string; child: ChildProcess}> {
  const session: ModeSession = input.session
  const shell = isShellArm(session)
  const port = await freePort()
  const env: Record<string, string> = {
    ...session.env,
    PATH: session.env.PATH ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_STATE_HOME: path.join(home, 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(input, shell)),
    // The model endpoint is on loopback: never through the proxy that points gh at the sandbox. Not
    // "localhost": Go matches NO_PROXY as a suffix, and gh would then bypass the proxy for api.github.localhost.
    NO_PROXY: session.env.NO_PROXY ?? '127.0.0.1',
  }
  const child = spawn(binary, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: session.workdir ?? home,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = `http://127.0.0.1:${port}`
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new InfrastructureError(`opencode serve did not start in 30 s: ${output.slice(-300)}`)),
      30_000,
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('listening on')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new InfrastructureError(`opencode serve exited (${code}): ${output.slice(-300)}`))
    })
  })
  return {url, child}
}

/** Kills the server's process group and waits for the server to be gone: the run ends with no server left. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL')
  } catch {
    // already gone
  }
  await exited
}

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {...init, headers: {'content-type': 'application/json', ...init.headers}})
  if (!response.ok)
    throw new InfrastructureError(
      `opencode answered ${response.status} for ${url}: ${(await response.text()).slice(0, 300)}`,
    )
  return (await response.json()) as T
}

const opencode: Provider = {
  name: 'opencode',
  description: 'the opencode agent runtime, one server per run, configured to the mode’s arm',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      binary: {
        type: 'string',
        minLength: 1,
        description: 'path of the opencode executable (default: $OPENCODE_BIN, then opencode on PATH)',
      },
    },
  },
  async available(options) {
    return (await findOpencode(options)) ? {available: true} : {available: false, reason: OPENCODE_INSTALL_HINT}
  },
  async run(input) {
    const binary = await findOpencode(input.options)
    if (!binary) throw new Error(OPENCODE_INSTALL_HINT)
    const home = await mkdtemp(path.join(tmpdir(), 'ghx-bench-opencode-'))
    let server: {url: string; child: ChildProcess} | undefined
    try {
      server = await startServer(binary, input, home)
      const {url} = server
      const session = await api<{id: string}>(`${url}/session`, {
        method: 'POST',
        body: JSON.stringify({title: 'ghx-bench run'}),
      })
      const messagesUrl = `${url}/session/${session.id}/message`
      const readMessages = () => api<OpencodeMessage[]>(messagesUrl)
      // Progress for the stall watchdog: the session's parts as they grow.
      let seen = 0
      const poll = setInterval(() => {
        readMessages().then(
          (messages) => {
            const parts = messages.reduce((n, m) => n + m.parts.length, 0)
            if (parts > seen) {
              seen = parts
              input.onProgress?.({kind: 'tool', tool: 'opencode'})
            }
          },
          () => {},
        )
      }, 500)
      const abort = () => void fetch(`${url}/session/${session.id}/abort`, {method: 'POST'}).catch(() => {})
      input.signal.addEventListener('abort', abort, {once: true})
      try {
        await api(messagesUrl, {
          method: 'POST',
          signal: input.signal,
          body: JSON.stringify({
            model: {providerID: PROVIDER_ID, modelID: input.model.id},
            // The mode's instructions, once: the predecessors sent them twice (config and prompt).
            system: input.session.instructions,
            tools: armTools(isShellArm(input.session)),
            parts: [{type: 'text', text: input.prompt}],
          }),
        })
      } catch (error) {
        if (!input.signal.aborted) throw error
      } finally {
        clearInterval(poll)
        input.signal.removeEventListener('abort', abort)
      }
      const trace = toTrace(await readMessages(), input.signal.aborted ? 'aborted' : 'final')
      for (const turn of trace.turns) input.onProgress?.({kind: 'turn', usage: turn.usage})
      return trace
    } finally {
      if (server) await kill(server.child)
      await rm(home, {recursive: true, force: true}).catch(() => {})
    }
  },
}

export default definePlugin({apiVersion: 1, name: 'provider-opencode', version: '1.0.0', providers: [opencode]})
