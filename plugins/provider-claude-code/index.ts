/**
 * Provider `claude-code`: the Claude Code CLI (`claude -p`, stream-json) as the agent runtime, one
 * process per run, configured to exactly the mode's arm: Bash only for shell arms, the mode's MCP
 * servers only for MCP arms (from a config file in the run's home: the token stays off the command
 * line), the mode's instructions once, appended to Claude Code's system prompt. It runs with a fresh
 * HOME, no session kept, no nonessential traffic, against `input.model` as its Anthropic endpoint.
 * Usage is the final `result` event's (the per-message usage Claude Code prints is the message_start
 * snapshot, before any output); its cost is not taken (it prices unknown models at a default rate):
 * ghx-bench's price table prices the usage.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {
  definePlugin,
  type ModeSession,
  type Provider,
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
  isShellArm,
  InfrastructureError,
  requireAgentCli,
  runAgentCli,
  sumUsage,
  withFreshHome,
  type AgentCli,
  type AgentCliEvent,
} from 'ghx-bench/plugin-kit'

export const CLAUDE_CODE: AgentCli = {
  title: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  bin: 'claude',
  version: '2.1.332',
  envVariable: 'CLAUDE_CODE_BIN',
  script: 'ensure-claude-code.sh',
  cacheFolder: 'claude-code',
}

interface ContentBlock {
  type: string
  id?: string
  name?: string
  input?: Record<string, unknown>
  text?: string
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
}

interface WireUsage {
  input_tokens?: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
  output_tokens?: number
  output_tokens_details?: {thinking_tokens?: number}
}

/** Anthropic's usage in the canonical fields: output_tokens includes thinking, which goes to reasoning. */
export function claudeUsage(usage: WireUsage | undefined): Usage {
  const reasoning = usage?.output_tokens_details?.thinking_tokens ?? 0
  return {
    input: usage?.input_tokens ?? 0,
    cache_read: usage?.cache_read_input_tokens ?? 0,
    cache_write: usage?.cache_creation_input_tokens ?? 0,
    output: Math.max(0, (usage?.output_tokens ?? 0) - reasoning),
    reasoning,
  }
}

const minus = (a: Usage, b: Usage): Usage => ({
  input: a.input - b.input,
  output: a.output - b.output,
  reasoning: a.reasoning - b.reasoning,
  cache_read: a.cache_read - b.cache_read,
  cache_write: a.cache_write - b.cache_write,
})

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: {text?: unknown}) => (typeof part?.text === 'string' ? part.text : '')).join('')
      : ''

const STOP_REASONS: Record<string, ProviderTrace['stop_reason']> = {
  success: 'final',
  error_max_turns: 'max_turns',
  error_max_budget_usd: 'max_tokens',
}

/**
 * The trace of one `claude -p --output-format stream-json --verbose` run: a turn per assistant message
 * (Claude Code prints a message's blocks as events of their own, with the same message id), its tool
 * calls joined with their results, the usage of each turn as printed (message_start's) and the final
 * `result` event's remainder on the last turn, so that the turns add up to the run's usage, which only
 * that event has. `startedAt` dates the events' arrival times. Throws an InfrastructureError (with the
 * trace) when the model endpoint failed.
 */
export function claudeCodeTrace(events: readonly AgentCliEvent[], startedAt: number, aborted: boolean): ProviderTrace {
  const date = (at: number) => new Date(startedAt + at).toISOString()
  const turns: Array<ProviderTurn & {id: string}> = []
  const pending = new Map<string, {call: ProviderToolCall; at: number}>()
  let init: {tools?: string[]; claude_code_version?: string} = {}
  let result:
    | {
        subtype?: string
        is_error?: boolean
        result?: string
        usage?: WireUsage
        api_error_status?: number | string | null
      }
    | undefined
  let previousAt = 0
  for (const {at, event} of events) {
    if (event.type === 'system' && event.subtype === 'init') init = event
    if (event.type === 'result') result = event
    const message = event.message as {id?: string; content?: ContentBlock[] | string; usage?: WireUsage} | undefined
    if (event.type === 'assistant' && message?.id) {
      let turn = turns.at(-1)
      if (turn?.id !== message.id) {
        turn = {id: message.id, usage: claudeUsage(message.usage), tool_calls: [], started_at: date(previousAt), ms: 0}
        turns.push(turn)
      }
      turn.ms = at - previousAt
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (block.type === 'text' && block.text) turn.text = (turn.text ?? '') + block.text
        if (block.type === 'tool_use') {
          const call: ProviderToolCall = {
            tool: block.name ?? 'unknown',
            args: block.input ?? {},
            output: '',
            ok: false,
            ms: 0,
          }
          turn.tool_calls.push(call)
          pending.set(block.id ?? '', {call, at})
        }
      }
    }
    if (event.type === 'user' && Array.isArray(message?.content)) {
      for (const block of message.content.filter((b) => b.type === 'tool_result')) {
        const found = pending.get(block.tool_use_id ?? '')
        if (!found) continue
        Object.assign(found.call, {output: textOf(block.content), ok: block.is_error !== true, ms: at - found.at})
        pending.delete(block.tool_use_id ?? '')
      }
    }
    if (event.type === 'assistant' || event.type === 'user') previousAt = at
  }
  const last = turns.at(-1)
  if (result?.usage && last) {
    const printed = sumUsage(turns.map((turn) => turn.usage))
    last.usage = sumUsage([last.usage, minus(claudeUsage(result.usage), printed)])
  }
  const stopReason: ProviderTrace['stop_reason'] =
    aborted || !result ? 'aborted' : (STOP_REASONS[result.subtype ?? ''] ?? 'final')
  const trace: ProviderTrace = {
    turns: turns.map(({id: _id, ...turn}) => turn),
    final_text: result?.result ?? last?.text ?? '',
    stop_reason: stopReason,
    messages: events.map(({event}) => event),
    runtime: {name: 'claude-code', version: init.claude_code_version ?? null, tools: init.tools ?? []},
  }
  // Claude Code reports a failed model request as an error result with the HTTP status it got.
  if (result?.is_error && result.api_error_status !== undefined && result.api_error_status !== null) {
    throw new InfrastructureError(
      `the model endpoint failed (${String(result.api_error_status)}): ${result.result ?? ''}`.slice(0, 500),
      trace,
    )
  }
  return trace
}

