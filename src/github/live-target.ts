/**
 * Live GitHub as the target: the token from GH_TOKEN, GITHUB_TOKEN or `gh auth token`; the second
 * identity a GitHub App's installation (GHX_BENCH_APP_ID) or GHX_BENCH_REVIEWER_TOKEN's user, else the
 * agent again. Only a repository listed in fixtures.sandbox_repos is ever a target.
 */
import path from 'node:path'
import type {LoadedConfig} from '../config/load-config.js'
import {GH_QUIET_ENV} from '../emulator/defaults.js'
import {BadInputError} from '../shared/diagnostics.js'
import {harnessEnv} from '../shared/process/secret-env.js'
import {graphqlUrlOf, nodeEnvFor} from './api-urls.js'
import {appCredentials, appOctokit, createClient, resolveToken, type GithubClient} from './client.js'
import type {AccessCounts, GitHubTarget, TargetOptions} from './target.js'

export async function openLiveTarget(config: LoadedConfig, options: TargetOptions): Promise<GitHubTarget> {
  const env = options.env ?? harnessEnv()
  const full = config.values.fixtures.repo
  if (!full)
    throw new BadInputError([
      {
        file: config.origin,
        code: 'config',
        message: 'no fixture repository: set fixtures.repo or pass --repo owner/name',
      },
    ])
  // The guard comes first: nothing is written to a repository that is not listed as a sandbox.
  if (!config.values.fixtures.sandbox_repos.includes(full)) {
    throw new BadInputError([
      {
        file: config.origin,
        code: 'config',
        message: `refusing to write fixtures to ${full}: it is not listed in fixtures.sandbox_repos`,
      },
    ])
  }
  const apiUrl = config.values.github.api_url
  const token = await resolveToken(env)
  const agent = createClient({baseUrl: apiUrl, token}).octokit
  const [owner, name] = full.split('/') as [string, string]
  const reviewerToken = env.GHX_BENCH_REVIEWER_TOKEN
  const app = await appCredentials(env, {owner, repo: name}, apiUrl)
  const second = app
    ? createClient({baseUrl: apiUrl, app}).octokit
    : reviewerToken
      ? createClient({baseUrl: apiUrl, token: reviewerToken}).octokit
      : agent
  const {data: repository} = await agent.rest.repos.get({owner, repo: name})
  const agentLogin = (await agent.rest.users.getAuthenticated()).data.login
  // An App installation has no user; its comments show as <slug>[bot].
  const reviewerLogin = app
    ? `${await (await appOctokit(app, apiUrl)).rest.apps.getAuthenticated().then(
        (r) => r.data?.slug ?? 'app',
        () => 'app',
      )}[bot]`
    : reviewerToken
      ? (await second.rest.users.getAuthenticated()).data.login
      : agentLogin
  const host = new URL(apiUrl).hostname.replace(/^api\./, '')
  const graphqlUrl = graphqlUrlOf(apiUrl)
  const usage = liveUsage(agent)
  return {
    kind: 'live',
    repo: {owner, name, defaultBranch: repository.default_branch},
    agent,
    second,
    logins: {agent: agentLogin, reviewer: reviewerLogin},
    // About ten reads per resource and run: only with GHX_BENCH_VERIFY_FIXTURES=1 (`ghx-bench fixtures status` checks the same digests on demand).
    fixtures: {
      reuseManifest: true,
      verifyResets: () => /^(1|true|yes)$/i.test(process.env.GHX_BENCH_VERIFY_FIXTURES ?? ''),
    },
    checkpoints: {budget_ms: 12_000, interval_ms: 1_000},
    agentAccess(workdir) {
      const configDir = path.join(workdir, '.config', 'gh')
      return Promise.resolve({
        apiUrl,
        graphqlUrl,
        nodeEnv: nodeEnvFor(apiUrl, graphqlUrl),
        token,
        env: {
          GH_TOKEN: token,
          GITHUB_TOKEN: token,
          GH_CONFIG_DIR: configDir,
          ...(host === 'github.com' ? {} : {GH_HOST: host, GH_ENTERPRISE_TOKEN: token}),
          ...GH_QUIET_ENV,
        },
        ...usage.meter(),
        release: () => Promise.resolve(),
      })
    },
    secrets: () => [token, harnessEnv().GHX_BENCH_REVIEWER_TOKEN ?? ''],
    close: async () => {},
  }
}

/** The token's rate-limit usage as GET /rate_limit says it (that request costs nothing): used and reset per resource. */
interface Usage {
  core: {used: number; reset: number}
  graphql: {used: number; reset: number}
}

/**
 * The agent's API cost on live GitHub. Its tools talk to GitHub directly, with nothing of ours in
 * between, so the only view is the token's own usage (GET /rate_limit) before and after the agent:
 * the difference is the agent's REST requests (core) and GraphQL points (graphql) when nothing else
 * spent with the token meanwhile. A run that overlapped another's metering, or whose window reset
 * meanwhile, records null: not a figure that holds another's requests. Secondary-limit waits and the
 * number of GraphQL calls are not visible from here (null).
 */
function liveUsage(client: GithubClient): {meter(): {startCounting(): Promise<void>; counts(): Promise<AccessCounts>}} {
  const read = async (): Promise<Usage | undefined> => {
    try {
      const {resources} = (await client.rest.rateLimit.get()).data
      const of = (r: {used: number; reset: number} | undefined) => ({used: r?.used ?? Number.NaN, reset: r?.reset ?? 0})
      return {core: of(resources.core), graphql: of(resources.graphql)}
    } catch {
      return undefined
    }
  }
  // Meters counting now: one that starts while another counts spoils both.
  let metering = 0
  const open = new Set<{overlapped: boolean}>()
  return {
    meter() {
      const own = {overlapped: false}
      let before: Usage | undefined
      return {
        async startCounting() {
          before = await read()
          if (metering > 0) {
            own.overlapped = true
            for (const other of open) other.overlapped = true
          }
          metering++
          open.add(own)
        },
        async counts() {
          const after = before ? await read() : undefined
          if (open.delete(own)) metering--
          const delta = (resource: 'core' | 'graphql') =>
            before && after && !own.overlapped && before[resource].reset === after[resource].reset
              ? after[resource].used - before[resource].used
              : Number.NaN
          const rest = delta('core')
          const points = delta('graphql')
          const known = (value: number) => (Number.isFinite(value) && value >= 0 ? value : null)
          const api =
            known(rest) === null && known(points) === null
              ? null
              : {
                  source: 'live_rate_limit' as const,
                  rest_requests: known(rest),
                  graphql_requests: null,
                  graphql_points: known(points),
                  secondary_limit_waits: null,
                  retry_after_s: null,
                }
          return {apiCalls: null, api, injectedFaults: 0}
        },
      }
    },
  }
}
