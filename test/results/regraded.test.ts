// Re-graded rows take the place of their originals: which files are read, in which order.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {describeSuperseded, originalFileFor, regradedFileFor, withRegraded} from '../../src/results/regraded.js'

describe('re-graded results files', () => {
  let dir: string
  const file = (name: string) => path.join(dir, name)

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-regraded-'))
    for (const name of ['run-1.jsonl', 'run-1.regraded.jsonl', 'run-2.jsonl']) await writeFile(file(name), '')
  })

  it('names a run’s re-graded file and back', () => {
    expect(regradedFileFor('/r/run-1.jsonl')).to.equal('/r/run-1.regraded.jsonl')
    expect(regradedFileFor('/r/run-1.regraded.jsonl')).to.equal('/r/run-1.regraded.jsonl')
    expect(regradedFileFor('/r/results.json')).to.equal('/r/results.regraded.jsonl')
    expect(originalFileFor('/r/run-1.regraded.jsonl')).to.equal('/r/run-1.jsonl')
    expect(originalFileFor('/r/run-1.jsonl')).to.equal(undefined)
  })

  it('reads a run’s re-graded file before its original, whichever of the two was found', async () => {
    const expected = {
      files: [file('run-1.regraded.jsonl'), file('run-1.jsonl')],
      superseding: new Map([[file('run-1.jsonl'), file('run-1.regraded.jsonl')]]),
    }
    // By run id: only the original was resolved.
    expect(await withRegraded([file('run-1.jsonl')], new Set())).to.deep.equal(expected)
    // The newest run: the re-graded file was the newest.
    expect(await withRegraded([file('run-1.regraded.jsonl')], new Set())).to.deep.equal(expected)
    // A results folder: both, in name order.
    const folder = await withRegraded(
      [file('run-1.jsonl'), file('run-1.regraded.jsonl'), file('run-2.jsonl')],
      new Set(),
    )
    expect(folder.files).to.deep.equal([file('run-1.regraded.jsonl'), file('run-1.jsonl'), file('run-2.jsonl')])
  })

  it('reads a file named on its own as it is', async () => {
    expect((await withRegraded([file('run-1.jsonl')], new Set([file('run-1.jsonl')]))).files).to.deep.equal([
      file('run-1.jsonl'),
    ])
    const both = await withRegraded(
      [file('run-1.jsonl'), file('run-1.regraded.jsonl')],
      new Set([file('run-1.jsonl'), file('run-1.regraded.jsonl')]),
    )
    expect(both.files).to.deep.equal([file('run-1.regraded.jsonl'), file('run-1.jsonl')])
  })

  it('says superseded where the reader says duplicate', () => {
    const superseding = new Map([[file('run-1.jsonl'), file('run-1.regraded.jsonl')]])
    const warning = {
      file: 'run-1.jsonl',
      line: 0,
      message:
        '3 row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once',
    }
    expect(describeSuperseded(warning, superseding, dir).message).to.equal(
      '3 row(s) superseded by their re-graded rows in run-1.regraded.jsonl',
    )
    expect(describeSuperseded({...warning, file: 'run-2.jsonl'}, superseding, dir)).to.deep.equal({
      ...warning,
      file: 'run-2.jsonl',
    })
  })
})
