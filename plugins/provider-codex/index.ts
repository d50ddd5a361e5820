/**
 * Provider `codex`: the Codex CLI (`codex exec --json`) as the agent runtime, one process per run,
 * configured to exactly the mode's arm through a fresh CODEX_HOME's config.toml: for shell arms its
 * exec_command tool (the workspace-write sandbox with network access, so that gh reaches the sandbox
 * GitHub on loopback), for MCP arms the mode's MCP servers and no shell; the mode's instructions once,
 * as `developer_instructions` (the pinned version sends them as a developer message). No session
 * kept (--ephemeral), no analytics, no plugins or apps, against `input.model` as a Responses API
 * provider. Usage is `turn.completed`'s, whose input_tokens include the cached ones.
 */
import {mkdir, writeFile} from 'node:fs/promises'
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
import {
  agentCliOptionsSchema,
  toolOutputTokens,
  agentCliEnv,
  agentCliAvailability,
  agentCliVersion,
  isShellArm,
  InfrastructureError,
  requireAgentCli,
  runAgentCli,
  startRequestTap,
  withFreshHome,
  type AgentCli,
  type AgentCliEvent,
  type RequestTap,
} from 'ghx-bench/plugin-kit'

export const CODEX: AgentCli = {
  title: 'Codex',
  npmPackage: '@openai/codex',
  bin: 'codex',
  version: '0.171.0',
  envVariable: 'CODEX_BIN',
  script: 'ensure-codex.sh',
  cacheFolder: 'codex',
}

const PROVIDER_ID = 'ghxbench'
const MODEL_KEY_VARIABLE = 'GHXBENCH_MODEL_KEY'
/** Codex's tools that no arm has: sub-agents, goals, images, questions to a user who is not there. */
const OFF_FEATURES = ['plugins', 'remote_plugin', 'apps', 'multi_agent', 'goals', 'image_generation']

interface WireUsage {
  input_tokens?: number
  cached_input_tokens?: number
  cache_write_input_tokens?: number
  output_tokens?: number
  reasoning_output_tokens?: number
}

/** OpenAI's usage in the canonical fields: input_tokens include the cached ones, output_tokens the reasoning ones. */
export function codexUsage(usage: WireUsage | undefined): Usage {
  const cacheRead = usage?.cached_input_tokens ?? 0
  const reasoning = usage?.reasoning_output_tokens ?? 0
  return {
    input: Math.max(0, (usage?.input_tokens ?? 0) - cacheRead),
    cache_read: cacheRead,
    cache_write: usage?.cache_write_input_tokens ?? 0,
    output: Math.max(0, (usage?.output_tokens ?? 0) - reasoning),
    reasoning,
  }
}

interface CodexItem {
  id: string
  type: string
  text?: string
  command?: string
  aggregated_output?: string
  exit_code?: number | null
  server?: string
  tool?: string
  arguments?: unknown
  result?: {content?: Array<{text?: string}>; structured_content?: unknown} | null
  error?: {message?: string} | null
  status?: string
}

/** A finished tool item as a tool call: the shell's command, or an MCP tool by the name the model called it. */
function toolCall(item: CodexItem, ms: number): ProviderToolCall | undefined {
  if (item.type === 'command_execution') {
    return {
      tool: 'exec_command',
      args: {command: item.command ?? ''},
      output: item.aggregated_output ?? '',
      ok: item.status === 'completed' && item.exit_code === 0,
      ms,
    }
  }
  if (item.type === 'mcp_tool_call') {
    const output = item.error?.message ?? (item.result?.content ?? []).map((part) => part.text ?? '').join('')
    const args =
      item.arguments !== null && typeof item.arguments === 'object' ? (item.arguments as Record<string, unknown>) : {}
    // A failed call is only visible in its status (and error): the result of a failed call may be empty.
    return {tool: `mcp__${item.server ?? ''}__${item.tool ?? ''}`, args, output, ok: item.status === 'completed', ms}
  }
  return undefined
}

