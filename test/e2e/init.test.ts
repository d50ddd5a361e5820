// `ghx-bench init` as a new user meets it: scaffold an empty folder, then run the commands it prints,
// in order, with no GitHub token and no model key: all green on the embedded sandbox. The bin's smoke
// for init, validate and run; init's refusals and choices in-process: test/commands/init.test.ts.
import {existsSync} from 'node:fs'
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {parse} from 'yaml'
import {runCli, type CliResult} from '../support/cli.js'
import {offlineEnv} from '../support/packed.js'

const emptyFolder = () => mkdtemp(path.join(tmpdir(), 'ghx-bench-init-'))
const cli = (args: string[], cwd: string): Promise<CliResult> => runCli(args, {cwd, env: offlineEnv()})

/** The lines under "Next:". */
function nextSteps(stdout: string): string[] {
  return stdout
    .slice(stdout.indexOf('\nNext:\n') + '\nNext:\n'.length)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}

interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  jobs: Record<string, {steps: Array<{uses?: string; with?: Record<string, string>}>}>
}

describe('ghx-bench init (CLI)', function () {
  this.timeout(240_000)
  it('scaffolds an empty folder; the printed next commands then run green on the sandbox with no token', async () => {
    const root = await emptyFolder()
    const init = await cli(['init', 'bench'], root)
    expect(init.code, init.stderr).to.equal(0)
    const project = path.join(root, 'bench')
    for (const file of [
      '.ghxbenchrc.yml',
      '.gitignore',
      '.github/workflows/ghx-bench.yml',
      'suites/example.yml',
      'suites/scenarios/example-issue-view-001.yml',
      'suites/scenarios/example-issue-triage-wf-001.yml',
    ]) {
      expect(init.stdout, file).to.include(`created ${path.join('bench', file)}`)
    }

    // The config runs on the sandbox as is, and its comments say how to go live.
    const config = await readFile(path.join(project, '.ghxbenchrc.yml'), 'utf8')
    expect(config).to.match(/^target: sandbox$/m)
    expect(config).to.match(/^model: oracle$/m)
    for (const hint of [
      'target: live',
      'fixtures.repo',
      'sandbox_repos',
      'GH_TOKEN',
      'GHX_BENCH_REVIEWER_TOKEN',
      'OPENAI_API_KEY',
      'fixtures seed',
    ])
      expect(config, hint).to.include(hint)
    expect((await readFile(path.join(project, '.gitignore'), 'utf8')).split('\n')).to.include.members([
      'results/',
      'reports/',
      '.ghx-bench/',
      'fixtures/latest.json',
    ])

    // No git repository around: the workflow goes in the project, runs the example suite, comments on the PR.
    const workflow = parse(
      await readFile(path.join(project, '.github', 'workflows', 'ghx-bench.yml'), 'utf8'),
    ) as Workflow
    expect(workflow.on).to.have.property('pull_request')
    expect(workflow.permissions['pull-requests']).to.equal('write')
    const bench = workflow.jobs.bench!.steps.find((step) => step.with?.suite)!
    expect(bench.uses).to.equal('OWNER/ghx-bench@main')
    expect(bench.with).to.deep.equal({suite: 'suites/example.yml', 'github-token': '${{ github.token }}'})
    expect(existsSync(path.join(project, bench.with!.suite!))).to.equal(true)

    const steps = nextSteps(init.stdout)
    expect(steps[0]).to.equal('cd bench')
    expect(steps[1]).to.match(
      /^npm install --save-dev \S+ghx-bench-0\.1\.0\.tgz +# ghx-bench is not on npm yet: first `npm pack` in /,
    )
    expect(steps).to.include(
      "edit .github/workflows/ghx-bench.yml: replace OWNER/ghx-bench@main with the repository of ghx-bench's GitHub Action (or run init with --action owner/repo@ref)",
    )
    const commands = steps
      .filter((step) => step.startsWith('npx ghx-bench '))
      .map((step) => step.slice('npx ghx-bench '.length).split(' '))
    expect(commands.map((c) => c.join(' '))).to.deep.equal([
      'validate',
      'validate --calibrate',
      'run suites/example.yml',
    ])
    // No ghx here: the example gates the GitHub MCP server against gh, so that the run reaches a verdict.
    expect(steps).to.include(
      'ghx was not found here, so the example gates mcp against agent_direct: once ghx is installed, set gate.candidate: ghx in suites/example.yml',
    )
    expect(await readFile(path.join(project, 'suites', 'example.yml'), 'utf8')).to.match(
      /^ {2}candidate: mcp {2}# ghx was not found when init ran/m,
    )

    const results: Record<string, CliResult> = {}
    for (const command of commands) {
      const result = await cli(command, project)
      // run: a verdict. On the embedded default the oracle's mcp arm spends ten times gh's tokens (the MCP server's
      // tool definitions): verify_pr fails it on tokens.
      expect(result.code, `${command.join(' ')}\n${result.stdout}\n${result.stderr}`).to.equal(
        command[0] === 'run' ? 1 : 0,
      )
      results[command.join(' ')] = result
    }
    expect(results['validate']!.stdout).to.include('ok: .ghxbenchrc.yml, 1 suites, 2 scenarios, 0 sets, 2 profiles')
    // Both scenarios under agent_direct and mcp: the oracle passes, noop and the adversaries fail; ghx is not installed here.
    const calibrate = results['validate --calibrate']!
    expect(calibrate.stdout).to.include('calibration: 4 calibrated, 0 mis-calibrated, 0 weak, 2 not run')
    expect(calibrate.stdout).to.match(
      /mutation testing \(agent_direct, mcp\): 4 run\(s\) of scenario x mode, [1-9]\d* perturbation\(s\), 0 with weak checkpoints/,
    )
    // The only warnings: the example is a first look, too small for verify_pr's sized reliability rules (it says so).
    for (const line of calibrate.stderr.split('\n').filter(Boolean))
      expect(line).to.match(/^warning: suite example \(2 scenarios × 3 repetitions\) cannot pass its gate verify_pr: /)
    const run = results['run suites/example.yml']!
    expect(run.stdout).to.include('agent_direct: pass 6, fail 0, timeout 0, infra error 0')
    expect(run.stdout).to.include('mcp: pass 6, fail 0, timeout 0, infra error 0')
    expect(run.stdout).to.match(/wrote .*reports.*summary\.md/)
    // The verdict is the last line.
    expect(run.stdout).to.match(/gate verify_pr: mcp vs agent_direct/)
    expect(run.stdout.trim().split('\n').at(-1)).to.match(
      /^verdict: FAIL \(exit 1\): gate verify_pr, mcp against agent_direct: \d+ failed/,
    )
  })
})
