// `ghx-bench validate --calibrate`: oracle must pass, noop must fail, per scenario and mode with a plan.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

const SUITES = path.join(PROJECT_ROOT, 'suites')
const config = (suitesDir: string) =>
  `target: sandbox\nmodel: oracle\nsuites_dir: ${suitesDir}\nfixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: cal, sandbox_repos: [ghx-bench/sandbox]}\n`

interface Calibration {
  calibration: {
    ok: boolean
    entries: Array<{scenario_id: string; mode: string; status: string; reason: string | null}>
    mutation: {
      modes: string[]
      reports: Array<{
        scenario_id: string
        mode: string
        perturbations: Array<{name: string; caught_by: string[]}>
        weak: string[]
        not_applied: string[]
      }>
      weak: unknown[]
      untested: unknown[]
    }
  }
}

describe('ghx-bench validate --calibrate (CLI)', function () {
  // Whole-catalogue calibrations: about 90 s each on 2 idle cores, several times that beside other work.
  this.timeout(400_000)

  it('proves built-in scenarios under agent_direct and mcp: oracle passes; noop and every adversary fail', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': config(SUITES)})
    const result = await runCliInProcess(
      [
        'validate',
        '--calibrate',
        '--scenario',
        'pr-view-001',
        '--scenario',
        'issue-triage-comment-wf-001',
        '--scenario',
        'release-view-001',
        '--json',
      ],
      {cwd: dir},
    )
    expect(result.code, result.stderr).to.equal(0)
    const {calibration} = JSON.parse(result.stdout) as Calibration
    expect(calibration.ok).to.equal(true)
    // ghx has plans too, but no ghx executable here: those are listed as not run, with the reason.
    const ghx = calibration.entries.filter((e) => e.mode === 'ghx')
    expect(ghx.map((e) => e.status)).to.deep.equal(['not_run', 'not_run', 'not_run'])
    expect(ghx[0]!.reason).to.match(/ghx not found/)
    expect(
      calibration.entries
        .filter((e) => e.mode !== 'ghx')
        .map((e) => `${e.scenario_id}/${e.mode}/${e.status}`)
        .sort(),
    ).to.deep.equal([
      'issue-triage-comment-wf-001/agent_direct/calibrated',
      'issue-triage-comment-wf-001/mcp/calibrated',
      'pr-view-001/agent_direct/calibrated',
      'pr-view-001/mcp/calibrated',
      // release-view-001 has no mcp plan: it is not applicable there, so only agent_direct is proved.
      'release-view-001/agent_direct/calibrated',
    ])
  })

  it('runs every checkpoint task of the catalogue from the CLI: all workflow scenarios calibrate under agent_direct', async () => {
    const workflows = [
      'ci-diagnose-run-wf-001',
      'issue-close-with-context-wf-001',
      'issue-to-pr-lifecycle-wf-001',
      'issue-triage-and-assign-wf-001',
      'issue-triage-comment-wf-001',
      'pr-fix-mixed-threads-wf-001',
      'pr-reply-threads-wf-001',
      'pr-review-comment-wf-001',
      'pr-review-comment-001',
      'pr-fix-review-comment-code-wf-001',
      'pr-resolve-conflict-wf-001',
      'pr-update-branch-code-wf-001',
      'pr-fix-failing-check-wf-001',
    ]
    const dir = await makeProject({'.ghxbenchrc.yml': config(SUITES)})
    // The adversaries that act (liar and empty play noop's part on a workflow: they answer, and change nothing).
    const result = await runCliInProcess(
      [
        'validate',
        '--calibrate',
        '--mode',
        'agent_direct',
        '--adversary',
        'wrong_target',
        '--adversary',
        'read_only',
        ...workflows.flatMap((id) => ['--scenario', id]),
        '--json',
      ],
      {cwd: dir},
    )
    expect(result.code, result.stderr + result.stdout.slice(-2000)).to.equal(0)
    const {calibration} = JSON.parse(result.stdout) as Calibration
    expect(calibration.entries.map((e) => `${e.scenario_id}/${e.status}`).sort()).to.deep.equal(
      workflows.map((id) => `${id}/calibrated`).sort(),
    )
    // Mutation testing: every workflow scenario's run is undone change by change, and some checkpoint catches each.
    const {mutation} = calibration
    expect(mutation.modes).to.deep.equal(['agent_direct'])
    expect(mutation.untested).to.deep.equal([])
    expect(mutation.reports.map((r) => r.scenario_id).sort()).to.deep.equal([...workflows].sort())
    for (const report of mutation.reports) {
      expect(report.perturbations.length, report.scenario_id).to.be.above(0)
      expect(report.weak, report.scenario_id).to.deep.equal([])
      expect(report.not_applied, report.scenario_id).to.deep.equal([])
      for (const p of report.perturbations)
        expect(p.caught_by.length, `${report.scenario_id}: ${p.name}`).to.be.above(0)
    }
  })

  it('mutation testing reports a checkpoint set that survives undoing part of the work as weak (exit 1)', async () => {
    // Its label checkpoints replaced by one that reads the issue but checks only its title: nothing notices
    // when the enhancement label the run added is removed again.
    const weak = (await readFile(path.join(SUITES, 'scenarios', 'issue-triage-comment-wf-001.yml'), 'utf8'))
      .replace('id: issue-triage-comment-wf-001', 'id: issue-weak-labels-wf-001')
      .replace(
        /\n {4}- name: enhancement_added[\s\S]*?\nreference:/,
        '\n    - name: issue_has_title\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue_number}}"}\n      condition: {type: non_empty, path: title}\nreference:',
      )
    const dir = await makeProject({
      '.ghxbenchrc.yml': config('catalogue'),
      'catalogue/scenarios/issue-weak-labels-wf-001.yml': weak,
    })
    const result = await runCliInProcess(['validate', '--calibrate', '--mode', 'agent_direct', '--adversary', 'liar'], {
      cwd: dir,
    })
    expect(result.code, result.stdout + result.stderr).to.equal(1)
    expect(result.stdout).to.include('calibration: 1 calibrated, 0 mis-calibrated, 0 weak')
    expect(result.stdout).to.match(
      /weak: issue-weak-labels-wf-001 under agent_direct: no checkpoint fails when we remove label enhancement from issue #\d+/,
    )
  })

  it('lists a scenario an adversary passes as weak, naming the adversary (exit 1)', async () => {
    // Its checks read the right issue but judge only what the fixture already holds (a title, a label it had):
    // noop fails (no answer to mention), while a liar that reads and answers, and a run that only reads, pass.
    const weak = (await readFile(path.join(SUITES, 'scenarios', 'issue-labels-add-001.yml'), 'utf8'))
      .replace('id: issue-labels-add-001', 'id: issue-weak-add-001')
      .replace(
        / {2}checkpoints:\n[\s\S]*?\nreference:/,
        '  checkpoints:\n    - name: issue_still_there\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}\n      condition: {type: some, path: labels, condition: {type: field_equals, value: bench-fixture}}\n    - name: answered\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}\n      condition: {type: mentioned_in, path: number, text: "{{final_text}}"}\nreference:',
      )
    const dir = await makeProject({
      '.ghxbenchrc.yml': config('catalogue'),
      'catalogue/scenarios/issue-weak-add-001.yml': weak,
    })
    const result = await runCliInProcess(
      [
        'validate',
        '--calibrate',
        '--mode',
        'agent_direct',
        '--adversary',
        'liar',
        '--adversary',
        'read_only',
        '--json',
      ],
      {cwd: dir},
    )
    expect(result.code, result.stderr).to.equal(1)
    const {calibration} = JSON.parse(result.stdout) as {
      calibration: {weak: Array<{scenario_id: string; status: string; passed_by: string[]; reason: string}>}
    }
    expect(calibration.weak.map((e) => e.scenario_id)).to.deep.equal(['issue-weak-add-001'])
    expect(calibration.weak[0]!.passed_by).to.deep.equal(['liar', 'read_only'])
    // The adversaries left out are said to be, never counted as failed.
    expect((calibration.weak[0] as unknown as {adversaries: Record<string, unknown>}).adversaries.empty).to.deep.equal({
      not_applicable: 'not played (--adversary)',
    })
    expect(calibration.weak[0]!.reason).to.match(
      /^passed by liar \(reads, then a made-up answer\).*read_only \(the plan’s reads only/,
    )
  })

  it('lists a scenario whose checks pass an agent that did nothing as mis-calibrated (exit 1)', async () => {
    const weak = (await readFile(path.join(SUITES, 'scenarios', 'issue-triage-comment-wf-001.yml'), 'utf8'))
      .replace('id: issue-triage-comment-wf-001', 'id: issue-weak-wf-001')
      // A checkpoint that any state satisfies: the issue exists.
      .replace(
        / {2}checkpoints:\n[\s\S]*?\nreference:/,
        '  checkpoints:\n    - name: issue_exists\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue_number}}"}\n      condition: {type: non_empty, path: title}\nreference:',
      )
    const dir = await makeProject({
      '.ghxbenchrc.yml': config('catalogue'),
      'catalogue/scenarios/issue-weak-wf-001.yml': weak,
    })
    const result = await runCliInProcess(['validate', '--calibrate', '--mode', 'agent_direct', '--adversary', 'liar'], {
      cwd: dir,
    })
    expect(result.code, result.stderr).to.equal(1)
    expect(result.stdout).to.include('mis-calibrated: issue-weak-wf-001 under agent_direct: noop passed')
  })

  it('--provider calibrates through that provider: agent-loop proves the plan, one that never calls the model fails the oracle; an unknown one is exit 2', async () => {
    // `idle` answers at once without a tool call: played through it, the oracle's plan is never played.
    const idle =
      "export default {apiVersion: 1, name: 'idle-provider', version: '1.0.0', providers: [{name: 'idle', optionsSchema: {type: 'object'}, run: async () => ({turns: [], final_text: 'done', stop_reason: 'final'})}]}\n"
    const dir = await makeProject({'.ghxbenchrc.yml': config(SUITES) + 'plugins: [./idle.js]\n', 'idle.js': idle})
    const calibrate = (provider: string) =>
      runCliInProcess(
        [
          'validate',
          '--calibrate',
          '--provider',
          provider,
          '--mode',
          'agent_direct',
          '--scenario',
          'repo-view-001',
          '--adversary',
          'liar',
          '--json',
        ],
        {cwd: dir},
      )
    const through = async (provider: string, code: number) => {
      const result = await calibrate(provider)
      expect(result.code, result.stderr).to.equal(code)
      return (JSON.parse(result.stdout) as Calibration).calibration.entries.map(
        (e) => `${e.scenario_id}/${e.mode}/${e.status}`,
      )
    }
    expect(await through('agent-loop', 0)).to.deep.equal(['repo-view-001/agent_direct/calibrated'])
    expect(await through('idle', 1)).to.deep.equal(['repo-view-001/agent_direct/miscalibrated'])
    const unknown = await calibrate('nope')
    expect(unknown.code).to.equal(2)
    const [diagnostic] = (JSON.parse(unknown.stdout) as {diagnostics: Array<{file: string; message: string}>})
      .diagnostics
    expect(diagnostic).to.include({file: '--provider'})
    expect(diagnostic!.message).to.match(/^unknown provider "nope" \(providers: .*agent-loop.*idle/)
  })
})
