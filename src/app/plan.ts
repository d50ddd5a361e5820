/**
 * `ghx-bench plan SUITE`: how big the suite's gate design must be. From a previous run's rows (or
 * the profile's thresholds and the simulator's measured defaults), it says what the suite as written
 * can detect, what its reliability checks can certify, the design of fewest runs (scenarios x
 * repetitions) whose whole gate passes a candidate at `target` times every threshold 80% of the time
 * (src/report/gate/power.ts), and confirms the suite's own design by simulation (src/report/gate/simulate.ts):
 * the whole gate's P(pass) fixed and under --until-decided, with the runs it needs.
 */
import {loadProfile} from '../catalogue/profiles.js'
import {resolveConfigPath} from '../config/load-config.js'
import {judge} from '../report/judge.js'
import {DEFAULT_ESTIMAND, resolveThresholds} from '../report/gate/gate.js'
import {
  affordableMargin,
  correlationOfDiscordance,
  defaultPowerModel,
  designPower,
  detectableReductions,
  LARGEST_DESIGN,
  PLANNED_TARGET,
  discordanceOf,
  repetitionsFor,
  smallestDesign,
  type DesignPower,
  type PowerModel,
} from '../report/gate/power.js'
import {capacity, reliabilityLevel, type CapacityLine} from '../report/gate/reliability-rules.js'
import type {Comparison} from '../report/aggregate/compare.js'
import {DEFAULT_ALPHA, DEFAULT_LOOKS, DEFAULT_SPENDING} from '../report/gate/sequential.js'
import {simulateFixed, simulateSequential} from '../report/gate/simulate.js'
import {DEFAULT_MODEL, type SimulationModel} from '../report/gate/candidate-model.js'
import {BadInputError} from '../shared/diagnostics.js'
import {DEFAULT_RESAMPLES} from '../stats/bootstrap.js'
import type {Estimand} from '../stats/log-ratio.js'
import {openSuite} from './run.js'
import type {ProjectOptions} from './project.js'

export interface PlanOptions extends ProjectOptions {
  suitePath: string
  /** A previous run's rows to measure the spreads and rates from (files or folders). */
  inputs?: string[]
  runId?: string
  /** The effect planned for, as a multiple of every efficiency threshold (default 2). */
  target?: number
  /** "How many repetitions for 80% at this success margin (points)?" */
  margin?: number
  /** "What success margin can I afford at this many runs a mode?" */
  budget?: number
  /** Seeded datasets of the confirming simulation (default 100; 0 leaves it out). */
  datasets?: number
  seed?: number
  resamples?: number
  onProgress?: (text: string) => void
}

export interface PlanResult {
  suite: string
  profile: string
  estimand: Estimand
  target: number
  design: {scenarios: number; repetitions: number}
  /** Where the model came from: the rows given, or the defaults. */
  measured_from: string
  model: PowerModel
  capacity: CapacityLine[]
  /** At the suite's design: the whole gate's power by formula, and each reduction's detectable effect (80% power). */
  as_written: DesignPower & {detectable: Record<string, number>}
  smallest: DesignPower | null
  /** The repetitions that give 80% whole-gate power at --margin, at the suite's scenarios (null: none up to 1,000). */
  at_margin: {margin: number; design: DesignPower | null} | null
  /** The tightest success margin with 80% whole-gate power at --budget runs a mode, at the suite's scenarios. */
  at_budget: {runs: number; repetitions: number; margin: number | null; design: DesignPower | null} | null
  /** The simulation of the suite's design at the target: P(pass) fixed, and under --until-decided with its mean repetitions. */
  confirmed: {
    datasets: number
    fixed_pass: number
    sequential_pass: number
    sequential_repetitions: number
    looks: number[]
  } | null
  markdown: string
}

const PLAN_DEFAULTS = {
  target: PLANNED_TARGET,
  datasets: 100,
  seed: 1,
  maxScenarios: LARGEST_DESIGN.scenarios,
  maxRepetitions: LARGEST_DESIGN.repetitions,
} as const

/**
 * The power model measured on a comparison: a run's log SD from the reductions' within-scenario
 * variance (var θ_s = 2σ²/n with n stable runs a mode), the spread from their between-scenario
 * variance, the candidate's failure rates and the baseline's success as recorded, and the share of
 * blocks whose two runs differ in success where the rows are paired (else the simulator's default
 * correlation at that success: the runner pairs the runs it makes, so the gate will test them paired).
 */
