/**
 * The one Octokit the harness uses for GitHub (live, Enterprise or the sandbox): retries for server
 * errors, secondary-rate-limit handling, and a count of the API calls and rate-limit points a run
 * spent (the row's github_api_calls); on live GitHub, the token's rate budget kept from every response
 * (rate-budget.ts).
 */
import {execFile} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import {promisify} from 'node:util'
import {retry} from '@octokit/plugin-retry'
import {throttling} from '@octokit/plugin-throttling'
import {Octokit} from '@octokit/rest'
import {createAppAuth} from '@octokit/auth-app'
import {harnessEnv, registerSecret} from '../shared/process/secret-env.js'
import {BadInputError} from '../shared/diagnostics.js'
import {HARNESS_VERSION} from '../shared/version.js'
import type {RateBudget} from './rate-budget.js'

const HarnessOctokit = Octokit.plugin(retry, throttling)
/** Retry and throttling add behaviour, not methods: callers see a plain Octokit. */
export type GithubClient = Octokit

interface ApiUsage {
  calls: number
  /** Rate-limit points, from the x-ratelimit-used headers GitHub returns (per resource). */
  points: number
}

export interface AppCredentials {
  appId: number | string
  privateKey: string
  installationId: number
}

export interface ClientOptions {
  baseUrl?: string
  /** A token, or the credentials of a GitHub App installation (installation tokens are minted and refreshed). */
  token?: string
  app?: AppCredentials
  /** Retries of 5xx and rate-limited requests (0 turns retries off). */
  retries?: number
  /** The base of the retry back-off, in ms (GitHub's default, 1000, is right for live use). */
  retryAfterBaseMs?: number
  /**
   * Pace writes and honour rate limits (plugin-throttling spaces writes a second apart, as GitHub's
   * secondary limits ask). Default: on whenever retries are; off for the local sandbox.
   */
  throttle?: boolean
  /** The token's rate budget: every response's rate-limit headers, and the waits its limits cost. */
  budget?: RateBudget
}

export interface CountedClient {
  octokit: GithubClient
  usage: ApiUsage
}

export function createClient(options: ClientOptions): CountedClient {
  const retries = options.retries ?? 3
  const octokit = new HarnessOctokit({
    ...(options.app ? {authStrategy: createAppAuth, auth: options.app} : {auth: options.token}),
    baseUrl: options.baseUrl ?? 'https://api.github.com',
    userAgent: `ghx-bench/${HARNESS_VERSION}`,
    retry: {
      enabled: retries > 0,
      retries,
      retryAfterBaseValue: options.retryAfterBaseMs ?? 1000,
      doNotRetry: [400, 401, 404, 410, 422, 451],
    },
    throttle: {
      enabled: options.throttle ?? retries > 0,
      // A limit waited out (retry-after seconds) is a wait the budget records; one given up on is not.
      onRateLimit: (after: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        waitOut(after, retryCount, false),
      onSecondaryRateLimit: (after: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        waitOut(after, retryCount, true),
    },
    log: {debug() {}, info() {}, warn() {}, error() {}},
  })
  function waitOut(afterSeconds: number, retryCount: number, secondary: boolean): boolean {
    if (retryCount >= retries) return false
    options.budget?.recordWait(afterSeconds * 1000, secondary)
    return true
  }
  const usage: ApiUsage = {calls: 0, points: 0}
  const lastUsed = new Map<string, number>()
  octokit.hook.wrap('request', async (request, requestOptions) => {
    usage.calls++
    try {
      const response = await request(requestOptions)
      countPoints(response.headers as Record<string, string | undefined>)
      return response
    } catch (error) {
      countPoints((error as {response?: {headers?: Record<string, string | undefined>}}).response?.headers ?? {})
      throw error
    }
  })
  // Points are what GitHub says was used: the rise of x-ratelimit-used per resource (at least one a call).
  function countPoints(headers: Record<string, string | undefined>): void {
    options.budget?.observe(headers)
    const resource = headers['x-ratelimit-resource'] ?? 'core'
    const used = Number(headers['x-ratelimit-used'])
    if (!Number.isFinite(used)) {
      usage.points++
      return
    }
    const previous = lastUsed.get(resource)
    usage.points += previous === undefined || used <= previous ? 1 : used - previous
    lastUsed.set(resource, used)
  }
  return {octokit, usage}
}

/** The token for live GitHub: GH_TOKEN, GITHUB_TOKEN, or `gh auth token`. */
export async function resolveToken(env: NodeJS.ProcessEnv = harnessEnv(), host?: string): Promise<string> {
  const fromEnv = env.GH_TOKEN ?? env.GITHUB_TOKEN
  if (fromEnv) return fromEnv
  try {
    const {stdout} = await promisify(execFile)('gh', ['auth', 'token', ...(host ? ['--hostname', host] : [])], {
      env,
      timeout: 10_000,
    })
    if (stdout.trim()) return stdout.trim()
  } catch {
    // reported below
  }
  throw new BadInputError([
    {
      file: '$GH_TOKEN',
      code: 'config',
      message: 'no GitHub token: set GH_TOKEN or GITHUB_TOKEN, or log in with `gh auth login`',
    },
  ])
}

/**
 * The second identity from a GitHub App (GHX_BENCH_APP_ID, GHX_BENCH_APP_PRIVATE_KEY or
 * GHX_BENCH_APP_PRIVATE_KEY_PATH, optional GHX_BENCH_APP_INSTALLATION_ID): its installation acts
 * as the reviewer and commenter, so the agent's own identity can request changes and resolve threads.
 * Undefined when no App is configured.
 */
export async function appCredentials(
  env: NodeJS.ProcessEnv,
  repo: {owner: string; repo: string},
  baseUrl?: string,
): Promise<AppCredentials | undefined> {
  const appId = env.GHX_BENCH_APP_ID
  const privateKey =
    env.GHX_BENCH_APP_PRIVATE_KEY?.replaceAll('\\n', '\n') ??
    (env.GHX_BENCH_APP_PRIVATE_KEY_PATH ? await readFile(env.GHX_BENCH_APP_PRIVATE_KEY_PATH, 'utf8') : undefined)
  if (!appId && !privateKey) return undefined
  // A key read from its file is as secret as one from the environment.
  registerSecret(privateKey)
  if (!appId || !privateKey) {
    throw new BadInputError([
      {
        file: '$GHX_BENCH_APP_ID',
        code: 'config',
        message:
          'a GitHub App needs both GHX_BENCH_APP_ID and GHX_BENCH_APP_PRIVATE_KEY (or GHX_BENCH_APP_PRIVATE_KEY_PATH)',
      },
    ])
  }
  let installationId = Number(env.GHX_BENCH_APP_INSTALLATION_ID)
  if (!Number.isInteger(installationId) || installationId <= 0) {
    installationId = (await (await appOctokit({appId, privateKey}, baseUrl)).rest.apps.getRepoInstallation(repo)).data
      .id
  }
  return {appId, privateKey, installationId}
}

/** An Octokit authenticated as the App itself (a short-lived JWT), for the /app routes. */
export async function appOctokit(
  app: Pick<AppCredentials, 'appId' | 'privateKey'>,
  baseUrl?: string,
): Promise<Octokit> {
  const jwt = (await createAppAuth({appId: app.appId, privateKey: app.privateKey})({type: 'app'})).token
  return new Octokit({
    auth: jwt,
    baseUrl: baseUrl ?? 'https://api.github.com',
    log: {debug() {}, info() {}, warn() {}, error() {}},
  })
}
