// Reading rows into the aggregate in worker threads (from source, as here, and from dist): torn lines
// and bad rows inside a worker's range reported at their line in the file, rows an earlier file gave
// counted once, a run the file gives twice refused, and the same aggregate as the main thread reads.
import {appendFileSync, readFileSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {aggregateFiles, splitAtLines, type AggregateOptions} from '../../../src/report/aggregate/read-aggregate.js'
import type {ReadWarning} from '../../../src/results/store.js'
import {BadInputError} from '../../../src/shared/diagnostics.js'
import {makeRow} from '../../support/rows.js'
import {aggregateView} from '../fixtures/golden-dataset.js'

const IN_WORKERS: AggregateOptions = {workers: 3, parallelMinBytes: 1}
const ON_MAIN: AggregateOptions = {workers: 1}

describe('read-aggregate', function () {
  this.timeout(30_000)
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-read-'))
  })
  afterEach(() => rm(dir, {recursive: true, force: true}))

  const lines = (count: number, mode = 'agent_direct', from = 1) =>
    Array.from({length: count}, (_, i) =>
      JSON.stringify(makeRow({mode, iteration: from + i, scenario_id: `s-${(from + i) % 3}`, activeTokens: 900 + i})),
    )

  async function read(files: string[], options: AggregateOptions) {
    const warnings: ReadWarning[] = []
    const providers = await aggregateFiles(files, (w) => warnings.push(w), dir, options)
    expect([...providers.keys()]).to.have.length(1)
    return {aggregate: [...providers.values()][0]!, warnings: warnings.map((w) => `${w.line}: ${w.message}`)}
  }

  it('splits a file into ranges that start at line starts and cover it', async () => {
    const file = path.join(dir, 'rows.jsonl')
    writeFileSync(file, lines(50).join('\n') + '\n')
    const text = readFileSync(file)
    const ranges = await splitAtLines(file, 3)
    expect(ranges).to.have.length(3)
    expect(ranges[0]!.start).to.equal(0)
    expect(ranges.at(-1)!.end).to.equal(text.length)
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]!.start).to.equal(ranges[i - 1]!.end)
      expect(text[ranges[i]!.start - 1]).to.equal(10)
    }
  })

  it('reports a torn line and a cut-off last line inside workers’ ranges at their line in the file', async () => {
    const file = path.join(dir, 'rows.jsonl')
    const rows = lines(90)
    // Line 70 (in the last range): a torn fragment glued to the row after it.
    rows[69] = rows[68]!.slice(0, 40) + rows[69]
    writeFileSync(file, rows.join('\n') + '\n')
    appendFileSync(file, rows[3]!.slice(0, 50))
    const here = await read([file], ON_MAIN)
    const there = await read([file], IN_WORKERS)
    expect(here.warnings).to.deep.equal([
      '70: a torn line (a run cut off mid-write) is glued to the row after it: the fragment is left out, the row kept',
      '91: the last line is incomplete (a run was cut off mid-write); it is left out',
    ])
    expect(there.warnings).to.deep.equal(here.warnings)
    expect(there.aggregate.rows).to.equal(90)
    expect(aggregateView(there.aggregate)).to.deep.equal(aggregateView(here.aggregate))
  })

  it('reports a bad row in a later worker’s range at its line in the file, as bad input', async () => {
    const file = path.join(dir, 'rows.jsonl')
    const rows = lines(90)
    rows[80] = JSON.stringify({...makeRow({}), latency_ms_wall: 'slow'})
    writeFileSync(file, rows.join('\n') + '\n')
    for (const options of [ON_MAIN, IN_WORKERS]) {
      const error = await aggregateFiles([file], () => {}, dir, options).catch((e: unknown) => e)
      expect(error).to.be.instanceOf(BadInputError)
      const [diagnostic] = (error as BadInputError).diagnostics
      expect(diagnostic).to.include({file: 'rows.jsonl', line: 81, code: 'schema'})
      expect(diagnostic!.message).to.include('not a valid ghx-bench row: /latency_ms_wall must be number')
    }
  })

  it('counts a row an earlier file gave once, whether the later file is read here or in workers', async () => {
    const first = path.join(dir, 'a.jsonl')
    const second = path.join(dir, 'b.jsonl')
    writeFileSync(first, lines(30, 'ghx').join('\n') + '\n')
    // The second file repeats iterations 21-30 of the first (with other figures: the first file's win) and adds 31-60.
    writeFileSync(
      second,
      [...lines(10, 'ghx', 21).map((l) => l.replace('"active":9', '"active":1')), ...lines(30, 'ghx', 31)].join('\n') +
        '\n',
    )
    const here = await read([first, second], ON_MAIN)
    const there = await read([first, second], IN_WORKERS)
    expect(here.aggregate.rows).to.equal(60)
    // The first file's copies were kept: no active-token figure of the second file's repeats (100-109).
    const active = [...here.aggregate.cells.get('ghx')!.values()].flatMap((cell) =>
      Array.from(cell.all.tokens_active.values()),
    )
    expect(Math.min(...active)).to.equal(900)
    expect(here.warnings).to.deep.equal([
      '0: 10 row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once',
    ])
    expect(there.warnings).to.deep.equal(here.warnings)
    expect(aggregateView(there.aggregate)).to.deep.equal(aggregateView(here.aggregate))
  })

  // Issue 27, item 2: a run one file gives twice was counted twice (a failing gate passed on `cat r.jsonl r.jsonl`).
  it('refuses a run the file gives twice, within a worker’s range or across ranges, at the line of the repeat', async () => {
    const file = path.join(dir, 'rows.jsonl')
    const rows = lines(90)
    const cases: Array<[string, number, number]> = [
      // [where, the line repeated, the line of the repeat]
      ['within the last range', 85, 88],
      ['across the first and the last range', 5, 80],
      ['the whole file twice', 1, 91],
    ]
    for (const [where, first, repeat] of cases) {
      const text =
        where === 'the whole file twice'
          ? [...rows, ...rows]
          : rows.map((row, i) => (i === repeat - 1 ? rows[first - 1]! : row))
      writeFileSync(file, text.join('\n') + '\n')
      for (const options of [ON_MAIN, IN_WORKERS]) {
        const error = await aggregateFiles([file], () => {}, dir, options).catch((e: unknown) => e)
        expect(error, `${where}, ${options.workers} worker(s)`).to.be.instanceOf(BadInputError)
        const [diagnostic] = (error as BadInputError).diagnostics
        expect(diagnostic, where).to.include({file: 'rows.jsonl', line: repeat, col: 1, code: 'duplicate_id'})
        expect(diagnostic!.message, where).to.match(
          new RegExp(
            `^this line repeats the run of line ${first} \\(run_id "run-1", scenario "s-${first % 3}", mode "agent_direct", provider "agent-loop", iteration ${first}\\)`,
          ),
        )
      }
    }
  })

  it('keeps each provider’s rows in an aggregate of its own (the same run of two providers is not a repeat), here and in workers', async () => {
    const file = path.join(dir, 'providers.jsonl')
    const rows = (provider: string, activeTokens: number) =>
      Array.from({length: 40}, (_, i) =>
        JSON.stringify(makeRow({provider, iteration: i + 1, scenario_id: `s-${i % 2}`, activeTokens})),
      )
    writeFileSync(file, [...rows('agent-loop', 900), ...rows('claude-code', 5000)].join('\n') + '\n')
    for (const options of [ON_MAIN, IN_WORKERS]) {
      const providers = await aggregateFiles([file], () => {}, dir, options)
      expect([...providers.keys()], `${options.workers} worker(s)`).to.deep.equal(['agent-loop', 'claude-code'])
      for (const [provider, active] of [
        ['agent-loop', 900],
        ['claude-code', 5000],
      ] as const) {
        const aggregate = providers.get(provider)!
        expect(aggregate.rows).to.equal(40)
        const values = [...aggregate.cells.get('agent_direct')!.values()].flatMap((cell) =>
          Array.from(cell.all.tokens_active.values()),
        )
        expect(new Set(values)).to.deep.equal(new Set([active]))
      }
    }
  })

  it('reads ghx-router rows in workers to the same aggregate as on the main thread', async () => {
    const file = path.join(dir, 'router.jsonl')
    const router = Array.from({length: 60}, (_, i) =>
      JSON.stringify({
        timestamp: '2026-02-25T17:35:31.510Z',
        run_id: 'r',
        mode: i % 2 ? 'ghx' : 'agent_direct',
        scenario_id: `x-wf-00${i % 4}`,
        scenario_set: 'all',
        iteration: Math.floor(i / 2) + 1,
        success: i % 9 !== 0,
        output_valid: i % 9 !== 0,
        latency_ms_wall: 20_000 + i,
        latency_ms_agent: 19_000 + i,
        tokens: {input: 1, output: 2, reasoning: 0, cache_read: 500, cache_write: 0, total: 3000 + i},
        cost: 0,
        tool_calls: 3,
        external_retry_count: 0,
        model: {provider_id: 'openai', model_id: 'gpt-5.3-codex', mode: null},
        git: null,
        error: i % 9 === 0 ? {type: 'runner_error', message: 'Timed out waiting'} : null,
      }),
    )
    writeFileSync(file, router.join('\n') + '\n')
    const here = await read([file], ON_MAIN)
    const there = await read([file], IN_WORKERS)
    expect(here.aggregate.rows).to.equal(60)
    expect(here.aggregate.failures.total).to.equal(7)
    expect(aggregateView(there.aggregate)).to.deep.equal(aggregateView(here.aggregate))
  })
})
