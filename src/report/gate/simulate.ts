/**
 * How often the gate decides right, measured: seeded synthetic datasets with a known true effect go
 * through the real comparison and gate (compare.ts, gate.ts, sequential.ts), and each check's verdicts
 * are counted. Pure: no file, no clock; the same options give the same table.
 *
 * The model of a dataset (SimulationModel; defaults in DEFAULT_MODEL):
 * - S scenarios, each with its own baseline level of every metric (active tokens around 8,000 and
 *   agent time around 20 s, varying by a factor of about e^0.8 and e^0.5 between scenarios; tool calls
 *   3 to 10 a run);
 * - the candidate's effect on a metric is, per scenario, the true suite effect (a log ratio) plus a
 *   between-scenario deviation of standard deviation `scenario_spread` (log scale);
 * - every run: log-normal noise with the coefficient of variation `cv_pct` on active tokens and agent
 *   time (tool calls: Poisson), and an iteration-block factor of `block_sd` (log scale) shared by the
 *   two modes' runs of the block, as when the runner interleaves them;
 * - cost is what it is in real rows, the run's tokens priced by type (results/usage.ts priceOf, with
 *   `tokens.price`), not a metric of its own: the run's active tokens are split into output and
 *   uncached input, and its prompt (uncached input + cache reads) is drawn on its own. The split is
 *   the predecessors' published rows' (../datasets, 13 scenario x mode cells of 4-5 runs): the prompt
 *   is steady (log SD median 0.1) while active tokens swing (log SD 0.06-1.3), because a run's active
 *   tokens move mostly with how much of the prompt the provider's cache served, which moves the cost
 *   much less (a cache read costs a tenth of an uncached input token); priced, their cost's log SD is
 *   0.1-1.0 of the active tokens', about half in the median, and this model gives 0.43. An earlier
 *   model drew cost as a fourth log-normal metric with the active tokens' CV, which made its check look
 *   twice as noisy as real data has it;
 * - reliability: the baseline succeeds `baseline_success_pct` of the time with no other failure; the
 *   candidate's success, output validity, runner failures, timeouts and retries are drawn per run,
 *   each on its own, at the rate its point puts it at, the two modes' success within a block
 *   correlated by `success_correlation` (a shared latent draw: a hard scenario or a bad moment fails
 *   both), so the gate's paired success test is measured on paired data; where its efficiency is at the point, at the
 *   realistic rates of `candidate_reliability` (as successful as the baseline, 0.4% timeouts, 1%
 *   runner failures, 0.5% invalid outputs, 2% retries), so the whole gate is that of a real candidate;
 * - the spread of the effect between scenarios: 0.3 on the log scale by default, what real suites
 *   show (ghx-router's 4 scenarios: 0.48 for active tokens, 0.30 for latency, 0.18 for tool calls,
 *   net of run noise; the earlier default, 0.05, flattered the population estimand). Under the suite
 *   estimand the scenarios' deviations are centred, so the suite's own effect is exactly the point:
 *   the truth a fixed-suite gate is judged against.
 *
 * Points: the checks of a group sit at the same place relative to their thresholds: `zero` (no
 * effect: the candidate spends as much as the baseline, and has no failure beyond the baseline's),
 * `threshold` (each reduction exactly at its threshold, each rate exactly at its limit) and `double`
 * (twice the threshold: reductions twice as large, which should pass; rates twice the limit, which
 * should fail). A pass at `threshold` is a false pass, and so is an efficiency pass at `zero`; power is
 * the share of the right decisive verdict at `double`.
 *
 * Groups are moved one at a time, each in datasets of its own: the efficiency checks are measured on
 * a candidate of realistic reliability (the rates' share of unstable runs, about 1.5%, barely moves
 * the stable sample), the reliability checks on a candidate with twice the efficiency threshold
 * (which they do not read). The whole gate's verdicts are those of the efficiency datasets: at
 * `double`, a good candidate's P(pass). The whole gate's false pass with any one check at its
 * threshold is at most that check's own (the gate passes only when every check does): the table
 * states the largest.
 */
