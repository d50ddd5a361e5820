/** A worker's share of a large results file: parse its byte range and aggregate it. */
import {parentPort, workerData} from 'node:worker_threads'
import {RunKeys} from '../results/run-keys.js'
import type {ReadWarning} from '../results/store.js'
import {BadInputError} from '../shared/diagnostics.js'
import {emptyAggregate, toPortable, transferList} from './aggregate.js'
import {readInto, type WorkerResult, type WorkerTask} from './read-aggregate.js'

const task = workerData as WorkerTask
const aggregate = emptyAggregate()
const warnings: ReadWarning[] = []
const position = {lines: 0}
let result: WorkerResult
try {
  const earlier = task.earlier ? RunKeys.from(task.earlier) : undefined
  const read = await readInto(aggregate, task.file, task.shown, (w) => warnings.push(w), {earlier, range: task.range, position})
  const portable = toPortable(aggregate)
  result = {ok: true, lines: position.lines, aggregate: portable, duplicates: read.duplicates, keys: read.keys.portable(), ...(read.repeated ? {repeated: read.repeated} : {}), warnings}
  parentPort!.postMessage(result, transferList(portable))
} catch (error) {
  result =
    error instanceof BadInputError
      ? {ok: false, lines: position.lines, duplicates: 0, warnings, diagnostics: error.diagnostics}
      : {ok: false, lines: position.lines, duplicates: 0, warnings, message: (error as Error).message}
  parentPort!.postMessage(result)
}
