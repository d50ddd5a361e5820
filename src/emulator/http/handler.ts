/**
 * The sandbox's request handling: REST v3 under / and /api/v3, GraphQL v4 at /graphql and
 * /api/graphql, absolute-form targets (so `gh` can use the sandbox as its HTTP proxy for
 * api.github.localhost), one-time downloads, GitHub's auth errors and rate-limit headers, faults on
 * demand, and a request answered by its operation's own handler, or 501 naming an operation GitHub
 * has and the sandbox does not model, or GitHub's 404.
 */
import type http from 'node:http'
import {SandboxError} from '../core/errors.js'
import type {Links} from '../core/serializer-core.js'
import type {Faults} from '../faults.js'
import {executeGraphql, type RateWindow} from '../graphql.js'
import {restRouter} from '../rest.js'
import {Serializer} from '../serialize.js'
import type {Store} from '../store.js'
import {appRequest, type SandboxApp} from './app-auth.js'
import {DOCS, toReply, type Downloads, type Reply} from './reply.js'
import {githubOperations} from './router.js'

const SCOPES = 'repo, read:org, workflow, project'

/** Requests served, per operation and per token: a run with its own token counts its agent's calls exactly. */
export interface RequestCounts {
  total: number
  byOperation: Map<string, number>
  byToken: Map<string, number>
  /** What each known token's requests cost against GitHub's rate limits (the run's API cost). */
  costByToken: Map<string, TokenCost>
}

/** A token's rate-limit spending, as GitHub counts it: REST requests (resource core) and GraphQL points. */
export interface TokenCost {
  rest_requests: number
  graphql_requests: number
  graphql_points: number
  /** Answers that told the client to wait (a secondary rate limit or a 429, with retry-after). */
  secondary_limit_waits: number
  /** The seconds those answers asked the client to wait, summed. */
  retry_after_s: number
}

/** What the handler answers from: the state, faults, the counts it keeps, the App, and the server's own URL once it listens. */
export interface HandlerParts {
  store: Store
  faults: Faults
  requests: RequestCounts
  app?: SandboxApp
  url: () => string
  /** A primary rate limit to enforce (live GitHub's, scaled down for tests); absent: headers only. */
  rateLimit?: RateLimitConfig
}

/** A primary rate limit as GitHub keeps it: `limit` points per token and resource in a window of `window_ms`. */
export interface RateLimitConfig {
  limit: number
  window_ms: number
}

/** Without a configured limit: GitHub's 5,000 an hour, never enforced. */
const UNLIMITED: RateLimitConfig = {limit: 5000, window_ms: 3_600_000}

/** A token's window on one resource (core, graphql): what it spent since the window began, and when it resets. */
interface Spent {
  used: number
  resetAt: number
}

export function emptyTokenCost(): TokenCost {
  return {rest_requests: 0, graphql_requests: 0, graphql_points: 0, secondary_limit_waits: 0, retry_after_s: 0}
}

/**
 * GitHub's rate limits for a token: the run's cost (all it spent) and its window per resource, which starts
 * with the window's first request. `exhausted` when a configured limit is spent (GitHub then answers 403).
 */
function rateMeter(tokenCost: TokenCost, config: RateLimitConfig | undefined) {
  const {limit, window_ms: windowMs} = config ?? UNLIMITED
  const windows = new Map<string, Spent>()
  const windowOf = (resource: string): Spent => {
    const now = Date.now()
    const current = windows.get(resource)
    if (current && current.resetAt > now) return current
    const fresh = {used: 0, resetAt: now + windowMs}
    windows.set(resource, fresh)
    return fresh
  }
  const state = (resource: string, cost: number): RateWindow => {
    const window = windowOf(resource)
    const used = Math.min(window.used, limit)
    return {limit, used, remaining: limit - used, reset: Math.ceil(window.resetAt / 1000), cost}
  }
  return {
    /** The window as it stands when a configured limit is spent; null while requests may go on. */
    exhausted: (resource: string): RateWindow | null =>
      config !== undefined && windowOf(resource).used >= limit ? state(resource, 0) : null,
    /** Charges a request to its resource (a REST request 1, a GraphQL call its points) and says the window after it. */
    charge: (resource: 'core' | 'graphql', amount: number): RateWindow => {
      if (resource === 'core') tokenCost.rest_requests += amount
      else {
        tokenCost.graphql_requests++
        tokenCost.graphql_points += amount
      }
      windowOf(resource).used += amount
      return state(resource, amount)
    },
  }
}

/** GitHub's rate-limit headers for a window. */
function rateHeaders(window: RateWindow, resource: string): Record<string, string> {
  return {
    'x-ratelimit-limit': String(window.limit),
    'x-ratelimit-remaining': String(window.remaining),
    'x-ratelimit-reset': String(window.reset),
    'x-ratelimit-used': String(window.used),
    'x-ratelimit-resource': resource,
    'x-oauth-scopes': SCOPES,
    'x-accepted-oauth-scopes': '',
  }
}

