/**
 * Mode `mcp`: the agent gets the tools of a GitHub MCP server (names, descriptions and input schemas
 * as the server lists them) and nothing else: no shell. Each run starts its own server session with
 * the run's token. The server is:
 *  - `npm`: @modelcontextprotocol/server-github (a dependency), started with the target's Node
 *    environment (ModeContext.github.nodeEnv), which sends its hard-coded api.github.com to the
 *    target's API (the default on the sandbox);
 *  - `official`: GitHub's `github-mcp-server stdio` from PATH (the default on live GitHub, with
 *    GITHUB_HOST for Enterprise);
 *  - a stdio command of your own ({command, args, env}), or a streamable-HTTP URL ({url, token_env}).
 */
import {definePlugin, type Mode, type ModeContext, type ModeSession, type ToolResult} from 'ghx-bench'
import {harnessEnv, npmGithubMcpServer, registerSecret, whichOnPath} from 'ghx-bench/plugin-kit'

export const OFFICIAL_INSTALL_HINT =
  'github-mcp-server not found: install GitHub’s MCP server (https://github.com/github/github-mcp-server/releases, put github-mcp-server on PATH), or set the mode option server: npm'

const INSTRUCTIONS = 'You are working on GitHub tasks. Use the GitHub tools you have for every GitHub operation.'

type ServerOption =
  | 'npm'
  | 'official'
  | {command: string; args?: string[]; env?: Record<string, string>}
  | {url: string; token_env?: string}

interface ResolvedServer {
  kind: 'stdio' | 'http'
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  headers?: Record<string, string>
  /** What the session reports as its MCP server, for providers that attach servers themselves. */
  name: string
}

/**
 * GITHUB_HOST for GitHub's MCP server: the API's origin with its scheme and port (Enterprise's
 * https://ghe.example for https://ghe.example/api/v3; the sandbox's http://127.0.0.1:PORT, which
 * answers the GHES layout /api/v3 and /api/graphql). Server versions that keep only the host name
 * (before it preserved the authority) cannot reach a port other than 80/443.
 */
export function githubHostOf(apiUrl: string): string | undefined {
  const url = new URL(apiUrl)
  if (url.hostname === 'api.github.com') return undefined
  return `${url.protocol}//${url.host.replace(/^api\./, '')}`
}

const isLoopback = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(url)

async function resolveServer(context: ModeContext): Promise<ResolvedServer | {unavailable: string}> {
  const option =
    (context.options.server as ServerOption | undefined) ?? (isLoopback(context.github.apiUrl) ? 'npm' : 'official')
  const token = context.github.token
  if (option === 'npm') {
    // It hard-codes https://api.github.com: the target's Node environment sends it to the target.
    const server = npmGithubMcpServer(context.github.apiUrl, token, context.github.nodeEnv)
    return {kind: 'stdio', name: 'github-npm', ...server}
  }
  if (option === 'official') {
    const binary = await whichOnPath('github-mcp-server')
    if (!binary) return {unavailable: OFFICIAL_INSTALL_HINT}
    const env: Record<string, string> = {GITHUB_PERSONAL_ACCESS_TOKEN: token}
    const host = githubHostOf(context.github.apiUrl)
    if (host) env.GITHUB_HOST = host
    return {kind: 'stdio', name: 'github', command: binary, args: ['stdio'], env}
  }
  if ('url' in option) {
    // token_env names a variable the harness captured at start-up (it is not in process.env any more).
    const bearer = option.token_env ? harnessEnv()[option.token_env] : token
    registerSecret(bearer)
    return {
      kind: 'http',
      name: 'github-remote',
      url: option.url,
      headers: bearer ? {authorization: `Bearer ${bearer}`} : {},
    }
  }
  return {
    kind: 'stdio',
    name: 'github-custom',
    command: option.command,
    args: option.args ?? [],
    env: {GITHUB_PERSONAL_ACCESS_TOKEN: token, ...option.env},
  }
}

/** MCP tool results as the agent sees them: the text parts joined; images and resources named. */
function resultText(result: {content?: unknown; isError?: unknown}): ToolResult {
  const parts = Array.isArray(result.content)
    ? (result.content as Array<{type: string; text?: string; uri?: string}>)
    : []
  const output = parts
    .map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}${p.uri ? ` ${p.uri}` : ''}]`))
    .join('\n')
  return {ok: result.isError !== true, output}
}

const mcp: Mode = {
  name: 'mcp',
  description: 'the agent with the tools of a GitHub MCP server, no shell',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      server: {
        description:
          'npm (the npm GitHub MCP server), official (github-mcp-server on PATH), a stdio command, or a streamable-HTTP URL',
        oneOf: [
          {enum: ['npm', 'official']},
          {
            type: 'object',
            additionalProperties: false,
            required: ['command'],
            properties: {
              command: {type: 'string', minLength: 1},
              args: {type: 'array', items: {type: 'string'}},
              env: {type: 'object', additionalProperties: {type: 'string'}},
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['url'],
            properties: {
              url: {type: 'string', format: 'uri'},
              token_env: {type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$'},
            },
          },
        ],
      },
      instructions: {type: 'string', minLength: 1, description: 'replaces the built-in instructions'},
    },
  },
  async available(context) {
    const server = await resolveServer(context)
    return 'unavailable' in server ? {available: false, reason: server.unavailable} : {available: true}
  },
  async open(context): Promise<ModeSession> {
    const server = await resolveServer(context)
    if ('unavailable' in server) throw new Error(server.unavailable)
    // The MCP SDK loads only when a session opens: validate and --help never pay for it.
    const [{Client}, {HeldStdioTransport}, {StreamableHTTPClientTransport}] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('./stdio-transport.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ])
    const client = new Client({name: 'ghx-bench', version: '1.0.0'})
    // Only what the server needs: its own variables and a PATH to start node or its binary. No shell is
    // offered. The token is in the environment only, never on the command line.
    const env = {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: context.workdir, ...server.env}
    // A stdio server is held by ghx-bench: it and all it starts end with the session, the run, and ghx-bench.
    const transport =
      server.kind === 'stdio'
        ? new HeldStdioTransport({command: server.command!, args: server.args ?? [], env, cwd: context.workdir})
        : new StreamableHTTPClientTransport(new URL(server.url!), {requestInit: {headers: server.headers}})
    let tools
    try {
      await client.connect(transport, {signal: context.signal})
      ;({tools} = await client.listTools(undefined, {signal: context.signal}))
    } catch (error) {
      // A server that never answers (initialize included) is ended with the attempt to open it.
      await client.close().catch(() => {})
      await transport.close().catch(() => {})
      throw error
    }
    return {
      instructions: typeof context.options.instructions === 'string' ? context.options.instructions : INSTRUCTIONS,
      tools: tools.map((t) => ({name: t.name, description: t.description ?? '', inputSchema: t.inputSchema})),
      env: {},
      mcpServers: [
        server.kind === 'stdio'
          ? {name: server.name, command: server.command, args: server.args, env: server.env}
          : {name: server.name, url: server.url},
      ],
      async call(tool, args, signal) {
        try {
          return resultText(
            (await client.callTool({name: tool, arguments: args}, undefined, {signal})) as {
              content?: unknown
              isError?: unknown
            },
          )
        } catch (error) {
          return {ok: false, output: `MCP error: ${(error as Error).message}`}
        }
      },
      close: () => client.close(),
    }
  },
}

export default definePlugin({apiVersion: 1, name: 'mode-mcp', version: '1.0.0', modes: [mcp]})