import type {Row} from '../../results/row-schema.js'
import type {Thresholds} from '../../schemas/profile.js'
import {priceOf, tokensOf} from '../../results/usage.js'
import {logRatioOfReduction, type Estimand} from '../../stats/log-ratio.js'
import {mulberry32, normalDraw, type Random} from '../../stats/random.js'
import {normalQuantile} from '../../stats/special.js'
import {addRow, emptyAggregate, type Aggregate} from '../aggregate/aggregate.js'
import {compareModes} from '../aggregate/compare.js'
import {SIMULATED_TOOL_CALLS, type SimulationModel, type TokenMix} from './candidate-model.js'
import {evaluateGate, type CheckName, type Decision, type GateCheck, type Verdict} from './gate.js'
import type {SequentialLook} from './reliability-rules.js'
import {
  checkStates,
  decideLook,
  freezeVerdicts,
  lookConfidences,
  type FrozenVerdicts,
  type SequentialPlan,
} from './sequential.js'

const POINTS = ['zero', 'threshold', 'double'] as const
export type Point = (typeof POINTS)[number]
const POINT_FACTOR: Record<Point, number> = {zero: 0, threshold: 1, double: 2}

const BASELINE = 'agent_direct'
const CANDIDATE = 'candidate'

const GROUPS = ['efficiency', 'reliability'] as const
type Group = (typeof GROUPS)[number]

/** What a dataset is made of: `group` sits at `point`; the other group at its benign place. */
export interface DatasetOptions {
  scenarios: number
  repetitions: number
  point: Point
  group: Group
  thresholds: Thresholds
  model: SimulationModel
  /** suite: the scenarios' deviations centred, the suite's effect exactly the point; population (the default): drawn as they fall. */
  estimand?: Estimand
  /** The multiple of the thresholds `double` stands for (default 2): the planner's target effect. */
  target?: number
}

function poisson(random: Random, mean: number): number {
  // Knuth's product of uniforms: fine for the single-digit means of tool calls.
  const limit = Math.exp(-mean)
  let count = 0
  for (let product = random(); product > limit; product *= random()) count++
  return count
}

function syntheticRow(
  fields: Pick<
    Row,
    | 'scenario_id'
    | 'mode'
    | 'iteration'
    | 'outcome'
    | 'success'
    | 'output_valid'
    | 'retries'
    | 'latency_ms_agent'
    | 'latency_ms_harness'
    | 'tokens'
    | 'cost_usd'
  > & {toolCalls: number},
): Row {
  const {toolCalls, ...rest} = fields
  return {
    schema_version: 1,
    run_id: 'simulated',
    suite: 'simulated',
    scenario_type: 'workflow',
    scenario_set: null,
    provider: 'simulated',
    model: 'simulated/model',
    started_at: null,
    finished_at: null,
    error: rest.success
      ? null
      : {type: rest.outcome === 'pass' ? 'checkpoint_failed' : rest.outcome, message: 'simulated'},
    latency_ms_wall: rest.latency_ms_agent! + rest.latency_ms_harness!,
    tool_calls: {total: toolCalls, failed: 0},
    github_api_calls: null,
    checkpoints: [],
    attempts: [],
    versions: {harness: null, plugins: {}},
    git: null,
    fixture_seed: null,
    trace: null,
    ...rest,
  }
}

/** A scenario's token levels: its typical active tokens (log) and how they divide (see TokenMix). */
interface ScenarioTokens {
  level: number
  outputShare: number
  uncachedShare: number
}

/**
 * One run's tokens and cost, at the scenario's baseline level moved by `shift` (the block, and the
 * candidate's effect on active tokens, log scale), with the cost moved by `costShift` beyond that.
 * Active tokens are log-normal with `sigma`, the output drawn on its own around its share of them,
 * the rest of them uncached input; the prompt (uncached input + cache reads) is drawn on its own, so
 * a run with more uncached input has fewer cache reads, as when the cache served less of it.
 *
 * The candidate's cost sits at its own point (its reduction need not be its active tokens'): every
 * token type moves by the token effect, then `costShift` moves tokens between uncached input and
 * output (the same active tokens, another mix) until the priced cost is exp(costShift) times what
 * the token effect alone gives, run by run, so the cost's noise is the priced tokens' and its
 * true effect exactly the point's.
 */
