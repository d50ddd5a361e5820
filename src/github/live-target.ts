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
import {liveUsage} from './live-usage.js'
import {RateBudget} from './rate-budget.js'
import type {AgentAccess, GitHubTarget, TargetOptions} from './target.js'

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
  // A budget per token: the agent's (which its runs spend too) and the second identity's, when it has its own.
  const budget = (identity: string) => new RateBudget(identity, config.values.github.rate_budget)
  const agentBudget = budget('the agent token')
  const agent = createClient({baseUrl: apiUrl, token, budget: agentBudget}).octokit
  const [owner, name] = full.split('/') as [string, string]
  const {data: repository} = await agent.rest.repos.get({owner, repo: name})
  const agentLogin = (await agent.rest.users.getAuthenticated()).data.login
  const {second, secondBudget, reviewerLogin} = await secondIdentity(env, {owner, repo: name}, apiUrl, budget, {
    agent,
    agentLogin,
  })
  const host = new URL(apiUrl).hostname.replace(/^api\./, '')
  const graphqlUrl = graphqlUrlOf(apiUrl)
  const usage = liveUsage(agent)
  const agentAccess = (workdir: string): AgentAccess => {
    const configDir = path.join(workdir, '.config', 'gh')
    return {
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
    }
  }
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
    rateBudgets: secondBudget ? [agentBudget, secondBudget] : [agentBudget],
    agentAccess: (workdir) => Promise.resolve(agentAccess(workdir)),
    // One repository for every run: the run's fixtures are reset before it (src/runner/run-fixtures.ts).
    openRun(workdir) {
      const access = agentAccess(workdir)
      return Promise.resolve({access, agent, second, startsAsSeeded: false, release: () => access.release()})
    },
    secrets: () => [token, harnessEnv().GHX_BENCH_REVIEWER_TOKEN ?? ''],
    close: async () => {},
  }
}

/** The second identity: a GitHub App's installation, else GHX_BENCH_REVIEWER_TOKEN's user, else the agent again. */
async function secondIdentity(
  env: NodeJS.ProcessEnv,
  repo: {owner: string; repo: string},
  apiUrl: string,
  budget: (identity: string) => RateBudget,
  {agent, agentLogin}: {agent: GithubClient; agentLogin: string},
): Promise<{second: GithubClient; secondBudget: RateBudget | undefined; reviewerLogin: string}> {
  const reviewerToken = env.GHX_BENCH_REVIEWER_TOKEN
  const app = await appCredentials(env, repo, apiUrl)
  const secondBudget = app ? budget('the GitHub App') : reviewerToken ? budget('the reviewer token') : undefined
  if (app) {
    const second = createClient({baseUrl: apiUrl, app, budget: secondBudget}).octokit
    // An App installation has no user; its comments show as <slug>[bot].
    const slug = await (await appOctokit(app, apiUrl)).rest.apps.getAuthenticated().then(
      (r) => r.data?.slug ?? 'app',
      () => 'app',
    )
    return {second, secondBudget, reviewerLogin: `${slug}[bot]`}
  }
  if (!reviewerToken) return {second: agent, secondBudget, reviewerLogin: agentLogin}
  const second = createClient({baseUrl: apiUrl, token: reviewerToken, budget: secondBudget}).octokit
  return {second, secondBudget, reviewerLogin: (await second.rest.users.getAuthenticated()).data.login}
}
