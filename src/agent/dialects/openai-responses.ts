/**
 * The OpenAI Responses dialect (`POST …/v1/responses`): what Codex speaks. The conversation is a list
 * of input items: messages, `function_call`s (a namespaced tool is called with its `namespace`) and
 * their `function_call_output`s. A stream is typed events with a `sequence_number`: `response.created`,
 * an `output_item.added` … `output_item.done` run for the one output item, `response.completed` with
 * the whole response and its usage. `input_tokens` includes `input_tokens_details.cached_tokens`.
 */
import {randomBytes} from 'node:crypto'
import {
  argumentHalves,
  contentText,
  sendJson,
  startEventStream,
  textPieces,
  writeEvent,
  type ConversationView,
  type Dialect,
  type ModelTurn,
  type OfferedTool,
  type PromptSegment,
} from './dialect.js'
import {isObject} from '../../shared/is-object.js'

interface InputItem {
  type?: string
  role?: string
  output?: unknown
  call_id?: string
  name?: string
  arguments?: string
}

interface ToolDeclaration {
  type?: string
  name?: string
  parameters?: unknown
  tools?: ToolDeclaration[]
}

export interface OpenAIResponsesRequest {
  model?: string
  instructions?: string
  input: InputItem[]
  tools?: ToolDeclaration[]
  stream?: boolean
}

/** Items by which the model called a tool, and those that carry a call's output. */
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call'])
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output'])

/**
 * A header Codex frames its tools' outputs with: lines such as `Chunk ID: …`, `Wall time: …`,
 * `Process exited with code N` (or `Process running with session ID N`), `Original token count: …`, then
 * `Output:` and what the tool printed.
 */
const OUTPUT_FRAME =
  /^((?:[A-Z][\w ]*: [^\n]*\n|Process exited with code -?\d+\n|Process running with session ID \d+\n)*)Output:(?:\n|$)/

/** The frame's header of a tool output (empty when it has none). */
function frameOf(text: string): string {
  return OUTPUT_FRAME.exec(text)?.[1] ?? ''
}

/** What the tool printed: the text after the frame, or all of it when it has none. */
function printedOf(text: string): string {
  const frame = OUTPUT_FRAME.exec(text)
  return frame ? text.slice(frame[0].length) : text
}

/**
 * A framed output reduced to what the tool printed (`printed`, where a running command's polls joined
 * it), with the failure note the built-in shell tool appends when the frame gives an exit code that is
 * not 0. An output with no frame is kept as it is.
 */
export function unframedOutput(text: string, printed = printedOf(text)): string {
  const exit = /^Process exited with code (-?\d+)$/m.exec(frameOf(text))
  return exit && exit[1] !== '0' ? `${printed}\n[exit code ${exit[1]}]` : printed
}

/**
 * A tool output item's text: a string, or content parts (Codex sends an MCP tool's result so, the
 * frame's header, ending in `Output:`, a part of its own before the result's text).
 */
function rawText(output: unknown): string {
  if (!Array.isArray(output)) return contentText(output)
  const parts = output.map((part: unknown) => contentText([part]))
  const framed = parts.length > 1 && parts[0]!.endsWith('Output:')
  return framed ? `${parts[0]}\n${parts.slice(1).join('')}` : parts.join('')
}

/** Codex's exec_command answers so when the command outlives its wait: poll the session with write_stdin. */
const RUNNING = /^Process running with session ID (\d+)$/m
/** Codex's poll of a running command: empty input, waiting up to its cap. */
const POLL_TOOL = 'write_stdin'
const POLL_WAIT_MS = 30_000

/**
 * The plan's steps in the conversation: each call but the polls of a running command, and each step's
 * output, a running command's polls joined to it. A step whose command still runs has no output yet:
 * `waitFor` is the poll to make, when the request offers the poll tool.
 */
function steps(
  input: InputItem[],
  tools: OfferedTool[],
): {calls: number; results: string[]; waitFor?: ConversationView['waitFor']} {
  const polls = new Set<string>()
  let calls = 0
  for (const item of input) {
    if (!CALL_ITEMS.has(item.type ?? '')) continue
    if (item.name === POLL_TOOL && item.call_id) polls.add(item.call_id)
    else calls++
  }
  const results: string[] = []
  let running: {session: number; printed: string} | undefined
  for (const item of input) {
    if (!OUTPUT_ITEMS.has(item.type ?? '')) continue
    const raw = rawText(item.output)
    const session = RUNNING.exec(frameOf(raw))
    if (running && item.call_id && polls.has(item.call_id)) {
      running.printed += printedOf(raw)
      if (!session) {
        results.push(unframedOutput(raw, running.printed))
        running = undefined
      }
    } else if (session) running = {session: Number(session[1]), printed: printedOf(raw)}
    else results.push(unframedOutput(raw))
  }
  const poll = tools.find((tool) => tool.name === POLL_TOOL && !tool.namespace)
  return {
    calls,
    results,
    ...(running && poll
      ? {waitFor: {name: POLL_TOOL, args: {session_id: running.session, chars: '', yield_time_ms: POLL_WAIT_MS}}}
      : {}),
  }
}

