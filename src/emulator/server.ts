/**
 * The sandbox: the store (with its tokens and fixture repositories), faults, and the HTTP server on
 * 127.0.0.1 that answers from them (http/handler.ts: REST v3 under / and /api/v3, GraphQL v4 at
 * /graphql and /api/graphql, GitHub's auth errors and headers, Link pagination, absolute-form
 * requests so that `gh` can use it as its HTTP proxy for api.github.localhost, faults on demand;
 * http/git-http.ts: git's smart HTTP protocol for clones, fetches and pushes).
 */
import {randomBytes} from 'node:crypto'
import {mkdirSync, writeFileSync} from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import type {SandboxState} from './core/state.js'
import type {WorkflowTiming} from './core/store-core.js'
import {AGENT_LOGIN, createFixtureRepo, DEFAULT_REPO, GH_QUIET_ENV, REVIEWER_LOGIN} from './defaults.js'
import {Faults, type FaultConfig} from './faults.js'
import type {SandboxApp} from './http/app-auth.js'
import {gitTransport, isGitRequest} from './http/git-http.js'
import type {BareReposBase} from './repos/git-mirror.js'
import type {PushLimits} from './repos/git-push.js'
import {
  requestHandler,
  requestListener,
  type RateLimitConfig,
  type RequestCounts,
  type TokenCost,
} from './http/handler.js'
import {replyWriter} from './http/reply.js'
import {Store} from './store.js'

export interface SandboxOptions {
  port?: number
  /** Repositories to create, laid out as the fixture repository (default: ghx-bench/sandbox). */
  repos?: string[]
  /** Start from saved state instead of fresh repositories. */
  state?: SandboxState
  timing?: WorkflowTiming
  /** The store's clock (default: the time of day). */
  now?: () => number
  faults?: FaultConfig
  /** Tokens to accept; generated when absent. */
  token?: string
  reviewerToken?: string
  /**
   * A GitHub App whose installation acts as the second identity (as on live GitHub, where fixtures
   * use an App for the reviewer): JWTs signed with the private key of `publicKey` are accepted for
   * /app routes, and installation tokens it mints act as ghx-bench-reviewer.
   */
  app?: SandboxApp
  /** A primary rate limit per token and resource, enforced as GitHub does (403 once spent); absent: never limits. */
  rateLimit?: RateLimitConfig
  /** A copy's git repositories borrow their objects from its base's (Sandbox.fork). */
  gitBase?: BareReposBase
  /** Limits on pushes and git requests lower than GitHub's (tests: a large file without writing 100 MB). */
  pushLimits?: Partial<PushLimits>
}

export interface Sandbox {
  /** The REST base URL (http://127.0.0.1:PORT); GraphQL is at url + /graphql. */
  url: string
  port: number
  /** The agent's token (login ghx-bench-agent). */
  token: string
  /** A second identity's token (login ghx-bench-reviewer), for reviews and comments by someone else. */
  reviewerToken: string
  store: Store
  faults: Faults
  /** Requests served, per operation and per token: a run with its own token counts its agent's calls exactly. */
  readonly requests: RequestCounts
  /** The environment that points `gh` at this sandbox. */
  ghEnv(configDir: string, token?: string): Record<string, string>
  /**
   * A copy of this sandbox as it is now, on a port of its own: its own state (tokens included), git
   * repositories (sharing this one's objects), request counts and faults. Its clock starts at `startsAt`
   * (default: now) and runs from there. Close it before this one.
   */
  fork(options?: {faults?: FaultConfig; startsAt?: number}): Promise<Sandbox>
  close(): Promise<void>
}

/** The store, with the two identities' tokens and (for a fresh state) the fixture repositories. */
function openStore(options: SandboxOptions): {store: Store; token: string; reviewerToken: string} {
  const store = new Store(options.state, {timing: options.timing, now: options.now})
  // Restored state keeps its tokens, so clients configured against a saved sandbox keep working.
  const savedToken = (login: string) =>
    Object.entries(options.state?.tokens ?? {}).find(([, who]) => who === login)?.[0]
  const token = options.token ?? savedToken(AGENT_LOGIN) ?? `ghs_${randomBytes(18).toString('hex')}`
  const reviewerToken = options.reviewerToken ?? savedToken(REVIEWER_LOGIN) ?? `ghs_${randomBytes(18).toString('hex')}`
  store.addToken(token, AGENT_LOGIN)
  store.addToken(reviewerToken, REVIEWER_LOGIN)
  if (!options.state) for (const repo of options.repos ?? [DEFAULT_REPO]) createFixtureRepo(store, repo)
  return {store, token, reviewerToken}
}

