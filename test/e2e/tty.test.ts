// What a user sees: `run` in a real pseudo-terminal (tmux, 160x45), in plain mode, and under --json.
import {execFile, execFileSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {makeProject, PROJECT_ROOT, runCli} from '../support/cli.js'

const run = promisify(execFile)
const SUITES = path.join(PROJECT_ROOT, 'suites')
const CONFIG = [
  'target: sandbox',
  'model: oracle',
  `suites_dir: ${SUITES}`,
  'results_dir: results',
  'reports_dir: reports',
  'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: e2e, sandbox_repos: [ghx-bench/sandbox]}',
  '',
].join('\n')

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

/** The built CLI (bin/run.js) when dist is at least as new as every source file, else the source (bin/dev.js). */
function cliEntry(): string {
  const newest = (dir: string, ext: string): number =>
    readdirSync(dir, {recursive: true, withFileTypes: true})
      .filter((e) => e.isFile() && e.name.endsWith(ext))
      .reduce((m, e) => Math.max(m, statSync(path.join(e.parentPath, e.name)).mtimeMs), 0)
  const dist = path.join(PROJECT_ROOT, 'dist', 'src')
  if (!existsSync(dist)) return path.join(PROJECT_ROOT, 'bin', 'dev.js')
  const oldestBuilt = readdirSync(dist, {recursive: true, withFileTypes: true})
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .reduce((m, e) => Math.min(m, statSync(path.join(e.parentPath, e.name)).mtimeMs), Infinity)
  return newest(path.join(PROJECT_ROOT, 'src'), '.ts') <= oldestBuilt ? path.join(PROJECT_ROOT, 'bin', 'run.js') : path.join(PROJECT_ROOT, 'bin', 'dev.js')
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

describe('ghx-bench run in a terminal (tmux)', function () {
  this.timeout(180_000)
  // Its own server on its own socket, removed with its folder at the end.
  const socketDir = mkdtempSync(path.join(tmpdir(), 'ghx-bench-tty-'))
  const socket = path.join(socketDir, 'tmux.sock')
  // Not nested in a tmux the tests may run in, and no CI: a user's terminal.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'TMUX' && k !== 'CI'))
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...args], {env})

  before(function () {
    if (!hasTmux()) {
      console.log('    tty test skipped: tmux is not installed (scripts/ensure-gh.sh installs it as root: apt-get install tmux)')
      this.skip()
    }
  })

  after(async () => {
    await tmux('kill-server').catch(() => {})
    rmSync(socketDir, {recursive: true, force: true})
  })

  it('shows the live per-mode lines mid-run, never crashes at the end, and prints the report and the gate', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': CONFIG})
    const entry = cliEntry()
    const command = `cd ${quote(dir)} && env -u CI NO_COLOR=1 ${quote(process.execPath)} ${quote(entry)} run ${quote(path.join(SUITES, 'smoke.yml'))} -m agent_direct -r 1; echo EXIT=$?; sleep 600`
    await tmux('new-session', '-d', '-s', 'main', '-x', '160', '-y', '45', command)
    const screens: string[] = []
    const deadline = Date.now() + 150_000
    while (Date.now() < deadline) {
      const screen = (await tmux('capture-pane', '-p', '-t', 'main')).stdout
      screens.push(screen)
      if (/EXIT=\d+/.test(screen)) break
      await sleep(40)
    }
    const all = (await tmux('capture-pane', '-p', '-S', '-', '-t', 'main')).stdout
    const exit = /EXIT=(\d+)/.exec(all)
    expect(exit, all).to.not.equal(null)
    expect(Number(exit![1]), all).to.be.oneOf([0, 1, 3])
    expect(all).to.not.include('Cannot read properties')
    // The mode's line while runs were still to do: done/total and an ETA still counting.
    const midRun = screens.find((s) => /agent_direct {2}[0-5]\/6 {2}pass \d+ {2}fail \d+ {2}tokens \d+ {2}ETA (\?|\d)/.test(s))
    expect(midRun, `no live frame among ${screens.length} screens; last:\n${all}`).to.not.equal(undefined)
    // The view fits the pane: the title is on screen with the runs in flight under it.
    expect(midRun!.split('\n').filter((l) => l.trim()).length).to.be.at.most(44)
    // The end: one final line for the mode, the rows, the report and the gate's line.
    expect(all).to.match(/agent_direct {2}6\/6 {2}pass 6 {2}fail 0 .*ETA -/)
    expect((all.match(/agent_direct {2}6\/6 /g) ?? []).length).to.equal(1)
    expect(all).to.match(/run \S+: 6 run\(s\) recorded in/)
    expect(all).to.match(/wrote .*summary\.md/)
    expect(all).to.match(/gate: skipped|verdict: (PASS|FAIL|INCONCLUSIVE)/)
  })
})

