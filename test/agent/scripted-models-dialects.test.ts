// The scripted models' wire dialects (src/agent/dialects/): each codec against requests recorded
// byte for byte from the real CLIs (test/agent/fixtures/: Claude Code 2.1.332 and Codex 0.171.0 driven
// by the oracle), answered streamed and not, with tool calls on the tools the request offers and
// usage in the dialect's own terms. test/e2e/claude-code.test.ts and codex.test.ts run the CLIs themselves.
import {readFileSync} from 'node:fs'
import {expect} from 'chai'
import {anthropicMessages} from '../../src/agent/dialects/anthropic-messages.js'
import {openaiResponses, unframedOutput} from '../../src/agent/dialects/openai-responses.js'
import {PromptCache} from '../../src/agent/dialects/prompt-cache.js'
import {startScriptedModels, type Script, type ScriptedModels} from '../../src/agent/scripted-models.js'
import {offeredCall} from '../../src/agent/scripted-models-tools.js'

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url))
const json = (bytes: Buffer) =>
  JSON.parse(bytes.toString('utf8')) as Record<string, unknown> & {messages: unknown[]; input: unknown[]}
const CLAUDE_BASH = fixture('claude-code-2.1.332-bash-failed.request.json')
const CLAUDE_MCP = fixture('claude-code-2.1.332-mcp.request.json')
const CODEX_EXEC = fixture('codex-0.171.0-exec-failed.request.json')
const CODEX_MCP = fixture('codex-0.171.0-mcp.request.json')
// A command that outlived exec_command's 10 s wait (Process running with session ID N), then the poll that saw it exit.
const CODEX_RUNNING = fixture('codex-0.171.0-exec-running.request.json')
const CODEX_POLLED = fixture('codex-0.171.0-exec-polled.request.json')

interface SseEvent {
  event?: string
  data: Record<string, unknown>
}

/** A server-sent event stream as a client reads it: events split on blank lines, `event:` and JSON `data:` lines. */
function sseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n')
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7)
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n')
      return {...(event ? {event} : {}), data: JSON.parse(data) as Record<string, unknown>}
    })
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
  })
}

const shellThenAnswer: Script = {
  model: 'oracle',
  steps: [{tool: 'shell', args: {command: 'echo oops >&2; exit 3'}}],
  final: {kind: 'text'},
}
const shellThenMcp: Script = {
  model: 'oracle',
  steps: [
    {tool: 'shell', args: {command: 'sleep 1; echo first'}},
    {tool: 'echo_text', args: {text: 'ghx-mcp-hi'}},
  ],
  final: {kind: 'text', answer: 'The tool echoed: $out.echoed'},
}

