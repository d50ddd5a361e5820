// `ghx-bench report` and `ghx-bench gate` from the command line (in-process), on the predecessors' published
// data. Their exit codes through the bin: test/e2e/bin.test.ts.
import {mkdir, mkdtemp, readdir, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {runComparisonSchema} from '../../src/report/baseline-compare.js'
import {gateSchema, reportSchema} from '../../src/report/aggregate/report-schema.js'
import type {Row} from '../../src/results/row-schema.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {makeRow} from '../support/rows.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'

const DATASETS = sharedPath('datasets')
const ROUTER = path.join(DATASETS, 'ghx-router-codex-5.3')
const EVAL = path.join(DATASETS, 'ghx-eval-2026-03')

async function outDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'ghx-bench-report-'))
}

const jsonl = (rows: Row[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

/** A project whose results_dir holds run-1 and run-2 of a-001 and b-001 under agent_direct and ghx. */
async function projectWithTwoRuns(): Promise<string> {
  const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
  const rows = (runId: string, ghxTokens: number, ghxPasses: number): Row[] =>
    ['a-001', 'b-001'].flatMap((scenario) =>
      [1, 2, 3].flatMap((i) => [
        makeRow({run_id: runId, scenario_id: scenario, mode: 'agent_direct', iteration: i, activeTokens: 1000}),
        makeRow({
          run_id: runId,
          scenario_id: scenario,
          mode: 'ghx',
          iteration: i,
          activeTokens: ghxTokens,
          success: i <= ghxPasses,
        }),
      ]),
    )
  await mkdir(path.join(dir, 'results'))
  await writeFile(path.join(dir, 'results', 'run-1.jsonl'), jsonl(rows('run-1', 500, 3)))
  await writeFile(path.join(dir, 'results', 'run-2.jsonl'), jsonl(rows('run-2', 800, 2)))
  return dir
}

describe('ghx-bench report and gate (CLI)', () => {
  it('reports the ghx-router dataset: markdown and schema-valid JSON', async function () {
    skipWithoutShared(this, DATASETS)
    const out = await outDir()
    const result = await runCliInProcess(['report', '--input', ROUTER, '--out', out, '--resamples', '2000'])
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('40 rows: agent_direct: 20 runs, success 100.0%; ghx: 20 runs, success 100.0%')
    const report = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as {
      modes: Record<string, {median_tokens_active: number}>
    }
    expect(compileSchema(reportSchema)(report)).to.equal(true)
    expect(report.modes.agent_direct!.median_tokens_active).to.equal(909.5)
    const markdown = await readFile(path.join(out, 'summary.md'), 'utf8')
    expect(markdown).to.include('## `ghx` against `agent_direct`')
    // The suite effect (geometric mean over scenarios) with its interval, then the predecessors' median over scenarios, 27.5%.
    expect(markdown).to.match(/\| active tokens reduction % \| [\d.]+ \[[^\]]+\] \| 27\.5 \(worst /)
  })

  it('reports the ghx eval dataset from its folder, counting duplicated rows once, and appends to $GITHUB_STEP_SUMMARY', async function () {
    skipWithoutShared(this, DATASETS)
    const out = await outDir()
    const summaryFile = path.join(out, 'step-summary.md')
    const result = await runCliInProcess(
      ['report', '--input', EVAL, '--out', out, '--format', 'json', '--resamples', '500'],
      {env: {GITHUB_STEP_SUMMARY: summaryFile}},
    )
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stderr).to.include('30 row(s) already read from another input')
    expect(result.stdout).to.include(
      '30 rows: agent_direct: 10 runs, success 90.0%; ghx: 10 runs, success 100.0%; mcp: 10 runs, success 100.0%',
    )
    expect(await readFile(summaryFile, 'utf8')).to.include('# ghx-bench report')
  })

  it('gates ghx-router’s data under the predecessors’ rule: FAIL, exit 1', async function () {
    skipWithoutShared(this, DATASETS)
    const out = await outDir()
    const result = await runCliInProcess([
      'gate',
      '--profile',
      'verify_pr',
      '--input',
      ROUTER,
      '--candidate',
      'ghx',
      '--decision',
      'point',
      '--out',
      out,
    ])
    expect(result.code).to.equal(1)
    expect(result.stdout).to.match(/FAIL\s+efficiency_tool_call_reduction\s+16\.7 >= 20\.0/)
    expect(result.stdout).to.match(/SKIPPED\s+efficiency_cost_reduction/)
    expect(result.stdout).to.include('verdict: FAIL (exit 1)')
    const gate = JSON.parse(await readFile(path.join(out, 'gate.json'), 'utf8')) as {override: string; verdict: string}
    expect(compileSchema(gateSchema)(gate)).to.equal(true)
    expect(gate).to.include({override: 'openai/gpt-5.3-codex', verdict: 'fail'})
    expect(await readFile(path.join(out, 'gate.md'), 'utf8')).to.include('# ghx-bench gate: verify_pr — ❌ fail')
  })

  it('is inconclusive (exit 3) under decision ci on the same data', async function () {
    skipWithoutShared(this, DATASETS)
    const result = await runCliInProcess([
      'gate',
      '--input',
      ROUTER,
      '--candidate',
      'ghx',
      '--out',
      await outDir(),
      '--resamples',
      '2000',
    ])
    expect(result.code).to.equal(3)
    expect(result.stdout).to.include('verdict: INCONCLUSIVE (exit 3)')
  })

  it('gates the ghx eval dataset, mcp against agent_direct, and prints JSON with --json', async function () {
    skipWithoutShared(this, DATASETS)
    const result = await runCliInProcess([
      'gate',
      '--input',
      path.join(EVAL, 'results.json'),
      '--candidate',
      'mcp',
      '--out',
      await outDir(),
      '--json',
      '--resamples',
      '1000',
    ])
    const gate = JSON.parse(result.stdout) as {checks: Array<{name: string; value: number}>; exit_code: number}
    expect(result.code).to.equal(gate.exit_code)
    expect(gate.checks.find((c) => c.name === 'reliability_success_rate_non_inferior')!.value).to.be.closeTo(10, 1e-9)
  })

  it('passes (exit 0) when the candidate clears every threshold', async () => {
    const dir = await outDir()
    const file = path.join(dir, 'rows.jsonl')
    const rows = []
    // Under decision ci a rate passes only when its Wilson interval clears the limit: 0 timeouts in 270 runs are at most 1.4% (limit 2%).
    for (const scenario of ['a-001', 'b-001', 'c-001']) {
      for (let i = 1; i <= 90; i++) {
        rows.push(
          makeRow({
            scenario_id: scenario,
            mode: 'agent_direct',
            iteration: i,
            activeTokens: 1000 + i,
            latency_ms_wall: 10_000 + i,
            latency_ms_agent: 9000 + i,
            tool_calls: {total: 10, failed: 0},
            cost_usd: 0.1,
          }),
        )
        rows.push(
          makeRow({
            scenario_id: scenario,
            mode: 'ghx',
            iteration: i,
            activeTokens: 500 + i,
            latency_ms_wall: 5000 + i,
            latency_ms_agent: 4500 + i,
            tool_calls: {total: 4, failed: 0},
            cost_usd: 0.05,
          }),
        )
      }
    }
    await writeFile(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const result = await runCliInProcess([
      'gate',
      '--input',
      file,
      '--candidate',
      'ghx',
      '--out',
      dir,
      '--resamples',
      '1000',
    ])
    expect(result.code, result.stdout + result.stderr).to.equal(0)
    expect(result.stdout).to.include('verdict: PASS (exit 0)')
  })

  it('refuses rows that are not comparable unless --allow-mixed, and bad input, with exit 2', async () => {
    const dir = await outDir()
    const file = path.join(dir, 'rows.jsonl')
    await writeFile(
      file,
      [
        makeRow({mode: 'agent_direct', scenario_id: 'a-001'}),
        makeRow({mode: 'ghx', scenario_id: 'a-001', model: 'openai/other'}),
        makeRow({mode: 'ghx', scenario_id: 'b-001', model: 'openai/other'}),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    )
    const refused = await runCliInProcess(['gate', '--input', file, '--candidate', 'ghx', '--out', dir])
    expect(refused.code).to.equal(2)
    expect(refused.stderr).to.include('not comparable: rows of different models: openai/gpt-5.3-codex, openai/other')
    expect(refused.stderr).to.include('not comparable: different scenarios: only agent_direct: none; only ghx: b-001')
    const allowed = await runCliInProcess([
      'gate',
      '--input',
      file,
      '--candidate',
      'ghx',
      '--out',
      dir,
      '--allow-mixed',
      '--resamples',
      '200',
    ])
    expect([0, 1, 3]).to.include(allowed.code)
    const unknownProfile = await runCliInProcess(['gate', '--input', file, '--profile', 'verify_prr'])
    expect(unknownProfile.code).to.equal(2)
    expect(unknownProfile.stderr).to.include('unknown profile "verify_prr" (did you mean "verify_pr"?)')
    const missing = await runCliInProcess(['report', '--input', path.join(dir, 'nope.jsonl')])
    expect(missing.code).to.equal(2)
    expect(missing.stderr).to.include('nope.jsonl error: no such file or folder')
  })

  it('names file:line for a broken results file', async () => {
    const dir = await outDir()
    const file = path.join(dir, 'rows.jsonl')
    await writeFile(file, JSON.stringify(makeRow({})) + '\nnot json\n' + JSON.stringify(makeRow({iteration: 2})) + '\n')
    const result = await runCliInProcess(['report', '--input', file, '--out', dir], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.match(/^rows\.jsonl:2:1 error: not JSON/)
  })

  it('explains failed runs in summary.md and gate.md, and writes junit.xml with --format junit', async function () {
    this.timeout(90_000)
    const dir = await projectWithTwoRuns()
    const report = await runCliInProcess(
      ['report', '--run-id', 'run-2', '--format', 'md,json,junit', '--resamples', '200'],
      {cwd: dir},
    )
    expect(report.code, report.stderr).to.equal(0)
    expect(report.stdout).to.include(`wrote ${path.join(dir, 'reports', 'run-2', 'junit.xml')}`)
    const markdown = await readFile(path.join(dir, 'reports', 'run-2', 'summary.md'), 'utf8')
    expect(markdown).to.include('❌ 2 of 12 runs failed (`ghx` 2)')
    expect(markdown).to.include('| a-001 | `ghx` | 1 of 3 | fail 1 | none 1 |')
    const xml = await readFile(path.join(dir, 'reports', 'run-2', 'junit.xml'), 'utf8')
    expect(xml).to.include(
      '<testcase name="a-001" classname="ghx" time="30.000">\n      <failure message="1 of 3 run(s) failed (fail 1): none ×1" type="none">run-2 #3: fail</failure>',
    )
    const gate = await runCliInProcess(['gate', '--run-id', 'run-2', '--candidate', 'ghx', '--resamples', '200'], {
      cwd: dir,
    })
    expect([1, 3]).to.include(gate.code)
    const gateMarkdown = await readFile(path.join(dir, 'reports', 'run-2', 'gate.md'), 'utf8')
    expect(gateMarkdown).to.include('| check | value | rule | 95% CI | MDE | verdict | detail |')
    expect(gateMarkdown).to.include('## Failed runs of `agent_direct` and `ghx`')
    expect(
      compileSchema(gateSchema)(JSON.parse(await readFile(path.join(dir, 'reports', 'run-2', 'gate.json'), 'utf8'))),
    ).to.equal(true)
  })

  it('compares with a previous run by run id or summary.json; exit 0 unless --fail-on-regression', async function () {
    this.timeout(90_000)
    const dir = await projectWithTwoRuns()
    const compared = await runCliInProcess(
      ['report', '--run-id', 'run-2', '--compare', 'run-1', '--resamples', '200'],
      {cwd: dir},
    )
    expect(compared.code, compared.stderr).to.equal(0)
    const regressions = /against run run-1: (\d+) regression\(s\) beyond tolerance \(10% \/ 5 points\)/.exec(
      compared.stdout,
    )
    expect(regressions, compared.stdout).to.not.equal(null)
    expect(compared.stdout).to.include('  regressed: ghx: success_rate 100 -> 66.7')
    expect(compared.stdout).to.include('  regressed: a-001 ghx: median_tokens_active 500 -> 800')
    const json = JSON.parse(await readFile(path.join(dir, 'reports', 'run-2', 'compare.json'), 'utf8')) as {
      regressions: number
    }
    expect(compileSchema(runComparisonSchema)(json)).to.equal(true)
    expect(json.regressions).to.equal(Number(regressions![1]))
    expect(await readFile(path.join(dir, 'reports', 'run-2', 'compare.md'), 'utf8')).to.include(
      '## Gate checks: `ghx` against `agent_direct`',
    )

    // A blessed baseline: run-1's summary.json, kept anywhere.
    expect(
      (await runCliInProcess(['report', '--run-id', 'run-1', '--out', 'baseline', '--resamples', '200'], {cwd: dir}))
        .code,
    ).to.equal(0)
    const failing = await runCliInProcess(
      [
        'report',
        '--run-id',
        'run-2',
        '--compare',
        'baseline/summary.json',
        '--fail-on-regression',
        '--resamples',
        '200',
      ],
      {cwd: dir},
    )
    expect(failing.code).to.equal(1)
    expect(failing.stdout).to.include(`against baseline/summary.json: ${json.regressions} regression(s)`)
    const same = await runCliInProcess(
      ['report', '--run-id', 'run-1', '--compare', 'baseline', '--fail-on-regression', '--resamples', '200'],
      {cwd: dir},
    )
    expect(same.code, same.stdout + same.stderr).to.equal(0)
    expect(same.stdout).to.include('no regression beyond tolerance')

    const missing = await runCliInProcess(['report', '--run-id', 'run-2', '--compare', 'nope/summary.json'], {cwd: dir})
    expect(missing.code).to.equal(2)
    expect(missing.stderr).to.include('--compare: no such file or folder')
    const gateFile = await runCliInProcess(
      ['gate', '--run-id', 'run-1', '--candidate', 'ghx', '--out', 'baseline', '--resamples', '200'],
      {cwd: dir},
    )
    expect(gateFile.code).to.be.oneOf([0, 1, 3])
    const notSummary = await runCliInProcess(['report', '--run-id', 'run-2', '--compare', 'baseline/gate.json'], {
      cwd: dir,
    })
    expect(notSummary.code).to.equal(2)
    expect(notSummary.stderr).to.include('a gate.json holds no per-scenario figures')
  })

  it('compares two runs of one key run against run (paired flips); refuses runs whose keys differ unless --allow-incomparable', async function () {
    this.timeout(90_000)
    const dir = await projectWithTwoRuns()
    const key = {
      ghx_bench: '0.1.0',
      catalogue_sha256: 'c0ffee',
      suite: 'smoke',
      scenarios: ['a-001', 'b-001'],
      repetitions: 3,
      modes: {agent_direct: {tools: {}, options_sha256: 'x'}, ghx: {tools: {ghx: '0.8.0'}, options_sha256: 'y'}},
      providers: ['agent-loop'],
      plugins: {},
      model: 'openai/gpt-5.3-codex',
      target: 'sandbox',
      profile: null,
      seed: 1,
    }
    const runJson = (runId: string, changes: Partial<typeof key> = {}) =>
      mkdir(path.join(dir, 'results', runId), {recursive: true}).then(() =>
        writeFile(
          path.join(dir, 'results', runId, 'run.json'),
          JSON.stringify({
            run_id: runId,
            suite: 'smoke',
            seed: 1,
            modes: ['agent_direct', 'ghx'],
            unavailable: [],
            not_applicable: [],
            key: {...key, ...changes},
          }),
        ),
      )
    await runJson('run-1')
    await runJson('run-2')
    const compare = (...extra: string[]) =>
      runCliInProcess(['report', '--run-id', 'run-2', '--compare', 'run-1', '--resamples', '200', ...extra], {cwd: dir})
    const same = await compare()
    expect(same.code, same.stderr).to.equal(0)
    // run-2's ghx failed its third iteration of both scenarios, which run-1 passed.
    expect(same.stdout).to.include(
      'run against run, paired by iteration: PASS->FAIL a-001 ghx, b-001 ghx; FAIL->PASS none; significant after Holm: none',
    )
    const json = JSON.parse(await readFile(path.join(dir, 'reports', 'run-2', 'compare.json'), 'utf8')) as {
      comparability: unknown
      run_flips: {pairs: Array<{scenario_id: string; mode: string; pass_to_fail: number[]; p_value: number}>}
    }
    expect(compileSchema(runComparisonSchema)(json)).to.equal(true)
    expect(json.comparability).to.deep.equal({checked: true, differences: []})
    expect(json.run_flips.pairs.find((p) => p.scenario_id === 'a-001' && p.mode === 'ghx')).to.deep.include({
      pass_to_fail: [3],
      p_value: 1,
    })
    expect(await readFile(path.join(dir, 'reports', 'run-2', 'compare.md'), 'utf8')).to.include(
      '| a-001 (`ghx`, agent-loop) | 3 | 3 | – | 1.000 | 1.000 |',
    )

    await runJson('run-2', {model: 'openai/gpt-6', seed: 2})
    const refused = await compare()
    expect(refused.code).to.equal(2)
    expect(refused.stderr).to.include('the runs are not comparable')
    expect(refused.stderr).to.include('before vs now: model "openai/gpt-5.3-codex" vs "openai/gpt-6"')
    expect(refused.stderr).to.include('before vs now: seed 1 vs 2')
    const allowed = await compare('--allow-incomparable')
    expect(allowed.code, allowed.stderr).to.equal(0)
    expect(allowed.stderr).to.include('not comparable (compared under --allow-incomparable): before vs now: model')
    const allowedJson = JSON.parse(await readFile(path.join(dir, 'reports', 'run-2', 'compare.json'), 'utf8')) as {
      comparability: {checked: boolean; differences: string[]}
    }
    expect(allowedJson.comparability.differences).to.have.length(2)
  })

  it('after regrade, the report and the gate over the run id or the results folder use the re-graded rows', async function () {
    this.timeout(90_000)
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    const issue = {labels: ['bench-fixture', 'bench-seed:x', 'enhancement']}
    // Judged at run time with an older condition (the seed label not allowed): a false failure regrade corrects.
    const judgedWrongly = (mode: string, iteration: number) =>
      makeRow({
        scenario_id: 'issue-triage-comment-wf-001',
        scenario_type: 'workflow',
        mode,
        iteration,
        success: false,
        outcome: 'fail',
        error: {type: 'checkpoint_failed', message: 'checkpoints failed: triage_labels_removed'},
        variables: {owner: 'o', repo: 'r', issue_number: 1},
        checkpoints: [
          {
            name: 'comment_added',
            task: 'issue.comments.list',
            passed: true,
            result: [{body: 'Triaged — tracking as enhancement.'}],
          },
          {name: 'enhancement_added', task: 'issue.view', passed: true, result: issue},
          {name: 'triage_labels_removed', task: 'issue.view', passed: false, result: issue},
        ],
      })
    const rows = [1, 2, 3].flatMap((i) => [
      judgedWrongly('agent_direct', i),
      makeRow({scenario_id: 'issue-triage-comment-wf-001', scenario_type: 'workflow', mode: 'ghx', iteration: i}),
    ])
    await mkdir(path.join(dir, 'results'))
    await writeFile(path.join(dir, 'results', 'run-1.jsonl'), jsonl(rows))

    const before = await runCliInProcess(['report', '--run-id', 'run-1', '--json', '--resamples', '200'], {cwd: dir})
    expect(
      (JSON.parse(before.stdout) as {modes: Record<string, {success_rate: number}>}).modes.agent_direct!.success_rate,
    ).to.equal(0)
    const regraded = await runCliInProcess(['regrade', '--run-id', 'run-1'], {cwd: dir})
    expect(regraded.code, regraded.stderr).to.equal(0)
    expect(regraded.stdout).to.include('3 verdict(s) changed')
    expect(regraded.stdout).to.include(`wrote ${path.join('results', 'run-1.regraded.jsonl')}`)
    expect((await readdir(path.join(dir, 'results'))).sort()).to.deep.equal(['run-1.jsonl', 'run-1.regraded.jsonl'])

    for (const selection of [['--run-id', 'run-1'], ['--input', 'results'], []]) {
      const after = await runCliInProcess(['report', ...selection, '--json', '--resamples', '200'], {cwd: dir})
      expect(after.code, after.stderr).to.equal(0)
      const report = JSON.parse(after.stdout) as {
        rows: number
        modes: Record<string, {success_rate: number; runs: number}>
        warnings: string[]
        run_ids: string[]
      }
      expect(report.rows, selection.join(' ')).to.equal(6)
      expect(report.run_ids).to.deep.equal(['run-1'])
      expect(report.modes.agent_direct).to.deep.include({runs: 3, success_rate: 100})
      expect(report.warnings).to.include(
        `${path.join('results', 'run-1.jsonl')}: 6 row(s) superseded by their re-graded rows in ${path.join('results', 'run-1.regraded.jsonl')}`,
      )
    }
    const gate = await runCliInProcess(
      ['gate', '--run-id', 'run-1', '--candidate', 'ghx', '--decision', 'point', '--json', '--resamples', '200'],
      {cwd: dir},
    )
    const checks = (JSON.parse(gate.stdout) as {checks: Array<{name: string; value: number}>}).checks
    expect(checks.find((c) => c.name === 'reliability_success_rate_non_inferior')!.value).to.equal(0)
    // A file named on its own is read as it is: the original verdicts.
    const original = await runCliInProcess(
      ['report', '--input', path.join('results', 'run-1.jsonl'), '--json', '--resamples', '200'],
      {cwd: dir},
    )
    expect(
      (JSON.parse(original.stdout) as {modes: Record<string, {success_rate: number}>}).modes.agent_direct!.success_rate,
    ).to.equal(0)
    // Re-grading again replaces the re-graded file, from the original rows.
    expect((await runCliInProcess(['regrade', '--run-id', 'run-1'], {cwd: dir})).code).to.equal(0)
    expect((await readdir(path.join(dir, 'results'))).sort()).to.deep.equal(['run-1.jsonl', 'run-1.regraded.jsonl'])
  })
})

// Issue 27, items 1 and 2: bad input is exit 2 with file:line(:col), never a pass.
describe('ghx-bench gate: no false pass from bad input (CLI)', () => {
  /** Three scenarios with a clear ghx advantage, `iterations` runs each per mode. */
  const clearWin = (iterations: number): Row[] =>
    ['a-001', 'b-001', 'c-001'].flatMap((scenario) =>
      Array.from({length: iterations}, (_, n) => [
        makeRow({
          scenario_id: scenario,
          mode: 'agent_direct',
          iteration: n + 1,
          activeTokens: 1000 + n,
          latency_ms_wall: 10_000 + n,
          latency_ms_agent: 9000 + n,
          tool_calls: {total: 10, failed: 0},
          cost_usd: 0.1,
        }),
        makeRow({
          scenario_id: scenario,
          mode: 'ghx',
          iteration: n + 1,
          activeTokens: 500 + n,
          latency_ms_wall: 5000 + n,
          latency_ms_agent: 4500 + n,
          tool_calls: {total: 4, failed: 0},
          cost_usd: 0.05,
        }),
      ]).flat(),
    )

  it('refuses a project profile with a duplicate key (exit 2 at file:line:col) instead of gating with the built-in of its name', async () => {
    const builtIn = await readFile(path.join(PROJECT_ROOT, 'suites', 'profiles', 'verify_pr.yml'), 'utf8')
    // The project's verify_pr asks for a 60% token reduction: these rows (about 50%) fail it, and pass the built-in's 15%.
    const strict = builtIn.replace(/min_tokens_active_reduction_pct: \d+/g, 'min_tokens_active_reduction_pct: 60')
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'suites_dir: suites\n',
      'suites/profiles/verify_pr.yml': strict,
      'rows.jsonl': jsonl(clearWin(90)),
    })
    const gate = ['gate', '--input', 'rows.jsonl', '--candidate', 'ghx', '--out', 'out', '--resamples', '500']
    const strictGate = await runCliInProcess(gate, {cwd: dir})
    expect(strictGate.code, strictGate.stdout + strictGate.stderr).to.equal(1)
    // The repro of the issue: a duplicate key appended.
    await writeFile(path.join(dir, 'suites', 'profiles', 'verify_pr.yml'), strict + 'min_samples: 3\n')
    const broken = await runCliInProcess(gate, {cwd: dir})
    expect(broken.code, broken.stdout + broken.stderr).to.equal(2)
    expect(broken.stderr).to.match(
      new RegExp(`^suites/profiles/verify_pr\\.yml:${strict.split('\n').length}:1 error: YAML syntax: .*unique`, 'm'),
    )
    expect(broken.stderr).to.not.match(/\n\s+at /)
    expect(broken.stdout).to.not.include('verdict')
  })

  it('refuses a results file that holds its rows twice (exit 2 naming the line of the repeat) instead of counting them twice', async () => {
    // Two runs a cell: too few for the efficiency checks (min_samples 3), so the gate fails on coverage; doubled, four would clear it.
    const once = jsonl(clearWin(2))
    const dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'r.jsonl': once,
      'doubled.jsonl': once + once,
    })
    const gate = (input: string) =>
      runCliInProcess(
        ['gate', '--input', input, '--candidate', 'ghx', '--decision', 'point', '--out', 'out', '--resamples', '200'],
        {cwd: dir},
      )
    const single = await gate('r.jsonl')
    expect(single.code, single.stdout + single.stderr).to.equal(1)
    const doubled = await gate('doubled.jsonl')
    expect(doubled.code, doubled.stdout + doubled.stderr).to.equal(2)
    const rows = once.trim().split('\n').length
    expect(doubled.stderr).to.include(
      `doubled.jsonl:${rows + 1}:1 error: this line repeats the run of line 1 (run_id "run-1", scenario "a-001", mode "agent_direct", provider "agent-loop", iteration 1)`,
    )
    expect(doubled.stdout).to.not.include('verdict')
    // The same rows in two files are counted once, with a warning: the verdict is the one file's.
    await mkdir(path.join(dir, 'copy'))
    await writeFile(path.join(dir, 'copy', 'r.jsonl'), once)
    const copies = await runCliInProcess(
      [
        'gate',
        '--input',
        'r.jsonl',
        '--input',
        'copy/r.jsonl',
        '--candidate',
        'ghx',
        '--decision',
        'point',
        '--out',
        'out',
        '--resamples',
        '200',
      ],
      {cwd: dir},
    )
    expect(copies.code, copies.stdout + copies.stderr).to.equal(1)
    expect(copies.stderr).to.include(
      `${rows} row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once`,
    )
  })
})
