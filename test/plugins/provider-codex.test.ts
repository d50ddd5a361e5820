// The Codex provider's stream parser and config against streams recorded from the real CLI (pinned,
// run by the provider itself against the scripted models: test/fixtures/agent-cli/record.ts says how).
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import type {ModeSession} from '../../src/plugins/api.js'
import {
  DEFAULT_TOOL_OUTPUT_TOKENS,
  InfrastructureError,
  parseJsonLines,
  SHELL_TOOL,
} from '../../src/plugin-kit/index.js'
import {CODEX, codexConfig, codexTrace} from '../../plugins/provider-codex/index.js'
import {PROJECT_ROOT} from '../support/cli.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/agent-cli/codex/', import.meta.url))
const recorded = (name: string) => parseJsonLines(readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8'))
const none = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}
const EPOCH = '1970-01-01T00:00:00.000Z'

describe('provider codex: the stream parser', () => {
  it('a shell-arm oracle run: the command as a turn, the final message as the last, turn.completed’s usage without the cached tokens counted twice', () => {
    const trace = codexTrace(recorded('shell-oracle'), 0, false)
    // turn.completed: input_tokens 11708 of which cached_input_tokens 5760, output_tokens 16.
    expect(trace.turns).to.deep.equal([
      {
        usage: none,
        tool_calls: [
          {
            tool: 'exec_command',
            args: {command: "/bin/bash -c 'echo recorded-marker'"},
            output: 'recorded-marker\n',
            ok: true,
            ms: 0,
          },
        ],
        started_at: EPOCH,
        ms: 0,
      },
      {
        usage: {...none, input: 5948, cache_read: 5760, output: 16},
        tool_calls: [],
        started_at: EPOCH,
        ms: 0,
        text: 'The command printed: recorded-marker\n',
      },
    ])
    expect(trace).to.deep.include({final_text: 'The command printed: recorded-marker\n', stop_reason: 'final'})
    expect(trace.messages).to.have.length(7)
  })

  it('a failed command is ok: false (exit code 3)', () => {
    const [call] = codexTrace(recorded('shell-fail'), 0, false).turns[0]!.tool_calls
    expect(call).to.deep.equal({
      tool: 'exec_command',
      args: {command: "/bin/bash -c 'echo to-stderr >&2; exit 3'"},
      output: 'to-stderr\n',
      ok: false,
      ms: 0,
    })
  })

  it('an MCP call by the name the model called it; a failed one is ok: false, seen only in its status', () => {
    expect(codexTrace(recorded('mcp-oracle'), 0, false).turns[0]!.tool_calls).to.deep.equal([
      {tool: 'mcp__echo__echo_text', args: {text: 'over MCP'}, output: '{"echoed":"over MCP"}', ok: true, ms: 0},
    ])
    const failed = codexTrace(recorded('mcp-fail'), 0, false)
    expect(failed.turns[0]!.tool_calls).to.deep.equal([
      {tool: 'mcp__echo__echo_text', args: {text: 'fail'}, output: 'echo refused: fail', ok: false, ms: 0},
    ])
    expect(failed.turns[1]!.usage).to.deep.equal({...none, input: 5948, cache_read: 5632, output: 15})
  })

  it('noop: one turn, no call, its answer and the whole usage', () => {
    expect(codexTrace(recorded('noop'), 0, false).turns).to.deep.equal([
      {
        usage: {...none, input: 5800, output: 6},
        tool_calls: [],
        started_at: EPOCH,
        ms: 0,
        text: 'I did not do anything.',
      },
    ])
  })

  it('times calls from when their item started and completed', () => {
    const events = recorded('shell-oracle').map((e, index) => ({...e, at: index * 100}))
    const trace = codexTrace(events, Date.parse('2026-01-01T00:00:00Z'), false)
    // thread.started 0, warning 100, turn.started 200, item.started 300, item.completed 400, message 500, turn.completed 600
    expect(trace.turns.map((t) => [t.started_at, t.ms])).to.deep.equal([
      ['2026-01-01T00:00:00.000Z', 300],
      ['2026-01-01T00:00:00.400Z', 200],
    ])
    expect(trace.turns[0]!.tool_calls[0]!.ms).to.equal(100)
  })

  it('a run cut before turn.completed is aborted; turn.failed is an infrastructure error carrying the trace', () => {
    const events = recorded('shell-oracle')
    expect(codexTrace(events.slice(0, 5), 0, false).stop_reason).to.equal('aborted')
    const failed = [
      ...events.slice(0, 3),
      {at: 0, event: {type: 'turn.failed', error: {message: 'unexpected status 503'}}},
    ]
    expect(() => codexTrace(failed, 0, false)).to.throw(InfrastructureError, /503/)
  })
})

describe('provider codex: the run’s config.toml', () => {
  const session = (extra: Partial<ModeSession>): ModeSession => ({
    instructions: 'Use "gh".',
    tools: [],
    call: () => Promise.reject(new Error('unused')),
    env: {},
    close: () => Promise.resolve(),
    ...extra,
  })
  const model = {id: 'oracle', baseUrl: 'http://127.0.0.1:9/r/k/v1'}

  it('names the model endpoint as a Responses API provider, the instructions once, no analytics, the sandbox open to loopback', () => {
    const config = codexConfig(session({tools: [SHELL_TOOL]}), model, DEFAULT_TOOL_OUTPUT_TOKENS)
    expect(config).to.include(
      'model = "oracle"\nmodel_provider = "ghxbench"\napproval_policy = "never"\nsandbox_mode = "workspace-write"\nallow_login_shell = false\ntool_output_token_limit = 100000\ndeveloper_instructions = "Use \\"gh\\"."\n',
    )
    expect(config).to.include('[sandbox_workspace_write]\nnetwork_access = true\nexclude_slash_tmp = true\n')
    expect(config).to.include(
      'base_url = "http://127.0.0.1:9/r/k/v1"\nenv_key = "GHXBENCH_MODEL_KEY"\nwire_api = "responses"\n[analytics]\nenabled = false\n',
    )
    expect(config.match(/Use/g)).to.have.length(1)
    expect(config).to.not.include('[mcp_servers')
  })

  it('attaches the mode’s MCP servers, approved and required: stdio with its environment, or a URL', () => {
    const config = codexConfig(
      session({
        mcpServers: [
          {
            name: 'github-npm',
            command: '/usr/bin/node',
            args: ['server.js'],
            env: {GITHUB_PERSONAL_ACCESS_TOKEN: 't0k'},
          },
          {name: 'remote', url: 'https://mcp.example/'},
        ],
      }),
      model,
      DEFAULT_TOOL_OUTPUT_TOKENS,
    )
    expect(config).to.include(
      '[mcp_servers."github-npm"]\ncommand = "/usr/bin/node"\nargs = ["server.js"]\nenv = {"GITHUB_PERSONAL_ACCESS_TOKEN" = "t0k"}\ndefault_tools_approval_mode = "approve"\nrequired = true\n',
    )
    expect(config).to.include(
      '[mcp_servers."remote"]\nurl = "https://mcp.example/"\ndefault_tools_approval_mode = "approve"\nrequired = true\n',
    )
  })

  it('pins the version scripts/ensure-codex.sh installs', () => {
    expect(
      /^VERSION=(\S+)$/m.exec(readFileSync(path.join(PROJECT_ROOT, 'scripts', CODEX.script), 'utf8'))?.[1],
    ).to.equal(CODEX.version)
  })
})
