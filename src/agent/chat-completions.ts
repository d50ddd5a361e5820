/**
 * A client for the OpenAI-compatible chat-completions API with tool calling, streamed (SSE) or not.
 * It works against any server that speaks the protocol: OpenAI, OpenRouter, vLLM, LiteLLM, Ollama, or
 * ghx-bench's own scripted models. Every request is cancelled through the caller's AbortSignal.
 */
import {InfrastructureError, type ModelEndpoint, type ToolDefinition, type Usage} from '../plugins/api.js'

export interface ChatToolCall {
  id: string
  type: 'function'
  function: {name: string; arguments: string}
}

export type ChatMessage =
  | {role: 'system' | 'user'; content: string}
  | {role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[]}
  | {role: 'tool'; tool_call_id: string; content: string}

export interface ChatRequest {
  messages: ChatMessage[]
  tools: ToolDefinition[]
  stream: boolean
  maxTokens?: number
  signal: AbortSignal
}

export interface ChatResponse {
  message: Extract<ChatMessage, {role: 'assistant'}>
  usage: Usage
  /** Cost in USD when the server reports one (OpenRouter's `usage.cost`). */
  cost_usd?: number
  finish_reason: string | null
}

interface WireUsage {
  prompt_tokens?: number
  completion_tokens?: number
  cost?: number
  prompt_tokens_details?: {cached_tokens?: number; cache_write_tokens?: number}
  completion_tokens_details?: {reasoning_tokens?: number}
}

/** OpenAI counts cached and reasoning tokens inside prompt/completion; ours keeps them apart. */
export function usageFromWire(usage: WireUsage | undefined): Usage {
  const cacheRead = usage?.prompt_tokens_details?.cached_tokens ?? 0
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0
  return {
    input: Math.max(0, (usage?.prompt_tokens ?? 0) - cacheRead),
    output: Math.max(0, (usage?.completion_tokens ?? 0) - reasoning),
    reasoning,
    cache_read: cacheRead,
    cache_write: usage?.prompt_tokens_details?.cache_write_tokens ?? 0,
  }
}

/** Tools as the chat-completions API takes them: the form whose size every turn pays for. */
export function toolPayload(tools: ToolDefinition[]) {
  return tools.map((t) => ({
    type: 'function',
    function: {name: t.name, description: t.description, parameters: t.inputSchema},
  }))
}

/** The base URL without credentials (fetch refuses them, and they must not reach an error message), and them as Basic auth. */
function endpointUrl(baseUrl: string): {url: string; basic?: string} {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(baseUrl)) return {url: baseUrl}
  try {
    const parsed = new URL(baseUrl)
    const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString(
      'base64',
    )
    parsed.username = ''
    parsed.password = ''
    return {url: parsed.toString(), basic}
  } catch {
    return {url: baseUrl}
  }
}

