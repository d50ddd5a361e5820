/**
 * A server started for a run (an MCP server over stdio) is held like a tool call's processes
 * (./tool-processes.ts): under a perl subreaper parent, its process tree known, every process marked
 * with the run token, and all of them killed, synchronously, when it is stopped and when the runner
 * exits; when the runner is gone (kill -9), the perl parent sees its control channel close and kills
 * them. A server that ignores SIGTERM, never answers, or leaves setsid children behind cannot outlive
 * its session. Its secrets go in its environment, never on its command line (/proc/<pid>/cmdline is
 * readable by every process of the machine).
 */
import {spawn} from 'node:child_process'
import type {Readable, Writable} from 'node:stream'
import {serverSubreaperCommand, ToolProcessTree} from './tool-processes.js'

export interface ServerProcessOptions {
  cwd: string
  /** The server's whole environment (nothing of the runner's is added but the run token). */
  env: Record<string, string>
  /** Keep its stderr (an agent CLI says there why it failed); else it is dropped. */
  stderr?: boolean
}

export interface ServerProcess {
  stdin: Writable
  stdout: Readable
  /** With `stderr: true`. */
  stderr?: Readable
  /** Resolves once the server has ended (or could not start), with how: "exit 0", "signal 9", "could not start: …". */
  ended: Promise<string>
  /** Kills every process of the server, synchronously; the server is ended when it returns. */
  stop(): void
}

/**
 * Without the subreaper (no perl) the tree is watched by scanning /proc: in the runner, whose event
 * loop serves every run, seldom.
 */
const UNREAPED_SCAN_MS = 1000

export function startServerProcess(
  command: string,
  args: readonly string[],
  options: ServerProcessOptions,
): ServerProcess {
  const tree = new ToolProcessTree()
  const env = {...options.env, ...tree.env()}
  const wrapper = serverSubreaperCommand()
  const stderr = options.stderr ? 'pipe' : 'ignore'
  // Its own process group, as a tool's: Ctrl-C at the terminal is the runner's to handle, not the server's.
  const child = wrapper
    ? spawn(wrapper.file, [...wrapper.args, command, ...args], {
        cwd: options.cwd,
        env,
        detached: true,
        stdio: ['pipe', 'pipe', stderr, 'pipe'],
      })
    : spawn(command, [...args], {cwd: options.cwd, env, detached: true, stdio: ['pipe', 'pipe', stderr]})
  tree.adopt(child.pid, UNREAPED_SCAN_MS)
  let stopped = false
  const ended = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start: ${error.message}`))
    if (wrapper) {
      let status = ''
      child.stdio[3]!.on('data', (chunk: Buffer) => {
        status += chunk.toString()
        if (/^started \d+ 1$/m.test(status)) tree.markSubreaped()
        const match = /^(exit \d+|signal \d+|error .*)$/m.exec(status)
        if (match) resolve(match[1]!)
      })
    }
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit ${code}`))
  })
  // A stream error (EPIPE to a server that is gone) is the server's end, seen through `ended`.
  for (const stream of child.stdio) stream?.on('error', () => {})
  return {
    stdin: child.stdin!,
    stdout: child.stdout!,
    ...(child.stderr ? {stderr: child.stderr} : {}),
    ended,
    stop() {
      if (stopped) return
      stopped = true
      tree.killAll()
      for (const stream of child.stdio) stream?.destroy()
    },
  }
}
