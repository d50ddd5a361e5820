// One source of truth for what happened (issue 33, item 2): the exit code, the verdict line (the last line
// `run` and `gate` print), summary.md's and summary.html's headline and junit.xml all say the verdict that
// src/report/gate/verdict.ts decides, whichever command wrote them.
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import type {CliResult} from '../support/cli.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {project, shellCommandScenario} from '../support/reliability.js'
import {header} from '../support/shard-files.js'
import {makeRow} from '../support/rows.js'

const MARK = {pass: '✅ pass', fail: '❌ fail', inconclusive: '⚠️ inconclusive'} as const

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'"})[e]!)

/** The report's folder of a run: summary.md, summary.html and junit.xml, read back. */
async function reportsOf(dir: string, runId: string) {
  const folder = path.join(dir, 'reports', runId)
  const [markdown, html, junit] = await Promise.all(
    ['summary.md', 'summary.html', 'junit.xml'].map((file) => readFile(path.join(folder, file), 'utf8')),
  )
  return {markdown: markdown!, html: html!, junit: junit!}
}

/**
 * The command's exit code and last line, and the report's headlines, all say `verdict` for `reason`.
 * Returns junit.xml's failures (the root's count) for the caller to check against what failed.
 */
async function expectAgreement(
  result: CliResult,
  dir: string,
  runId: string,
  verdict: keyof typeof MARK,
  exit: number,
  reason: RegExp,
): Promise<{junit: string; failures: number; html: string}> {
  const line = result.stdout.trim().split('\n').at(-1)!
  expect(result.code, result.stdout + result.stderr).to.equal(exit)
  const said = `verdict: ${verdict.toUpperCase()} (exit ${exit}): `
  expect(line.startsWith(said), line).to.equal(true)
  const why = line.slice(said.length)
  expect(why).to.match(reason)
  const {markdown, html, junit} = await reportsOf(dir, runId)
  // summary.md: the verdict under the title (markdown's escapes undone).
  const [title, blank, headline] = markdown.split('\n')
  expect([title, blank]).to.deep.equal(['# ghx-bench report', ''])
  expect(headline!.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')).to.equal(
    `**${MARK[verdict]}** (exit ${exit}): ${why}`,
  )
  // summary.html: the verdict in the heading and the line itself under it.
  expect(html).to.match(new RegExp(`<h1>ghx-bench report <span class="verdict ${verdict}">${verdict}</span></h1>`))
  const banner = /<p id="verdict" class="banner (\w+)">([^<]*)<\/p>/.exec(html)
  expect(banner?.[1]).to.equal(verdict)
  expect(unescapeHtml(banner![2]!)).to.equal(line)
  const failures = Number(/<testsuites [^>]*failures="(\d+)"/.exec(junit)![1])
  return {junit, failures, html}
}

