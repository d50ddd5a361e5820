/**
 * How a scripted model plays a tool-neutral plan step (`shell` with a command, or an MCP tool by its
 * own name) on the tools a request actually offers, read from the request itself: the runtimes name
 * and shape their tools their own way (the built-in `shell {command}`, opencode's `bash {command,
 * description}`, Claude Code's `Bash {command}` and `mcp__<server>__<tool>`, Codex's `exec_command
 * {cmd}` and MCP tools in a `mcp__<server>` namespace), and change them between versions.
 */
import type {OfferedTool} from './dialects/dialect.js'

export interface ScriptStep {
  tool: string
  args: Record<string, unknown>
  /** The plan expects this step may fail (a probe); any other failed step fails the plan. */
  allow_failure?: boolean
}

/** A step as a call of an offered tool. */
export interface OfferedCall {
  name: string
  namespace?: string
  args: Record<string, unknown>
}

interface ObjectSchema {
  properties?: Record<string, {type?: unknown; items?: unknown}>
  required?: unknown
}

/** A name that says "runs shell commands". */
const SHELL_NAME = /shell|bash|exec|terminal|command/i
/** The argument a shell tool takes its command in. */
const COMMAND_ARGUMENTS = ['command', 'cmd']

const schemaOf = (tool: OfferedTool): ObjectSchema =>
  tool.parameters !== null && typeof tool.parameters === 'object' ? tool.parameters : {}

/**
 * A shell tool the request offers and how to pass it a command: a tool named for the shell whose
 * schema takes the command as `command` or `cmd`, a string (or an argv list: run through `bash -lc`);
 * a required `description` gets a short one. A tool that requires anything else it cannot be given is not used.
 */
function shellCall(command: string, tools: readonly OfferedTool[]): OfferedCall | undefined {
  for (const tool of tools) {
    if (tool.namespace || !SHELL_NAME.test(tool.name)) continue
    const {properties = {}, required} = schemaOf(tool)
    const argument = COMMAND_ARGUMENTS.find((name) => properties[name] !== undefined)
    if (!argument) continue
    const args: Record<string, unknown> = {
      [argument]: properties[argument]!.type === 'array' ? ['bash', '-lc', command] : command,
    }
    const missing = (Array.isArray(required) ? (required as unknown[]) : []).filter(
      (name) => typeof name === 'string' && !(name in args),
    )
    if (missing.some((name) => name !== 'description')) continue
    if (missing.length > 0) args.description = 'Run a command'
    return {name: tool.name, args}
  }
  return undefined
}

/**
 * The offered tool that stands for a plan step: for `shell`, the offered shell tool its schema shows;
 * else a tool of the same name, with the step's arguments as they are (in any namespace: Codex calls an
 * MCP server's tools by their own name in the server's namespace); for an MCP tool, one whose name ends
 * in `_<tool>` (opencode's `<server>_<tool>`, Claude Code's `mcp__<server>__<tool>`). Undefined when
 * the request offers none: the plan cannot be played here.
 */
export function offeredCall(step: ScriptStep, tools: readonly OfferedTool[]): OfferedCall | undefined {
  const shell =
    step.tool === 'shell' && typeof step.args.command === 'string' ? shellCall(step.args.command, tools) : undefined
  if (shell) return shell
  const same = tools.find((tool) => tool.name === step.tool)
  if (same) return {name: same.name, ...(same.namespace ? {namespace: same.namespace} : {}), args: step.args}
  if (step.tool === 'shell') return undefined
  const prefixed = tools.find((tool) => !tool.namespace && tool.name.endsWith(`_${step.tool}`))
  return prefixed ? {name: prefixed.name, args: step.args} : undefined
}
