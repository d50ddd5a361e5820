/** A worker's share of a large results file: parse its byte range and aggregate it, each provider's rows apart. */
import {parentPort, workerData} from 'node:worker_threads'
import {RunKeys} from '../../results/run-keys.js'
import type {ReadWarning} from '../../results/store.js'
import {BadInputError} from '../../shared/diagnostics.js'
import {toPortable, transferList, type ProviderAggregates} from './aggregate.js'
import {readInto, type WorkerResult, type WorkerTask} from './read-aggregate.js'

const task = workerData as WorkerTask
const aggregates: ProviderAggregates = new Map()
const warnings: ReadWarning[] = []
const position = {lines: 0}
let result: WorkerResult
try {
  const earlier = task.earlier ? RunKeys.from(task.earlier) : undefined
  const read = await readInto(aggregates, task.file, task.shown, (w) => warnings.push(w), {
    earlier,
    replaced: task.replaced,
    range: task.range,
    position,
  })
  const portables = [...aggregates].map(
    ([provider, aggregate]) => [provider, toPortable(aggregate)] as [string | null, ReturnType<typeof toPortable>],
  )
  result = {
    ok: true,
    lines: position.lines,
    aggregates: portables,
    duplicates: read.duplicates,
    keys: read.keys.portable(),
    ...(read.repeated ? {repeated: read.repeated} : {}),
    warnings,
  }
  parentPort!.postMessage(
    result,
    portables.flatMap(([, portable]) => transferList(portable)),
  )
} catch (error) {
  result =
    error instanceof BadInputError
      ? {ok: false, lines: position.lines, duplicates: 0, warnings, diagnostics: error.diagnostics}
      : {ok: false, lines: position.lines, duplicates: 0, warnings, message: (error as Error).message}
  parentPort!.postMessage(result)
}
