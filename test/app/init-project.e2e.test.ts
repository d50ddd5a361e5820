// A project init scaffolds works with every command its config and its printed steps name, in-process:
// validate, fixtures seed, run, regrade. Its suite gates with the built-in profile verify_pr, which
// every command that opens the project loads.
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {seedProjectFixtures} from '../../src/app/fixtures.js'
import {initProject} from '../../src/app/init-project.js'
import {regrade} from '../../src/app/regrade.js'
import {runProjectSuite} from '../../src/app/run.js'
import {validateProject} from '../../src/app/validate-project.js'
import {whichOnPath} from '../../src/agent/shell-tool.js'

describe('init, then its next steps (in-process)', function () {
  this.timeout(90_000)

  it('validate, fixtures seed, run and regrade all work in the scaffold, on the sandbox', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'ghx-bench-init-app-'))
    const init = await initProject('.', {cwd, action: 'my-org/ghx-bench@v1'})
    expect(init.next).to.include.members(['npx ghx-bench validate', 'npx ghx-bench run suites/example.yml'])

    const validation = await validateProject({cwd})
    expect(validation.diagnostics).to.deep.equal([])
    expect(validation.counts).to.include({suites: 1, scenarios: 2, profiles: 2})

    const seeded = await seedProjectFixtures({cwd})
    expect(Object.keys(seeded.manifest.resources).sort()).to.deep.equal(['issue', 'issue_for_triage'])
    expect(seeded.file).to.equal(path.join('fixtures', 'latest.json'))

    const {summary} = await runProjectSuite({
      cwd,
      suitePath: 'suites/example.yml',
      modes: ['agent_direct'],
      repetitions: 1,
      runId: 'first',
      noReport: true,
    })
    // ghx where it is installed, else the GitHub MCP server (test/commands/init.test.ts).
    expect(summary.gate).to.deep.equal({
      profile: 'verify_pr',
      baseline: 'agent_direct',
      candidate: (await whichOnPath('ghx')) ? 'ghx' : 'mcp',
    })
    expect(summary.by_mode.agent_direct).to.deep.equal({pass: 2, fail: 0, timeout: 0, infra_error: 0})

    const regraded = await regrade({cwd, runId: 'first'})
    // Both rows are judged again, the atomic one too (its checkpoints read the answer it kept).
    expect(regraded).to.deep.include({rows: 2, regraded: 2, skipped: 0, changed: [], checkpoints_changed: []})
  })
})