/**
 * The trace of one `codex exec --json` run. Codex's stream does not delimit the model's responses: each
 * tool call is taken as a turn of its own (the text Codex printed before it is that turn's), and the
 * last message as the final turn; the run's usage (summed over its `turn.completed` events, the only
 * usage Codex prints) is the last turn's. `startedAt` dates the events' arrival times. Throws an
 * InfrastructureError (with the trace) when the model endpoint failed (`turn.failed`).
 */
export function codexTrace(events: readonly AgentCliEvent[], startedAt: number, aborted: boolean): ProviderTrace {
  const date = (at: number) => new Date(startedAt + at).toISOString()
  const turns: ProviderTurn[] = []
  const startedItems = new Map<string, number>()
  let usage: Usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}
  let text: string | undefined
  let previousAt = 0
  let completed = false
  let failure: string | undefined
  for (const {at, event} of events) {
    const item = event.item as CodexItem | undefined
    if (event.type === 'item.started' && item) startedItems.set(item.id, at)
    if (event.type === 'item.completed' && item) {
      if (item.type === 'agent_message') text = (text === undefined ? '' : `${text}\n`) + (item.text ?? '')
      const began = startedItems.get(item.id) ?? at
      const call = toolCall(item, at - began)
      if (call) {
        turns.push({
          usage: {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0},
          tool_calls: [call],
          started_at: date(previousAt),
          ms: began - previousAt,
          ...(text === undefined ? {} : {text}),
        })
        text = undefined
        previousAt = at
      }
    }
    if (event.type === 'turn.completed') {
      completed = true
      const turnUsage = codexUsage(event.usage as WireUsage)
      usage = {
        input: usage.input + turnUsage.input,
        output: usage.output + turnUsage.output,
        reasoning: usage.reasoning + turnUsage.reasoning,
        cache_read: usage.cache_read + turnUsage.cache_read,
        cache_write: usage.cache_write + turnUsage.cache_write,
      }
    }
    if (event.type === 'turn.failed')
      failure = (event.error as {message?: string} | undefined)?.message ?? 'turn.failed'
  }
  const lastAt = events.at(-1)?.at ?? previousAt
  if (text !== undefined || turns.length === 0)
    turns.push({
      usage,
      tool_calls: [],
      started_at: date(previousAt),
      ms: lastAt - previousAt,
      ...(text === undefined ? {} : {text}),
    })
  else turns.at(-1)!.usage = usage
  const trace: ProviderTrace = {
    turns,
    final_text: text ?? '',
    stop_reason: aborted || !completed ? 'aborted' : 'final',
    messages: events.map(({event}) => event),
  }
  if (failure !== undefined && !aborted)
    throw new InfrastructureError(`the model endpoint failed: ${failure}`.slice(0, 500), trace)
  return trace
}

const toml = (value: unknown) => JSON.stringify(value)
const tomlTable = (entries: Record<string, string>) =>
  `{${Object.entries(entries)
    .map(([key, value]) => `${toml(key)} = ${toml(value)}`)
    .join(', ')}}`

