import {mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {readShardHeader, startShardFile} from '../../src/results/shard-file.js'
import type {ShardHeader} from '../../src/schemas/shard-header.js'
import {isBadInputError} from '../../src/shared/diagnostics.js'

const header = (): ShardHeader => ({
  shard_format: 1,
  run_id: 'r',
  shard: {index: 1, count: 2},
  key: {
    ghx_bench: '0.1.0',
    catalogue_sha256: 'c0ffee',
    suite: 's',
    scenarios: ['a-001', 'b-001'],
    repetitions: 1,
    modes: {agent_direct: {tools: {}, options_sha256: 'e3b0'}},
    providers: ['agent-loop'],
    plugins: {},
    model: 'ghx-bench/oracle',
    target: 'sandbox',
    profile: null,
    seed: 1,
  },
  partition: [['a-001/1'], ['b-001/1']],
  unavailable: [],
  not_applicable: [],
})

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    expect(isBadInputError(error)).to.equal(true)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('a shard’s results file', () => {
  it('starts with its header once; resumed, it must be the same shard planned the same way', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'shard-file-'))
    const file = path.join(dir, 'r.shard-1-of-2.jsonl')
    await startShardFile(dir, file, header())
    await writeFile(file, (await readFile(file, 'utf8')) + '{"a row":1}\n')
    await startShardFile(dir, file, header())
    expect((await readFile(file, 'utf8')).split('\n')).to.have.length(3)
    expect(await readShardHeader(file)).to.deep.equal(header())

    const reweighted = {...header(), partition: [['b-001/1'], ['a-001/1']]}
    expect(await refusal(startShardFile(dir, file, reweighted))).to.include('the partition of the blocks')
    const otherSeed = header()
    otherSeed.key.seed = 2
    expect(await refusal(startShardFile(dir, file, otherSeed))).to.include('seed 1 vs 2')
  })

  it('is told from a run’s results file, and a newer format is named', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'shard-file-'))
    const plain = path.join(dir, 'run.jsonl')
    await writeFile(plain, '{"schema_version":1}\n')
    expect(await refusal(readShardHeader(plain))).to.include('not a shard’s results file')
    const newer = path.join(dir, 'newer.jsonl')
    await writeFile(newer, JSON.stringify({...header(), shard_format: 2}) + '\n')
    expect(await refusal(readShardHeader(newer))).to.include('shard format 2')
  })
})
