/**
 * Git's smart HTTP protocol on the sandbox (`git clone`, `fetch`, `push`; `gh repo clone`, `gh pr
 * checkout`): `GET /<owner>/<repo>(.git)/info/refs?service=…`, `POST …/git-upload-pack` and
 * `POST …/git-receive-pack`, for any host (git reaches the sandbox as its proxy for github.localhost,
 * or directly). Each request is served by git's own `git http-backend` (CGI, a process a request) over
 * the bare repositories kept in step with the store (repos/git-mirror.ts); a push is taken into the
 * store by the repositories' pre-receive hook, which calls back here (repos/git-push.ts), so a push
 * the store cannot take is refused before any ref moves.
 *
 * Auth as GitHub's: anyone may fetch a public repository; a push, or a fetch of a private one, needs
 * Basic credentials whose password is a sandbox token (any user name): 401 with `WWW-Authenticate`
 * without them, 401 for a token the sandbox does not know.
 *
 * A push is streamed to git, never held whole, and nothing here waits on git synchronously: the
 * sandbox answers other requests while one is in flight. Each backend runs in a process group of its
 * own, ended whole when its client goes, when it outlasts the request time limit (PushLimits), or when
 * the sandbox closes.
 */
import {execFile, spawn, type ChildProcess} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import type http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import {promisify} from 'node:util'
import type {Repo} from '../core/state.js'
import {BareRepos, gitEnvironment, type BareReposBase} from '../repos/git-mirror.js'
import {GITHUB_PUSH_LIMITS, parseRefUpdates, receivePush, type PushAnswer, type PushLimits} from '../repos/git-push.js'
import type {Store} from '../store.js'

const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/

/** The request's path (absolute-form targets come from clients that use the sandbox as their proxy). */
function requestPath(req: http.IncomingMessage): URL {
  return new URL(req.url ?? '/', req.url?.startsWith('http') ? undefined : 'http://127.0.0.1')
}

/** Whether a request is git's (its paths are no REST route's). */
export function isGitRequest(req: http.IncomingMessage): boolean {
  // A path git's pattern matches ends in "refs" or "pack", which a URL's parsing does not make of other
  // text (it leaves percent-escapes, and drops tabs and newlines): a target without them is parsed no further.
  if (!/refs|pack|[\t\n\r]/.test(req.url ?? '/')) return false
  return GIT_PATH.test(requestPath(req).pathname)
}

/**
 * The pre-receive hook (bash, for its /dev/tcp: a hook a push, so no interpreter to start): hands the
 * sandbox at the port the environment names the push's id, the quarantined objects' folders and the
 * ref updates (4 lines, the updates, an empty line), prints its answer, and accepts the push only when
 * it was taken.
 */
const PRE_RECEIVE_HOOK = `#!/bin/bash
exec 3<>"/dev/tcp/127.0.0.1/$GHX_SANDBOX_PUSH_PORT" || exit 1
{ printf '%s\\n' "$GHX_SANDBOX_PUSH" "$GIT_OBJECT_DIRECTORY" "$GIT_ALTERNATE_OBJECT_DIRECTORIES" "$GIT_QUARANTINE_PATH"; cat; echo; } >&3
read -r verdict <&3
cat <&3 >&2
[ "$verdict" = taken ]
`

/** A push in progress: whose, to which repository (the hook names it by an id only the backend's environment holds). */
interface PendingPush {
  repo: Repo
  login: string
  gitDir: string
  /** Aborted when the request ends (or the sandbox stops): the hook's reading of the push stops with it. */
  ended: AbortController
}

/**
 * Ends a backend and every git process it started (receive-pack, index-pack, the hook): they run in
 * the backend's own process group. Only while it is running: once its pipes closed, its id may name
 * another process group.
 */
function endGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already gone (ESRCH).
  }
}

export interface GitTransport {
  handle(req: http.IncomingMessage, res: http.ServerResponse): void
  /** What a copy of this sandbox borrows its repositories' objects from. */
  asBase(): BareReposBase
  /** Ends what is running and removes the repositories from disk. */
  close(): Promise<void>
}

/**
 * Git over HTTP for `store`; a copy of a sandbox borrows its base's objects (`base`). The limits are
 * GitHub's but for those given (tests lower them).
 */
