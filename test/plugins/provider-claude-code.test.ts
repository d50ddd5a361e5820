// The Claude Code provider's stream parser against streams recorded from the real CLI (pinned, run
// by the provider itself against the scripted models: test/fixtures/agent-cli/record.ts says how).
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import {InfrastructureError, parseJsonLines, pinnedAgentCliPath} from '../../src/plugin-kit/index.js'
import {CLAUDE_CODE, claudeCodeTrace} from '../../plugins/provider-claude-code/index.js'
import {PROJECT_ROOT} from '../support/cli.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/agent-cli/claude-code/', import.meta.url))
const recorded = (name: string) => parseJsonLines(readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8'))
const none = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}
const EPOCH = '1970-01-01T00:00:00.000Z'

describe('provider claude-code: the stream parser', () => {
  it('a shell-arm oracle run: a turn per message, the Bash call joined with its result, the final answer', () => {
    const trace = claudeCodeTrace(recorded('shell-oracle'), 0, false)
    expect(trace.turns).to.deep.equal([
      {
        usage: {...none, cache_write: 2885},
        tool_calls: [
          {tool: 'Bash', args: {command: 'echo recorded-marker'}, output: 'recorded-marker', ok: true, ms: 0},
        ],
        started_at: EPOCH,
        ms: 0,
      },
      {
        usage: {...none, output: 15, cache_read: 2885, cache_write: 74},
        tool_calls: [],
        started_at: EPOCH,
        ms: 0,
        text: 'The command printed: recorded-marker',
      },
    ])
    expect(trace).to.deep.include({
      final_text: 'The command printed: recorded-marker',
      stop_reason: 'final',
      runtime: {name: 'claude-code', version: '2.1.332', tools: ['Bash']},
    })
    expect(trace.messages).to.have.length(5)
  })

  it('the turns add up to the result event’s usage (the per-message usage is the message_start snapshot, without output)', () => {
    for (const name of ['shell-oracle', 'shell-fail', 'mcp-oracle', 'mcp-fail', 'noop']) {
      const events = recorded(name)
      const final = events.find(({event}) => event.type === 'result')!.event.usage as Record<string, number>
      const sum = claudeCodeTrace(events, 0, false).turns.reduce(
        (total, turn) => ({
          input: total.input + turn.usage.input,
          output: total.output + turn.usage.output,
          reasoning: total.reasoning + turn.usage.reasoning,
          cache_read: total.cache_read + turn.usage.cache_read,
          cache_write: total.cache_write + turn.usage.cache_write,
        }),
        none,
      )
      expect(sum, name).to.deep.equal({
        input: final.input_tokens,
        output: final.output_tokens,
        reasoning: 0,
        cache_read: final.cache_read_input_tokens,
        cache_write: final.cache_creation_input_tokens,
      })
    }
  })

  it('a failed Bash command and a failed MCP call are ok: false, with what they said', () => {
    expect(claudeCodeTrace(recorded('shell-fail'), 0, false).turns[0]!.tool_calls).to.deep.equal([
      {tool: 'Bash', args: {command: 'echo to-stderr >&2; exit 3'}, output: 'Exit code 3\nto-stderr', ok: false, ms: 0},
    ])
    const mcp = claudeCodeTrace(recorded('mcp-fail'), 0, false)
    expect(mcp.turns[0]!.tool_calls).to.deep.equal([
      {tool: 'mcp__echo__echo_text', args: {text: 'fail'}, output: 'echo refused: fail', ok: false, ms: 0},
    ])
    expect(mcp.turns[1]).to.deep.include({usage: {...none, output: 20, cache_read: 1858, cache_write: 76}})
  })

  it('an MCP-arm run offers the server’s tools only, named mcp__<server>__<tool>', () => {
    const trace = claudeCodeTrace(recorded('mcp-oracle'), 0, false)
    expect(trace.runtime?.tools).to.deep.equal(['mcp__echo__echo_text'])
    expect(trace.turns.map((t) => t.tool_calls)).to.deep.equal([
      [{tool: 'mcp__echo__echo_text', args: {text: 'over MCP'}, output: '{"echoed":"over MCP"}', ok: true, ms: 0}],
      [],
    ])
    expect(trace.turns.map((t) => t.usage)).to.deep.equal([
      {...none, cache_write: 1859},
      {...none, output: 24, cache_read: 1859, cache_write: 84},
    ])
  })

  it('noop: one turn, no call, its answer', () => {
    const trace = claudeCodeTrace(recorded('noop'), 0, false)
    expect(trace.turns).to.deep.equal([
      {
        usage: {...none, output: 6, cache_write: 2883},
        tool_calls: [],
        started_at: EPOCH,
        ms: 0,
        text: 'I did not do anything.',
      },
    ])
    expect(trace.final_text).to.equal('I did not do anything.')
  })

  it('times turns and calls from when the events arrived', () => {
    const events = recorded('shell-oracle').map((e, index) => ({...e, at: index * 100}))
    const trace = claudeCodeTrace(events, Date.parse('2026-01-01T00:00:00Z'), false)
    // init 0, tool_use 100, tool_result 200, answer 300, result 400
    expect(trace.turns.map((t) => [t.started_at, t.ms])).to.deep.equal([
      ['2026-01-01T00:00:00.000Z', 100],
      ['2026-01-01T00:00:00.200Z', 100],
    ])
    expect(trace.turns[0]!.tool_calls[0]!.ms).to.equal(100)
  })

  it('a run cut before its result is aborted; a model endpoint failure is an infrastructure error carrying the trace', () => {
    const events = recorded('shell-oracle')
    expect(claudeCodeTrace(events.slice(0, 3), 0, false).stop_reason).to.equal('aborted')
    const failed = events.map((e) =>
      e.event.type === 'result'
        ? {...e, event: {...e.event, is_error: true, api_error_status: 503, result: 'API Error: 503'}}
        : e,
    )
    expect(() => claudeCodeTrace(failed, 0, false)).to.throw(InfrastructureError, /503/)
  })

  it('pins the version scripts/ensure-claude-code.sh installs, in its cache folder', () => {
    const script = readFileSync(path.join(PROJECT_ROOT, 'scripts', CLAUDE_CODE.script), 'utf8')
    expect(/^VERSION=(\S+)$/m.exec(script)?.[1]).to.equal(CLAUDE_CODE.version)
    expect(pinnedAgentCliPath(CLAUDE_CODE)).to.match(/ghx-bench\/claude-code-2\.1\.332\/node_modules\/\.bin\/claude$/)
  })
})
