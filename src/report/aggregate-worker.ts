/** A worker's share of a large results file: parse its byte range and aggregate it. */
import {parentPort, workerData} from 'node:worker_threads'
import type {ByteRange} from '../results/lines.js'
import {jsonlRowBatches} from '../results/sources.js'
import type {ReadWarning} from '../results/store.js'
import {BadInputError} from '../shared/diagnostics.js'
import {addRow, emptyAggregate, toPortable, transferList} from './aggregate.js'
import type {WorkerResult} from './read-aggregate.js'

const {file, shown, range} = workerData as {file: string; shown: string; range: ByteRange}
const aggregate = emptyAggregate()
const warnings: ReadWarning[] = []
const seen = {lines: 0}
let result: WorkerResult
try {
  for await (const rows of jsonlRowBatches(file, shown, (w) => warnings.push(w), range, seen)) for (const row of rows) addRow(aggregate, row)
  const portable = toPortable(aggregate)
  result = {ok: true, lines: seen.lines, aggregate: portable, warnings}
  parentPort!.postMessage(result, transferList(portable))
} catch (error) {
  result =
    error instanceof BadInputError
      ? {ok: false, lines: seen.lines, warnings, diagnostics: error.diagnostics}
      : {ok: false, lines: seen.lines, warnings, message: (error as Error).message}
  parentPort!.postMessage(result)
}
