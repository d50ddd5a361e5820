// Isolated runs (calibration's wrong_target: each run gives the sandbox back as it found it) give the
// manifest back too: a reset in the run records resources that the restored sandbox no longer has, and
// a later run would bind to them (their freed ids then name resources made later: "another" run was the
// same run, and wrong_target passed ci-diagnose-run-wf-001).
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {openProject} from '../../src/app/project.js'
import {runSuite} from '../../src/runner/run-suite.js'
import {selectSuite} from '../../src/runner/select-suite.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {makeProject} from '../support/cli.js'
import {rowsOf, sandboxConfig} from '../support/sandbox-project.js'

describe('isolated runs (the sandbox and the manifest restored run by run)', function () {
  this.timeout(120_000)

  it('a reset inside an isolated run leaves the suite’s manifest as it was, naming resources the sandbox still has', async () => {
    const cwd = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const project = await openProject({cwd})
    // ci-diagnose-run-wf-001 reseeds its workflow run each iteration: the reset dispatches a fresh run.
    const suite = {
      name: 'isolated',
      scenarios: {ids: ['ci-diagnose-run-wf-001']},
      modes: ['agent_direct'],
      repetitions: 2,
      concurrency: 1,
      timeouts: {checkpoint_ms: 2000},
    }
    const selected = selectSuite(project, {suite: {value: suite, origin: '(test)'}, concurrency: 1})
    await runSuite(selected, {runId: 'isolated', isolateRuns: true})
    const rows = rowsOf(cwd, 'isolated')
    expect(
      rows.map((r) => r.outcome),
      JSON.stringify(rows.map((r) => r.error)),
    ).to.deep.equal(['pass', 'pass'])
    const manifest = JSON.parse(await readFile(path.join(cwd, 'fixtures', 'latest.json'), 'utf8')) as Manifest
    const seeded = manifest.resources.workflow_run as unknown as {id: number}
    const runIds = rows.map((r) => (r.variables as {run_id?: number} | undefined)?.run_id)
    // Each iteration's reset dispatched a fresh run, which the restore took away (the second got the same id):
    // the manifest names the run the suite seeded, which the sandbox still has, never one made inside an isolated run.
    expect(runIds[1]).to.equal(runIds[0])
    expect(runIds).to.not.include(seeded.id)
  })
})
