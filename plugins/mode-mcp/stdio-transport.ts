/**
 * The MCP client's transport to a stdio server that ghx-bench holds (plugin-kit's startServerProcess):
 * the SDK's own stdio transport starts the server as a plain child, which a server that ignores
 * SIGTERM, never answers or leaves setsid children behind outlives, with the run's token. Messages are
 * framed as the SDK frames them (newline-delimited JSON-RPC).
 */
import {ReadBuffer, serializeMessage} from '@modelcontextprotocol/sdk/shared/stdio.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {startServerProcess, type ServerProcess} from 'ghx-bench/plugin-kit'

export interface StdioServerParameters {
  command: string
  args: readonly string[]
  /** The server's whole environment: its secrets go here, never in args. */
  env: Record<string, string>
  cwd: string
}

export class HeldStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private server: ServerProcess | undefined
  private readonly buffer = new ReadBuffer()
  private closed = false

  constructor(private readonly parameters: StdioServerParameters) {}

  start(): Promise<void> {
    if (this.server) throw new Error('HeldStdioTransport already started')
    const server = startServerProcess(this.parameters.command, this.parameters.args, {
      cwd: this.parameters.cwd,
      env: this.parameters.env,
    })
    this.server = server
    server.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk)
      for (;;) {
        let message: JSONRPCMessage | null
        try {
          message = this.buffer.readMessage()
        } catch (error) {
          // A line that is not JSON-RPC (a server logging to stdout) is skipped, as the SDK does.
          this.onerror?.(error as Error)
          continue
        }
        if (!message) break
        this.onmessage?.(message)
      }
    })
    void server.ended.then((how) => {
      if (this.closed) return
      this.onerror?.(new Error(`the MCP server ended (${how})`))
      void this.close()
    })
    return Promise.resolve()
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.server?.stdin
    if (!stdin || this.closed) return Promise.reject(new Error('the MCP server is not running'))
    // Settled once written or failed (a server that is gone): its end reaches the client through onclose.
    return new Promise((resolve) => void stdin.write(serializeMessage(message), () => resolve()))
  }

  /** Ends every process of the server at once: nothing waits for a server that ignores SIGTERM. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    this.server?.stop()
    this.buffer.clear()
    this.onclose?.()
    return Promise.resolve()
  }
}
