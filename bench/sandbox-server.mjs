// A server process for the sandbox benchmark: the compiled sandbox (or, with "hello" and a reply, a bare
// node:http hello-world answering that reply's headers and body to every request), printing one JSON line
// with its URL and token.
import http from 'node:http'

if (process.argv[2] === 'hello') {
  const {headers, body} = process.argv[3]
    ? JSON.parse(process.argv[3])
    : {headers: {'content-type': 'application/json'}, body: '{"hello":"world"}'}
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, headers)
      res.end(body)
    })
  })
  server.listen(0, '127.0.0.1', () =>
    console.log(JSON.stringify({url: `http://127.0.0.1:${server.address().port}`, token: 'none'})),
  )
} else {
  const {startSandbox} = await import('../dist/src/emulator/index.js')
  const sandbox = await startSandbox()
  console.log(JSON.stringify({url: sandbox.url, token: sandbox.token}))
}