function runTokens(
  random: Random,
  scenario: ScenarioTokens,
  mix: TokenMix,
  sigma: number,
  shift: number,
  costShift: number,
): {tokens: Row['tokens']; cost: number} {
  const active = Math.exp(scenario.level + sigma * normalDraw(random))
  // At most 90% of the active tokens are output: some uncached input is always there (the new turn).
  const output = Math.min(
    0.9 * active,
    Math.exp(scenario.level + mix.output_sd * normalDraw(random)) * scenario.outputShare,
  )
  const prompt =
    (Math.exp(scenario.level + mix.prompt_sd * normalDraw(random)) * (1 - scenario.outputShare)) /
    scenario.uncachedShare
  const scale = Math.exp(shift)
  const parts = {
    input: scale * (active - output),
    output: scale * output,
    reasoning: 0,
    cache_read: scale * Math.max(0, prompt - (active - output)),
    cache_write: 0,
  }
  if (costShift !== 0) {
    // Tokens moved from uncached input to output: each adds the difference of their prices (USD per million).
    const moved =
      ((Math.exp(costShift) - 1) * priceOf(parts, mix.price) * 1_000_000) / (mix.price.output - mix.price.input)
    // Beyond what the mix can absorb (a cost effect far from the token effect) the cost is only near its point.
    const clamped = Math.max(-0.99 * parts.output, Math.min(0.99 * parts.input, moved))
    parts.output += clamped
    parts.input -= clamped
  }
  const usage = {
    input: Math.round(parts.input),
    output: Math.max(1, Math.round(parts.output)),
    reasoning: 0,
    cache_read: Math.round(parts.cache_read),
    cache_write: 0,
  }
  return {tokens: tokensOf(usage), cost: priceOf(usage, mix.price)}
}

/**
 * The rows of one synthetic dataset, iteration by iteration (the first `r` iterations of it are the
 * dataset a run of `r` repetitions would have recorded: a sequential look reuses them).
 */
export function syntheticRows(random: Random, options: DatasetOptions): Row[] {
  const {model, thresholds: t} = options
  const k = options.group === 'reliability' ? POINT_FACTOR[options.point] : 0
  const factor = (point: Point) => (point === 'double' ? (options.target ?? POINT_FACTOR.double) : POINT_FACTOR[point])
  const kEfficiency = options.group === 'efficiency' ? factor(options.point) : factor('double')
  const sigma = Math.sqrt(Math.log(1 + (model.cv_pct / 100) ** 2))
  const effect = (thresholdPct: number) => logRatioOfReduction(kEfficiency * thresholdPct)
  const realistic = model.candidate_reliability
  const rates =
    options.group === 'efficiency'
      ? {
          success: model.baseline_success_pct / 100,
          invalid: realistic.invalid_pct / 100,
          runnerFailure: realistic.runner_failure_pct / 100,
          timeout: realistic.timeout_pct / 100,
          retry: realistic.retry_pct / 100,
        }
      : {
          success: model.baseline_success_pct / 100 - (k * t.max_success_rate_drop_pct) / 100,
          invalid: (k * (100 - t.min_output_validity_rate_pct)) / 100,
          runnerFailure: (k * t.max_runner_failure_rate_pct) / 100,
          timeout: (k * Math.min(t.max_timeout_stall_rate_pct, t.max_runner_failure_rate_pct)) / 100,
          retry: (k * t.max_retry_rate_pct) / 100,
        }
  const mix = model.tokens
  const within = (range: [number, number]) => range[0] + (range[1] - range[0]) * random()
  const scenarios = Array.from({length: options.scenarios}, (_, s) => ({
    id: `scenario-${String(s + 1).padStart(2, '0')}`,
    tokens: {
      level: Math.log(8000) + 0.8 * normalDraw(random),
      outputShare: within(mix.output_share),
      uncachedShare: within(mix.uncached_share),
    },
    agent: Math.log(20_000) + 0.5 * normalDraw(random),
    toolCalls: SIMULATED_TOOL_CALLS[0] + (SIMULATED_TOOL_CALLS[1] - SIMULATED_TOOL_CALLS[0]) * random(),
    deviation: {
      tokens: model.scenario_spread * normalDraw(random),
      agent: model.scenario_spread * normalDraw(random),
      toolCalls: model.scenario_spread * normalDraw(random),
      cost: model.scenario_spread * normalDraw(random),
    },
  }))
  // The suite estimand's truth is these scenarios' mean effect: their deviations centred, it is the point exactly.
  const centre = (metric: 'tokens' | 'agent' | 'toolCalls' | 'cost') =>
    options.estimand === 'suite' ? scenarios.reduce((a, s) => a + s.deviation[metric], 0) / scenarios.length : 0
  const offsets = {
    tokens: centre('tokens'),
    agent: centre('agent'),
    toolCalls: centre('toolCalls'),
    cost: centre('cost'),
  }
  const thresholdsOf = {
    tokens: t.min_tokens_active_reduction_pct,
    agent: t.min_latency_reduction_pct,
    toolCalls: t.min_tool_call_reduction_pct,
    cost: t.min_cost_reduction_pct,
  }
  const effects = scenarios.map((s) => {
    const of = (metric: keyof typeof offsets) => effect(thresholdsOf[metric]) + s.deviation[metric] - offsets[metric]
    return {tokens: of('tokens'), agent: of('agent'), toolCalls: of('toolCalls'), cost: of('cost')}
  })
  const rows: Row[] = []
  for (let iteration = 1; iteration <= options.repetitions; iteration++) {
    for (const [index, s] of scenarios.entries()) {
      const sEffect = effects[index]!
      const block = {
        tokens: model.block_sd * normalDraw(random),
        agent: model.block_sd * normalDraw(random),
        toolCalls: model.block_sd * normalDraw(random),
      }
      const sharedSuccess = Math.sqrt(model.success_correlation) * normalDraw(random)
      for (const mode of [BASELINE, CANDIDATE]) {
        const candidate = mode === CANDIDATE
        const shift = (metric: keyof typeof block) => (candidate ? sEffect[metric] : 0) + block[metric]
        const {tokens, cost} = runTokens(
          random,
          s.tokens,
          mix,
          sigma,
          shift('tokens'),
          candidate ? sEffect.cost - sEffect.tokens : 0,
        )
        const u = random()
        const outcomeFailure = candidate
          ? u < rates.timeout
            ? 'timeout'
            : u < rates.runnerFailure
              ? 'infra_error'
              : null
          : null
        const successRate = candidate ? rates.success : model.baseline_success_pct / 100
        const success =
          sharedSuccess + Math.sqrt(1 - model.success_correlation) * normalDraw(random) < normalQuantileOf(successRate)
        rows.push(
          syntheticRow({
            scenario_id: s.id,
            mode,
            iteration,
            outcome: outcomeFailure ?? (success ? 'pass' : 'fail'),
            success,
            output_valid: !candidate || random() >= rates.invalid,
            retries: candidate && random() < rates.retry ? 1 : 0,
            latency_ms_agent: Math.exp(s.agent + shift('agent') + sigma * normalDraw(random)),
            // The harness's share does not enter the gate: a candidate with a slower start-up (an MCP server).
            latency_ms_harness: (candidate ? 1500 : 500) * Math.exp(0.2 * normalDraw(random)),
            tokens,
            cost_usd: cost,
            toolCalls: poisson(random, s.toolCalls * Math.exp(shift('toolCalls'))),
          }),
        )
      }
    }
  }
  return rows
}