/** The run's config.toml: the model provider, the arm (sandbox or MCP servers), the instructions. */
export function codexConfig(
  session: ModeSession,
  model: {id: string; baseUrl: string},
  toolOutputTokenLimit: number,
): string {
  const lines = [
    `model = ${toml(model.id)}`,
    `model_provider = ${toml(PROVIDER_ID)}`,
    'approval_policy = "never"',
    // workspace-write keeps the agent's writes in its folder; its network access lets gh reach the sandbox on loopback.
    'sandbox_mode = "workspace-write"',
    // Not `bash -lc`: a login shell reads /etc/profile, which runs tools (id) the arm's PATH does not have, and its errors land in the output.
    'allow_login_shell = false',
    `tool_output_token_limit = ${toolOutputTokenLimit}`,
    ...(session.instructions ? [`developer_instructions = ${toml(session.instructions)}`] : []),
    '[sandbox_workspace_write]',
    'network_access = true',
    // /tmp is writable by default, and Codex guards a writable root's .git by making one there (/tmp/.git):
    // the run's TMPDIR, in its own folder, is the only temporary folder it gets.
    'exclude_slash_tmp = true',
    `[model_providers.${PROVIDER_ID}]`,
    'name = "ghx-bench model endpoint"',
    `base_url = ${toml(model.baseUrl)}`,
    `env_key = ${toml(MODEL_KEY_VARIABLE)}`,
    'wire_api = "responses"',
    // Else Codex looks up its analytics host at start.
    '[analytics]',
    'enabled = false',
  ]
  for (const server of session.mcpServers ?? []) {
    lines.push(`[mcp_servers.${toml(server.name)}]`)
    if (server.url) lines.push(`url = ${toml(server.url)}`)
    else
      lines.push(
        `command = ${toml(server.command)}`,
        `args = ${toml(server.args ?? [])}`,
        `env = ${tomlTable(server.env ?? {})}`,
      )
    // `required`: Codex waits for the server before its first request, which else may offer none of its tools.
    lines.push('default_tools_approval_mode = "approve"', 'required = true')
  }
  return `${lines.join('\n')}\n`
}

/** One run of `codex exec` in its fresh home, its model requests through the tap. */
async function runCodex(
  binary: string,
  version: string | undefined,
  input: ProviderRunInput,
  home: string,
  tap: RequestTap,
): Promise<ProviderTrace> {
  const codexHome = path.join(home, 'codex-home')
  await mkdir(codexHome)
  await writeFile(
    path.join(codexHome, 'config.toml'),
    codexConfig(input.session, {id: input.model.id, baseUrl: tap.baseUrl}, toolOutputTokens(input.options)),
    {mode: 0o600},
  )
  const off = [...OFF_FEATURES, ...(isShellArm(input.session) ? [] : ['shell_tool'])]
  const args = [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '--ephemeral',
    ...off.flatMap((feature) => ['--disable', feature]),
    input.prompt,
  ]
  const env = agentCliEnv(input.session, home, {
    CODEX_HOME: codexHome,
    [MODEL_KEY_VARIABLE]: input.model.apiKey ?? 'ghx-bench-no-key',
  })
  const startedAt = Date.now()
  const run = await runAgentCli(binary, args, {
    cwd: input.session.workdir ?? home,
    env,
    signal: input.signal,
    onEvent: () => input.onProgress?.({kind: 'tool', tool: 'codex'}),
  })
  const aborted = run.ended === 'aborted'
  const finished = run.events.some(({event}) => event.type === 'turn.completed' || event.type === 'turn.failed')
  if (!aborted && !finished)
    throw new InfrastructureError(
      `codex ended (${run.ended}) without finishing its turn: ${run.stderr.slice(-500)}`,
      codexTrace(run.events, startedAt, true),
    )
  const offered = tap.offeredTools()
  const trace = {
    ...codexTrace(run.events, startedAt, aborted),
    runtime: {name: 'codex', version: version ?? null, ...(offered ? {tools: offered} : {})},
  }
  for (const turn of trace.turns) input.onProgress?.({kind: 'turn', usage: turn.usage})
  return trace
}

const codex: Provider = {
  name: 'codex',
  description: 'the Codex CLI (codex exec), one process per run, configured to the mode’s arm',
  optionsSchema: agentCliOptionsSchema(CODEX),
  available: (options) => agentCliAvailability(CODEX, 'codex', options),
  async run(input) {
    const binary = await requireAgentCli(CODEX, input.options)
    const version = await agentCliVersion(binary)
    // Codex does not say which tools it offers the model: a relay reads them from its first request.
    const tap = await startRequestTap(input.model.baseUrl)
    try {
      return await withFreshHome('codex', (home) => runCodex(binary, version, input, home, tap))
    } finally {
      await tap.close()
    }
  },
}

export default definePlugin({apiVersion: 1, name: 'provider-codex', version: '1.0.0', providers: [codex]})
