/**
 * The view of a suite run, in one of four styles:
 *
 * - `tty`: a live listr2 view, one line per mode (done/total, pass/fail, tokens so far, ETA) with only
 *   the runs in flight under it, bounded to the terminal's height. The view keeps its own state and
 *   paints it into listr2 at most every `renderMs` (listr2's `lazy` renderer: no spinner timer), so
 *   rendering stays a small share of the run's CPU however many events come.
 * - `plain` (stdout not a TTY, or CI set): one line per finished run, and a summary line per mode at
 *   every tenth of its runs and at least every `summaryMs` while runs finish.
 * - `json`: one JSON line per event on stdout.
 * - `silent`.
 *
 * One view can show several suites in a row (`validate --calibrate` runs three); `close()` finishes
 * whatever is still live, and finishing twice (or after Ctrl-C) is harmless.
 */
import {DefaultRenderer, Listr, ListrLogger, ProcessOutput} from 'listr2'
import type {SuiteEvent} from '../runner/run-suite.js'
import {formatDuration} from '../shared/duration.js'

export type ProgressStyle = 'tty' | 'plain' | 'json' | 'silent'

export function progressStyle(
  json: boolean,
  env: NodeJS.ProcessEnv = process.env,
  isTty = process.stdout.isTTY === true,
): ProgressStyle {
  if (json) return 'json'
  return isTty && !env.CI ? 'tty' : 'plain'
}

export interface ProgressOptions {
  /** Where plain and JSON lines go (default: stdout). */
  write?: (line: string) => void
  /** The terminal of the live view (default: process.stdout). */
  stream?: NodeJS.WriteStream
  /** Live view: at most one repaint per this many milliseconds (default 250). */
  renderMs?: number
  /** Plain: a summary line per mode at least this often while its runs finish (default 10 s). */
  summaryMs?: number
  now?: () => number
}

interface ActiveRun {
  name: string
  started: number
}

/** Only what the view sets on a listr2 task. */
interface LiveTask {
  title: string
  output: string
}

interface ModeState {
  mode: string
  total: number
  done: number
  pass: number
  fail: number
  tokens: number
  active: Map<string, ActiveRun>
  /** Plain: `done` when its last summary line was printed. */
  reported: number
  task?: LiveTask
  resolve?: () => void
  painted?: {title: string; output: string}
}

interface Board {
  label: string
  started: number
  modes: ModeState[]
  finished: boolean
  /** Its listr2 renderer while its list runs. */
  renderer?: LiveRenderer
}

/**
 * listr2's default renderer, allowed on any stream (the view itself decides when it is live), that
 * repaints once per batch of changes: listr2 repaints on every title or output set, and a repaint
 * (measuring every character's width to truncate and wrap) is what costs.
 */
class LiveRenderer extends DefaultRenderer {
  static override nonTTY = true
  /** While set, changes only mark the view stale; `flush()` repaints. */
  batching = false
  private stale = false

  override update(): void {
    if (this.batching) this.stale = true
    else super.update()
  }

  flush(): void {
    this.batching = false
    if (this.stale) super.update()
    this.stale = false
  }
}

/**
 * The line of one mode: `agent_direct  12/67  pass 11  fail 1  tokens 9816  ETA 1m05s`; once its
 * suite has ended, `ETA -`, or `stopped` when runs were left (Ctrl-C, an error).
 */
export function modeLine(
  s: Pick<ModeState, 'mode' | 'total' | 'done' | 'pass' | 'fail' | 'tokens'>,
  elapsedMs: number,
  label = '',
  ended = false,
): string {
  const eta =
    s.done >= s.total
      ? 'ETA -'
      : ended
        ? 'stopped'
        : `ETA ${s.done > 0 ? formatDuration((elapsedMs / s.done) * (s.total - s.done)) : '?'}`
  return `${label ? label + '  ' : ''}${s.mode}  ${s.done}/${s.total}  pass ${s.pass}  fail ${s.fail}  tokens ${s.tokens}  ${eta}`
}

/**
 * The runs in flight of one mode, at most `room` lines: the oldest first, and when they do not fit,
 * the last line says how many more there are.
 */
export function activeLines(active: Iterable<ActiveRun>, room: number, now: number): string[] {
  const runs = [...active].sort((a, b) => a.started - b.started)
  if (room <= 0 || runs.length === 0) return []
  const line = (r: ActiveRun) => `${r.name}  ${formatDuration(now - r.started)}`
  if (runs.length <= room) return runs.map(line)
  return [...runs.slice(0, room - 1).map(line), `… and ${runs.length - (room - 1)} more`]
}

