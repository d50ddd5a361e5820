/**
 * The scripted models `oracle`, `noop` and the adversaries (scripted-model-names.ts) on loopback, in
 * three wire dialects (./dialects/): chat completions, the Anthropic Messages API and the OpenAI
 * Responses API, streamed and not. Each run registers a script and gets its own base URL (…/r/<key>/v1),
 * so any runtime that speaks one of them can drive it. One engine plays every dialect: the oracle plays
 * the script's reference plan, one tool call per turn, each step on the tool the request offers for it,
 * then a final answer built from what the tools returned; noop answers at once with no tool call; an
 * adversary plays the steps and answer the runner made for it (src/runner/adversaries.ts). Usage is
 * counted with a real tokenizer (o200k) over the messages and tool schemas received, split as each
 * dialect reports it, so token figures are the true context cost of that plan in that mode.
 */
import {createHash, randomBytes} from 'node:crypto'
import {appendFileSync} from 'node:fs'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {countTokens} from 'gpt-tokenizer'
import type {Random} from '../stats/random.js'
import {envelopeFailure, envelopesIn} from '../verify/envelope.js'
import {anthropicMessages} from './dialects/anthropic-messages.js'
import {chatCompletions, type ChatCompletionsRequest} from './dialects/chat-completions.js'
import {
  sendJson,
  type ConversationView,
  type Dialect,
  type ModelTurn,
  type OfferedTool,
  type TurnUsage,
} from './dialects/dialect.js'
import {openaiResponses} from './dialects/openai-responses.js'
import {PromptCache} from './dialects/prompt-cache.js'
import {SCRIPTED_MODELS, type ScriptedModelName} from './scripted-model-names.js'
import {offeredCall, type ScriptStep} from './scripted-models-tools.js'

export type {ScriptStep}

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
  register(
    script: Script,
    faults?: ModelFaults,
  ): {baseUrl: string; release: () => void; outcome: () => PlanOutcome; injectedFaults: () => number}
  close(): Promise<void>
}

/** Injected faults of a run's model traffic (reliability tests of the provider's retry path): a seeded stream shared by a suite's runs. */
export interface ModelFaults {
  /** Share of requests answered 503. */
  rate: number
  random: Random
}

/** Notes the built-in tools append to a failed call's output: a shell exit code, an abort, any other tool error. */
const FAILURE_NOTE = /\n?\[(exit code [^\]]+|aborted|tool error)\]\s*$/

/** A tool output without its failure note, and why the call failed (null when it did not). */
function toolOutcome(content: string): {text: string; failure: string | null} {
  const note = FAILURE_NOTE.exec(content)
  const text = note ? content.slice(0, note.index) : content
  if (note)
    return {
      text,
      failure: `${
        text
          .trim()
          .split('\n')
          .find((line) => line.trim()) ?? note[1]
      } [${note[1]}]`,
    }
  // A tool layer that exits 0 and reports the failure in its envelope (ghx prints {"ok":false,…}).
  const failed = envelopesIn(text)
    .map(envelopeFailure)
    .find((f) => f !== null)
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

/**
 * A template over tool outputs: a string that is one reference takes its value; references inside a longer text
 * are written in (objects as JSON); in a list, `"...$out2"` spreads that output's list in.
 */
function resolveOutputs(template: unknown, outputs: unknown[]): unknown {
  if (typeof template === 'string') {
    const match = OUTPUT_REF.exec(template)
    if (match) return outputAt(outputs, match[1]!, match[2]!)
    return template.replace(OUTPUT_REFS, (_, which: string, path: string) => {
      const value = outputAt(outputs, which, path)
      return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)
    })
  }
  // `"...$out2.items"` in a list spreads that list into it: the pages of a paged read become one answer.
  if (Array.isArray(template)) {
    return template.flatMap((item) => {
      const spread = typeof item === 'string' && item.startsWith('...') ? OUTPUT_REF.exec(item.slice(3)) : null
      if (!spread) return [resolveOutputs(item, outputs)]
      const value = outputAt(outputs, spread[1]!, spread[2]!)
      return Array.isArray(value) ? value : [value]
    })
  }
  if (template && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, resolveOutputs(v, outputs)]))
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
  if (!script.steps)
    return {played: 0, failure: {step: 0, tool: '', message: 'the scenario has no reference plan for this mode'}}
  for (const [index, content] of toolContents.entries()) {
    const step = script.steps[index]
    const {failure} = toolOutcome(content)
    if (failure && !step?.allow_failure)
      return {played: toolContents.length, failure: {step: index + 1, tool: step?.tool ?? '?', message: failure}}
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
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as {ok?: unknown}).ok === 'boolean' &&
    ('data' in value || 'error' in value)
  )
}

