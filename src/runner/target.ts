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
import {AGENT_LOGIN, GH_QUIET_ENV} from '../emulator/defaults.js'
import type {FaultConfig} from '../emulator/faults.js'
import {GITHUB_API_ORIGIN_PRELOAD} from '../emulator/mcp-server.js'
import type {Sandbox} from '../emulator/server.js'

export interface AgentAccess {
  apiUrl: string
  /** Where this GitHub answers GraphQL. */
  graphqlUrl: string
  token: string
  /** For Node tools that hard-code https://api.github.com (ghx run, the npm MCP server): a preload that sends them here. */
  nodeEnv: Record<string, string>
  /** The environment that points gh at this GitHub as the agent. */
  env: Record<string, string>
  /** The agent's GitHub API calls so far in this run; null where they cannot be observed. */
  apiCalls(): number | null
  /** Faults injected into this run's GitHub traffic so far (--inject-faults; 0 on live GitHub). */
  injectedFaults(): number
  release(): void
}

export interface RunTarget {
  fixtures: FixtureTarget
  /** The agent's identity reads checkpoints too (the same view of GitHub the agent had). */
  reader: GithubClient
  sandbox?: Sandbox
  /**
   * How checkpoints poll this GitHub when the suite sets no budget: live GitHub is eventually
   * consistent (12 s, every second); the sandbox answers consistently at once (its workflow runs
   * finish in under a second: 2 s, every 100 ms).
   */
  checkpoints: {budget_ms: number; interval_ms: number}
  agentAccess(workdir: string): AgentAccess
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

export async function openRunTarget(config: LoadedConfig, options: {faults?: FaultConfig; readOnly?: boolean}): Promise<RunTarget> {
  // The sandbox is local: a failed request is retried at once, not after GitHub's one-second back-off.
  const fixtures = await openTarget(config, {sandboxRetry: {retries: 4, retryAfterBaseMs: 20}, readOnly: options.readOnly})
  const sandbox = fixtures.sandbox
  if (sandbox) {
    sandbox.faults.configure(options.faults)
    // Faults hit the system under test only: requests with a run's agent token, never the harness's own.
    const agentTokens = new Set<string>()
    sandbox.faults.scopeTo(agentTokens)
    const issued: string[] = []
    return {
      fixtures,
      reader: fixtures.ctx.agent,
      sandbox,
      checkpoints: {budget_ms: 2_000, interval_ms: 100},
      agentAccess(workdir) {
        const token = `ghs_run${randomBytes(16).toString('hex')}`
        issued.push(token)
        sandbox.store.addToken(token, AGENT_LOGIN)
        agentTokens.add(token)
        return {
          apiUrl: sandbox.url,
          graphqlUrl: `${sandbox.url}/graphql`,
          nodeEnv: nodeEnvFor(sandbox.url, `${sandbox.url}/graphql`),
          token,
          env: sandbox.ghEnv(path.join(workdir, '.config', 'gh'), token),
          apiCalls: () => sandbox.requests.byToken.get(token) ?? 0,
          injectedFaults: () => sandbox.faults.injectedByToken.get(token) ?? 0,
          release: () => {
            delete sandbox.store.state.tokens[token]
            sandbox.requests.byToken.delete(token)
            sandbox.faults.injectedByToken.delete(token)
            agentTokens.delete(token)
          },
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
      return {
        apiUrl,
        graphqlUrl,
        nodeEnv: nodeEnvFor(apiUrl, graphqlUrl),
        token,
        env: {GH_TOKEN: token, GITHUB_TOKEN: token, GH_CONFIG_DIR: configDir, ...(host === 'github.com' ? {} : {GH_HOST: host, GH_ENTERPRISE_TOKEN: token}), ...GH_QUIET_ENV},
        apiCalls: () => null,
        injectedFaults: () => 0,
        release: () => {},
      }
    },
    secrets: () => [token, harnessEnv().GHX_BENCH_REVIEWER_TOKEN ?? ''],
    close: () => fixtures.close(),
  }
}