/**
 * Git's configuration for the sandbox, in the environment (no file, whatever HOME is): gh's clone URLs
 * (https://github.localhost/…) go over plain HTTP to the sandbox as git's proxy, with `token` as the
 * password, and commits are made as `login`.
 */
function gitConfig(url: string, token: string, login: string): Record<string, string> {
  const entries: Array<[string, string]> = [
    ['url.http://github.localhost/.insteadOf', 'https://github.localhost/'],
    ['http.http://github.localhost/.proxy', url],
    // A helper that answers with the run's token only (git runs it through sh).
    [
      'credential.http://github.localhost.helper',
      `!f() { test "$1" = get && echo username=x-access-token && echo password=${token}; }; f`,
    ],
    ['user.name', login],
    ['user.email', `${login}@users.noreply.github.localhost`],
  ]
  return {
    GIT_CONFIG_COUNT: String(entries.length),
    ...Object.fromEntries(
      entries.flatMap(([key, value], i) => [
        [`GIT_CONFIG_KEY_${i}`, key],
        [`GIT_CONFIG_VALUE_${i}`, value],
      ]),
    ),
  }
}

/**
 * gh's login for the sandbox host, in its config (GH_CONFIG_DIR/hosts.yml) rather than in GH_TOKEN: gh
 * takes a GH_TOKEN or GITHUB_TOKEN for github.com too, and `gh auth status` then checks github.com over
 * TLS, which the sandbox cannot answer (it fails). From the config, github.localhost is the only host.
 */
function writeGhHosts(configDir: string, token: string, login: string): void {
  mkdirSync(configDir, {recursive: true})
  writeFileSync(
    path.join(configDir, 'hosts.yml'),
    `github.localhost:\n    oauth_token: ${token}\n    user: ${login}\n    git_protocol: https\n`,
    {mode: 0o600},
  )
}

/**
 * The environment that points `gh` (and git) at the sandbox at `url`, as the user of `token` (written
 * into gh's config at `configDir`). GH_TOKEN and GITHUB_TOKEN are set empty, which gh reads as unset:
 * a token the caller's environment holds (live GitHub's) does not override the sandbox's.
 */
function ghEnvironment(url: string, configDir: string, token: string, login: string): Record<string, string> {
  writeGhHosts(configDir, token, login)
  return {
    ...gitConfig(url, token, login),
    GH_HOST: 'github.localhost',
    GH_TOKEN: '',
    GITHUB_TOKEN: '',
    // gh sends absolute-form requests for api.github.localhost to its proxy: this server.
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    // Not "localhost": Go matches NO_PROXY as a suffix and would bypass the proxy for api.github.localhost.
    NO_PROXY: '127.0.0.1',
    GH_CONFIG_DIR: configDir,
    ...GH_QUIET_ENV,
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const {store, token, reviewerToken} = openStore(options)
  const faults = new Faults()
  faults.configure(options.faults)
  const requests: RequestCounts = {
    total: 0,
    byOperation: new Map<string, number>(),
    byToken: new Map<string, number>(),
    costByToken: new Map<string, TokenCost>(),
  }
  // The handler needs the server's URL (an App installation's links), known once it listens.
  let url = ''
  const handle = requestHandler({
    store,
    faults,
    requests,
    app: options.app,
    url: () => url,
    rateLimit: options.rateLimit,
  })
  const api = requestListener(handle, replyWriter())
  const git = gitTransport(store, options.gitBase, options.pushLimits)
  const server = http.createServer((req, res) => (isGitRequest(req) ? git.handle(req, res) : api(req, res)))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  server.keepAliveTimeout = 5000
  const port = (server.address() as AddressInfo).port
  url = `http://127.0.0.1:${port}`
  return {
    url,
    port,
    token,
    reviewerToken,
    store,
    faults,
    requests,
    ghEnv: (configDir: string, as = token) => ghEnvironment(url, configDir, as, store.loginForToken(as) ?? AGENT_LOGIN),
    fork({faults: forkFaults, startsAt} = {}) {
      const forkedAt = Date.now()
      return startSandbox({
        state: structuredClone(store.state),
        token,
        reviewerToken,
        timing: store.timing,
        now: startsAt === undefined ? undefined : () => startsAt + (Date.now() - forkedAt),
        faults: forkFaults,
        app: options.app,
        rateLimit: options.rateLimit,
        gitBase: git.asBase(),
        pushLimits: options.pushLimits,
      })
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
      await git.close()
    },
  }
}
