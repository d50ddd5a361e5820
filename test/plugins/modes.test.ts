// The built-in modes against the sandbox: what tools each arm gets, and that the arms are isolated.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import agentDirectPlugin from '../../plugins/mode-agent-direct/index.js'
import ghxPlugin from '../../plugins/mode-ghx/index.js'
import mcpPlugin from '../../plugins/mode-mcp/index.js'
import type {Mode, ModeContext, ModeSession} from '../../src/plugins/api.js'
import {startSandbox, type Sandbox} from '../../src/sandbox/index.js'
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
    return {options, workdir, github: {apiUrl: sandbox.url, token: sandbox.token, env: sandbox.ghEnv(path.join(workdir, 'gh'))}}
  }

  async function open(m: Mode, options: Record<string, unknown> = {}): Promise<ModeSession> {
    const session = await m.open(await context(options))
    sessions.push(session)
    return session
  }

  const shell = (session: ModeSession, command: string) => session.call('shell', {command}, new AbortController().signal)

  it('agent_direct: one shell tool with gh, authenticated against the target; ghx is not reachable even when the parent has it', async () => {
    const parentPath = process.env.PATH
    process.env.PATH = `${path.dirname(STAND_IN)}:${parentPath}`
    try {
      const session = await open(mode(agentDirectPlugin))
      expect(session.tools.map((t) => t.name)).to.deep.equal(['shell'])
      expect(session.instructions).to.match(/GitHub CLI/)
      expect((await shell(session, 'gh api user --jq .login')).output.trim()).to.equal('ghx-bench-agent')
      const ghx = await shell(session, 'ghx --version')
      expect(ghx.ok).to.equal(false)
      expect(ghx.output).to.match(/ghx: command not found/)
    } finally {
      process.env.PATH = parentPath
    }
  })

  it('agent_direct: unavailable, with the install hint, when gh is missing', async () => {
    const availability = await mode(agentDirectPlugin).available(await context({gh: '/nonexistent/gh'}))
    expect(availability).to.deep.include({available: false})
    expect(availability.reason).to.match(/apt-get install gh/)
  })

  it('mcp: the MCP server’s tools with their schemas, and no shell', async () => {
    const session = await open(mode(mcpPlugin))
    const names = session.tools.map((t) => t.name)
    expect(names).to.have.length(26)
    expect(names).to.include('get_issue')
    expect(names).to.not.include('shell')
    expect(session.tools.find((t) => t.name === 'get_issue')!.inputSchema).to.have.nested.property('properties.issue_number')
    expect(session.mcpServers![0]).to.include({name: 'github-npm'})
    const repo = await session.call('list_issues', {owner: 'ghx-bench', repo: 'sandbox', state: 'open'}, new AbortController().signal)
    expect(repo.ok, repo.output).to.equal(true)
    expect(JSON.parse(repo.output)).to.be.an('array')
    // Nothing runs a command: a shell call is not one of its tools.
    const attempt = await session.call('shell', {command: 'echo hi'}, new AbortController().signal)
    expect(attempt.ok).to.equal(false)
  })

  it('mcp: the official server is required on live GitHub and explained when missing', async () => {
    const ctx = await context({server: 'official'})
    const availability = await mode(mcpPlugin).available({...ctx, github: {...ctx.github, apiUrl: 'https://api.github.com'}})
    expect(availability.available).to.equal(false)
    expect(availability.reason).to.match(/github-mcp-server/)
  })

  it('ghx (with a stand-in script, to check the plumbing only): ghx and gh on PATH, preflight once, per-call preflight skipped, skill as instructions', async () => {
    const skill = path.join(await mkdtemp(path.join(tmpdir(), 'skill-')), 'SKILL.md')
    await writeFile(skill, '# using ghx\nUse ghx run for everything.\n')
    const m = mode(ghxPlugin)
    expect(await m.available(await context({ghx: STAND_IN}))).to.deep.equal({available: true})
    const session = await open(m, {ghx: STAND_IN, skill})
    expect(session.instructions).to.equal('# using ghx\nUse ghx run for everything.\n')
    const result = await shell(session, `ghx run repo.view --input '{"owner":"ghx-bench","name":"sandbox"}'`)
    expect(JSON.parse(result.output)).to.deep.include({ok: true, data: {task: 'repo.view', login: 'ghx-bench-agent', skip_preflight: '1'}})
  })

  it('ghx: unavailable with how to install it when there is no ghx', async () => {
    const availability = await mode(ghxPlugin).available(await context({ghx: '/nonexistent/ghx'}))
    expect(availability.available).to.equal(false)
    expect(availability.reason).to.match(/install the ghx CLI/)
  })
})
