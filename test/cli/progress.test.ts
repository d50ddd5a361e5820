// The progress view: plain lines, the live view bounded to the terminal, and finishing that never fails.
import {Writable} from 'node:stream'
import {setTimeout as sleep} from 'node:timers/promises'
import {expect} from 'chai'
import {activeLines, activeRoom, modeLine, ProgressView} from '../../src/cli/progress.js'
import type {SuiteEvent} from '../../src/runner/run-suite.js'

const started = (perMode: Record<string, number>): SuiteEvent => ({
  type: 'suite_started',
  run_id: 'r1',
  modes: Object.keys(perMode),
  unavailable: [],
  total: Object.values(perMode).reduce((a, b) => a + b, 0),
  skipped: 0,
  seed: 7,
  per_mode: perMode,
})
const runStarted = (mode: string, scenario: string, iteration = 1): SuiteEvent => ({
  type: 'run_started',
  key: `${scenario}/${mode}/${iteration}`,
  mode,
  scenario_id: scenario,
  iteration,
})
const turn = (mode: string, scenario: string, tokens: number): SuiteEvent => ({
  type: 'run_progress',
  key: `${scenario}/${mode}/1`,
  mode,
  event: {kind: 'turn', usage: {input: tokens, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}},
})
const runFinished = (
  mode: string,
  scenario: string,
  outcome: 'pass' | 'fail' | 'timeout' | 'infra_error' = 'pass',
  iteration = 1,
): SuiteEvent => ({
  type: 'run_finished',
  key: `${scenario}/${mode}/${iteration}`,
  mode,
  scenario_id: scenario,
  iteration,
  outcome,
  tokens: 120,
  ms: 345.6,
})
const suiteFinished: SuiteEvent = {type: 'suite_finished', run_id: 'r1', completed: 0, interrupted: false}

/** A stand-in terminal: what listr2 writes to it, frame by frame. */
function terminal(rows: number): {stream: NodeJS.WriteStream; frames: () => string[][]; raw: () => string} {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString())
      done()
    },
  }) as unknown as NodeJS.WriteStream
  Object.assign(stream, {isTTY: true, rows, columns: 100})
  // eslint-disable-next-line no-control-regex
  const plain = (text: string) => text.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '')
  return {
    stream,
    raw: () => chunks.join(''),
    frames: () =>
      chunks
        .map((c) =>
          plain(c)
            .split('\n')
            .filter((l) => l.trim() !== ''),
        )
        .filter((lines) => lines.length > 0),
  }
}

/** Waits (up to 5 s: listr2 loads its renderer's modules on first use) until `test` holds. */
async function until(test: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !test() && Date.now() < deadline;) await sleep(10)
}

