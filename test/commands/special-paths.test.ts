// Paths that are no regular file, given to any command: a device, a FIFO, a kernel file system, a line
// no row can be, a path no file can have. Each is bad input (exit 2) said in one line naming the path or
// the flag, within seconds: never a hang (a FIFO, mkdir -p under /proc), never exit 4 (/dev/zero read to
// the end), never a device replaced by a file (regrade --out /dev/full, run as root, exited 0).
import {execFileSync} from 'node:child_process'
import {readdirSync, statSync, truncateSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject, PROJECT_ROOT, type CliResult} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'

/** The one line said on stderr, once the exit code is 2. */
const oneLine = (result: CliResult): string => {
  expect(result.code, result.stdout + result.stderr).to.equal(2)
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).to.have.length(1)
  return lines[0]!
}

describe('special files and paths given to commands (CLI)', function () {
  this.timeout(20_000)
  let dir: string
  /** A character device like /dev/full outside /dev (mknod, as root); undefined where that is not allowed. */
  let device: string | undefined
  const run = (args: string[], env?: NodeJS.ProcessEnv) => runCliInProcess(args, {cwd: dir, env})

  before(async () => {
    const rows = [1, 2].flatMap((iteration) =>
      ['agent_direct', 'mcp'].map((mode) => JSON.stringify(makeRow({mode, iteration}))),
    )
    dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': rows.join('\n') + '\n',
      'empty.jsonl': '',
    })
    execFileSync('mkfifo', [path.join(dir, 'pipe.jsonl')])
    try {
      execFileSync('mknod', [path.join(dir, 'full'), 'c', '1', '7'], {stdio: 'ignore'})
      device = path.join(dir, 'full')
    } catch {
      device = undefined
    }
  })

  it('report, gate, regrade and merge refuse /dev/zero and a FIFO as input', async () => {
    for (const args of [
      ['report', '--input', '/dev/zero'],
      ['gate', '--input', '/dev/zero'],
      ['regrade', '--input', '/dev/zero'],
      ['merge', '/dev/zero'],
    ])
      expect(oneLine(await run(args)), args.join(' ')).to.equal(
        '/dev/zero error: is a character device, not a regular file: ghx-bench reads only regular files',
      )
    for (const args of [
      ['report', '--input', 'pipe.jsonl'],
      ['regrade', '--input', 'pipe.jsonl'],
      ['merge', 'pipe.jsonl'],
    ])
      expect(oneLine(await run(args)), args.join(' ')).to.equal(
        'pipe.jsonl error: is a FIFO (named pipe), not a regular file: ghx-bench reads only regular files',
      )
  })

  it('refuses a row of 1 GB (one line, a sparse file) at file:line instead of running out of memory', async () => {
    writeFileSync(path.join(dir, 'huge.jsonl'), '')
    truncateSync(path.join(dir, 'huge.jsonl'), 1 << 30)
    expect(oneLine(await run(['regrade', '--input', 'huge.jsonl', '--out', 'regraded.jsonl']))).to.match(
      /^huge\.jsonl:1:1 error: this line is longer than 67108864 bytes, more than a row may be/,
    )
    expect(readdirSync(dir)).to.not.include('regraded.jsonl')
  })

  it('regrade never replaces a device or a FIFO, and refuses /proc; an empty input is no rows', async () => {
    for (const out of device ? ['pipe.jsonl', 'full'] : ['pipe.jsonl']) {
      expect(oneLine(await run(['regrade', '--input', 'rows.jsonl', '--out', out]))).to.match(
        new RegExp(`^${out} error: is a (FIFO \\(named pipe\\)|character device), not a regular file`),
      )
      expect(statSync(path.join(dir, out)).isFile(), out).to.equal(false)
    }
    expect(oneLine(await run(['regrade', '--input', 'rows.jsonl', '--out', '/proc/ghx-bench/x.jsonl']))).to.match(
      /^\/proc\/ghx-bench\/x\.jsonl error: is under \/proc, a kernel file system/,
    )
    expect(oneLine(await run(['regrade', '--input', 'empty.jsonl', '--out', 'none.jsonl']))).to.equal(
      'empty.jsonl error: holds no rows',
    )
    expect(readdirSync(dir)).to.not.include('none.jsonl')
  })

  it('report, simulate, init and sandbox serve refuse an output on /proc or a device before any work (mkdir -p there never returned)', async () => {
    expect(oneLine(await run(['report', '--input', 'rows.jsonl', '--out', '/proc/ghx-bench']))).to.match(
      /^--out error: \/proc\/ghx-bench is under \/proc, a kernel file system/,
    )
    expect(oneLine(await run(['simulate', '--out', '/proc/ghx-bench']))).to.match(
      /^--out error: \/proc\/ghx-bench is under \/proc, a kernel file system/,
    )
    expect(oneLine(await run(['init', '/proc/ghx-bench']))).to.match(
      /^\/proc\/ghx-bench error: is under \/proc, a kernel file system/,
    )
    expect(oneLine(await run(['sandbox', 'serve', '--state', '/proc/ghx-bench/state.json']))).to.match(
      /^--state error: \/proc\/ghx-bench\/state\.json is under \/proc, a kernel file system/,
    )
    if (device)
      expect(oneLine(await run(['simulate', '--out', 'full']))).to.equal(
        '--out error: full is a character device, not a folder: give a folder path',
      )
  })

  it('report refuses a GITHUB_STEP_SUMMARY that is a FIFO, and an --out path with a NUL byte', async () => {
    expect(
      oneLine(await run(['report', '--input', 'rows.jsonl', '--out', 'out'], {GITHUB_STEP_SUMMARY: 'pipe.jsonl'})),
    ).to.equal(
      'GITHUB_STEP_SUMMARY error: pipe.jsonl is a FIFO (named pipe), not a regular file: ghx-bench writes only to regular files; give a file path',
    )
    expect(oneLine(await run(['report', '--input', 'rows.jsonl', '--out', 'o\0x']))).to.match(
      /^'.*o\\x00x' error: a path with a NUL byte in it/,
    )
  })

  it('the fixture manifest flags refuse a FIFO or a device; fixtures cleanup a run id that is a path', async () => {
    expect(oneLine(await run(['run', 'suites/none.yml', '--fixture-manifest', 'pipe.jsonl', '--dry-run']))).to.equal(
      '--fixture-manifest error: pipe.jsonl is a FIFO (named pipe), not a regular file: ghx-bench writes only to regular files; give a file path',
    )
    if (device) {
      expect(oneLine(await run(['fixtures', 'seed', '--manifest', 'full']))).to.match(
        /^--manifest error: full is a character device, not a regular file/,
      )
      expect(statSync(device).isCharacterDevice()).to.equal(true)
    }
    expect(oneLine(await run(['fixtures', 'cleanup', '--run-id', '../x']))).to.match(
      /^--run-id error: run id "\.\.\/x" may hold only letters, digits/,
    )
  })

  it('run refuses more shards than it may plan', async () => {
    expect(oneLine(await run(['run', 'suites/none.yml', '--shard', '1/1025', '--dry-run']))).to.equal(
      '--shard error: at most 1024 shards, got "1/1025"',
    )
  })
})
