/**
 * What a verdict could detect (issue 42): for each check, the true value this run's size catches with 80%
 * power, i.e. at which the check's own rule passes only 20% of the time. A PASS says nothing about a
 * regression smaller than that: at the verify-pr suite's 120 pairs (95% baseline success, pairing
 * correlation 0.3) a candidate that doubles the failures (95% -> 90%) passes a 12-point margin 63% of the time.
 *
 * - the success drop: the paired test's power by power.ts's normal approximation (pairedSuccessPowerAt),
 *   a candidate at success p − D against the baseline's p, their blocks' successes correlated ρ on the
 *   simulator's latent scale (jointSuccess), ρ read off the run's own share of discordant pairs
 *   (correlationOfDiscordance; none discordant: the simulator's default). Unpaired runs: Newcombe's test
 *   by the normal approximation of two independent binomials. D is bisected where P(pass) = 20%.
 * - a rate: exactly, the smallest true rate r with P(count <= the rule's pass_max | n, r) <= 20%.
 * - a reduction (efficiency): the threshold plus its MDE (mde.ts): the true reduction passed 80% of the time.
 *
 * Under `decision: point` the point value decides (z = 0; a rate: the most events whose rate clears the
 * threshold); at a look of `run --until-decided` the look's own rule (the rates' exact group-sequential
 * cutoffs, the paired test's threshold on Tango's statistic as its z).
 */
import {binomialLowerTail, runsToCertify, type SizedRule} from '../../stats/binomial.js'
import {normalCdf, zOfConfidence} from '../../stats/special.js'
import type {GateDocument} from '../aggregate/report-schema.js'
import {correlationOfDiscordance, jointSuccess, pairedSuccessPowerAt} from './power.js'
import {pairedPassAtLook, type RateLimit, type SequentialLook, type SuccessPairs} from './reliability-rules.js'
import {DEFAULT_MODEL} from './candidate-model.js'

type GateCheck = GateDocument['checks'][number]
export type Detectable = NonNullable<GateCheck['detectable']>

/** 80% power: a check detects a true value that it passes at most this often. */
const MISSED = 0.2

/** The one-sided level whose z is 0: the point value decides (decision point). */
export const POINT_LEVEL = 0.5

const percent = (fraction: number, digits = 1) => `${(100 * fraction).toFixed(digits)}%`

/** The x in [low, high] where `passChance`, falling as x rises, comes down to MISSED (bisected to a millionth: a ten-thousandth of a point). */
function whereMissed(passChance: (x: number) => number, low: number, high: number): number {
  while (high - low > 1e-6) {
    const mid = (low + high) / 2
    if (passChance(mid) > MISSED) low = mid
    else high = mid
  }
  return high
}

/** What the success test is judged from: the baseline's success, the runs or the pairs, the margin, the rule's level. */
export interface SuccessDesign {
  /** The baseline's success (fraction). */
  baseline: number
  candidateRuns: number
  baselineRuns: number
  /** The runner's blocks when every run is paired; null: the runs are judged as independent. */
  paired: SuccessPairs | null
  /** The profile's max_success_rate_drop_pct as a fraction. */
  margin: number
  /** The one-sided level of the test's pass side (POINT_LEVEL under decision point). */
  alpha: number
  /** A look of `run --until-decided`: the paired test passes by this look's threshold. */
  look?: SequentialLook
}

/**
 * The latent correlation of the two modes' success in a block, from the run's discordant share at its
 * baseline success; with no discordant pair there is nothing to read it from: the simulator's default.
 */
export function pairingCorrelation(baseline: number, pairs: SuccessPairs): {correlation: number; measured: boolean} {
  const discordance = pairs.pairs === 0 ? 0 : (pairs.pass_to_fail + pairs.fail_to_pass) / pairs.pairs
  return discordance === 0
    ? {correlation: DEFAULT_MODEL.success_correlation, measured: false}
    : {correlation: correlationOfDiscordance(baseline, discordance), measured: true}
}

