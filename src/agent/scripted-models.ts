/**
 * The scripted models `oracle`, `noop` and the adversaries (scripted-model-names.ts): an OpenAI-compatible chat-completions endpoint on loopback,
 * streamed and not. Each run registers a script and gets its own base URL (…/r/<key>/v1), so any
 * provider that speaks the protocol can drive it. The oracle plays the script's reference plan, one
 * tool call per turn, then a final answer built from what the tools returned; noop answers at once
 * with no tool call; an adversary plays the steps and answer the runner made for it (src/runner/adversaries.ts). Usage is counted with a real tokenizer (o200k) over the messages and tool
 * schemas received, so token figures are the true context cost of that plan in that mode.
 */
import {randomBytes} from 'node:crypto'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {countTokens} from 'gpt-tokenizer'
import type {Random} from '../stats/random.js'
import {envelopeFailure, envelopesIn} from '../verify/envelope.js'
import {SCRIPTED_MODELS, type ScriptedModelName} from './scripted-model-names.js'


export interface ScriptStep {
  tool: string
  args: Record<string, unknown>
  /** The plan expects this step may fail (a probe); any other failed step fails the plan. */
  allow_failure?: boolean
}

export interface Script {
  model: ScriptedModelName
  /** The reference plan with its placeholders already filled; absent when the mode has none. */
  steps: ScriptStep[] | null
  /**
   * How the final answer is built. `envelope`: the result envelope of an atomic scenario, data from
   * `answer` (a template over tool outputs) or the last tool output; `text`: a workflow's report of
   * what was done, `answer` when the plan gives one (a text with `$out` references in it, for a task
   * that asks for findings), else a count of the steps; `fixed`: this text, whatever the tools said
   * (an adversary's answer).
   */
  final: {kind: 'envelope'; answer?: unknown} | {kind: 'text'; answer?: unknown} | {kind: 'fixed'; text: string}
}

/** How far the oracle got with its plan: the runner fails a run whose plan did not go through. */
export interface PlanOutcome {
  /** Tool steps played so far. */
  played: number
  /** The first step that failed without `allow_failure`, or why the plan could not be played. */
  failure: {step: number; tool: string; message: string} | null
}

export interface ScriptedModels {
  url: string
  /** Registers a run's script; returns the base URL to give the provider (…/v1). */
  register(script: Script, faults?: ModelFaults): {baseUrl: string; release: () => void; outcome: () => PlanOutcome; injectedFaults: () => number}
  close(): Promise<void>
}

/** Injected faults of a run's model traffic (reliability tests of the provider's retry path): a seeded stream shared by a suite's runs. */
export interface ModelFaults {
  /** Share of requests answered 503. */
  rate: number
  random: Random
}

interface WireMessage {
  role: string
  content?: string | null
  tool_calls?: Array<{id: string; function: {name: string; arguments: string}}>
}

interface WireRequest {
  model?: string
  messages?: WireMessage[]
  tools?: Array<{function?: {name?: string}}>
  stream?: boolean
  stream_options?: {include_usage?: boolean}
}

/** Notes the built-in tools append to a failed call's output: a shell exit code, an abort, any other tool error. */
const FAILURE_NOTE = /\n?\[(exit code [^\]]+|aborted|tool error)\]\s*$/

