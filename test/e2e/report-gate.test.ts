// `ghx-bench report` and `ghx-bench gate` from the command line, on the predecessors' published data.
import {mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {gateSchema, reportSchema} from '../../src/report/report-schema.js'
import {compileSchema} from '../../src/spec/schema-validator.js'
import {makeRow} from '../support/rows.js'
import {PROJECT_ROOT, runCli} from '../support/cli.js'

const DATASETS = path.resolve(PROJECT_ROOT, '..', 'shared', 'datasets')
const ROUTER = path.join(DATASETS, 'ghx-router-codex-5.3')
const EVAL = path.join(DATASETS, 'ghx-eval-2026-03')

async function outDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'ghx-bench-report-'))
}

describe('ghx-bench report and gate (CLI)', () => {
  it('reports the ghx-router dataset: markdown and schema-valid JSON', async () => {
    const out = await outDir()
    const result = await runCli(['report', '--input', ROUTER, '--out', out, '--resamples', '2000'])
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('40 rows: agent_direct: 20 runs, success 100.0%; ghx: 20 runs, success 100.0%')
    const report = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as {modes: Record<string, {median_tokens_active: number}>}
    expect(compileSchema(reportSchema)(report)).to.equal(true)
    expect(report.modes.agent_direct!.median_tokens_active).to.equal(909.5)
    const markdown = await readFile(path.join(out, 'summary.md'), 'utf8')
    expect(markdown).to.include('## `ghx` against `agent_direct`')
    expect(markdown).to.include('| active tokens reduction % | 27.5 [')
  })

  it('reports the ghx eval dataset from its folder, counting duplicated rows once, and appends to $GITHUB_STEP_SUMMARY', async () => {
    const out = await outDir()
    const summaryFile = path.join(out, 'step-summary.md')
    const result = await runCli(['report', '--input', EVAL, '--out', out, '--format', 'json', '--resamples', '500'], {env: {GITHUB_STEP_SUMMARY: summaryFile}})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stderr).to.include('30 row(s) already read from another input')
    expect(result.stdout).to.include('30 rows: agent_direct: 10 runs, success 90.0%; ghx: 10 runs, success 100.0%; mcp: 10 runs, success 100.0%')
    expect(await readFile(summaryFile, 'utf8')).to.include('# ghx-bench report')
  })

  it('gates ghx-router’s data under the predecessors’ rule: FAIL, exit 1', async () => {
    const out = await outDir()
    const result = await runCli(['gate', '--profile', 'verify_pr', '--input', ROUTER, '--candidate', 'ghx', '--decision', 'point', '--out', out])
    expect(result.code).to.equal(1)
    expect(result.stdout).to.match(/FAIL\s+efficiency_tool_call_reduction\s+16\.7 >= 20\.0/)
    expect(result.stdout).to.match(/SKIPPED\s+efficiency_cost_reduction/)
    expect(result.stdout).to.include('verdict: FAIL (exit 1)')
    const gate = JSON.parse(await readFile(path.join(out, 'gate.json'), 'utf8')) as {override: string; verdict: string}
    expect(compileSchema(gateSchema)(gate)).to.equal(true)
    expect(gate).to.include({override: 'openai/gpt-5.3-codex', verdict: 'fail'})
    expect(await readFile(path.join(out, 'gate.md'), 'utf8')).to.include('# ghx-bench gate: verify_pr — ❌ fail')
  })

  it('is inconclusive (exit 3) under decision ci on the same data', async () => {
    const result = await runCli(['gate', '--input', ROUTER, '--candidate', 'ghx', '--out', await outDir(), '--resamples', '2000'])
    expect(result.code).to.equal(3)
    expect(result.stdout).to.include('verdict: INCONCLUSIVE (exit 3)')
  })

  it('gates the ghx eval dataset, mcp against agent_direct, and prints JSON with --json', async () => {
    const result = await runCli(['gate', '--input', path.join(EVAL, 'results.json'), '--candidate', 'mcp', '--out', await outDir(), '--json', '--resamples', '1000'])
    const gate = JSON.parse(result.stdout) as {checks: Array<{name: string; value: number}>; exit_code: number}
    expect(result.code).to.equal(gate.exit_code)
    expect(gate.checks.find((c) => c.name === 'reliability_success_rate_non_inferior')!.value).to.be.closeTo(10, 1e-9)
  })

  it('passes (exit 0) when the candidate clears every threshold', async () => {
    const dir = await outDir()
    const file = path.join(dir, 'rows.jsonl')
    const rows = []
    for (const scenario of ['a-001', 'b-001', 'c-001']) {
      for (let i = 1; i <= 5; i++) {
        rows.push(makeRow({scenario_id: scenario, mode: 'agent_direct', iteration: i, activeTokens: 1000 + i, latency_ms_wall: 10_000 + i, tool_calls: {total: 10, failed: 0}, cost_usd: 0.1}))
        rows.push(makeRow({scenario_id: scenario, mode: 'ghx', iteration: i, activeTokens: 500 + i, latency_ms_wall: 5000 + i, tool_calls: {total: 4, failed: 0}, cost_usd: 0.05}))
      }
    }
    await writeFile(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const result = await runCli(['gate', '--input', file, '--candidate', 'ghx', '--out', dir, '--resamples', '1000'])
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
    const refused = await runCli(['gate', '--input', file, '--candidate', 'ghx', '--out', dir])
    expect(refused.code).to.equal(2)
    expect(refused.stderr).to.include('not comparable: rows of different models: openai/gpt-5.3-codex, openai/other')
    expect(refused.stderr).to.include('not comparable: different scenarios: only agent_direct: none; only ghx: b-001')
    const allowed = await runCli(['gate', '--input', file, '--candidate', 'ghx', '--out', dir, '--allow-mixed', '--resamples', '200'])
    expect([0, 1, 3]).to.include(allowed.code)
    const unknownProfile = await runCli(['gate', '--input', file, '--profile', 'verify_prr'])
    expect(unknownProfile.code).to.equal(2)
    expect(unknownProfile.stderr).to.include('unknown profile "verify_prr" (did you mean "verify_pr"?)')
    const missing = await runCli(['report', '--input', path.join(dir, 'nope.jsonl')])
    expect(missing.code).to.equal(2)
    expect(missing.stderr).to.include('nope.jsonl error: no such file or folder')
  })

  it('names file:line for a broken results file', async () => {
    const dir = await outDir()
    const file = path.join(dir, 'rows.jsonl')
    await writeFile(file, JSON.stringify(makeRow({})) + '\nnot json\n' + JSON.stringify(makeRow({iteration: 2})) + '\n')
    const result = await runCli(['report', '--input', file, '--out', dir], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.match(/^rows\.jsonl:2:1 error: not JSON/)
  })
})
