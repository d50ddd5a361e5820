/**
 * The sandbox's HTTP server on 127.0.0.1: REST v3 under / and /api/v3, GraphQL v4 at /graphql and
 * /api/graphql, GitHub's auth errors and headers, Link pagination, absolute-form requests (so `gh`
 * can use it as its HTTP proxy for api.github.localhost), and faults on demand.
 */
import {createVerify, randomBytes} from 'node:crypto'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {AGENT_LOGIN, createFixtureRepo, DEFAULT_REPO, GH_QUIET_ENV, REVIEWER_LOGIN} from './defaults.js'
import {SandboxError} from './errors.js'
import {Faults, type FaultConfig} from './faults.js'
import {executeGraphql} from './graphql.js'
import {restRouter, type RestResult} from './rest.js'
import {githubOperations} from './router.js'
import {Serializer, type Links} from './serialize.js'
import type {SandboxState} from './state.js'
import {Store, type WorkflowTiming} from './store.js'

export interface SandboxOptions {
  port?: number
  /** Repositories to create, laid out as the fixture repository (default: ghx-bench/sandbox). */
  repos?: string[]
  /** Start from saved state instead of fresh repositories. */
  state?: SandboxState
  timing?: WorkflowTiming
  faults?: FaultConfig
  /** Tokens to accept; generated when absent. */
  token?: string
  reviewerToken?: string
  /**
   * A GitHub App whose installation acts as the second identity (as on live GitHub, where fixtures
   * use an App for the reviewer): JWTs signed with the private key of `publicKey` are accepted for
   * /app routes, and installation tokens it mints act as ghx-bench-reviewer.
   */
  app?: {id: number; publicKey: string}
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
  readonly requests: {total: number; byOperation: Map<string, number>; byToken: Map<string, number>}
  /** The environment that points `gh` at this sandbox. */
  ghEnv(configDir: string, token?: string): Record<string, string>
  close(): Promise<void>
}

