/**
 * Tool-call accounting across modes. Every tool call gets a category (gh_cli, mcp_tool, shell, other,
 * or the category of the mode's tool layer: ghx_capability), and each GitHub operation inside it is
 * mapped, where it can be, to one canonical operation named like the catalogue's capabilities
 * (issue.labels.add, operations.ts), so that per-operation counts compare across arms.
 *
 * GitHub's own interfaces are counted here: the `gh` CLI and the tools of GitHub MCP servers. A tool
 * layer the agent runs in its shell (ghx) is its mode's to read: the mode's accounting hook
 * (Mode.accounting) names its programs and says what their commands ran and which routes they took;
 * nothing here knows a mode by name.
 *
 * A shell call is read with a small shell tokenizer (shell-commands.ts), so every `gh` (or tool-layer) command it
 * holds is found wherever it stands: after `;`, `&&`, `||`, `|`, newlines, inside `$( )`, backquotes,
 * `( )`, `{ }`, `if`/`while`/`for`/`case` bodies, behind `VAR=1`, `env`, `noglob`, `command`, `time`,
 * `xargs`, or in a `bash -c '…'`. Each written invocation counts once (a loop body is not unrolled).
 * Commands the shell reports it never ran (a zsh glob that matched nothing, a program not found) are
 * not counted.
 *
 * A call failed when its tool said so (non-zero exit, MCP `isError`), when the tool layer reported a
 * failure in its output (ghx exits 0 with `ok:false`), when an MCP result in the output text carries
 * `"isError": true`, or when the shell could not run one of its gh or tool-layer commands.
 *
 * Routes: the tool layer's own log of the run (ToolLayerAccounting.readLog; ghx's GHX_LOG_DIR) names
 * the route of each execution; where the run has one, by_route counts from it, else from the routes
 * the layer's envelopes report. A fallback is a call of the layer that failed followed by a call of
 * GitHub's own interfaces (gh in the shell, an MCP tool) that did not.
 */
import type {
  LayerCallAccount,
  LayerCommand,
  LayerLogAccount,
  ProviderToolCall,
  ToolLayerAccounting,
} from '../plugins/api.js'
import {isObject} from '../shared/is-object.js'
import {ghOperations, mcpOperation} from './operations.js'
import {commandsOf, notRun, programOf} from './shell-commands.js'

export interface ToolAccounting {
  /**
   * Tool calls by kind: a shell call that ran the mode's tool layer takes the layer's category
   * (ghx_capability), else gh_cli if it ran gh, else shell; MCP tools are mcp_tool; anything else other.
   */
  by_category: Record<string, number>
  by_operation: Record<string, number>
  /**
   * Tool-layer executions (one per `ghx run`, one per chain step) by the route the layer took (cli,
   * graphql, rest): as its own log of the run names them where it has one (executions written in the
   * calls beyond those logged stay `unknown`), else as its envelopes report them; `unknown` where
   * neither says.
   */
  by_route: Record<string, number>
  /**
   * The route of the run's last tool-layer command: as the layer's log names it, else as the last
   * envelope in the calls' output that reports one says; null when nothing names one.
   */
  last_route: string | null
  /**
   * A call of the mode's tool layer failed and a later call of another GitHub tool (gh in the shell, an
   * MCP tool) succeeded: the work was done around the layer. False without a layer; null when a layer
   * call could not be read (its failure unknown) and nothing showed a fallback.
   */
  fallback: boolean | null
  /** Retries the tool layer reports over all its commands; null when the run ran none of them. */
  internal_retries: number | null
  /** Tool calls that failed (see the header): at most the number of calls. */
  failed: number
  /** gh and tool-layer commands the shell calls ran, each written invocation once (`{gh: 3, ghx: 2}`). */
  invocations: Record<string, number>
}

/** An MCP CallToolResult printed as the output text: `{"content": […], "isError": true}`. */
function outputReportsError(output: string): boolean {
  const text = output.trim()
  if (!text.startsWith('{') || !text.includes('"isError"')) return false
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) && value.isError === true
  } catch {
    return false
  }
}

/**
 * The tool accounting of a run's calls, in the order they ran. `layerLog` is the text of the layer's
 * own log of the run (shell-tool's layerLogOf), when it wrote one.
 */