/** The next assistant turn of a script, given the conversation so far. */
function nextMessage(
  script: Script,
  conversation: Pick<ConversationView, 'toolCalls' | 'toolResults' | 'waitFor'>,
  tools: readonly OfferedTool[],
): ModelTurn {
  // A request offering no tools at all is a runtime's side request (opencode titles its sessions).
  if (tools.length === 0) return {content: 'ghx-bench run'}
  const played = conversation.toolCalls
  // A competent agent waits for a command that is still running before it reads or plays on.
  if (conversation.waitFor)
    return {
      content: null,
      toolCall: {
        id: `${played}_wait_${randomBytes(4).toString('hex')}`,
        name: conversation.waitFor.name,
        arguments: JSON.stringify(conversation.waitFor.args),
      },
    }
  // A competent agent stops at a step that failed: it does not play on as if it had worked.
  const stopped = planOutcome(script, conversation.toolResults).failure !== null
  // The oracle and the adversaries that act (wrong_target, read_only) play their steps; noop plays none.
  const planned = script.model !== 'noop' && !stopped ? script.steps?.[played] : undefined
  const call = planned && offeredCall(planned, tools)
  if (call) {
    return {
      content: null,
      toolCall: {
        // Derived from the call, not random: the same run counts the same tokens (a sharded run and a whole one agree).
        id: `${played + 1}_${createHash('sha256')
          .update(`${call.name}\0${JSON.stringify(call.args)}`)
          .digest('hex')
          .slice(0, 8)}`,
        name: call.name,
        ...(call.namespace ? {namespace: call.namespace} : {}),
        arguments: JSON.stringify(call.args),
      },
    }
  }
  if (planned) return {content: `I cannot continue: this session offers no tool "${planned.tool}".`}
  return {content: finalAnswer(script, conversation.toolResults)}
}

/** The plan's outcome once this answer is given: a final answer before the last step means the plan was cut short. */
function outcomeAfter(script: Script, toolResults: string[], next: ModelTurn): PlanOutcome {
  const outcome = planOutcome(script, toolResults)
  const steps = script.steps ?? []
  if (script.model !== 'oracle' || outcome.failure || next.toolCall || outcome.played >= steps.length) return outcome
  const step = steps[outcome.played]!
  return {
    ...outcome,
    failure: {
      step: outcome.played + 1,
      tool: step.tool,
      message: `not played: the session offers no tool "${step.tool}"`,
    },
  }
}

/**
 * A file that gets a JSON line per answer served (the run's key, the dialect, the offered tools by
 * name, the usage reported): the end-to-end tests of the agent CLIs compare a row's tokens and its
 * trace's tool list with what was really served and offered.
 */
export const SERVED_LOG_VARIABLE = 'GHX_BENCH_SCRIPTED_MODELS_LOG'
const SERVED_LOG = process.env[SERVED_LOG_VARIABLE]
const toolName = (tool: OfferedTool) => (tool.namespace ? `${tool.namespace}.${tool.name}` : tool.name)

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
  const request = {messages, tools} as ChatCompletionsRequest
  return chatCompletions.promptSegments(request).reduce((sum, segment) => sum + cachedTokens(segment.text), 0)
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