describe('scripted models: the Anthropic Messages dialect', () => {
  let models: ScriptedModels
  before(async () => (models = await startScriptedModels()))
  after(() => models.close())
  const messagesUrl = (baseUrl: string) => `${baseUrl}/messages?beta=true`
  /** Claude Code's first request of the same session: the recorded one without the tool call and its result. */
  const firstTurn = (bytes: Buffer) => {
    const body = json(bytes)
    return {...body, messages: body.messages.slice(0, -2)}
  }

  it('reads Claude Code’s request: the Bash tool, its schema, the failed call as an exit code', () => {
    const parsed = anthropicMessages.parse(json(CLAUDE_BASH))
    if ('invalid' in parsed) throw new Error(parsed.invalid)
    const view = anthropicMessages.view(parsed.request)
    expect(view.toolCalls).to.equal(1)
    expect(view.toolResults).to.deep.equal(['oops\n[exit code 3]'])
    expect(view.tools.map((t) => t.name)).to.include('Bash')
    const mcp = anthropicMessages.parse(json(CLAUDE_MCP))
    if ('invalid' in mcp) throw new Error(mcp.invalid)
    expect(anthropicMessages.view(mcp.request).toolResults).to.deep.equal(['{"echoed":"ghx-mcp-hi"}'])
    expect(anthropicMessages.parse({model: 'x'})).to.deep.equal({invalid: 'messages: Field required'})
  })

  it('streams a tool_use on the Bash tool the request offers: message_start … message_stop, the input as partial JSON', async () => {
    const {baseUrl} = models.register(shellThenAnswer)
    const response = await post(messagesUrl(baseUrl), firstTurn(CLAUDE_BASH))
    expect(response.headers.get('content-type')).to.equal('text/event-stream')
    const events = sseEvents(await response.text())
    expect(events.map((e) => e.event)).to.deep.equal([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    for (const e of events) expect(e.data.type).to.equal(e.event)
    expect(events[2]!.data.content_block).to.deep.include({type: 'tool_use', name: 'Bash', input: {}})
    const input = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as {partial_json: string}).partial_json)
      .join('')
    expect(JSON.parse(input)).to.deep.equal({command: 'echo oops >&2; exit 3'})
    const delta = events[6]!.data as {delta: {stop_reason: string}; usage: Record<string, number>}
    expect(delta.delta.stop_reason).to.equal('tool_use')
    expect(delta.usage.output_tokens).to.be.above(0)
    // Claude Code marks its system prompt and last message for caching: the first request writes them.
    expect(delta.usage.cache_creation_input_tokens).to.be.above(1000)
    expect(delta.usage.cache_read_input_tokens).to.equal(0)
  })

  it('answers the recorded second request (the failed call) with the oracle’s final text, not streamed, and fails the plan', async () => {
    const {baseUrl, outcome} = models.register(shellThenAnswer)
    const body = {...json(CLAUDE_BASH), stream: false}
    const reply = (await (await post(messagesUrl(baseUrl), body)).json()) as {
      type: string
      role: string
      content: Array<{type: string; text: string}>
      stop_reason: string
      usage: Record<string, number>
    }
    expect(reply).to.deep.include({type: 'message', role: 'assistant', stop_reason: 'end_turn'})
    expect(reply.content).to.deep.equal([{type: 'text', text: 'Stopped: step 1 (shell) failed: oops [exit code 3]'}])
    expect(outcome().failure).to.deep.include({step: 1, tool: 'shell', message: 'oops [exit code 3]'})
    expect(Object.keys(reply.usage).sort()).to.deep.equal([
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'input_tokens',
      'output_tokens',
    ])
  })

  it('plays an MCP step on mcp__<server>__<tool>, and says it cannot when the request does not offer it', async () => {
    const {baseUrl} = models.register({...shellThenMcp, steps: shellThenMcp.steps!.slice(1)})
    const reply = (await (await post(messagesUrl(baseUrl), {...firstTurn(CLAUDE_MCP), stream: false})).json()) as {
      content: Array<{type: string; name: string; input: unknown}>
    }
    expect(reply.content[0]).to.deep.include({
      type: 'tool_use',
      name: 'mcp__echo__echo_text',
      input: {text: 'ghx-mcp-hi'},
    })
    const withoutTools = {
      ...firstTurn(CLAUDE_MCP),
      stream: false,
      tools: [{name: 'Read', input_schema: {type: 'object', properties: {file_path: {type: 'string'}}}}],
    }
    const other = models.register(shellThenMcp)
    const refusal = (await (await post(messagesUrl(other.baseUrl), withoutTools)).json()) as {
      content: Array<{text: string}>
    }
    expect(refusal.content[0]!.text).to.equal('I cannot continue: this session offers no tool "shell".')
    expect(other.outcome().failure?.message).to.equal('not played: the session offers no tool "shell"')
  })

  it('splits the prompt into input, cache writes and cache reads, as the cache_control breakpoints say', async () => {
    const {baseUrl} = models.register(shellThenAnswer)
    const usage = async (body: unknown) =>
      ((await (await post(messagesUrl(baseUrl), body)).json()) as {usage: Record<string, number>}).usage
    const first = await usage({...firstTurn(CLAUDE_BASH), stream: false})
    const again = await usage({...firstTurn(CLAUDE_BASH), stream: false})
    const total = (u: Record<string, number>) =>
      u.input_tokens! + u.cache_creation_input_tokens! + u.cache_read_input_tokens!
    expect(total(again)).to.equal(total(first))
    expect(again.cache_read_input_tokens).to.equal(first.cache_creation_input_tokens)
    expect(again.cache_creation_input_tokens).to.equal(0)
    // The next turn reads the prefix the first wrote and writes only what came after it.
    const next = await usage({...json(CLAUDE_BASH), stream: false})
    expect(next.cache_read_input_tokens).to.equal(first.cache_creation_input_tokens)
    expect(next.cache_creation_input_tokens).to.be.above(0)
    expect(total(next)).to.be.above(total(first))
    // Without breakpoints nothing is cached.
    const unmarked = JSON.parse(
      JSON.stringify(firstTurn(CLAUDE_BASH), (key, value: unknown) => (key === 'cache_control' ? undefined : value)),
    ) as object
    const plain = await usage({...unmarked, stream: false})
    expect(plain.cache_read_input_tokens! + plain.cache_creation_input_tokens!).to.equal(0)
    expect(plain.input_tokens).to.equal(total(first))
  })

  it('does not count a tool with defer_loading: it is not in the context until a tool search loads it', async () => {
    const {baseUrl} = models.register(shellThenAnswer)
    const total = async (body: unknown) => {
      const usage = ((await (await post(messagesUrl(baseUrl), body)).json()) as {usage: Record<string, number>}).usage
      return usage.input_tokens! + usage.cache_creation_input_tokens! + usage.cache_read_input_tokens!
    }
    const recorded = {...firstTurn(CLAUDE_BASH), stream: false} as unknown as {
      tools: Array<{name: string; defer_loading?: boolean}>
    }
    expect(recorded.tools.find((t) => t.name === 'DeferredToolPlaceholder')).to.include({defer_loading: true})
    const withoutPlaceholder = {...recorded, tools: recorded.tools.filter((t) => t.name !== 'DeferredToolPlaceholder')}
    const placeholderLoaded = {...recorded, tools: recorded.tools.map(({defer_loading: _, ...tool}) => tool)}
    expect(await total(recorded)).to.equal(await total(withoutPlaceholder))
    expect(await total(placeholderLoaded)).to.be.above(await total(recorded))
  })

  it('answers an error in the Anthropic shape', async () => {
    const {baseUrl} = models.register(shellThenAnswer)
    const missing = await post(`${baseUrl.replace(/\/r\/[a-f0-9]+\//, '/r/00/')}/messages`, {messages: []})
    expect(missing.status).to.equal(404)
    expect(await missing.json()).to.deep.include({type: 'error'})
    const bad = await post(messagesUrl(baseUrl), {messages: 'hello'})
    expect(bad.status).to.equal(400)
    expect(await bad.json()).to.deep.equal({
      type: 'error',
      error: {type: 'invalid_request_error', message: 'messages: Field required'},
    })
  })
})

