/**
 * A package module as a service in a child process, called like an object: `call('method', ...args)`
 * sends a request over the IPC channel, the child's handler answers on its own event loop and core.
 * The runner uses it for the work that would otherwise compete with the runs for its event loop (the
 * GitHub emulator answering every run's gh, the scripted models tokenizing every turn, the tool
 * spawner forking every tool call). A process, not a worker thread: a fork copies the page tables of
 * the whole forking process, threads included (the tokenizer alone is 80 MB).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {BadInputError, type Diagnostic} from './diagnostics.js'
import {packageModuleCommand} from './package-paths.js'

interface Request {
  id: number
  method: string
  args: unknown[]
}

interface Reply {
  id: number
  value?: unknown
  error?: PlainError
}

interface PlainError {
  name: string
  message: string
  diagnostics?: Diagnostic[]
}

type Hello<G> = {greeting: G; pid: number} | {error: PlainError}

/**
 * A program the service's command runs under (it ends up running the command, with the IPC channel),
 * in a process group of its own: a kill of the runner's group (a CI timeout) leaves it to end the
 * service and what the service started, as it would at the runner's exit.
 */
export interface ServiceLauncher {
  file: string
  args: string[]
}

export interface ServiceClient {
  /** The service's process (under a launcher, not the launcher's). */
  pid: number
  call<T>(method: string, ...args: unknown[]): Promise<T>
  /** False once the process has stopped (or failed). */
  alive(): boolean
  /** Asks the service to end (after `method`, if given, is answered) and waits for its exit. */
  stop(method?: string): Promise<void>
}

/**
 * Starts a module of the package (its path under the package root, as .ts: dist's .js, or from source
 * the .ts through tsx) as a service; resolves with its greeting (what it tells of itself once ready)
 * and a client, or rejects with why it could not start (bad input stays bad input).
 */
export async function startService<G>(
  relativeTsPath: string,
  options: unknown,
  name: string,
  launcher: ServiceLauncher | null = null,
): Promise<{greeting: G; client: ServiceClient}> {
  const command = packageModuleCommand(relativeTsPath)
  const child = spawn(launcher?.file ?? command[0]!, [...(launcher?.args ?? []), ...command.slice(launcher ? 0 : 1)], {
    detached: launcher !== null,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const hello = await new Promise<Hello<G>>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      reject(new Error(`the ${name} process exited while starting (${signal ?? `exit code ${code}`})`)),
    )
    child.once('message', (message: Hello<G>) => resolve(message))
    child.send({options})
  }).finally(() => child.removeAllListeners())
  if ('error' in hello) {
    // It ends when its channel closes (it ignores the signals the runner handles for it).
    child.disconnect()
    throw rebuildError(hello.error)
  }
  return {greeting: hello.greeting, client: clientOf(child, hello.pid, name)}
}

/**
 * A service that one ghx-bench process shares (every suite, every run): started on first use, and
 * again on the next use after it stopped or failed to start. Each use waits for the one before, so
 * uses at the same moment start one process.
 */
export function sharedService(
  relativeTsPath: string,
  name: string,
  launcher: () => ServiceLauncher | null = () => null,
): () => Promise<ServiceClient> {
  const start = () => startService(relativeTsPath, {}, name, launcher()).then(({client}) => client)
  let shared: Promise<ServiceClient> | undefined
  return () => (shared = shared ? shared.then((client) => (client.alive() ? client : start()), start) : start())
}

function clientOf(child: ChildProcess, pid: number, name: string): ServiceClient {
  let next = 0
  const pending = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void}>()
  let ended: Error | undefined
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const fail = (error: Error) => {
    ended ??= error
    for (const waiting of pending.values()) waiting.reject(ended)
    pending.clear()
  }
  child.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.id)
    if (!waiting) return
    pending.delete(reply.id)
    if (reply.error) waiting.reject(rebuildError(reply.error))
    else waiting.resolve(reply.value)
  })
  child.on('error', (error) => fail(new Error(`the ${name} process failed: ${error.message}`)))
  child.on('exit', (code, signal) => fail(new Error(`the ${name} process stopped (${signal ?? `exit code ${code}`})`)))
  // The runner must be able to exit while the service idles; a call in flight keeps it alive.
  child.unref()
  child.channel?.unref()
  const call = <T>(method: string, ...args: unknown[]): Promise<T> => {
    if (ended) return Promise.reject(ended)
    const id = next++
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) child.channel?.ref()
      // The last answer lets the runner exit again.
      const settled = () => {
        if (pending.size === 0) child.channel?.unref()
      }
      pending.set(id, {
        resolve: (value) => {
          settled()
          resolve(value as T)
        },
        reject: (error) => {
          settled()
          reject(error)
        },
      })
      child.send({id, method, args} satisfies Request)
    })
  }
  return {
    pid,
    call,
    alive: () => ended === undefined,
    async stop(method) {
      try {
        if (method && !ended) await call(method)
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          // Waiting for the exit must keep the runner alive until it comes.
          child.ref()
          if (child.connected) child.disconnect()
          await exited
        }
      }
    },
  }
}

/**
 * The service's side: reads its options, says hello with what `start` returns (or why it failed),
 * then answers calls with `handlers`. It ends when the runner disconnects (or dies: kill -9 included),
 * and leaves Ctrl-C to the runner, which stops it after saving what must be saved.
 */
export function serveService<O>(
  start: (options: O) => Promise<{greeting: unknown; handlers: Record<string, (...args: never[]) => unknown>}>,
): void {
  if (!process.send) throw new Error('serveService runs in a child process started by startService')
  const send = (message: unknown) => process.send!(message)
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => {})
  process.once('disconnect', () => process.exit(0))
  process.once('message', ({options}: {options: O}) => void begin(options))
  const begin = async (options: O) => {
    let handlers: Record<string, (...args: unknown[]) => unknown>
    try {
      const started = await start(options)
      handlers = started.handlers as Record<string, (...args: unknown[]) => unknown>
      send({greeting: started.greeting, pid: process.pid})
    } catch (error) {
      send({error: plainError(error)})
      return
    }
    const answer = async (request: Request) => {
      try {
        const handler = handlers[request.method]
        if (!handler) throw new Error(`no method ${request.method}`)
        send({id: request.id, value: await handler(...request.args)} satisfies Reply)
      } catch (error) {
        send({id: request.id, error: plainError(error)} satisfies Reply)
      }
    }
    process.on('message', (request: Request) => void answer(request))
  }
}

function plainError(error: unknown): PlainError {
  const e = error instanceof Error ? error : new Error(String(error))
  return {name: e.name, message: e.message, ...(e instanceof BadInputError ? {diagnostics: e.diagnostics} : {})}
}

/** Bad input stays bad input across the process boundary (exit code 2 naming the file), anything else an Error. */
function rebuildError(error: PlainError): Error {
  if (error.diagnostics) return new BadInputError(error.diagnostics)
  const rebuilt = new Error(error.message)
  rebuilt.name = error.name
  return rebuilt
}
