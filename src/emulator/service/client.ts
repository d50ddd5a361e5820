/**
 * The sandbox for the runner and the fixture commands, with its controls (./control.ts). When runs
 * overlap it runs in its own process (./main.ts): its requests are then served off the runner's event
 * loop and out of its memory (every tool call forks the runner, and fork copies the page tables of the
 * whole process), so at concurrency 4 or 8 the emulator's work does not delay the runner's own. With
 * one run at a time there is nothing to compete with, and it shares the caller's process, which saves
 * the process's start-up.
 */
import {startService} from '../../shared/service-process.js'
import {openSandboxControls, type SandboxControlOptions, type SandboxControls, type SandboxFacts} from './control.js'

/** The controls, each answered asynchronously: in this process or over IPC. */
export type SandboxService = SandboxFacts & {
  [K in keyof SandboxControls]: (
    ...args: Parameters<SandboxControls[K]>
  ) => Promise<Awaited<ReturnType<SandboxControls[K]>>>
}

export async function openSandbox(
  options: SandboxControlOptions,
  where: {ownProcess: boolean},
): Promise<SandboxService> {
  if (where.ownProcess) return startSandboxService(options)
  const {facts, controls} = await openSandboxControls(options)
  const service = {...facts} as SandboxService
  for (const [name, control] of Object.entries(controls) as Array<
    [keyof SandboxControls, (...args: unknown[]) => unknown]
  >) {
    ;(service as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      Promise.resolve().then(() => control(...args))
  }
  return service
}

/** The controls reached by a call each (stop also ends the process). */
const CALLED = {
  configureFaults: true,
  addAgentToken: true,
  openWorld: true,
  closeWorld: true,
  tokenCounts: true,
  releaseToken: true,
  saveState: true,
  restoreState: true,
  forgetState: true,
} satisfies Record<Exclude<keyof SandboxControls, 'stop'>, true>

/** The sandbox in its own process. */
export async function startSandboxService(options: SandboxControlOptions): Promise<SandboxService> {
  const {greeting, client} = await startService<SandboxFacts>('src/emulator/service/main.ts', options, 'sandbox')
  const service = {...greeting} as SandboxService
  for (const name of Object.keys(CALLED))
    (service as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => client.call(name, ...args)
  service.stop = () => client.stop('stop')
  return service
}
