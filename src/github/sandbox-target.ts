/**
 * The sandbox as the target: the embedded GitHub, started here (in this process, or in its own when
 * runs overlap), its state kept between commands in .ghx-bench/sandbox.json beside the config.
 */
import {randomBytes} from 'node:crypto'
import path from 'node:path'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {AGENT_LOGIN, DEFAULT_REPO, fixtureCommitter, REVIEWER_LOGIN} from '../emulator/defaults.js'
import type {Sandbox} from '../emulator/server.js'
import {openSandbox, type SandboxService} from '../emulator/service/client.js'
import {nodeEnvFor} from './api-urls.js'
import {createClient, type GithubClient} from './client.js'
import type {AgentAccess, GitHubTarget, TargetOptions} from './target.js'

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

const ghConfigDir = (workdir: string) => path.join(workdir, '.config', 'gh')

/** The agent's access as `token` to the sandbox (or a run's world) at `url`, its traffic counted by `sandbox`. */
function accessAt(
  sandbox: SandboxService,
  url: string,
  token: string,
  env: Record<string, string>,
  release: () => Promise<void>,
): AgentAccess {
  return {
    apiUrl: url,
    graphqlUrl: `${url}/graphql`,
    nodeEnv: nodeEnvFor(url, `${url}/graphql`),
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
    release,
  }
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
  const runToken = () => {
    const token = `ghs_run${randomBytes(16).toString('hex')}`
    issued.push(token)
    return token
  }
  return {
    kind: 'sandbox',
    repo: {owner, name, defaultBranch: sandbox.defaultBranch},
    ...sandboxIdentities(sandbox, options.sandboxRetry),
    logins: {agent: AGENT_LOGIN, reviewer: REVIEWER_LOGIN},
    fixtures: {workflowPollMs: 50, reuseManifest: false, verifyResets: () => true, commitAs: fixtureCommitter},
    sandbox,
    checkpoints: {budget_ms: 2_000, interval_ms: 100},
    rateBudgets: [],
    async agentAccess(workdir) {
      const token = runToken()
      const env = await sandbox.addAgentToken(token, ghConfigDir(workdir))
      return accessAt(sandbox, sandbox.url, token, env, () => sandbox.releaseToken(token))
    },
    async openRun(workdir) {
      const token = runToken()
      const {world, url, env} = await sandbox.openWorld(token, ghConfigDir(workdir))
      return {
        access: accessAt(sandbox, url, token, env, () => Promise.resolve()),
        ...sandboxIdentities({url, token: sandbox.token, reviewerToken: sandbox.reviewerToken}, options.sandboxRetry),
        startsAsSeeded: true,
        states: {
          saveState: () => sandbox.saveState(world),
          restoreState: (id) => sandbox.restoreState(id),
          forgetState: (id) => sandbox.forgetState(id),
        },
        release: () => sandbox.closeWorld(world),
      }
    },
    secrets: () => [sandbox.token, sandbox.reviewerToken, ...issued],
    close: () => sandbox.stop(),
  }
}