/** Φ⁻¹(p), with the ends of [0, 1] as ∓Infinity (a rate of 0 never succeeds, of 1 always). */
function normalQuantileOf(p: number): number {
  return p <= 0 ? -Infinity : p >= 1 ? Infinity : normalQuantile(p)
}

function aggregateOf(rows: readonly Row[], repetitions: number): Aggregate {
  const aggregate = emptyAggregate()
  for (const row of rows) if (row.iteration <= repetitions) addRow(aggregate, row)
  return aggregate
}

/** The verdict that is right for a check at a point (null: either pass or fail would be wrong to count, e.g. coverage, a count). */
export function rightVerdict(
  check: Pick<GateCheck, 'name' | 'group'>,
  point: Point,
): 'pass' | 'fail' | 'not_pass' | null {
  if (check.name === 'efficiency_coverage') return null
  if (point === 'threshold') return 'not_pass'
  if (check.group === 'efficiency') return point === 'zero' ? 'fail' : 'pass'
  return point === 'zero' ? 'pass' : 'fail'
}

export type VerdictCounts = Record<Exclude<Verdict, 'skipped'>, number> & {skipped: number}

const emptyCounts = (): VerdictCounts => ({pass: 0, fail: 0, inconclusive: 0, skipped: 0})

export interface FixedDesignCell {
  scenarios: number
  repetitions: number
  point: Point
  datasets: number
  checks: Array<{name: CheckName; group: GateCheck['group']; counts: VerdictCounts; mean_mde: number | null}>
  overall: VerdictCounts
}

