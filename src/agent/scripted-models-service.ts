/**
 * The scripted models (oracle, noop) served from their own process (./scripted-models-main.ts): the
 * same endpoint as startScriptedModels, with each run's script, plan outcome and injected faults
 * reached by calls, and the o200k tokenizer there too. The process is started once and serves every
 * suite of this ghx-bench process (run --until-decided runs several): loading the tokenizer costs more
 * than a suite of short runs.
 */
import {randomBytes} from 'node:crypto'
import {sharedService} from '../shared/service-process.js'
import type {PlanOutcome, Script} from './scripted-models.js'

interface ScriptedRun {
  /** The base URL to give the provider (…/r/<key>/v1). */
  baseUrl: string
  /** How far the plan got, and the faults injected into the run's model traffic. */
  report(): Promise<{plan: PlanOutcome; injectedFaults: number}>
  release(): Promise<void>
}

/** One suite's use of the scripted models. */
export interface ScriptedModelsSession {
  register(script: Script): Promise<ScriptedRun>
  /** Tokens of a text (o200k), counted in the service's process. */
  countTokens(text: string): Promise<number>
  /** Ends the session (its fault stream); the process stays for the next suite. */
  close(): Promise<void>
}

/** The process, started on first use and again if it stopped. */
const service = sharedService('src/agent/scripted-models-main.ts', 'scripted models')

/** A suite's session; with `faults`, that share of its runs' model requests is answered 503, seeded. */
export async function openScriptedModels(faults?: {rate: number; seed: number}): Promise<ScriptedModelsSession> {
  const client = await service()
  const stream = faults ? randomBytes(8).toString('hex') : undefined
  if (faults) await client.call('openFaults', stream, faults.rate, faults.seed)
  return {
    async register(script) {
      const baseUrl = await client.call<string>('register', script, stream)
      return {
        baseUrl,
        report: () => client.call('report', baseUrl),
        release: () => client.call('release', baseUrl),
      }
    },
    countTokens: (text) => client.call('countTokens', text),
    close: async () => {
      if (stream) await client.call('closeFaults', stream)
    },
  }
}
