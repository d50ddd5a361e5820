// The planner's whole-gate power (power.ts, by formula) against the simulator's (simulate.ts: seeded
// datasets through the real comparison and gate) at the designs issue 42 names, for both built-in
// profiles: within 3 points of power. Slow (a few minutes): in the e2e set.
import path from 'node:path'
import {expect} from 'chai'
import {loadProfile} from '../../../src/catalogue/profiles.js'
import {DEFAULT_ESTIMAND, resolveThresholds} from '../../../src/report/gate/gate.js'
import {defaultPowerModel, designPower} from '../../../src/report/gate/power.js'
import {simulateFixed} from '../../../src/report/gate/simulate.js'
import {DEFAULT_MODEL} from '../../../src/report/gate/candidate-model.js'
import {PACKAGE_ROOT} from '../../../src/shared/package-paths.js'

const DESIGNS = [
  [4, 12],
  [4, 20],
  [6, 12],
  [6, 20],
  [10, 10],
] as const
const DATASETS = 300

describe('the planner agrees with the simulator', () => {
  for (const name of ['verify_pr', 'verify_release'])
    it(`${name}: whole-gate power within 3 points at 4 x 12, 4 x 20, 6 x 12, 6 x 20 and 10 x 10`, async function () {
      this.timeout(900_000)
      const resolved = resolveThresholds(await loadProfile(name, path.join(PACKAGE_ROOT, 'suites')), undefined)
      const estimand = resolved.estimand ?? DEFAULT_ESTIMAND
      const found: string[] = []
      for (const [scenarios, repetitions] of DESIGNS) {
        const [cell] = simulateFixed({
          thresholds: resolved.thresholds,
          minSamples: resolved.min_samples,
          decision: resolved.decision,
          estimand,
          scenarios: [scenarios],
          repetitions: [repetitions],
          datasets: DATASETS,
          seed: 7,
          resamples: 1000,
          model: DEFAULT_MODEL,
          points: ['double'],
          target: 2,
          wholeGateOnly: true,
        })
        const {pass, fail, inconclusive, skipped} = cell!.overall
        const simulated = pass / (pass + fail + inconclusive + skipped)
        const planned = designPower(resolved.thresholds, defaultPowerModel(), estimand, scenarios, repetitions, 2).power
        found.push(
          `${scenarios} x ${repetitions}: planned ${(100 * planned).toFixed(1)}%, simulated ${(100 * simulated).toFixed(1)}%`,
        )
        expect(Math.abs(planned - simulated), found.join('; ')).to.be.at.most(0.03)
      }
    })
})