function measuredModel(comparison: Comparison): PowerModel {
  const e = comparison.efficiency
  const eligible = comparison.scenarios.filter((s) => s.eligible)
  const runs =
    eligible.length === 0
      ? 0
      : eligible.reduce((a, s) => a + Math.min(s.baseline_stable_runs, s.candidate_stable_runs), 0) / eligible.length
  const sds = [e.tokens_active_reduction_pct, e.latency_reduction_pct]
    .map((r) => (r.log_variance?.within ? Math.sqrt((r.log_variance.within * runs) / 2) : null))
    .filter((v): v is number => v !== null)
  const betweens = [e.tokens_active_reduction_pct, e.latency_reduction_pct, e.tool_call_reduction_pct]
    .map((r) => r.log_variance?.between ?? null)
    .filter((v): v is number => v !== null)
  const calls = eligible.map((s) => s.baseline.tool_calls).filter((v): v is number => typeof v === 'number')
  const r = comparison.reliability
  const fallback = defaultPowerModel()
  const rate = (value: number | null | undefined, otherwise: number) =>
    value === null || value === undefined ? otherwise : value
  const success =
    r.success_rate.value === null || r.success_rate_delta_pp.value === null
      ? fallback.baseline_success_pct
      : r.success_rate.value - r.success_rate_delta_pp.value
  const pairs = r.success_rate_delta_pp.paired
  return {
    log_sd: sds.length === 0 ? fallback.log_sd : sds.reduce((a, b) => a + b, 0) / sds.length,
    tool_calls: calls.length === 0 ? fallback.tool_calls : calls.reduce((a, b) => a + b, 0) / calls.length,
    tool_calls_inverse:
      calls.length === 0
        ? fallback.tool_calls_inverse
        : calls.reduce((a, b) => a + 1 / Math.max(0.5, b), 0) / calls.length,
    scenario_spread:
      betweens.length === 0
        ? fallback.scenario_spread
        : Math.sqrt(betweens.reduce((a, b) => a + b, 0) / betweens.length),
    baseline_success_pct: success,
    success_discordance:
      pairs && pairs.pairs > 0
        ? (pairs.pass_to_fail + pairs.fail_to_pass) / pairs.pairs
        : discordanceOf(success / 100, DEFAULT_MODEL.success_correlation),
    reliability: {
      timeout_pct: rate(r.timeout_stall_rate.value, fallback.reliability.timeout_pct),
      runner_failure_pct: rate(r.runner_failure_rate.value, fallback.reliability.runner_failure_pct),
      invalid_pct:
        r.output_validity_rate.value === null ? fallback.reliability.invalid_pct : 100 - r.output_validity_rate.value,
      retry_pct: rate(r.retry_rate.value, fallback.reliability.retry_pct),
    },
  }
}

/** The simulator's model of a power model. */
function simulationModel(model: PowerModel): SimulationModel {
  return {
    ...DEFAULT_MODEL,
    cv_pct: 100 * Math.sqrt(Math.exp(model.log_sd ** 2) - 1),
    scenario_spread: model.scenario_spread,
    baseline_success_pct: model.baseline_success_pct,
    success_correlation: correlationOfDiscordance(model.baseline_success_pct / 100, model.success_discordance),
    candidate_reliability: model.reliability,
  }
}

/** The looks of --until-decided for a suite of `repetitions`: the default plan's up to it, and it last. */
export function looksFor(repetitions: number): number[] {
  return [...DEFAULT_LOOKS.filter((n) => n < repetitions), repetitions]
}

/** The comparison of recorded rows the power model is measured on: a gate that cannot be computed from them is bad input here. */
async function measuredComparison(
  selected: Awaited<ReturnType<typeof openSuite>>,
  options: PlanOptions,
  profile: string,
  cwd: string,
): Promise<Comparison> {
  const {gate, gateUncomputable} = await judge(selected.config, {
    inputs: options.inputs,
    runId: options.runId,
    cwd,
    report: false,
    gate: {profile, allowMixed: true},
    output: null,
  })
  if (gate) return gate.comparison
  throw new BadInputError([
    {file: options.inputs?.join(', ') || '--run-id', code: 'unknown_reference', message: `${gateUncomputable}`},
  ])
}

