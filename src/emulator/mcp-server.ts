/**
 * How to start the npm GitHub MCP server (@modelcontextprotocol/server-github) against a GitHub API
 * it does not know about: the server hard-codes https://api.github.com, so a `node --import` preload
 * shipped in this package rewrites that origin in fetch. Mode `mcp` starts it the same way, through
 * the plugin kit, with the run's Node environment.
 */
import {createRequire} from 'node:module'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {packagePath} from '../shared/package-paths.js'

export interface StdioServer {
  command: string
  args: string[]
  env: Record<string, string>
}

export const GITHUB_API_ORIGIN_PRELOAD = packagePath('preload', 'github-api-origin.mjs')

/**
 * The server run by this Node, sent to `apiUrl` through the preload; or, given `nodeEnv` (a run's
 * ModeContext.github.nodeEnv, which carries the preload and is empty on github.com itself), with that
 * environment instead.
 */
export function npmGithubMcpServer(apiUrl: string, token: string, nodeEnv?: Record<string, string>): StdioServer {
  // The package has a bin and no main entry (nor exports): find it through its package.json, resolved
  // with require's resolution (import-meta-resolve's would load a module of its own for every plugin load).
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-github/package.json')
  const entry = path.join(path.dirname(manifest), 'dist', 'index.js')
  if (nodeEnv) return {command: process.execPath, args: [entry], env: {GITHUB_PERSONAL_ACCESS_TOKEN: token, ...nodeEnv}}
  return {
    command: process.execPath,
    args: ['--import', pathToFileURL(GITHUB_API_ORIGIN_PRELOAD).href, entry],
    env: {GITHUB_PERSONAL_ACCESS_TOKEN: token, GHX_BENCH_GITHUB_API_URL: apiUrl},
  }
}
