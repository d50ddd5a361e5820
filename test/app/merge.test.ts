// mergeShards reads a large merge's shards in worker threads, one part file each joined in shard order:
// the same merged file, counts and report as read on the main thread, and a refusal found in a worker
// is the same bad input.
import {cp, readdir, readFile, rm} from 'node:fs/promises'
import path from 'node:path'
import {gunzipSync} from 'node:zlib'
import {expect} from 'chai'
import {mergeShards} from '../../src/app/merge.js'
import {buildRunIndex, embedTraces, encodeRunIndex} from '../../src/report/render/html/runs.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {shardRecordName} from '../../src/runner/shard.js'
import {makeProject} from '../support/cli.js'
import {sandboxConfig} from '../support/sandbox-project.js'
import {header, rowsOf, RUN, writeShard} from '../support/shard-files.js'

describe('mergeShards in worker threads', function () {
  this.timeout(60_000)

  const merged = async (dir: string) => ({
    rows: await readFile(path.join(dir, 'results', `${RUN}.jsonl`), 'utf8'),
    summary: (({generated_at: _, ...rest}) => rest)(
      JSON.parse(await readFile(path.join(dir, 'reports', RUN, 'summary.json'), 'utf8')) as {generated_at: string},
    ),
  })

  it('merges as the main thread does: the rows in shard order, the counts, the report', async () => {
    const here = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    for (const index of [1, 2, 3]) await writeShard(path.join(here, 'shards'), header(index, 3))
    const inWorkers = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    await cp(path.join(here, 'shards'), path.join(inWorkers, 'shards'), {recursive: true})
    const one = await mergeShards({cwd: here, artifacts: ['shards']})
    const other = await mergeShards({cwd: inWorkers, artifacts: ['shards'], parallelMinBytes: 1})
    expect(other.shards).to.deep.equal(one.shards)
    expect(other.summary.by_mode).to.deep.equal(one.summary.by_mode)
    expect(other.summary.by_provider).to.deep.equal(one.summary.by_provider)
    expect(other.exit_code).to.equal(one.exit_code)
    expect(await merged(inWorkers)).to.deep.equal(await merged(here))
  })

  it('builds summary.html’s run index as it merges: the index and traces report builds from the merged file', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const headers = [1, 2, 3].map((index) => header(index, 3))
    for (const h of headers) await writeShard(path.join(dir, 'shards'), h)
    // A trace the shard lost: linked by neither.
    const lost = rowsOf(headers[1]!)[0]!.trace!
    await rm(path.join(dir, 'shards', lost))
    const block = (html: string, id: string) =>
      new RegExp(`<script type="[^"]+" id="${id}"[^>]*>([\\s\\S]*?)</script>`).exec(html)![1]!
    for (const parallelMinBytes of [1, Infinity]) {
      await rm(path.join(dir, 'results'), {recursive: true, force: true})
      await mergeShards({cwd: dir, artifacts: ['shards'], parallelMinBytes})
      const reportDir = path.join(dir, 'reports', RUN)
      const html = await readFile(path.join(reportDir, 'summary.html'), 'utf8')
      const reread = await buildRunIndex([path.join(dir, 'results', `${RUN}.jsonl`)], reportDir, dir)
      expect(block(html, 'ghxb-runs')).to.equal(await encodeRunIndex(reread.index))
      expect(JSON.parse(block(html, 'ghxb-traces'))).to.deep.equal((await embedTraces(reread)).traces)
      const index = JSON.parse(gunzipSync(Buffer.from(block(html, 'ghxb-runs'), 'base64')).toString('utf8')) as {
        count: number
        trace_dirs: string[]
        trace_paths: string[]
        columns: {trace: number[]}
      }
      // Every trace but the lost one, by the merged run's trace folder: no path of its own per row.
      expect(index.count).to.equal(headers.flatMap(rowsOf).length)
      expect(index.trace_dirs).to.deep.equal([`../../results/${RUN}/traces`])
      expect(index.trace_paths).to.deep.equal([])
      expect(index.columns.trace.filter((code) => code === 0)).to.have.length(1)
    }
  })

  it('refuses a row of a block its shard does not own, found in a worker, as bad input naming the shard', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const [first, second] = [header(1, 2), header(2, 2)]
    await writeShard(path.join(dir, 'shards'), second)
    await writeShard(path.join(dir, 'shards'), first, [...rowsOf(first), rowsOf(second)[0]!])
    const error = await mergeShards({cwd: dir, artifacts: ['shards'], parallelMinBytes: 1}).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(BadInputError)
    const [diagnostic] = (error as BadInputError).diagnostics
    expect(diagnostic?.file).to.include(shardRecordName(RUN, first.shard))
    expect(diagnostic?.message).to.include('which is not shard 1/2’s')
    // Nothing is left behind: no results file, no part of one.
    expect(await readdir(path.join(dir, 'results')).catch(() => [])).to.deep.equal([])
  })
})
