/**
 * The scripted models' own process (started by ./scripted-models-service.ts): the endpoint, and the
 * tokenizer that counts each turn's whole context, run here, off the runner's event loop and out of
 * its memory. One serves every suite of a ghx-bench process; each suite's injected faults are its
 * own seeded stream.
 */
import {serveService} from '../shared/service-process.js'
import {mulberry32} from '../stats/random.js'
import {cachedTokens, startScriptedModels, type ModelFaults, type Script} from './scripted-models.js'

serveService(async () => {
  const models = await startScriptedModels()
  const runs = new Map<string, ReturnType<typeof models.register>>()
  const faultStreams = new Map<string, ModelFaults>()
  const run = (baseUrl: string) => {
    const found = runs.get(baseUrl)
    if (!found) throw new Error(`no scripted run at ${baseUrl}`)
    return found
  }
  return {
    greeting: {url: models.url},
    handlers: {
      /** A suite's fault stream: `rate` of its runs' requests answered 503, drawn from `seed`. */
      openFaults(stream: string, rate: number, seed: number) {
        faultStreams.set(stream, {rate, random: mulberry32(seed)})
      },
      closeFaults: (stream: string) => void faultStreams.delete(stream),
      register(script: Script, stream?: string) {
        const registered = models.register(script, stream === undefined ? undefined : faultStreams.get(stream))
        runs.set(registered.baseUrl, registered)
        return registered.baseUrl
      },
      report(baseUrl: string) {
        const registered = run(baseUrl)
        return {plan: registered.outcome(), injectedFaults: registered.injectedFaults()}
      },
      release(baseUrl: string) {
        runs.get(baseUrl)?.release()
        runs.delete(baseUrl)
      },
      countTokens: (text: string) => cachedTokens(text),
    },
  }
})
