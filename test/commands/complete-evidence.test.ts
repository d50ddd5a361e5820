// A verdict only on a complete, self-consistent run: the routes that gave a PASS where the truth is
// incomplete or failed (a shard judged alone, a run cut short, rows deleted, headers edited, a forged
// success, another model's thresholds, a merge beside a run), each through the CLI, in-process.
import {existsSync} from 'node:fs'
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {writeRunInfo, type RunInfo} from '../../src/results/run-info.js'
import {acquireRunLock} from '../../src/results/run-lock.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {sandboxConfig} from '../support/sandbox-project.js'
import {header, MODES, rowsOf, RUN, SCENARIOS, writeShard} from '../support/shard-files.js'

const project = () => makeProject({'.ghxbenchrc.yml': sandboxConfig()})
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!
const jsonl = (rows: Row[]) => rows.map((row) => JSON.stringify(row) + '\n').join('')

/** The whole run (every block of the plan, both modes), unsharded. */
const wholeRun = (): Row[] => rowsOf(header(1, 1))

/** The run's record as `run` writes it: results/<run>.jsonl and results/<run>/run.json with the plan. */
async function recordRun(dir: string, rows: Row[], info: Partial<RunInfo> = {}, runId = RUN): Promise<void> {
  const results = path.join(dir, 'results')
  await mkdir(results, {recursive: true})
  await writeFile(path.join(results, `${runId}.jsonl`), jsonl(rows.map((row) => ({...row, run_id: runId}))))
  await writeRunInfo(results, runId, {
    run_id: runId,
    suite: 'verify-pr',
    seed: 1,
    modes: MODES,
    providers: ['agent-loop'],
    unavailable: [],
    not_applicable: [],
    gate: {profile: 'verify_pr', baseline: 'agent_direct', candidate: 'ghx'},
    key: header(1, 1).key,
    suite_file: 'suites/verify-pr.yml',
    ...info,
  })
}

