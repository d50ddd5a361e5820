/**
 * Run against run (`report --compare`): per scenario × mode, the runs of the two sides paired by
 * iteration, and which went PASS→FAIL or FAIL→PASS (a run passes: success, valid output, no runner
 * failure, as between modes), with the exact McNemar test on the discordant pairs and Holm's adjustment
 * across the scenarios of each mode. Read from the aggregates' columns, as the comparison between modes is
 * (aggregate/compare.ts). An iteration a side holds more than once (rows of several runs) pairs with
 * nothing: which of them would be the pair is not known.
 */
import type {FromSchema} from 'json-schema-to-ts'
import {exactMcNemar, holmAdjust} from '../stats/paired-flips.js'
import {iterationOfBlock, type Cell, type ProviderAggregates} from './aggregate/aggregate.js'
import {scratchFloat64, scratchUint8} from './aggregate/columns.js'

const iterations = {type: 'array', items: {type: 'integer', minimum: 1}} as const
const pairName = {
  type: 'object',
  additionalProperties: false,
  required: ['scenario_id', 'mode', 'provider'],
  properties: {scenario_id: {type: 'string'}, mode: {type: 'string'}, provider: {type: ['string', 'null']}},
} as const

export const runFlipsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'confidence', 'pairs', 'pass_to_fail', 'fail_to_pass', 'significant'],
  description:
    'run against run: per scenario × mode (× provider), the runs paired by iteration that passed before and failed now (PASS→FAIL) or the reverse; absent when the previous side holds no rows (a summary.json)',
  properties: {
    method: {type: 'string'},
    confidence: {type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1},
    pairs: {
      type: 'array',
      description: 'every scenario × mode with runs on both sides, by scenario, mode and provider',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [...pairName.required, 'paired', 'pass_to_fail', 'fail_to_pass', 'p_value', 'p_adjusted'],
        properties: {
          ...pairName.properties,
          paired: {type: 'integer', minimum: 0, description: 'iterations both sides ran once each'},
          pass_to_fail: {...iterations, description: 'the iterations that passed before and failed now'},
          fail_to_pass: {...iterations, description: 'the iterations that failed before and pass now'},
          p_value: {type: 'number', minimum: 0, maximum: 1, description: 'exact McNemar, two-sided'},
          p_adjusted: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description: 'Holm-adjusted across the scenarios of the mode (and provider)',
          },
        },
      },
    },
    pass_to_fail: {type: 'array', items: pairName, description: 'pairs with more PASS→FAIL than FAIL→PASS, by p-value'},
    fail_to_pass: {type: 'array', items: pairName, description: 'pairs with more FAIL→PASS than PASS→FAIL, by p-value'},
    significant: {
      type: 'array',
      items: pairName,
      description: 'of them, those whose Holm-adjusted p-value is below 1 - confidence',
    },
  },
} as const

export type RunFlips = FromSchema<typeof runFlipsSchema>
type FlipPair = RunFlips['pairs'][number]

/** Each iteration the cell ran once, whether it passed; an iteration run more than once is left out. */
function passedByIteration(cell: Cell): Map<number, boolean> {
  const keys = cell.blocks.valuesInto(scratchFloat64('values', cell.runs))
  const stable = cell.stable.valuesInto(scratchUint8('flags', cell.runs))
  const passed = new Map<number, boolean>()
  const repeated = new Set<number>()
  for (let i = 0; i < cell.runs; i++) {
    const iteration = iterationOfBlock(keys[i]!)
    if (passed.has(iteration)) repeated.add(iteration)
    passed.set(iteration, stable[i] === 1)
  }
  for (const iteration of repeated) passed.delete(iteration)
  return passed
}

function flipsOf(before: Cell, now: Cell, provider: string | null): FlipPair {
  const then = passedByIteration(before)
  const pairs = [...passedByIteration(now)].filter(([iteration]) => then.has(iteration)).sort(([a], [b]) => a - b)
  const passToFail = pairs.filter(([iteration, passed]) => then.get(iteration)! && !passed).map(([i]) => i)
  const failToPass = pairs.filter(([iteration, passed]) => !then.get(iteration)! && passed).map(([i]) => i)
  return {
    scenario_id: now.scenario,
    mode: now.mode,
    provider,
    paired: pairs.length,
    pass_to_fail: passToFail,
    fail_to_pass: failToPass,
    p_value: exactMcNemar(passToFail.length, failToPass.length),
    p_adjusted: 1,
  }
}

/** The flips of every scenario × mode (× provider) both sides ran; pure. */
export function runFlips(current: ProviderAggregates, previous: ProviderAggregates, confidence = 0.95): RunFlips {
  const pairs: FlipPair[] = []
  for (const [provider, now] of current) {
    const before = previous.get(provider)
    if (!before) continue
    for (const [mode, byScenario] of now.cells) {
      const family: FlipPair[] = []
      for (const [scenario, cell] of byScenario) {
        const then = before.cells.get(mode)?.get(scenario)
        if (then) family.push(flipsOf(then, cell, provider))
      }
      // Holm within the mode: the scenarios of one mode are the family, as the scenarios of one comparison are between modes.
      holmAdjust(family.map((f) => f.p_value)).forEach((p, i) => (family[i]!.p_adjusted = p))
      pairs.push(...family)
    }
  }
  pairs.sort(
    (a, b) =>
      a.scenario_id.localeCompare(b.scenario_id) ||
      a.mode.localeCompare(b.mode) ||
      (a.provider ?? '').localeCompare(b.provider ?? ''),
  )
  const byP = [...pairs].sort((a, b) => a.p_value - b.p_value)
  const names = (keep: (f: FlipPair) => boolean) =>
    byP.filter(keep).map(({scenario_id, mode, provider}) => ({scenario_id, mode, provider}))
  return {
    method: 'exact McNemar on runs paired by scenario, mode and iteration; Holm across the scenarios of each mode',
    confidence,
    pairs,
    pass_to_fail: names((f) => f.pass_to_fail.length > f.fail_to_pass.length),
    fail_to_pass: names((f) => f.fail_to_pass.length > f.pass_to_fail.length),
    significant: names((f) => f.pass_to_fail.length !== f.fail_to_pass.length && f.p_adjusted < 1 - confidence),
  }
}