describe('progress view', () => {
  it('formats mode lines and ETAs', () => {
    const state = {mode: 'mcp', total: 10, done: 4, pass: 3, fail: 1, tokens: 900}
    expect(modeLine(state, 8_000)).to.equal('mcp  4/10  pass 3  fail 1  tokens 900  ETA 12s')
    expect(modeLine({...state, done: 0}, 8_000)).to.match(/ETA \?$/)
    expect(modeLine(state, 8_000, 'noop', true)).to.equal('noop  mcp  4/10  pass 3  fail 1  tokens 900  stopped')
    expect(modeLine({...state, done: 10}, 8_000, '', true)).to.match(/10\/10 .* ETA -$/)
  })

  it('plain: one line per finished run, a summary per mode at every tenth and at the end', () => {
    const lines: string[] = []
    const view = new ProgressView('plain', {write: (l) => lines.push(l)})
    view.onEvent(started({agent_direct: 20, mcp: 2}))
    expect(lines).to.deep.equal(['run r1: 22 run(s) to do (agent_direct 20, mcp 2), 0 already recorded, seed 7'])
    for (let i = 1; i <= 20; i++) {
      view.onEvent(runStarted('agent_direct', `s-${i}`))
      view.onEvent(turn('agent_direct', `s-${i}`, 10))
      view.onEvent(runFinished('agent_direct', `s-${i}`, i === 3 ? 'timeout' : 'pass'))
    }
    view.onEvent(runStarted('mcp', 'x'))
    view.onEvent(runFinished('mcp', 'x', 'fail'))
    view.onEvent(suiteFinished)
    const runs = lines.filter((l) => / #\d+ {2}/.test(l))
    expect(runs).to.have.length(21)
    expect(runs[0]).to.equal('agent_direct  s-1 #1  pass  tokens 120  346 ms  (1/20)')
    expect(runs[2]).to.include('s-3 #1  timeout')
    expect(runs.at(-1)).to.equal('mcp  x #1  fail  tokens 120  346 ms  (1/2)')
    const summaries = lines.filter((l) => /^agent_direct {2}\d+\/20 /.test(l))
    // 2/20, 4/20 … 18/20, then the final one.
    expect(summaries).to.have.length(10)
    expect(summaries.at(-1)).to.equal('agent_direct  20/20  pass 19  fail 1  tokens 200  ETA -')
    expect(lines.at(-1)).to.equal('mcp  1/2  pass 0  fail 1  tokens 0  stopped')
  })

  it('plain: a summary line while runs finish, at least every summaryMs', async () => {
    const lines: string[] = []
    const view = new ProgressView('plain', {write: (l) => lines.push(l), summaryMs: 20})
    view.onEvent(started({agent_direct: 5}))
    view.onEvent(runStarted('agent_direct', 'a'))
    view.onEvent(runFinished('agent_direct', 'a'))
    await sleep(60)
    expect(lines.filter((l) => l.startsWith('agent_direct  1/5'))).to.have.length(1)
    await view.close()
  })

  it('json: one line per event, tool events left out', () => {
    const lines: string[] = []
    const view = new ProgressView('json', {write: (l) => lines.push(l)})
    view.onEvent(started({agent_direct: 1}))
    view.onEvent({type: 'run_progress', key: 'k', mode: 'agent_direct', event: {kind: 'tool', tool: 'shell'}})
    view.onEvent(turn('agent_direct', 'a', 5))
    view.handle(suiteFinished, 'noop')
    expect(lines.map((l) => (JSON.parse(l) as {type: string}).type)).to.deep.equal([
      'suite_started',
      'run_progress',
      'suite_finished',
    ])
    expect(JSON.parse(lines.at(-1)!)).to.include({phase: 'noop'})
  })

  it('the runs in flight fit the room given: the oldest first, then how many more', () => {
    const runs = Array.from({length: 10}, (_, i) => ({name: `s-${i} #1`, started: 1000 + i * 1000}))
    expect(activeLines(runs.slice(0, 2), 4, 5000)).to.deep.equal(['s-0 #1  4s', 's-1 #1  3s'])
    expect(activeLines([...runs].reverse(), 4, 12_000)).to.deep.equal([
      's-0 #1  11s',
      's-1 #1  10s',
      's-2 #1  9s',
      '… and 7 more',
    ])
    expect(activeLines(runs, 1, 12_000)).to.deep.equal(['… and 10 more'])
    expect(activeLines(runs, 0, 12_000)).to.deep.equal([])
    // 45 rows, 3 modes: 3 titles and 3 x 8 runs at most; a tiny terminal shows the titles only.
    expect(activeRoom(45, 3)).to.equal(8)
    expect(activeRoom(12, 2)).to.equal(4)
    expect(activeRoom(4, 3)).to.equal(0)
  })

  it('tty: the live view stays within the terminal’s rows and ends with one line per mode', async () => {
    const term = terminal(12)
    const view = new ProgressView('tty', {stream: term.stream, renderMs: 5})
    view.onEvent(started({agent_direct: 30, mcp: 30}))
    for (let i = 0; i < 30; i++) view.onEvent(runStarted('agent_direct', `s-${i}`))
    for (let i = 0; i < 3; i++) view.onEvent(runStarted('mcp', `m-${i}`))
    view.onEvent(runFinished('mcp', 'm-0'))
    await until(() => term.frames().some((f) => f.some((l) => l.includes('m-1 #1'))))
    const live = term.frames().filter((f) => f.some((l) => l.includes('agent_direct  0/30')))
    expect(live.length).to.be.above(0)
    const frame = live.at(-1)!
    expect(frame.length).to.be.at.most(12 - 1)
    expect(frame.join('\n')).to.match(/… and 2\d more/)
    expect(frame.join('\n')).to.include('mcp  1/30  pass 1  fail 0')
    expect(frame.join('\n')).to.include('m-1 #1')
    expect(frame.join('\n')).to.not.include('m-0 #1')
    // Every frame fits: no past list of runs is kept.
    for (const f of term.frames()) expect(f.length).to.be.at.most(11)
    view.onEvent(suiteFinished)
    await view.close()
    const last = term.frames().at(-1)!
    expect(last).to.have.length(2)
    expect(last[0]).to.match(/agent_direct {2}0\/30 .* stopped$/)
    expect(last[1]).to.match(/mcp {2}1\/30 .* stopped$/)
  })

  it('tty: a burst of events between two paints costs one repaint', async () => {
    const term = terminal(40)
    const view = new ProgressView('tty', {stream: term.stream, renderMs: 60_000})
    view.onEvent(started({agent_direct: 50, mcp: 50, ghx: 50}))
    await until(() => term.frames().some((f) => f.some((l) => l.includes('ghx  0/50'))))
    await sleep(20)
    const before = term.frames().length
    for (const mode of ['agent_direct', 'mcp', 'ghx']) {
      for (let i = 0; i < 10; i++) {
        view.onEvent(runStarted(mode, `s-${i}`))
        view.onEvent(turn(mode, `s-${i}`, 50))
        view.onEvent(runFinished(mode, `s-${i}`))
      }
      view.onEvent(runStarted(mode, 'last'))
    }
    // The events themselves repaint nothing; the next paint (here the notice's) repaints once.
    expect(term.frames().length).to.equal(before)
    view.note('a notice')
    const after = term.frames()
    expect(after.length).to.equal(before + 1)
    expect(after.at(-1)!.join('\n')).to.include('ghx  10/50  pass 10  fail 0  tokens 500')
    expect(after.at(-1)!.join('\n')).to.include('last #1')
    await view.close()
  })

  it('tty: finishing twice, events after the end, and close before any suite are all harmless', async () => {
    const idle = new ProgressView('tty', {stream: terminal(24).stream})
    await idle.close()
    await idle.close()

    const term = terminal(24)
    const view = new ProgressView('tty', {stream: term.stream, renderMs: 5})
    view.onEvent(started({agent_direct: 1}))
    // Finished before listr2 even started its task.
    view.onEvent(runStarted('agent_direct', 'a'))
    view.onEvent(runFinished('agent_direct', 'a'))
    view.onEvent(suiteFinished)
    view.onEvent(suiteFinished)
    await Promise.all([view.close(), view.close()])
    view.onEvent(runStarted('agent_direct', 'b'))
    view.onEvent(suiteFinished)
    view.note('interrupted')
    view.abort()
    await view.close()
    expect(term.frames().at(-1)).to.deep.equal(['✔ agent_direct  1/1  pass 1  fail 0  tokens 0  ETA -'])
  })

  it('tty: several suites in a row (calibration), a notice under the live view', async () => {
    const term = terminal(24)
    const view = new ProgressView('tty', {stream: term.stream, renderMs: 5})
    view.handle(started({agent_direct: 1}), 'oracle')
    view.handle(runStarted('agent_direct', 'a'), 'oracle')
    await until(() => term.frames().some((f) => f.some((l) => l.includes('a #1'))))
    view.handle(runFinished('agent_direct', 'a'), 'oracle')
    view.handle(suiteFinished, 'oracle')
    view.handle(started({agent_direct: 2}), 'noop')
    view.handle(runStarted('agent_direct', 'a'), 'noop')
    view.note('interrupted: aborting the runs in flight')
    await until(() => term.frames().some((f) => f.some((l) => l.includes('interrupted: aborting'))))
    expect(term.frames().some((f) => f.some((l) => l.includes('interrupted: aborting')))).to.equal(true)
    // A forced quit (Ctrl-C twice) gives the terminal its cursor back, past listr2's hold on the stream.
    view.abort()
    expect(term.raw().endsWith('\u001B[?25h\n')).to.equal(true)
    await view.close()
    const text = term.frames().flat()
    expect(text).to.include('✔ oracle  agent_direct  1/1  pass 1  fail 0  tokens 0  ETA -')
    expect(text.at(-1)).to.match(/noop {2}agent_direct {2}0\/2 .* stopped$/)
  })
})
