// `ghx-bench run` never spends runs on a gate that cannot be computed (issue 42): a mode the suite's gate
// needs that cannot run here stops the run before its first run (exit 2, naming the mode, why and the fix),
// --dry-run and --until-decided too; --no-gate records the rows with no gate verdict, the mode left out.
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {runCliInProcess} from '../support/cli-in-process.js'
import {project, rowsOf} from '../support/reliability.js'

/** A suite of repo-view-001 whose gate compares ghx (here: a ghx that does not exist) with agent_direct. */
const GATED = [
  'name: gated',
  'scenarios: {ids: [repo-view-001]}',
  `modes: [agent_direct, {name: ghx, options: {ghx: /nonexistent/ghx}}, mcp]`,
  'repetitions: 1',
  'seed: 1',
  'gate: {profile: verify_pr, baseline: agent_direct, candidate: ghx}',
  '',
].join('\n')

const STOPPED =
  /^catalogue\/gated\.yml error: gate verify_pr \(ghx against agent_direct\) needs its candidate mode ghx, which cannot run here: ghx not found.*\. Stopped before the first run, nothing run: make ghx available \(install it, or fix its options\), or pass --no-gate to record the rows of the modes that can run, with no gate verdict$/

/** What the run left in results/ and reports/: no rows, no run.json, no report. */
function written(dir: string): string[] {
  const under = (folder: string) =>
    existsSync(path.join(dir, folder))
      ? readdirSync(path.join(dir, folder), {recursive: true, encoding: 'utf8'}).map((f) => path.join(folder, f))
      : []
  return [...under('results'), ...under('reports')].filter((f) => !f.endsWith('.lock'))
}

