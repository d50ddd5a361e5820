// Workflows disabled and enabled as GitHub does (state disabled_manually, no dispatch while disabled,
// gh workflow disable / enable), and a run's artifact downloaded as a zip (gh run download).
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {ghFor, skipWithoutGh} from '../../support/gh.js'
import {failure, OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

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
