/**
 * The built-in agent loop: send the conversation and the mode's tools to the model, run the tool
 * calls it asks for through the mode session, repeat until it answers without a tool call, a limit
 * is reached, or the run's signal aborts (then the model request and the running tool are cancelled).
 * Usage is summed over every turn: the predecessors kept only the last message's figures.
 */
import {
  InfrastructureError,
  isInfrastructureError,
  type ProviderRunInput,
  type ProviderToolCall,
  type ProviderTrace,
  type ProviderTurn,
  type Usage,
} from '../plugins/api.js'
import {chatCompletion, type ChatMessage} from './chat-completions.js'

export interface AgentLoopOptions {
  stream: boolean
  /** Default turn limit when the run sets none. */
  maxTurns: number
}

export const DEFAULT_MAX_TURNS = 40

export function sumUsage(usages: Iterable<Usage>): Usage {
  const total: Usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}
  for (const usage of usages) for (const key of Object.keys(total) as Array<keyof Usage>) total[key] += usage[key]
  return total
}

const usageTotal = (usage: Usage) => usage.input + usage.output + usage.reasoning + usage.cache_read + usage.cache_write

/**
 * What the model reads of a tool result. Chat-completions tool messages carry no error flag, so a
 * failed call that does not say so itself (an MCP `isError` result, an unknown tool) is marked, as
 * the shell marks its exit code.
 */
function toolMessage(result: {ok: boolean; output: string}): string {
  if (result.ok || /\n?\[(exit code [^\]]+|aborted)\]\s*$/.test(result.output)) return result.output
  return `${result.output}\n[tool error]`
}

/**
 * A tool call, cut short by the run's signal: a tool that ignores its signal (a hung MCP server, a
 * plugin's tool) cannot hold the run past its timeout; the abort answers at once.
 */
function untilAborted<T extends {ok: boolean; output: string}>(
  call: Promise<T>,
  signal: AbortSignal,
): Promise<T | {ok: false; output: string}> {
  if (signal.aborted) return Promise.resolve({ok: false, output: '[aborted]'})
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ok: false, output: '[aborted]'})
    signal.addEventListener('abort', onAbort, {once: true})
    call.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

export async function runAgentLoop(input: ProviderRunInput, options: AgentLoopOptions): Promise<ProviderTrace> {
  const {session, signal} = input
  const messages: ChatMessage[] = [
    {role: 'system', content: session.instructions},
    {role: 'user', content: input.prompt},
  ]
  const turns: ProviderTurn[] = []
  let cost: number | undefined
  const trace = (stop_reason: ProviderTrace['stop_reason'], final_text = ''): ProviderTrace => ({
    turns,
    final_text,
    stop_reason,
    messages,
    ...(cost !== undefined ? {cost_usd: cost} : {}),
  })
  const maxTurns = input.limits.max_turns ?? options.maxTurns
  for (let turn = 0; turn < maxTurns; turn++) {
    if (signal.aborted) return trace('aborted')
    const startedAt = new Date()
    let response
    try {
      response = await chatCompletion(input.model, {messages, tools: session.tools, stream: options.stream, signal})
    } catch (error) {
      if (signal.aborted) return trace('aborted')
      if (error instanceof InfrastructureError) throw new InfrastructureError(error.message, trace('aborted'))
      throw error
    }
    if (response.cost_usd !== undefined) cost = (cost ?? 0) + response.cost_usd
    input.onProgress?.({kind: 'turn', usage: response.usage})
    messages.push(response.message)
    const toolCalls: ProviderToolCall[] = []
    for (const call of response.message.tool_calls ?? []) {
      const started = performance.now()
      let args: Record<string, unknown> = {}
      let result: {ok: boolean; output: string}
      try {
        args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>
        result = session.tools.some((t) => t.name === call.function.name)
          ? await untilAborted(session.call(call.function.name, args, signal), signal)
          : {
              ok: false,
              output: `unknown tool "${call.function.name}"; the tools are: ${session.tools.map((t) => t.name).join(', ')}`,
            }
      } catch (error) {
        // The harness failed (the tool spawner stopped): not the agent's failure, the run's infrastructure's.
        if (isInfrastructureError(error))
          throw new InfrastructureError((error as Error).message, trace('aborted'), {cause: error})
        result = {ok: false, output: `tool call failed: ${(error as Error).message}`}
      }
      toolCalls.push({
        tool: call.function.name,
        args,
        output: result.output,
        ok: result.ok,
        ms: performance.now() - started,
      })
      messages.push({role: 'tool', tool_call_id: call.id, content: toolMessage(result)})
      input.onProgress?.({kind: 'tool', tool: call.function.name})
      if (signal.aborted) break
    }
    turns.push({
      usage: response.usage,
      tool_calls: toolCalls,
      started_at: startedAt.toISOString(),
      ms: Date.now() - startedAt.getTime(),
      text: response.message.content ?? undefined,
    })
    if (signal.aborted) return trace('aborted')
    if (toolCalls.length === 0) return trace('final', response.message.content ?? '')
    if (
      input.limits.max_tokens !== undefined &&
      usageTotal(sumUsage(turns.map((t) => t.usage))) >= input.limits.max_tokens
    )
      return trace('max_tokens')
  }
  return trace('max_turns')
}