export function accountToolCalls(
  calls: readonly ProviderToolCall[],
  mcpTools: ReadonlySet<string>,
  layer?: ToolLayerAccounting,
  layerLog?: string | null,
): ToolAccounting {
  const result: ToolAccounting = {
    by_category: {},
    by_operation: {},
    by_route: {},
    last_route: null,
    fallback: false,
    internal_retries: null,
    failed: 0,
    invocations: {gh: 0, ...Object.fromEntries((layer?.programs ?? []).map((program) => [program, 0]))},
  }
  const count = (into: Record<string, number>, key: string, n = 1) => (into[key] = (into[key] ?? 0) + n)
  const layerPrograms = new Set(layer?.programs ?? [])
  // Fallbacks: a layer call failed (or could not be read: it may have), then a GitHub tool call succeeded.
  let layerFailed = false
  let layerUnread = false
  let maybeFallback = false
  const afterLayer = (category: string, failed: boolean, unread = false) => {
    if (!layer) return
    if (category === layer.category) {
      if (failed) layerFailed = true
      else if (unread) layerUnread = true
    } else if (!failed && (category === 'gh_cli' || category === 'mcp_tool')) {
      if (layerFailed) result.fallback = true
      else if (layerUnread) maybeFallback = true
    }
  }
  for (const call of calls) {
    // Runtimes that attach MCP servers themselves prefix the tools with the server's key (github_get_issue).
    const mcpTool = mcpTools.has(call.tool) ? call.tool : [...mcpTools].find((name) => call.tool.endsWith(`_${name}`))
    const line = typeof call.args.command === 'string' ? call.args.command : undefined
    if (mcpTool || line === undefined) {
      if (mcpTool) {
        count(result.by_operation, mcpOperation(mcpTool, call.args))
      }
      count(result.by_category, mcpTool ? 'mcp_tool' : 'other')
      // The agent loop turns isError into ok: false; a runtime may hand the CallToolResult on as text.
      const failed = !call.ok || outputReportsError(call.output)
      if (failed) result.failed++
      afterLayer(mcpTool ? 'mcp_tool' : 'other', failed)
      continue
    }

    const commands = commandsOf(line)
    const skipped = notRun(commands, call.output)
    let category = 'shell'
    let failed = !call.ok
    const layerCommands: LayerCommand[] = []
    for (const command of commands) {
      const run = programOf(command.words)
      if (!run || (run.name !== 'gh' && !layerPrograms.has(run.name))) continue
      if (skipped.has(command)) {
        failed = true // the shell could not run it
        continue
      }
      count(result.invocations, run.name)
      if (layer && layerPrograms.has(run.name)) {
        category = layer.category
        layerCommands.push({
          program: run.name,
          args: run.args,
          ...(command.stdin !== undefined ? {stdin: command.stdin} : {}),
        })
      } else {
        if (category === 'shell') category = 'gh_cli'
        for (const operation of ghOperations(run.args, `${command.text}\n${command.stdin ?? ''}`))
          count(result.by_operation, operation)
      }
    }
    count(result.by_category, category)

    let unread = false
    if (layer && layerCommands.length > 0) {
      const read = readLayer(layer, layerCommands, call.output)
      for (const operation of read.operations) count(result.by_operation, operation)
      for (const [route, n] of Object.entries(read.routes ?? {})) count(result.by_route, routeName(route), n)
      if (read.lastRoute && ROUTE_NAME.test(read.lastRoute)) result.last_route = read.lastRoute
      result.internal_retries = (result.internal_retries ?? 0) + (read.retries ?? 0)
      if (read.failed) failed = true
      // A call the hook could not read may have failed though it exited 0: whether it did is unknown.
      unread = read.unreadable === true
    }
    if (failed) result.failed++
    afterLayer(category, failed, unread)
  }
  if (result.fallback === false && maybeFallback) result.fallback = null
  if (!layer) return result
  // The layer's own log names the route of every execution it ran, where the run has one.
  const logged = layer.readLog && layerLog ? readLog(layer, layerLog) : null
  const loggedCount = logged ? Object.values(logged.routes).reduce((sum, n) => sum + n, 0) : 0
  if (logged && loggedCount > 0) {
    const written = Object.values(result.by_route).reduce((sum, n) => sum + n, 0)
    result.by_route = {...logged.routes}
    if (written > loggedCount) count(result.by_route, 'unknown', written - loggedCount)
    result.last_route = logged.lastRoute ?? result.last_route
  }
  return result
}

/** The mode's reading of its layer's commands; a hook that throws counts them with no operation, under the route `unknown`. */
function readLayer(
  layer: ToolLayerAccounting,
  commands: LayerCommand[],
  output: string,
): LayerCallAccount & {unreadable?: boolean} {
  try {
    return layer.account(commands, output)
  } catch {
    return {operations: [], routes: {unknown: commands.length}, unreadable: true}
  }
}

/** A route as a row may hold it (a key of by_route, route_used): a short lower-case word; anything else is `unknown`. */
const ROUTE_NAME = /^[a-z][a-z0-9_-]{0,31}$/
const routeName = (route: string) => (ROUTE_NAME.test(route) ? route : 'unknown')

/** The mode's reading of its layer's log, routes checked; a hook that throws, or says nothing usable, reads as no log. */
function readLog(layer: ToolLayerAccounting, text: string): LayerLogAccount | null {
  try {
    const read = layer.readLog!(text)
    const routes: Record<string, number> = {}
    for (const [route, n] of Object.entries(read.routes ?? {})) {
      if (!Number.isSafeInteger(n) || n <= 0) continue
      const name = routeName(route)
      routes[name] = (routes[name] ?? 0) + n
    }
    return {
      routes,
      lastRoute: typeof read.lastRoute === 'string' && ROUTE_NAME.test(read.lastRoute) ? read.lastRoute : null,
    }
  } catch {
    return null
  }
}
