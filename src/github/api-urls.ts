/** Where a GitHub answers, from its REST API URL: its GraphQL endpoint, and the preload that sends Node tools there. */
import {pathToFileURL} from 'node:url'
import {GITHUB_API_ORIGIN_PRELOAD} from '../emulator/mcp-server.js'

/** GitHub's GraphQL endpoint for a REST API URL: api.github.com/graphql, or Enterprise's /api/graphql beside /api/v3. */
export function graphqlUrlOf(apiUrl: string): string {
  const base = apiUrl.replace(/\/$/, '')
  return /\/api\/v3$/.test(base) ? base.replace(/\/v3$/, '/graphql') : `${base}/graphql`
}

/** The environment that sends a Node tool's hard-coded api.github.com to this API (nothing for github.com itself). */
export function nodeEnvFor(apiUrl: string, graphqlUrl: string): Record<string, string> {
  if (/^https:\/\/api\.github\.com\/?$/.test(apiUrl)) return {}
  return {
    NODE_OPTIONS: `--import ${pathToFileURL(GITHUB_API_ORIGIN_PRELOAD).href}`,
    GHX_BENCH_GITHUB_API_URL: apiUrl,
    GHX_BENCH_GITHUB_GRAPHQL_URL: graphqlUrl,
  }
}