/** Lines of runs in flight each mode may show so that the whole view fits in `rows` terminal rows. */
export function activeRoom(rows: number, modes: number, extra = 0): number {
  // One row stays for the cursor and one spare; every mode has its title line.
  const free = rows - 2 - modes - extra
  return Math.max(0, Math.min(8, Math.floor(free / Math.max(1, modes))))
}

export class ProgressView {
  private readonly boards: Board[] = []
  private readonly write: (line: string) => void
  private readonly stream: NodeJS.WriteStream
  private readonly rawWrite: (text: string) => boolean
  private readonly renderMs: number
  private readonly summaryMs: number
  private readonly now: () => number
  /** The live lists, one after the other (listr2 owns stdout while one runs). */
  private live: Promise<void> = Promise.resolve()
  /** listr2 lists still holding the terminal (the cursor hidden, stdout and stderr buffered). */
  private holding = 0
  private timer?: NodeJS.Timeout
  private notice: string | null = null
  private closing?: Promise<void>

  constructor(
    private readonly style: ProgressStyle,
    options: ProgressOptions = {},
  ) {
    this.write = options.write ?? ((line) => process.stdout.write(line + '\n'))
    this.stream = options.stream ?? process.stdout
    // Kept before listr2 takes the stream over, for a last word on a forced quit.
    const write = this.stream.write.bind(this.stream)
    this.rawWrite = (text: string) => write(text)
    this.renderMs = options.renderMs ?? 250
    this.summaryMs = options.summaryMs ?? 10_000
    this.now = options.now ?? Date.now
  }

  /** The events of one runSuite, shown as they come. */
  readonly onEvent = (event: SuiteEvent): void => this.handle(event, '')

  /** A line to show at once (Ctrl-C): under the live view, else nowhere (the caller prints it to stderr). */
  note(text: string): void {
    this.notice = text
    this.paint()
  }

  /** For a forced quit: gives the terminal its cursor back; nothing else is written. */
  abort(): void {
    if (this.holding > 0) this.rawWrite('\u001B[?25h\n')
  }

  /** An event of one of several suites in a row, their lines led by `label` (`oracle`, `noop`). */
  handle(event: SuiteEvent, label = ''): void {
    if (this.style === 'json') {
      // Tool-level progress events are small and frequent: left out of the JSON stream.
      if (event.type !== 'run_progress' || event.event.kind === 'turn')
        this.write(
          JSON.stringify({...event, ...(label ? {phase: label} : {}), timestamp: new Date(this.now()).toISOString()}),
        )
      return
    }
    if (this.style === 'silent' || this.closing) return
    if (event.type === 'suite_started') {
      this.start(event, label)
      return
    }
    const board = this.boards.at(-1)
    if (!board || board.finished || board.label !== label) return
    switch (event.type) {
      case 'run_started': {
        const state = board.modes.find((m) => m.mode === event.mode)
        state?.active.set(event.key, {name: `${event.scenario_id} #${event.iteration}`, started: this.now()})
        break
      }
      case 'run_progress': {
        if (event.event.kind !== 'turn') break
        const state = board.modes.find((m) => m.mode === event.mode)
        const u = event.event.usage
        if (state) state.tokens += u.input + u.output + u.reasoning + u.cache_read + u.cache_write
        break
      }
      case 'run_finished': {
        const state = board.modes.find((m) => m.mode === event.mode)
        if (!state) break
        state.active.delete(event.key)
        state.done++
        if (event.outcome === 'pass') state.pass++
        else state.fail++
        if (this.style === 'plain') {
          const prefix = label ? `${label}  ` : ''
          this.write(
            `${prefix}${event.mode}  ${event.scenario_id} #${event.iteration}  ${event.outcome}  tokens ${event.tokens}  ${Math.round(event.ms)} ms  (${state.done}/${state.total})`,
          )
          // A summary at every tenth of the mode's runs (a few runs have their count on each line; the last summary comes at the end).
          const tenth = (n: number) => Math.floor((n * 10) / state.total)
          if (state.total >= 20 && state.done < state.total && tenth(state.done) > tenth(state.reported))
            this.summary(board, state)
        }
        break
      }
      case 'suite_finished':
        this.finish(board)
        break
    }
  }

