/**
 * How the runner counts ghx (Mode.accounting of mode `ghx`): what each `ghx` command the agent wrote
 * ran, and what ghx reported about it in the call's output. ghx-bench's shell reader finds the
 * commands (wherever they stand in the line); this reads ghx's own language and envelopes.
 *
 * ghx prints one envelope per command (ghx 0.8: `ghx run` one compact line `{"ok":…}`, `ghx chain`
 * `{"status":…,"results":[…]}`; with `--verbose` the full envelope with `meta`, pretty-printed).
 * In the output, routes come only from `meta.route_used`; without it the route is `unknown` (never
 * guessed). A call failed, though ghx exited 0, when ghx printed `ok:false` or a chain with a failed step.
 *
 * ghx's own log of the run (readGhxLog) names the route of every execution, `--verbose` or not: the
 * mode's session turns it on (GHX_LOG_LEVEL=info, GHX_LOG_DIR in the run's folder) and the runner hands
 * its text to `readLog` once the agent is done.
 */
import type {LayerCallAccount, LayerCommand, LayerLogAccount, ToolLayerAccounting} from 'ghx-bench'
import {isObject} from 'ghx-bench/plugin-kit'

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
    if (Array.isArray(parsed))
      return {
        kind: 'chain',
        tasks: parsed
          .map((step) => (isObject(step) && typeof step.task === 'string' ? step.task : ''))
          .filter((t) => CAPABILITY_ID.test(t)),
      }
  } catch {
    // not JSON as written (a variable, a typo): read the task names
  }
  return {
    kind: 'chain',
    tasks: [...steps.matchAll(/"task"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!).filter((t) => CAPABILITY_ID.test(t)),
  }
}

/** One result in a ghx envelope: a `ghx run`, or one step of a chain; route null when meta does not say. */
interface GhxResult {
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
const retriesOf = (meta: unknown) =>
  isObject(meta) && Array.isArray(meta.attempts)
    ? meta.attempts.filter((a) => isObject(a) && a.status === 'error').length
    : 0

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
  if (typeof value.ok === 'boolean' && !('task' in value))
    return {
      chain: false,
      failed: !value.ok,
      results: [{ok: value.ok, route: routeOf(value.meta), retries: retriesOf(value.meta)}],
    }
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
function accountGhx(commands: readonly LayerCommand[], output: string): LayerCallAccount {
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
      if (tasks.length === 0 && envelope)
        tasks = envelope.results.map((r) => r.task ?? '').filter((t) => CAPABILITY_ID.test(t))
    }
    operations.push(...tasks)
    executions += command.kind === 'run' ? 1 : command.kind === 'chain' ? tasks.length : 0
  }
  const routes: Record<string, number> = {}
  let retries = 0
  let lastRoute: string | undefined
  const results = envelopes.flatMap((e) => e.results)
  for (const r of results) {
    routes[r.route ?? 'unknown'] = (routes[r.route ?? 'unknown'] ?? 0) + 1
    retries += r.retries
  }
  // The last command's route, as its envelope's meta says it (a chain's, for all its steps).
  for (const e of envelopes) lastRoute = e.results.findLast((r) => r.route !== null)?.route ?? lastRoute
  if (executions > results.length) routes.unknown = (routes.unknown ?? 0) + executions - results.length
  return {operations, routes, retries, failed: envelopes.some((e) => e.failed), ...(lastRoute ? {lastRoute} : {})}
}

const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 100_000

/** One ghx process's executions as its log lines name them (a `ghx run`, or a chain). */
interface LoggedCommand {
  /** The route of each execution, in the order logged; `unknown` where the line names none. */
  routes: string[]
  /** A chain of several steps (ghx names its route as its chain envelope's meta does). */
  chain: boolean
  /** Where its last line is in the log. */
  last: number
}

