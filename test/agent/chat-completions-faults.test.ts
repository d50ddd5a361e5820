// The chat-completions client against endpoints that misbehave with a 200: a body that never ends, a
// body that is not a completion. Each is the endpoint's fault (an InfrastructureError, which the runner
// retries and records as a provider error), never a hang, a memory blow-up or the agent's failure.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {expect} from 'chai'
import {chatCompletion, MAX_RESPONSE_BYTES} from '../../src/agent/chat-completions.js'
import {InfrastructureError} from '../../src/plugins/api.js'

async function endpoint(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{server: Server; baseUrl: string}> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => handler(req, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`}
}

async function failureOf(baseUrl: string, stream: boolean): Promise<Error> {
  return chatCompletion(
    {id: 'm', baseUrl},
    {messages: [{role: 'user', content: 'x'}], tools: [], stream, signal: new AbortController().signal},
  ).then(
    (answer) => expect.fail(`expected a failure, got ${JSON.stringify(answer)}`),
    (error: Error) => error,
  )
}

describe('chat-completions client: a misbehaving endpoint', function () {
  this.timeout(120_000)

  for (const stream of [false, true]) {
    it(`an endless body is cut off at the stated limit, the endpoint's fault (${stream ? 'streamed' : 'not streamed'})`, async () => {
      let sent = 0
      let closed = false
      const piece = stream
        ? Buffer.from(`data: ${JSON.stringify({choices: [{index: 0, delta: {content: 'x'.repeat(60_000)}}]})}\n\n`)
        : Buffer.alloc(64 * 1024, 0x20)
      const {server, baseUrl} = await endpoint((_req, res) => {
        res.writeHead(200, {'content-type': stream ? 'text/event-stream' : 'application/json'})
        if (!stream) res.write('{"choices": [{"message": {"content": "')
        res.on('close', () => (closed = true))
        // Writes for as long as the client reads: only the client's cut ends it.
        const more = (): void => {
          while (!closed && res.write(piece)) sent += piece.length
          if (!closed) res.once('drain', more)
        }
        more()
      })
      try {
        const error = await failureOf(baseUrl, stream)
        expect(error instanceof InfrastructureError, error.stack).to.equal(true)
        expect(error.message).to.include(`more than ${MAX_RESPONSE_BYTES / (1024 * 1024)} MiB`)
        // The client hung up: the server stops, having sent about the limit (socket buffers aside), not gigabytes.
        const deadline = Date.now() + 30_000
        while (!closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
        expect(closed).to.equal(true)
        expect(sent).to.be.below(MAX_RESPONSE_BYTES * 2)
      } finally {
        server.closeAllConnections()
        server.close()
      }
    })
  }

  const malformed: Array<{what: string; stream: boolean; type: string; body: string; says: string}> = [
    {
      what: 'a body that is not JSON',
      stream: false,
      type: 'application/json',
      body: '<html>502 Bad Gateway</html>',
      says: 'not JSON: <html>502 Bad Gateway',
    },
    {what: 'JSON null', stream: false, type: 'application/json', body: 'null', says: 'no choice'},
    {
      what: 'JSON without choices',
      stream: false,
      type: 'application/json',
      body: '{"error":{"message":"overloaded"}}',
      says: 'overloaded',
    },
    {
      what: 'choices that is not a list',
      stream: false,
      type: 'application/json',
      body: '{"choices":{"message":{"content":"hi"}}}',
      says: 'no choice',
    },
    {
      what: 'a JSON body where a stream was asked for',
      stream: true,
      type: 'application/json',
      body: '{"id":"x","object":"chat.completion"}',
      says: 'no completion event',
    },
    {
      what: 'an error event in the stream',
      stream: true,
      type: 'text/event-stream',
      body: 'data: {"error":{"message":"provider overloaded"}}\n\n',
      says: 'provider overloaded',
    },
    {
      what: 'an event that is not JSON',
      stream: true,
      type: 'text/event-stream',
      body: 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choi\n\n',
      says: 'not JSON: {"choi',
    },
    {what: 'an empty stream', stream: true, type: 'text/event-stream', body: '', says: 'no completion event'},
  ]
  for (const {what, stream, type, body, says} of malformed) {
    it(`a 200 with ${what} is the endpoint's fault, naming what came`, async () => {
      const {server, baseUrl} = await endpoint((_req, res) => res.writeHead(200, {'content-type': type}).end(body))
      try {
        const error = await failureOf(baseUrl, stream)
        expect(error instanceof InfrastructureError, error.stack).to.equal(true)
        expect(error.message).to.include('model endpoint answered 200')
        expect(error.message).to.include(says)
      } finally {
        server.close()
      }
    })
  }

  it('a connection cut mid-stream is the endpoint’s fault', async () => {
    const {server, baseUrl} = await endpoint((_req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'})
      res.write('data: {"choices":[{"index":0,"delta":{"content":"half"}}]}\n\n', () => res.destroy())
    })
    try {
      const error = await failureOf(baseUrl, true)
      expect(error instanceof InfrastructureError, error.stack).to.equal(true)
      expect(error.message).to.include('connection broke mid-answer')
    } finally {
      server.close()
    }
  })

  it('an endless error body is read only as far as its message needs', async () => {
    let closed = false
    const {server, baseUrl} = await endpoint((_req, res) => {
      res.writeHead(503, {'content-type': 'text/plain'})
      res.on('close', () => (closed = true))
      const more = (): void => {
        while (!closed && res.write('busy '.repeat(1000)));
        if (!closed) res.once('drain', more)
      }
      more()
    })
    try {
      const error = await failureOf(baseUrl, false)
      expect(error instanceof InfrastructureError).to.equal(true)
      expect(error.message).to.match(/^model endpoint answered 503: busy busy/)
      expect(error.message.length).to.be.below(400)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
