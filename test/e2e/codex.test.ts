// The real Codex CLI against the scripted models' OpenAI Responses dialect on 127.0.0.1: the oracle
// plays a one-command plan on Codex's exec_command tool (and a one-call plan on an MCP server's tool,
// offered in the server's namespace), then answers; noop answers at once. Codex's own JSON event
// stream shows that it parsed our streams: the command it ran and its output, the final message and
// the usage. It is not a dependency (a 400 MB binary): scripts/ensure-codex.sh installs it outside
// the repository.
import {randomBytes} from 'node:crypto'
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import type {Script} from '../../src/agent/scripted-models.js'
import {CODEX} from '../../plugins/provider-codex/index.js'
import {agentCliSuite, freshFolder, runJsonLines, type CliRun} from './agent-cli.js'

const ECHO_MCP_SERVER = fileURLToPath(new URL('echo-mcp-server.mjs', import.meta.url))
const MODEL_KEY_VARIABLE = 'GHXBENCH_MODEL_KEY'

interface CodexItem {
  type: string
  command?: string
  aggregated_output?: string
  exit_code?: number | null
  text?: string
  server?: string
  tool?: string
  status?: string
}

const completed = (run: CliRun, type: string) =>
  run.events
    .filter((e) => e.type === 'item.completed')
    .map((e) => e.item as CodexItem)
    .filter((item) => item.type === type)
const turnUsage = (run: CliRun) =>
  (run.events.find((e) => e.type === 'turn.completed') as {usage: Record<string, number>} | undefined)?.usage

describe('Codex against the scripted models (OpenAI Responses, streamed)', function () {
  this.timeout(180_000)
  const cli = agentCliSuite(CODEX)

  /**
   * One `codex exec` session on a run's base URL: a fresh CODEX_HOME whose config names a custom
   * provider (Codex ignores OPENAI_BASE_URL and refuses `wire_api = "chat"`), and the MCP servers given.
   */
  async function codex(baseUrl: string, mcpServers: string[] = []): Promise<CliRun> {
    const home = await freshFolder('codex')
    const codexHome = path.join(home, 'codex-home')
    await mkdir(codexHome)
    const config = [
      'model = "oracle"',
      'model_provider = "ghxbench"',
      '[model_providers.ghxbench]',
      'name = "ghx-bench scripted models"',
      `base_url = ${JSON.stringify(baseUrl)}`,
      `env_key = "${MODEL_KEY_VARIABLE}"`,
      'wire_api = "responses"',
      // Else Codex looks up its analytics host (ab.chatgpt.com) at start: with this it reaches 127.0.0.1 only.
      '[analytics]',
      'enabled = false',
      ...mcpServers,
    ]
    await writeFile(path.join(codexHome, 'config.toml'), `${config.join('\n')}\n`)
    const env = {HOME: home, CODEX_HOME: codexHome, [MODEL_KEY_VARIABLE]: 'scripted-models-need-no-key'}
    const args = [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--ephemeral',
      '--disable',
      'plugins',
      '--disable',
      'remote_plugin',
      '--disable',
      'apps',
      'Do the task.',
    ]
    return runJsonLines(cli.binary(), args, env, home)
  }

  it('the oracle runs one command through exec_command, then answers with what it printed', async () => {
    const marker = `ghx-bench-e2e-${randomBytes(4).toString('hex')}`
    const script: Script = {
      model: 'oracle',
      steps: [{tool: 'shell', args: {command: `echo ${marker}`}}],
      final: {kind: 'text', answer: 'The command printed: $out'},
    }
    const {baseUrl, outcome} = cli.models().register(script)
    const run = await codex(baseUrl)
    expect(run.code, run.stderr).to.equal(0)
    const commands = completed(run, 'command_execution')
    expect(commands).to.have.length(1)
    expect(commands[0]!.command).to.include(`echo ${marker}`)
    expect(commands[0]).to.include({aggregated_output: `${marker}\n`, exit_code: 0, status: 'completed'})
    expect(completed(run, 'agent_message').map((m) => m.text)).to.deep.equal([`The command printed: ${marker}\n`])
    // The usage of both turns in OpenAI's terms: the second read back the prefix the first sent.
    const usage = turnUsage(run)!
    expect(usage.input_tokens).to.be.above(usage.cached_input_tokens!)
    expect(usage.cached_input_tokens).to.be.above(1000)
    expect(usage.output_tokens).to.be.above(0)
    expect(outcome()).to.deep.equal({played: 1, failure: null})
  })

  it('the oracle calls an MCP server’s tool by its name in the server’s namespace and answers from its JSON', async () => {
    const script: Script = {
      model: 'oracle',
      steps: [{tool: 'echo_text', args: {text: 'over MCP'}}],
      final: {kind: 'text', answer: 'The tool echoed: $out.echoed'},
    }
    const {baseUrl, outcome} = cli.models().register(script)
    // `required`: Codex waits for the server before its first request; else that request may offer none of its tools.
    const server = [
      '[mcp_servers.echo]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(ECHO_MCP_SERVER)}]`,
      'default_tools_approval_mode = "approve"',
      'required = true',
    ]
    const run = await codex(baseUrl, server)
    expect(run.code, run.stderr).to.equal(0)
    expect(completed(run, 'mcp_tool_call')).to.have.length(1)
    expect(completed(run, 'mcp_tool_call')[0]).to.include({server: 'echo', tool: 'echo_text', status: 'completed'})
    expect(completed(run, 'agent_message').map((m) => m.text)).to.deep.equal(['The tool echoed: over MCP'])
    expect(outcome()).to.deep.equal({played: 1, failure: null})
  })

  it('noop answers at once, with no tool call', async () => {
    const {baseUrl} = cli
      .models()
      .register({model: 'noop', steps: [{tool: 'shell', args: {command: 'echo never'}}], final: {kind: 'text'}})
    const run = await codex(baseUrl)
    expect(run.code, run.stderr).to.equal(0)
    expect(completed(run, 'command_execution')).to.deep.equal([])
    expect(completed(run, 'agent_message').map((m) => m.text)).to.deep.equal(['I did not do anything.'])
  })
})
