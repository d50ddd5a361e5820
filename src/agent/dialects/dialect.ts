/**
 * What the scripted models' one script engine sees of a request, and what a wire dialect (chat
 * completions, the Anthropic Messages API, the OpenAI Responses API) must do around it: a dialect is
 * a thin codec, the request's body to this neutral view and the engine's turn to the dialect's answer,
 * streamed or not. No dialect decides anything a script decides.
 */
import type {ServerResponse} from 'node:http'

/** A tool the request offers, whatever the dialect's way of declaring it. */
export interface OfferedTool {
  name: string
  /** The namespace the tool is called under (a Responses API `namespace` tool: Codex groups each MCP server's tools so). */
  namespace?: string
  /** The JSON Schema of its arguments, as offered. */
  parameters?: unknown
}

/** The conversation so far, as the script engine reads it. */
export interface ConversationView {
  /** Tool calls the model has made so far. */
  toolCalls: number
  /**
   * The outputs of those calls, in order. A call the runtime reports as failed ends with the note the
   * built-in tools append (`[exit code N]`, `[tool error]`), so that one rule judges every runtime's failures.
   */
  toolResults: string[]
  tools: OfferedTool[]
  /**
   * The last step's command is still running (Codex's exec_command yields a session after its wait):
   * the call that waits for it, to make before anything else. Its output joins the step's.
   */
  waitFor?: {name: string; args: Record<string, unknown>}
}

/** The engine's next assistant turn: a text, or one tool call. */
export interface ModelTurn {
  content: string | null
  toolCall?: {id: string; name: string; namespace?: string; arguments: string}
}

/**
 * A piece of the prompt, in the order the provider's prompt cache reads it: its text is what the
 * tokenizer counts, `breakpoint` marks where the request asks for a cache entry (Anthropic's `cache_control`).
 */
export interface PromptSegment {
  text: string
  breakpoint?: boolean
}

/** A turn's tokens, split as the dialects report them (each dialect writes its own fields and sums from these). */
export interface TurnUsage {
  /** Prompt tokens neither read from nor written to the prompt cache. */
  input: number
  cacheRead: number
  cacheWrite: number
  output: number
}

/**
 * How the dialect's provider caches prompts: `none` (chat completions as the scripted models have always
 * counted it: every prompt token is input), `explicit` (Anthropic: prefixes up to a `cache_control`
 * breakpoint are written, and read back by a later request), `automatic` (OpenAI: any prefix of an
 * earlier prompt of 1024 tokens or more is read back, in steps of 128 tokens).
 */
export type PromptCaching = 'none' | 'explicit' | 'automatic'

export interface Dialect<Request> {
  /** The path under the run's `/v1/` the dialect is served at. */
  path: string
  caching: PromptCaching
  /** The body as this dialect's request, or why it is not one. */
  parse(body: unknown): {request: Request} | {invalid: string}
  view(request: Request): ConversationView
  stream(request: Request): boolean
  /** The prompt's pieces in cache order: the tools, the instructions, then each message (or content block). */
  promptSegments(request: Request): PromptSegment[]
  /** Writes the turn as the dialect's answer, streamed when the request asked for it. */
  respond(response: ServerResponse, request: Request, turn: ModelTurn, usage: TurnUsage): void
  /** The dialect's error body for an HTTP status. */
  errorBody(status: number, message: string): unknown
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)})
  response.end(text)
}

export function startEventStream(response: ServerResponse): void {
  response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'})
}

/** One server-sent event carrying JSON, named (Anthropic, Responses) or not (chat completions). */
export function writeEvent(response: ServerResponse, data: unknown, event?: string): void {
  response.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
}

/** A text in the pieces a streamed answer sends it in. */
export function textPieces(text: string): string[] {
  return text.match(/[\s\S]{1,64}/g) ?? []
}

/** A tool call's JSON arguments in two deltas: a client must join partial JSON, as it must with a real model. */
export function argumentHalves(json: string): [string, string] {
  const half = Math.ceil(json.length / 2)
  return [json.slice(0, half), json.slice(half)]
}

/** The text of a tool result given as content parts (`[{type: 'text', text}]`, Anthropic and Responses alike) or as a string. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content)
  return content
    .map((part: unknown) => {
      const text = (part as {text?: unknown} | null)?.text
      return typeof text === 'string' ? text : ''
    })
    .join('')
}