/** A tool output without its failure note, and why the call failed (null when it did not). */
export function toolOutcome(content: string): {text: string; failure: string | null} {
  const note = FAILURE_NOTE.exec(content)
  const text = note ? content.slice(0, note.index) : content
  if (note) return {text, failure: `${text.trim().split('\n').find((line) => line.trim()) ?? note[1]} [${note[1]}]`}
  // A tool layer that exits 0 and reports the failure in its envelope (ghx prints {"ok":false,…}).
  const failed = envelopesIn(text).map(envelopeFailure).find((f) => f !== null)
  return {text, failure: failed ?? null}
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The tools' outputs without their failure notes, parsed where they are JSON. */
function outputsOf(toolContents: string[]): unknown[] {
  return toolContents.map((content) => {
    const {text} = toolOutcome(content)
    return parseJson(text) ?? text
  })
}

/** `$out` (last output), `$out2` (the second), followed by `.field` and `[0]` steps. */
const OUTPUT_REF_TEXT = '\\$out(\\d*)((?:\\.[A-Za-z_][\\w-]*|\\[\\d+\\])*)'
const OUTPUT_REF = new RegExp(`^${OUTPUT_REF_TEXT}$`)
const OUTPUT_REFS = new RegExp(OUTPUT_REF_TEXT, 'g')

function outputAt(outputs: unknown[], which: string, path: string): unknown {
  let value: unknown = which ? outputs[Number(which) - 1] : outputs.at(-1)
  for (const [, key, index] of path.matchAll(/\.([A-Za-z_][\w-]*)|\[(\d+)\]/g)) {
    if (value === null || typeof value !== 'object') return null
    value = (value as Record<string, unknown>)[key ?? Number(index)]
  }
  return value ?? null
}

/** A template over tool outputs: a string that is one reference takes its value; references inside a longer text are written in (objects as JSON). */
function resolveOutputs(template: unknown, outputs: unknown[]): unknown {
  if (typeof template === 'string') {
    const match = OUTPUT_REF.exec(template)
    if (match) return outputAt(outputs, match[1]!, match[2]!)
    return template.replace(OUTPUT_REFS, (_, which: string, path: string) => {
      const value = outputAt(outputs, which, path)
      return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)
    })
  }
  if (Array.isArray(template)) return template.map((item) => resolveOutputs(item, outputs))
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, resolveOutputs(v, outputs)]))
  return template
}

function errorCode(text: string): string {
  if (/HTTP 404|Not Found|Could not resolve/i.test(text)) return 'NOT_FOUND'
  if (/HTTP 40[13]|Bad credentials|forbidden/i.test(text)) return 'AUTH'
  if (/HTTP 422|Validation Failed/i.test(text)) return 'VALIDATION'
  if (/HTTP 5\d\d|Server Error|Service Unavailable/i.test(text)) return 'SERVER'
  return 'UNKNOWN'
}

/**
 * Where the plan stands after these tool results: how many steps were played and the first one that
 * failed without being allowed to. A failure is a non-zero exit, an abort, a tool error (MCP isError)
 * or an `ok: false` envelope; nothing later can turn it into a success.
 */
export function planOutcome(script: Script, toolContents: string[]): PlanOutcome {
  if (script.model !== 'oracle') return {played: toolContents.length, failure: null}
  if (!script.steps) return {played: 0, failure: {step: 0, tool: '', message: 'the scenario has no reference plan for this mode'}}
  for (const [index, content] of toolContents.entries()) {
    const step = script.steps[index]
    const {failure} = toolOutcome(content)
    if (failure && !step?.allow_failure) return {played: toolContents.length, failure: {step: index + 1, tool: step?.tool ?? '?', message: failure}}
  }
  return {played: toolContents.length, failure: null}
}

/** The oracle's final answer once its plan has run, or stopped at a failed step. */
export function finalAnswer(script: Script, toolContents: string[]): string {
  if (script.model === 'noop') return 'I did not do anything.'
  if (script.final.kind === 'fixed') return script.final.text
  const {failure} = planOutcome(script, toolContents)
  if (script.final.kind === 'text') {
    if (failure) return `Stopped: step ${failure.step} (${failure.tool}) failed: ${failure.message}`
    if (script.final.answer === undefined) return `Done: ${toolContents.length} step(s) completed.`
    return String(resolveOutputs(script.final.answer, outputsOf(toolContents)))
  }
  if (failure || toolContents.length === 0) {
    const message = failure?.message ?? 'no tool call was made'
    return JSON.stringify({ok: false, error: {code: errorCode(message), message}})
  }
  const outputs = outputsOf(toolContents)
  // A tool layer that answers with the envelope itself (ghx): hand it on as it is, or keep its meta.
  const lastOutput = outputs.at(-1)
  const envelope = isEnvelope(lastOutput) ? lastOutput : undefined
  if (envelope && script.final.answer === undefined) return JSON.stringify(envelope)
  const data = script.final.answer === undefined ? outputs.at(-1) : resolveOutputs(script.final.answer, outputs)
  return JSON.stringify({ok: true, data, ...(envelope?.meta ? {meta: envelope.meta} : {})})
}

