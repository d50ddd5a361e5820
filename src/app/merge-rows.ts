/**
 * One shard's rows, read once for all that `merge` does with them: each row checked (the run its
 * header names, a block its shard owns, given once), written to the shard's part of the merged results
 * file as its line was (only its trace path moved to the merged run's folder), counted, and added to
 * the report's aggregate (columns, no row kept) and to summary.html's run index, so that the report and
 * the gate of the union need no second reading. A large merge reads each shard in a worker thread (merge-worker.ts).
 */
import {open} from 'node:fs/promises'
import path from 'node:path'
import {
  addFacts,
  aggregateOf,
  toPortable,
  type PortableAggregate,
  type ProviderAggregates,
} from '../report/aggregate/aggregate.js'
import {RunIndexBuilder, type PortableRunIndex} from '../report/aggregate/run-index.js'
import {fromGhxRouter} from '../results/importers.js'
import {factsOfRow} from '../results/row-facts.js'
import type {Row} from '../results/row-schema.js'
import {FileDeduplication, type PortableRunKeys, type RepeatedRun} from '../results/run-keys.js'
import {visitFile} from '../results/sources.js'
import type {ReadWarning} from '../results/store.js'
import type {RunSummary} from '../runner/run-suite.js'
import {blockKey} from '../runner/shard.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'

export interface ShardTask {
  file: string
  shown: string
  runId: string
  /** "shard 2/4", as messages name it. */
  label: string
  /** The blocks (scenario/iteration) the shard owns. */
  owned: string[]
  /** The shard's own folder name beside its results file (its traces'), which the merged rows name as the run id. */
  record: string
  /** Where the shard's rows are written. */
  out: string
  /** The merged run's results folder, which the merged rows' trace paths are read from. */
  resultsDir: string
}

export type OutcomeCounts = Pick<RunSummary, 'by_mode' | 'by_provider'>

export interface ShardRead {
  ok: boolean
  rows: number
  counts: OutcomeCounts
  /** Each provider's share of the shard, as the report's aggregate. */
  aggregates: Array<[string | null, PortableAggregate]>
  /** The shard's part of the run index, its traces not yet looked for (merge copies them first). */
  runIndex?: PortableRunIndex
  /** The runs the shard gave: the blocks found, and a run given twice found. */
  keys?: PortableRunKeys
  /** A run the shard gives twice: the shard is refused (sources.ts repeatedRunError names the lines). */
  repeated?: RepeatedRun
  warnings: ReadWarning[]
  diagnostics?: Diagnostic[]
  message?: string
}

/** Rows are written in chunks of about this many characters. */
const WRITE_CHUNK = 1 << 16

/** The row's line with its trace path replaced; null when the line does not hold that path once, as JSON.stringify writes it. */
function withTrace(text: string, from: string, to: string): string | null {
  const old = `"trace":${JSON.stringify(from)}`
  const at = text.indexOf(old)
  if (at < 0 || text.indexOf(old, at + 1) >= 0) return null
  return text.slice(0, at) + `"trace":${JSON.stringify(to)}` + text.slice(at + old.length)
}

export async function readShard(task: ShardTask): Promise<ShardRead> {
  const warnings: ReadWarning[] = []
  const counts: OutcomeCounts = {by_mode: {}, by_provider: {}}
  const aggregates: ProviderAggregates = new Map()
  const runIndex = new RunIndexBuilder()
  const owned = new Set(task.owned)
  const once = new FileDeduplication(undefined)
  const prefix = task.record + path.sep
  let rows = 0
  let chunk = ''
  const take = (row: Row, text: string | undefined): void => {
    const block = blockKey(row.scenario_id, row.iteration)
    if (row.run_id !== task.runId || !owned.has(block))
      throw new BadInputError([
        {
          file: task.shown,
          code: 'duplicate_id',
          message:
            row.run_id !== task.runId
              ? `holds a row of run ${JSON.stringify(row.run_id)}, not of run ${JSON.stringify(task.runId)} its header names`
              : `holds a row of block ${block}, which is not ${task.label}’s: rows of a block come from the one shard that owns it`,
        },
      ])
    if (!once.fresh(row, row.iteration, row.success)) return
    const moved = row.trace?.startsWith(prefix) ? path.join(task.runId, row.trace.slice(prefix.length)) : row.trace
    const line = text === undefined ? null : moved === row.trace ? text : withTrace(text, row.trace!, moved!)
    chunk += (line ?? JSON.stringify({...row, trace: moved})) + '\n'
    runIndex.add(row, task.resultsDir, moved)
    rows++
    for (const byMode of [counts.by_mode, (counts.by_provider[row.provider ?? ''] ??= {})])
      (byMode[row.mode] ??= {pass: 0, fail: 0, timeout: 0, infra_error: 0})[row.outcome]++
    addFacts(aggregateOf(aggregates, row.provider), factsOfRow(row), () => row)
  }
  const out = await open(task.out, 'w')
  try {
    for await (const _ of visitFile(task.file, task.shown, (w) => warnings.push(w), {
      row: (row, _line, text) => take(row, text),
      router: (source) => take(fromGhxRouter(source), undefined),
    })) {
      if (once.repeated) break
      if (chunk.length >= WRITE_CHUNK) {
        await out.write(chunk)
        chunk = ''
      }
    }
    await out.write(chunk)
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error
    return {ok: false, rows, counts, aggregates: [], warnings, diagnostics: error.diagnostics}
  } finally {
    await out.close()
  }
  return {
    ok: true,
    rows,
    counts,
    aggregates: [...aggregates].map(([provider, aggregate]) => [provider, toPortable(aggregate)]),
    runIndex: runIndex.portable(),
    keys: once.keys.portable(),
    ...(once.repeated ? {repeated: once.repeated} : {}),
    warnings,
  }
}
