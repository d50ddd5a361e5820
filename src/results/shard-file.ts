/**
 * A shard's results file: its header record (src/schemas/shard-header.ts) on the first line, then its
 * rows as any run's. Readers of results files skip the header (isShardHeader), so a shard's file is read
 * by `report` and `gate` like any other; `merge` reads the header first.
 */
import {existsSync} from 'node:fs'
import {compileCheck} from '../shared/schema-validator.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {shardHeaderSchema, SHARD_FORMAT, type ShardHeader} from '../schemas/shard-header.js'
import {readLineBatches} from './lines.js'
import {writeFileBelow} from './no-follow.js'
import {keyDifferences} from './comparability.js'

/** The header's mark: a record with it is a shard's header, whatever its format version. */
export function isShardHeader(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'shard_format' in value
}

/** The first line of a results file, parsed; undefined when the file is empty or its first line is not JSON. */
async function firstRecord(file: string): Promise<unknown> {
  for await (const [first] of readLineBatches(file)) {
    try {
      return first ? (JSON.parse(first.text) as unknown) : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The header a results file starts with, when it is a well-formed shard's; undefined for any other file. */
export async function shardHeaderOf(file: string): Promise<ShardHeader | undefined> {
  const value = await firstRecord(file)
  return isShardHeader(value) && compileCheck(shardHeaderSchema)(value) ? (value as ShardHeader) : undefined
}

/**
 * The header of a shard's results file; bad input when the file has none, or one of another format
 * version (named), or one that is not well formed.
 */
export async function readShardHeader(file: string, cwd = process.cwd()): Promise<ShardHeader> {
  const shown = displayPath(file, cwd)
  const problem = (message: string) => new BadInputError([{file: shown, line: 1, col: 1, code: 'schema', message}])
  const value = await firstRecord(file)
  if (!isShardHeader(value))
    throw problem('not a shard’s results file: its first line is not a shard header (written by run --shard i/N)')
  const format = (value as {shard_format: unknown}).shard_format
  if (format !== SHARD_FORMAT)
    throw problem(
      `shard format ${JSON.stringify(format)}: this ghx-bench merges shard format ${SHARD_FORMAT} only (merge with the ghx-bench version that ran the shards)`,
    )
  if (!compileCheck(shardHeaderSchema)(value)) throw problem('the shard header is not well formed')
  return value as ShardHeader
}

/**
 * Starts a shard's results file with its header; a file there already (the shard resumed) must have been
 * started by the same shard of the same run, planned the same way, or the rows would mix two runs.
 */
export async function startShardFile(
  resultsDir: string,
  file: string,
  header: ShardHeader,
  cwd = process.cwd(),
): Promise<void> {
  if (!existsSync(file)) {
    await writeFileBelow(resultsDir, file, JSON.stringify(header) + '\n')
    return
  }
  const recorded = await readShardHeader(file, cwd)
  const differences = headerDifferences(recorded, header)
  if (differences.length > 0)
    throw new BadInputError([
      {
        file: displayPath(file, cwd),
        line: 1,
        col: 1,
        code: 'config',
        message: `this shard was started with another plan: ${differences.join('; ')}. Resume it with the same suite, flags and --shard-weights, or choose another --run-id`,
      },
    ])
}

/**
 * What differs between two shards' headers that would keep their rows from being one run: each field of
 * the comparability key, the run id, the shard count and the partition, named with both values.
 */
export function headerDifferences(a: ShardHeader, b: ShardHeader): string[] {
  const differences: string[] = []
  const differ = (what: string, x: unknown, y: unknown): void => {
    if (JSON.stringify(x) !== JSON.stringify(y))
      differences.push(`${what} ${JSON.stringify(x)} vs ${JSON.stringify(y)}`)
  }
  differ('run id', a.run_id, b.run_id)
  differ('shard count', a.shard.count, b.shard.count)
  differences.push(...keyDifferences(a.key, b.key))
  // The key agrees and the partitions differ: the shards were balanced with different --shard-weights.
  if (
    differences.length === 0 &&
    a.partition !== b.partition &&
    JSON.stringify(a.partition) !== JSON.stringify(b.partition)
  )
    differences.push('the partition of the blocks (balanced with different --shard-weights?)')
  return differences
}
