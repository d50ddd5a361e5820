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
import {executeGraphql} from '../graphql.js'
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

/**
 * GitHub's rate-limit headers: a token's requests counted per resource (core, graphql) in its window, which
 * starts with the window's first request. `exceeded` when a configured limit is spent (GitHub then answers 403).
 */
function rateLimit(
  used: Map<string, {count: number; resetAt: number}>,
  token: string,
  resource: string,
  config: RateLimitConfig | undefined,
): {headers: Record<string, string>; exceeded: boolean} {
  const {limit, window_ms: windowMs} = config ?? UNLIMITED
  const now = Date.now()
  const key = `${token}:${resource}`
  const window = used.get(key)
  const current = window && window.resetAt > now ? window : {count: 0, resetAt: now + windowMs}
  current.count++
  used.set(key, current)
  return {
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - current.count)),
      'x-ratelimit-reset': String(Math.ceil(current.resetAt / 1000)),
      'x-ratelimit-used': String(Math.min(current.count, limit)),
      'x-ratelimit-resource': resource,
      'x-oauth-scopes': SCOPES,
      'x-accepted-oauth-scopes': '',
    },
    exceeded: config !== undefined && current.count > limit,
  }
}

/** The sandbox's answer to a request and its body. */
export function requestHandler(parts: HandlerParts): (req: http.IncomingMessage, raw: string) => Promise<Reply> {
  const {store, faults, requests} = parts
  const used = new Map<string, {count: number; resetAt: number}>()
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
    const {headers: rate, exceeded} = rateLimit(used, auth![1]!, resource, parts.rateLimit)
    if (exceeded)
      return {
        status: 403,
        headers: rate,
        body: {message: `API rate limit exceeded for user ${login}.`, documentation_url: DOCS},
      }
    const fault = faults.decide(operation, auth![1])
    if (fault.delay_ms > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay_ms))
    if (fault.status) {
      return {
        status: fault.status,
        headers: {...rate, ...fault.headers},
        body: {message: fault.message, documentation_url: DOCS},
      }
    }

    let body: Record<string, unknown> = {}
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        return {status: 400, headers: rate, body: {message: 'Problems parsing JSON', documentation_url: DOCS}}
      }
    }
    if (isGraphql) {
      // Resolvers run synchronously inside executeGraphql's first step: the changes they make are the viewer's.
      const result = await store.as(login, () => executeGraphql(store, login, links, body))
      return {status: result.status, headers: rate, body: result.body}
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
