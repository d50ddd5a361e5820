// Defect 9: the sandbox's state, the fixture manifest, reports and gate files are written atomically
// (a temporary file beside them, then a rename): a reader or a crash never sees half of one.
import {mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {writeFileAtomic} from '../../src/shared/atomic-write.js'
import {makeRow} from '../support/rows.js'
import {project, runCli, scratch} from '../support/reliability.js'

const inode = (file: string) => statSync(file).ino
const leftovers = (dir: string) =>
  (readdirSync(dir, {recursive: true}) as string[]).filter((f) => /\.tmp$|\.partial$/.test(f))

describe('reliability: atomic writes', function () {
  this.timeout(60_000)

  it('a reader never sees half a file while it is rewritten', async () => {
    const dir = await scratch()
    const file = path.join(dir, 'state.json')
    const big = (n: number) => JSON.stringify({n, pad: 'x'.repeat(2_000_000)})
    await writeFileAtomic(file, big(0))
    let reads = 0
    let writing = true
    const reader = (async () => {
      while (writing) {
        JSON.parse(readFileSync(file, 'utf8'))
        reads++
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    for (let n = 1; n <= 20; n++) await writeFileAtomic(file, big(n))
    writing = false
    await reader
    expect(reads).to.be.above(0)
    expect((JSON.parse(readFileSync(file, 'utf8')) as {n: number}).n).to.equal(20)
    expect(readdirSync(dir)).to.deep.equal(['state.json'])
  })

  it('sandbox state, manifest, reports and gate files are replaced by rename (a new inode), leaving no temporary file', async () => {
    const dir = await project()
    const first = await runCli(['run', 'catalogue/one.yml', '--run-id', 'atomic'], {cwd: dir, env: {CI: '1'}})
    expect(first.code, first.stderr).to.equal(0)
    const files = [
      '.ghx-bench/sandbox.json',
      'fixtures/latest.json',
      'reports/atomic/summary.json',
      'reports/atomic/summary.md',
      'reports/atomic/summary.html',
      'results/atomic/run.json',
    ]
    const before = Object.fromEntries(files.map((f) => [f, inode(path.join(dir, f))]))
    const again = await runCli(['run', 'catalogue/one.yml', '--run-id', 'atomic', '--repetitions', '4'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(again.code, again.stderr).to.equal(0)
    for (const file of files) expect(inode(path.join(dir, file)), file).to.not.equal(before[file])

    mkdirSync(path.join(dir, 'in'))
    writeFileSync(
      path.join(dir, 'in', 'rows.jsonl'),
      [makeRow({mode: 'agent_direct'}), makeRow({mode: 'ghx'})].map((r) => JSON.stringify(r)).join('\n') + '\n',
    )
    const gate = () =>
      runCli(['gate', '--input', 'in/rows.jsonl', '--candidate', 'ghx', '--out', 'gated', '--resamples', '200'], {
        cwd: dir,
      })
    expect((await gate()).code).to.be.oneOf([0, 1, 3])
    const gateInode = inode(path.join(dir, 'gated', 'gate.json'))
    expect((await gate()).code).to.be.oneOf([0, 1, 3])
    expect(inode(path.join(dir, 'gated', 'gate.json'))).to.not.equal(gateInode)
    expect(leftovers(dir)).to.deep.equal([])
  })
})
