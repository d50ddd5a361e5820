// What a user sees: `run` in a real pseudo-terminal (tmux, 160x45). Its output without a terminal (plain
// lines, JSON lines): test/commands/run.e2e.test.ts.
import {execFile, execFileSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {sandboxConfig, SUITES} from '../support/sandbox-project.js'

const run = promisify(execFile)

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
  return newest(path.join(PROJECT_ROOT, 'src'), '.ts') <= oldestBuilt
    ? path.join(PROJECT_ROOT, 'bin', 'run.js')
    : path.join(PROJECT_ROOT, 'bin', 'dev.js')
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
      console.log(
        '    tty test skipped: tmux is not installed (scripts/ensure-gh.sh installs it as root: apt-get install tmux)',
      )
      this.skip()
    }
  })

  after(async () => {
    await tmux('kill-server').catch(() => {})
    rmSync(socketDir, {recursive: true, force: true})
  })

  it('shows the live per-mode lines mid-run, never crashes at the end, and prints the report and the gate', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
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
    const midRun = screens.find((s) =>
      /agent_direct {2}[0-5]\/6 {2}pass \d+ {2}fail \d+ {2}tokens \d+ {2}ETA (\?|\d)/.test(s),
    )
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
