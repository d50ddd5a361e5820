import {expect} from 'chai'
import {isBadInputError} from '../../src/shared/diagnostics.js'
import type {Scenario} from '../../src/schemas/scenario.js'
import {blockKey, fixtureGroups, parseShardSpec, partitionBlocks} from '../../src/runner/shard.js'
import {MAX_SHARDS} from '../../src/runner/shard-limit.js'

const scenario = (id: string, requires: string[] = []): Scenario =>
  ({id, fixture: requires.length ? {requires} : undefined}) as unknown as Scenario

/** What parseShardSpec throws for `text` (undefined when it parses). */
function refusal(text: string): unknown {
  try {
    parseShardSpec(text)
  } catch (caught) {
    return caught
  }
  return undefined
}

describe('shards of a plan', () => {
  const ids = ['a-001', 'b-001', 'c-001', 'd-001', 'e-001', 'f-001', 'g-001']

  it('parses i/N and refuses 0/4, 5/4 and x, naming what it expects', () => {
    expect(parseShardSpec('2/4')).to.deep.equal({index: 2, count: 4})
    expect(parseShardSpec('1/1')).to.deep.equal({index: 1, count: 1})
    for (const bad of ['0/4', '5/4', 'x', '1/0', '1/', '-1/4', '1.5/4']) {
      const error = refusal(bad)
      expect(isBadInputError(error), bad).to.equal(true)
      expect((error as Error).message).to.match(/--shard.*expected i\/N.*1 <= i <= N/s)
    }
  })

  it('refuses more than MAX_SHARDS shards as it parses (1/1000000000 ran out of memory planning them)', () => {
    expect(parseShardSpec(`${MAX_SHARDS}/${MAX_SHARDS}`)).to.deep.equal({index: MAX_SHARDS, count: MAX_SHARDS})
    for (const bad of [`1/${MAX_SHARDS + 1}`, '1/1000000000', '1/99999999999999999999999']) {
      const error = refusal(bad)
      expect(isBadInputError(error), bad).to.equal(true)
      expect((error as Error).message).to.equal(`--shard at most ${MAX_SHARDS} shards, got "${bad}"`)
    }
  })

  it('is the same on every machine and covers every block exactly once, balanced by blocks', () => {
    for (const count of [1, 2, 3, 4, 5, 30]) {
      const partition = partitionBlocks(ids, 3, count)
      expect(partitionBlocks(ids, 3, count)).to.deep.equal(partition)
      expect(partition).to.have.length(count)
      const all = partition.flat()
      expect(all).to.have.length(21)
      expect(new Set(all)).to.deep.equal(new Set(ids.flatMap((id) => [1, 2, 3].map((i) => blockKey(id, i)))))
      const sizes = partition.map((blocks) => blocks.length)
      expect(Math.max(...sizes) - Math.min(...sizes), `${count} shards`).to.be.at.most(1)
    }
  })

  it('keeps scenarios that share a fixture kind, through any chain of them, on one shard', () => {
    const scenarios = [
      scenario('a-001', ['issue']),
      scenario('b-001', ['pr']),
      scenario('c-001', ['issue', 'issue_for_triage']),
      scenario('d-001', ['issue_for_triage']),
      scenario('e-001'),
      scenario('f-001', ['project']), // project depends on issue
      scenario('g-001', ['release']),
    ]
    const groups = fixtureGroups(scenarios)
    expect(Object.fromEntries(groups)).to.deep.equal({
      'a-001': 'a-001',
      'b-001': 'b-001',
      'c-001': 'a-001',
      'd-001': 'a-001',
      'e-001': 'e-001',
      'f-001': 'a-001',
      'g-001': 'g-001',
    })
    const partition = partitionBlocks(ids, 3, 3, {groups})
    const shardOf = (block: string) => partition.findIndex((blocks) => blocks.includes(block))
    const issueShard = shardOf('a-001/1')
    for (const id of ['a-001', 'c-001', 'd-001', 'f-001'])
      for (const i of [1, 2, 3]) expect(shardOf(blockKey(id, i)), blockKey(id, i)).to.equal(issueShard)
    expect(partition.flat()).to.have.length(21)
  })

  it('balances by the weights given, heaviest first onto the lightest shard', () => {
    const weights: Record<string, number> = {'a-001': 90, 'b-001': 10, 'c-001': 10, 'd-001': 10, 'e-001': 10}
    const partition = partitionBlocks(Object.keys(weights), 1, 2, {weightOf: (id) => weights[id]!})
    expect(partition).to.deep.equal([['a-001/1'], ['b-001/1', 'c-001/1', 'd-001/1', 'e-001/1']])
  })
})
