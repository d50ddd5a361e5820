// Streaming a file's lines, whole or a byte range of it: line numbers within the range, lines split
// across read chunks joined, and a last line without a newline flagged.
import {writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {readLineBatches, type Line} from '../../src/results/lines.js'

async function collect(file: string, range?: {start: number; end: number}): Promise<Line[]> {
  const lines: Line[] = []
  for await (const batch of readLineBatches(file, range)) lines.push(...batch)
  return lines
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
})
