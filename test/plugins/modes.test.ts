// The built-in modes against the sandbox: what tools each arm gets, and that the arms are isolated.
// Each passes the plugin kit's mode smoke test, as a third party's mode would be tested.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {Mode, ModeContext, ModeSession} from 'ghx-bench'
import {testMode} from 'ghx-bench/plugin-kit'
import agentDirectPlugin from '../../plugins/mode-agent-direct/index.js'
import ghxPlugin from '../../plugins/mode-ghx/index.js'
import mcpPlugin, {githubHostOf} from '../../plugins/mode-mcp/index.js'
import {readCallLog} from '../../src/agent/shell-tool.js'
import {nodeEnvFor} from '../../src/github/api-urls.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {PROJECT_ROOT} from '../support/cli.js'

const STAND_IN = path.join(PROJECT_ROOT, 'test', 'support', 'ghx-stand-in', 'ghx')
const mode = (plugin: {modes?: Mode[]}) => plugin.modes![0]!

describe('built-in modes (sandbox)', function () {
  this.timeout(30_000)
  let sandbox: Sandbox
  const sessions: ModeSession[] = []

  before(async () => (sandbox = await startSandbox()))
  after(async () => {
    await Promise.all(sessions.map((s) => s.close()))
    await sandbox.close()
  })

  async function context(options: Record<string, unknown> = {}): Promise<ModeContext> {
    const workdir = await mkdtemp(path.join(tmpdir(), 'mode-'))
    const graphqlUrl = `${sandbox.url}/graphql`
    return {
      options,
      workdir,
      github: {
        apiUrl: sandbox.url,
        graphqlUrl,
        token: sandbox.token,
        env: sandbox.ghEnv(path.join(workdir, 'gh')),
        nodeEnv: nodeEnvFor(sandbox.url, graphqlUrl),
      },
    }
  }

  async function open(m: Mode, options: Record<string, unknown> = {}): Promise<ModeSession> {
    const session = await m.open(await context(options))
    sessions.push(session)
    return session
  }

  const shell = (session: ModeSession, command: string) =>
    session.call('shell', {command}, new AbortController().signal)

  it('agent_direct: one shell tool with gh, authenticated against the target; ghx is not reachable even when the parent has it', async () => {
    const parentPath = process.env.PATH
    process.env.PATH = `${path.dirname(STAND_IN)}:${parentPath}`
    try {
      const report = await testMode(mode(agentDirectPlugin), await context(), {
        tools: ['shell'],
        calls: [
          {tool: 'shell', args: {command: 'gh api user --jq .login'}, output: 'ghx-bench-agent\n'},
          {tool: 'shell', args: {command: 'ghx --version'}, ok: false, output: /ghx: command not found/},
        ],
      })
      expect(report.instructions).to.match(/GitHub CLI/)
      expect(report.env.PATH).to.match(/ghx-bench-bin-/)
    } finally {
      process.env.PATH = parentPath
    }
  })

  it('shell arms log every gh/ghx process they really start: a loop counts each pass, a tool’s own gh calls apart', async () => {
    const ctx = await context()
    const session = await mode(agentDirectPlugin).open(ctx)
    sessions.push(session)
    const loop = await shell(
      session,
      'for n in 1 2 3; do gh api user --jq .login; done; gh --version >/dev/null; false || true',
    )
    expect(loop.ok, loop.output).to.equal(true)
    expect(await readCallLog(ctx.workdir)).to.deep.equal({gh: 4})
    // A tool started by a counted tool is logged as its call, not the agent's.
    const skill = path.join(ctx.workdir, 'SKILL.md')
    await writeFile(skill, '# ghx\n')
    const ghxCtx = await context({ghx: STAND_IN, skill})
    const ghx = await mode(ghxPlugin).open(ghxCtx)
    sessions.push(ghx)
    await shell(
      ghx,
      `ghx --version; ghx run repo.view --input '{"owner":"ghx-bench","name":"sandbox"}' > /dev/null; GHX_BENCH_CALLER=ghx gh --version > /dev/null`,
    )
    expect(await readCallLog(ghxCtx.workdir)).to.deep.equal({ghx: 2, 'ghx>gh': 1})
  })

  it('agent_direct: unavailable, with the install hint, when gh is missing', async () => {
    const availability = await mode(agentDirectPlugin).available(await context({gh: '/nonexistent/gh'}))
    expect(availability).to.deep.include({available: false})
    expect(availability.reason).to.match(/apt-get install gh/)
  })

  it('mcp: the MCP server’s tools with their schemas, and no shell', async () => {
    const report = await testMode(mode(mcpPlugin), await context(), {
      calls: [
        {tool: 'list_issues', args: {owner: 'ghx-bench', repo: 'sandbox', state: 'open'}, output: /^\[/},
        // Nothing runs a command: a shell call is not one of its tools.
        {tool: 'shell', args: {command: 'echo hi'}, ok: false},
      ],
    })
    const names = report.tools.map((t) => t.name)
    expect(names).to.have.length(26)
    expect(names).to.include('get_issue')
    expect(names).to.not.include('shell')
    expect(report.tools.find((t) => t.name === 'get_issue')!.inputSchema).to.have.nested.property(
      'properties.issue_number',
    )
    expect(JSON.parse(report.calls[0]!.output)).to.be.an('array')
    // The npm server, started with the target's Node environment: its hard-coded api.github.com goes to the sandbox.
    expect(report.mcpServers[0]).to.include({name: 'github-npm', command: process.execPath})
    expect(report.mcpServers[0]!.env).to.include({
      GITHUB_PERSONAL_ACCESS_TOKEN: sandbox.token,
      GHX_BENCH_GITHUB_API_URL: sandbox.url,
    })
    expect(report.mcpServers[0]!.env!.NODE_OPTIONS).to.match(/--import file:.*github-api-origin\.mjs/)
  })

  it('mcp: GitHub’s MCP server is pointed at the target with scheme and port kept (GITHUB_HOST)', () => {
    expect(githubHostOf('https://api.github.com')).to.equal(undefined)
    expect(githubHostOf(sandbox.url)).to.equal(sandbox.url)
    expect(githubHostOf('http://127.0.0.1:8123/')).to.equal('http://127.0.0.1:8123')
    expect(githubHostOf('https://ghe.example.com/api/v3')).to.equal('https://ghe.example.com')
    expect(githubHostOf('https://api.acme.ghe.com')).to.equal('https://acme.ghe.com')
  })

  it('mcp: the official server is required on live GitHub and explained when missing', async () => {
    const ctx = await context({server: 'official'})
    const availability = await mode(mcpPlugin).available({
      ...ctx,
      github: {...ctx.github, apiUrl: 'https://api.github.com'},
    })
    expect(availability.available).to.equal(false)
    expect(availability.reason).to.match(/github-mcp-server/)
  })

  it('ghx (stand-in reproducing the real CLI’s edges): `ghx run`’s hard-coded api.github.com and `ghx chain`’s GITHUB_GRAPHQL_URL both reach the target; versions reported; skill as instructions', async () => {
    const skill = path.join(await mkdtemp(path.join(tmpdir(), 'skill-')), 'SKILL.md')
    await writeFile(skill, '# using ghx\nUse ghx run for everything.\n')
    const m = mode(ghxPlugin)
    const report = await testMode(m, await context({ghx: STAND_IN, skill}), {tools: ['shell']})
    expect(report.availability.tools).to.deep.include({ghx: '0.8.0'})
    expect(report.availability.tools?.gh).to.match(/^\d+\.\d+\.\d+/)
    expect(report.instructions).to.equal('# using ghx\nUse ghx run for everything.\n')
    const session = await open(m, {ghx: STAND_IN, skill})
    const result = await shell(session, `ghx run repo.view --input '{"owner":"ghx-bench","name":"sandbox"}'`)
    expect(result.output).to.match(
      /^\{"ok":true,"data":\{"id":"[^"]+","name":"sandbox","nameWithOwner":"ghx-bench\/sandbox",/,
    )
    expect(result.output.endsWith('}\n')).to.equal(true)
    const missing = await shell(
      session,
      `ghx run issue.view --input '{"owner":"ghx-bench","name":"sandbox","issueNumber":9999}'`,
    )
    expect(missing.ok, 'ghx exits 0 on ok:false').to.equal(true)
    expect(JSON.parse(missing.output)).to.deep.include({ok: false}).and.have.nested.property('error.code', 'NOT_FOUND')
    const chain = await shell(
      session,
      `ghx chain --steps '[{"task":"repo.view","input":{"owner":"ghx-bench","name":"sandbox"}}]'`,
    )
    expect(JSON.parse(chain.output)).to.deep.include({status: 'success'})
  })

  it('ghx: the arm’s environment sends `ghx run`’s hard-coded api.github.com to the target (node preload) and `ghx chain` to its GraphQL URL', async () => {
    const skill = path.join(await mkdtemp(path.join(tmpdir(), 'skill-')), 'SKILL.md')
    await writeFile(skill, '# ghx\n')
    const session = await open(mode(ghxPlugin), {ghx: STAND_IN, skill})
    expect(session.env.NODE_OPTIONS).to.match(/--import file:.*github-api-origin\.mjs/)
    expect(session.env).to.include({
      GHX_BENCH_GITHUB_API_URL: sandbox.url,
      GITHUB_GRAPHQL_URL: `${sandbox.url}/graphql`,
      GITHUB_TOKEN: sandbox.token,
    })
  })

  it('ghx: unavailable, saying where to put it, when the skill file cannot be found (no silent fallback)', async () => {
    const availability = await mode(ghxPlugin).available(await context({ghx: STAND_IN, skill: '/nonexistent/SKILL.md'}))
    expect(availability.available).to.equal(false)
    expect(availability.reason).to.match(/skill file/)
  })

  it('ghx: unavailable with how to install it when there is no ghx', async () => {
    const availability = await mode(ghxPlugin).available(await context({ghx: '/nonexistent/ghx'}))
    expect(availability.available).to.equal(false)
    expect(availability.reason).to.match(/install the ghx CLI/)
  })
})