/** The sandbox's answer to a request and its body. */
export function requestHandler(parts: HandlerParts): (req: http.IncomingMessage, raw: string) => Promise<Reply> {
  const {store, faults, requests} = parts
  const meters = new Map<string, ReturnType<typeof rateMeter>>()
  const downloads: Downloads = new Map()

  return async function handle(req: http.IncomingMessage, raw: string): Promise<Reply> {
    requests.total++
    // Absolute-form targets come from clients that use the sandbox as their proxy (gh).
    const target = new URL(
      req.url ?? '/',
      req.url?.startsWith('http') ? undefined : `http://${req.headers.host ?? '127.0.0.1'}`,
    )
    const enterprise = target.pathname.startsWith('/api/v3') || target.pathname === '/api/graphql'
    let path = target.pathname.replace(/^\/api\/v3(?=\/|$)/, '').replace(/^\/api\/graphql$/, '/graphql') || '/'
    if (path.length > 1) path = path.replace(/\/$/, '')
    const links: Links = {api: target.origin + (enterprise ? '/api/v3' : ''), html: 'http://github.localhost'}
    const method = req.method ?? 'GET'
    const download = path.startsWith('/_downloads/') ? downloads.get(path.slice('/_downloads/'.length)) : undefined
    if (download) {
      downloads.delete(path.slice('/_downloads/'.length))
      return {status: 200, text: download.content, contentType: download.contentType}
    }
    const isGraphql = path === '/graphql' && method === 'POST'
    const known = isGraphql ? [] : githubOperations(method, path)
    const matched = isGraphql ? undefined : restRouter().match(method, path)
    // Only an operation's own handler answers it: a modelled template must not take a request GitHub
    // routes to another operation (commits/{ref} is not the commit "SHA/pulls", issues/{issue_number}
    // not the list issues/comments); such a request is that other operation's, 501 when not modelled.
    const route = matched && (known.length === 0 || known.includes(matched.value.operationId)) ? matched : undefined
    const operation = isGraphql ? 'graphql' : (route?.value.operationId ?? known[0] ?? 'unknown')
    requests.byOperation.set(operation, (requests.byOperation.get(operation) ?? 0) + 1)

    const auth = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (auth) requests.byToken.set(auth[1]!, (requests.byToken.get(auth[1]!) ?? 0) + 1)
    if (auth && parts.app && auth[1]!.split('.').length === 3)
      return appRequest(parts.app, store, parts.url(), method, path, auth[1]!)
    const login = auth ? store.loginForToken(auth[1]!) : undefined
    if (!login) {
      const message = auth ? 'Bad credentials' : 'Requires authentication'
      return {status: 401, body: {message, documentation_url: DOCS, status: '401'}}
    }
    const resource = isGraphql ? 'graphql' : 'core'
    const token = auth![1]!
    let cost = requests.costByToken.get(token)
    if (!cost) requests.costByToken.set(token, (cost = emptyTokenCost()))
    let meter = meters.get(token)
    if (!meter) meters.set(token, (meter = rateMeter(cost, parts.rateLimit)))
    const {charge} = meter
    const spent = meter.exhausted(resource)
    if (spent)
      return {
        status: 403,
        headers: rateHeaders(spent, resource),
        body: {message: `API rate limit exceeded for user ${login}.`, documentation_url: DOCS},
      }
    const fault = faults.decide(operation, token)
    if (fault.delay_ms > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay_ms))
    if (fault.status) {
      const wait = Number(fault.headers?.['retry-after'])
      if (Number.isFinite(wait)) {
        cost.secondary_limit_waits++
        cost.retry_after_s += wait
      }
      // A refused call is charged the minimum: one request, or one point.
      return {
        status: fault.status,
        headers: {...rateHeaders(charge(resource, 1), resource), ...fault.headers},
        body: {message: fault.message, documentation_url: DOCS},
      }
    }
    // GraphQL is charged its points once its query is read (below); REST a request now.
    const rate = isGraphql ? {} : rateHeaders(charge('core', 1), 'core')

    let body: Record<string, unknown> = {}
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        const headers = isGraphql ? rateHeaders(charge('graphql', 1), 'graphql') : rate
        return {status: 400, headers, body: {message: 'Problems parsing JSON', documentation_url: DOCS}}
      }
    }
    if (isGraphql) {
      // Resolvers run synchronously inside executeGraphql's first step: the changes they make are the viewer's.
      const result = await store.as(login, () =>
        executeGraphql(store, login, links, body, (points) => charge('graphql', points)),
      )
      return {status: result.status, headers: rateHeaders(result.rate, 'graphql'), body: result.body}
    }
    if (!route) {
      if (known.length)
        return {
          status: 501,
          headers: rate,
          body: {message: `ghx-bench sandbox does not model ${known[0]} (${method} ${path})`, documentation_url: DOCS},
        }
      return {status: 404, headers: rate, body: {message: 'Not Found', documentation_url: DOCS, status: '404'}}
    }
    try {
      const result = store.as(login, () =>
        route.value.handler({
          store,
          ser: new Serializer(store, links),
          params: route.params,
          query: target.searchParams,
          body,
          viewer: login,
          accept: req.headers.accept ?? '',
        }),
      )
      const reply = toReply(result, target, downloads)
      return {...reply, headers: {...rate, ...reply.headers}}
    } catch (error) {
      if (error instanceof SandboxError) {
        return {
          status: error.status,
          headers: rate,
          body: {
            message: error.message,
            documentation_url: DOCS,
            ...(error.errors ? {errors: error.errors} : {}),
            status: String(error.status),
          },
        }
      }
      throw error
    }
  }
}

/** Reads a request's body, then writes the handler's reply (a 500 naming the error if it throws). */
export function requestListener(
  handle: (req: http.IncomingMessage, raw: string) => Promise<Reply>,
  send: (res: http.ServerResponse, reply: Reply) => void,
): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8')).then(
        (reply) => send(res, reply),
        (error: unknown) =>
          send(res, {
            status: 500,
            body: {message: `sandbox error: ${(error as Error).message}`, documentation_url: DOCS},
          }),
      )
    })
  }
}