export async function planSuite(options: PlanOptions): Promise<PlanResult> {
  const cwd = options.cwd ?? process.cwd()
  const {margin: _margin, budget: _budget, ...project} = options
  const selected = await openSuite({...project, suitePath: options.suitePath})
  const profileName = selected.suite.gate?.profile
  if (!profileName)
    throw new BadInputError([
      {file: selected.origin, code: 'config', message: 'the suite names no gate profile: there is no gate to plan'},
    ])
  const profile = await loadProfile(
    profileName,
    resolveConfigPath(selected.config, selected.config.values.suites_dir),
    cwd,
  )
  const resolved = resolveThresholds(profile, undefined)
  const estimand = resolved.estimand ?? DEFAULT_ESTIMAND
  const target = options.target ?? PLAN_DEFAULTS.target
  const scenarios = selected.scenarios.length
  const repetitions = selected.suite.repetitions
  const fromRows = options.inputs !== undefined || options.runId !== undefined
  const model = fromRows
    ? measuredModel(await measuredComparison(selected, options, profileName, cwd))
    : defaultPowerModel()
  const t = resolved.thresholds
  const asWritten = {
    ...designPower(t, model, estimand, scenarios, repetitions, target),
    detectable: detectableReductions(t, model, estimand, scenarios, repetitions),
  }
  const smallest = smallestDesign(t, model, estimand, target, {
    minScenarios: scenarios,
    maxScenarios: Math.max(scenarios, PLAN_DEFAULTS.maxScenarios),
    maxRepetitions: PLAN_DEFAULTS.maxRepetitions,
  })
  const atMargin =
    options.margin === undefined
      ? null
      : {
          margin: options.margin,
          design: repetitionsFor({...t, max_success_rate_drop_pct: options.margin}, model, estimand, scenarios, target),
        }
  const budgetRepetitions = options.budget === undefined ? 0 : Math.floor(options.budget / scenarios)
  const affordable =
    options.budget === undefined || budgetRepetitions < 1
      ? null
      : affordableMargin(t, model, estimand, scenarios, budgetRepetitions, target)
  const atBudget =
    options.budget === undefined
      ? null
      : {
          runs: options.budget,
          repetitions: budgetRepetitions,
          margin: affordable?.margin ?? null,
          design: affordable?.design ?? null,
        }
  const lines = capacity(t, scenarios * repetitions, reliabilityLevel(0.95))
  const datasets = options.datasets ?? PLAN_DEFAULTS.datasets
  let confirmed: PlanResult['confirmed'] = null
  if (datasets > 0) {
    const looks = looksFor(repetitions)
    const common = {
      thresholds: t,
      minSamples: resolved.min_samples,
      decision: resolved.decision,
      estimand,
      scenarios: [scenarios],
      datasets,
      thresholdDatasets: datasets,
      seed: options.seed ?? PLAN_DEFAULTS.seed,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
      model: simulationModel(model),
      points: ['double'] as const,
      target,
    }
    options.onProgress?.(`simulating ${scenarios} scenarios x ${repetitions} repetitions, ${datasets} datasets`)
    const fixed = simulateFixed({...common, repetitions: [repetitions]})[0]!
    const sequential = simulateSequential({
      ...common,
      plan: {looks, alpha: DEFAULT_ALPHA, spending: DEFAULT_SPENDING},
    })[0]!
    const share = (counts: {pass: number; fail: number; inconclusive: number; skipped: number}) =>
      counts.pass / (counts.pass + counts.fail + counts.inconclusive + counts.skipped)
    confirmed = {
      datasets,
      fixed_pass: share(fixed.overall),
      sequential_pass: share(sequential.overall),
      sequential_repetitions: sequential.overall.mean_repetitions,
      looks,
    }
  }
  const result = {
    suite: selected.suite.name,
    profile: profile.name,
    estimand,
    target,
    design: {scenarios, repetitions},
    measured_from: fromRows ? 'the rows given' : 'the simulator’s defaults (spreads measured on real suites)',
    model,
    capacity: lines,
    as_written: asWritten,
    smallest,
    at_margin: atMargin,
    at_budget: atBudget,
    confirmed,
  }
  return {...result, markdown: renderPlan(result)}
}

const pct = (share: number) => `${(100 * share).toFixed(1)}%`

