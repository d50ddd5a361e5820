// The most any frozen-verdict --until-decided could save for issue 26's good candidate (twice every
// threshold of verify_pr, realistic reliability), with no error spent at all: a look at every
// repetition, each judged with the fixed design's 95% intervals and 5% rules, each check's verdict
// frozen at its first pass, the gate stopping when every check has passed (else at the last look).
// Its false pass is unbounded, so a design that holds it at 5% needs stricter looks and stops later:
// if this bound is short of a goal, no spending function or look schedule reaches it.
//   npx tsx --conditions=ghx-bench-source bench/sequential-bound.ts [scenarios=4] [datasets=200] [seed=1]
import path from 'node:path'
import {loadProfile} from '../src/catalogue/profiles.js'
import {addRow, emptyAggregate} from '../src/report/aggregate/aggregate.js'
import {compareModes} from '../src/report/aggregate/compare.js'
import {evaluateGate, type CheckName} from '../src/report/gate/gate.js'
import {syntheticRows} from '../src/report/gate/simulate.js'
import {DEFAULT_MODEL} from '../src/report/gate/candidate-model.js'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {mulberry32} from '../src/stats/random.js'

const LAST = 20
// The bound reads no efficiency interval's tail: fewer resamples than the gate's 10,000 move it by noise only.
const RESAMPLES = 2000

const [scenarios = 4, datasets = 200, seed = 1] = process.argv.slice(2).map(Number)
const profile = await loadProfile('verify_pr', path.join(PACKAGE_ROOT, 'suites'), PACKAGE_ROOT)
const resolved = {
  profile: profile.name,
  decision: 'ci' as const,
  estimand: 'suite' as const,
  min_samples: profile.min_samples,
  thresholds: profile.thresholds,
  override: null,
}
const stops: number[] = []
const passedBy = new Array<number>(LAST + 1).fill(0)
for (let d = 0; d < datasets; d++) {
  const datasetSeed = (seed * 7919 + d * 104729) >>> 0
  const rows = syntheticRows(mulberry32(datasetSeed), {
    scenarios,
    repetitions: LAST,
    point: 'double',
    group: 'efficiency',
    thresholds: profile.thresholds,
    model: DEFAULT_MODEL,
    estimand: 'suite',
  })
  const firstPass = new Set<CheckName>()
  let stop = LAST
  for (let repetitions = 3; repetitions <= LAST; repetitions++) {
    const aggregate = emptyAggregate()
    for (const row of rows) if (row.iteration <= repetitions) addRow(aggregate, row)
    const comparison = compareModes(aggregate, {
      baseline: 'agent_direct',
      candidate: 'candidate',
      minSamples: profile.min_samples,
      seed: datasetSeed + repetitions,
      resamples: RESAMPLES,
      confidence: 0.95,
      estimand: 'suite',
    })
    const {checks} = evaluateGate(comparison, resolved)
    for (const check of checks) if (check.verdict === 'pass' || check.verdict === 'skipped') firstPass.add(check.name)
    if (checks.every((check) => firstPass.has(check.name))) {
      stop = repetitions
      passedBy[repetitions]!++
      break
    }
  }
  stops.push(stop)
}
const mean = stops.reduce((a, b) => a + b, 0) / datasets
// The mean's 95% interval, normal: its standard error from the stops' spread.
const halfWidth = 1.96 * Math.sqrt(stops.reduce((a, b) => a + (b - mean) ** 2, 0) / (datasets - 1) / datasets)
let cumulative = 0
const curve = passedBy
  .map((count, repetitions) => `${repetitions}: ${((100 * (cumulative += count)) / datasets).toFixed(0)}%`)
  .slice(3)
console.log(
  `verify_pr, ${scenarios} scenarios, ${datasets} datasets (seed ${seed}): a look at every repetition at 95%, verdicts frozen at their first pass: ${mean.toFixed(2)} repetitions on average [${(mean - halfWidth).toFixed(2)}, ${(mean + halfWidth).toFixed(2)}] (${(100 * (1 - mean / LAST)).toFixed(0)}% fewer than ${LAST}); passed by each repetition: ${curve.join(', ')}`,
)
