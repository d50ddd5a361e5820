import {appendFile, mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import {readRows} from '../../src/results/sources.js'
import {ResultsWriter, type ReadWarning} from '../../src/results/store.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {makeRow} from '../support/rows.js'

async function readAll(file: string): Promise<{rows: Row[]; warnings: ReadWarning[]}> {
  const warnings: ReadWarning[] = []
  const rows: Row[] = []
  for await (const row of readRows([file], (w) => warnings.push(w), path.dirname(file))) rows.push(row)
  return {rows, warnings}
}

describe('results store', () => {
  it('appends rows one per line, concurrent appends never interleaved', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-store-'))
    const writer = await ResultsWriter.open(dir, 'run-1')
    await Promise.all(Array.from({length: 50}, (_, i) => writer.append(makeRow({iteration: i + 1}))))
    await writer.close()
    const lines = (await readFile(writer.file, 'utf8')).trimEnd().split('\n')
    expect(lines).to.have.length(50)
    const {rows} = await readAll(writer.file)
    expect(rows.map((r) => r.iteration)).to.deep.equal(Array.from({length: 50}, (_, i) => i + 1))
  })

  it('leaves out a torn last line (a crash mid-write) with a warning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-store-'))
    const file = path.join(dir, 'run.jsonl')
    await writeFile(
      file,
      JSON.stringify(makeRow({iteration: 1})) + '\n' + JSON.stringify(makeRow({iteration: 2})) + '\n',
    )
    await appendFile(file, JSON.stringify(makeRow({iteration: 3})).slice(0, 40))
    const {rows, warnings} = await readAll(file)
    expect(rows).to.have.length(2)
    expect(warnings).to.deep.equal([
      {
        file: 'run.jsonl',
        line: 3,
        message: 'the last line is incomplete (a run was cut off mid-write); it is left out',
      },
    ])
  })

  it('reports any other bad line as file:line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-store-'))
    const file = path.join(dir, 'run.jsonl')
    await writeFile(
      file,
      JSON.stringify(makeRow({iteration: 1})) + '\n{"oops": \n' + JSON.stringify(makeRow({iteration: 2})) + '\n',
    )
    const error = await readAll(file).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).to.be.instanceOf(BadInputError)
    expect((error as BadInputError).diagnostics[0]).to.include({file: 'run.jsonl', line: 2})
  })

  it('refuses a JSON line that claims to be a row but breaks the row schema', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-store-'))
    const file = path.join(dir, 'run.jsonl')
    await writeFile(file, JSON.stringify({...makeRow({}), iteration: 0}) + '\n')
    const error = (await readAll(file).catch((e: unknown) => e)) as BadInputError
    expect(error.diagnostics[0]!.message).to.match(/^not a valid ghx-bench row: \/iteration must be >= 1/)
  })
})