/** The chance that the success test passes a candidate whose true success is `drop` (a fraction) below the baseline's. */
export function successPassChance(design: SuccessDesign, drop: number, correlation: number): number {
  const {baseline, margin} = design
  const candidate = baseline - drop
  const {paired} = design
  if (paired) {
    const sequential = design.look ? pairedPassAtLook(paired.pairs, margin, design.look) : null
    // Tango's statistic passes from the look's threshold: that threshold is the z of the power formula.
    const alpha = sequential ? normalCdf(-sequential.threshold) : design.alpha
    const both = jointSuccess(baseline, candidate, correlation)
    return pairedSuccessPowerAt({gained: candidate - both, lost: baseline - both}, margin, paired.pairs, alpha)
  }
  // Newcombe's interval by the normal approximation: the difference of two independent binomials.
  const se = Math.sqrt(
    (candidate * (1 - candidate)) / design.candidateRuns + (baseline * (1 - baseline)) / design.baselineRuns,
  )
  const distance = margin - drop
  const z = zOfConfidence(1 - 2 * design.alpha)
  if (se <= 0) return distance > 0 ? 1 : 0
  return normalCdf(distance / se - z)
}

/** How a success rule is read, said after its figures. */
function successRuleNote(design: SuccessDesign): string {
  if (design.alpha === POINT_LEVEL) return '; decision point: the point difference decides'
  if (!design.paired) return '; not paired: Newcombe’s test by the normal approximation of two independent binomials'
  if (!design.look) return ''
  return pairedPassAtLook(design.paired.pairs, design.margin, design.look)
    ? '; this look’s exact group-sequential rule'
    : '; this look’s own level (too many pairs for the group-sequential rule)'
}

/** A candidate that doubles the baseline's failures (success 1 − 2(1 − p), no lower than 0), and how often the test passes it. */
function doublingOf(baseline: number, size: string, passChance: (drop: number) => number) {
  const drop = Math.min(1 - baseline, baseline)
  const chance = passChance(drop)
  return {
    baseline_success_pct: 100 * baseline,
    candidate_success_pct: 100 * (baseline - drop),
    pass_chance: chance,
    text: `at ${size} a drop from ${percent(baseline)} to ${percent(baseline - drop)} success passes ${percent(chance, 0)} of the time`,
  }
}

/**
 * The success check's detectable drop (points), with a doubling of the baseline's failures and how often
 * the test passes it; null when the baseline never succeeded (there is no drop to detect).
 */
export function successDetectable(design: SuccessDesign): Detectable | null {
  const {baseline, paired} = design
  if (!(baseline > 0) || design.candidateRuns === 0 || design.baselineRuns === 0) return null
  const pairing = paired ? pairingCorrelation(baseline, paired) : null
  const correlation = pairing?.correlation ?? 0
  const passChance = (drop: number) => successPassChance(design, drop, correlation)
  const size = paired
    ? `${paired.pairs} pairs`
    : design.candidateRuns === design.baselineRuns
      ? `${design.candidateRuns} runs a mode`
      : `${design.baselineRuns} baseline and ${design.candidateRuns} candidate runs`
  // A baseline that always succeeds has both succeed whenever the candidate does: the pairing does not matter.
  const pairingNote =
    pairing && baseline < 1
      ? `, pairing correlation ${correlation.toFixed(2)} ${pairing.measured ? `from its ${paired!.pass_to_fail + paired!.fail_to_pass} discordant pairs` : 'assumed, the simulator’s default, as no pair is discordant'}`
      : ''
  const how = `(80% power; baseline ${percent(baseline)} success${pairingNote}${successRuleNote(design)})`
  const extra = baseline < 1 ? {doubling: doublingOf(baseline, size, passChance)} : {}
  const equal = passChance(0)
  // Even a candidate as successful as the baseline rarely passes: any drop is caught (a look's threshold may pass none).
  if (equal <= MISSED)
    return {
      value: 0,
      text:
        equal === 0
          ? `at ${size} this rule cannot pass the success check at all: it detects any drop ${how}`
          : `at ${size} this run passes even a candidate as successful as the baseline only ${percent(equal, 0)} of the time: it detects any drop ${how}`,
      ...extra,
    }
  const allLost = passChance(baseline)
  if (allLost > MISSED)
    return {
      value: null,
      text: `at ${size} this run detects no success drop: even a drop from ${percent(baseline)} to 0% success passes ${percent(allLost, 0)} of the time ${how}`,
      ...extra,
    }
  const drop = whereMissed(passChance, 0, baseline)
  return {
    value: 100 * drop,
    text: `at ${size} this run detects a success drop of ${(100 * drop).toFixed(1)} points or more ${how}`,
    ...extra,
  }
}

