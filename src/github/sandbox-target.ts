/**
 * The sandbox as the target: the embedded GitHub, started here (in this process, or in its own when
 * runs overlap), its state kept between commands in .ghx-bench/sandbox.json beside the config.
 */
import {randomBytes} from 'node:crypto'
import path from 'node:path'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {AGENT_LOGIN, DEFAULT_REPO, REVIEWER_LOGIN} from '../emulator/defaults.js'
import type {Sandbox} from '../emulator/server.js'
import {openSandbox} from '../emulator/service/client.js'
import {nodeEnvFor} from './api-urls.js'
import {createClient, type GithubClient} from './client.js'
import type {GitHubTarget, TargetOptions} from './target.js'

function sandboxStatePath(config: LoadedConfig): string {
  return resolveConfigPath(config, path.join('.ghx-bench', 'sandbox.json'))
}

/** The harness's two identities on a sandbox: the agent's and the reviewer's. */
export function sandboxIdentities(
  sandbox: Pick<Sandbox, 'url' | 'token' | 'reviewerToken'>,
  retry: {retries: number; retryAfterBaseMs?: number} = {retries: 0},
): {agent: GithubClient; second: GithubClient} {
  // No write pacing: the sandbox has no secondary rate limits to respect.
  const client = (token: string) => createClient({baseUrl: sandbox.url, token, ...retry, throttle: false}).octokit
  return {agent: client(sandbox.token), second: client(sandbox.reviewerToken)}
}

export async function openSandboxTarget(config: LoadedConfig, options: TargetOptions): Promise<GitHubTarget> {
  const full = config.values.fixtures.repo ?? DEFAULT_REPO
  const [owner, name] = full.split('/') as [string, string]
  const sandbox = await openSandbox(
    {statePath: sandboxStatePath(config), repos: [full], repo: full, readOnly: options.readOnly},
    {ownProcess: options.sandboxProcess ?? false},
  )
  if (options.faults) await sandbox.configureFaults(options.faults)
  const issued: string[] = []
  return {
    kind: 'sandbox',
    repo: {owner, name, defaultBranch: sandbox.defaultBranch},
    ...sandboxIdentities(sandbox, options.sandboxRetry),
    logins: {agent: AGENT_LOGIN, reviewer: REVIEWER_LOGIN},
    fixtures: {workflowPollMs: 50, reuseManifest: false, verifyResets: () => true},
    sandbox,
    checkpoints: {budget_ms: 2_000, interval_ms: 100},
    rateBudgets: [],
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
        // The run's token is new: everything it spends is the agent's, from its first request.
        startCounting: () => Promise.resolve(),
        counts: async () => {
          const {requests, faults, cost} = await sandbox.tokenCounts(token)
          return {
            apiCalls: requests,
            api: {
              source: 'sandbox',
              rest_requests: cost.rest_requests,
              graphql_requests: cost.graphql_requests,
              graphql_points: cost.graphql_points,
              secondary_limit_waits: cost.secondary_limit_waits,
              retry_after_s: cost.retry_after_s,
            },
            injectedFaults: faults,
          }
        },
        release: () => sandbox.releaseToken(token),
      }
    },
    secrets: () => [sandbox.token, sandbox.reviewerToken, ...issued],
    close: () => sandbox.stop(),
  }
}
