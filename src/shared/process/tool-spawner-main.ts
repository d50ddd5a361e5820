/**
 * The tool spawner's process (started by ./tool-spawner.ts): it starts every tool call's processes and
 * ends them, so that the runner never forks. A fork copies the page tables of the whole forking
 * process and holds its event loop meanwhile; this process loads nothing but this, forks fast, and
 * holds up no run. When the runner goes (kill -9 included), its channel closes and this process
 * exits, killing every call still running (tool-processes.ts kills them at exit).
 */
import {runBashCall, type BashCallOptions} from './bash-call.js'
import {serveService} from '../service-process.js'

serveService(() => {
  const running = new Map<number, AbortController>()
  return Promise.resolve({
    greeting: {pid: process.pid},
    handlers: {
      /** Runs one call to its end; `id` names it for `abort`. */
      async run(id: number, command: string, options: BashCallOptions) {
        const controller = new AbortController()
        running.set(id, controller)
        try {
          return await runBashCall(command, options, controller.signal)
        } finally {
          running.delete(id)
        }
      },
      abort: (id: number) => running.get(id)?.abort(),
    },
  })
})