/**
 * What ghx 0.8's own log says about a run's executions. With GHX_LOG_LEVEL=info (or debug) and
 * GHX_LOG_DIR=<dir>, every ghx process appends one JSON line per event to <dir>/ghx-YYYY-MM-DD.jsonl
 * (the UTC date of the event):
 *
 *   {"ts":"2026-11-27T00:03:31.604Z","pid":6136,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute.complete",
 *    "capability_id":"repo.view","ok":true,"route_used":"graphql","duration_ms":821,"error_code":null}
 *
 * (ts, pid, ppid, level, version, msg, then the event's fields; keys that look secret are written
 * `[REDACTED]`). The events that count executions, each by its process (pid):
 *  - `execute.complete` {capability_id, ok, route_used, duration_ms, error_code} (info): one capability
 *    executed on its own: a `ghx run`, a chain of one step, and the CLI and single-handler steps of a
 *    longer chain; its route is route_used, the route that answered, failed or not;
 *  - `execute.unsupported_task` {task} (error): a `ghx run` of a capability ghx does not have: no route;
 *  - `execute_batch.complete` {ok, status, total, succeeded, failed, duration_ms} (info): a chain ended;
 *    its steps without an execute.complete line of their own (total less those) ran in ghx's batched
 *    GraphQL: route graphql;
 *  - `resolution.lookup_failed` {count, error_code, message} (error): a chain's GraphQL lookups failed
 *    for its `count` GraphQL steps (graphql); the chain then ends without execute_batch.complete.
 * A chain whose steps ghx rejects before running any (an unknown task, bad input) logs nothing: its
 * written steps stay `unknown`. Other lines (debug events, other versions' events, torn lines) are passed over.
 *
 * lastRoute is the route of the run's last ghx command (the process of the last such line) as its
 * envelope's meta.route_used says it: a `ghx run`'s route; a chain's `cli` when every step ran cli,
 * else `graphql` (ghx's own rule for chains).
 */
export function readGhxLog(text: string): LayerLogAccount {
  const open = new Map<number, LoggedCommand>()
  const commands: LoggedCommand[] = []
  const lines = text.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim()
    if (!line.startsWith('{')) continue
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      continue // a torn line
    }
    if (!isObject(entry) || !isCount(entry.pid) || typeof entry.msg !== 'string') continue
    const {pid, msg} = entry
    const command = open.get(pid) ?? {routes: [], chain: false, last: n}
    if (msg === 'execute.complete')
      command.routes.push(typeof entry.route_used === 'string' ? entry.route_used : 'unknown')
    else if (msg === 'execute.unsupported_task') command.routes.push('unknown')
    else if (msg === 'execute_batch.complete' && isCount(entry.total)) {
      for (let k = command.routes.length; k < entry.total; k++) command.routes.push('graphql')
      command.chain = entry.total > 1
    } else if (msg === 'resolution.lookup_failed' && isCount(entry.count)) {
      for (let k = 0; k < entry.count; k++) command.routes.push('graphql')
      command.chain = true
    } else continue
    command.last = n
    if (!open.has(pid)) {
      open.set(pid, command)
      commands.push(command)
    }
    // A chain's last line ends its process: a later line of the same pid is another ghx.
    if (msg === 'execute_batch.complete' || msg === 'resolution.lookup_failed') open.delete(pid)
  }
  const routes: Record<string, number> = {}
  for (const command of commands) for (const route of command.routes) routes[route] = (routes[route] ?? 0) + 1
  let lastRoute: string | null = null
  let lastAt = -1
  for (const command of commands) {
    const known = command.routes.filter((r) => r !== 'unknown')
    if (known.length === 0 || command.last < lastAt) continue
    lastAt = command.last
    lastRoute = command.chain
      ? known.length === command.routes.length && known.every((r) => r === 'cli')
        ? 'cli'
        : 'graphql'
      : known.at(-1)!
  }
  return {routes, lastRoute}
}

export const ghxAccounting: ToolLayerAccounting = {
  programs: ['ghx'],
  category: 'ghx_capability',
  account: accountGhx,
  readLog: readGhxLog,
}
