/**
 * The view of a suite run: listr2, one task per mode whose title carries done/total, pass/fail,
 * tokens so far and an ETA, with the active runs listed under it; the `simple` renderer when stdout
 * is not a TTY or CI is set; or, under --json, one JSON line per event on stdout.
 */
import {Listr, type ListrTaskWrapper} from 'listr2'
import type {SuiteEvent} from './run-suite.js'

export type ProgressStyle = 'tty' | 'plain' | 'json' | 'silent'

interface ModeState {
  total: number
  done: number
  pass: number
  fail: number
  tokens: number
  active: Set<string>
  started: number
  task?: ListrTaskWrapper<unknown, never, never>
  finish?: () => void
}

function formatEta(ms: number): string {
  if (!Number.isFinite(ms)) return '?'
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

export function progressStyle(json: boolean, env: NodeJS.ProcessEnv = process.env, isTty = process.stdout.isTTY === true): ProgressStyle {
  if (json) return 'json'
  return isTty && !env.CI ? 'tty' : 'plain'
}

export class ProgressView {
  private readonly modes = new Map<string, ModeState>()
  private list?: Promise<unknown>

  constructor(
    private readonly style: ProgressStyle,
    private readonly write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

  readonly onEvent = (event: SuiteEvent): void => {
    if (this.style === 'json') {
      // Progress events are small and frequent; tool-level ones are left out of the JSON stream.
      if (event.type !== 'run_progress' || event.event.kind === 'turn') this.write(JSON.stringify({...event, timestamp: new Date().toISOString()}))
      return
    }
    if (this.style === 'silent') return
    switch (event.type) {
      case 'suite_started':
        for (const [mode, total] of Object.entries(event.per_mode)) this.modes.set(mode, {total, done: 0, pass: 0, fail: 0, tokens: 0, active: new Set(), started: Date.now()})
        this.start()
        break
      case 'run_started':
        this.update(event.mode, (s) => s.active.add(`${event.scenario_id} #${event.iteration}`))
        break
      case 'run_progress':
        if (event.event.kind === 'turn') {
          const usage = event.event.usage
          this.update(event.mode, (s) => (s.tokens += usage.input + usage.output + usage.reasoning + usage.cache_read + usage.cache_write))
        }
        break
      case 'run_finished':
        this.update(event.mode, (s) => {
          s.active.delete(`${event.scenario_id} #${event.iteration}`)
          s.done++
          if (event.outcome === 'pass') s.pass++
          else s.fail++
        })
        break
      case 'suite_finished':
        for (const state of this.modes.values()) state.finish?.()
        break
    }
  }

  private title(mode: string, s: ModeState): string {
    const elapsed = Date.now() - s.started
    const eta = s.done > 0 ? formatEta((elapsed / s.done) * (s.total - s.done)) : '?'
    return `${mode}  ${s.done}/${s.total}  pass ${s.pass}  fail ${s.fail}  tokens ${s.tokens}  ETA ${s.done >= s.total ? '-' : eta}`
  }

  private update(mode: string, change: (state: ModeState) => void): void {
    const state = this.modes.get(mode)
    if (!state) return
    change(state)
    if (state.task) {
      state.task.title = this.title(mode, state)
      // The simple renderer prints every output change as a line: show active runs only in a live view.
      if (this.style === 'tty') state.task.output = [...state.active].join('\n')
    }
  }

  private start(): void {
    const list = new Listr(
      [...this.modes.entries()].map(([mode, state]) => ({
        title: this.title(mode, state),
        task: (_ctx: unknown, task: ListrTaskWrapper<unknown, never, never>) =>
          new Promise<void>((resolve) => {
            state.task = task
            state.finish = () => {
              task.title = this.title(mode, state)
              task.output = ''
              resolve()
            }
            if (state.total === 0) state.finish()
          }),
        rendererOptions: {persistentOutput: false, outputBar: Infinity},
      })),
      {
        concurrent: true,
        exitOnError: false,
        registerSignalListeners: false,
        renderer: this.style === 'tty' ? 'default' : 'simple',
        rendererOptions: {collapseSubtasks: false},
      },
    )
    this.list = list.run()
  }

  /** Waits for the renderer to print its last state. */
  async close(): Promise<void> {
    for (const state of this.modes.values()) state.finish?.()
    await this.list
  }
}
