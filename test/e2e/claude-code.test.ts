// The real Claude Code against the scripted models' Anthropic Messages dialect on 127.0.0.1: the
// oracle plays a one-command plan on Claude Code's Bash tool (and a one-call plan on an MCP server's
// tool), then answers; noop answers at once. Claude Code's own JSON event stream shows that it parsed
// our streams: the tool call it ran, the tool's output, the final answer and the usage. It is not a
// dependency (a 400 MB binary): scripts/ensure-claude-code.sh installs it outside the repository.
import {randomBytes} from 'node:crypto'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import type {Script} from '../../src/agent/scripted-models.js'
import {CLAUDE_CODE} from '../../plugins/provider-claude-code/index.js'
import {agentCliSuite, freshFolder, runJsonLines, type CliRun} from './agent-cli.js'

const ECHO_MCP_SERVER = fileURLToPath(new URL('echo-mcp-server.mjs', import.meta.url))

interface ContentBlock {
  type: string
  name?: string
  input?: Record<string, unknown>
  content?: unknown
  is_error?: boolean
}

const blocks = (run: CliRun, type: 'assistant' | 'user') =>
  run.events
    .filter((e) => e.type === type)
    .flatMap((e) => ((e.message as {content?: ContentBlock[] | string}).content ?? []) as ContentBlock[])
const result = (run: CliRun) =>
  run.events.find((e) => e.type === 'result') as
    {subtype: string; is_error: boolean; result: string; num_turns: number; usage: Record<string, number>} | undefined

describe('Claude Code against the scripted models (Anthropic Messages, streamed)', function () {
  this.timeout(180_000)
  const cli = agentCliSuite(CLAUDE_CODE)

  /** One `claude -p` session on a run's base URL (Claude Code appends /v1/messages itself). */
  async function claude(baseUrl: string, args: string[]): Promise<CliRun> {
    const home = await freshFolder('claude-code')
    const env = {
      HOME: home,
      ANTHROPIC_BASE_URL: baseUrl.replace(/\/v1$/, ''),
      ANTHROPIC_API_KEY: 'scripted-models-need-no-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    }
    const common = [
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'dontAsk',
      '--no-session-persistence',
    ]
    return runJsonLines(cli.binary(), ['-p', 'Do the task.', ...common, ...args], env, home)
  }

  it('the oracle runs one command through Bash, then answers with what it printed', async () => {
    const marker = `ghx-bench-e2e-${randomBytes(4).toString('hex')}`
    const script: Script = {
      model: 'oracle',
      steps: [{tool: 'shell', args: {command: `echo ${marker}`}}],
      final: {kind: 'text', answer: 'The command printed: $out'},
    }
    const {baseUrl, outcome} = cli.models().register(script)
    const run = await claude(baseUrl, ['--tools', 'Bash', '--allowedTools', 'Bash'])
    expect(run.code, run.stderr).to.equal(0)
    const calls = blocks(run, 'assistant').filter((b) => b.type === 'tool_use')
    expect(calls.map(({name, input}) => ({name, input}))).to.deep.equal([
      {name: 'Bash', input: {command: `echo ${marker}`}},
    ])
    const toolResult = blocks(run, 'user').find((b) => b.type === 'tool_result')
    expect(toolResult).to.deep.include({content: marker, is_error: false})
    const final = result(run)
    expect(final).to.deep.include({
      subtype: 'success',
      is_error: false,
      result: `The command printed: ${marker}`,
      num_turns: 2,
    })
    // The final usage sums both turns in Anthropic's terms: the second read the prefix the first wrote.
    expect(final!.usage.cache_read_input_tokens).to.be.above(1000)
    expect(final!.usage.cache_creation_input_tokens).to.be.above(1000)
    expect(final!.usage.output_tokens).to.be.above(0)
    expect(outcome()).to.deep.equal({played: 1, failure: null})
  })

  it('the oracle calls an MCP server’s tool as mcp__<server>__<tool> and answers from its JSON', async () => {
    const script: Script = {
      model: 'oracle',
      steps: [{tool: 'echo_text', args: {text: 'over MCP'}}],
      final: {kind: 'text', answer: 'The tool echoed: $out.echoed'},
    }
    const {baseUrl, outcome} = cli.models().register(script)
    const mcpConfig = JSON.stringify({
      mcpServers: {echo: {type: 'stdio', command: process.execPath, args: [ECHO_MCP_SERVER]}},
    })
    const run = await claude(baseUrl, [
      '--tools',
      '',
      '--mcp-config',
      mcpConfig,
      '--strict-mcp-config',
      '--allowedTools',
      'mcp__echo__echo_text',
    ])
    expect(run.code, run.stderr).to.equal(0)
    expect(blocks(run, 'assistant').find((b) => b.type === 'tool_use')).to.deep.include({
      name: 'mcp__echo__echo_text',
      input: {text: 'over MCP'},
    })
    expect(result(run)).to.deep.include({subtype: 'success', result: 'The tool echoed: over MCP'})
    expect(outcome()).to.deep.equal({played: 1, failure: null})
  })

  it('noop answers at once, with no tool call', async () => {
    const {baseUrl} = cli
      .models()
      .register({model: 'noop', steps: [{tool: 'shell', args: {command: 'echo never'}}], final: {kind: 'text'}})
    const run = await claude(baseUrl, ['--tools', 'Bash', '--allowedTools', 'Bash'])
    expect(run.code, run.stderr).to.equal(0)
    expect(blocks(run, 'assistant').filter((b) => b.type === 'tool_use')).to.deep.equal([])
    expect(result(run)).to.deep.include({subtype: 'success', result: 'I did not do anything.', num_turns: 1})
  })
})
