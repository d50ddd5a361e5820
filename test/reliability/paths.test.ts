// Defect 4: run ids are names, not paths: `--run-id ../../x` and rows whose run_id is `../../x` are
// refused (exit 2, naming the flag or the file) and nothing is written outside results_dir / reports_dir.
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {makeRow} from '../support/rows.js'
import {project, runCli} from '../support/reliability.js'

/** Every path under dir, relative. */
const tree = (dir: string) => (readdirSync(dir, {recursive: true}) as string[]).sort()

describe('reliability: run ids and names in paths', function () {
  this.timeout(60_000)

  it('--run-id with a path in it is refused by run, report, gate and regrade, naming the flag; nothing is written', async () => {
    const root = await project()
    const cwd = root
    const before = tree(root)
    const results = await Promise.all([
      runCli(['run', 'catalogue/one.yml', '--run-id', '../../escaped'], {cwd}),
      runCli(['run', 'catalogue/one.yml', '--run-id', '/tmp/abs', '--dry-run'], {cwd}),
      runCli(['report', '--run-id', '../escaped'], {cwd}),
      runCli(['gate', '--run-id', 'a/b'], {cwd}),
      runCli(['regrade', '--run-id', '..'], {cwd}),
      runCli(['run', 'catalogue/one.yml', '--run-id', '../../escaped', '--json'], {cwd}),
    ])
    for (const result of results.slice(0, 5)) {
      expect(result.code, result.stderr).to.equal(2)
      expect(result.stderr).to.match(/--run-id error: run id "[^"]+" may hold only letters, digits/)
    }
    expect(JSON.parse(results[5].stdout.trim())).to.deep.include({type: 'error', ok: false})
    expect(tree(root)).to.deep.equal(before)
    expect(existsSync(path.join(root, '..', 'escaped.jsonl'))).to.equal(false)
  })

  it('rows whose run_id is a path, given to report/gate --input, are refused naming the file; reports_dir stays as it is', async () => {
    const dir = await project()
    const rows = [makeRow({run_id: '../../x', mode: 'agent_direct'}), makeRow({run_id: '../../x', mode: 'ghx'})]
    mkdirSync(path.join(dir, 'in'))
    writeFileSync(path.join(dir, 'in', 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const before = tree(dir)
    const [report, gate, json] = await Promise.all([
      runCli(['report', '--input', 'in/rows.jsonl'], {cwd: dir}),
      runCli(['gate', '--input', 'in/rows.jsonl', '--candidate', 'ghx'], {cwd: dir}),
      runCli(['report', '--input', 'in/rows.jsonl', '--json'], {cwd: dir}),
    ])
    for (const result of [report, gate]) {
      expect(result.code, result.stderr).to.equal(2)
      expect(result.stderr).to.include('in/rows.jsonl error: the rows\' run_id "../../x" may hold only letters')
    }
    expect((JSON.parse(json.stdout) as {diagnostics: Array<{file: string}>}).diagnostics[0]!.file).to.equal(
      'in/rows.jsonl',
    )
    expect(tree(dir)).to.deep.equal(before)
    expect(existsSync(path.join(dir, '..', 'x'))).to.equal(false)
    // --out says where instead: then the rows are fine.
    const out = await runCli(['report', '--input', 'in/rows.jsonl', '--out', 'elsewhere'], {cwd: dir})
    expect(out.code, out.stderr).to.equal(0)
    expect(existsSync(path.join(dir, 'elsewhere', 'summary.json'))).to.equal(true)
  })

  it('a row’s trace path that leaves its results folder is not read into the HTML report', async () => {
    const dir = await project()
    writeFileSync(path.join(dir, 'secret.json'), JSON.stringify({secret: 'do-not-embed-0451'}))
    mkdirSync(path.join(dir, 'results', 'run-1', 'traces'), {recursive: true})
    writeFileSync(
      path.join(dir, 'results', 'run-1.jsonl'),
      JSON.stringify(makeRow({run_id: 'run-1', trace: '../secret.json'})) + '\n',
    )
    const result = await runCli(['report', '--run-id', 'run-1', '--format', 'html'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    expect(readFileSync(path.join(dir, 'reports', 'run-1', 'summary.html'), 'utf8')).to.not.include('secret.json')
  })
})
