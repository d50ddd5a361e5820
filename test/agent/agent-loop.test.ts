import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {expect} from 'chai'
import {runAgentLoop} from '../../src/agent/agent-loop.js'
import {chatCompletion} from '../../src/agent/chat-completions.js'
import {startScriptedModels, type ScriptedModels} from '../../src/agent/scripted-models.js'
import {InfrastructureError, type ModeSession, type ProviderProgress} from '../../src/plugins/api.js'

/** A mode session whose one tool echoes its argument, recording the calls. */
function echoSession(calls: string[], delayMs = 0): ModeSession {
  return {
    instructions: 'Use the echo tool.',
    tools: [
      {name: 'shell', description: 'echo', inputSchema: {type: 'object', properties: {command: {type: 'string'}}}},
    ],
    env: {},
    call: (_tool, args, signal) =>
      new Promise((resolve) => {
        calls.push(String(args.command))
        const timer = setTimeout(() => resolve({ok: true, output: JSON.stringify({echo: args.command})}), delayMs)
        signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve({ok: false, output: 'aborted'})
        })
      }),
    close: async () => {},
  }
}

/** An OpenAI-compatible server that answers from a handler: the protocol's edge cases on demand. */
async function fakeEndpoint(
  handler: (body: Record<string, unknown>, res: import('node:http').ServerResponse) => void,
): Promise<{server: Server; baseUrl: string}> {
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (c: Buffer) => (text += c.toString()))
    req.on('end', () => handler(JSON.parse(text) as Record<string, unknown>, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`}
}

describe('the built-in agent loop', () => {
  let models: ScriptedModels
  before(async () => (models = await startScriptedModels()))
  after(() => models.close())
  const plan = {
    model: 'oracle' as const,
    steps: [1, 2, 3].map((n) => ({tool: 'shell', args: {command: `step ${n}`}})),
    final: {kind: 'text' as const},
  }

  for (const stream of [false, true]) {
    it(`runs every tool call the model asks for and sums usage over every turn (${stream ? 'streamed' : 'not streamed'})`, async () => {
      const {baseUrl} = models.register(plan)
      const calls: string[] = []
      const progress: ProviderProgress[] = []
      const trace = await runAgentLoop(
        {
          prompt: 'go',
          session: echoSession(calls),
          model: {id: 'oracle', baseUrl},
          options: {},
          limits: {timeout_ms: 10_000},
          signal: new AbortController().signal,
          onProgress: (e) => progress.push(e),
        },
        {stream, maxTurns: 10},
      )
      expect(calls).to.deep.equal(['step 1', 'step 2', 'step 3'])
      expect(trace.stop_reason).to.equal('final')
      expect(trace.turns).to.have.length(4)
      expect(trace.final_text).to.match(/^Done: 3 step/)
      // Each turn re-sends the growing conversation: input grows turn by turn, and all of it counts.
      const inputs = trace.turns.map((t) => t.usage.input)
      expect(inputs).to.deep.equal([...inputs].sort((a, b) => a - b))
      expect(inputs[0]).to.be.above(0)
      expect(progress.filter((p) => p.kind === 'turn')).to.have.length(4)
      expect(progress.filter((p) => p.kind === 'tool')).to.have.length(3)
    })
  }

  it('stops at max_turns', async () => {
    const {baseUrl} = models.register(plan)
    const trace = await runAgentLoop(
      {
        prompt: 'go',
        session: echoSession([]),
        model: {id: 'oracle', baseUrl},
        options: {},
        limits: {timeout_ms: 10_000, max_turns: 2},
        signal: new AbortController().signal,
      },
      {stream: false, maxTurns: 10},
    )
    expect(trace.stop_reason).to.equal('max_turns')
    expect(trace.turns).to.have.length(2)
  })

  it('an abort cancels the tool in flight and returns what happened so far', async () => {
    const {baseUrl} = models.register(plan)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const started = Date.now()
    const trace = await runAgentLoop(
      {
        prompt: 'go',
        session: echoSession([], 60_000),
        model: {id: 'oracle', baseUrl},
        options: {},
        limits: {timeout_ms: 60_000},
        signal: controller.signal,
      },
      {stream: false, maxTurns: 10},
    )
    expect(Date.now() - started).to.be.below(5000)
    expect(trace.stop_reason).to.equal('aborted')
    expect(trace.turns[0]!.tool_calls[0]!.ok).to.equal(false)
  })

  it('an abort cancels a model request that hangs', async () => {
    const {server, baseUrl} = await fakeEndpoint(() => {}) // never answers
    try {
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 200)
      const trace = await runAgentLoop(
        {
          prompt: 'go',
          session: echoSession([]),
          model: {id: 'm', baseUrl},
          options: {},
          limits: {timeout_ms: 60_000},
          signal: controller.signal,
        },
        {stream: true, maxTurns: 10},
      )
      expect(trace.stop_reason).to.equal('aborted')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('a 5xx from the model is an infrastructure error (retried by the runner); a 4xx is not', async () => {
    for (const [status, infra] of [
      [503, true],
      [400, false],
    ] as const) {
      const {server, baseUrl} = await fakeEndpoint((_body, res) =>
        res.writeHead(status, {'content-type': 'application/json'}).end('{"error":{"message":"no"}}'),
      )
      try {
        const error = await runAgentLoop(
          {
            prompt: 'go',
            session: echoSession([]),
            model: {id: 'm', baseUrl},
            options: {},
            limits: {timeout_ms: 5000},
            signal: new AbortController().signal,
          },
          {stream: false, maxTurns: 3},
        ).then(
          () => undefined,
          (e: Error) => e,
        )
        expect(error).to.be.instanceOf(Error)
        expect(error instanceof InfrastructureError).to.equal(infra)
        expect(error!.message).to.include(String(status))
      } finally {
        server.close()
      }
    }
  })
})

describe('chat-completions client', () => {
  it('assembles parallel tool calls streamed in pieces, and keeps cached and reasoning tokens apart', async () => {
    const chunks = [
      {
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              tool_calls: [{index: 0, id: 'a', type: 'function', function: {name: 'sh', arguments: '{"comm'}}],
            },
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{index: 1, id: 'b', type: 'function', function: {name: 'sh', arguments: '{"command":'}}],
            },
          },
        ],
      },
      {choices: [{index: 0, delta: {tool_calls: [{index: 0, function: {arguments: 'and":"ls"}'}}]}}]},
      {
        choices: [
          {index: 0, delta: {tool_calls: [{index: 1, function: {arguments: '"pwd"}'}}]}, finish_reason: 'tool_calls'},
        ],
      },
      {
        choices: [],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 30,
          cost: 0.002,
          prompt_tokens_details: {cached_tokens: 40},
          completion_tokens_details: {reasoning_tokens: 10},
        },
      },
    ]
    const {server, baseUrl} = await fakeEndpoint((body, res) => {
      expect(body.stream_options).to.deep.equal({include_usage: true})
      res.writeHead(200, {'content-type': 'text/event-stream'})
      // Events split across writes at odd places, as proxies do.
      const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
      res.write(text.slice(0, 37))
      res.end(text.slice(37))
    })
    try {
      const response = await chatCompletion(
        {id: 'm', baseUrl, apiKey: 'k'},
        {messages: [{role: 'user', content: 'x'}], tools: [], stream: true, signal: new AbortController().signal},
      )
      expect(response.message.tool_calls!.map((c) => [c.id, JSON.parse(c.function.arguments)])).to.deep.equal([
        ['a', {command: 'ls'}],
        ['b', {command: 'pwd'}],
      ])
      expect(response.usage).to.deep.equal({input: 60, output: 20, reasoning: 10, cache_read: 40, cache_write: 0})
      expect(response.cost_usd).to.equal(0.002)
      expect(response.finish_reason).to.equal('tool_calls')
    } finally {
      server.close()
    }
  })
})
