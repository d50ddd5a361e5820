// An MCP server over stdio that does what a broken or hostile one does: ignores SIGTERM, leaves
// setsid children behind (one with a cleared environment), and, as `silent`, never answers
// `initialize`; as `kill-parent`, it also kills its parent (a perl) and goes on without answering.
// Usage: node hostile-mcp-server.mjs answer|silent|kill-parent <marker>; its children run `sleep <marker>`.
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createInterface} from 'node:readline'

const [behaviour, marker] = process.argv.slice(2)
process.on('SIGTERM', () => {})
process.stdin.on('error', () => {})
for (const command of [
  ['setsid', 'sleep', marker],
  ['setsid', 'env', '-i', 'sleep', marker],
]) {
  spawn(command[0], command.slice(1), {detached: true, stdio: 'ignore'}).unref()
}
// Alive whatever happens to stdin.
setInterval(() => {}, 1000)
// Its parent when ghx-bench holds it (perl); never a test runner that started it directly.
if (behaviour === 'kill-parent' && readFileSync(`/proc/${process.ppid}/comm`, 'utf8').trim() === 'perl')
  process.kill(process.ppid, 'SIGKILL')
if (behaviour === 'answer') {
  const reply = (id, result) => process.stdout.write(JSON.stringify({jsonrpc: '2.0', id, result}) + '\n')
  createInterface({input: process.stdin}).on('line', (line) => {
    const message = JSON.parse(line)
    if (message.method === 'initialize')
      reply(message.id, {
        protocolVersion: message.params.protocolVersion,
        capabilities: {tools: {}},
        serverInfo: {name: 'hostile', version: '1.0.0'},
      })
    else if (message.method === 'tools/list')
      reply(message.id, {tools: [{name: 'noop', description: 'does nothing', inputSchema: {type: 'object'}}]})
    else if (message.id !== undefined) reply(message.id, {content: [{type: 'text', text: 'ok'}]})
  })
}
