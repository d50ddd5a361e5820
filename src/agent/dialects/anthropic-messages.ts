/**
 * The Anthropic Messages dialect (`POST …/v1/messages`, Claude Code adds `?beta=true`): tool calls
 * are `tool_use` content blocks of assistant messages, their outputs `tool_result` blocks of the next
 * user message (`is_error` when the runtime says the call failed). A stream is `message_start`, a
 * `content_block_start`/`_delta`/`_stop` run per block, `message_delta` (stop reason, final usage),
 * `message_stop`. Usage splits the prompt into `input_tokens`, `cache_read_input_tokens` and
 * `cache_creation_input_tokens` (the prefixes up to a `cache_control` breakpoint), none counted twice.
 */
import {randomBytes} from 'node:crypto'
import {
  argumentHalves,
  contentText,
  sendJson,
  startEventStream,
  textPieces,
  writeEvent,
  type Dialect,
  type OfferedTool,
  type PromptSegment,
} from './dialect.js'
import {isObject} from '../../shared/is-object.js'

interface ContentBlock {
  type?: string
  text?: string
  content?: unknown
  is_error?: boolean
  cache_control?: unknown
}

export interface AnthropicMessagesRequest {
  model?: string
  system?: string | ContentBlock[]
  messages: Array<{role: string; content: string | ContentBlock[]}>
  tools?: Array<{name?: string; input_schema?: unknown; cache_control?: unknown; defer_loading?: boolean}>
  stream?: boolean
}

const blocksOf = (content: string | ContentBlock[]): ContentBlock[] =>
  typeof content === 'string' ? [{type: 'text', text: content}] : content

/**
 * A tool_result as the built-in tools write a call's output: a failed one ends with their failure
 * note, `[exit code N]` for a shell command (Claude Code's Bash starts a failed call's output with
 * `Exit code N`), else `[tool error]`.
 */
function toolResultText(block: ContentBlock): string {
  const text = contentText(block.content)
  if (!block.is_error) return text
  const exit = /^Exit code (-?\d+)\n?/.exec(text)
  return exit ? `${text.slice(exit[0].length)}\n[exit code ${exit[1]}]` : `${text}\n[tool error]`
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
}

export const anthropicMessages: Dialect<AnthropicMessagesRequest> = {
  path: 'messages',
  caching: 'explicit',
  parse(body) {
    if (!isObject(body)) return {invalid: 'the body is not a JSON object'}
    if (!Array.isArray(body.messages)) return {invalid: 'messages: Field required'}
    const wellFormed = body.messages.every(
      (m: unknown) =>
        isObject(m) && typeof m.role === 'string' && (typeof m.content === 'string' || Array.isArray(m.content)),
    )
    if (!wellFormed)
      return {invalid: 'messages: each message needs a role and a content (a string or a list of blocks)'}
    if (body.tools !== undefined && !Array.isArray(body.tools)) return {invalid: 'tools: Input should be a valid list'}
    return {request: body as unknown as AnthropicMessagesRequest}
  },
  view(request) {
    const blocks = (role: string) => request.messages.filter((m) => m.role === role).flatMap((m) => blocksOf(m.content))
    const tools: OfferedTool[] = (request.tools ?? [])
      .filter((t) => typeof t.name === 'string')
      .map((t) => ({name: t.name!, parameters: t.input_schema}))
    return {
      toolCalls: blocks('assistant').filter((b) => b.type === 'tool_use').length,
      toolResults: blocks('user')
        .filter((b) => b.type === 'tool_result')
        .map(toolResultText),
      tools,
    }
  },
  stream: (request) => request.stream === true,
  promptSegments(request) {
    // The cache reads tools, then the system prompt, then the messages, a block at a time. A block is
    // the same content wherever the breakpoint moved to: `cache_control` is not part of it.
    const segment = ({cache_control: mark, ...content}: {cache_control?: unknown}, role?: string): PromptSegment => ({
      text: JSON.stringify(role === undefined ? content : {role, ...content}),
      breakpoint: mark !== undefined && mark !== null,
    })
    // A tool with `defer_loading` is not in the context until a tool search loads it.
    const segments = (request.tools ?? []).filter((tool) => tool.defer_loading !== true).map((tool) => segment(tool))
    if (request.system !== undefined) segments.push(...blocksOf(request.system).map((block) => segment(block)))
    for (const message of request.messages)
      segments.push(...blocksOf(message.content).map((block) => segment(block, message.role)))
    return segments
  },
  respond(response, request, turn, tokens) {
    const prompt = {
      input_tokens: tokens.input,
      cache_creation_input_tokens: tokens.cacheWrite,
      cache_read_input_tokens: tokens.cacheRead,
    }
    const call = turn.toolCall
    const content = call
      ? [{type: 'tool_use', id: `toolu_${call.id}`, name: call.name, input: JSON.parse(call.arguments) as unknown}]
      : [{type: 'text', text: turn.content ?? ''}]
    const message = {
      id: `msg_${randomBytes(12).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model: request.model ?? 'scripted',
    }
    const stopReason = call ? 'tool_use' : 'end_turn'
    if (!request.stream)
      return sendJson(response, 200, {
        ...message,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: {...prompt, output_tokens: tokens.output},
      })
    startEventStream(response)
    const event = (type: string, data: Record<string, unknown> = {}) => writeEvent(response, {type, ...data}, type)
    // message_start carries the usage known before any output; message_delta carries the final one.
    event('message_start', {
      message: {...message, content: [], stop_reason: null, stop_sequence: null, usage: {...prompt, output_tokens: 0}},
    })
    event('ping')
    if (call) {
      event('content_block_start', {
        index: 0,
        content_block: {type: 'tool_use', id: `toolu_${call.id}`, name: call.name, input: {}},
      })
      for (const part of argumentHalves(call.arguments))
        event('content_block_delta', {index: 0, delta: {type: 'input_json_delta', partial_json: part}})
    } else {
      event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}})
      for (const piece of textPieces(turn.content ?? ''))
        event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: piece}})
    }
    event('content_block_stop', {index: 0})
    event('message_delta', {
      delta: {stop_reason: stopReason, stop_sequence: null},
      usage: {...prompt, output_tokens: tokens.output},
    })
    event('message_stop')
    response.end()
  },
  errorBody: (status, message) => ({type: 'error', error: {type: ERROR_TYPES[status] ?? 'api_error', message}}),
}
