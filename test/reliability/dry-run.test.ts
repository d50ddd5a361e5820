// Defect 8: `run --dry-run` is a pure planning step: no lock, no fixtures, no manifest, no sandbox
// state, no rows, no repaired files, no temporary folders left, before or after a real run.
import {createHash} from 'node:crypto'
import {appendFileSync, readdirSync, readFileSync, statSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {leftInTmp, privateTmp, project, runCli} from '../support/reliability.js'

/** Every file and folder under dir with its content hash and mtime: any write shows. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {}
  for (const name of readdirSync(dir, {recursive: true}) as string[]) {
    const file = path.join(dir, name)
    const info = statSync(file)
    entries[name] = info.isDirectory()
      ? `dir ${info.mtimeMs}`
      : `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${info.mtimeMs}`
  }
  return entries
}

describe('reliability: run --dry-run', function () {
  this.timeout(60_000)

  it('writes nothing, in a fresh project and after a real run (torn results file included)', async () => {
    const dir = await project()
    const tmp = privateTmp()
    const env = {TMPDIR: tmp, CI: '1'}
    const fresh = snapshot(dir)
    const plan = await runCli(['run', 'catalogue/one.yml', '--dry-run', '--run-id', 'planned'], {cwd: dir, env})
    expect(plan.code, plan.stderr).to.equal(0)
    expect(plan.stdout).to.include('run planned: 3 runs (0 already recorded)')
    const json = await runCli(['run', 'catalogue/one.yml', '--dry-run', '--json'], {cwd: dir, env})
    expect(json.code, json.stderr).to.equal(0)
    expect(snapshot(dir)).to.deep.equal(fresh)
    expect(leftInTmp(tmp)).to.deep.equal([])

    const real = await runCli(['run', 'catalogue/one.yml', '--run-id', 'real', '--repetitions', '2', '--no-report'], {
      cwd: dir,
      env,
    })
    expect(real.code, real.stderr).to.equal(0)
    // A torn last line: a dry run reads past it and leaves it for the real resume to set aside.
    appendFileSync(path.join(dir, 'results', 'real.jsonl'), '{"schema_version":1,"run_')
    const before = snapshot(dir)
    const again = await runCli(['run', 'catalogue/one.yml', '--run-id', 'real', '--dry-run'], {cwd: dir, env})
    expect(again.code, again.stderr).to.equal(0)
    expect(again.stdout).to.include('run real: 1 runs (2 already recorded)')
    expect(snapshot(dir)).to.deep.equal(before)
    expect(leftInTmp(tmp)).to.deep.equal([])
  })
})