describe('ghx-bench run: a gate whose mode cannot run here', function () {
  this.timeout(120_000)

  it('stops before the first run with exit 2, naming the mode, why and the fix; nothing is written', async () => {
    const dir = await project({'catalogue/gated.yml': GATED})
    const result = await runCliInProcess(['run', 'catalogue/gated.yml', '--run-id', 'gated'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(result.code, result.stderr + result.stdout).to.equal(2)
    expect(result.stderr.trim()).to.match(STOPPED)
    // One message: no verdict line, no run started.
    expect(result.stdout).to.not.match(/verdict:|recorded/)
    expect(written(dir).filter((f) => f.endsWith('.jsonl') || f.endsWith('run.json'))).to.deep.equal([])
    expect(existsSync(path.join(dir, 'reports'))).to.equal(false)
    // --json: the same message, as the error document, exit 2.
    const json = await runCliInProcess(['run', 'catalogue/gated.yml', '--run-id', 'gated', '--json'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(json.code).to.equal(2)
    const error = JSON.parse(json.stdout) as {ok: boolean; diagnostics: Array<{file: string; message: string}>}
    expect(error.ok).to.equal(false)
    expect(error.diagnostics).to.have.length(1)
    expect(`${error.diagnostics[0]!.file} error: ${error.diagnostics[0]!.message}`).to.match(STOPPED)
    expect(written(dir).filter((f) => f.endsWith('.jsonl'))).to.deep.equal([])
  })

  it('--dry-run, --budget and --until-decided say the same and exit 2; --no-report judges no gate and plans', async () => {
    const dir = await project({'catalogue/gated.yml': GATED})
    const dry = await runCliInProcess(['run', 'catalogue/gated.yml', '--dry-run'], {cwd: dir})
    expect(dry.code, dry.stderr).to.equal(2)
    expect(dry.stderr.trim()).to.match(
      /needs its candidate mode ghx, which cannot run here: ghx not found.*\. A run would stop here, before its first run: make ghx available \(install it, or fix its options\), or pass --no-gate /,
    )
    expect(dry.stdout).to.equal('')
    for (const flags of [
      ['--until-decided', '--dry-run'],
      ['--budget', 'tokens=2000000', '--dry-run'],
      ['--until-decided'],
    ]) {
      const result = await runCliInProcess(['run', 'catalogue/gated.yml', ...flags], {cwd: dir, env: {CI: '1'}})
      expect(result.code, flags.join(' ')).to.equal(2)
      expect(result.stderr, flags.join(' ')).to.match(/needs its candidate mode ghx, which cannot run here/)
    }
    // The plan with --no-gate (or --no-report, which judges no gate either): the mode left out, said, exit 0.
    for (const flag of ['--no-gate', '--no-report']) {
      const planned = await runCliInProcess(['run', 'catalogue/gated.yml', '--dry-run', flag, '--json'], {cwd: dir})
      expect(planned.code, planned.stderr).to.equal(0)
      expect(planned.stderr).to.match(/^mode ghx left out: ghx not found/m)
      const plan = JSON.parse(planned.stdout) as {modes: string[]; runs: unknown[]; gate: unknown}
      expect(plan.modes).to.deep.equal(['agent_direct', 'mcp'])
      expect(plan.runs).to.have.length(2)
      if (flag === '--no-gate') expect(plan.gate).to.equal(null)
    }
    // --until-decided decides a gate: with --no-gate there is none to decide.
    const undecidable = await runCliInProcess(['run', 'catalogue/gated.yml', '--until-decided', '--no-gate'], {
      cwd: dir,
    })
    expect(undecidable.code).to.equal(2)
    expect(undecidable.stderr.trim()).to.equal('--no-gate error: --until-decided judges the gate after every look')
    expect(written(dir)).to.deep.equal([])
  })

  it('--no-gate records the rows and the report with no gate verdict: the mode left out, the runs decide (exit 0)', async () => {
    const dir = await project({'catalogue/gated.yml': GATED})
    const result = await runCliInProcess(['run', 'catalogue/gated.yml', '--run-id', 'ungated', '--no-gate'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(result.code, result.stderr + result.stdout).to.equal(0)
    expect(result.stderr).to.match(/^mode ghx left out: ghx not found/m)
    const lines = result.stdout.trim().split('\n')
    expect(lines.slice(-2)).to.deep.equal([
      '--no-gate: no gate judged; the runs decide',
      'verdict: PASS (exit 0): no gate: all 2 runs passed',
    ])
    expect(
      rowsOf(dir, 'ungated')
        .map((r) => r.mode)
        .sort(),
    ).to.deep.equal(['agent_direct', 'mcp'])
    expect(existsSync(path.join(dir, 'reports', 'ungated', 'summary.md'))).to.equal(true)
    expect(existsSync(path.join(dir, 'reports', 'ungated', 'gate.json'))).to.equal(false)
    // run.json records the gate as not judged, so `report` over the rows says what run said.
    const info = JSON.parse(readFileSync(path.join(dir, 'results', 'ungated', 'run.json'), 'utf8')) as {
      gate: unknown
      unavailable: Array<{mode: string}>
    }
    expect(info.gate).to.deep.equal({profile: null, baseline: 'agent_direct', candidate: 'ghx'})
    expect(info.unavailable.map((u) => u.mode)).to.deep.equal(['ghx'])
    const summary = path.join(dir, 'reports', 'ungated', 'summary.md')
    const headline = readFileSync(summary, 'utf8').split('\n')[2]
    expect(headline).to.match(/\(exit 0\): no gate: all 2 runs passed$/)
    const report = await runCliInProcess(['report', '--run-id', 'ungated'], {cwd: dir})
    expect(report.code, report.stderr).to.equal(0)
    expect(readFileSync(summary, 'utf8').split('\n')[2]).to.equal(headline)
  })

  it('a gate whose modes can run is unchanged; one of its modes not among the run’s (--mode) stops it too', async () => {
    const dir = await project({
      'catalogue/gated.yml': GATED.replace('candidate: ghx', 'candidate: mcp'),
    })
    // ghx cannot run here but the gate (mcp against agent_direct) does not need it: left out, as before.
    const planned = await runCliInProcess(['run', 'catalogue/gated.yml', '--dry-run', '--json'], {cwd: dir})
    expect(planned.code, planned.stderr).to.equal(0)
    expect(planned.stderr).to.match(/^mode ghx left out: ghx not found/m)
    expect((JSON.parse(planned.stdout) as {gate: unknown}).gate).to.deep.equal({
      profile: 'verify_pr',
      baseline: 'agent_direct',
      candidate: 'mcp',
    })
    const narrowed = await runCliInProcess(['run', 'catalogue/gated.yml', '--mode', 'agent_direct', '--dry-run'], {
      cwd: dir,
    })
    expect(narrowed.code).to.equal(2)
    expect(narrowed.stderr.trim()).to.match(
      /needs its candidate mode mcp, which is not among the run's modes \(agent_direct\)\. A run would stop here, before its first run: run it too \(--mode mcp, or the suite's modes\), or pass --no-gate /,
    )
  })
})

describe('ghx-bench run: a suite smaller than its gate needs', function () {
  this.timeout(120_000)

  it('says so at the start, with the planner’s figure, and runs as asked', async () => {
    const small = GATED.replace(/modes: .*\n/, 'modes: [agent_direct, mcp]\n').replace(
      'candidate: ghx',
      'candidate: mcp',
    )
    const dir = await project({'catalogue/small.yml': small})
    const result = await runCliInProcess(['run', 'catalogue/small.yml', '--dry-run'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr + result.stdout).to.equal(0)
    expect(result.stderr).to.match(
      /warning: suite gated \(1 scenarios × 1 repetitions\) is smaller than its gate verify_pr needs: a good candidate \(95% success, twice every efficiency threshold\) passes it 0% of the time by the planner; 80% takes .* \(ghx-bench plan\)/,
    )
  })
})
