// On the sandbox every run works in a world of its own, copied from the state the suite's fixtures were
// ensured in: a run that changes its fixtures (ci-diagnose-run-wf-001 reruns its failed workflow run)
// leaves them as seeded for the runs beside and after it, which need no reset, and the suite's manifest
// names what the sandbox holds.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {openProject} from '../../src/app/project.js'
import {runSuite} from '../../src/runner/run-suite.js'
import {selectSuite} from '../../src/runner/select-suite.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {makeProject} from '../support/cli.js'
import {rowsOf, sandboxConfig} from '../support/sandbox-project.js'

describe('runs in worlds of their own (the sandbox)', function () {
  this.timeout(120_000)

  it('runs beside and after a run that changed its fixture start from them as seeded, unreset', async () => {
    const cwd = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const project = await openProject({cwd})
    const suite = {
      name: 'worlds',
      scenarios: {ids: ['ci-diagnose-run-wf-001']},
      modes: ['agent_direct'],
      repetitions: 4,
      concurrency: 2,
      timeouts: {checkpoint_ms: 2000},
    }
    const selected = selectSuite(project, {suite: {value: suite, origin: '(test)'}, concurrency: 2})
    await runSuite(selected, {runId: 'worlds'})
    const rows = rowsOf(cwd, 'worlds')
    expect(
      rows.map((r) => r.outcome),
      JSON.stringify(rows.map((r) => r.error)),
    ).to.deep.equal(['pass', 'pass', 'pass', 'pass'])
    const manifest = JSON.parse(await readFile(path.join(cwd, 'fixtures', 'latest.json'), 'utf8')) as Manifest
    const seeded = (manifest.resources.workflow_run as unknown as {id: number}).id
    // Every run diagnosed the run the suite seeded (no reset dispatched a fresh one), though each run before it reran it.
    expect(rows.map((r) => (r.variables as {run_id?: number} | undefined)?.run_id)).to.deep.equal([
      seeded,
      seeded,
      seeded,
      seeded,
    ])
    // And each read it as the same world: the same calls, the same tokens.
    expect(
      new Set(rows.map((r) => r.github_api_calls)).size,
      JSON.stringify(rows.map((r) => [r.github_api_calls, r.tokens.input, r.tool_calls])),
    ).to.equal(1)
    expect(new Set(rows.map((r) => r.tokens.input)).size).to.equal(1)
  })
})