/** Rows of one recorded run: 3 scenarios x `iterations` of agent_direct and ghx, every run passed; ghx spends `ghxTokens`. */
async function recordedRun(dir: string, runId: string, ghxTokens: number, iterations = 30): Promise<void> {
  const rows: Row[] = ['a-001', 'b-001', 'c-001'].flatMap((scenario) =>
    Array.from({length: iterations}, (_, n) =>
      (['agent_direct', 'ghx'] as const).map((mode) =>
        makeRow({
          run_id: runId,
          scenario_id: scenario,
          mode,
          iteration: n + 1,
          activeTokens: (mode === 'ghx' ? ghxTokens : 1000) + n,
          latency_ms_wall: 10_000 + n,
          latency_ms_agent: 9000 + n,
          tool_calls: {total: mode === 'ghx' ? 4 : 10, failed: 0},
        }),
      ),
    ).flat(),
  )
  await mkdir(path.join(dir, 'results', runId), {recursive: true})
  await writeFile(path.join(dir, 'results', `${runId}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  // What `run` records beside its rows: the gate as its suite defined it.
  const info = {
    run_id: runId,
    suite: 'recorded',
    seed: 1,
    modes: ['agent_direct', 'ghx'],
    providers: ['agent-loop'],
    unavailable: [],
    not_applicable: [],
    gate: {profile: 'verify_pr', baseline: 'agent_direct', candidate: 'ghx'},
    // Its plan: every row of it is here.
    key: {
      ...header(1, 1).key,
      suite: 'recorded',
      scenarios: ['a-001', 'b-001', 'c-001'],
      repetitions: iterations,
      model: 'openai/gpt-5.3-codex',
    },
  }
  await writeFile(path.join(dir, 'results', runId, 'run.json'), JSON.stringify(info))
}

describe('every output says the same verdict (CLI)', function () {
  this.timeout(180_000)

  describe('a suite with no gate whose every run failed', () => {
    let dir: string
    let result: CliResult
    before(async () => {
      dir = await project({
        // The reference plan answers "nope": the checkpoint wants the repository's name, so every run fails.
        'catalogue/scenarios/repo-wrong-001.yml': shellCommandScenario('repo-wrong-001', 'Wrong', 20_000, 'echo nope'),
        'catalogue/ungated.yml':
          'name: ungated\nscenarios: {ids: [repo-wrong-001]}\nmodes: [agent_direct]\nrepetitions: 3\nseed: 1\n',
      })
      result = await runCliInProcess(['run', 'catalogue/ungated.yml', '--run-id', 'ungated'], {
        cwd: dir,
        env: {CI: '1'},
      })
    })

    it('fails (exit 1): the verdict line, summary.md, summary.html and junit.xml say 3 of 3 runs failed', async () => {
      const {junit, failures} = await expectAgreement(
        result,
        dir,
        'ungated',
        'fail',
        1,
        /^no gate: 3 of 3 runs failed$/,
      )
      expect(failures).to.equal(1)
      expect(junit).to.match(
        /<testcase name="repo-wrong-001" classname="agent_direct"[^>]*>\s*<failure message="3 of 3 run\(s\) failed/,
      )
      // No gate: no gate test suite.
      expect(junit).not.to.include('<testsuite name="gate"')
    })

    it('summary.html has the verdict as its headline and a section of the failed runs', async () => {
      const {html} = await reportsOf(dir, 'ungated')
      expect(html).to.match(/<nav class="toc"><a href="#failures">failures<\/a>/)
      const section = /<section id="failures"><h2>Failed runs<\/h2>([\s\S]*?)<\/section>/.exec(html)?.[1]
      expect(section, 'a failures section').to.be.a('string')
      expect(section).to.include('3 run(s) failed in 1 scenario × mode pair(s)')
      expect(section).to.match(/<td>repo-wrong-001<\/td><td><code>agent_direct<\/code><\/td><td[^>]*>3 of 3<\/td>/)
    })

    it('the same suite whose runs pass exits 0 with every output saying so', async () => {
      const passed = await runCliInProcess(['run', 'catalogue/one.yml', '--run-id', 'passed'], {
        cwd: dir,
        env: {CI: '1'},
      })
      const {failures, junit} = await expectAgreement(passed, dir, 'passed', 'pass', 0, /^no gate: all 3 runs passed$/)
      expect(failures).to.equal(0)
      expect(junit).to.match(/<testcase name="repo-view-001" classname="agent_direct"[^>]*\/>/)
    })
  })

  it('a failed gate over runs that all passed: gate exits 1, and junit.xml counts the gate’s failed checks', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    // ghx spends twice agent_direct's tokens: the efficiency checks fail, every run passed.
    await recordedRun(dir, 'costly', 2000)
    const gate = await runCliInProcess(['gate', '--resamples', '500'], {cwd: dir})
    const report = await runCliInProcess(['report', '--format', 'md,json,junit,html', '--resamples', '500'], {cwd: dir})
    expect(report.code, report.stderr).to.equal(0)
    const {junit, failures} = await expectAgreement(
      gate,
      dir,
      'costly',
      'fail',
      1,
      /^gate verify_pr, ghx against agent_direct: \d+ failed(, \d+ inconclusive)? of \d+ checks$/,
    )
    const gateDocument = JSON.parse(await readFile(path.join(dir, 'reports', 'costly', 'gate.json'), 'utf8')) as {
      checks: Array<{name: string; verdict: string}>
    }
    const failed = gateDocument.checks.filter((c) => c.verdict === 'fail').map((c) => c.name)
    expect(failed).to.include('efficiency_tokens_active_reduction')
    // No run failed: every failure junit counts is a check of the gate, each a testcase of its own.
    expect(failures).to.equal(failed.length)
    expect(junit).to.match(
      new RegExp(`<testsuite name="gate" tests="${gateDocument.checks.length}" failures="${failed.length}"`),
    )
    expect(junit).to.match(/<property name="verdict" value="fail"\/>/)
    for (const name of failed)
      expect(junit).to.match(new RegExp(`<testcase name="${name}" classname="gate"[^>]*>\\s*<failure `))
  })

  it('a gate mode that could not run: run stops before its first run (2); with --no-gate the runs decide, gate over the rows exits 3 saying why, and report keeps what run said', async () => {
    const dir = await project({
      'catalogue/scenarios/repo-probe-001.yml': shellCommandScenario('repo-probe-001', 'Probe', 20_000, 'true'),
      'catalogue/gated.yml': [
        'name: gated',
        'scenarios: {ids: [repo-probe-001]}',
        'modes: [{name: agent_direct, options: {gh: /nonexistent/gh}}, mcp]',
        'repetitions: 1',
        'infra_retries: 0',
        'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}',
        '',
      ].join('\n'),
    })
    const stopped = await runCliInProcess(['run', 'catalogue/gated.yml', '--run-id', 'gated'], {
      cwd: dir,
      env: {CI: '1'},
    })
    expect(stopped.code, stopped.stdout + stopped.stderr).to.equal(2)
    expect(stopped.stderr).to.match(/needs its baseline mode agent_direct, which cannot run here: .*gh.*not found/)
    expect(stopped.stdout).to.not.include('verdict:')
    const run = await runCliInProcess(['run', 'catalogue/gated.yml', '--run-id', 'gated', '--no-gate'], {
      cwd: dir,
      env: {CI: '1'},
    })
    // mcp has no shell for the probe's plan: its one run failed, and with no gate the runs decide.
    const said = /^no gate: 1 of 1 run failed$/
    await expectAgreement(run, dir, 'gated', 'fail', 1, said)
    // gate over the same run: the suite's gate, which the rows cannot compute, and why.
    const gate = await runCliInProcess(['gate'], {cwd: dir})
    expect(gate.code, gate.stdout + gate.stderr).to.equal(3)
    expect(gate.stdout.trim().split('\n').at(-1)).to.match(
      /^verdict: INCONCLUSIVE \(exit 3\): the gate cannot be computed: the gate compares agent_direct with mcp, and agent_direct: .*gh.*not found/,
    )
    // report over the same run rewrites summary.md, summary.html and junit.xml: they still say what run said.
    const report = await runCliInProcess(['report', '--format', 'md,json,junit,html'], {cwd: dir})
    expect(report.code, report.stderr).to.equal(0)
    await expectAgreement(run, dir, 'gated', 'fail', 1, said)
    // A mode typed on the command line that has no rows is the flag's mistake: bad input.
    const typed = await runCliInProcess(['gate', '--candidate', 'mpc'], {cwd: dir})
    expect(typed.code).to.equal(2)
    expect(typed.stderr.trim()).to.equal('--candidate error: no rows for mode "mpc" (did you mean "mcp"?)')
  })

  it('a bare gate judges the newest run as its suite defined the gate, not as the configuration does', async () => {
    // The configuration's candidate is ghx, which the run never ran; its suite gates mcp against agent_direct.
    const dir = await project({
      'catalogue/two.yml': [
        'name: two',
        'scenarios: {ids: [repo-view-001]}',
        'modes: [agent_direct, mcp]',
        'repetitions: 1',
        'seed: 1',
        'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}',
        '',
      ].join('\n'),
    })
    const run = await runCliInProcess(['run', 'catalogue/two.yml', '--run-id', 'two'], {cwd: dir, env: {CI: '1'}})
    const gate = await runCliInProcess(['gate'], {cwd: dir})
    const runLine = run.stdout.trim().split('\n').at(-1)!
    expect(runLine).to.match(/^verdict: [A-Z]+ \(exit \d\): gate verify_pr, mcp against agent_direct: /)
    expect(gate.stdout.trim().split('\n').at(-1)).to.equal(runLine)
    expect(gate.code).to.equal(run.code)
    const verdict = /^verdict: ([A-Z]+)/.exec(runLine)![1]!.toLowerCase() as keyof typeof MARK
    await expectAgreement(gate, dir, 'two', verdict, run.code, /^gate verify_pr, mcp against agent_direct: /)
    // A flag still chooses: --candidate over the run's.
    const flagged = await runCliInProcess(['gate', '--candidate', 'ghx'], {cwd: dir})
    expect(flagged.code).to.equal(2)
    expect(flagged.stderr).to.include('--candidate error: no rows for mode "ghx"')
  })
})
