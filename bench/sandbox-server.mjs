// A server process for the sandbox benchmark, printing one JSON line with its URL and token: the
// compiled sandbox ("sandbox"), or ("floor") a bare node:http server that answers each request the
// sandbox's own reply to it, read from stdin as [{method, path, body, status, headers, reply}]. The floor
// does what any JSON API server must: it reads the request, parses its JSON body, and serialises its
// reply's body again for every request (JSON.stringify of the parsed reply: the same bytes).
import http from 'node:http'
import {text} from 'node:stream/consumers'

if (process.argv[2] === 'floor') {
  const replies = new Map()
  for (const {method, path, body, status, headers, reply} of JSON.parse(await text(process.stdin)))
    replies.set(`${method} ${path}\n${body ?? ''}`, {status, headers, reply: JSON.parse(reply)})
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      if (raw) JSON.parse(raw)
      const found = replies.get(`${req.method} ${req.url}\n${raw}`)
      if (!found) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(found.status, found.headers)
      res.end(JSON.stringify(found.reply))
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
