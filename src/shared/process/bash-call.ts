/**
 * One bash command run to its end in this process: under the subreaper (tool-processes.ts), in a PID
 * namespace of its own where this machine allows one (pid-namespace.ts), stdout and
 * stderr collected together, and, once it ends or the signal aborts it, every process it started
 * killed, without waiting for pipes that a stray process keeps open. The tool spawner's process runs
 * these for the runner (./tool-spawner.ts).
 */
import {spawn} from 'node:child_process'
import {pidNamespacePrefix} from './pid-namespace.js'
import {subreaperCommand, ToolProcessTree} from './tool-processes.js'

/** The call's answer is cut to this many characters; the model sees that it was cut. */
export const MAX_OUTPUT_CHARS = 64_000

export interface BashCallOptions {
  cwd: string
  env: Record<string, string>
  /** False runs the command without the subreaper parent (the process tree and the marker alone find its processes). */
  subreaper: boolean
}

export interface BashCallResult {
  ok: boolean
  output: string
}

/** How long output may keep coming after the command ended, before what is still holding the pipes is killed. */
const DRAIN_MS = 100

export function runBashCall(command: string, options: BashCallOptions, signal: AbortSignal): Promise<BashCallResult> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ok: false, output: 'aborted before it started'})
    const tree = new ToolProcessTree()
    const env = {...options.env, ...tree.env()}
    const wrapper = options.subreaper ? subreaperCommand() : null
    // The subreaper is the namespace's first process: it reaps orphans there, and the call cannot kill it.
    const [file = 'bash', ...args] = [
      ...(pidNamespacePrefix() ?? []),
      ...(wrapper ? [wrapper.file, ...wrapper.args] : []),
      'bash',
      '-c',
      command,
    ]
    const child = wrapper
      ? spawn(file, args, {cwd: options.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe']})
      : spawn(file, args, {cwd: options.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
    tree.adopt(child.pid)
    let output = ''
    let truncated = false
    let settled = false
    const collect = (chunk: Buffer) => {
      if (output.length >= MAX_OUTPUT_CHARS) return void (truncated = true)
      output += chunk.toString('utf8')
    }
    const text = () =>
      output.length > MAX_OUTPUT_CHARS || truncated
        ? `${output.slice(0, MAX_OUTPUT_CHARS)}\n[output cut at ${MAX_OUTPUT_CHARS} characters]`
        : output
    // Ends the call: everything it started is killed, and nothing waits for pipes a stray process still holds.
    const settle = (result: BashCallResult) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      tree.killAll()
      for (const stream of child.stdio) stream?.destroy()
      resolve(result)
    }
    const onAbort = () => settle({ok: false, output: `${text()}\n[aborted]`})
    signal.addEventListener('abort', onAbort, {once: true})
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    let drained = 0
    const onDrained = () => void drained++
    child.stdout.once('end', onDrained)
    child.stderr.once('end', onDrained)
    /** The command ended: take the output still in the pipes (briefly), then settle. */
    let ending = false
    const ended = (code: number | null, killedBy: string | null) => {
      if (ending) return
      ending = true
      const finish = () =>
        settle(
          code === 0 ? {ok: true, output: text()} : {ok: false, output: `${text()}\n[exit code ${code ?? killedBy}]`},
        )
      const started = Date.now()
      const wait = () => (drained >= 2 || Date.now() - started >= DRAIN_MS ? finish() : setTimeout(wait, 5))
      wait()
    }
    child.on('error', (error) => settle({ok: false, output: `could not start bash: ${error.message}`}))
    if (wrapper) {
      // The subreaper reports on fd 3 when the command ended; it stays until the call's processes are killed.
      let status = ''
      const channel = child.stdio[3] as NodeJS.ReadableStream
      channel.on('data', (chunk: Buffer) => {
        status += chunk.toString()
        if (/^started \d+ 1$/m.test(status)) tree.markSubreaped()
        const match = /^(exit|signal) (\d+)$/m.exec(status)
        if (match)
          ended(match[1] === 'exit' ? Number(match[2]) : null, match[1] === 'signal' ? `signal ${match[2]}` : null)
      })
      child.on('exit', (code, killedBy) => {
        if (!/^(exit|signal) /m.test(status)) ended(code === 0 ? 1 : code, killedBy)
      })
    } else child.on('exit', (code, killedBy) => ended(code, killedBy))
  })
}
