// docs/gate.md's "The profiles' sizes": each built-in profile's limits and what its gate can tell at the
// designs issue 42 names and at the suites that ship with it, computed by the planner (src/report/gate/power.ts)
// and the detectable drop (src/report/gate/detectable.ts) for the simulator's realistic good candidate. Written
// between two markers by `npm run docs` (scripts/generate-docs.ts); test/docs/gate-sizes.test.ts checks it.
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {loadProfile} from '../src/catalogue/profiles.js'
import {successDetectable} from '../src/report/gate/detectable.js'
import {DEFAULT_ESTIMAND, resolveThresholds} from '../src/report/gate/gate.js'
import {
  defaultPowerModel,
  designPower,
  LARGEST_DESIGN,
  PLANNED_TARGET,
  smallestDesign,
} from '../src/report/gate/power.js'
import {reliabilityLevel} from '../src/report/gate/reliability-rules.js'

export const GATE_DOC_FILE = fileURLToPath(new URL('../docs/gate.md', import.meta.url))
export const SIZES_BEGIN = '<!-- sizes:begin (written by `npm run docs` from the planner; edit the code, not this) -->'
export const SIZES_END = '<!-- sizes:end -->'

/** The designs every profile is shown at (issue 42's), and the suites that ship with a gate. */
const DESIGNS: Array<[number, number, string?]> = [
  [4, 12],
  [4, 20],
  [6, 12],
  [6, 20, 'the `verify-pr` suite'],
  [10, 10],
  [12, 20, 'the `verify-release` suite'],
]

const pct = (share: number) => `${(100 * share).toFixed(1)}%`

/** The block between the markers: a table per built-in profile. */
export async function renderGateSizes(): Promise<string> {
  const model = defaultPowerModel()
  const alpha = reliabilityLevel(0.95)
  const out = [
    SIZES_BEGIN,
    '',
    `For the simulator's realistic good candidate (baseline success ${model.baseline_success_pct}%, ${pct(model.success_discordance)} of blocks discordant, ${model.reliability.timeout_pct}% timeouts, ${model.reliability.runner_failure_pct}% runner failures, ${model.reliability.invalid_pct}% invalid outputs, ${model.reliability.retry_pct}% retries, twice every efficiency threshold), by the planner's formula, which \`test/report/gate/planner-agrees.e2e.test.ts\` holds within 3 points of the simulator at the first five designs. *Detects* is the success drop the paired test catches with 80% power at that many pairs; *doubling* how often the test passes a candidate that doubles the baseline's failures.`,
  ]
  for (const name of ['verify_pr', 'verify_release']) {
    const profile = await loadProfile(name, path.join(fileURLToPath(new URL('..', import.meta.url)), 'suites'))
    const resolved = resolveThresholds(profile, undefined)
    const t = resolved.thresholds
    const estimand = resolved.estimand ?? DEFAULT_ESTIMAND
    const smallest = smallestDesign(t, model, estimand, PLANNED_TARGET, {
      minScenarios: 4,
      maxScenarios: LARGEST_DESIGN.scenarios,
      maxRepetitions: LARGEST_DESIGN.repetitions,
    })
    out.push(
      '',
      `### ${name}`,
      '',
      `Limits: a success drop of at most ${t.max_success_rate_drop_pct} points, at least ${t.min_output_validity_rate_pct}% valid outputs, at most ${t.max_runner_failure_rate_pct}% runner failures, ${t.max_timeout_stall_rate_pct}% timeouts, ${t.max_retry_rate_pct}% retried runs; estimand ${estimand}. Fewest runs for 80% whole-gate power (4 scenarios or more): ${smallest ? `${smallest.scenarios} scenarios × ${smallest.repetitions} (${smallest.scenarios * smallest.repetitions} runs a mode, ${pct(smallest.power)})` : `none up to ${LARGEST_DESIGN.scenarios} scenarios × ${LARGEST_DESIGN.repetitions}`}.`,
      '',
      '| design | runs a mode | whole gate P(pass) | success check | detects a success drop of | doubling passes |',
      '|:--|--:|--:|--:|--:|--:|',
    )
    for (const [scenarios, repetitions, note] of DESIGNS) {
      const runs = scenarios * repetitions
      const design = designPower(t, model, estimand, scenarios, repetitions, PLANNED_TARGET)
      const detectable = successDetectable({
        baseline: model.baseline_success_pct / 100,
        candidateRuns: runs,
        baselineRuns: runs,
        paired: {pairs: runs, pass_to_fail: 0, fail_to_pass: 0},
        margin: t.max_success_rate_drop_pct / 100,
        alpha,
      })
      const drop =
        detectable?.value === null || detectable?.value === undefined ? 'none' : `${detectable.value.toFixed(1)} points`
      const doubling = detectable?.doubling ? pct(detectable.doubling.pass_chance) : '–'
      out.push(
        `| ${scenarios} × ${repetitions}${note ? ` (${note})` : ''} | ${runs} | ${pct(design.power)} | ${pct(design.checks.reliability_success_rate_non_inferior ?? 1)} | ${drop} | ${doubling} |`,
      )
    }
  }
  out.push('', SIZES_END)
  return out.join('\n')
}

/** `document` with the block between the markers replaced by `block`. */
export function replaceGateSizes(document: string, block: string): string {
  const begin = document.indexOf(SIZES_BEGIN)
  const end = document.indexOf(SIZES_END)
  if (begin === -1 || end === -1 || end < begin) throw new Error(`docs/gate.md has no ${SIZES_BEGIN} … ${SIZES_END}`)
  return document.slice(0, begin) + block + document.slice(end + SIZES_END.length)
}

/** docs/gate.md as it should be. */
export async function gateDocWithSizes(): Promise<string> {
  return replaceGateSizes(readFileSync(GATE_DOC_FILE, 'utf8'), await renderGateSizes())
}
