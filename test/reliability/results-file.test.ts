// Defect 2: a torn last line (a crash mid-write) is set aside on resume, reported, never glued to the
// next row; kill -9 at random moments, mid-write included, loses no completed row.
import {appendFileSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {readRows} from '../../src/results/sources.js'
import {repairTornTail} from '../../src/results/store.js'
import {makeRow} from '../support/rows.js'
import {finished, keyOf, project, rowsOf, runCli, scratch, sleep, start} from '../support/reliability.js'
import type {ReadWarning} from '../../src/results/store.js'

const line = (row: object) => JSON.stringify(row) + '\n'

describe('reliability: the results file', function () {
  this.timeout(90_000)

  it('repairs a torn tail before appending: a fragment is set aside, a whole row only gets its newline', async () => {
    const dir = await scratch()
    const file = path.join(dir, 'r.jsonl')
    const aside = path.join(dir, 'r', 'torn-lines.txt')
    const first = makeRow({iteration: 1})
    const second = makeRow({iteration: 2})
    expect(await repairTornTail(file, aside), 'no file').to.equal(null)
    writeFileSync(file, line(first))
    expect(await repairTornTail(file, aside), 'clean').to.equal(null)
    appendFileSync(file, line(second).slice(0, 40))
    expect(await repairTornTail(file, aside)).to.deep.equal({kept: false, bytes: 40, aside})
    expect(readFileSync(file, 'utf8')).to.equal(line(first))
    expect(readFileSync(aside, 'utf8')).to.equal(line(second).slice(0, 40) + '\n')
    appendFileSync(file, JSON.stringify(second))
    expect(await repairTornTail(file, aside)).to.deep.equal({kept: true, bytes: 0, aside: null})
    expect(readFileSync(file, 'utf8')).to.equal(line(first) + line(second))
  })

  it('a row glued to a fragment by an older version is read, the fragment left out with a warning', async () => {
    const dir = await scratch()
    const file = path.join(dir, 'glued.jsonl')
    const [a, b, c] = [1, 2, 3].map((iteration) => makeRow({iteration}))
    writeFileSync(file, line(a!) + line(b!).slice(0, 55) + line(c!))
    const warnings: ReadWarning[] = []
    const rows = []
    for await (const row of readRows([file], (w) => warnings.push(w), dir)) rows.push(row)
    expect(rows.map((r) => r.iteration)).to.deep.equal([1, 3])
    expect(warnings.map((w) => w.line)).to.deep.equal([2])
    expect(warnings[0]!.message).to.include('torn line')
  })

  it('a resumed run after a torn last line: reported, not fatal; every later run and report reads the run id', async () => {
    const dir = await project()
    const first = await runCli(['run', 'catalogue/one.yml', '--run-id', 'torn', '--no-report'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(first.code, first.stderr).to.equal(0)
    const file = path.join(dir, 'results', 'torn.jsonl')
    const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean)
    // The last row's write was cut off: a crash mid-write.
    writeFileSync(file, rows.slice(0, 2).join('\n') + '\n' + rows[2]!.slice(0, rows[2]!.length / 2))
    const resumed = await runCli(['run', 'catalogue/one.yml', '--run-id', 'torn'], {cwd: dir, env: {CI: '1'}})
    expect(resumed.code, resumed.stderr).to.equal(0)
    expect(resumed.stderr).to.match(
      /warning: .*torn\.jsonl: the last line was torn .* set aside in results\/torn\/torn-lines\.txt/,
    )
    const after = rowsOf(dir, 'torn')
    expect(after.map(keyOf).sort()).to.deep.equal([
      'repo-view-001/agent_direct/1',
      'repo-view-001/agent_direct/2',
      'repo-view-001/agent_direct/3',
    ])
    expect(existsSync(path.join(dir, 'results', 'torn', 'torn-lines.txt'))).to.equal(true)
    const report = await runCli(['report', '--run-id', 'torn'], {cwd: dir})
    expect(report.code, report.stderr).to.equal(0)
  })

  it('kill -9 at random moments, mid-write included (a torn line forced): 0 completed rows lost, none duplicated', async () => {
    const dir = await project()
    const file = path.join(dir, 'results', 'crash.jsonl')
    const args = ['run', 'catalogue/one.yml', '--repetitions', '8', '--run-id', 'crash', '--no-report', '--json']
    const kept: string[] = []
    for (let round = 0; round < 3; round++) {
      const run = start(args, dir)
      // A random moment: after a random number of recorded runs, then a random delay.
      await Promise.race([run.waitFor(finished(1 + Math.floor(Math.random() * 2))), run.done])
      await sleep(Math.floor(Math.random() * 400))
      run.child.kill('SIGKILL')
      await run.done
      if (!existsSync(file)) continue
      const text = readFileSync(file, 'utf8')
      // Every complete line written so far must survive everything that follows.
      kept.push(
        ...text
          .split('\n')
          .slice(0, -1)
          .filter((l) => !kept.includes(l)),
      )
      // Mid-write: half a row at the end, as if the kill had come during the append.
      if (round !== 1) appendFileSync(file, JSON.stringify(makeRow({run_id: 'crash', iteration: 99})).slice(0, 77))
    }
    const last = await runCli(args.slice(0, -1), {cwd: dir, env: {CI: '1'}})
    expect(last.code, last.stderr).to.equal(0)
    const rows = rowsOf(dir, 'crash')
    expect(rows).to.have.length(8)
    expect(new Set(rows.map(keyOf)).size).to.equal(8)
    const final = readFileSync(file, 'utf8').split('\n')
    for (const row of kept) expect(final, 'a completed row was lost').to.include(row)
    const report = await runCli(['report', '--run-id', 'crash'], {cwd: dir})
    expect(report.code, report.stderr).to.equal(0)
  })
})
