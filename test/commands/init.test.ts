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

interface ShardedWorkflow {
  jobs: Record<
    string,
    {
      needs?: string
      if?: string
      strategy?: {'fail-fast': boolean; matrix: {shard: number[]}}
      steps: Array<{uses?: string; with?: Record<string, string>}>
    }
  >
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
  it('--shards 4 writes a matrix of 4 shard jobs that upload their results and a merge job that downloads them and gates', async () => {
    const repo = await emptyFolder()
    await mkdir(path.join(repo, '.git'))
    const init = await cli(['init', 'bench', '--shards', '4', '--action', 'my-org/ghx-bench@v1'], repo)
    expect(init.code, init.stderr).to.equal(0)
    expect(init.stdout).to.include('as 4 shards, then merges and gates them')
    const workflow = parse(
      await readFile(path.join(repo, '.github', 'workflows', 'ghx-bench.yml'), 'utf8'),
    ) as ShardedWorkflow
    expect(Object.keys(workflow.jobs)).to.deep.equal(['shard', 'merge'])
    const {shard, merge} = workflow.jobs
    expect(shard!.strategy!.matrix.shard).to.deep.equal([1, 2, 3, 4])
    expect(shard!.strategy!['fail-fast']).to.equal(false)
    const run = shard!.steps.find((step) => step.uses === 'my-org/ghx-bench@v1')!
    expect(run.with).to.include({
      suite: 'suites/example.yml',
      'working-directory': 'bench',
      shard: '${{ matrix.shard }}/4',
    })
    // The action uploads each shard's results under this name (action.yml's upload step), which the merge job downloads.
    const uploaded = run.with!['artifact-name']!
    expect(uploaded).to.equal('ghx-bench-shard-${{ matrix.shard }}')
    const action = parse(await readFile(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
      runs: {steps: Array<{uses?: string; with?: Record<string, string>}>}
    }
    expect(action.runs.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!.with!.name).to.equal(
      '${{ steps.bench.outputs.artifact-name }}',
    )

    // The merge job: after every shard, failed ones too; it downloads each shard's artifact and merges them.
    expect(merge!.needs).to.equal('shard')
    expect(merge!.if).to.equal('${{ always() }}')
    const download = merge!.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'))!
    const pattern = new RegExp(`^${download.with!.pattern!.replace('*', '.+')}$`)
    for (const i of [1, 2, 3, 4]) expect(uploaded.replace('${{ matrix.shard }}', String(i))).to.match(pattern)
    const gate = merge!.steps.find((step) => step.uses === 'my-org/ghx-bench@v1')!
    expect(gate.with!.merge).to.equal(download.with!.path)
    expect(gate.with!['working-directory']).to.equal('bench')
    // Its exit code decides the job: 1 (the gate failed) and 3 (inconclusive, or a shard missing) fail it.
    expect(gate.with).to.include({'fail-on-gate': 'true', 'fail-on-inconclusive': 'true'})
    expect(merge!.steps.indexOf(download)).to.be.lessThan(merge!.steps.indexOf(gate))
  })
  it('rejects --shards below 2, writing nothing', async () => {
    const dir = await emptyFolder()
    const result = await cli(['init', '--shards', '1'], dir)
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('--shards')
    expect(existsSync(path.join(dir, '.ghxbenchrc.yml'))).to.equal(false)
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