/** The dialects, by the path under a run's `/v1/` they are served at. */
const DIALECTS = new Map<string, Dialect<unknown>>(
  [chatCompletions, anthropicMessages, openaiResponses].map((dialect) => [dialect.path, dialect as Dialect<unknown>]),
)

/** A registered run: its script, its faults, and the prompt cache its provider would keep. */
interface RunEntry {
  script: Script
  faults?: ModelFaults
  promptCache: PromptCache
}

/** The turn's tokens: the prompt as the dialect's cache splits it, the answer as generated. */
function turnUsage(dialect: Dialect<unknown>, request: unknown, cache: PromptCache, turn: ModelTurn): TurnUsage {
  const segments = dialect.promptSegments(request)
  const prompt = cache.account(
    dialect.caching,
    segments,
    segments.map((segment) => cachedTokens(segment.text)),
  )
  const output =
    countTokens(turn.content ?? '') + (turn.toolCall ? countTokens(turn.toolCall.name + turn.toolCall.arguments) : 0)
  return {...prompt, output}
}

export async function startScriptedModels(): Promise<ScriptedModels> {
  const runs = new Map<string, RunEntry>()
  const outcomes = new Map<string, PlanOutcome>()
  /** Faults injected into each run's model traffic. */
  const injected = new Map<string, number>()

  const complete = (
    key: string,
    run: RunEntry,
    dialect: Dialect<unknown>,
    request: unknown,
    response: ServerResponse,
  ) => {
    const conversation = dialect.view(request)
    const next = nextMessage(run.script, conversation, conversation.tools)
    if (conversation.tools.length > 0) outcomes.set(key, outcomeAfter(run.script, conversation.toolResults, next))
    const usage = turnUsage(dialect, request, run.promptCache, next)
    if (SERVED_LOG)
      appendFileSync(
        SERVED_LOG,
        `${JSON.stringify({run: key, dialect: dialect.path, tools: conversation.tools.map(toolName), usage})}\n`,
      )
    dialect.respond(response, request, next, usage)
  }

  const server = createServer((request, response) => {
    const match = /^\/r\/([a-f0-9]+)\/v1\/([a-z/]+)$/.exec((request.url ?? '').split('?')[0]!)
    const registered = match ? runs.get(match[1]!) : undefined
    const dialect = match ? DIALECTS.get(match[2]!) : undefined
    if (!match || !registered || (!dialect && match[2] !== 'models')) {
      return sendJson(response, 404, (dialect ?? chatCompletions).errorBody(404, `no scripted run at ${request.url}`))
    }
    if (!dialect)
      return sendJson(response, 200, {
        object: 'list',
        data: SCRIPTED_MODELS.map((id) => ({id, object: 'model', owned_by: 'ghx-bench'})),
      })
    if (request.method !== 'POST') return sendJson(response, 405, dialect.errorBody(405, 'POST only'))
    readBody(request).then(
      (text) => {
        const {faults} = registered
        if (faults && faults.random() < faults.rate) {
          injected.set(match[1]!, (injected.get(match[1]!) ?? 0) + 1)
          return sendJson(response, 503, dialect.errorBody(503, 'injected fault'))
        }
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return sendJson(response, 400, dialect.errorBody(400, 'body is not JSON'))
        }
        const parsed = dialect.parse(body)
        if ('invalid' in parsed) return sendJson(response, 400, dialect.errorBody(400, parsed.invalid))
        complete(match[1]!, registered, dialect, parsed.request, response)
      },
      () => sendJson(response, 400, dialect.errorBody(400, 'could not read the body')),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    register(script, faults) {
      const key = randomBytes(8).toString('hex')
      runs.set(key, {script, faults, promptCache: new PromptCache()})
      return {
        baseUrl: `${url}/r/${key}/v1`,
        release: () => {
          runs.delete(key)
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