  private start(event: Extract<SuiteEvent, {type: 'suite_started'}>, label: string): void {
    for (const open of this.boards) if (!open.finished) this.finish(open)
    const modes = Object.entries(event.per_mode).map(([mode, total]): ModeState => ({
      mode,
      total,
      done: 0,
      pass: 0,
      fail: 0,
      tokens: 0,
      active: new Map(),
      reported: 0,
    }))
    const board: Board = {label, started: this.now(), modes, finished: false}
    this.boards.push(board)
    if (this.style === 'plain') {
      const per = modes.map((m) => `${m.mode} ${m.total}`).join(', ')
      const todo = modes.reduce((n, m) => n + m.total, 0)
      this.write(
        `${label || `run ${event.run_id}`}: ${todo} run(s) to do (${per || 'none'}), ${event.skipped} already recorded, seed ${event.seed}`,
      )
      this.timer = setInterval(() => {
        for (const state of board.modes) if (state.done > state.reported) this.summary(board, state)
      }, this.summaryMs)
      this.timer.unref()
      return
    }
    // tty
    this.notice = null
    this.live = this.live.then(() => this.runList(board))
    this.timer = setInterval(() => this.paint(), this.renderMs)
    this.timer.unref()
  }

  private summary(board: Board, state: ModeState): void {
    state.reported = state.done
    this.write(modeLine(state, this.now() - board.started, board.label, board.finished))
  }

  private async runList(board: Board): Promise<void> {
    // Known to the view while its list runs: paint() batches its changes into one repaint.
    const adopt = (renderer: LiveRenderer) => (board.renderer = renderer)
    class Renderer extends LiveRenderer {
      constructor(...args: ConstructorParameters<typeof DefaultRenderer>) {
        super(...args)
        adopt(this)
      }
    }
    const list = new Listr(
      board.modes.map((state) => ({
        title: modeLine(state, 0, board.label),
        task: (_ctx: unknown, task: LiveTask) =>
          new Promise<void>((resolve) => {
            state.task = task
            state.resolve = resolve
            if (board.finished) this.settle(board, state)
            else this.paint()
          }),
        // Only the latest output (the runs in flight) is shown, and nothing once the mode is done.
        rendererOptions: {outputBar: 1, persistentOutput: false},
      })),
      {
        concurrent: true,
        exitOnError: false,
        registerSignalListeners: false,
        renderer: Renderer,
        // No spinner timer (it repaints every 100 ms): the view repaints when it has something new.
        rendererOptions: {
          lazy: true,
          formatOutput: 'truncate',
          removeEmptyLines: true,
          logger: new ListrLogger({processOutput: new ProcessOutput(this.stream, process.stderr)}),
        },
      },
    )
    this.holding++
    try {
      await list.run()
    } catch {
      // The view must never end a run: a rendering failure is not the suite's.
    } finally {
      this.holding--
      board.renderer = undefined
    }
  }

  /** Copies the state into the live tasks, only what changed, and repaints once. */
  private paint(): void {
    if (this.style !== 'tty') return
    const board = this.boards.at(-1)
    const renderer = board?.renderer
    if (!board || board.finished || !renderer) return
    renderer.batching = true
    try {
      this.apply(board)
    } finally {
      renderer.flush()
    }
  }

  private apply(board: Board): void {
    const now = this.now()
    const extra = this.notice ? 1 : 0
    const room = activeRoom(this.stream.rows ?? 24, board.modes.length, extra)
    board.modes.forEach((state, i) => {
      if (!state.task) return
      const title = modeLine(state, now - board.started, board.label)
      const lines = activeLines(state.active.values(), room, now)
      if (this.notice && i === board.modes.length - 1) lines.push(this.notice)
      const output = lines.join('\n')
      if (state.painted?.title !== title) state.task.title = title
      if (state.painted?.output !== output) state.task.output = output
      state.painted = {title, output}
    })
  }

  /** The mode's final line, and its task done: after this, the task is never touched again. */
  private settle(board: Board, state: ModeState): void {
    const task = state.task
    const resolve = state.resolve
    state.task = undefined
    state.resolve = undefined
    if (task) {
      const title = modeLine(state, this.now() - board.started, board.label, true)
      if (state.painted?.output) task.output = ''
      if (state.painted?.title !== title) task.title = title
    }
    resolve?.()
  }

  private finish(board: Board): void {
    if (board.finished) return
    board.finished = true
    clearInterval(this.timer)
    this.timer = undefined
    for (const state of board.modes) state.active.clear()
    if (this.style === 'plain') {
      for (const state of board.modes) this.summary(board, state)
      return
    }
    for (const state of board.modes) this.settle(board, state)
  }

  /** Finishes whatever is still shown and waits for the renderer's last frame. Safe to call again. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const board of this.boards) this.finish(board)
      await this.live
    })()
    return this.closing
  }
}
