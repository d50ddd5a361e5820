/** A worker's share of `merge`: one shard's rows read, checked, written and aggregated (merge-rows.ts). */
import {parentPort, workerData} from 'node:worker_threads'
import {transferList} from '../report/aggregate/aggregate.js'
import {runIndexTransferList} from '../report/aggregate/run-index.js'
import {readShard, type ShardRead, type ShardTask} from './merge-rows.js'

let read: ShardRead
try {
  read = await readShard(workerData as ShardTask)
} catch (error) {
  read = {
    ok: false,
    rows: 0,
    counts: {by_mode: {}, by_provider: {}},
    aggregates: [],
    warnings: [],
    message: (error as Error).message,
  }
}
parentPort!.postMessage(read, [
  ...read.aggregates.flatMap(([, portable]) => transferList(portable)),
  ...(read.runIndex ? runIndexTransferList(read.runIndex) : []),
])