export interface SimulationOptions {
  thresholds: Thresholds
  minSamples: number
  decision: Decision
  scenarios: number[]
  datasets: number
  /**
   * Datasets at the threshold, where the false-pass rate is read: a rate near 2.5% read off 200
   * datasets varies by about ±1.1 points, and the largest of some forty such cells would look like a
   * miss of the 5% goal from noise alone (default: 4 × datasets).
   */
  thresholdDatasets?: number
  seed: number
  resamples: number
  model: SimulationModel
  /** The profile's estimand: what the gate judges, and so the truth the datasets are built around. */
  estimand: Estimand
  /** The points simulated (default all three): the planner needs only its target. */
  points?: readonly Point[]
  /** The multiple of the thresholds at `double` (default 2). */
  target?: number
  /** Only the whole gate's datasets (those of the efficiency group): what the planner is checked against. */
  wholeGateOnly?: boolean
}

const datasetSeed = (seed: number, ...parts: number[]) =>
  parts.reduce((acc, part) => (Math.imul(acc ^ part, 0x9e3779b1) + 0x7f4a7c15) >>> 0, seed >>> 0)

/** Bootstrap resamples where no efficiency interval is read (the reliability datasets): the rates' intervals are exact formulas. */
const UNREAD_RESAMPLES = 100

function gateAt(
  rows: readonly Row[],
  repetitions: number,
  options: SimulationOptions,
  bootstrapSeed: number,
  confidence: number,
  group: Group,
  look?: SequentialLook,
) {
  const resamples = group === 'efficiency' ? options.resamples : UNREAD_RESAMPLES
  const comparison = compareModes(aggregateOf(rows, repetitions), {
    baseline: BASELINE,
    candidate: CANDIDATE,
    minSamples: options.minSamples,
    seed: bootstrapSeed,
    resamples,
    confidence,
    estimand: options.estimand,
  })
  const thresholds = {
    profile: 'simulated',
    decision: options.decision,
    estimand: options.estimand,
    min_samples: options.minSamples,
    thresholds: options.thresholds,
    override: null,
  }
  return {comparison, ...evaluateGate(comparison, thresholds, look)}
}

/** The fixed design: every dataset judged once at `repetitions` per cell. */
export function simulateFixed(
  options: SimulationOptions & {repetitions: number[]},
  onProgress?: (done: number, total: number) => void,
): FixedDesignCell[] {
  const cells: FixedDesignCell[] = []
  const count = (point: Point) =>
    point === 'threshold' ? (options.thresholdDatasets ?? 4 * options.datasets) : options.datasets
  const points = options.points ?? POINTS
  const total = options.scenarios.length * options.repetitions.length * points.reduce((n, point) => n + count(point), 0)
  let done = 0
  for (const scenarios of options.scenarios) {
    for (const repetitions of options.repetitions) {
      for (const [p, point] of POINTS.entries()) {
        if (options.points && !options.points.includes(point)) continue
        const counts = new Map<
          CheckName,
          {group: GateCheck['group']; counts: VerdictCounts; mde: number; mdeCount: number}
        >()
        const overall = emptyCounts()
        for (let d = 0; d < count(point); d++) {
          for (const [g, group] of GROUPS.entries()) {
            if (options.wholeGateOnly && group !== 'efficiency') continue
            const seed = datasetSeed(options.seed, scenarios, repetitions, p, d, g)
            const rows = syntheticRows(mulberry32(seed), {
              scenarios,
              repetitions,
              point,
              group,
              thresholds: options.thresholds,
              model: options.model,
              estimand: options.estimand,
              target: options.target,
            })
            const {checks, verdict} = gateAt(rows, repetitions, options, seed, 0.95, group)
            if (group === 'efficiency') overall[verdict]++
            for (const check of checks) {
              if (check.group !== group) continue
              const entry = counts.get(check.name) ?? {group: check.group, counts: emptyCounts(), mde: 0, mdeCount: 0}
              entry.counts[check.verdict]++
              if (check.mde !== null && check.mde !== undefined) {
                entry.mde += check.mde
                entry.mdeCount++
              }
              counts.set(check.name, entry)
            }
          }
          onProgress?.(++done, total)
        }
        cells.push({
          scenarios,
          repetitions,
          point,
          datasets: count(point),
          checks: orderedChecks([...counts]).map(([name, c]) => ({
            name,
            group: c.group,
            counts: c.counts,
            mean_mde: c.mdeCount === 0 ? null : c.mde / c.mdeCount,
          })),
          overall,
        })
      }
    }
  }
  return cells
}

export interface SequentialCell {
  scenarios: number
  point: Point
  datasets: number
  plan: SequentialPlan
  /** Each check run on its own: stopped at its first look decided or futile. */
  checks: Array<{name: CheckName; group: GateCheck['group']; counts: VerdictCounts; mean_repetitions: number}>
  /** The whole gate as `run --until-decided` runs it (stopped by decideLook), on the efficiency datasets. */
  overall: VerdictCounts & {mean_repetitions: number}
}

