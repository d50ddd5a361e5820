/**
 * The OpenAI chat-completions dialect (`POST …/v1/chat/completions`): what opencode and the built-in
 * agent loop speak. Tool calls are `tool_calls` on assistant messages, their outputs `tool` messages;
 * a stream is `chat.completion.chunk` events, usage last when `stream_options.include_usage` asks.
 */
import {randomBytes} from 'node:crypto'
import {
  argumentHalves,
  sendJson,
  startEventStream,
  textPieces,
  writeEvent,
  type Dialect,
  type PromptSegment,
} from './dialect.js'
import {isObject} from '../../shared/is-object.js'

export interface ChatCompletionsRequest {
  model?: string
  messages: Array<{role: string; content?: unknown; tool_calls?: unknown[]}>
  tools?: Array<{function?: {name?: string; parameters?: unknown}}>
  stream?: boolean
  stream_options?: {include_usage?: boolean}
}

export const chatCompletions: Dialect<ChatCompletionsRequest> = {
  path: 'chat/completions',
  // Counted as the scripted models always have: every prompt token is input (the runs' figures stay comparable).
  caching: 'none',
  parse(body) {
    if (!isObject(body)) return {invalid: 'the body is not a JSON object'}
    if (body.messages !== undefined && !Array.isArray(body.messages)) return {invalid: '`messages` is not an array'}
    if (body.tools !== undefined && !Array.isArray(body.tools)) return {invalid: '`tools` is not an array'}
    return {request: {...body, messages: (body.messages ?? []) as ChatCompletionsRequest['messages']}}
  },
  view(request) {
    return {
      toolCalls: request.messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length,
      toolResults: request.messages
        .filter((m) => m.role === 'tool')
        .map((m) => (typeof m.content === 'string' ? m.content : '')),
      tools: (request.tools ?? []).map((t) => ({name: t.function?.name ?? '', parameters: t.function?.parameters})),
    }
  },
  stream: (request) => request.stream === true,
  promptSegments(request) {
    const segments: PromptSegment[] = request.messages.map((message) => ({text: JSON.stringify(message)}))
    if (request.tools?.length) segments.push({text: JSON.stringify(request.tools)})
    return segments
  },
  respond(response, request, turn, tokens) {
    const promptTokens = tokens.input + tokens.cacheRead + tokens.cacheWrite
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: tokens.output,
      total_tokens: promptTokens + tokens.output,
    }
    const id = `chatcmpl-${randomBytes(6).toString('hex')}`
    const created = Math.floor(Date.now() / 1000)
    const model = request.model ?? 'scripted'
    const finish = turn.toolCall ? 'tool_calls' : 'stop'
    const call = turn.toolCall
    if (!request.stream) {
      const toolCalls = call
        ? [{id: `call_${call.id}`, type: 'function', function: {name: call.name, arguments: call.arguments}}]
        : undefined
      const body = {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {role: 'assistant', content: turn.content, ...(toolCalls ? {tool_calls: toolCalls} : {})},
            finish_reason: finish,
          },
        ],
        usage,
      }
      return sendJson(response, 200, body)
    }
    startEventStream(response)
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      writeEvent(response, {id, object: 'chat.completion.chunk', created, model, choices, ...extra})
    chunk([{index: 0, delta: {role: 'assistant', content: ''}, finish_reason: null}])
    if (call) {
      const [first, second] = argumentHalves(call.arguments)
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              {index: 0, id: `call_${call.id}`, type: 'function', function: {name: call.name, arguments: first}},
            ],
          },
          finish_reason: null,
        },
      ])
      chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {arguments: second}}]}, finish_reason: null}])
    } else {
      for (const piece of textPieces(turn.content ?? ''))
        chunk([{index: 0, delta: {content: piece}, finish_reason: null}])
    }
    chunk([{index: 0, delta: {}, finish_reason: finish}])
    if (request.stream_options?.include_usage) chunk([], {usage})
    response.end('data: [DONE]\n\n')
  },
  errorBody: (status, message) => ({error: {message, type: status >= 500 ? 'server_error' : 'invalid_request_error'}}),
}
