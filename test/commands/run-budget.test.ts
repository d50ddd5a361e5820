// `ghx-bench run --budget` with bad syntax: one clear message naming the flag, exit 2, before anything runs.
// A budget stopping a run: test/commands/run-budget.e2e.test.ts.
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {sandboxConfig, SUITES} from '../support/sandbox-project.js'

describe('ghx-bench run --budget: bad syntax', () => {
  it('is bad input naming the flag (exit 2), with or without --until-decided', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    for (const [budget, ...flags] of [['tokens=lots'], ['time=15'], ['dollars=5'], ['runs=0', '--until-decided']]) {
      const result = await runCliInProcess(['run', path.join(SUITES, 'smoke.yml'), '--budget', budget!, ...flags], {
        cwd: dir,
      })
      expect(result.code, budget).to.equal(2)
      expect(result.stderr).to.include(
        `--budget error: expected runs=N, tokens=N, cost=USD or time=DURATION (as 90s, 15m, 1h30m), got "${budget}"`,
      )
      expect(result.stdout).to.equal('')
    }
  })
})
