// Special paths on the slower routes (test/commands/special-paths.test.ts has the rest): a row of 1 GB
// in a file large enough to be read in worker threads (report and gate ended in exit 4, a string too long
// for V8), a FIFO given as the weights of `run --shard` (read after the suite's project is opened: the
// read waited for a writer forever), and a write the system refuses (past ulimit -f: EFBIG, as a full
// disk's ENOSPC), which must fail the command naming the file, never exit 0. Each is bad input in one
// line, exit 2.
import {execFileSync, spawnSync} from 'node:child_process'
import {readFileSync, truncateSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {MAX_LINE_BYTES} from '../../src/results/lines.js'
import {makeProject, PROJECT_ROOT, type CliResult} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'

const oneLine = (result: CliResult): string => {
  expect(result.code, result.stdout + result.stderr).to.equal(2)
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).to.have.length(1)
  return lines[0]!
}

describe('special paths read late, in worker threads, or written past a limit (CLI)', function () {
  this.timeout(60_000)
  let dir: string
  before(async () => {
    dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
  })

  it('report and gate refuse a row of 1 GB at file:line', async () => {
    const file = path.join(dir, 'huge.jsonl')
    writeFileSync(file, '{"schema_version": 1, "run_id": "')
    truncateSync(file, 1 << 30)
    for (const command of ['report', 'gate'])
      expect(oneLine(await runCliInProcess([command, '--input', 'huge.jsonl', '--out', 'out'], {cwd: dir}))).to.equal(
        `huge.jsonl:1:1 error: this line is longer than ${MAX_LINE_BYTES} bytes, more than a row may be: not a results file of ghx-bench, ghx-router or ghx eval`,
      )
  })

  it('run --shard refuses weights given as a FIFO', async () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe.jsonl')])
    const suite = path.join(PROJECT_ROOT, 'suites', 'smoke.yml')
    const args = ['run', suite, '--shard', '1/2', '--shard-weights', 'pipe.jsonl', '--dry-run']
    expect(oneLine(await runCliInProcess(args, {cwd: dir}))).to.equal(
      'pipe.jsonl error: is a FIFO (named pipe), not a regular file: ghx-bench reads only regular files',
    )
  })

  it('a write the system refuses (past ulimit -f) fails regrade naming its output, which stays as it was', () => {
    const rows = Array.from({length: 40}, (_, i) => JSON.stringify(makeRow({iteration: i + 1})))
    writeFileSync(path.join(dir, 'rows.jsonl'), rows.join('\n') + '\n')
    writeFileSync(path.join(dir, 'out.jsonl'), 'kept\n')
    const cli = [
      process.execPath,
      path.join(PROJECT_ROOT, 'bin', 'dev.js'),
      'regrade',
      '--input',
      'rows.jsonl',
      '--out',
      'out.jsonl',
    ]
    // 16 blocks of 512 bytes: the CLI's own files are smaller, the re-graded rows (some 30 KB) are not.
    const child = spawnSync('sh', ['-c', 'ulimit -f 16; exec "$@"', 'sh', ...cli], {
      cwd: dir,
      env: {...process.env, NO_COLOR: '1'},
      encoding: 'utf8',
    })
    expect(oneLine({code: child.status ?? -1, stdout: child.stdout, stderr: child.stderr})).to.equal(
      'out.jsonl error: the file grew past the largest this user or file system allows (ulimit -f): choose another disk (write: EFBIG)',
    )
    expect(readFileSync(path.join(dir, 'out.jsonl'), 'utf8')).to.equal('kept\n')
  })
})