function isEnvelope(value: unknown): value is {ok: boolean; meta?: Record<string, unknown>} {
  return value !== null && typeof value === 'object' && typeof (value as {ok?: unknown}).ok === 'boolean' && ('data' in value || 'error' in value)
}

/**
 * The offered tool that stands for a plan's tool: the same name; or, in runtimes that name tools
 * their own way (opencode), `bash` for the shell tool and `<server>_<tool>` for an MCP tool.
 */
function offeredTool(step: ScriptStep, offered: string[]): ScriptStep | undefined {
  if (offered.includes(step.tool)) return step
  if (step.tool === 'shell' && offered.includes('bash')) return {tool: 'bash', args: {...step.args, description: 'Run a command'}}
  const prefixed = offered.find((name) => name.endsWith(`_${step.tool}`))
  return prefixed ? {tool: prefixed, args: step.args} : undefined
}

/** The next assistant message of a script, given the conversation so far. */
export function nextMessage(script: Script, messages: WireMessage[], offeredTools: string[]): {content: string | null; toolCall?: {id: string; name: string; arguments: string}} {
  // A request offering no tools at all is a runtime's side request (opencode titles its sessions).
  if (offeredTools.length === 0) return {content: 'ghx-bench run'}
  const played = messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length
  const toolContents = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '')
  // A competent agent stops at a step that failed: it does not play on as if it had worked.
  const stopped = planOutcome(script, toolContents).failure !== null
  // The oracle and the adversaries that act (wrong_target, read_only) play their steps; noop plays none.
  const planned = script.model !== 'noop' && !stopped ? script.steps?.[played] : undefined
  const step = planned && offeredTool(planned, offeredTools)
  if (step) {
    return {content: null, toolCall: {id: `call_${played + 1}_${randomBytes(4).toString('hex')}`, name: step.tool, arguments: JSON.stringify(step.args)}}
  }
  if (planned) return {content: `I cannot continue: this session offers no tool "${planned.tool}".`}
  return {content: finalAnswer(script, toolContents)}
}

/** The plan's outcome once this answer is given: a final answer before the last step means the plan was cut short. */
function outcomeAfter(script: Script, messages: WireMessage[], next: {toolCall?: unknown}): PlanOutcome {
  const outcome = planOutcome(script, messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''))
  const steps = script.steps ?? []
  if (script.model !== 'oracle' || outcome.failure || next.toolCall || outcome.played >= steps.length) return outcome
  const step = steps[outcome.played]!
  return {...outcome, failure: {step: outcome.played + 1, tool: step.tool, message: `not played: the session offers no tool "${step.tool}"`}}
}

const tokenCache = new Map<string, number>()

/** Tokens of one text, remembered: each turn re-sends the conversation so far and the same tools. */
export function cachedTokens(text: string): number {
  let count = tokenCache.get(text)
  if (count === undefined) {
    count = countTokens(text)
    if (tokenCache.size >= 10_000) tokenCache.delete(tokenCache.keys().next().value!)
    tokenCache.set(text, count)
  }
  return count
}

/**
 * What a request costs in prompt tokens: each message and the tool definitions, as JSON, through the
 * o200k tokenizer. Counted message by message so that a turn only tokenizes what is new in it.
 */
export function promptTokenCount(messages: readonly unknown[], tools: readonly unknown[] | undefined): number {
  return messages.reduce<number>((sum, message) => sum + cachedTokens(JSON.stringify(message)), 0) + (tools?.length ? cachedTokens(JSON.stringify(tools)) : 0)
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)})
  response.end(text)
}