describe('a verdict only on complete, self-consistent evidence', function () {
  this.timeout(60_000)

  it('the whole run is judged: every planned run has its row', async () => {
    const dir = await project()
    await recordRun(dir, wholeRun())
    const result = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.be.oneOf([0, 1])
    expect(lastLine(result.stdout)).to.not.include('incomplete')
  })

  it('a shard’s file alone is part of a run: exit 3, naming the shard and merge (with and without --input)', async () => {
    const dir = await project()
    const file = await writeShard(path.join(dir, 'results'), header(1, 2))
    const given = await runCliInProcess(['gate', '--input', file], {cwd: dir})
    expect(given.code, given.stdout + given.stderr).to.equal(3)
    const [scenario] = header(2, 2).partition[1]![0]!.split('/')
    expect(lastLine(given.stdout)).to.match(
      /^verdict: INCONCLUSIVE \(exit 3\): incomplete: run nightly-7 lacks 12 of its 24 planned runs \(.+\): this is shard 1\/2 of run nightly-7: judge the run, not a shard, with `ghx-bench merge` of every shard's results$/,
    )
    expect(lastLine(given.stdout)).to.include(scenario)
    // Plain `gate` in the shard's project reads its newest results file: the shard.
    const newest = await runCliInProcess(['gate'], {cwd: dir})
    expect(newest.code).to.equal(3)
    expect(lastLine(newest.stdout)).to.include('this is shard 1/2 of run nightly-7')
    // The report says so too.
    const report = await runCliInProcess(['report', '--input', file], {cwd: dir})
    expect(report.code).to.equal(3)
    expect(await readFile(path.join(dir, 'reports', RUN, 'summary.md'), 'utf8')).to.include('this is shard 1/2')
  })

  it('a run cut short (Ctrl-C after 16 of 24 runs) is incomplete: exit 3, naming what is missing and how to resume', async () => {
    const dir = await project()
    await recordRun(dir, wholeRun().slice(0, 16), {
      stopped: {reason: 'interrupted', detail: 'stopped by an interrupt (Ctrl-C or a signal)'},
    })
    const result = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
    expect(result.code).to.equal(3)
    expect(lastLine(result.stdout)).to.match(
      /incomplete: run nightly-7 lacks 8 of its 24 planned runs \(.+, … \(8 in all\)\): the run is incomplete \(it was interrupted\): complete it with `ghx-bench run suites\/verify-pr.yml --run-id nightly-7` and the flags it was started with/,
    )
    const gate = JSON.parse(await readFile(path.join(dir, 'reports', RUN, 'gate.json'), 'utf8')) as {
      verdict: string
      exit_code: number
    }
    expect(gate).to.include({verdict: 'inconclusive', exit_code: 3})
  })

  it('rows deleted from the results file (a failing scenario’s) make the run incomplete against its plan', async () => {
    const dir = await project()
    const failing = SCENARIOS[1]!
    const rows = wholeRun().map((row) =>
      row.scenario_id === failing && row.mode === 'ghx' ? {...row, outcome: 'fail' as const, success: false} : row,
    )
    await recordRun(dir, rows)
    // Judged on the point values (as the predecessors did): the whole run fails on its success drop.
    const whole = await runCliInProcess(['gate', '--run-id', RUN, '--decision', 'point'], {cwd: dir})
    expect(whole.code, whole.stdout).to.equal(1)
    await writeFile(path.join(dir, 'results', `${RUN}.jsonl`), jsonl(rows.filter((row) => row.scenario_id !== failing)))
    // Without the failing scenario's rows the rest would pass: incomplete, never a pass.
    const edited = await runCliInProcess(['gate', '--run-id', RUN, '--decision', 'point'], {cwd: dir})
    expect(edited.code).to.equal(3)
    expect(lastLine(edited.stdout)).to.include(`lacks 6 of its 24 planned runs (${failing}/1 agent_direct`)
  })

  it('regrade of a run cut short re-grades and writes every row, and says the run is incomplete (exit 3)', async () => {
    const dir = await project()
    await recordRun(dir, wholeRun().slice(0, 20))
    const result = await runCliInProcess(['regrade', '--run-id', RUN], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.equal(3)
    expect(result.stderr).to.include('incomplete: run nightly-7 lacks 4 of its 24 planned runs')
    const written = await readFile(path.join(dir, 'results', `${RUN}.regraded.jsonl`), 'utf8')
    expect(written.trim().split('\n')).to.have.length(20)
  })

  it('flakes leaves a run cut short out of the ledger, naming what it lacks', async () => {
    const dir = await project()
    await recordRun(dir, wholeRun(), {}, 'night-1')
    await recordRun(dir, wholeRun().slice(0, 22), {}, 'night-2')
    const result = await runCliInProcess(['flakes', '--json'], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.equal(0)
    const ledger = JSON.parse(result.stdout) as {runs: string[]; left_out: Array<{run_id: string; reason: string}>}
    const cut = ledger.left_out.find((run) => run.run_id === 'night-2')
    expect(cut?.reason).to.match(/^incomplete: run night-2 lacks 2 of its 24 planned runs/)
    expect(ledger.runs).to.not.include('night-2')
  })

  it('a run.json that is not one ghx-bench wrote (an array, a plan of 1e9 repetitions, not JSON) is bad input naming it (exit 2)', async () => {
    for (const text of [
      '[]',
      JSON.stringify({
        run_id: RUN,
        modes: [],
        unavailable: [],
        not_applicable: [],
        key: {...header(1, 1).key, repetitions: 1e9},
      }),
      '{"run_id":',
    ]) {
      const dir = await project()
      await recordRun(dir, wholeRun())
      await writeFile(path.join(dir, 'results', RUN, 'run.json'), text)
      const result = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
      expect(result.code, result.stdout + result.stderr).to.equal(2)
      expect(result.stderr).to.match(/results\/nightly-7\/run\.json error: not a run\.json of ghx-bench: /)
      expect(result.stderr).to.not.match(/\n\s+at /)
    }
  })

  it('a run.json of another run beside the rows is no way around the plan: its runs are missing (exit 3)', async () => {
    const dir = await project()
    const failing = SCENARIOS[1]!
    // The failing scenario's rows gone, and the run.json beside them another run's.
    await recordRun(
      dir,
      wholeRun().filter((row) => row.scenario_id !== failing),
    )
    const info = JSON.parse(await readFile(path.join(dir, 'results', RUN, 'run.json'), 'utf8')) as RunInfo
    await writeFile(path.join(dir, 'results', RUN, 'run.json'), JSON.stringify({...info, run_id: 'another-run'}))
    const result = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.equal(3)
    expect(lastLine(result.stdout)).to.include(
      'run another-run (its run.json is beside these rows) has none of its planned runs among them',
    )
  })

  it('rows with no plan beside them are checked across modes, and the verdict says the plan is unknown', async () => {
    const dir = await project()
    const rows = wholeRun()
    await writeFile(path.join(dir, 'rows.jsonl'), jsonl(rows))
    const complete = await runCliInProcess(['gate', '--input', 'rows.jsonl'], {cwd: dir})
    expect(complete.code).to.be.oneOf([0, 1])
    expect(lastLine(complete.stdout)).to.include(
      `(the plan of run ${RUN} is unknown (no run.json with its plan beside the rows): completeness was checked across modes only)`,
    )
    // One mode's row of a block gone: the block lacks a mode the others have.
    const cut = rows.findIndex((row) => row.mode === 'ghx')
    await writeFile(path.join(dir, 'rows.jsonl'), jsonl(rows.filter((_, i) => i !== cut)))
    const partial = await runCliInProcess(['gate', '--input', 'rows.jsonl'], {cwd: dir})
    expect(partial.code).to.equal(3)
    expect(lastLine(partial.stdout)).to.include(
      `lacks 1 run(s) that its other modes or providers have (${rows[cut]!.scenario_id}/${rows[cut]!.iteration} ghx)`,
    )
  })

  it('merge recomputes the plan from the key: blocks taken out of every header (and their rows) are refused (exit 2)', async () => {
    const dir = await project()
    const taken = (h: ReturnType<typeof header>) => {
      h.partition = h.partition.map((blocks) => blocks.filter((block) => !block.startsWith(`${SCENARIOS[0]}/`)))
    }
    for (const index of [1, 2]) {
      const h = header(index, 2, taken)
      await writeShard(dir, h)
    }
    const result = await runCliInProcess(['merge', dir], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.equal(2)
    expect(result.stderr).to.include(
      `the shards' partition is not the plan of their key (4 scenarios x 3 repetitions): 3 block(s) of the plan are in no shard (${SCENARIOS[0]}/1, ${SCENARIOS[0]}/2, ${SCENARIOS[0]}/3)`,
    )
    expect(existsSync(path.join(dir, 'results', `${RUN}.jsonl`))).to.equal(false)
  })

  it('a merged run keeps its plan: its rows cut afterwards are incomplete for gate', async () => {
    const dir = await project()
    await writeShard(dir, header(1, 2))
    await writeShard(dir, header(2, 2))
    expect((await runCliInProcess(['merge', dir], {cwd: dir})).code).to.not.equal(3)
    const file = path.join(dir, 'results', `${RUN}.jsonl`)
    const lines = (await readFile(file, 'utf8')).trim().split('\n')
    await writeFile(file, lines.slice(2).join('\n') + '\n')
    const gate = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
    expect(gate.code).to.equal(3)
    expect(lastLine(gate.stdout)).to.include('lacks 2 of its 24 planned runs')
  })

  it('a forged success (success true on a failed outcome, a pass whose checkpoint failed) is refused, naming file:line (exit 2)', async () => {
    for (const forge of [
      (row: Row): Row => ({...row, outcome: 'fail', success: true}),
      (row: Row): Row => ({...row, checkpoints: [{name: 'pr_merged', passed: false, expected: true, actual: false}]}),
      (row: Row): Row => ({...row, outcome: 'timeout', success: true}),
    ]) {
      const dir = await project()
      const rows = wholeRun()
      rows[4] = forge(rows[4]!)
      await recordRun(dir, rows)
      const result = await runCliInProcess(['gate', '--run-id', RUN], {cwd: dir})
      expect(result.code, result.stdout + result.stderr).to.equal(2)
      expect(result.stderr).to.match(/results\/nightly-7\.jsonl:5:1 error: this row contradicts itself: /)
      expect(result.stderr).to.not.match(/\n\s+at /)
    }
    // In a shard too: merge refuses it.
    const dir = await project()
    const first = header(1, 2)
    const rows = rowsOf(first)
    rows[0] = {...rows[0]!, outcome: 'fail', success: true}
    await writeShard(dir, first, rows)
    await writeShard(dir, header(2, 2))
    const merged = await runCliInProcess(['merge', dir], {cwd: dir})
    expect(merged.code).to.equal(2)
    expect(merged.stderr).to.include('this row contradicts itself: success is true but the outcome is "fail"')
  })

  it('another input giving a run with the other outcome is refused, whatever the files’ order (exit 2)', async () => {
    const dir = await project()
    const rows = wholeRun().map((row, i) =>
      i === 3 ? {...row, outcome: 'fail' as const, success: false, output_valid: false} : row,
    )
    await recordRun(dir, rows)
    // Named to be read first: its copy of the failed run would otherwise be kept and the failure dropped.
    await writeFile(path.join(dir, 'a-first.jsonl'), jsonl([wholeRun()[3]!]))
    const result = await runCliInProcess(['gate', '--input', 'a-first.jsonl', '--run-id', RUN], {cwd: dir})
    expect(result.code, result.stdout + result.stderr).to.equal(2)
    expect(result.stderr).to.match(
      /results\/nightly-7\.jsonl:4:1 error: this row gives run_id "nightly-7", .* as not passed, and an earlier input gives the same run as passed/,
    )
    // An agreeing copy (results.json beside results.csv of one run) is still counted once.
    await writeFile(path.join(dir, 'a-first.jsonl'), jsonl([rows[3]!]))
    const agreeing = await runCliInProcess(['gate', '--input', 'a-first.jsonl', '--run-id', RUN], {cwd: dir})
    expect(agreeing.code, agreeing.stderr).to.be.oneOf([0, 1])
  })

  it('--model applies a model’s thresholds to its own rows only: a model the rows do not hold is refused (exit 2)', async () => {
    const dir = await project()
    await recordRun(dir, wholeRun())
    const other = await runCliInProcess(['gate', '--run-id', RUN, '--model', 'openai/gpt-5'], {cwd: dir})
    expect(other.code).to.equal(2)
    expect(other.stderr).to.include(
      'no rows of model "openai/gpt-5" (models in the rows: ghx-bench/oracle): a model\'s thresholds apply to its own rows only',
    )
    const own = await runCliInProcess(['gate', '--run-id', RUN, '--model', 'ghx-bench/oracle'], {cwd: dir})
    expect(own.code).to.be.oneOf([0, 1])
  })

  it('merge takes the run id’s lock: a run of the same id writing now refuses it (exit 2), and it leaves nothing', async () => {
    const dir = await project()
    await writeShard(dir, header(1, 2))
    await writeShard(dir, header(2, 2))
    const results = path.join(dir, 'results')
    const lock = acquireRunLock(results, RUN)
    try {
      const result = await runCliInProcess(['merge', dir], {cwd: dir})
      expect(result.code).to.equal(2)
      expect(result.stderr).to.include(`run id "${RUN}" is in use by process ${process.pid}`)
      expect(existsSync(path.join(results, `${RUN}.jsonl`))).to.equal(false)
    } finally {
      lock.release()
    }
    expect((await runCliInProcess(['merge', dir], {cwd: dir})).code).to.not.equal(2)
  })
})