/** The sequential design: each dataset judged at each look until the rule stops it. */
export function simulateSequential(
  options: SimulationOptions & {plan: SequentialPlan},
  onProgress?: (done: number, total: number) => void,
): SequentialCell[] {
  const {plan} = options
  const confidences = lookConfidences(plan)
  const last = plan.looks.length - 1
  const cells: SequentialCell[] = []
  const count = (point: Point) =>
    point === 'threshold' ? (options.thresholdDatasets ?? 4 * options.datasets) : options.datasets
  const points = options.points ?? POINTS
  const total = options.scenarios.length * points.reduce((n, point) => n + count(point), 0)
  let done = 0
  for (const scenarios of options.scenarios) {
    for (const [p, point] of POINTS.entries()) {
      if (options.points && !options.points.includes(point)) continue
      const perCheck = new Map<CheckName, {group: GateCheck['group']; counts: VerdictCounts; repetitions: number}>()
      const overall = {...emptyCounts(), mean_repetitions: 0}
      for (let d = 0; d < count(point); d++) {
        for (const [g, group] of GROUPS.entries()) {
          const seed = datasetSeed(options.seed, scenarios, 1000 + p, d, g)
          const rows = syntheticRows(mulberry32(seed), {
            scenarios,
            repetitions: plan.looks[last]!,
            point,
            group,
            thresholds: options.thresholds,
            model: options.model,
            estimand: options.estimand,
            target: options.target,
          })
          const settled = new Map<CheckName, {group: GateCheck['group']; verdict: Verdict; repetitions: number}>()
          let gateStopped: {verdict: Exclude<Verdict, 'skipped'>; repetitions: number} | null =
            group === 'efficiency' ? null : {verdict: 'pass', repetitions: 0}
          // The whole gate as run --until-decided runs it: each check's verdict frozen at its first decisive look.
          let frozen: FrozenVerdicts = {}
          for (let look = 0; look <= last; look++) {
            const repetitions = plan.looks[look]!
            const {comparison, checks} = gateAt(rows, repetitions, options, seed + look, confidences[look]!, group, {
              looks: plan.looks,
              index: look,
              spending: plan.spending,
            })
            const context = {plan, look}
            const states = checkStates(checks, comparison, context)
            for (const check of checks) {
              if (
                check.group === group &&
                !settled.has(check.name) &&
                (states[check.name] !== 'pending' || look === last)
              )
                settled.set(check.name, {group: check.group, verdict: check.verdict, repetitions})
            }
            if (gateStopped === null) {
              const merged = freezeVerdicts(checks, frozen, look)
              if (decideLook(merged.checks, comparison, context).stop)
                gateStopped = {verdict: merged.verdict, repetitions}
              frozen = merged.frozen
            }
            const open = checks.some((check) => check.group === group && !settled.has(check.name))
            if (gateStopped !== null && !open) break
          }
          for (const [name, {group: checkGroup, verdict, repetitions}] of settled) {
            const entry = perCheck.get(name) ?? {group: checkGroup, counts: emptyCounts(), repetitions: 0}
            entry.counts[verdict]++
            entry.repetitions += repetitions
            perCheck.set(name, entry)
          }
          if (group === 'efficiency') {
            overall[gateStopped!.verdict]++
            overall.mean_repetitions += gateStopped!.repetitions
          }
        }
        onProgress?.(++done, total)
      }
      overall.mean_repetitions /= count(point)
      cells.push({
        scenarios,
        point,
        datasets: count(point),
        plan,
        checks: orderedChecks([...perCheck]).map(([name, c]) => ({
          name,
          group: c.group,
          counts: c.counts,
          mean_repetitions: c.repetitions / count(point),
        })),
        overall,
      })
    }
  }
  return cells
}

/** Checks in the gate's order. */
function orderedChecks<T>(entries: Array<[CheckName, T]>): Array<[CheckName, T]> {
  const order = Object.keys(SHORT)
  return entries.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
}

const totalOf = (counts: VerdictCounts) => counts.pass + counts.fail + counts.inconclusive + counts.skipped

/** P(pass) / P(fail) / P(inconclusive) in %. */
const shares = (counts: VerdictCounts) =>
  (['pass', 'fail', 'inconclusive'] as const).map((v) => ((100 * counts[v]) / totalOf(counts)).toFixed(1)).join(' / ')

