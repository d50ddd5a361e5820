/**
 * Testers for plugin authors: a condition run over cases, and a mode's session smoke-tested, the way
 * ghx-bench loads and uses them (the loader's shape checks, parameters and options against their
 * schemas, nested conditions through a registry). Each finds every problem before it reports, and
 * reports them together in one PluginTestError, which any test runner shows as a failure; when there
 * is none it returns what it saw, for the test's own assertions.
 */
import {isDeepStrictEqual} from 'node:util'
import type {
  Availability,
  Condition,
  ConditionResult,
  Mode,
  ModeContext,
  ModeSession,
  ToolDefinition,
  ToolResult,
} from '../plugins/api.js'
import {checkShape} from '../plugins/loader.js'
import {PluginRegistry} from '../plugins/registry.js'
import {compileSchema} from '../shared/schema-validator.js'

/** Every problem a tester found, one sentence each. */
export class PluginTestError extends Error {
  constructor(
    /** What was tested: `condition "field_starts_with"`, `mode "github-api-readonly"`. */
    readonly subject: string,
    readonly problems: string[],
  ) {
    super(
      `${subject}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    )
    this.name = 'PluginTestError'
  }
}

/**
 * One case of a condition: the task result it judges and the verdict wanted, or (`refused: true`)
 * parameters its paramsSchema must refuse, as `ghx-bench validate` would at the scenario's line.
 */
export type ConditionCase<Params = Record<string, unknown>> =
  | {
      /** Names the case in a failure (default: its number). */
      name?: string
      /** The read task's result the condition judges. */
      actual: unknown
      params: Params
      passed: boolean
      /** The message wanted: the exact line, or a pattern. */
      message?: string | RegExp
      /** The `expected` the result must report (deep equality). */
      expected?: unknown
    }
  | {name?: string; params: unknown; refused: true}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

const matches = (text: string, wanted: string | RegExp) =>
  typeof wanted === 'string' ? text === wanted : wanted.test(text)

const schemaErrors = (validate: ReturnType<typeof compileSchema>) =>
  (validate.errors ?? []).map((e) => `${e.instancePath || '(params)'} ${e.message ?? e.keyword}`).join('; ')

/**
 * Runs `condition` over `cases` as a checkpoint would: its shape checked as the loader checks it, each
 * case's params validated against its paramsSchema, nested conditions (every, not, custom) evaluated
 * through a registry of `condition` and `options.conditions`. Throws a PluginTestError with every case
 * that did not go as written; returns the results of the judged cases, in order.
 */
export function testCondition<Params>(
  condition: Condition<Params>,
  cases: ReadonlyArray<ConditionCase<Params>>,
  options: {conditions?: Condition<any>[]} = {}, // eslint-disable-line @typescript-eslint/no-explicit-any -- params differ per condition
): ConditionResult[] {
  const subject = `condition "${String((condition as {name?: unknown}).name)}"`
  const plugin = {
    apiVersion: 1 as const,
    name: 'plugin-kit-test',
    version: '0.0.0',
    conditions: [condition, ...(options.conditions ?? []).filter((c) => c !== condition)],
  }
  const shape = checkShape(plugin)
  if (shape.length > 0) throw new PluginTestError(subject, shape)
  const registry = new PluginRegistry()
  const conflicts = registry.register(plugin, 'path', 'plugin-kit-test', '(test)')
  if (conflicts.length > 0) throw new PluginTestError(subject, conflicts)
  const validate = compileSchema(condition.paramsSchema)
  const context = {evaluate: registry.evaluate.bind(registry)}
  const problems: string[] = []
  const results: ConditionResult[] = []
  cases.forEach((item, index) => {
    const label = item.name ?? `case ${index + 1}`
    if ('refused' in item) {
      if (validate(item.params))
        problems.push(`${label}: params ${show(item.params)} were accepted by paramsSchema, expected refused`)
      return
    }
    if (!validate(item.params)) {
      problems.push(`${label}: params ${show(item.params)} are refused by paramsSchema: ${schemaErrors(validate)}`)
      return
    }
    let result: ConditionResult
    try {
      result = condition.evaluate(item.actual, item.params, context)
    } catch (error) {
      problems.push(`${label}: evaluate threw: ${(error as Error).message}`)
      return
    }
    results.push(result)
    const shapeOf = result as Partial<ConditionResult> | null
    if (
      typeof shapeOf !== 'object' ||
      shapeOf === null ||
      typeof shapeOf.passed !== 'boolean' ||
      typeof shapeOf.message !== 'string' ||
      !('expected' in shapeOf) ||
      !('actual' in shapeOf)
    ) {
      problems.push(`${label}: evaluate returned ${show(result)}, not {passed, expected, actual, message}`)
      return
    }
    if (result.message.trim() === '')
      problems.push(`${label}: the message is empty (a report shows it: say what was found and what was wanted)`)
    try {
      JSON.stringify([result.expected, result.actual])
    } catch (error) {
      problems.push(`${label}: expected and actual must be JSON (rows keep them): ${(error as Error).message}`)
    }
    if (result.passed !== item.passed)
      problems.push(
        `${label}: ${result.passed ? 'passed' : 'failed'}, expected to ${item.passed ? 'pass' : 'fail'} (message: ${result.message})`,
      )
    if (item.message !== undefined && !matches(result.message, item.message))
      problems.push(
        `${label}: message ${show(result.message)}, expected ${item.message instanceof RegExp ? String(item.message) : show(item.message)}`,
      )
    if ('expected' in item && !isDeepStrictEqual(result.expected, item.expected))
      problems.push(`${label}: expected is ${show(result.expected)}, wanted ${show(item.expected)}`)
  })
  if (problems.length > 0) throw new PluginTestError(subject, problems)
  return results
}

/** A call to make through a mode's session, and what it must answer. */
export interface ModeCallCase {
  tool: string
  args: Record<string, unknown>
  /** The `ok` wanted (default: true). */
  ok?: boolean
  /** The output wanted: the exact text, or a pattern. */
  output?: string | RegExp
}

export interface ModeExpectations {
  /** The session's tools by name, in any order: exactly these. */
  tools?: string[]
  /** Calls to make, in order, each with what it must answer. */
  calls?: ModeCallCase[]
  /** How long one call may take (default 60 s): its signal aborts then. */
  callTimeoutMs?: number
}

/** What the smoke test saw: the availability, the session's declared shape, and each call's answer. */
export interface ModeSmokeReport {
  availability: Availability
  instructions: string
  tools: ToolDefinition[]
  env: Record<string, string>
  workdir?: string
  mcpServers: NonNullable<ModeSession['mcpServers']>
  calls: ToolResult[]
}

/** What a chat-completions API takes as a function name: an agent cannot call a tool named otherwise. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/
/** A tool name no mode offers: a session must answer it, not throw. */
const UNKNOWN_TOOL = 'plugin-kit-unknown-tool'

/** The declared shape of a session (what a provider that runs its own tools, opencode, configures itself from). */
function sessionProblems(session: ModeSession): string[] {
  const problems: string[] = []
  if (typeof session !== 'object' || session === null) return [`open returned ${show(session)}, not a session`]
  if (typeof session.instructions !== 'string' || session.instructions.trim() === '')
    problems.push('session.instructions must be a non-empty string: the agent’s system instructions')
  if (!Array.isArray(session.tools)) problems.push('session.tools must be an array of {name, description, inputSchema}')
  else {
    const seen = new Set<string>()
    session.tools.forEach((tool, index) => {
      const what = `session.tools[${index}]${typeof tool?.name === 'string' ? ` "${tool.name}"` : ''}`
      if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name))
        problems.push(`${what} needs a name of letters, digits, _ and - (at most 64): models call tools by it`)
      else if (seen.has(tool.name)) problems.push(`${what} is offered twice`)
      else seen.add(tool.name)
      if (typeof tool?.description !== 'string') problems.push(`${what} needs a description (a string)`)
      // The model reads the schema (any draft its API takes: MCP servers send draft-07); ghx-bench does not validate with it.
      const schema = tool?.inputSchema as {type?: unknown; properties?: unknown} | undefined
      if (typeof schema !== 'object' || schema === null || schema.type !== 'object')
        problems.push(`${what} needs an inputSchema of type object (the arguments object a model sends)`)
      else if (schema.properties !== undefined && (typeof schema.properties !== 'object' || schema.properties === null))
        problems.push(`${what} has inputSchema.properties that is not an object`)
    })
  }
  if (
    typeof session.env !== 'object' ||
    session.env === null ||
    Object.values(session.env).some((v) => typeof v !== 'string')
  )
    problems.push('session.env must be an object of strings: the environment of the session’s processes')
  if (session.workdir !== undefined && typeof session.workdir !== 'string')
    problems.push('session.workdir must be a string when given')
  if (session.mcpServers !== undefined) {
    if (!Array.isArray(session.mcpServers)) problems.push('session.mcpServers must be an array')
    else {
      session.mcpServers.forEach((server, index) => {
        const what = `session.mcpServers[${index}]`
        if (typeof server?.name !== 'string' || server.name === '') problems.push(`${what} needs a name`)
        if ((typeof server?.command === 'string') === (typeof server?.url === 'string'))
          problems.push(`${what} needs a command (stdio) or a url (streamable HTTP), one of them`)
      })
    }
  }
  if (typeof session.call !== 'function') problems.push('session.call must be a function')
  if (typeof session.close !== 'function') problems.push('session.close must be a function')
  return problems
}

/**
 * Smoke-tests a mode against a ModeContext (options, the GitHub it is given, a working folder): its
 * shape as the loader checks it, the options against its optionsSchema, `available` (it must be), a
 * session opened, its declared shape (instructions, tools that models can call, env, MCP servers), a
 * tool it does not offer answered `ok: false` rather than thrown, the `expectations`' tools and calls,
 * and the session closed. Throws a PluginTestError with every problem; returns what it saw.
 */
export async function testMode(
  mode: Mode,
  context: ModeContext,
  expectations: ModeExpectations = {},
): Promise<ModeSmokeReport> {
  const subject = `mode "${String((mode as {name?: unknown}).name)}"`
  const shape = checkShape({apiVersion: 1, name: 'plugin-kit-test', version: '0.0.0', modes: [mode]})
  if (shape.length > 0) throw new PluginTestError(subject, shape)
  const validOptions = compileSchema(mode.optionsSchema)
  if (!validOptions(context.options))
    throw new PluginTestError(subject, [
      `options ${show(context.options)} are refused by optionsSchema: ${schemaErrors(validOptions)}`,
    ])
  const availability = await mode.available(context)
  if (typeof availability !== 'object' || availability === null || typeof availability.available !== 'boolean') {
    throw new PluginTestError(subject, [`available returned ${show(availability)}, not {available, reason?, tools?}`])
  }
  if (!availability.available)
    throw new PluginTestError(subject, [
      `not available: ${availability.reason ?? '(no reason given: say why, and how to fix it)'}`,
    ])
  if (
    availability.tools !== undefined &&
    (typeof availability.tools !== 'object' || Object.values(availability.tools).some((v) => typeof v !== 'string'))
  ) {
    throw new PluginTestError(subject, [
      `available returned tools ${show(availability.tools)}, not an object of version strings`,
    ])
  }
  let session: ModeSession
  try {
    session = await mode.open(context)
  } catch (error) {
    throw new PluginTestError(subject, [`open threw: ${(error as Error).message}`])
  }
  const problems = sessionProblems(session)
  const calls: ToolResult[] = []
  try {
    if (problems.length === 0) {
      const names = session.tools.map((t) => t.name)
      if (expectations.tools && !isDeepStrictEqual([...names].sort(), [...expectations.tools].sort())) {
        problems.push(`the session offers ${show(names)}, expected ${show(expectations.tools)}`)
      }
      const call = async (tool: string, args: Record<string, unknown>): Promise<ToolResult | string> => {
        try {
          const result = await session.call(tool, args, AbortSignal.timeout(expectations.callTimeoutMs ?? 60_000))
          if (
            typeof result !== 'object' ||
            result === null ||
            typeof result.ok !== 'boolean' ||
            typeof result.output !== 'string'
          )
            return `answered ${show(result)}, not {ok, output}`
          return result
        } catch (error) {
          return `threw: ${(error as Error).message}`
        }
      }
      const unknown = await call(UNKNOWN_TOOL, {})
      if (typeof unknown === 'string')
        problems.push(`a tool the session does not offer ${unknown} (answer {ok: false, output: why})`)
      else if (unknown.ok) problems.push(`a tool the session does not offer answered ok: ${show(unknown.output)}`)
      for (const [index, wanted] of (expectations.calls ?? []).entries()) {
        const what = `call ${index + 1} (${wanted.tool} ${show(wanted.args)})`
        const result = await call(wanted.tool, wanted.args)
        if (typeof result === 'string') {
          problems.push(`${what} ${result}`)
          continue
        }
        calls.push(result)
        if (result.ok !== (wanted.ok ?? true))
          problems.push(`${what} answered ok: ${result.ok}, expected ${wanted.ok ?? true}: ${show(result.output)}`)
        if (wanted.output !== undefined && !matches(result.output, wanted.output))
          problems.push(
            `${what} answered ${show(result.output)}, expected ${wanted.output instanceof RegExp ? String(wanted.output) : show(wanted.output)}`,
          )
      }
    }
  } finally {
    if (typeof session?.close === 'function') {
      await Promise.resolve()
        .then(() => session.close())
        .catch((error: unknown) => problems.push(`close threw: ${(error as Error).message}`))
    }
  }
  if (problems.length > 0) throw new PluginTestError(subject, problems)
  return {
    availability,
    instructions: session.instructions,
    tools: session.tools,
    env: session.env,
    ...(session.workdir !== undefined ? {workdir: session.workdir} : {}),
    mcpServers: session.mcpServers ?? [],
    calls,
  }
}