const DOCS = 'https://docs.github.com/rest'
const SCOPES = 'repo, read:org, workflow, project'
const JSON_TYPE = 'application/json; charset=utf-8'

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const store = new Store(options.state, {timing: options.timing})
  // Restored state keeps its tokens, so clients configured against a saved sandbox keep working.
  const savedToken = (login: string) => Object.entries(options.state?.tokens ?? {}).find(([, who]) => who === login)?.[0]
  const token = options.token ?? savedToken(AGENT_LOGIN) ?? `ghs_${randomBytes(18).toString('hex')}`
  const reviewerToken = options.reviewerToken ?? savedToken(REVIEWER_LOGIN) ?? `ghs_${randomBytes(18).toString('hex')}`
  store.addToken(token, AGENT_LOGIN)
  store.addToken(reviewerToken, REVIEWER_LOGIN)
  if (!options.state) for (const repo of options.repos ?? [DEFAULT_REPO]) createFixtureRepo(store, repo)
  const faults = new Faults()
  faults.configure(options.faults)
  const requests = {total: 0, byOperation: new Map<string, number>(), byToken: new Map<string, number>()}
  const used = new Map<string, number>()
  /** Logs and archives, served once from their own URL after a 302, as GitHub's blob storage does. */
  const downloads = new Map<string, {content: string | Buffer; contentType: string}>()

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8')).then(
        (reply) => send(res, reply),
        (error: unknown) => send(res, {status: 500, body: {message: `sandbox error: ${(error as Error).message}`, documentation_url: DOCS}}),
      )
    })
  })

  interface Reply {
    status: number
    body?: unknown
    text?: string | Buffer
    contentType?: string
    headers?: Record<string, string>
  }

  // Unique per request as GitHub's are; a counter under a random prefix costs nothing per request.
  const requestIdPrefix = randomBytes(4).toString('hex').toUpperCase()
  let requestCount = 0

  function send(res: http.ServerResponse, reply: Reply): void {
    const headers: Record<string, string> = {
      'x-github-request-id': `${requestIdPrefix}:${(++requestCount).toString(16).toUpperCase().padStart(8, '0')}`,
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      ...reply.headers,
    }
    if (reply.text !== undefined) {
      res.writeHead(reply.status, {...headers, 'content-type': reply.contentType ?? 'text/plain; charset=utf-8'})
      res.end(reply.text)
    } else if (reply.body === undefined) {
      res.writeHead(reply.status, headers)
      res.end()
    } else {
      res.writeHead(reply.status, {...headers, 'content-type': JSON_TYPE})
      res.end(JSON.stringify(reply.body))
    }
  }

  async function handle(req: http.IncomingMessage, raw: string): Promise<Reply> {
    requests.total++
    // Absolute-form targets come from clients that use the sandbox as their proxy (gh).
    const target = new URL(req.url ?? '/', req.url?.startsWith('http') ? undefined : `http://${req.headers.host ?? '127.0.0.1'}`)
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
    if (auth && options.app && auth[1]!.split('.').length === 3) return appRequest(method, path, auth[1]!)
    const login = auth ? store.loginForToken(auth[1]!) : undefined
    if (!login) {
      const message = auth ? 'Bad credentials' : 'Requires authentication'
      return {status: 401, body: {message, documentation_url: DOCS, status: '401'}}
    }
    const resource = isGraphql ? 'graphql' : 'core'
    const count = (used.get(`${auth![1]}:${resource}`) ?? 0) + 1
    used.set(`${auth![1]}:${resource}`, count)
    const rate = {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(Math.max(0, 5000 - count)),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-used': String(count),
      'x-ratelimit-resource': resource,
      'x-oauth-scopes': SCOPES,
      'x-accepted-oauth-scopes': '',
    }
    const fault = faults.decide(operation, auth![1])
    if (fault.delay_ms > 0) await new Promise((resolve) => setTimeout(resolve, fault.delay_ms))
    if (fault.status) {
      return {status: fault.status, headers: {...rate, ...fault.headers}, body: {message: fault.message, documentation_url: DOCS}}
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
      if (known.length) return {status: 501, headers: rate, body: {message: `ghx-bench sandbox does not model ${known[0]} (${method} ${path})`, documentation_url: DOCS}}
      return {status: 404, headers: rate, body: {message: 'Not Found', documentation_url: DOCS, status: '404'}}
    }
    try {
      const result = store.as(login, () => route.value.handler({
        store,
        ser: new Serializer(store, links),
        params: route.params,
        query: target.searchParams,
        body,
        viewer: login,
        accept: req.headers.accept ?? '',
      }))
      const reply = toReply(result, target)
      return {...reply, headers: {...rate, ...reply.headers}}
    } catch (error) {
      if (error instanceof SandboxError) {
        return {status: error.status, headers: rate, body: {message: error.message, documentation_url: DOCS, ...(error.errors ? {errors: error.errors} : {}), status: String(error.status)}}
      }
      throw error
    }
  }

  /** Requests authenticated as the App itself (a JWT): its installation and installation tokens. */
  function appRequest(method: string, path: string, jwt: string): Reply {
    const app = options.app!
    const [header, payload, signature] = jwt.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {iss?: unknown; exp?: number}
    const valid = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(app.publicKey, Buffer.from(signature, 'base64url'))
    if (!valid || String(claims.iss) !== String(app.id) || (claims.exp ?? 0) * 1000 < Date.now()) {
      return {status: 401, body: {message: 'A JSON web token could not be decoded', documentation_url: DOCS}}
    }
    const installation = {
      id: app.id * 10,
      app_id: app.id,
      app_slug: 'ghx-bench-fixtures',
      target_id: 1,
      target_type: 'Organization',
      single_file_name: null,
      repository_selection: 'all',
      access_tokens_url: `${url}/app/installations/${app.id * 10}/access_tokens`,
      html_url: 'http://github.localhost/settings/installations/1',
      repositories_url: `${url}/installation/repositories`,
      events: [],
      account: {login: 'ghx-bench', id: store.user('ghx-bench').id, type: 'Organization'},
      permissions: {issues: 'write', pull_requests: 'write', contents: 'write'},
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      suspended_by: null,
      suspended_at: null,
    }
    if (method === 'GET' && path === '/app') return {status: 200, body: {id: app.id, slug: installation.app_slug, name: 'ghx-bench fixtures', owner: installation.account, permissions: installation.permissions, events: []}}
    if (method === 'GET' && path === '/app/installations') return {status: 200, body: [installation]}
    if (method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/installation$/.test(path)) return {status: 200, body: installation}
    if (method === 'POST' && path === `/app/installations/${installation.id}/access_tokens`) {
      const minted = `ghs_${randomBytes(18).toString('hex')}`
      store.addToken(minted, REVIEWER_LOGIN)
      return {status: 201, body: {token: minted, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: installation.permissions, repository_selection: 'all'}}
    }
    return {status: 403, body: {message: 'A JSON web token can only access /app routes', documentation_url: DOCS}}
  }

  /** Lists are paginated with per_page/page and a Link header, as GitHub does. */
  function toReply(result: RestResult, target: URL): Reply {
    if (result.download) {
      const key = randomBytes(12).toString('hex')
      downloads.set(key, result.download)
      return {status: 302, headers: {location: `${target.origin}/_downloads/${key}`}}
    }
    if (result.text !== undefined) return {status: result.status ?? 200, text: result.text, contentType: result.contentType}
    if (!result.list) return {status: result.status ?? 200, body: result.body}
    const perPage = Math.min(100, Math.max(1, Number(target.searchParams.get('per_page') ?? 30) || 30))
    const page = Math.max(1, Number(target.searchParams.get('page') ?? 1) || 1)
    const last = Math.max(1, Math.ceil(result.list.length / perPage))
    const items = result.list.slice((page - 1) * perPage, page * perPage)
    const link = (p: number, rel: string) => {
      const url = new URL(target)
      url.searchParams.set('per_page', String(perPage))
      url.searchParams.set('page', String(p))
      return `<${url.toString()}>; rel="${rel}"`
    }
    const rels = [
      ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ]
    const body = result.wrap ? {total_count: result.list.length, ...result.wrap.extra, [result.wrap.key]: items} : items
    return {status: result.status ?? 200, body, headers: rels.length ? {link: rels.join(', ')} : {}}
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  server.keepAliveTimeout = 5000
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    port,
    token,
    reviewerToken,
    store,
    faults,
    requests,
    ghEnv(configDir: string, as = token) {
      return {
        GH_HOST: 'github.localhost',
        GH_TOKEN: as,
        // gh sends absolute-form requests for api.github.localhost to its proxy: this server.
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        // Not "localhost": Go matches NO_PROXY as a suffix and would bypass the proxy for api.github.localhost.
        NO_PROXY: '127.0.0.1',
        GH_CONFIG_DIR: configDir,
        ...GH_QUIET_ENV,
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