export function gitTransport(store: Store, base?: BareReposBase, lowered: Partial<PushLimits> = {}): GitTransport {
  const limits: PushLimits = {...GITHUB_PUSH_LIMITS, ...lowered}
  const repos = new BareRepos(store.git, PRE_RECEIVE_HOOK, base)
  const running = new Set<ChildProcess>()
  const pushes = new Map<string, PendingPush>()
  /** Requests on one repository, one at a time: each brings it in step with the store first. */
  const queues = new Map<string, Promise<void>>()
  const hookSockets = new Set<net.Socket>()
  let backend: Promise<string> | undefined
  let hookServer: Promise<{server: net.Server; port: number}> | undefined
  let closed = false

  const hookPort = () => {
    hookServer ??= new Promise((resolve, reject) => {
      const server = net.createServer((socket) => {
        hookSockets.add(socket)
        socket.on('close', () => hookSockets.delete(socket))
        // The hook gone (its push ended) before its answer: nothing to tell.
        socket.on('error', () => {})
        let input: string | undefined = ''
        socket.setEncoding('utf8')
        socket.on('data', (chunk: string) => {
          if (input === undefined) return
          input += chunk
          const lines = input.split('\n')
          // Complete at the empty line that ends the updates, after the 4 header lines.
          const end = lines.indexOf('', 4)
          if (end < 0 || end === lines.length - 1) return
          input = undefined
          answerHook(lines.slice(0, 4), lines.slice(4, end)).then(
            ({taken, message}) => socket.end(`${taken ? 'taken' : 'refused'}\n${message && `${message}\n`}`),
            (error: unknown) => socket.end(`refused\nsandbox error: ${(error as Error).message}\n`),
          )
        })
      })
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve({server, port: (server.address() as net.AddressInfo).port}))
    })
    return hookServer.then(({port}) => port)
  }

  /** Takes the push the hook names into the store, or says why not. */
  async function answerHook(header: string[], updates: string[]): Promise<PushAnswer> {
    const [push = '', objects, alternates, quarantine] = header
    const pending = pushes.get(push)
    if (!pending) return {taken: false, message: 'this push is not one the sandbox is serving'}
    const env: Record<string, string> = gitEnvironment(await repos.folder())
    for (const [name, value] of [
      ['GIT_OBJECT_DIRECTORY', objects],
      ['GIT_ALTERNATE_OBJECT_DIRECTORIES', alternates],
      ['GIT_QUARANTINE_PATH', quarantine],
    ] as const)
      if (value) env[name] = value
    return receivePush(store, {
      repo: pending.repo,
      pusher: pending.login,
      gitDir: pending.gitDir,
      env,
      updates: parseRefUpdates(updates.join('\n')),
      limits,
      signal: pending.ended.signal,
    })
  }

  const backendPath = () => {
    backend ??= promisify(execFile)('git', ['--exec-path']).then(({stdout}) =>
      path.join(stdout.trim(), 'git-http-backend'),
    )
    return backend
  }

  function refuse(res: http.ServerResponse, status: number, message: string): void {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      ...(status === 401 ? {'www-authenticate': 'Basic realm="GitHub"'} : {}),
    })
    res.end(`${message}\n`)
  }

  /** The login of the request's credentials: undefined without any, null for a token the sandbox does not know. */
  function credentials(req: http.IncomingMessage): string | null | undefined {
    const header = req.headers.authorization
    if (!header) return undefined
    const basic = /^basic\s+(\S+)$/i.exec(header)
    const bearer = /^(?:token|bearer)\s+(\S+)$/i.exec(header)
    const token = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : bearer?.[1]
    return (token && store.loginForToken(token)) || null
  }

  async function serve(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    repo: Repo,
    login: string | undefined,
    endpoint: string,
    query: string,
  ): Promise<void> {
    const gitDir = await repos.sync(repo)
    const root = await repos.folder()
    const program = await backendPath()
    const push = endpoint === 'git-receive-pack' ? randomBytes(16).toString('hex') : undefined
    const port = push ? await hookPort() : 0
    // Nothing starts once the sandbox is stopping (close() ends what runs, then waits for the queues).
    if (closed) return refuse(res, 503, 'The sandbox is stopping.')
    const env: Record<string, string> = {
      ...gitEnvironment(root),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      // The repository's folder as the mirror made it (inside the sandbox's), never a name from the request.
      PATH_INFO: `/${path.relative(root, gitDir).split(path.sep).join('/')}/${endpoint}`,
      REQUEST_METHOD: req.method ?? 'GET',
      QUERY_STRING: query,
      REMOTE_ADDR: '127.0.0.1',
      ...(req.headers['content-type'] ? {CONTENT_TYPE: req.headers['content-type']} : {}),
      ...(req.headers['content-length'] ? {CONTENT_LENGTH: req.headers['content-length']} : {}),
      ...(req.headers['content-encoding'] ? {HTTP_CONTENT_ENCODING: req.headers['content-encoding']} : {}),
      ...(typeof req.headers['git-protocol'] === 'string' ? {GIT_PROTOCOL: req.headers['git-protocol']} : {}),
      ...(login ? {REMOTE_USER: login} : {}),
    }
    const ended = new AbortController()
    if (push) {
      pushes.set(push, {repo, login: login!, gitDir, ended})
      env.GHX_SANDBOX_PUSH = push
      env.GHX_SANDBOX_PUSH_PORT = String(port)
    }
    // A process group of its own: the git processes it starts end with it.
    const child = spawn(program, [], {env, detached: true})
    running.add(child)
    const end = () => {
      if (running.has(child)) endGroup(child)
    }
    let started = false
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      // An answer git has begun is cut once its processes are gone, not ended as if whole.
      if (started) child.stdout.unpipe(res).resume()
      end()
    }, limits.requestTime)
    // A client gone before its answer is whole: git's processes would wait on the pipe for good.
    res.on('close', () => {
      if (!res.writableFinished) end()
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    // Streamed: a push's pack goes to git as it arrives, never whole in memory.
    req.pipe(child.stdin)
    child.stdin.on('error', () => {})
    let head = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n')
      if (end < 0) return
      const separator = head[end] === 13 ? 4 : 2
      const headers: Record<string, string> = {}
      let status = 200
      for (const line of head.subarray(0, end).toString('utf8').split(/\r?\n/)) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        const value = line.slice(colon + 1).trim()
        if (name === 'status') status = Number(value.split(' ')[0])
        else headers[name] = value
      }
      started = true
      child.stdout.off('data', onData)
      res.writeHead(status, headers)
      res.write(head.subarray(end + separator))
      child.stdout.pipe(res)
    }
    child.stdout.on('data', onData)
    await new Promise<void>((resolve) => {
      child.on('close', () => {
        running.delete(child)
        clearTimeout(timer)
        ended.abort()
        if (push) pushes.delete(push)
        if (started && timedOut) res.destroy()
        else if (!started)
          refuse(
            res,
            500,
            timedOut
              ? `The request took longer than the sandbox's limit of ${limits.requestTime / 1000} s.`
              : `git http-backend failed: ${stderr.trim()}`,
          )
        resolve()
      })
      child.on('error', (error) => {
        stderr += error.message
      })
    })
  }

  return {
    asBase: () => ({repos, repo: (key) => store.state.repos[key]}),
    handle(req, res) {
      if (closed) return refuse(res, 503, 'The sandbox is stopping.')
      const target = requestPath(req)
      const [, owner, name, endpoint] = GIT_PATH.exec(target.pathname)!
      const service = endpoint === 'info/refs' ? target.searchParams.get('service') : endpoint
      const repo = store.state.repos[`${owner}/${name}`]
      const login = credentials(req)
      if (login === null)
        return refuse(
          res,
          401,
          'Invalid username or token. Password authentication is not supported for Git operations.',
        )
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack')
        return refuse(res, 403, 'Only the smart HTTP protocol is served (git-upload-pack, git-receive-pack).')
      // Anonymous: public repositories may be fetched; a push or a private repository asks for credentials.
      if (!login && (service === 'git-receive-pack' || !repo || repo.private))
        return refuse(res, 401, 'Authentication required.')
      if (!repo) return refuse(res, 404, 'Repository not found.')
      const key = `${repo.owner}/${repo.name}`
      const previous = queues.get(key) ?? Promise.resolve()
      const turn = previous.then(() =>
        serve(req, res, repo, login, endpoint!, target.search.replace(/^\?/, '')).catch((error: unknown) => {
          if (!res.headersSent) refuse(res, 500, `sandbox error: ${(error as Error).message}`)
          else res.destroy()
        }),
      )
      queues.set(key, turn)
      void turn.then(() => {
        if (queues.get(key) === turn) queues.delete(key)
      })
    },
    async close() {
      closed = true
      for (const push of pushes.values()) push.ended.abort()
      for (const child of running) endGroup(child)
      await Promise.allSettled(queues.values())
      for (const socket of hookSockets) socket.destroy()
      if (hookServer) {
        const {server} = await hookServer
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
      await repos.remove()
    },
  }
}
