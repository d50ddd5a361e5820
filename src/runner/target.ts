/**
 * Where GitHub is for a suite: the fixture layer (seed, reset), the reader that checkpoints use, and
 * the access each run's agent gets (token, API URL, the environment gh needs). On the sandbox every
 * run gets its own token, so the agent's API calls are counted exactly; on live GitHub they are not
 * observable and stay null.
 */
import {randomBytes} from 'node:crypto'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {LoadedConfig} from '../config/load-config.js'
import {resolveToken, type GithubClient} from '../github/client.js'
import {openTarget, type FixtureTarget} from '../seeding/service.js'
import {harnessEnv} from '../shared/process/secret-env.js'
import {GH_QUIET_ENV} from '../emulator/defaults.js'
import type {FaultConfig} from '../emulator/faults.js'
import {GITHUB_API_ORIGIN_PRELOAD} from '../emulator/mcp-server.js'
import type {SandboxService} from '../emulator/service/client.js'

export interface AccessCounts {
  /** The agent's GitHub API calls; null where they cannot be observed (live GitHub). */
  apiCalls: number | null
  /** Faults injected into the run's GitHub traffic (--inject-faults; 0 on live GitHub). */
  injectedFaults: number
}

export interface AgentAccess {
  apiUrl: string
  /** Where this GitHub answers GraphQL. */
  graphqlUrl: string
  token: string
  /** For Node tools that hard-code https://api.github.com (ghx run, the npm MCP server): a preload that sends them here. */
  nodeEnv: Record<string, string>
  /** The environment that points gh at this GitHub as the agent. */
  env: Record<string, string>
  /** What this run's GitHub traffic has been so far. */
  counts(): Promise<AccessCounts>
  release(): Promise<void>
}

export interface RunTarget {
  fixtures: FixtureTarget
  /** The agent's identity reads checkpoints too (the same view of GitHub the agent had). */
  reader: GithubClient
  sandbox?: SandboxService
  /**
   * How checkpoints poll this GitHub when the suite sets no budget: live GitHub is eventually
   * consistent (12 s, every second); the sandbox answers consistently at once (its workflow runs
   * finish in under a second: 2 s, every 100 ms).
   */
  checkpoints: {budget_ms: number; interval_ms: number}
  agentAccess(workdir: string): Promise<AgentAccess>
  /** Tokens of this target, for the redactor. */
  secrets(): string[]
  close(): Promise<void>
}

/** GitHub's GraphQL endpoint for a REST API URL: api.github.com/graphql, or Enterprise's /api/graphql beside /api/v3. */
export function graphqlUrlOf(apiUrl: string): string {
  const base = apiUrl.replace(/\/$/, '')
  return /\/api\/v3$/.test(base) ? base.replace(/\/v3$/, '/graphql') : `${base}/graphql`
}

/** The environment that sends a Node tool's hard-coded api.github.com to this API (nothing for github.com itself). */
export function nodeEnvFor(apiUrl: string, graphqlUrl: string): Record<string, string> {
  if (/^https:\/\/api\.github\.com\/?$/.test(apiUrl)) return {}
  return {NODE_OPTIONS: `--import ${pathToFileURL(GITHUB_API_ORIGIN_PRELOAD).href}`, GHX_BENCH_GITHUB_API_URL: apiUrl, GHX_BENCH_GITHUB_GRAPHQL_URL: graphqlUrl}
}

export async function openRunTarget(config: LoadedConfig, options: {faults?: FaultConfig; readOnly?: boolean; concurrency: number}): Promise<RunTarget> {
  // The sandbox is local: a failed request is retried at once, not after GitHub's one-second back-off.
  // Overlapping runs get the sandbox in its own process, off the runner's event loop.
  const fixtures = await openTarget(config, {sandboxRetry: {retries: 4, retryAfterBaseMs: 20}, readOnly: options.readOnly, sandboxProcess: options.concurrency > 1})
  const sandbox = fixtures.sandbox
  if (sandbox) {
    await sandbox.configureFaults(options.faults)
    const issued: string[] = []
    return {
      fixtures,
      reader: fixtures.ctx.agent,
      sandbox,
      checkpoints: {budget_ms: 2_000, interval_ms: 100},
      async agentAccess(workdir) {
        const token = `ghs_run${randomBytes(16).toString('hex')}`
        issued.push(token)
        const env = await sandbox.addAgentToken(token, path.join(workdir, '.config', 'gh'))
        return {
          apiUrl: sandbox.url,
          graphqlUrl: `${sandbox.url}/graphql`,
          nodeEnv: nodeEnvFor(sandbox.url, `${sandbox.url}/graphql`),
          token,
          env,
          counts: async () => {
            const {requests, faults} = await sandbox.tokenCounts(token)
            return {apiCalls: requests, injectedFaults: faults}
          },
          release: () => sandbox.releaseToken(token),
        }
      },
      secrets: () => [sandbox.token, sandbox.reviewerToken, ...issued],
      close: () => fixtures.close(),
    }
  }
  const token = await resolveToken(harnessEnv())
  const apiUrl = config.values.github.api_url
  const host = new URL(apiUrl).hostname.replace(/^api\./, '')
  const graphqlUrl = graphqlUrlOf(apiUrl)
  return {
    fixtures,
    reader: fixtures.ctx.agent,
    checkpoints: {budget_ms: 12_000, interval_ms: 1_000},
    agentAccess(workdir) {
      const configDir = path.join(workdir, '.config', 'gh')
      return Promise.resolve({
        apiUrl,
        graphqlUrl,
        nodeEnv: nodeEnvFor(apiUrl, graphqlUrl),
        token,
        env: {GH_TOKEN: token, GITHUB_TOKEN: token, GH_CONFIG_DIR: configDir, ...(host === 'github.com' ? {} : {GH_HOST: host, GH_ENTERPRISE_TOKEN: token}), ...GH_QUIET_ENV},
        counts: () => Promise.resolve({apiCalls: null, injectedFaults: 0}),
        release: () => Promise.resolve(),
      })
    },
    secrets: () => [token, harnessEnv().GHX_BENCH_REVIEWER_TOKEN ?? ''],
    close: () => fixtures.close(),
  }
}