export async function startScriptedModels(): Promise<ScriptedModels> {
  const scripts = new Map<string, {script: Script; faults?: ModelFaults}>()
  const outcomes = new Map<string, PlanOutcome>()
  /** Faults injected into each run's model traffic. */
  const injected = new Map<string, number>()

  const complete = (key: string, script: Script, request: WireRequest, response: ServerResponse) => {
    const messages = request.messages ?? []
    const offered = (request.tools ?? []).map((t) => t.function?.name ?? '')
    const next = nextMessage(script, messages, offered)
    if (offered.length > 0) outcomes.set(key, outcomeAfter(script, messages, next))
    // The true context cost: every message and every tool schema the model was sent.
    const promptTokens = promptTokenCount(messages, request.tools)
    const completionTokens = countTokens(next.content ?? '') + (next.toolCall ? countTokens(next.toolCall.name + next.toolCall.arguments) : 0)
    const usage = {prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens}
    const id = `chatcmpl-${randomBytes(6).toString('hex')}`
    const created = Math.floor(Date.now() / 1000)
    const model = request.model ?? script.model
    const finish = next.toolCall ? 'tool_calls' : 'stop'
    const toolCalls = next.toolCall ? [{id: next.toolCall.id, type: 'function', function: {name: next.toolCall.name, arguments: next.toolCall.arguments}}] : undefined
    if (!request.stream) {
      return sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{index: 0, message: {role: 'assistant', content: next.content, ...(toolCalls ? {tool_calls: toolCalls} : {})}, finish_reason: finish}],
        usage,
      })
    }
    response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'})
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      response.write(`data: ${JSON.stringify({id, object: 'chat.completion.chunk', created, model, choices, ...extra})}\n\n`)
    chunk([{index: 0, delta: {role: 'assistant', content: ''}, finish_reason: null}])
    if (next.toolCall) {
      const args = next.toolCall.arguments
      const half = Math.ceil(args.length / 2)
      chunk([{index: 0, delta: {tool_calls: [{index: 0, id: next.toolCall.id, type: 'function', function: {name: next.toolCall.name, arguments: args.slice(0, half)}}]}, finish_reason: null}])
      chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {arguments: args.slice(half)}}]}, finish_reason: null}])
    } else {
      for (const piece of (next.content ?? '').match(/[\s\S]{1,64}/g) ?? []) chunk([{index: 0, delta: {content: piece}, finish_reason: null}])
    }
    chunk([{index: 0, delta: {}, finish_reason: finish}])
    if (request.stream_options?.include_usage) chunk([], {usage})
    response.end('data: [DONE]\n\n')
  }

  const server = createServer((request, response) => {
    const match = /^\/r\/([a-f0-9]+)\/v1\/(chat\/completions|models)$/.exec(request.url ?? '')
    const registered = match ? scripts.get(match[1]!) : undefined
    if (!match || !registered) return sendJson(response, 404, {error: {message: `no scripted run at ${request.url}`, type: 'invalid_request_error'}})
    if (match[2] === 'models') return sendJson(response, 200, {object: 'list', data: SCRIPTED_MODELS.map((id) => ({id, object: 'model', owned_by: 'ghx-bench'}))})
    if (request.method !== 'POST') return sendJson(response, 405, {error: {message: 'POST only', type: 'invalid_request_error'}})
    readBody(request).then(
      (text) => {
        const {script, faults} = registered
        if (faults && faults.random() < faults.rate) {
          injected.set(match[1]!, (injected.get(match[1]!) ?? 0) + 1)
          return sendJson(response, 503, {error: {message: 'injected fault', type: 'server_error'}})
        }
        let body: WireRequest
        try {
          body = JSON.parse(text) as WireRequest
        } catch {
          return sendJson(response, 400, {error: {message: 'body is not JSON', type: 'invalid_request_error'}})
        }
        complete(match[1]!, script, body, response)
      },
      () => sendJson(response, 400, {error: {message: 'could not read the body', type: 'invalid_request_error'}}),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    register(script, faults) {
      const key = randomBytes(8).toString('hex')
      scripts.set(key, {script, faults})
      return {
        baseUrl: `${url}/r/${key}/v1`,
        release: () => {
          scripts.delete(key)
          outcomes.delete(key)
          injected.delete(key)
        },
        outcome: () => outcomes.get(key) ?? planOutcome(script, []),
        injectedFaults: () => injected.get(key) ?? 0,
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