/** The smallest true rate (fraction) a rule passing with at most `passMax` events of `runs` passes at most 20% of the time. */
export function detectableRate(passMax: number, runs: number): number {
  return whereMissed((rate) => binomialLowerTail(passMax, runs, rate), 0, 1)
}

/** decision point: the most events of `runs` whose rate (validity: its complement, in %) still clears the threshold. */
export function pointCutoff(limit: RateLimit, runs: number, clears: (valuePct: number) => boolean): number {
  const valueOf = (events: number) => (100 * (limit.complement ? runs - events : events)) / runs
  let events = Math.min(runs, Math.floor(limit.limit * runs) + 1)
  while (events >= 0 && !clears(valueOf(events))) events--
  return events
}

/** How a rate's rule was sized, said after its figure. */
export type RateRuleKind = 'fixed' | 'look' | 'point'

const RATE_RULE_NOTE: Record<RateRuleKind, string> = {
  fixed: '',
  look: '; this look’s exact group-sequential rule',
  point: '; decision point: the point rate decides',
}

/**
 * A rate check's detectable rate, in the check's units: % of runs (validity: the validity % at or below
 * which it is caught); `passMax` the most events its rule passes with at these runs.
 */
export function rateDetectable(
  limit: RateLimit,
  runs: number,
  cutoffs: Pick<SizedRule, 'pass_max'>,
  kind: RateRuleKind,
  alpha: number,
): Detectable | null {
  if (runs === 0) return null
  if (limit.limit >= 1 || cutoffs.pass_max >= runs)
    return {
      value: null,
      text: `at ${runs} runs this check passes whatever the count of ${limit.events}: it detects none`,
    }
  if (cutoffs.pass_max < 0) {
    const takes = kind === 'fixed' ? ` (with none, it takes ${runsToCertify(limit.limit, alpha)} runs)` : ''
    return {
      value: limit.complement ? 100 : 0,
      text: `at ${runs} runs this check cannot pass at all: no count of ${runs} runs certifies ${limit.events} at most ${percent(limit.limit)}${kind === 'look' ? ' at this look' : ''}${takes}`,
    }
  }
  const rate = detectableRate(cutoffs.pass_max, runs)
  const how = `(80% power${RATE_RULE_NOTE[kind]})`
  return limit.complement
    ? {
        value: 100 * (1 - rate),
        text: `at ${runs} runs this run detects an output validity of ${percent(1 - rate)} or less (${limit.events} ${percent(rate)} or more; 80% power${RATE_RULE_NOTE[kind]})`,
      }
    : {
        value: 100 * rate,
        text: `at ${runs} runs this run detects a rate of ${limit.events} of ${percent(rate)} or more ${how}`,
      }
}

/** A reduction's: the true reduction it passes 80% of the time, its threshold plus its MDE (mde.ts's normal approximation). */
export function reductionDetectable(threshold: number, mde: number | null, scenarios: number): Detectable | null {
  if (mde === null || !Number.isFinite(mde)) return null
  const value = threshold + mde
  return {
    value,
    text: `at ${scenarios} scenarios this run passes a true reduction of ${value.toFixed(1)}% or more 80% of the time (threshold ${threshold.toFixed(1)}% plus its MDE ${mde.toFixed(1)})`,
  }
}

/**
 * The gate's warning when its PASS could not see a doubling of the baseline's failures: its success
 * test passes such a candidate more than 20% of the time (its detectable drop exceeds the baseline's failure rate).
 */
export function unseenDoubling(verdict: GateDocument['verdict'], checks: readonly GateCheck[]): string | null {
  if (verdict !== 'pass') return null
  const doubling = checks.find((c) => c.name === 'reliability_success_rate_non_inferior')?.detectable?.doubling
  if (!doubling || doubling.pass_chance <= MISSED) return null
  return `This PASS could not see a doubling of failures: ${doubling.text}.`
}
