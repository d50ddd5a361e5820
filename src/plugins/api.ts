/**
 * The plugin API, version 1. A plugin is an ES module whose default export is a Plugin; built-ins
 * in plugins/ are written against exactly this API (they import only `ghx-bench` and
 * `ghx-bench/plugin-kit`) and loaded the same way as npm packages.
 */
import type {Octokit} from '@octokit/rest'
import {PACKAGE_ROOT, RUNNING_FROM_SOURCE} from '../shared/package-paths.js'

export const PLUGIN_API_VERSION = 1

/**
 * One package, one copy. A plugin imports `ghx-bench` by name; from source that name must resolve to
 * src/ (the `ghx-bench-source` export condition, which bin/dev.js and .mocharc.yml turn on), else it
 * resolves to dist/ and every class and registry of the core exists twice. Two copies from two
 * installs (a global CLI, a project's own ghx-bench) are tolerated: errors are branded, not classes.
 */
const LOADED_COPIES: unique symbol = Symbol.for('ghx-bench.loaded-copies')
const copies = ((globalThis as {[LOADED_COPIES]?: Map<string, string>})[LOADED_COPIES] ??= new Map<string, string>())
const thisCopy = RUNNING_FROM_SOURCE ? 'source (src/)' : 'build (dist/)'
const otherCopy = copies.get(PACKAGE_ROOT)
if (otherCopy !== undefined && otherCopy !== thisCopy) {
  throw new Error(
    `ghx-bench at ${PACKAGE_ROOT} is loaded twice, from its ${otherCopy} and its ${thisCopy}: run it from source with the export condition ` +
      '`node --conditions=ghx-bench-source --import tsx` (bin/dev.js and .mocharc.yml do), or build it (npm run build) and run bin/run.js',
  )
}
copies.set(PACKAGE_ROOT, thisCopy)

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
  github: {
    apiUrl: string
    graphqlUrl: string
    token: string
    env: Record<string, string>
    nodeEnv: Record<string, string>
  }
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

/** One command of a tool layer, as the agent wrote it in a shell call. */
export interface LayerCommand {
  /** The executable, one of the layer's `programs` (`ghx`). */
  program: string
  /** Its arguments: quotes and escapes removed, expansions ($x, $(…)) as written. */
  args: string[]
  /** What it reads from a here-document (`<<EOF`) or here-string (`<<<`), when it does. */
  stdin?: string
}

/** What a tool layer ran in one shell call, read from its commands there and the call's output. */
export interface LayerCallAccount {
  /** The canonical operations the commands ran, one entry per execution (issue.view, issue.labels.add). */
  operations: string[]
  /** Executions by the route the layer reports it took (cli, graphql, rest); `unknown` where it does not say. */
  routes?: Record<string, number>
  /** The route the last of these executions that reports one took (ghx --verbose: meta.route_used). */
  lastRoute?: string
  /** Attempts the layer made and retried internally before an answer. */
  retries?: number
  /** The layer reported a failure although the command exited 0 (ghx prints `{"ok": false, …}`). */
  failed?: boolean
}

/** What a tool layer's own log of a run says (see ToolLayerAccounting.readLog). */
export interface LayerLogAccount {
  /** The layer's executions in the run by the route its log names (cli, graphql, rest); `unknown` for one whose line names none. */
  routes: Record<string, number>
  /** The route of the run's last layer command as the log names it (what its envelope's meta.route_used says); null when no line names one. */
  lastRoute: string | null
}

/**
 * How the runner counts a tool layer that the agent runs in its shell. ghx-bench reads every shell
 * call with its own shell reader and counts `gh` and GitHub MCP tools itself; the commands of a mode's
 * `programs` are handed to `account`, with the call's output, to say what they ran. Without this hook,
 * a mode's shell calls count as gh_cli (when they run gh) or shell.
 *
 * The layer is the mode's own tool: a call that ran one of its `programs` and failed, followed by a
 * call that ran another tool (gh) and succeeded, is a fallback (the row's `fallback`).
 */