/** The share of false passes at a point where a pass is wrong (the threshold; zero for efficiency), else null. */
export function falsePassShare(
  check: {name: CheckName; group: GateCheck['group']; counts: VerdictCounts},
  point: Point,
): number | null {
  const right = rightVerdict(check, point)
  if (right === null || right === 'pass') return null
  return check.counts.pass / totalOf(check.counts)
}

/** The share of the right decisive verdict at twice the threshold. */
export function powerShare(check: {name: CheckName; group: GateCheck['group']; counts: VerdictCounts}): number | null {
  const right = rightVerdict(check, 'double')
  return right === 'pass' || right === 'fail' ? check.counts[right] / totalOf(check.counts) : null
}

const SHORT: Record<CheckName, string> = {
  reliability_success_rate_non_inferior: 'success delta',
  reliability_output_validity: 'output validity',
  reliability_runner_failure_rate: 'runner failures',
  reliability_timeout_stall_rate: 'timeouts',
  reliability_retry_rate: 'retries',
  reliability_fallback_rate: 'fallbacks',
  efficiency_coverage: 'coverage (a count)',
  efficiency_tokens_active_reduction: 'active tokens',
  efficiency_latency_reduction: 'agent latency',
  efficiency_tool_call_reduction: 'tool calls',
  efficiency_cost_reduction: 'cost',
}

export interface SimulationReport {
  options: SimulationOptions & {repetitions: number[]; plan: SequentialPlan | null}
  fixed: FixedDesignCell[]
  sequential: SequentialCell[]
}

