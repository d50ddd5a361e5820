// A real MCP client connected over stdio to the npm GitHub MCP server, started as mode `mcp` starts it
// (npmGithubMcpServer: the unmodified server with the origin-rewriting preload) against a sandbox.
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {npmGithubMcpServer} from '../../src/emulator/index.js'

export type ToolResult = {content: Array<{type: string; text: string}>; isError?: boolean}

export async function connectNpmMcpServer(sandbox: {url: string; token: string}): Promise<Client> {
  const server = npmGithubMcpServer(sandbox.url, sandbox.token)
  const client = new Client({name: 'ghx-bench-test', version: '1.0.0'})
  await client.connect(
    new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: {...server.env, PATH: process.env.PATH ?? ''},
      stderr: 'ignore',
    }),
  )
  return client
}
