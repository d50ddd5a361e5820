// Short temporary folders (an agent CLI's home, where Claude Code binds its sockets): in /tmp whatever the
// system's temp folder, short enough for a socket, removed at exit, and by the next ghx-bench when a kill -9
// left one.
import {spawn, spawnSync} from 'node:child_process'
import {once} from 'node:events'
import {existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../../support/cli.js'

const TEMP_ROOT = JSON.stringify(path.join(PROJECT_ROOT, 'src/shared/process/temp-root.ts'))

/** Runs `lines` in a child Node (tsx) with TMPDIR at `tmp`; its stdout. */
function child(lines: string[], tmp: string): {stdout: string; status: number | null; signal: string | null} {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', lines.join('\n')], {
    env: {...process.env, TMPDIR: tmp},
  })
  return {stdout: result.stdout.toString().trim(), status: result.status, signal: result.signal}
}

describe('short temporary folders', function () {
  this.timeout(30_000)
  let deep: string

  beforeEach(() => {
    // A system temp folder deep enough that a socket under it would not fit (macOS's /var/folders/…/T/ is half of it).
    deep = path.join(mkdtempSync(path.join(tmpdir(), 'deep-')), 'd'.repeat(90))
  })
  afterEach(() => rmSync(path.dirname(deep), {recursive: true, force: true}))

  it('are in /tmp, short enough for a CLI’s socket under them, and gone at exit', () => {
    const made = child(
      [
        `import {mkdirSync} from 'node:fs'`,
        `import {makeShortTempFolder} from ${TEMP_ROOT}`,
        `const folder = await makeShortTempFolder('claude-code')`,
        `console.log(folder)`,
      ],
      (mkdirSync(deep), deep),
    )
    expect(made.status).to.equal(0)
    const folder = made.stdout
    expect(path.dirname(folder)).to.equal('/tmp')
    // Claude Code's socket: <TMPDIR>/cc-socks/<pid>.sock, TMPDIR the home's tmp; at most 103 bytes (macOS).
    expect(path.join(folder, 'tmp', 'cc-socks', '4194304.sock').length).to.be.at.most(103)
    expect(existsSync(folder), 'removed at exit').to.equal(false)
  })

  it('one exit handler for all of them, however many runs make and remove one', () => {
    mkdirSync(deep)
    const counted = child(
      [
        `import {makeShortTempFolder, removeShortTempFolder} from ${TEMP_ROOT}`,
        `const before = process.listenerCount('exit')`,
        `for (let i = 0; i < 20; i++) await removeShortTempFolder(await makeShortTempFolder('run'))`,
        `console.log(process.listenerCount('exit') - before)`,
      ],
      deep,
    )
    expect(counted.stdout).to.equal('1')
  })

  it('one a kill -9 left is removed by the next ghx-bench; a live process’s is not', async () => {
    mkdirSync(deep)
    const killed = child(
      [
        `import {makeShortTempFolder} from ${TEMP_ROOT}`,
        `console.log(await makeShortTempFolder('codex'))`,
        `process.kill(process.pid, 'SIGKILL')`,
      ],
      deep,
    )
    expect(killed.signal).to.equal('SIGKILL')
    const left = killed.stdout
    expect(existsSync(left), 'left by kill -9').to.equal(true)
    // A ghx-bench still running, its folder in use: it prints the folder and waits for its stdin to close.
    const live = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        [
          `import {makeShortTempFolder} from ${TEMP_ROOT}`,
          `console.log(await makeShortTempFolder('live'))`,
          `process.stdin.resume()`,
        ].join('\n'),
      ],
      {env: {...process.env, TMPDIR: deep}, stdio: ['pipe', 'pipe', 'inherit']},
    )
    const [printed] = (await once(live.stdout, 'data')) as [Buffer]
    const inUse = printed.toString().trim()
    try {
      const next = child([`import {useProcessTempRoot} from ${TEMP_ROOT}`, `useProcessTempRoot()`], deep)
      expect(next.status).to.equal(0)
      expect(existsSync(left), 'swept').to.equal(false)
      expect(existsSync(inUse), 'a live process’s').to.equal(true)
    } finally {
      live.stdin.end()
      await once(live, 'exit')
    }
    expect(existsSync(inUse), 'removed when it exits').to.equal(false)
  })
})