/** The offered tools, a namespace's tools each under its namespace. */
function offeredTools(tools: ToolDeclaration[], namespace?: string): OfferedTool[] {
  return tools.flatMap((tool): OfferedTool[] => {
    if (tool.type === 'namespace' && typeof tool.name === 'string') return offeredTools(tool.tools ?? [], tool.name)
    if ((tool.type === 'function' || tool.type === 'custom') && typeof tool.name === 'string')
      return [{name: tool.name, parameters: tool.parameters, ...(namespace ? {namespace} : {})}]
    return []
  })
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  404: 'invalid_request_error',
  405: 'invalid_request_error',
  503: 'server_error',
}

function outputItem(turn: ModelTurn, id: string): Record<string, unknown> {
  const call = turn.toolCall
  if (call)
    return {
      type: 'function_call',
      id: `fc_${id}`,
      call_id: `call_${call.id}`,
      name: call.name,
      ...(call.namespace ? {namespace: call.namespace} : {}),
      arguments: call.arguments,
      status: 'completed',
    }
  return {
    type: 'message',
    id: `msg_${id}`,
    status: 'completed',
    role: 'assistant',
    content: [{type: 'output_text', text: turn.content ?? '', annotations: []}],
  }
}

function streamItem(event: (type: string, data: Record<string, unknown>) => void, item: Record<string, unknown>): void {
  const base = {output_index: 0, item_id: item.id}
  if (item.type === 'function_call') {
    event('response.output_item.added', {output_index: 0, item: {...item, arguments: '', status: 'in_progress'}})
    for (const delta of argumentHalves(item.arguments as string))
      event('response.function_call_arguments.delta', {...base, delta})
    event('response.function_call_arguments.done', {...base, arguments: item.arguments})
  } else {
    const part = (item.content as Array<{text: string}>)[0]!
    event('response.output_item.added', {output_index: 0, item: {...item, content: [], status: 'in_progress'}})
    event('response.content_part.added', {...base, content_index: 0, part: {...part, text: ''}})
    for (const delta of textPieces(part.text))
      event('response.output_text.delta', {...base, content_index: 0, delta, logprobs: []})
    event('response.output_text.done', {...base, content_index: 0, text: part.text, logprobs: []})
    event('response.content_part.done', {...base, content_index: 0, part})
  }
  event('response.output_item.done', {output_index: 0, item})
}

export const openaiResponses: Dialect<OpenAIResponsesRequest> = {
  path: 'responses',
  caching: 'automatic',
  parse(body) {
    if (!isObject(body)) return {invalid: 'the body is not a JSON object'}
    const input = typeof body.input === 'string' ? [{type: 'message', role: 'user', content: body.input}] : body.input
    if (!Array.isArray(input) || !input.every(isObject))
      return {invalid: "Invalid type for 'input': expected a string or a list of items"}
    if (body.tools !== undefined && !Array.isArray(body.tools))
      return {invalid: "Invalid type for 'tools': expected an array"}
    return {request: {...body, input} as unknown as OpenAIResponsesRequest}
  },
  view(request) {
    const tools = offeredTools(request.tools ?? [])
    const {calls, results, waitFor} = steps(request.input, tools)
    return {toolCalls: calls, toolResults: results, tools, ...(waitFor ? {waitFor} : {})}
  },
  stream: (request) => request.stream === true,
  promptSegments(request) {
    const segments: PromptSegment[] = (request.tools ?? []).map((tool) => ({text: JSON.stringify(tool)}))
    if (request.instructions) segments.push({text: request.instructions})
    segments.push(...request.input.map((item) => ({text: JSON.stringify(item)})))
    return segments
  },
  respond(response, request, turn, tokens) {
    const id = randomBytes(12).toString('hex')
    const promptTokens = tokens.input + tokens.cacheRead
    const usage = {
      input_tokens: promptTokens,
      input_tokens_details: {cached_tokens: tokens.cacheRead},
      output_tokens: tokens.output,
      output_tokens_details: {reasoning_tokens: 0},
      total_tokens: promptTokens + tokens.output,
    }
    const item = outputItem(turn, id)
    const body = {
      id: `resp_${id}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: request.model ?? 'scripted',
      output: [item],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      usage,
    }
    if (!request.stream) return sendJson(response, 200, body)
    startEventStream(response)
    let sequence = 0
    const event = (type: string, data: Record<string, unknown>) =>
      writeEvent(response, {type, sequence_number: sequence++, ...data}, type)
    const started = {...body, status: 'in_progress', output: [], usage: null}
    event('response.created', {response: started})
    event('response.in_progress', {response: started})
    streamItem(event, item)
    event('response.completed', {response: body})
    response.end()
  },
  errorBody: (status, message) => ({
    error: {message, type: ERROR_TYPES[status] ?? 'server_error', param: null, code: null},
  }),
}
