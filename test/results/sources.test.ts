// Reading results files: rows handed over in file order (ghx-router rows unnormalized to a reader that
// wants their figures only), a row an earlier file gave counted once, a run one file gives twice refused.
// Inputs are regular files: a device, a FIFO, a socket or a link loop is named as bad input before
// anything is opened (a FIFO would block the read, /dev/zero never ends).
import {execFileSync} from 'node:child_process'
import {mkdirSync, symlinkSync, truncateSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import net from 'node:net'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import {fileKind, MAX_WHOLE_FILE_BYTES, readRows, resolveInputFiles, visitFile} from '../../src/results/sources.js'
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

  it('names every input that is no regular file at once, before opening any: a device, a FIFO, a socket, a link loop', async () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe.jsonl')])
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'socket.jsonl'), resolve))
    symlinkSync('loop-b.jsonl', path.join(dir, 'loop-a.jsonl'))
    symlinkSync('loop-a.jsonl', path.join(dir, 'loop-b.jsonl'))
    try {
      const error = await resolveInputFiles({
        inputs: ['/dev/zero', 'pipe.jsonl', 'socket.jsonl', 'loop-a.jsonl', 'missing.jsonl'],
        resultsDir: path.join(dir, 'results'),
        cwd: dir,
      }).catch((e: unknown) => e)
      expect(error).to.be.instanceOf(BadInputError)
      expect((error as BadInputError).diagnostics.map((d) => `${d.file}: ${d.message}`)).to.deep.equal([
        '/dev/zero: is a character device, not a regular file: ghx-bench reads only regular files',
        'loop-a.jsonl: a loop of symbolic links',
        'missing.jsonl: no such file or folder',
        'pipe.jsonl: is a FIFO (named pipe), not a regular file: ghx-bench reads only regular files',
        'socket.jsonl: is a socket, not a regular file: ghx-bench reads only regular files',
      ])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('in a folder, refuses a FIFO and leaves out a run’s own folder named like a results file', async () => {
    const folder = path.join(dir, 'in')
    mkdirSync(path.join(folder, 'nightly.json'), {recursive: true})
    writeFileSync(path.join(folder, 'a.jsonl'), JSON.stringify(makeRow({})) + '\n')
    expect(await resolveInputFiles({inputs: ['in'], resultsDir: dir, cwd: dir})).to.deep.equal([
      path.join(folder, 'a.jsonl'),
    ])
    execFileSync('mkfifo', [path.join(folder, 'b.jsonl')])
    const error = await resolveInputFiles({inputs: ['in'], resultsDir: dir, cwd: dir}).catch((e: unknown) => e)
    expect((error as BadInputError).diagnostics).to.deep.equal([
      {
        file: path.join('in', 'b.jsonl'),
        code: 'io',
        message: 'is a FIFO (named pipe), not a regular file: ghx-bench reads only regular files',
      },
    ])
  })

  it('refuses the newest run in results_dir when it is a FIFO, rather than waiting on it', async () => {
    const results = path.join(dir, 'results')
    mkdirSync(results)
    execFileSync('mkfifo', [path.join(results, 'run-9.jsonl')])
    const error = await resolveInputFiles({resultsDir: results, cwd: dir}).catch((e: unknown) => e)
    expect((error as BadInputError).diagnostics[0]).to.include({file: path.join('results', 'run-9.jsonl')})
  })

  it('refuses a JSON array too large to parse whole without reading it, and escapes the control characters a parser quotes', async () => {
    const array = path.join(dir, 'rows.json')
    writeFileSync(array, '[')
    truncateSync(array, MAX_WHOLE_FILE_BYTES + 1)
    const visit = async (file: string) => {
      const error = await (async () => {
        for await (const _ of visitFile(file, path.basename(file), () => {}, {row: () => {}, router: () => {}}));
      })().catch((e: unknown) => e)
      expect(error).to.be.instanceOf(BadInputError)
      return (error as BadInputError).diagnostics[0]!
    }
    expect((await visit(array)).message).to.equal(
      `${MAX_WHOLE_FILE_BYTES + 1} bytes: a JSON or CSV results file is read whole, and may hold at most ${MAX_WHOLE_FILE_BYTES}; give the rows as JSON lines (.jsonl, one a line)`,
    )
    const binary = path.join(dir, 'binary.jsonl')
    writeFileSync(binary, Buffer.from([0xff, 0x00, 0x0d, 0x62, 0x0a]))
    const finding = await visit(binary)
    expect(finding).to.include({file: 'binary.jsonl', line: 1})
    expect(finding.message).to.match(/^not JSON: .*\\u0000\\u000d/)
    expect(finding.message).to.not.match(/\p{Cc}/u)
  })

  it('reads a JSON array that starts with a byte order mark (JSON.parse refused it)', async () => {
    const array = path.join(dir, 'bom.json')
    writeFileSync(array, '\uFEFF' + JSON.stringify([makeRow({})]))
    const rows: Row[] = []
    for await (const row of readRows([array], () => {}, dir)) rows.push(row)
    expect(rows.map((r) => r.scenario_id)).to.deep.equal(['issue-view-001'])
  })
})
