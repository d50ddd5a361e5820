/**
 * The plugin API, version 1. A plugin is an ES module whose default export is a Plugin; built-ins
 * in plugins/ are written against exactly this API and loaded the same way as npm packages.
 */

export const PLUGIN_API_VERSION = 1

/** A JSON Schema (draft 2020-12) object. */
export type JsonSchema = Record<string, unknown>

export interface ConditionResult {
  passed: boolean
  /** What the condition wanted, for people: `>= 3`, `"CLOSED"`. */
  expected: unknown
  /** The value it judged (after resolving a path). */
  actual: unknown
  /** One line a person can read: `items.length is 2, expected >= 3`. */
  message: string
}

/** A condition spec as written in a checkpoint: its type and its parameters side by side. */
export interface ConditionSpec {
  type: string
  [param: string]: unknown
}

export interface ConditionContext {
  /** Evaluates another condition (every/some/custom nest conditions). */
  evaluate(spec: ConditionSpec, actual: unknown): ConditionResult
}

export interface Condition<Params = Record<string, unknown>> {
  name: string
  description?: string
  /** JSON Schema of the parameters (every key of the spec but `type`). */
  paramsSchema: JsonSchema
  evaluate(actual: unknown, params: Params, context: ConditionContext): ConditionResult
}

export interface ToolDefinition {
  name: string
  description: string
  /** JSON Schema of the tool's arguments. */
  inputSchema: JsonSchema
}

export interface ToolResult {
  ok: boolean
  output: string
}

/** What a mode offers an agent for one run. */
export interface ModeSession {
  instructions: string
  tools: ToolDefinition[]
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>
  /** Environment of the session's processes (shell PATH, tokens), for providers that run their own tools. */
  env: Record<string, string>
  /** The run's working folder, for providers that run their own tools (opencode's bash runs there). */
  workdir?: string
  /** MCP servers the session uses, for providers that attach them themselves. */
  mcpServers?: Array<{name: string; command?: string; args?: string[]; env?: Record<string, string>; url?: string}>
  close(): Promise<void>
}

export interface ModeContext {
  options: Record<string, unknown>
  /**
   * GitHub access for the agent: REST and GraphQL URLs, token, the environment `gh` needs, and
   * `nodeEnv`, which sends a Node tool's hard-coded https://api.github.com here (empty on github.com).
   */
  github: {apiUrl: string; graphqlUrl: string; token: string; env: Record<string, string>; nodeEnv: Record<string, string>}
  workdir: string
  signal?: AbortSignal
}

export interface Availability {
  available: boolean
  /** Why not, and how to fix it ("gh not found: apt-get install gh"). */
  reason?: string
  /** Versions of the tools the arm runs (`{ghx: "0.8.0", gh: "2.23.0"}`), recorded in every row. */
  tools?: Record<string, string>
}

/**
 * The result envelope of a tool layer: what it prints and what an atomic run's final answer must be.
 * Without one, a mode's envelope is ghx's (`{"ok":true,"data":…}` / `{"ok":false,"error":{code,message}}`).
 */
export interface EnvelopeContract {
  /** JSON Schema (draft 2020-12) the envelope must satisfy; it keeps the names ok, data, error, meta. */
  schema?: JsonSchema
  /** The layer reports the route it took in meta.route_used: `expected_route_used` applies to it. */
  reportsRoutes?: boolean
}

export interface Mode {
  name: string
  description?: string
  optionsSchema: JsonSchema
  /** The envelope this mode's tool layer prints; the default is ghx's. */
  envelope?: EnvelopeContract
  available(context: ModeContext): Promise<Availability>
  open(context: ModeContext): Promise<ModeSession>
}

export interface Usage {
  input: number
  output: number
  reasoning: number
  cache_read: number
  cache_write: number
}

export interface ProviderToolCall {
  tool: string
  args: Record<string, unknown>
  output: string
  ok: boolean
  ms: number
}

export interface ProviderTurn {
  usage: Usage
  tool_calls: ProviderToolCall[]
  started_at: string
  ms: number
  text?: string
}

export interface ProviderTrace {
  turns: ProviderTurn[]
  final_text: string
  /** final: the model answered; max_turns / max_tokens: a limit ended it; aborted: the signal did. */
  stop_reason: 'final' | 'max_turns' | 'max_tokens' | 'aborted'
  /** The messages of the session as the provider kept them (for the trace file). */
  messages?: unknown[]
  /** Cost the model reported; the runner prices the usage when absent. */
  cost_usd?: number
}

/**
 * Thrown by a provider when the run could not proceed for a reason outside the agent (model 5xx,
 * network): the runner retries these. `trace` keeps what happened before the failure.
 */
export class InfrastructureError extends Error {
  constructor(
    message: string,
    readonly trace?: ProviderTrace,
  ) {
    super(message)
    this.name = 'InfrastructureError'
  }
}

/** The model endpoint a provider talks to: an OpenAI-compatible chat-completions API. */
export interface ModelEndpoint {
  /** The model id sent in requests (`gpt-4.1`, `oracle`). */
  id: string
  /** Base URL of the API, ending before `/chat/completions` (`https://api.openai.com/v1`). */
  baseUrl: string
  apiKey?: string
}

/** Reported by a provider as it goes: the runner's stall watchdog and progress view listen. */
export type ProviderProgress = {kind: 'turn'; usage: Usage} | {kind: 'tool'; tool: string}

export interface ProviderRunInput {
  prompt: string
  session: ModeSession
  model: ModelEndpoint
  options: Record<string, unknown>
  limits: {timeout_ms: number; max_turns?: number; max_tokens?: number}
  /** Aborted on timeout, stall or Ctrl-C: the provider cancels its model request and tool calls. */
  signal: AbortSignal
  onProgress?: (event: ProviderProgress) => void
}

export interface Provider {
  name: string
  description?: string
  optionsSchema: JsonSchema
  /** Asked once per suite, before any run: say why not and how to fix it (an agent runtime not installed). */
  available?(options: Record<string, unknown>): Promise<Availability>
  run(input: ProviderRunInput): Promise<ProviderTrace>
}

export interface Plugin {
  apiVersion: typeof PLUGIN_API_VERSION
  name: string
  version: string
  modes?: Mode[]
  providers?: Provider[]
  conditions?: Condition<any>[] // eslint-disable-line @typescript-eslint/no-explicit-any -- params differ per condition
}

/** Identity at run time, typed at compile time: `export default definePlugin({...})`. */
export function definePlugin<P extends Plugin>(plugin: P): P {
  return plugin
}
