// Streaming a file's lines, whole or a byte range of it: line numbers within the range, lines split
// across read chunks joined, and a last line without a newline flagged. A line longer than a row may be
// is bad input at its file:line, refused before it is held whole; a FIFO or a device is refused before
// it is opened (it would block, or never end).
import {execFileSync} from 'node:child_process'
import {truncateSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {MAX_LINE_BYTES, readLineBatches, type Line, type ReadLinesOptions} from '../../src/results/lines.js'
import {isBadInputError, type BadInputError} from '../../src/shared/diagnostics.js'

async function collect(file: string, range?: {start: number; end: number}): Promise<Line[]> {
  const lines: Line[] = []
  for await (const batch of readLineBatches(file, {range})) lines.push(...batch)
  return lines
}

/** The one finding reading `file` to its end gives, as file:line message. */
async function refusal(file: string, options: ReadLinesOptions): Promise<string> {
  try {
    for await (const _ of readLineBatches(file, options));
  } catch (error) {
    expect(isBadInputError(error), String(error)).to.equal(true)
    const [d] = (error as BadInputError).diagnostics
    return `${d!.file}${d!.line === undefined ? '' : `:${d!.line}`} ${d!.message}`
  }
  throw new Error(`${file} was read to its end`)
}

describe('lines', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-lines-'))
  })
  after(() => rm(dir, {recursive: true, force: true}))

  it('reads lines longer than a read chunk whole, and flags a last line with no newline', async () => {
    const file = path.join(dir, 'long.jsonl')
    const long = 'x'.repeat(200_000)
    writeFileSync(file, `a\n${long}\nb\n${long}c`)
    const lines = await collect(file)
    expect(lines.map((l) => [l.number, l.text.length, l.unterminated])).to.deep.equal([
      [1, 1, false],
      [2, 200_000, false],
      [3, 1, false],
      [4, 200_001, true],
    ])
  })

  it('reads a byte range, numbering its lines from 1', async () => {
    const file = path.join(dir, 'range.jsonl')
    writeFileSync(file, 'one\ntwo\nthree\nfour\n')
    expect((await collect(file, {start: 4, end: 14})).map((l) => [l.number, l.text, l.unterminated])).to.deep.equal([
      [1, 'two', false],
      [2, 'three', false],
    ])
  })

  it('decodes a character split between two read chunks whole', async () => {
    const file = path.join(dir, 'split.jsonl')
    // 64 KiB chunks: the euro sign's three bytes straddle the first chunk's end.
    const text = 'a'.repeat((1 << 16) - 1) + '€'
    writeFileSync(file, `${text}\nb\n`)
    expect((await collect(file)).map((l) => l.text)).to.deep.equal([text, 'b'])
  })

  it('leaves out a byte order mark at the start of the file (it glued to the first row as a torn line)', async () => {
    const file = path.join(dir, 'bom.jsonl')
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}\n')]))
    expect((await collect(file)).map((l) => l.text)).to.deep.equal(['{"a":1}', '{"b":2}'])
  })

  it('refuses a line longer than a row may be at its file:line, within or at the end of the file', async () => {
    const file = path.join(dir, 'long-row.jsonl')
    writeFileSync(file, `{"a":1}\n${'x'.repeat(300_000)}\n{"b":2}\n`)
    expect(await refusal(file, {shown: 'long-row.jsonl', maxLineBytes: 200_000})).to.equal(
      'long-row.jsonl:2 this line is longer than 200000 bytes, more than a row may be: not a results file of ghx-bench, ghx-router or ghx eval',
    )
    writeFileSync(file, `{"a":1}\n${'x'.repeat(300_000)}`)
    expect(await refusal(file, {shown: 'long-row.jsonl', maxLineBytes: 200_000})).to.match(/^long-row\.jsonl:2 /)
    expect((await collect(file)).map((l) => l.text.length)).to.deep.equal([7, 300_000])
  })

  it('refuses a line of 1 GB (a sparse file: nothing on disk) as bad input, never running out of memory', async () => {
    const file = path.join(dir, 'huge.jsonl')
    writeFileSync(file, '')
    truncateSync(file, 1 << 30)
    expect(await refusal(file, {shown: 'huge.jsonl'})).to.match(
      new RegExp(`^huge\\.jsonl:1 this line is longer than ${MAX_LINE_BYTES} bytes`),
    )
  })

  it('refuses a FIFO, a device and a folder before opening them', async () => {
    const fifo = path.join(dir, 'pipe.jsonl')
    execFileSync('mkfifo', [fifo])
    expect(await refusal(fifo, {shown: 'pipe.jsonl'})).to.equal(
      'pipe.jsonl is a FIFO (named pipe), not a regular file: ghx-bench reads only regular files',
    )
    expect(await refusal('/dev/zero', {})).to.equal(
      '/dev/zero is a character device, not a regular file: ghx-bench reads only regular files',
    )
    expect(await refusal(dir, {shown: 'dir'})).to.equal(
      'dir is a folder, not a regular file: ghx-bench reads only regular files',
    )
  })
})
