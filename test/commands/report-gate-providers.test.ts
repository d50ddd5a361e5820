// `report` and `gate` over rows of several providers (issue 28, item 4): a report and a gate per
// provider, never a figure of two providers' rows together; the gate's verdict is the worst of theirs.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {gateSchema, reportSchema, type GateDocument} from '../../src/report/aggregate/report-schema.js'
import type {Report} from '../../src/report/aggregate/summary.js'
import type {Row} from '../../src/results/row-schema.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'

const jsonl = (rows: Row[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

/** 3 scenarios x `iterations` of agent_direct and ghx under `provider`; ghx spends `ghxTokens` active tokens where agent_direct spends about 1000. */
const rowsOf = (provider: string, ghxTokens: number, iterations = 90): Row[] =>
  ['a-001', 'b-001', 'c-001'].flatMap((scenario) =>
    Array.from({length: iterations}, (_, n) => [
      makeRow({
        provider,
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
        provider,
        scenario_id: scenario,
        mode: 'ghx',
        iteration: n + 1,
        activeTokens: ghxTokens + n,
        latency_ms_wall: 5000 + n,
        latency_ms_agent: 4500 + n,
        tool_calls: {total: 4, failed: 0},
        cost_usd: 0.05,
      }),
    ]).flat(),
  )

describe('report and gate over rows of several providers (CLI)', function () {
  this.timeout(120_000)

  it('gates each provider alone: ghx wins under agent-loop and loses under claude-code, so the gate fails and says whose it is', async () => {
    // The same run id, scenarios, modes and iterations under both providers: two runs each, not a run given twice.
    const dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': jsonl([...rowsOf('agent-loop', 500), ...rowsOf('claude-code', 2000)]),
    })
    const result = await runCliInProcess(
      ['gate', '--input', 'rows.jsonl', '--candidate', 'ghx', '--out', 'out', '--resamples', '500'],
      {cwd: dir},
    )
    expect(result.code, result.stdout + result.stderr).to.equal(1)
    const gate = JSON.parse(await readFile(path.join(dir, 'out', 'gate.json'), 'utf8')) as GateDocument
    expect(compileSchema(gateSchema)(gate), JSON.stringify(compileSchema(gateSchema).errors)).to.equal(true)
    expect(gate.providers!.map((g) => [g.provider, g.verdict, g.rows])).to.deep.equal([
      ['agent-loop', 'pass', 540],
      ['claude-code', 'fail', 540],
    ])
    // Each provider's reduction is its own (about 50% and -100%): pooled, both would read about -25%.
    const reduction = (g: GateDocument) => g.comparison.efficiency.tokens_active_reduction_pct.value!
    expect(reduction(gate.providers![0]!)).to.be.within(45, 55)
    expect(reduction(gate.providers![1]!)).to.be.below(-80)
    expect(gate.providers![0]!.comparison.reliability.success_rate.runs).to.equal(270)
    // The top level is the deciding provider's gate; the verdict, the worst.
    expect(gate).to.include({provider: 'claude-code', verdict: 'fail', exit_code: 1, rows: 1080})
    expect(result.stdout).to.match(/provider agent-loop:\ngate verify_pr: ghx vs agent_direct[\s\S]*verdict: PASS/)
    expect(result.stdout).to.match(/One gate per provider[^\n]*\n/)
    expect(result.stdout.trim().split('\n').at(-1)).to.match(
      /^verdict: FAIL \(exit 1\): gate verify_pr, ghx against agent_direct: \d+ failed.* of \d+ checks \(the worst of 2 providers' gates\) \(the plan of run .* is unknown \(no run.json with its plan beside the rows\): completeness was checked across modes only\)$/,
    )
    const markdown = await readFile(path.join(dir, 'out', 'gate.md'), 'utf8')
    expect(markdown).to.include('the verdict is the worst of theirs')
    expect(markdown).to.match(/^# provider `agent-loop` — ✅ pass$/m)
    expect(markdown).to.match(/^# provider `claude-code` — ❌ fail$/m)

    // Alone, each provider's rows gate as before: agent-loop's pass.
    const alone = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': jsonl(rowsOf('agent-loop', 500)),
    })
    const single = await runCliInProcess(
      ['gate', '--input', 'rows.jsonl', '--candidate', 'ghx', '--out', 'out', '--resamples', '500', '--json'],
      {cwd: alone},
    )
    expect(single.code, single.stderr).to.equal(0)
    expect(JSON.parse(single.stdout)).to.not.have.any.keys('providers', 'provider')
  })

  it('refuses a gate whose modes one provider lacks, naming the provider', async () => {
    const onlyGhx = rowsOf('codex', 500).filter((row) => row.mode === 'ghx')
    const dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': jsonl([...rowsOf('agent-loop', 500, 5), ...onlyGhx]),
    })
    const result = await runCliInProcess(
      ['gate', '--input', 'rows.jsonl', '--candidate', 'ghx', '--out', 'out', '--resamples', '200'],
      {cwd: dir},
    )
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('no rows of provider "codex" for mode "agent_direct"')
  })

  it('reports each provider in a table of its own; one provider’s report is as it was', async () => {
    const rows = [
      ...rowsOf('agent-loop', 500, 4),
      ...rowsOf('codex', 500, 4).map((row) =>
        row.mode === 'ghx' ? {...row, success: false, outcome: 'fail' as const} : row,
      ),
    ]
    const dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': jsonl(rows),
    })
    const result = await runCliInProcess(
      ['report', '--input', 'rows.jsonl', '--out', 'out', '--format', 'md,json,junit', '--resamples', '200'],
      {cwd: dir},
    )
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include(
      'provider agent-loop: 24 rows: agent_direct: 12 runs, success 100.0%; ghx: 12 runs, success 100.0%',
    )
    expect(result.stdout).to.include(
      'provider codex: 24 rows: agent_direct: 12 runs, success 100.0%; ghx: 12 runs, success 0.0%',
    )
    const report = JSON.parse(await readFile(path.join(dir, 'out', 'summary.json'), 'utf8')) as Report
    expect(compileSchema(reportSchema)(report), JSON.stringify(compileSchema(reportSchema).errors)).to.equal(true)
    expect(report.rows).to.equal(48)
    expect(report.modes).to.deep.equal({})
    expect(
      report.providers!.map((p) => [
        p.provider,
        p.rows,
        p.modes.ghx!.success_rate,
        p.deltas[0]!.reliability.success_rate_delta_pp.value,
      ]),
    ).to.deep.equal([
      ['agent-loop', 24, 100, 0],
      ['codex', 24, 0, -100],
    ])
    const markdown = await readFile(path.join(dir, 'out', 'summary.md'), 'utf8')
    expect(markdown).to.match(/^# provider `agent-loop`$/m)
    expect(markdown).to.match(/^# provider `codex`$/m)
    expect(markdown.match(/^## Modes$/gm)).to.have.length(2)
    const junit = await readFile(path.join(dir, 'out', 'junit.xml'), 'utf8')
    expect(junit.match(/<testsuite name="[^"]+"/g)).to.deep.equal([
      '<testsuite name="agent-loop/agent_direct"',
      '<testsuite name="agent-loop/ghx"',
      '<testsuite name="codex/agent_direct"',
      '<testsuite name="codex/ghx"',
    ])

    const one = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`,
      'rows.jsonl': jsonl(rowsOf('agent-loop', 500, 4)),
    })
    expect(
      (await runCliInProcess(['report', '--input', 'rows.jsonl', '--out', 'out', '--resamples', '200'], {cwd: one}))
        .code,
    ).to.equal(0)
    const single = JSON.parse(await readFile(path.join(one, 'out', 'summary.json'), 'utf8')) as Report
    expect(single).to.not.have.any.keys('providers', 'provider')
    expect(Object.keys(single.modes)).to.deep.equal(['agent_direct', 'ghx'])
    expect(await readFile(path.join(one, 'out', 'summary.md'), 'utf8')).to.not.include('provider `')
  })
})
