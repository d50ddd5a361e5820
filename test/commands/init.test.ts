// `ghx-bench init`: what it refuses (exit 2, nothing written) and where it puts things; with no GitHub
// token and no model key. A new user's whole first session, through the bin: test/e2e/init.test.ts.
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {parse} from 'yaml'
import {PROJECT_ROOT, type CliResult} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {offlineOverrides} from '../support/packed.js'

const emptyFolder = () => mkdtemp(path.join(tmpdir(), 'ghx-bench-init-'))
const cli = (args: string[], cwd: string): Promise<CliResult> => runCliInProcess(args, {cwd, env: offlineOverrides()})

interface Workflow {
  jobs: Record<string, {steps: Array<{uses?: string; with?: Record<string, string>}>}>
}

describe('ghx-bench init (CLI)', function () {
  this.timeout(60_000)
  it('refuses to overwrite, naming every file already there, exits 2 and writes nothing; --force replaces them', async () => {
    const dir = await emptyFolder()
    await writeFile(path.join(dir, '.ghxbenchrc.yml'), 'model: mine\n')
    await mkdir(path.join(dir, '.github', 'workflows'), {recursive: true})
    await writeFile(path.join(dir, '.github', 'workflows', 'ghx-bench.yml'), 'name: mine\n')
    const refused = await cli(['init'], dir)
    expect(refused.code).to.equal(2)
    expect(refused.stderr).to.include('.ghxbenchrc.yml error: already exists; init never overwrites')
    expect(refused.stderr).to.include(
      `${path.join('.github', 'workflows', 'ghx-bench.yml')} error: already exists; init never overwrites`,
    )
    expect(refused.stderr).to.include('--force')
    expect(await readFile(path.join(dir, '.ghxbenchrc.yml'), 'utf8')).to.equal('model: mine\n')
    for (const file of ['suites/example.yml', '.gitignore'])
      expect(existsSync(path.join(dir, file)), file).to.equal(false)

    const forced = await cli(['init', '--force'], dir)
    expect(forced.code, forced.stderr).to.equal(0)
    expect(forced.stdout).to.include('overwrote .ghxbenchrc.yml')
    expect(forced.stdout).to.include(`overwrote ${path.join('.github', 'workflows', 'ghx-bench.yml')}`)
    expect(forced.stdout).to.include('created suites/example.yml')
    expect(await readFile(path.join(dir, '.ghxbenchrc.yml'), 'utf8')).to.match(/^target: sandbox$/m)
  })
  it('gates ghx where ghx is installed, and the GitHub MCP server where it is not (a first run reaches a verdict)', async () => {
    const candidate = async (dir: string) =>
      (parse(await readFile(path.join(dir, 'suites', 'example.yml'), 'utf8')) as {gate: {candidate: string}}).gate
        .candidate
    const without = await emptyFolder()
    const bare = await cli(['init'], without)
    expect(bare.code, bare.stderr).to.equal(0)
    expect(await candidate(without)).to.equal('mcp')
    expect(bare.stdout).to.include('ghx was not found here, so the example gates mcp against agent_direct')
    // ghx in the project's node_modules/.bin, where the ghx mode finds it.
    const withGhx = await emptyFolder()
    await mkdir(path.join(withGhx, 'node_modules', '.bin'), {recursive: true})
    await writeFile(path.join(withGhx, 'node_modules', '.bin', 'ghx'), '#!/bin/sh\n', {mode: 0o755})
    const installed = await cli(['init'], withGhx)
    expect(installed.code, installed.stderr).to.equal(0)
    expect(await candidate(withGhx)).to.equal('ghx')
    expect(installed.stdout).to.not.include('ghx was not found')
  })
  it('appends to an existing .gitignore, and puts the workflow at the root of the enclosing git repository', async () => {
    const repo = await emptyFolder()
    await mkdir(path.join(repo, '.git'))
    await mkdir(path.join(repo, 'bench'))
    await writeFile(path.join(repo, 'bench', '.gitignore'), 'node_modules\n/results/')
    const init = await cli(['init', 'bench', '--action', 'my-org/ghx-bench@v1'], repo)
    expect(init.code, init.stderr).to.equal(0)
    expect(init.stdout).to.include(`updated ${path.join('bench', '.gitignore')}`)
    expect(init.stdout).to.include(`created ${path.join('.github', 'workflows', 'ghx-bench.yml')}`)
    // Kept as it was; only the lines it lacked were added (/results/ already covers results/).
    expect(await readFile(path.join(repo, 'bench', '.gitignore'), 'utf8')).to.match(
      /^node_modules\n\/results\/\n\n# ghx-bench: .*\nreports\/\n\.ghx-bench\/\nfixtures\/latest\.json\n$/,
    )
    const workflow = parse(await readFile(path.join(repo, '.github', 'workflows', 'ghx-bench.yml'), 'utf8')) as Workflow
    const bench = workflow.jobs.bench!.steps.find((step) => step.with?.suite)!
    expect(bench.uses).to.equal('my-org/ghx-bench@v1')
    expect(bench.with!['working-directory']).to.equal('bench')
    expect(init.stdout).to.not.include('OWNER/ghx-bench')
  })
  it('rejects an --action that is not owner/repo@ref', async () => {
    const dir = await emptyFolder()
    const result = await cli(['init', '--action', 'ghx-bench'], dir)
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('--action error: expected owner/repo@ref (or a local ./path), got "ghx-bench"')
    expect(existsSync(path.join(dir, '.ghxbenchrc.yml'))).to.equal(false)
  })
  it('validate --calibrate with nothing to calibrate warns and exits 1', async () => {
    // The scenario the previous init scaffolded: a workflow with no reference plan.
    const dir = await emptyFolder()
    await writeFile(path.join(dir, '.ghxbenchrc.yml'), 'target: sandbox\nmodel: oracle\n')
    await mkdir(path.join(dir, 'suites', 'scenarios'), {recursive: true})
    const scenario = (
      await readFile(
        path.join(PROJECT_ROOT, 'templates', 'init', 'suites', 'scenarios', 'example-issue-triage-wf-001.yml'),
        'utf8',
      )
    ).replace(/\nreference:[\s\S]*$/, '\n')
    await writeFile(path.join(dir, 'suites', 'scenarios', 'example-issue-triage-wf-001.yml'), scenario)
    const result = await cli(['validate', '--calibrate'], dir)
    expect(result.code, result.stdout + result.stderr).to.equal(1)
    expect(result.stdout).to.include('calibration: 0 calibrated, 0 mis-calibrated, 0 weak, 0 not run')
    expect(result.stderr).to.include('warning: nothing to calibrate: no scenario has a reference plan')
    const json = await cli(['validate', '--calibrate', '--json'], dir)
    expect(json.code).to.equal(1)
    expect((JSON.parse(json.stdout) as {warnings: string[]}).warnings).to.have.length(1)
  })
})
