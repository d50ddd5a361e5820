/**
 * Tool calls run from the tool spawner's own small process (./tool-spawner-main.ts): the runner asks
 * it to run a command and to abort it, and gets the answer. The spawner is shared by every run of this
 * ghx-bench process, started on first use (or ahead, by `startToolSpawner`) and again if it stopped.
 */
import {sharedService, type ServiceClient} from '../service-process.js'
import type {BashCallOptions, BashCallResult} from './bash-call.js'
import {killToolsStartedBy, projectMarker, spawnerHubCommand, subreaperWanted} from './tool-processes.js'

// Under its hub: the orphans of a call that killed its own subreaper, and all a spawner that is killed leaves, end too.
const sharedSpawner = sharedService('src/shared/process/tool-spawner-main.ts', 'tool spawner', spawnerHubCommand)
/** The spawner last started, for `killSpawnedTools`. */
let started: ServiceClient | undefined
const spawner = () =>
  sharedSpawner().then((client) => {
    started = client
    return client
  })

let nextCall = 0

/**
 * Starts the spawner ahead of the first call, so that its start-up counts in no call's time; resolves
 * once it is ready. A spawner that cannot start is not an error here: the first call tries again and
 * reports why.
 */
export async function startToolSpawner(): Promise<void> {
  await spawner().catch(() => {})
}

/**
 * The harness failed, not the tool: an error the runner records as an infrastructure error and
 * retries (`infrastructure: true`, as src/plugins/api.ts's isInfrastructureError reads it).
 */
function spawnerFailure(message: string, cause: unknown): Error {
  return Object.assign(new Error(message, {cause}), {infrastructure: true})
}

/**
 * Runs one bash command in the spawner (see runBashCall); the signal aborts it there, with everything
 * it started. Rejects (an infrastructure error) when the spawner cannot start or stops during the call:
 * the agent did not fail, the harness did.
 */
export async function runSpawnedBash(
  command: string,
  options: Omit<BashCallOptions, 'subreaper'>,
  signal: AbortSignal,
): Promise<BashCallResult> {
  if (signal.aborted) return {ok: false, output: 'aborted before it started'}
  let client
  try {
    client = await spawner()
  } catch (error) {
    throw spawnerFailure(`could not start the tool spawner: ${(error as Error).message}`, error)
  }
  if (signal.aborted) return {ok: false, output: 'aborted before it started'}
  const id = nextCall++
  const onAbort = () => void client.call('abort', id).catch(() => {})
  signal.addEventListener('abort', onAbort, {once: true})
  try {
    return await client.call<BashCallResult>('run', id, command, {
      ...options,
      // The spawner serves every project of this process: the call carries the project's mark.
      env: {...options.env, ...projectMarker()},
      subreaper: subreaperWanted(),
    } satisfies BashCallOptions)
  } catch (error) {
    throw spawnerFailure(`the tool call failed: ${(error as Error).message}`, error)
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * Kills the processes of every call the spawner is running, synchronously: for ghx-bench exiting
 * (a second Ctrl-C) before it removes the folders they may be writing into. The spawner would end
 * them too once ghx-bench is gone, but only after.
 */
export function killSpawnedTools(): void {
  if (started?.alive()) killToolsStartedBy(started.pid)
}