describe('scripted models: the OpenAI Responses dialect', () => {
  let models: ScriptedModels
  before(async () => (models = await startScriptedModels()))
  after(() => models.close())
  const responsesUrl = (baseUrl: string) => `${baseUrl}/responses`
  /** Codex's request of the same session `calls` tool calls earlier: the recorded one cut before them. */
  const turnAfter = (bytes: Buffer, calls: number) => {
    const body = json(bytes)
    const firstCall = body.input.findIndex((item) => (item as {type: string}).type === 'function_call')
    return {...body, input: body.input.slice(0, firstCall + 2 * calls)}
  }

  it('reads Codex’s request: exec_command, an MCP server’s tools in its namespace, outputs without their frame', () => {
    const parsed = openaiResponses.parse(json(CODEX_MCP))
    if ('invalid' in parsed) throw new Error(parsed.invalid)
    const view = openaiResponses.view(parsed.request)
    expect(view.toolCalls).to.equal(2)
    expect(view.toolResults).to.deep.equal(['first\n', '{"echoed":"ghx-mcp-hi"}'])
    expect(view.tools.find((t) => t.name === 'exec_command')).to.not.have.property('namespace')
    expect(view.tools.find((t) => t.name === 'echo_text')).to.include({namespace: 'mcp__echo'})
    const failed = openaiResponses.parse(json(CODEX_EXEC))
    if ('invalid' in failed) throw new Error(failed.invalid)
    expect(openaiResponses.view(failed.request).toolResults).to.deep.equal(['oops\n\n[exit code 3]'])
  })

  it('waits for a command Codex reports still running: a write_stdin poll of its session, its output joined to the step’s', () => {
    const running = openaiResponses.parse(json(CODEX_RUNNING))
    if ('invalid' in running) throw new Error(running.invalid)
    const view = openaiResponses.view(running.request)
    expect(view.toolCalls).to.equal(2)
    expect(view.toolResults).to.have.length(1)
    expect(view.waitFor).to.deep.equal({
      name: 'write_stdin',
      args: {session_id: 6887, chars: '', yield_time_ms: 30_000},
    })
    const polled = openaiResponses.parse(json(CODEX_POLLED))
    if ('invalid' in polled) throw new Error(polled.invalid)
    const after = openaiResponses.view(polled.request)
    expect(after).to.not.have.property('waitFor')
    expect(after.toolCalls).to.equal(2)
    expect(after.toolResults).to.have.length(2)
    // Both replies and resolutions of each of the three threads: the part printed before the wait and after it.
    const lines = after.toolResults[1]!.trim().split('\n')
    expect(lines).to.have.length(6)
    expect(lines[0]).to.match(/^\{"ok":true,"data":\{"id":"PRRT_kwMTEyNA","isResolved":false/)
    expect(lines[5]).to.match(/"isResolved":true/)
  })

  it('answers a running command’s request with the poll, and the plan goes on once it exited', async () => {
    const twoSteps: Script = {
      model: 'oracle',
      steps: [
        {tool: 'shell', args: {command: 'list'}},
        {tool: 'shell', args: {command: 'reply to each'}},
      ],
      final: {kind: 'text'},
    }
    const {baseUrl} = models.register(twoSteps)
    const poll = await (await post(responsesUrl(baseUrl), {...json(CODEX_RUNNING), stream: false})).json()
    const call = (poll as {output: Array<{type: string; name: string; arguments: string}>}).output[0]!
    expect(call).to.include({type: 'function_call', name: 'write_stdin'})
    expect(JSON.parse(call.arguments)).to.deep.equal({session_id: 6887, chars: '', yield_time_ms: 30_000})
    const done = await (await post(responsesUrl(baseUrl), {...json(CODEX_POLLED), stream: false})).json()
    const message = (done as {output: Array<{type: string; content: Array<{text: string}>}>}).output[0]!
    expect(message.type).to.equal('message')
    expect(message.content[0]!.text).to.equal('Done: 2 step(s) completed.')
  })

  it('streams a function_call on exec_command {cmd}: response.created … response.completed, numbered in order', async () => {
    const {baseUrl} = models.register(shellThenMcp)
    const response = await post(responsesUrl(baseUrl), turnAfter(CODEX_MCP, 0))
    const events = sseEvents(await response.text())
    expect(events.map((e) => e.event)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(events.map((e) => e.data.sequence_number)).to.deep.equal(events.map((_, i) => i))
    for (const e of events) expect(e.data.type).to.equal(e.event)
    const item = events[6]!.data.item as {type: string; name: string; arguments: string; call_id: string}
    expect(item).to.include({type: 'function_call', name: 'exec_command'})
    expect(JSON.parse(item.arguments)).to.deep.equal({cmd: 'sleep 1; echo first'})
    const deltas = events
      .filter((e) => e.event === 'response.function_call_arguments.delta')
      .map((e) => e.data.delta as string)
    expect(deltas.join('')).to.equal(item.arguments)
    const completed = events.at(-1)!.data.response as {
      status: string
      output: unknown[]
      usage: {
        input_tokens: number
        input_tokens_details: {cached_tokens: number}
        output_tokens: number
        total_tokens: number
      }
    }
    expect(completed.status).to.equal('completed')
    expect(completed.output).to.deep.equal([item])
    expect(completed.usage.total_tokens).to.equal(completed.usage.input_tokens + completed.usage.output_tokens)
  })

  it('calls an MCP tool by its name in its namespace, then answers from its output (not streamed)', async () => {
    const {baseUrl, outcome} = models.register(shellThenMcp)
    const call = (await (await post(responsesUrl(baseUrl), {...turnAfter(CODEX_MCP, 1), stream: false})).json()) as {
      output: Array<Record<string, unknown>>
    }
    expect(call.output[0]).to.deep.include({
      type: 'function_call',
      name: 'echo_text',
      namespace: 'mcp__echo',
      arguments: '{"text":"ghx-mcp-hi"}',
    })
    const answer = (await (await post(responsesUrl(baseUrl), {...json(CODEX_MCP), stream: false})).json()) as {
      output: Array<{type: string; role: string; content: Array<{type: string; text: string}>}>
    }
    expect(answer.output[0]).to.deep.include({type: 'message', role: 'assistant'})
    expect(answer.output[0]!.content).to.deep.equal([
      {type: 'output_text', text: 'The tool echoed: ghx-mcp-hi', annotations: []},
    ])
    expect(outcome()).to.deep.equal({played: 2, failure: null})
  })

  it('streams the final text as output_text deltas; a failed exec fails the plan', async () => {
    const {baseUrl, outcome} = models.register(shellThenAnswer)
    // The recorded bytes as Codex sent them.
    const events = sseEvents(await (await post(responsesUrl(baseUrl), CODEX_EXEC)).text())
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.data.delta as string)
      .join('')
    expect(text).to.equal('Stopped: step 1 (shell) failed: oops [exit code 3]')
    expect((events.find((e) => e.event === 'response.output_text.done')!.data as {text: string}).text).to.equal(text)
    expect(outcome().failure).to.deep.include({step: 1, tool: 'shell'})
  })

  it('reports cached input as OpenAI does: included in input_tokens, from 1024 tokens on, in steps of 128', async () => {
    const {baseUrl} = models.register(shellThenMcp)
    type Usage = {input_tokens: number; input_tokens_details: {cached_tokens: number}}
    const usage = async (body: unknown) =>
      ((await (await post(responsesUrl(baseUrl), body)).json()) as {usage: Usage}).usage
    const first = await usage({...turnAfter(CODEX_MCP, 0), stream: false})
    expect(first.input_tokens_details.cached_tokens).to.equal(0)
    const second = await usage({...turnAfter(CODEX_MCP, 1), stream: false})
    expect(second.input_tokens).to.be.above(first.input_tokens)
    expect(second.input_tokens_details.cached_tokens % 128).to.equal(0)
    expect(second.input_tokens_details.cached_tokens).to.be.within(first.input_tokens - 127, first.input_tokens)
  })

  it('answers an error in the OpenAI shape', async () => {
    const {baseUrl} = models.register(shellThenMcp)
    const bad = await post(responsesUrl(baseUrl), {input: 42})
    expect(bad.status).to.equal(400)
    expect(((await bad.json()) as {error: {type: string}}).error.type).to.equal('invalid_request_error')
  })

  it('takes a command runner’s frame off an output, noting a non-zero exit code', () => {
    expect(
      unframedOutput(
        'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n',
      ),
    ).to.equal('hi\n')
    expect(unframedOutput('Process exited with code 2\nOutput:\nno such file\n')).to.equal(
      'no such file\n\n[exit code 2]',
    )
    expect(unframedOutput('{"ok":true}')).to.equal('{"ok":true}')
    expect(unframedOutput('Note: Output: is not a frame')).to.equal('Note: Output: is not a frame')
  })
})

describe('scripted models: a plan step on the tools a request offers', () => {
  const schema = (properties: Record<string, unknown>, required: string[]) => ({type: 'object', properties, required})
  const step = {tool: 'shell', args: {command: 'gh issue view 1'}}

  it('finds the shell tool by its name and schema, and passes the command as the schema takes it', () => {
    expect(
      offeredCall(step, [
        {name: 'Bash', parameters: schema({command: {type: 'string'}, timeout: {type: 'number'}}, ['command'])},
      ]),
    ).to.deep.equal({name: 'Bash', args: {command: 'gh issue view 1'}})
    expect(
      offeredCall(step, [{name: 'exec_command', parameters: schema({cmd: {type: 'string'}}, ['cmd'])}]),
    ).to.deep.equal({name: 'exec_command', args: {cmd: 'gh issue view 1'}})
    expect(
      offeredCall(step, [
        {
          name: 'bash',
          parameters: schema({command: {type: 'string'}, description: {type: 'string'}}, ['command', 'description']),
        },
      ]),
    ).to.deep.equal({
      name: 'bash',
      args: {command: 'gh issue view 1', description: 'Run a command'},
    })
    expect(
      offeredCall(step, [
        {name: 'shell', parameters: schema({command: {type: 'array', items: {type: 'string'}}}, ['command'])},
      ]),
    ).to.deep.equal({
      name: 'shell',
      args: {command: ['bash', '-lc', 'gh issue view 1']},
    })
  })

  it('uses no tool that is not a shell, or that requires what a plan step cannot give', () => {
    expect(
      offeredCall(step, [{name: 'Monitor', parameters: schema({command: {type: 'string'}}, ['command'])}]),
    ).to.equal(undefined)
    expect(
      offeredCall(step, [
        {
          name: 'bash',
          parameters: schema({command: {type: 'string'}, workdir: {type: 'string'}}, ['command', 'workdir']),
        },
      ]),
    ).to.equal(undefined)
    expect(
      offeredCall(step, [
        {name: 'Bash', namespace: 'mcp__tools', parameters: schema({command: {type: 'string'}}, ['command'])},
      ]),
    ).to.equal(undefined)
  })

  it('finds an MCP tool by its own name, in a namespace, or behind a server prefix', () => {
    const mcpStep = {tool: 'get_issue', args: {issue_number: 1}}
    expect(offeredCall(mcpStep, [{name: 'get_issue'}])).to.deep.equal({name: 'get_issue', args: {issue_number: 1}})
    expect(offeredCall(mcpStep, [{name: 'get_issue', namespace: 'mcp__github'}])).to.deep.equal({
      name: 'get_issue',
      namespace: 'mcp__github',
      args: {issue_number: 1},
    })
    expect(offeredCall(mcpStep, [{name: 'mcp__github__get_issue'}])?.name).to.equal('mcp__github__get_issue')
    expect(offeredCall(mcpStep, [{name: 'github_get_issue'}])?.name).to.equal('github_get_issue')
    expect(offeredCall(mcpStep, [{name: 'get_issues'}])).to.equal(undefined)
  })
})

describe('scripted models: the prompt cache', () => {
  const segments = (texts: string[], breakpointAt: number) =>
    texts.map((text, i) => ({text, breakpoint: i === breakpointAt}))

  it('explicit: writes the prefix up to the last breakpoint, reads the longest one written before', () => {
    const cache = new PromptCache()
    expect(cache.account('explicit', segments(['a', 'b', 'c'], 1), [1000, 500, 7])).to.deep.equal({
      input: 7,
      cacheRead: 0,
      cacheWrite: 1500,
    })
    expect(cache.account('explicit', segments(['a', 'b', 'c', 'd'], 2), [1000, 500, 7, 9])).to.deep.equal({
      input: 9,
      cacheRead: 1500,
      cacheWrite: 7,
    })
    // A prefix shorter than 1024 tokens is not cached.
    expect(new PromptCache().account('explicit', segments(['a'], 0), [1000])).to.deep.equal({
      input: 1000,
      cacheRead: 0,
      cacheWrite: 0,
    })
  })

  it('automatic: reads any prefix of an earlier prompt, in steps of 128 from 1024 on; none counts every token as input', () => {
    const cache = new PromptCache()
    expect(cache.account('automatic', segments(['a', 'b'], -1), [1100, 50])).to.deep.equal({
      input: 1150,
      cacheRead: 0,
      cacheWrite: 0,
    })
    // The longest prefix seen is 1150 tokens: 1024 of them are read back.
    expect(cache.account('automatic', segments(['a', 'b', 'c'], -1), [1100, 50, 3])).to.deep.equal({
      input: 129,
      cacheRead: 1024,
      cacheWrite: 0,
    })
    expect(cache.account('none', segments(['a', 'b', 'c'], 1), [1100, 50, 3])).to.deep.equal({
      input: 1153,
      cacheRead: 0,
      cacheWrite: 0,
    })
  })
})