/** The arm's switches: its tools only, MCP servers from `mcpConfigFile` only, permissions given. */
function armArgs(session: ModeSession, mcpConfigFile: string): string[] {
  const servers = session.mcpServers ?? []
  const allowed = [...(isShellArm(session) ? ['Bash'] : []), ...servers.map((server) => `mcp__${server.name}`)]
  return [
    '--tools',
    isShellArm(session) ? 'Bash' : '',
    '--mcp-config',
    mcpConfigFile,
    '--strict-mcp-config',
    '--allowedTools',
    allowed.join(','),
  ]
}

function mcpConfig(session: ModeSession): unknown {
  const entries = (session.mcpServers ?? []).map((server) => [
    server.name,
    server.url
      ? {type: 'http', url: server.url}
      : {type: 'stdio', command: server.command, args: server.args ?? [], env: server.env ?? {}},
  ])
  return {mcpServers: Object.fromEntries(entries)}
}

const claudeCode: Provider = {
  name: 'claude-code',
  description: 'the Claude Code CLI (claude -p), one process per run, configured to the mode’s arm',
  optionsSchema: agentCliOptionsSchema(CLAUDE_CODE),
  available: (options) => agentCliAvailability(CLAUDE_CODE, 'claude-code', options),
  async run(input) {
    const binary = await requireAgentCli(CLAUDE_CODE, input.options)
    return withFreshHome('claude-code', async (home) => {
      const mcpConfigFile = path.join(home, 'mcp.json')
      await writeFile(mcpConfigFile, JSON.stringify(mcpConfig(input.session)), {mode: 0o600})
      const args = [
        '-p',
        input.prompt,
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        input.model.id,
        '--permission-mode',
        'dontAsk',
        '--no-session-persistence',
        ...armArgs(input.session, mcpConfigFile),
        ...(input.session.instructions ? ['--append-system-prompt', input.session.instructions] : []),
        ...(input.limits.max_turns ? ['--max-turns', String(input.limits.max_turns)] : []),
      ]
      const env = agentCliEnv(input.session, home, {
        ANTHROPIC_BASE_URL: input.model.baseUrl.replace(/\/v1\/?$/, ''),
        ANTHROPIC_API_KEY: input.model.apiKey ?? 'ghx-bench-no-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // Every tool of the arm is in the model's context from the first request, none deferred behind a tool search.
        ENABLE_TOOL_SEARCH: 'false',
        MAX_MCP_OUTPUT_TOKENS: String(toolOutputTokens(input.options)),
      })
      const startedAt = Date.now()
      const run = await runAgentCli(binary, args, {
        cwd: input.session.workdir ?? home,
        env,
        signal: input.signal,
        onEvent: () => input.onProgress?.({kind: 'tool', tool: 'claude-code'}),
      })
      const aborted = run.ended === 'aborted'
      if (!aborted && !run.events.some(({event}) => event.type === 'result')) {
        throw new InfrastructureError(
          `claude ended (${run.ended}) without a result: ${run.stderr.slice(-500)}`,
          claudeCodeTrace(run.events, startedAt, true),
        )
      }
      const trace = claudeCodeTrace(run.events, startedAt, aborted)
      for (const turn of trace.turns) input.onProgress?.({kind: 'turn', usage: turn.usage})
      return trace
    })
  },
}

export default definePlugin({apiVersion: 1, name: 'provider-claude-code', version: '1.0.0', providers: [claudeCode]})