export interface ToolLayerAccounting {
  /** The layer's executables as the agent runs them (`['ghx']`); not `gh`, which ghx-bench counts itself. */
  programs: string[]
  /** The tool_calls.by_category of a shell call that ran one of them (`ghx_capability`). */
  category: string
  /** Must not throw: a layer whose output cannot be read counts its executions under the route `unknown`. */
  account(commands: LayerCommand[], output: string): LayerCallAccount
  /**
   * Reads the layer's own log of the run: the text of the files the layer wrote in the run's
   * `layerLogDir(workdir)` (plugin-kit), where the mode's session points the layer's log (ghx:
   * GHX_LOG_DIR), read once the agent is done. Where it names executions, the row's by_route counts
   * them from it (written executions it does not cover stay `unknown`) and its lastRoute is the row's
   * route_used when the final answer's envelope names none; without a log, the envelopes `account`
   * read decide. Must not throw (a log that cannot be read counts as none).
   */
  readLog?(text: string): LayerLogAccount
}

export interface Mode {
  name: string
  description?: string
  optionsSchema: JsonSchema
  /** The envelope this mode's tool layer prints; the default is ghx's. */
  envelope?: EnvelopeContract
  /** How the runner counts the tool layer this mode's agent runs in its shell (see ToolLayerAccounting). */
  accounting?: ToolLayerAccounting
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
  /**
   * The agent runtime the provider drove (a CLI), for the row's versions and the trace: its name, its
   * version, and the tools it offered the model, by name, when it says.
   */
  runtime?: {name: string; version: string | null; tools?: string[]}
}

/** The brand of an infrastructure error: a registered symbol, the same in every copy of ghx-bench. */
const INFRASTRUCTURE: unique symbol = Symbol.for('ghx-bench.InfrastructureError')

/**
 * Thrown by a provider (or a mode) when the run could not proceed for a reason outside the agent
 * (model 5xx, network): the runner retries these. `trace` keeps what happened before the failure.
 * It is recognised by its brand, not its class or name, so `instanceof InfrastructureError` holds for
 * one thrown by a plugin that resolved another copy of ghx-bench.
 */
export class InfrastructureError extends Error {
  constructor(
    message: string,
    readonly trace?: ProviderTrace,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'InfrastructureError'
  }

  get [INFRASTRUCTURE](): true {
    return true
  }

  /** `error instanceof InfrastructureError` is the brand test; subclasses keep the ordinary prototype test. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === InfrastructureError
      ? isInfrastructureError(value)
      : Function.prototype[Symbol.hasInstance].call(this, value)
  }
}

/**
 * An error the runner retries: an InfrastructureError of any copy of ghx-bench, or any error that says
 * `infrastructure: true` (for a plugin that throws without importing ghx-bench).
 */
export function isInfrastructureError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const marked = error as {[INFRASTRUCTURE]?: unknown; infrastructure?: unknown}
  return marked[INFRASTRUCTURE] === true || marked.infrastructure === true
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

/** The GitHub client a read task gets: ghx-bench's own Octokit (retries, rate limits), never the tool layer under test. */
export type GithubClient = Octokit

/**
 * A checkpoint read task: what a checkpoint reads from GitHub after a run (`task: NAME`, `input:
 * {…}`), judged by its condition. Read only: it must not change GitHub.
 */
export interface ReadTask<Params = Record<string, unknown>> {
  /** What scenarios name it by: lower-case dotted words (`issue.view`, `acme.deployments.list`). */
  name: string
  description?: string
  /** JSON Schema of the parameters: a checkpoint's `input`, placeholders filled. */
  paramsSchema: JsonSchema
  /** For the documentation: `list` tasks return an array of `shape`, `object` tasks one `shape` (or null). */
  kind?: 'list' | 'object'
  /** Field -> what it holds, of each element (list) or of the object. */
  shape?: Record<string, string>
  run(github: GithubClient, params: Params): Promise<unknown>
}

export interface Plugin {
  apiVersion: typeof PLUGIN_API_VERSION
  name: string
  version: string
  modes?: Mode[]
  providers?: Provider[]
  conditions?: Condition<any>[] // eslint-disable-line @typescript-eslint/no-explicit-any -- params differ per condition
  readTasks?: ReadTask<any>[] // eslint-disable-line @typescript-eslint/no-explicit-any -- params differ per task
}

/** Identity at run time, typed at compile time: `export default definePlugin({...})`. */
export function definePlugin<P extends Plugin>(plugin: P): P {
  return plugin
}