describe('ghx-bench run output without a terminal', function () {
  this.timeout(120_000)
  let dir: string

  before(async () => {
    dir = await makeProject({'.ghxbenchrc.yml': CONFIG})
  })

  it('plain (CI): a line per finished run and a summary line per mode', async () => {
    const result = await runCli(['run', path.join(SUITES, 'smoke.yml'), '-m', 'agent_direct', '-r', '1', '--run-id', 'plain'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr).to.equal(0)
    const runs = result.stdout.split('\n').filter((l) => /^agent_direct {2}\S+ #1 {2}(pass|fail|timeout|infra_error) {2}tokens \d+ {2}\d+ ms {2}\(\d\/6\)$/.test(l))
    expect(runs, result.stdout).to.have.length(6)
    expect(result.stdout).to.match(/^run plain: 6 run\(s\) to do \(agent_direct 6\), 0 already recorded, seed 1$/m)
    expect(result.stdout).to.match(/^agent_direct {2}6\/6 {2}pass 6 {2}fail 0 {2}tokens \d+ {2}ETA -$/m)
  })

  it('--json: every stdout line is JSON, the last the summary; an error is a JSON line with the exit code', async () => {
    const result = await runCli(['run', path.join(SUITES, 'smoke.yml'), '-m', 'agent_direct', '-r', '1', '--run-id', 'json', '--json'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    const lines = result.stdout.split('\n').filter(Boolean)
    const events = lines.map((line) => {
      expect(() => JSON.parse(line), line).to.not.throw()
      return JSON.parse(line) as {type: string}
    })
    expect(events[0]!.type).to.equal('suite_started')
    expect(events.filter((e) => e.type === 'run_finished')).to.have.length(6)
    const summary = events.at(-1) as {type: string; run_id: string; completed: number; files: string[]}
    expect(summary).to.include({type: 'summary', run_id: 'json', completed: 6})
    expect(summary.files.some((f) => f.endsWith('summary.md'))).to.equal(true)

    const bad = await runCli(['run', path.join(SUITES, 'smoke.yml'), '-m', 'nope', '--json'], {cwd: dir})
    expect(bad.code, bad.stdout + bad.stderr).to.equal(2)
    const badLines = bad.stdout.split('\n').filter(Boolean)
    expect(badLines).to.have.length(1)
    expect(JSON.parse(badLines[0]!)).to.deep.include({type: 'error', ok: false})
    const parse = await runCli(['run', '--json', '--no-such-flag', path.join(SUITES, 'smoke.yml')], {cwd: dir})
    expect(parse.code, parse.stdout + parse.stderr).to.equal(2)
    expect(JSON.parse(parse.stdout)).to.deep.include({type: 'error', ok: false})
  })

  it('--help describes each topic', async () => {
    const result = await runCli(['--help'])
    expect(result.code).to.equal(0)
    expect(result.stdout).to.match(/fixtures {2}Seed, check, reset and clean up/)
    expect(result.stdout).to.not.include('Remove what seeding created')
  })
})