export async function chatCompletion(endpoint: ModelEndpoint, request: ChatRequest): Promise<ChatResponse> {
  const body: Record<string, unknown> = {model: endpoint.id, messages: request.messages, stream: request.stream}
  if (request.tools.length > 0) body.tools = toolPayload(request.tools)
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens
  if (request.stream) body.stream_options = {include_usage: true}
  let response: Response
  const {url, basic} = endpointUrl(endpoint.baseUrl)
  const authorization = endpoint.apiKey ? `Bearer ${endpoint.apiKey}` : basic ? `Basic ${basic}` : undefined
  try {
    response = await fetch(`${url.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {'content-type': 'application/json', ...(authorization ? {authorization} : {})},
      body: JSON.stringify(body),
      signal: request.signal,
    })
  } catch (error) {
    if (request.signal.aborted) throw error
    throw new InfrastructureError(`model endpoint unreachable: ${(error as Error).message}`)
  }
  if (!response.ok) {
    const text = (await errorText(response, request.signal)).slice(0, 300)
    const message = `model endpoint answered ${response.status}: ${text}`
    // 5xx and 429 are the server's trouble; 4xx is a request the server will never accept.
    if (response.status >= 500 || response.status === 429) throw new InfrastructureError(message)
    throw new Error(message)
  }
  return request.stream ? readStream(response, request.signal) : readJson(response, request.signal)
}

/**
 * The most one answer may take, streamed or not. The longest answer a model gives (128k output
 * tokens, streamed one token an event) is about 30 MB of SSE; an endpoint that sends more is broken
 * (an endless body) and must not fill memory: the attempt fails as the endpoint's fault.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024

/** An error body is read only as far as its message needs. */
const ERROR_TEXT_BYTES = 4096

const tooLarge = () =>
  new InfrastructureError(
    `model endpoint sent more than ${MAX_RESPONSE_BYTES / (1024 * 1024)} MiB in one answer: cut off (an endless or runaway response)`,
  )

/** What the endpoint sent instead of a completion: its own error object when it has one, else the start of the body. */
function malformed(what: string, text: string): InfrastructureError {
  return new InfrastructureError(`model endpoint answered 200 with ${what}: ${text.slice(0, 300)}`)
}

/**
 * The body's chunks up to `limit` bytes, then an error that says so (the connection is cancelled), or
 * one when the connection breaks mid-answer: both are the endpoint's fault, retried as such. An abort
 * is passed on as it is.
 */
async function* bodyChunks(response: Response, limit: number, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  if (!response.body) return
  let total = 0
  try {
    for await (const bytes of response.body) {
      if (total + bytes.byteLength > limit) {
        yield bytes.subarray(0, limit - total)
        throw tooLarge()
      }
      total += bytes.byteLength
      yield bytes
    }
  } catch (error) {
    if (signal.aborted || error instanceof InfrastructureError) throw error
    throw new InfrastructureError(`model endpoint connection broke mid-answer: ${(error as Error).message}`)
  }
}

/** The start of an error answer's body: what says why, never the whole of an endless one. */
async function errorText(response: Response, signal: AbortSignal): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  try {
    for await (const bytes of bodyChunks(response, ERROR_TEXT_BYTES, signal))
      text += decoder.decode(bytes, {stream: true})
  } catch (error) {
    if (signal.aborted) throw error
    // Cut off, or the connection broke: the part read names the trouble.
  }
  return text
}

async function readJson(response: Response, signal: AbortSignal): Promise<ChatResponse> {
  const chunks: Uint8Array[] = []
  for await (const bytes of bodyChunks(response, MAX_RESPONSE_BYTES, signal)) chunks.push(bytes)
  const text = Buffer.concat(chunks).toString('utf8')
  let json: {choices?: unknown; usage?: WireUsage; error?: unknown}
  try {
    json = JSON.parse(text) as typeof json
  } catch {
    throw malformed('a body that is not JSON', text)
  }
  const choice = (Array.isArray(json?.choices) ? json.choices[0] : undefined) as
    {message?: ChatResponse['message']; finish_reason?: string} | undefined
  if (typeof choice?.message !== 'object' || choice.message === null)
    throw malformed('no choice', JSON.stringify(json?.error ?? json))
  const message = {
    role: 'assistant' as const,
    content: choice.message.content ?? null,
    ...(choice.message.tool_calls?.length ? {tool_calls: choice.message.tool_calls} : {}),
  }
  return {
    message,
    usage: usageFromWire(json.usage),
    cost_usd: json.usage?.cost,
    finish_reason: choice.finish_reason ?? null,
  }
}

interface StreamChunk {
  choices?: Array<{
    delta?: {
      content?: string | null
      tool_calls?: Array<{index: number; id?: string; function?: {name?: string; arguments?: string}}>
    }
    finish_reason?: string | null
  }>
  usage?: WireUsage | null
  error?: unknown
}

/** Assembles a streamed answer: text deltas concatenated, tool calls merged by index. */
async function readStream(response: Response, signal: AbortSignal): Promise<ChatResponse> {
  let content = ''
  let finish: string | null = null
  let usage: WireUsage | undefined
  // A stream that never carried a completion event (an error object sent with 200, a JSON body, an empty body) is no answer.
  let completions = 0
  const calls: ChatToolCall[] = []
  const decoder = new TextDecoder()
  let buffer = ''
  const handle = (data: string) => {
    if (data === '[DONE]') return
    let chunk: StreamChunk
    try {
      chunk = JSON.parse(data) as StreamChunk
    } catch {
      throw malformed('an event that is not JSON', data)
    }
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices))
      throw malformed('an event without choices', JSON.stringify(chunk?.error ?? chunk))
    completions++
    if (chunk.usage) usage = chunk.usage
    for (const choice of chunk.choices) {
      if (choice.finish_reason) finish = choice.finish_reason
      if (choice.delta?.content) content += choice.delta.content
      for (const delta of choice.delta?.tool_calls ?? []) {
        const call = (calls[delta.index] ??= {id: '', type: 'function', function: {name: '', arguments: ''}})
        if (delta.id) call.id = delta.id
        if (delta.function?.name) call.function.name += delta.function.name
        if (delta.function?.arguments) call.function.arguments += delta.function.arguments
      }
    }
  }
  for await (const bytes of bodyChunks(response, MAX_RESPONSE_BYTES, signal)) {
    buffer += decoder.decode(bytes, {stream: true})
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      for (const line of event.split('\n')) if (line.startsWith('data:')) handle(line.slice(5).trim())
    }
  }
  // The last event may end with the body rather than a blank line.
  for (const line of buffer.split('\n')) if (line.startsWith('data:')) handle(line.slice(5).trim())
  if (completions === 0) throw malformed('no completion event', buffer)
  const toolCalls = calls.filter(Boolean)
  const message = {
    role: 'assistant' as const,
    content: content || null,
    ...(toolCalls.length ? {tool_calls: toolCalls} : {}),
  }
  return {message, usage: usageFromWire(usage), cost_usd: usage?.cost, finish_reason: finish}
}
