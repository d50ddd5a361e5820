// Reading results files: rows handed over in file order (ghx-router rows unnormalized to a reader that
// wants their figures only), a row an earlier file gave counted once, a run one file gives twice refused.
import {writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import {fileKind, readRows, visitFile} from '../../src/results/sources.js'
import type {ReadWarning} from '../../src/results/store.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {makeRow} from '../support/rows.js'

const routerRow = (iteration: number) => ({
  timestamp: '2026-02-25T17:35:31.510Z',
  run_id: 'r',
  mode: 'ghx',
  scenario_id: 'x-wf-001',
  scenario_set: 'all',
  iteration,
  success: true,
  output_valid: true,
  latency_ms_wall: 1000,
  latency_ms_agent: 900,
  tokens: {input: 1, output: 2, reasoning: 0, cache_read: 0, cache_write: 0, total: 3},
  cost: 0,
  tool_calls: 1,
  external_retry_count: 0,
  model: {provider_id: 'openai', model_id: 'm', mode: null},
  git: null,
  error: null,
})

describe('sources', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-sources-'))
  })
  afterEach(() => rm(dir, {recursive: true, force: true}))

  it('tells results.csv, a JSON array and JSON lines apart', () => {
    expect(fileKind('results.csv', '')).to.equal('csv')
    expect(fileKind('x', 'run_id,scenario_id,mode\n')).to.equal('csv')
    expect(fileKind('x.json', '  [{"a":1}]')).to.equal('json')
    expect(fileKind('x.jsonl', '{"a":1}\n')).to.equal('jsonl')
  })

  it('hands ghx-router rows over as parsed, and ghx-bench rows whole, in file order', async () => {
    const file = path.join(dir, 'mixed.jsonl')
    writeFileSync(
      file,
      [JSON.stringify(routerRow(1)), JSON.stringify(makeRow({iteration: 2})), JSON.stringify(routerRow(3))].join('\n') +
        '\n',
    )
    const seen: string[] = []
    for await (const _ of visitFile(file, 'mixed.jsonl', () => {}, {
      row: (row) => seen.push(`row ${row.iteration}`),
      router: (source) => seen.push(`router ${source.iteration}`),
    }));
    expect(seen).to.deep.equal(['router 1', 'row 2', 'router 3'])
  })

  it('counts a row an earlier file gave once (the earlier copy kept)', async () => {
    const first = path.join(dir, 'a.jsonl')
    const second = path.join(dir, 'b.jsonl')
    writeFileSync(
      first,
      [1, 2, 3].map((i) => JSON.stringify(makeRow({iteration: i, activeTokens: 100 + i}))).join('\n') + '\n',
    )
    writeFileSync(
      second,
      [2, 3, 4].map((i) => JSON.stringify(makeRow({iteration: i, activeTokens: 200 + i}))).join('\n') + '\n',
    )
    const rows: Row[] = []
    const warnings: ReadWarning[] = []
    for await (const row of readRows([first, second], (w) => warnings.push(w), dir)) rows.push(row)
    expect(rows.map((r) => [r.iteration, r.tokens.active])).to.deep.equal([
      [1, 101],
      [2, 102],
      [3, 103],
      [4, 204],
    ])
    expect(warnings).to.deep.equal([
      {
        file: 'b.jsonl',
        line: 0,
        message:
          '2 row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once',
      },
    ])
  })

  // Issue 27, item 2: `cat r.jsonl r.jsonl > doubled.jsonl` counted every run twice.
  it('refuses a file that gives a run twice, naming the line of the repeat and the line it repeats, before handing on its rows', async () => {
    const file = path.join(dir, 'doubled.jsonl')
    const lines = [1, 2, 3].map((i) => JSON.stringify(makeRow({iteration: i})))
    writeFileSync(file, [...lines, '', lines[1], lines[0]].join('\n') + '\n')
    const rows: Row[] = []
    const error = await (async () => {
      for await (const row of readRows([file], () => {}, dir)) rows.push(row)
    })().catch((e: unknown) => e)
    expect(error).to.be.instanceOf(BadInputError)
    expect((error as BadInputError).diagnostics).to.deep.equal([
      {
        file: 'doubled.jsonl',
        line: 5,
        col: 1,
        code: 'duplicate_id',
        message:
          'this line repeats the run of line 2 (run_id "run-1", scenario "issue-view-001", mode "agent_direct", provider "agent-loop", iteration 2): a results file holds each run once, so one of the copies is not that run (files concatenated, rows pasted twice?) and counting either could hide a failure; remove the repeated rows',
      },
    ])
    expect(rows).to.deep.equal([])
  })

  it('refuses a repeat that an earlier file also gave, and one in a JSON array or a ghx-router file', async () => {
    const first = path.join(dir, 'a.jsonl')
    const second = path.join(dir, 'b.jsonl')
    writeFileSync(first, JSON.stringify(makeRow({iteration: 1})) + '\n')
    writeFileSync(second, [1, 2, 1].map((i) => JSON.stringify(makeRow({iteration: i}))).join('\n') + '\n')
    const refused = async (files: string[]) => {
      const error = await (async () => {
        for await (const _ of readRows(files, () => {}, dir));
      })().catch((e: unknown) => e)
      expect(error, files.join(' ')).to.be.instanceOf(BadInputError)
      return (error as BadInputError).diagnostics[0]!
    }
    expect(await refused([first, second])).to.include({file: 'b.jsonl', line: 3, code: 'duplicate_id'})
    const array = path.join(dir, 'rows.json')
    writeFileSync(array, JSON.stringify([makeRow({iteration: 1}), makeRow({iteration: 2}), makeRow({iteration: 2})]))
    const inArray = await refused([array])
    expect(inArray).to.include({file: 'rows.json', line: 3})
    expect(inArray.message).to.match(/^this element repeats the run of element 2 /)
    const router = path.join(dir, 'router.jsonl')
    writeFileSync(router, [1, 2, 1].map((i) => JSON.stringify(routerRow(i))).join('\n') + '\n')
    expect(await refused([router])).to.include({file: 'router.jsonl', line: 3, code: 'duplicate_id'})
  })
})