function renderPlan(plan: Omit<PlanResult, 'markdown'>): string {
  const {design, model: m} = plan
  const out = [
    `# ghx-bench plan: suite ${plan.suite}, profile ${plan.profile}, estimand ${plan.estimand}`,
    '',
    `Model (${plan.measured_from}): a run's log SD ${m.log_sd.toFixed(2)} (active tokens, agent time), ${m.tool_calls.toFixed(1)} tool calls a run, spread between scenarios ${m.scenario_spread.toFixed(2)} (log scale), baseline success ${m.baseline_success_pct.toFixed(1)}% with ${(100 * m.success_discordance).toFixed(1)}% of blocks differing in success (the paired test's noise), candidate ${m.reliability.timeout_pct}% timeouts, ${m.reliability.runner_failure_pct}% runner failures, ${m.reliability.invalid_pct}% invalid outputs, ${m.reliability.retry_pct}% retries. Target: ${plan.target} × every efficiency threshold.`,
    '',
    `## The suite as written: ${design.scenarios} scenarios × ${design.repetitions} repetitions (${design.scenarios * design.repetitions} runs a mode)`,
    '',
    `Whole-gate power at the target, by formula: ${pct(plan.as_written.power)}.`,
    '',
    '| check | P(pass) at the target | detectable (80% power) |',
    '|:--|--:|--:|',
    ...Object.entries(plan.as_written.checks).map(
      ([check, p]) =>
        `| ${check} | ${pct(p)} | ${plan.as_written.detectable[check] === undefined ? '–' : `${plan.as_written.detectable[check].toFixed(1)}% reduction`} |`,
    ),
    '',
    'What its reliability checks can certify:',
    '',
    ...plan.capacity.map(
      (line) => `- ${line.check}: ${line.rule}${line.certifiable ? '' : ' — **cannot pass at this size**'}`,
    ),
    '',
    plan.smallest
      ? `## Smallest design for 80% whole-gate power: ${plan.smallest.scenarios} scenarios × ${plan.smallest.repetitions} repetitions (${pct(plan.smallest.power)}, ${plan.smallest.scenarios * plan.smallest.repetitions} runs a mode)`
      : `## No design up to ${PLAN_DEFAULTS.maxScenarios} scenarios × ${PLAN_DEFAULTS.maxRepetitions} repetitions reaches 80% whole-gate power`,
  ]
  if (plan.at_margin) {
    const {margin, design: d} = plan.at_margin
    out.push(
      '',
      d
        ? `## At a success margin of ${margin} points: ${d.repetitions} repetitions (${d.scenarios} × ${d.repetitions} = ${d.scenarios * d.repetitions} runs a mode) give 80% whole-gate power (${pct(d.power)}; the paired success test alone ${pct(d.checks.reliability_success_rate_non_inferior ?? 1)})`
        : `## At a success margin of ${margin} points no number of repetitions up to 1,000 at ${design.scenarios} scenarios gives 80% whole-gate power${plan.estimand === 'population' ? ': under estimand population the spread between scenarios bounds the efficiency checks whatever the repetitions; add scenarios' : ''}`,
    )
  }
  if (plan.at_budget) {
    const {runs, repetitions, margin, design: d} = plan.at_budget
    out.push(
      '',
      margin !== null && d
        ? `## At ${runs} runs a mode (${design.scenarios} × ${repetitions}): the tightest success margin with 80% whole-gate power is ${margin} points (${pct(d.power)})`
        : `## At ${runs} runs a mode (${design.scenarios} × ${repetitions}): no success margin up to 50 points gives 80% whole-gate power; the other checks need more runs`,
    )
  }
  if (plan.confirmed) {
    const c = plan.confirmed
    out.push(
      '',
      `## Confirmed by simulation (${c.datasets} seeded datasets at the target, the suite's design)`,
      '',
      `- fixed ${design.repetitions} repetitions: whole gate P(pass) ${pct(c.fixed_pass)}`,
      `- --until-decided (looks ${c.looks.join(', ')}): P(pass) ${pct(c.sequential_pass)}, ${c.sequential_repetitions.toFixed(1)} repetitions a cell on average, ${(100 * (1 - c.sequential_repetitions / design.repetitions)).toFixed(0)}% fewer runs than fixed ${design.repetitions}`,
    )
  }
  return out.join('\n') + '\n'
}
