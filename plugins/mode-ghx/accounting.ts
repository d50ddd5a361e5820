/**
 * How the runner counts ghx (Mode.accounting of mode `ghx`): what each `ghx` command the agent wrote
 * ran, and what ghx reported about it in the call's output. ghx-bench's shell reader finds the
 * commands (wherever they stand in the line); this reads ghx's own language and envelopes.
 *
 * ghx prints one envelope per command (ghx 0.8: `ghx run` one compact line `{"ok":…}`, `ghx chain`
 * `{"status":…,"results":[…]}`; with `--verbose` the full envelope with `meta`, pretty-printed).
 * Routes come only from `meta.route_used`; without it the route is `unknown` (never guessed). A call
 * failed, though ghx exited 0, when ghx printed `ok:false` or a chain with a failed step.
 */
import type {LayerCallAccount, LayerCommand, ToolLayerAccounting} from 'ghx-bench'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What ghx ran for one `ghx` command, as written: a capability (`run`), chain steps (maybe unknown: []), or nothing (`ghx capabilities …`). */
interface GhxCommand {
  kind: 'run' | 'chain' | 'other'
  tasks: string[]
}

const CAPABILITY_ID = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/

function ghxCommand(args: readonly string[], stdin: string | undefined): GhxCommand {
  if (args[0] === 'run' && args[1]) return {kind: 'run', tasks: CAPABILITY_ID.test(args[1]) ? [args[1]] : []}
  if (args[0] !== 'chain') return {kind: 'other', tasks: []}
  // --steps '<json>', --steps=<json>, or --steps - (stdin: a here-document or here-string).
  const at = args.indexOf('--steps')
  const value = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith('--steps='))?.slice('--steps='.length)
  const steps = value === '-' ? stdin : value
  if (!steps) return {kind: 'chain', tasks: []}
  try {
    const parsed: unknown = JSON.parse(steps)
    if (Array.isArray(parsed)) return {kind: 'chain', tasks: parsed.map((step) => (isObject(step) && typeof step.task === 'string' ? step.task : '')).filter((t) => CAPABILITY_ID.test(t))}
  } catch {
    // not JSON as written (a variable, a typo): read the task names
  }
  return {kind: 'chain', tasks: [...steps.matchAll(/"task"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!).filter((t) => CAPABILITY_ID.test(t))}
}

/** One result in a ghx envelope: a `ghx run`, or one step of a chain; route null when meta does not say. */
export interface GhxResult {
  ok: boolean
  route: string | null
  retries: number
  task?: string
}

/** A ghx envelope: a `ghx run` (one result) or a `ghx chain` (a result per step); failed: ok false, or a chain not all success. */
export interface GhxEnvelope {
  chain: boolean
  failed: boolean
  results: GhxResult[]
}

const routeOf = (meta: unknown) => (isObject(meta) && typeof meta.route_used === 'string' ? meta.route_used : null)
const retriesOf = (meta: unknown) => (isObject(meta) && Array.isArray(meta.attempts) ? meta.attempts.filter((a) => isObject(a) && a.status === 'error').length : 0)

function toEnvelope(value: unknown): GhxEnvelope | undefined {
  if (!isObject(value)) return undefined
  if (typeof value.status === 'string' && Array.isArray(value.results)) {
    // A chain: {status: success|partial|failed, results: [{task, ok, data|error, meta?}], meta?: {route_used, …}}.
    const chainRoute = routeOf(value.meta)
    const results = value.results.filter(isObject).map((step) => ({
      ok: step.ok !== false,
      route: routeOf(step.meta) ?? chainRoute,
      retries: retriesOf(step.meta),
      ...(typeof step.task === 'string' ? {task: step.task} : {}),
    }))
    return {chain: true, failed: value.status !== 'success' || results.some((r) => !r.ok), results}
  }
  // A run: {ok, data|error, meta?}. A chain step ({task, ok, …}) alone is not one.
  if (typeof value.ok === 'boolean' && !('task' in value)) return {chain: false, failed: !value.ok, results: [{ok: value.ok, route: routeOf(value.meta), retries: retriesOf(value.meta)}]}
  return undefined
}

/**
 * The ghx envelopes in a call's output, in order, among whatever else the call printed: compact ones
 * (a line, or the end of a line, starting `{"ok":` or `{"status":`) and pretty-printed ones (--verbose:
 * a line `{` up to the line `}` at the same indentation).
 */
export function ghxEnvelopes(output: string): GhxEnvelope[] {
  const found: GhxEnvelope[] = []
  const lines = output.split('\n')
  const offsets: number[] = [] // where each line starts: a block is sliced from the output, not joined, and fails to parse fast
  for (let n = 0, at = 0; n < lines.length; at += lines[n]!.length + 1, n++) offsets.push(at)
  const closers = new Map<string, number>() // indentation -> the next line `}` so indented (-1: none), so that no line is searched twice
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trimEnd()
    let text: string | undefined
    let last = n
    if (line.trim() === '{') {
      const indent = line.slice(0, line.indexOf('{'))
      let close = closers.get(indent)
      if (close === undefined || (close >= 0 && close <= n)) {
        for (close = n + 1; close < lines.length && lines[close]!.trimEnd() !== `${indent}}`; close++);
        if (close === lines.length) close = -1
        closers.set(indent, close)
      }
      last = close
      if (last > n) text = output.slice(offsets[n], offsets[last]! + lines[last]!.length)
    } else {
      const at = line.search(/\{\s*"(?:ok|status)"\s*:/)
      if (at >= 0) text = line.slice(at)
    }
    if (text === undefined) continue
    try {
      const envelope = toEnvelope(JSON.parse(text))
      if (envelope) found.push(envelope)
      n = Math.max(n, last) // past a pretty-printed block, envelope or not: its inner lines are no envelopes
    } catch {
      // not JSON after all
    }
  }
  return found
}

/**
 * What the `ghx` commands of one shell call ran: their capabilities (a `ghx run`, each step of a
 * chain: written in the line, or named by the chain's envelope when the steps came from a file), one
 * route per execution from the envelopes (`unknown` for an execution whose envelope is not in the
 * output: piped to jq, cut), the retries ghx reports, and whether an envelope reports a failure.
 */
export function accountGhx(commands: readonly LayerCommand[], output: string): LayerCallAccount {
  const envelopes = ghxEnvelopes(output)
  const chains = envelopes.filter((e) => e.chain)
  const operations: string[] = []
  let executions = 0
  for (const written of commands) {
    const command = ghxCommand(written.args, written.stdin)
    let tasks = command.tasks
    // Steps not written in the line (`--steps - < file`): the chain's envelope names them.
    if (command.kind === 'chain') {
      const envelope = chains.shift()
      if (tasks.length === 0 && envelope) tasks = envelope.results.map((r) => r.task ?? '').filter((t) => CAPABILITY_ID.test(t))
    }
    operations.push(...tasks)
    executions += command.kind === 'run' ? 1 : command.kind === 'chain' ? tasks.length : 0
  }
  const routes: Record<string, number> = {}
  let retries = 0
  const results = envelopes.flatMap((e) => e.results)
  for (const r of results) {
    routes[r.route ?? 'unknown'] = (routes[r.route ?? 'unknown'] ?? 0) + 1
    retries += r.retries
  }
  if (executions > results.length) routes.unknown = (routes.unknown ?? 0) + executions - results.length
  return {operations, routes, retries, failed: envelopes.some((e) => e.failed)}
}

export const ghxAccounting: ToolLayerAccounting = {programs: ['ghx'], category: 'ghx_capability', account: accountGhx}
