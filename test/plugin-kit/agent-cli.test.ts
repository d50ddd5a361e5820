// The agent-CLI kit the claude-code and codex providers share: finding the CLI, its environment, and
// running it so that nothing it started outlives it (a fake CLI stands in: a script that prints JSON
// lines and leaves a setsid child behind).
import {randomBytes} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {
  agentCliEnv,
  findAgentCli,
  pinnedAgentCliPath,
  runAgentCli,
  startRequestTap,
  withFreshHome,
  type AgentCli,
} from '../../src/plugin-kit/index.js'

const FAKE: AgentCli = {
  title: 'Fake',
  npmPackage: 'fake-cli',
  bin: 'fake-cli',
  version: '1.2.3',
  envVariable: 'FAKE_CLI_BIN',
  script: 'ensure-fake.sh',
  cacheFolder: 'fake',
}

/** The processes still alive after a moment: a killed process takes a little while to exit. */
async function survivors(marker: string): Promise<string[]> {
  for (let look = 0; look < 20 && processesMarked(marker).length > 0; look++)
    await new Promise((resolve) => setTimeout(resolve, 50))
  return processesMarked(marker).map(
    (pid) => `${pid} ${readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.slice(0, 1)}`,
  )
}

function processesMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/environ`).includes(marker)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('plugin-kit agent-cli', () => {
  let dir: string
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-agent-cli-'))))
  afterEach(async () => {
    delete process.env.FAKE_CLI_BIN
    await rm(dir, {recursive: true, force: true})
  })

  async function script(name: string, text: string): Promise<string> {
    const file = path.join(dir, name)
    await writeFile(file, text)
    await chmod(file, 0o755)
    return file
  }

  it('finds the CLI at the option, then $<variable>, then the pinned cache folder; a configured path that is not there is none', async () => {
    const byOption = await script('a', '#!/bin/sh\n')
    const byVariable = await script('b', '#!/bin/sh\n')
    process.env.FAKE_CLI_BIN = byVariable
    expect(await findAgentCli(FAKE, {binary: byOption})).to.equal(byOption)
    expect(await findAgentCli(FAKE, {})).to.equal(byVariable)
    expect(await findAgentCli(FAKE, {binary: path.join(dir, 'missing')})).to.equal(undefined)
    delete process.env.FAKE_CLI_BIN
    const cache = process.env.XDG_CACHE_HOME
    process.env.XDG_CACHE_HOME = dir
    try {
      const pinned = pinnedAgentCliPath(FAKE)
      expect(pinned).to.equal(path.join(dir, 'ghx-bench', 'fake-1.2.3', 'node_modules', '.bin', 'fake-cli'))
      await mkdir(path.dirname(pinned), {recursive: true})
      await writeFile(pinned, '')
      expect(await findAgentCli(FAKE, {})).to.equal(pinned)
    } finally {
      if (cache === undefined) delete process.env.XDG_CACHE_HOME
      else process.env.XDG_CACHE_HOME = cache
    }
  })

  it('gives the CLI the session’s environment, a home and temporary folder of its own and its own variables, nothing else of the caller’s', () => {
    process.env.FAKE_CLI_BIN = 'not for the CLI'
    const env = agentCliEnv({env: {PATH: '/arm/bin', GH_TOKEN: 't', HTTP_PROXY: 'http://127.0.0.1:1'}}, '/h', {
      MODEL_KEY: 'k',
    })
    expect(env).to.deep.equal({
      PATH: '/arm/bin',
      GH_TOKEN: 't',
      HTTP_PROXY: 'http://127.0.0.1:1',
      HOME: '/h',
      TMPDIR: '/h/tmp',
      NO_PROXY: '127.0.0.1',
      MODEL_KEY: 'k',
    })
  })

  it('reads its JSON lines (a line that is not JSON left out) and kills what it left running once it exits', async () => {
    const marker = `fake-${randomBytes(4).toString('hex')}`
    const cli = await script(
      'cli',
      `#!/bin/bash\nsetsid sleep 300 &\necho '{"type":"one"}'\necho 'a warning'\necho '{"type":"two","n":2}'\n`,
    )
    const run = await runAgentCli(cli, [], {
      cwd: dir,
      env: {PATH: process.env.PATH!, MARK: marker},
      signal: new AbortController().signal,
    })
    expect(run.ended).to.equal('exit 0')
    expect(run.events.map((e) => e.event)).to.deep.equal([{type: 'one'}, {type: 'two', n: 2}])
    expect(await survivors(marker)).to.deep.equal([])
  })

  it('an abort ends it at once, with everything it started', async () => {
    const marker = `fake-${randomBytes(4).toString('hex')}`
    const cli = await script('cli', `#!/bin/bash\nsetsid sleep 300 &\necho '{"type":"started"}'\nsleep 300\n`)
    const controller = new AbortController()
    const run = await runAgentCli(cli, [], {
      cwd: dir,
      env: {PATH: process.env.PATH!, MARK: marker},
      signal: controller.signal,
      onEvent: () => controller.abort(),
    })
    expect(run.ended).to.equal('aborted')
    expect(run.events.map((e) => e.event.type)).to.deep.equal(['started'])
    expect(await survivors(marker)).to.deep.equal([])
  })

  it('runs a Node script CLI under this Node: the arm’s PATH has no node', async () => {
    const cli = await script(
      'cli.js',
      '#!/usr/bin/env node\nconsole.log(JSON.stringify({argv: process.argv.slice(2), stdin: process.stdin.isTTY ?? null}))\n',
    )
    const run = await runAgentCli(cli, ['x'], {
      cwd: dir,
      env: {PATH: path.join(dir, 'empty')},
      signal: new AbortController().signal,
    })
    expect(run.events.map((e) => e.event)).to.deep.equal([{argv: ['x'], stdin: null}])
  })

  it('removes the fresh home after the work, failed or not', async () => {
    let home = ''
    await withFreshHome('fake', (folder) => {
      home = folder
      expect(readdirSync(folder)).to.deep.equal(['tmp'])
      return Promise.reject(new Error('the run failed'))
    }).catch(() => {})
    expect(() => readdirSync(home)).to.throw(/ENOENT/)
  })

  it('a request tap relays requests and streamed answers as they are, and names the tools of the first request that offers some', async () => {
    const seen: string[] = []
    const upstream = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`)
      response.writeHead(200, {'content-type': 'text/event-stream'})
      response.write('data: one\n\n')
      setTimeout(() => response.end('data: two\n\n'), 20)
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const tap = await startRequestTap(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/r/k/v1`)
    try {
      const post = (body: unknown) =>
        fetch(`${tap.baseUrl}/responses?x=1`, {method: 'POST', body: JSON.stringify(body)}).then((r) => r.text())
      expect(await post({input: []})).to.equal('data: one\n\ndata: two\n\n')
      expect(tap.offeredTools()).to.equal(undefined)
      await post({
        tools: [
          {type: 'function', name: 'exec_command'},
          {type: 'namespace', name: 'mcp__echo', tools: [{type: 'function', name: 'echo_text'}]},
        ],
      })
      await post({tools: [{type: 'function', name: 'later'}]})
      expect(tap.offeredTools()).to.deep.equal(['exec_command', 'mcp__echo.echo_text'])
      expect(seen).to.deep.equal([
        'POST /r/k/v1/responses?x=1',
        'POST /r/k/v1/responses?x=1',
        'POST /r/k/v1/responses?x=1',
      ])
    } finally {
      await tap.close()
      upstream.close()
    }
  })
})