/** The error-rate tables in markdown: one row per check, P(pass / fail / inconclusive) in % per point. */
export function renderSimulationMarkdown(report: SimulationReport): string {
  const {options} = report
  const m = options.model
  const r = m.candidate_reliability
  const atThreshold = options.thresholdDatasets ?? 4 * options.datasets
  const out = [
    `## Gate error rates (decision ${options.decision}; seeded datasets per cell: ${atThreshold} at the threshold, ${options.datasets} at zero and at double; seed ${options.seed}, ${options.resamples} bootstrap resamples)`,
    '',
    `Model: active tokens and agent time log-normal with CV ${m.cv_pct}%, cost their tokens priced by type (output ${pct(m.tokens.output_share)} of active tokens, ${pct(m.tokens.uncached_share)} of the prompt uncached, prompt log SD ${m.tokens.prompt_sd}), tool calls Poisson; the effect varies between scenarios with SD ${m.scenario_spread} (log scale); iteration blocks shared by the two modes with SD ${m.block_sd}; baseline success ${m.baseline_success_pct}%, the modes' success correlated ${m.success_correlation} within a block (latent normal scale). Each cell: P(pass) / P(fail) / P(inconclusive) in %. At \`zero\` and \`threshold\` a pass of an efficiency check is false; at \`threshold\` a pass of any check is false; at \`double\` the right verdict is pass for a reduction, fail for a rate. Efficiency checks and the whole gate are measured with the candidate of realistic reliability (success as the baseline's, ${r.timeout_pct}% timeouts, ${r.runner_failure_pct}% runner failures in all, ${r.invalid_pct}% invalid outputs, ${r.retry_pct}% retries), reliability checks with it at twice the efficiency thresholds. Estimand ${options.estimand}${options.estimand === 'suite' ? ': the scenarios’ effects centred on the point (the suite’s own effect is the truth)' : ': the scenarios’ effects drawn around the point'}.`,
  ]
  for (const scenarios of options.scenarios) {
    for (const repetitions of options.repetitions) {
      const cells = report.fixed.filter((c) => c.scenarios === scenarios && c.repetitions === repetitions)
      if (cells.length === 0) continue
      const cellAt = (point: Point) => cells.find((c) => c.point === point)!
      out.push(
        '',
        `### ${scenarios} scenarios × ${repetitions} repetitions per cell (fixed)`,
        '',
        '| check | zero | threshold | double | false pass (max) | power at double | mean MDE at threshold |',
        '|:--|--:|--:|--:|--:|--:|--:|',
      )
      for (const check of cells[0]!.checks) {
        const at = (point: Point) => cellAt(point).checks.find((c) => c.name === check.name)!
        const falsePasses = POINTS.map((point) => falsePassShare(at(point), point)).filter(
          (v): v is number => v !== null,
        )
        const power = powerShare(at('double'))
        const mde = at('threshold').mean_mde
        out.push(
          `| ${SHORT[check.name]} | ${shares(at('zero').counts)} | ${shares(at('threshold').counts)} | ${shares(at('double').counts)} | ${percent(falsePasses.length === 0 ? null : Math.max(...falsePasses))} | ${percent(power)} | ${mde === null ? '–' : mde.toFixed(1)} |`,
        )
      }
      out.push(
        `| **the whole gate** (efficiency at the point, realistic reliability) | ${shares(cellAt('zero').overall)} | ${shares(cellAt('threshold').overall)} | ${shares(cellAt('double').overall)} | ${percent(wholeFalsePass(POINTS.map(cellAt)))} | ${percent(cellAt('double').overall.pass / totalOf(cellAt('double').overall))} | |`,
      )
    }
  }
  if (report.sequential.length > 0 && options.plan) {
    const plan = options.plan
    const fixed = plan.looks.at(-1)!
    const confidences = lookConfidences(plan).map((c) => `${(100 * c).toFixed(2)}%`)
    out.push(
      '',
      `## --until-decided: looks at ${plan.looks.join(', ')} repetitions per cell, ${plan.spending} spending of α = ${plan.alpha} (intervals at ${confidences.join(', ')})`,
      '',
      `Each check run on its own stops at its first look where it is decided or futile; "repetitions" is the mean per cell at the stop, "saved" the runs saved against a fixed ${fixed} repetitions. The whole gate stops by the run's rule (a failed check, nothing pending, the last look), each check's verdict frozen at its first decisive look; its row gives the whole gate's false pass bound, its P(pass) at double, and the runs it needs.`,
    )
    for (const scenarios of options.scenarios) {
      const cells = report.sequential.filter((c) => c.scenarios === scenarios)
      if (cells.length === 0) continue
      const cellAt = (point: Point) => cells.find((c) => c.point === point)!
      out.push(
        '',
        `### ${scenarios} scenarios`,
        '',
        '| check | threshold: pass / fail / inc. | double: pass / fail / inc. | false pass | power at double | repetitions at double | saved at double | repetitions at zero |',
        '|:--|--:|--:|--:|--:|--:|--:|--:|',
      )
      for (const check of cells[0]!.checks) {
        const at = (point: Point) => cellAt(point).checks.find((c) => c.name === check.name)!
        const falsePasses = POINTS.map((point) => falsePassShare(at(point), point)).filter(
          (v): v is number => v !== null,
        )
        const reps = at('double').mean_repetitions
        out.push(
          `| ${SHORT[check.name]} | ${shares(at('threshold').counts)} | ${shares(at('double').counts)} | ${percent(falsePasses.length === 0 ? null : Math.max(...falsePasses))} | ${percent(powerShare(at('double')))} | ${reps.toFixed(1)} | ${(100 * (1 - reps / fixed)).toFixed(0)}% | ${at('zero').mean_repetitions.toFixed(1)} |`,
        )
      }
      const whole = (point: Point) =>
        `${shares(cellAt(point).overall)} at ${cellAt(point).overall.mean_repetitions.toFixed(1)} reps`
      const wholeReps = cellAt('double').overall.mean_repetitions
      out.push(
        `| **the whole gate** (efficiency at the point, realistic reliability) | ${whole('threshold')} | ${whole('double')} | ${percent(wholeFalsePass(POINTS.map(cellAt)))} | ${percent(cellAt('double').overall.pass / totalOf(cellAt('double').overall))} | ${wholeReps.toFixed(1)} | ${(100 * (1 - wholeReps / fixed)).toFixed(0)}% | ${whole('zero')} |`,
      )
    }
  }
  return out.join('\n') + '\n'
}

/**
 * The whole gate's false pass with any one check at its threshold, bounded by the largest false pass
 * of a check (the gate passes only when that check does).
 */
export function wholeFalsePass(
  cells: ReadonlyArray<{
    checks: ReadonlyArray<{name: CheckName; group: GateCheck['group']; counts: VerdictCounts}>
    point: Point
  }>,
): number | null {
  const shares = cells.flatMap((cell) =>
    cell.checks.map((check) => falsePassShare(check, cell.point)).filter((v): v is number => v !== null),
  )
  return shares.length === 0 ? null : Math.max(...shares)
}

const percent = (share: number | null) => (share === null ? '–' : (100 * share).toFixed(1))

const pct = (range: [number, number]) => `${Math.round(100 * range[0])}-${Math.round(100 * range[1])}%`
