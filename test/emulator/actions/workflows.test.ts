// Workflows disabled and enabled as GitHub does (state disabled_manually, no dispatch while disabled,
// gh workflow disable / enable), a run's artifact downloaded as a zip (gh run download), and a run
// started by a push (bench-lint.yml: on push to its branches, a check run that follows the code).
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}
const R = `${OWNER}/${REPO}`
const WORKFLOW = 'bench-rerun-failed.yml'

describe('sandbox: workflow state and artifacts', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  it('disables a workflow (no dispatch meanwhile) and enables it again', async () => {
    expect((await s.agent.rest.actions.disableWorkflow({...base, workflow_id: WORKFLOW})).status).to.equal(204)
    expect((await s.agent.rest.actions.getWorkflow({...base, workflow_id: WORKFLOW})).data.state).to.equal(
      'disabled_manually',
    )
    const refused = await failure(
      s.agent.rest.actions.createWorkflowDispatch({...base, workflow_id: WORKFLOW, ref: 'main'}),
    )
    expect(refused).to.deep.include({status: 422})
    await s.agent.rest.actions.enableWorkflow({...base, workflow_id: WORKFLOW})
    expect((await s.agent.rest.actions.getWorkflow({...base, workflow_id: WORKFLOW})).data.state).to.equal('active')
  })

  it('gh workflow disable and enable', async function () {
    skipWithoutGh(this)
    const gh = await ghFor(s.sandbox)
    const disabled = await gh(['workflow', 'disable', WORKFLOW, '-R', R])
    expect(disabled.code, disabled.stderr).to.equal(0)
    expect((await gh(['workflow', 'list', '--all', '-R', R])).stdout).to.match(/bench-rerun-failed\tdisabled_manually/)
    const enabled = await gh(['workflow', 'enable', WORKFLOW, '-R', R])
    expect(enabled.code, enabled.stderr).to.equal(0)
    expect((await gh(['workflow', 'list', '-R', R])).stdout).to.match(/bench-rerun-failed\tactive/)
  })

  it('a push to a branch bench-lint.yml names starts its run on the pushed commit: lint fails while src/ holds a console.log', async () => {
    const main = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    const runsOf = async (branch: string) =>
      (await s.agent.rest.actions.listWorkflowRunsForRepo({...base, branch})).data.workflow_runs
    // Another branch: no run (the workflow's branches filter); creating a lint branch is a push of its commit.
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/other-work', sha: main})
    expect(await runsOf('other-work')).to.deep.equal([])
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/bench-lint-seed-t', sha: main})
    const write = async (content: string) =>
      (
        await s.agent.rest.repos.createOrUpdateFileContents({
          ...base,
          branch: 'bench-lint-seed-t',
          path: 'src/debug.ts',
          message: 'Write src/debug.ts',
          content: Buffer.from(content).toString('base64'),
          ...(await s.agent.rest.repos.getContent({...base, path: 'src/debug.ts', ref: 'bench-lint-seed-t'}).then(
            (r) => ({sha: (r.data as {sha: string}).sha}),
            () => ({}),
          )),
        })
      ).data.commit.sha!
    const failing = await write("export const x = 1\nconsole.log('x', x)\n")
    const [run] = (await runsOf('bench-lint-seed-t')).filter((r) => r.head_sha === failing)
    expect(run).to.deep.include({event: 'push', name: 'bench-lint', head_branch: 'bench-lint-seed-t'})
    await waitForRun(s.agent, run!.id)
    const [job] = (await s.agent.rest.actions.listJobsForWorkflowRun({...base, run_id: run!.id})).data.jobs
    expect(job).to.deep.include({name: 'lint', conclusion: 'failure', head_sha: failing})
    const log = await s.agent.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', {
      ...base,
      job_id: job!.id,
    })
    expect(String(log.data)).to.include("src/debug.ts:2:console.log('x', x)")
    const fixed = await write('export const x = 1\n')
    const [rerun] = (await runsOf('bench-lint-seed-t')).filter((r) => r.head_sha === fixed)
    await waitForRun(s.agent, rerun!.id)
    const checks = (await s.agent.rest.checks.listForRef({...base, ref: fixed})).data.check_runs
    expect(checks.map((c) => [c.name, c.head_sha, c.conclusion])).to.deep.equal([['lint', fixed, 'success']])
  })

  it('downloads a run’s artifact as a zip (a 302 to it, as GitHub answers)', async () => {
    const [artifact] = (await s.agent.rest.actions.listWorkflowRunArtifacts({...base, run_id: s.runId})).data.artifacts
    const redirect = await fetch(`${s.sandbox.url}/repos/${R}/actions/artifacts/${artifact!.id}/zip`, {
      headers: {authorization: `token ${s.sandbox.token}`},
      redirect: 'manual',
    })
    expect(redirect.status).to.equal(302)
    const archive = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer())
    expect(archive.subarray(0, 4).toString('hex')).to.equal('504b0304')
    expect(archive.toString('latin1')).to.include('report.txt')
  })

  it('gh run download unpacks it', async function () {
    skipWithoutGh(this)
    const gh = await ghFor(s.sandbox)
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-artifact-'))
    const result = await gh(['run', 'download', String(s.runId), '-R', R, '--dir', dir])
    expect(result.code, result.stderr).to.equal(0)
    // Without a name, gh unpacks each artifact into a folder of its name.
    expect(await readFile(path.join(dir, 'bench-report', 'report.txt'), 'utf8')).to.match(/^bench-report of run \d+/)
  })
})
