// Shards' results files as `run --shard` writes them (a header, then the rows of the shard's blocks, and
// a trace file each), for the tests of merge.
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {partitionBlocks, shardRecordName} from '../../src/runner/shard.js'
import type {ShardHeader} from '../../src/schemas/shard-header.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeRow} from './rows.js'

export const RUN = 'nightly-7'
export const SCENARIOS = ['pr-view-001', 'pr-list-001', 'pr-diff-view-001', 'pr-checks-list-001']
export const MODES = ['agent_direct', 'ghx']
export const REPETITIONS = 3

export function header(index: number, count: number, change: (h: ShardHeader) => void = () => {}): ShardHeader {
  const value: ShardHeader = {
    shard_format: 1,
    run_id: RUN,
    shard: {index, count},
    key: {
      ghx_bench: '0.1.0',
      catalogue_sha256: 'c0ffee',
      suite: 'verify-pr',
      scenarios: SCENARIOS,
      repetitions: REPETITIONS,
      modes: Object.fromEntries(MODES.map((m) => [m, {tools: {}, options_sha256: 'e3b0'}])),
      providers: ['agent-loop'],
      plugins: {'mode-ghx': '1.2.0'},
      model: 'ghx-bench/oracle',
      target: 'sandbox',
      profile: 'verify_pr',
      seed: 1,
    },
    partition: partitionBlocks(SCENARIOS, REPETITIONS, count),
    unavailable: [],
    not_applicable: [],
  }
  change(value)
  return value
}

/** A shard's rows: every run of its blocks, ghx a little cheaper than agent_direct. */
export function rowsOf(h: ShardHeader): Row[] {
  return h.partition[h.shard.index - 1]!.flatMap((block) => {
    const [scenario_id, iteration] = [block.slice(0, block.lastIndexOf('/')), Number(block.split('/').at(-1))]
    return MODES.map((mode) =>
      makeRow({
        run_id: RUN,
        suite: 'verify-pr',
        model: 'ghx-bench/oracle',
        scenario_id,
        mode,
        iteration,
        activeTokens: mode === 'ghx' ? 500 + iteration : 1000 + iteration,
        trace: path.join(
          shardRecordName(RUN, h.shard),
          'traces',
          `${scenario_id}__${mode}__agent-loop__i${iteration}__a1.json`,
        ),
      }),
    )
  })
}

/** `line` writes a row's line (JSON.stringify by default). */
export async function writeShard(
  dir: string,
  h: ShardHeader,
  rows = rowsOf(h),
  line: (row: Row) => string = (row) => JSON.stringify(row),
): Promise<string> {
  const record = shardRecordName(RUN, h.shard)
  const file = path.join(dir, `${record}.jsonl`)
  await mkdir(path.join(dir, record, 'traces'), {recursive: true})
  for (const row of rows) await writeFile(path.join(dir, row.trace!), '{}\n')
  await writeFile(file, [JSON.stringify(h), ...rows.map(line)].map((l) => l + '\n').join(''))
  return file
}
