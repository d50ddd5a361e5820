// `ghx-bench merge` over shards' results files written here (a header and rows each), in-process: what it
// refuses (exit 2, naming the difference), what it calls incomplete (exit 3, naming the blocks), and the
// one run it writes. Real shards run in test/commands/shards.e2e.test.ts.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {readFile, symlink} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {shardRecordName} from '../../src/runner/shard.js'
import type {ShardHeader} from '../../src/schemas/shard-header.js'
import type {Row} from '../../src/results/row-schema.js'
import {writeRunInfo, type RunInfo} from '../../src/results/run-info.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {sandboxConfig} from '../support/sandbox-project.js'
import {header, MODES, REPETITIONS, rowsOf, RUN, SCENARIOS, writeShard} from '../support/shard-files.js'

describe('ghx-bench merge', function () {
  this.timeout(30_000)

  const project = () => makeProject({'.ghxbenchrc.yml': sandboxConfig()})

  it('makes the shards one run: its rows, traces and run.json as an unsharded run’s, then the report and the gate', async () => {
    const dir = await project()
    const shards = path.join(dir, 'downloaded')
    await writeShard(path.join(shards, 'shard-1'), header(1, 2))
    await writeShard(path.join(shards, 'shard-2'), header(2, 2))
    const result = await runCliInProcess(['merge', 'downloaded', '--json'], {cwd: dir})
    const out = JSON.parse(result.stdout) as {
      incomplete: string | null
      exit_code: number
      summary: {completed: number}
    }
    expect(out.incomplete).to.equal(null)
    expect(out.summary.completed).to.equal(SCENARIOS.length * MODES.length * REPETITIONS)
    expect(result.code).to.equal(out.exit_code).and.not.equal(3)
    const lines = (await readFile(path.join(dir, 'results', `${RUN}.jsonl`), 'utf8')).trim().split('\n')
    expect(lines).to.have.length(24)
    const rows = lines.map((line) => JSON.parse(line) as Row)
    expect(rows.every((row) => row.trace?.startsWith(path.join(RUN, 'traces')))).to.equal(true)
    expect(rows.every((row) => existsSync(path.join(dir, 'results', row.trace!)))).to.equal(true)
    expect(existsSync(path.join(dir, 'results', RUN, 'run.json'))).to.equal(true)
    const gate = JSON.parse(await readFile(path.join(dir, 'reports', RUN, 'gate.json'), 'utf8')) as {rows: number}
    expect(gate.rows).to.equal(24)
    // Merged again (a shard resumed): the merge's own output is replaced.
    expect((await runCliInProcess(['merge', 'downloaded'], {cwd: dir})).code).to.equal(out.exit_code)
  })

  it('writes each row as its shard’s line, its trace path alone moved, and reports the rows as report reads them', async () => {
    const dir = await project()
    // Lines as no JSON.stringify writes them: a merge that wrote rows anew (a second serialization a row) would change them.
    const spaced = (row: Row) => JSON.stringify(row).replaceAll(',"', ', "')
    const given = [header(1, 2), header(2, 2)].map((h) => ({h, rows: rowsOf(h)}))
    for (const {h, rows} of given)
      await writeShard(path.join(dir, 'downloaded', String(h.shard.index)), h, rows, spaced)
    const result = await runCliInProcess(['merge', 'downloaded'], {cwd: dir})
    expect(result.code, result.stderr).to.not.equal(2)
    const merged = await readFile(path.join(dir, 'results', `${RUN}.jsonl`), 'utf8')
    const expected = given.flatMap(({h, rows}) =>
      rows.map((row) =>
        spaced(row).replace(
          `"trace":${JSON.stringify(row.trace)}`,
          `"trace":${JSON.stringify(row.trace!.replace(shardRecordName(RUN, h.shard), RUN))}`,
        ),
      ),
    )
    expect(merged).to.equal(expected.map((line) => line + '\n').join(''))
    // The report merge wrote from the rows as it merged them is the report of the merged file.
    const summary = async (folder: string) => {
      const {generated_at: _, ...rest} = JSON.parse(await readFile(path.join(folder, 'summary.json'), 'utf8')) as {
        generated_at: string
      }
      return rest
    }
    const reread = await runCliInProcess(['report', '--run-id', RUN, '--out', 'reread'], {cwd: dir})
    expect(reread.code, reread.stderr).to.equal(0)
    expect(await summary(path.join(dir, 'reports', RUN))).to.deep.equal(await summary(path.join(dir, 'reread')))
  })

  it('reads a shard’s file as any results file: report skips its header, and says the shard is part of a run (exit 3)', async () => {
    const dir = await project()
    const file = await writeShard(dir, header(1, 2))
    const result = await runCliInProcess(['report', '--input', file, '--json'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(3)
    expect((JSON.parse(result.stdout) as {rows: number}).rows).to.equal(12)
    const text = await runCliInProcess(['report', '--input', file], {cwd: dir})
    expect(text.code).to.equal(3)
    expect(text.stderr.trimEnd().split('\n').at(-1)).to.include('this is shard 1/2 of run nightly-7')
  })

  it('with a shard missing is incomplete: exit 3 naming its blocks, the gate inconclusive', async () => {
    const dir = await project()
    await writeShard(dir, header(1, 3))
    await writeShard(dir, header(3, 3))
    const result = await runCliInProcess(
      ['merge', path.join(dir, `${RUN}.shard-1-of-3.jsonl`), path.join(dir, `${RUN}.shard-3-of-3.jsonl`)],
      {cwd: dir},
    )
    expect(result.code).to.equal(3)
    const blocks = header(2, 3).partition[1]!
    expect(result.stderr).to.include(`incomplete: blocks ${blocks.join(', ')} of shard 2/3 missing`)
    const gate = JSON.parse(await readFile(path.join(dir, 'reports', RUN, 'gate.json'), 'utf8')) as {
      verdict: string
      warnings: string[]
    }
    expect(gate.verdict).to.equal('inconclusive')
    expect(gate.warnings.join('\n')).to.include('of shard 2/3 missing')
  })

  it('with a block cut short (a shard interrupted) is incomplete, naming the block', async () => {
    const dir = await project()
    const first = header(1, 2)
    const rows = rowsOf(first)
    const cut = rows.pop()!
    await writeShard(dir, first, rows)
    await writeShard(dir, header(2, 2))
    const result = await runCliInProcess(['merge', dir], {cwd: dir})
    expect(result.code).to.equal(3)
    expect(result.stderr).to.include(`incomplete: blocks ${cut.scenario_id}/${cut.iteration} of shard 1/2 missing`)
  })

  it('with blocks a shard’s budget left out is incomplete, naming the budget; the merged run keeps them for the gate', async () => {
    const dir = await project()
    const first = header(1, 2)
    const leftOut = first.partition[0]!.slice(-2)
    const rows = rowsOf(first).filter((row) => !leftOut.includes(`${row.scenario_id}/${row.iteration}`))
    await writeShard(dir, first, rows)
    await writeRunInfo(dir, shardRecordName(RUN, first.shard), {
      run_id: RUN,
      suite: 'verify-pr',
      seed: 1,
      modes: MODES,
      unavailable: [],
      not_applicable: [],
      not_run: {
        reason: 'budget',
        budget: 'tokens=9000',
        detail: 'the next block would …',
        planned_blocks: 6,
        blocks: leftOut,
      },
    })
    await writeShard(dir, header(2, 2))
    const result = await runCliInProcess(['merge', dir], {cwd: dir})
    expect(result.code).to.equal(3)
    const reason = `incomplete: 2 of 12 blocks of run ${RUN} not run (budget tokens=9000: the next block would …)`
    // Said once, as the budget's: not also as blocks missing.
    expect(result.stderr.trim()).to.equal(reason)
    expect(result.stdout.trimEnd().split('\n').at(-1)).to.equal(`verdict: INCONCLUSIVE (exit 3): ${reason}`)
    const merged = JSON.parse(await readFile(path.join(dir, 'results', RUN, 'run.json'), 'utf8')) as RunInfo
    expect(merged.not_run).to.deep.include({budget: 'tokens=9000', planned_blocks: 12, blocks: leftOut})
    const gate = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
    expect(gate.code).to.equal(3)
    expect(gate.stdout.trimEnd().split('\n').at(-1)).to.equal(`verdict: INCONCLUSIVE (exit 3): ${reason}`)
  })

  it('refuses shards of another model, catalogue or format version, naming the difference (exit 2)', async () => {
    for (const [change, expected] of [
      [(h: ShardHeader) => (h.key.model = 'openai/gpt-5'), 'model "ghx-bench/oracle" vs "openai/gpt-5"'],
      [(h: ShardHeader) => (h.key.catalogue_sha256 = 'beef'), 'catalogue_sha256 "c0ffee" vs "beef"'],
      [(h: ShardHeader) => (h.shard_format = 2), 'shard format 2: this ghx-bench merges shard format 1 only'],
      [(h: ShardHeader) => (h.partition = [h.partition[1]!, h.partition[0]!]), 'the partition of the blocks'],
    ] as const) {
      const dir = await project()
      await writeShard(dir, header(1, 2))
      await writeShard(dir, header(2, 2, change))
      const result = await runCliInProcess(['merge', dir], {cwd: dir})
      expect(result.code, expected).to.equal(2)
      expect(result.stderr).to.include(expected)
      expect(existsSync(path.join(dir, 'results', `${RUN}.jsonl`))).to.equal(false)
    }
  })

  it('names what a shard’s path is when it cannot be read: a link loop, a FIFO (exit 2, never a hang)', async () => {
    const dir = await project()
    await symlink(path.join(dir, 'b'), path.join(dir, 'a'))
    await symlink(path.join(dir, 'a'), path.join(dir, 'b'))
    execFileSync('mkfifo', [path.join(dir, `${RUN}.shard-1-of-2.jsonl`)])
    const result = await runCliInProcess(['merge', 'a', `${RUN}.shard-1-of-2.jsonl`], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('a error: a loop of symbolic links')
    expect(result.stderr).to.include('is a FIFO (named pipe), not a regular file')
  })

  it('refuses a shard given twice, and rows of a block the shard does not own (exit 2)', async () => {
    const dir = await project()
    const file = await writeShard(dir, header(1, 2))
    await writeShard(path.join(dir, 'copy'), header(1, 2))
    const twice = await runCliInProcess(['merge', file, path.join(dir, 'copy')], {cwd: dir})
    expect(twice.code).to.equal(2)
    expect(twice.stderr).to.include('shard 1/2 is given twice')

    const other = await project()
    const second = header(2, 2)
    await writeShard(other, header(1, 2))
    await writeShard(other, second, [...rowsOf(second), rowsOf(header(1, 2))[0]!])
    const foreign = await runCliInProcess(['merge', other], {cwd: other})
    expect(foreign.code).to.equal(2)
    expect(foreign.stderr).to.match(/holds a row of block \S+, which is not shard 2\/2’s/)
    // Refused halfway, it leaves nothing behind.
    expect(existsSync(path.join(other, 'results', `${RUN}.jsonl`))).to.equal(false)
    expect(existsSync(path.join(other, 'results', `${RUN}.jsonl.merging`))).to.equal(false)
  })
})
