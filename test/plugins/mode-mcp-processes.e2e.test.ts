// Mode mcp's stdio server is held like a tool call's processes: a server that ignores SIGTERM, never
// answers `initialize`, kills its parent or leaves setsid children behind ends with its session, with the attempt to
// open it, and with ghx-bench (its exit, and kill -9); the run's token is in no command line.
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Mode, ModeContext} from 'ghx-bench'
import mcpPlugin from '../../plugins/mode-mcp/index.js'
import {marker, processesWith, PROJECT_ROOT, sleep, sleepsOf} from '../support/reliability.js'

const SERVER = path.join(PROJECT_ROOT, 'test', 'support', 'hostile-mcp-server.mjs')
const mcp: Mode = mcpPlugin.modes[0]!
const TOKEN = 'ghp_hostileServerTestToken0123456789'

async function context(
  behaviour: 'answer' | 'silent' | 'kill-parent',
  m: string,
  signal?: AbortSignal,
): Promise<ModeContext> {
  const workdir = await mkdtemp(path.join(tmpdir(), 'mode-mcp-'))
  return {
    options: {server: {command: process.execPath, args: [SERVER, behaviour, m]}},
    workdir,
    github: {
      apiUrl: 'http://127.0.0.1:9/api/v3',
      graphqlUrl: 'http://127.0.0.1:9/api/graphql',
      token: TOKEN,
      env: {},
      nodeEnv: {},
    },
    ...(signal ? {signal} : {}),
  }
}

/** Waits until `test` holds (polling), up to a generous deadline; returns whether it did. */
async function until(test: () => boolean, withinMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (!test() && Date.now() < deadline) await sleep(50)
  return test()
}

async function gone(m: string): Promise<string[]> {
  await until(() => processesWith(m).length === 0)
  return processesWith(m)
}

const pidOf = (line: string) => Number(line.trim().split(/\s+/)[0])

describe('mode mcp: the stdio server’s processes', function () {
  this.timeout(60_000)

  it('a server that never answers initialize (ignoring SIGTERM, with setsid children) ends with the attempt to open it', async () => {
    const m = marker()
    const controller = new AbortController()
    const opening = mcp.open(await context('silent', m, controller.signal))
    expect(await until(() => sleepsOf(m).length === 2), 'the server started its children').to.equal(true)
    controller.abort()
    await opening.then(
      () => expect.fail('a server that never answers cannot open a session'),
      () => {},
    )
    expect(await gone(m)).to.deep.equal([])
  })

  it('a server that kills its parent (with setsid children) ends with the attempt to open it', async () => {
    const m = marker()
    // The run's limit, should the server's end go unnoticed.
    await mcp.open(await context('kill-parent', m, AbortSignal.timeout(30_000))).then(
      () => expect.fail('a server that never answers cannot open a session'),
      () => {},
    )
    expect(await gone(m)).to.deep.equal([])
  })

  it('closing the session ends a server that ignores SIGTERM and everything it started, at once', async () => {
    const m = marker()
    const session = await mcp.open(await context('answer', m))
    expect(session.tools.map((t) => t.name)).to.deep.equal(['noop'])
    expect(await session.call('noop', {}, new AbortController().signal)).to.deep.equal({ok: true, output: 'ok'})
    expect(await until(() => sleepsOf(m).length === 2)).to.equal(true)
    await session.close()
    expect(await gone(m)).to.deep.equal([])
  })

  it('the run’s token is in the server’s environment only: no process of the server has it on its command line', async () => {
    const m = marker()
    const session = await mcp.open(await context('answer', m))
    try {
      expect(await until(() => sleepsOf(m).length === 2)).to.equal(true)
      // The server itself (its command line names the marker) and its perl parent.
      const server = processesWith(m)
        .map(pidOf)
        .find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(SERVER))!
      const serverParent = Number(readFileSync(`/proc/${server}/stat`, 'latin1').split(') ')[1]!.split(' ')[1])
      for (const pid of [server, serverParent, ...processesWith(m).map(pidOf)]) {
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), `command line of ${pid}`).to.not.include(TOKEN)
      }
      expect(readFileSync(`/proc/${server}/environ`, 'utf8').split('\0')).to.include(
        `GITHUB_PERSONAL_ACCESS_TOKEN=${TOKEN}`,
      )
    } finally {
      await session.close()
    }
    expect(await gone(m)).to.deep.equal([])
  })

  for (const end of ['exits', 'is killed with -9'] as const) {
    it(`a server left open when ghx-bench ${end} ends with it`, async () => {
      const m = marker()
      const script = [
        `import plugin from ${JSON.stringify(path.join(PROJECT_ROOT, 'plugins', 'mode-mcp', 'index.ts'))}`,
        `const context = ${JSON.stringify(await context('answer', m))}`,
        `await plugin.modes[0].open(context)`,
        `console.log('open')`,
        // Exits when the test says so (a line on stdin), with the session still open.
        `process.stdin.once('data', () => process.exit(0))`,
      ].join('\n')
      const harness = spawn(
        process.execPath,
        ['--import', 'tsx', '--conditions=ghx-bench-source', '--input-type=module', '-e', script],
        {cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit']},
      )
      const closed = new Promise((resolve) => harness.on('close', resolve))
      let out = ''
      harness.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      expect(
        await until(() => out.includes('open') && sleepsOf(m).length === 2, 40_000),
        'the session opened',
      ).to.equal(true)
      if (end === 'is killed with -9') harness.kill('SIGKILL')
      else harness.stdin.write('exit\n')
      await closed
      expect(await gone(m)).to.deep.equal([])
    })
  }
})
