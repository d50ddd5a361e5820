// Recording the oracle's counts from a run: only a run of the scripted oracle on the sandbox is taken (another
// model's or live GitHub's spend is not the oracle's), and the recording reads back as the cells' medians.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {recordOracleCounts} from '../../src/app/oracle-counts.js'
import {openProject} from '../../src/app/project.js'
import {writeRunInfo} from '../../src/results/run-info.js'
import {readOracleCounts} from '../../src/runner/oracle-counts.js'
import type {ComparabilityKey} from '../../src/schemas/shard-header.js'
import {isBadInputError} from '../../src/shared/diagnostics.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {makeRow} from '../support/rows.js'

const key = (model: string, target: ComparabilityKey['target']): ComparabilityKey => ({
  ghx_bench: '0.1.0',
  catalogue_sha256: 'c0ffee',
  suite: 'smoke',
  scenarios: ['issue-view-001'],
  repetitions: 3,
  modes: {agent_direct: {tools: {}, options_sha256: 'e3b0'}},
  providers: ['agent-loop'],
  plugins: {},
  model,
  target,
  profile: null,
  seed: 1,
})

async function storeRun(dir: string, runId: string, runKey: ComparabilityKey): Promise<string> {
  await writeRunInfo(dir, runId, {
    run_id: runId,
    suite: 'smoke',
    seed: 1,
    modes: ['agent_direct'],
    unavailable: [],
    not_applicable: [],
    key: runKey,
  })
  const file = path.join(dir, `${runId}.jsonl`)
  const row = (iteration: number, input: number) =>
    makeRow({
      run_id: runId,
      scenario_id: 'issue-view-001',
      mode: 'agent_direct',
      iteration,
      model: runKey.model,
      tokens: {input, output: 10, reasoning: 0, cache_read: 0, cache_write: 0, total: input + 10, active: input + 10},
    })
  await writeFile(file, [row(1, 100), row(2, 300), row(3, 200)].map((r) => JSON.stringify(r) + '\n').join(''))
  return file
}

describe('recording the oracle’s counts', () => {
  it('takes a run of the scripted oracle on the sandbox, and refuses any other as bad input', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oracle-counts-'))
    const out = path.join(dir, 'oracle-counts.json')
    const oracle = await storeRun(dir, 'oracle-run', key('ghx-bench/oracle', 'sandbox'))
    expect(await recordOracleCounts(oracle, {cwd: PROJECT_ROOT, env: {}, file: out})).to.deep.equal({
      file: out,
      cells: 1,
      runs: 3,
    })
    const {catalogue} = await openProject({cwd: PROJECT_ROOT, env: {}})
    const recorded = (await readOracleCounts([catalogue.scenarios.get('issue-view-001')!.value], out))!
    expect(recorded.recorded).to.include({run_id: 'oracle-run', ghx_bench: '0.1.0'})
    expect(recorded.cells.get('issue-view-001/agent_direct/agent-loop')).to.deep.include({total: 210})
    for (const [runId, runKey] of [
      ['real-model', key('openai/gpt-5', 'sandbox')],
      ['live', key('ghx-bench/oracle', 'live')],
    ] as const) {
      const file = await storeRun(dir, runId, runKey)
      const refused = await recordOracleCounts(file, {cwd: PROJECT_ROOT, env: {}, file: out}).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(isBadInputError(refused), runId).to.equal(true)
      expect((refused as Error).message).to.match(/not a run of the scripted oracle on the sandbox/)
    }
  })
})
