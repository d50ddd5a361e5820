// Ctrl-C during a suite resets its fixtures (fixtures.on_interrupt: reset, the default). A workflow run
// cannot be un-cancelled, so the reset dispatches a fresh one and cancels the one it replaces: the
// manifest on disk must then name the fresh run, or `ghx-bench fixtures status` finds the cancelled one.
import {readFileSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {fixtureStatus} from '../../src/app/fixtures.js'
import {runProjectSuite} from '../../src/app/run.js'
import {startSandbox} from '../../src/emulator/index.js'
import {fixturesStatus, resetFixtures, seedFixtures, type SeedOptions} from '../../src/seeding/index.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {fixtureContext, octokitFor, OWNER, REPO} from '../support/sandbox.js'

describe('a suite interrupted by Ctrl-C', function () {
  this.timeout(120_000)

  it('leaves a manifest that names the workflow run its reset dispatched, not the one it cancelled', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml':
        'target: sandbox\nmodel: noop\nsuites_dir: catalogue\nfixtures: {seed_id: interrupted, manifest: fixtures/latest.json}\n',
      'catalogue/scenarios/workflow-run-cancel-001.yml': await readFile(
        path.join(PROJECT_ROOT, 'suites', 'scenarios', 'workflow-run-cancel-001.yml'),
        'utf8',
      ),
      'catalogue/one.yml':
        'name: one\nscenarios: {ids: [workflow-run-cancel-001]}\nmodes: [agent_direct]\nrepetitions: 1\nwarmup: false\n',
    })
    const manifestFile = path.join(dir, 'fixtures', 'latest.json')
    const controller = new AbortController()
    let seeded: number | undefined
    const {summary} = await runProjectSuite(
      {cwd: dir, suitePath: 'catalogue/one.yml', runId: 'interrupted', noReport: true, signal: controller.signal},
      (event) => {
        if (event.type !== 'run_started') return
        // The fixtures are seeded and the manifest written before the first run starts; Ctrl-C comes at once.
        seeded = (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest).resources.workflow_run_in_progress!
          .id as number
        controller.abort()
      },
    )
    expect(summary.interrupted).to.equal(true)
    expect(seeded).to.be.a('number')
    const after = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest
    expect(after.resources.workflow_run_in_progress!.id).to.not.equal(seeded)
    const status = await fixtureStatus({cwd: dir})
    expect(
      status.kinds.filter((k) => k.problems.length > 0),
      JSON.stringify(status.kinds),
    ).to.deep.equal([])
    expect(status.ok).to.equal(true)
  })

  it('a reset records the fresh run before it cancels the old one: a kill at any point leaves a manifest naming a run as seeded', async () => {
    const sandbox = await startSandbox({timing: {queued_ms: 10, running_ms: 20}})
    try {
      const ctx = fixtureContext(sandbox)
      const options: SeedOptions = {
        agentLogin: 'ghx-bench-agent',
        reviewerLogin: 'ghx-bench-reviewer',
        defaultBranch: 'main',
        workflowPollMs: 10,
      }
      const seeded = await seedFixtures(ctx, ['workflow_run_in_progress'], options)
      const old = seeded.resources.workflow_run_in_progress!.id as number
      const statusOf = async (id: number) =>
        (await octokitFor(sandbox).rest.actions.getWorkflowRun({owner: OWNER, repo: REPO, run_id: id})).data.status
      // What the caller writes down at each replacement is what a kill right after would leave on disk.
      const written: Array<{problems: string[]; oldStatus: string | null}> = []
      const reset = await resetFixtures(ctx, seeded, ['workflow_run_in_progress'], options, async (manifest) => {
        written.push({
          problems: (await fixturesStatus(ctx, manifest)).flatMap((k) => k.problems),
          oldStatus: await statusOf(old),
        })
      })
      expect(written).to.deep.equal([{problems: [], oldStatus: 'in_progress'}])
      expect(reset.resources.workflow_run_in_progress!.id).to.not.equal(old)
      // And the replaced run is not left running.
      expect(await statusOf(old)).to.equal('completed')
      expect((await fixturesStatus(ctx, reset)).flatMap((k) => k.problems)).to.deep.equal([])
    } finally {
      await sandbox.close()
    }
  })
})
