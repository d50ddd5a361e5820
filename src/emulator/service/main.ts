/**
 * The sandbox's own process (started by ./client.ts): the emulator served from here answers every
 * run's gh, MCP server and Octokit requests on this process's event loop and core, not the runner's.
 * The runner reaches the state through the controls (./control.ts), called over IPC.
 */
import {serveService} from '../../shared/service-process.js'
import {openSandboxControls, type SandboxControlOptions} from './control.js'

serveService(async (options: SandboxControlOptions) => {
  const {facts, controls} = await openSandboxControls(options)
  return {greeting: facts, handlers: {...controls}}
})
