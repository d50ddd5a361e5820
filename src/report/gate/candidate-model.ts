/**
 * The model of a realistic good candidate and of its data: what the simulator (simulate.ts) draws
 * datasets from, and what the planner (power.ts) and the detectable regressions (detectable.ts) size for.
 * A leaf of the gate's folder: it imports nothing of the gate, so each of them can read it. The model's
 * grounds (the published rows' spreads and token mix) are in simulate.ts's comment.
 */
import type {Price} from '../../results/usage.js'

/** How a run's tokens divide into types, which the cost is priced from (see the file's comment). */
export interface TokenMix {
  /** Range of a scenario's typical share of output (and reasoning) tokens in its active tokens. */
  output_share: [number, number]
  /** Range of a scenario's typical share of its prompt that the cache did not serve. */
  uncached_share: [number, number]
  /** Run-to-run standard deviation of the prompt (uncached input + cache reads), log scale. */
  prompt_sd: number
  /** Run-to-run standard deviation of the output tokens, log scale. */
  output_sd: number
  /** USD per million tokens of each type. */
  price: Price
}

export interface SimulationModel {
  /** Standard deviation of the candidate's effect between scenarios, on the log scale. */
  scenario_spread: number
  /** Run-to-run coefficient of variation of active tokens and agent time, in % (cost follows from the tokens). */
  cv_pct: number
  /** Standard deviation of the iteration-block factor the two modes share, on the log scale. */
  block_sd: number
  baseline_success_pct: number
  /**
   * The correlation of the two modes' success within an iteration block, on a latent normal scale
   * (each mode succeeds when √ρ·u + √(1 − ρ)·e, u the block's and e its own, falls below its rate's
   * quantile): a hard scenario or a bad moment fails both runs of a block. 0: independent.
   */
  success_correlation: number
  /** The candidate's failure rates (%) where its efficiency is at the point (see the file's comment). */
  candidate_reliability: CandidateReliability
  tokens: TokenMix
}

export interface CandidateReliability {
  timeout_pct: number
  /** Runner failures, timeouts included (the gate's runner-failure rate counts both). */
  runner_failure_pct: number
  invalid_pct: number
  retry_pct: number
}

/** The realistic reliability of issue 26's good candidate: 0.4% timeouts, 1% runner failures (success as the baseline's). */
export const REALISTIC_RELIABILITY: CandidateReliability = {
  timeout_pct: 0.4,
  runner_failure_pct: 1,
  invalid_pct: 0.5,
  retry_pct: 2,
}

/**
 * Shares and spreads from the published cells: output 6-43% of active tokens (median about 17%);
 * uncached input 2-35% of the prompt (median about 21%); run log SD of the output 0.06-0.46 (median
 * 0.15); of the prompt 0.15, the median of the full-session rows (ghx-eval's 0.07-0.47; ghx-router's
 * rows count only the last message, 0.01-0.32). Prices: the GPT-5 family's list prices, the model of
 * the published rows (only their ratios matter: a reduction is a ratio).
 */
const DEFAULT_TOKEN_MIX: TokenMix = {
  output_share: [0.1, 0.3],
  uncached_share: [0.1, 0.3],
  prompt_sd: 0.15,
  output_sd: 0.15,
  price: {input: 1.25, output: 10, cache_read: 0.125, cache_write: 1.25},
}

/** The range of a scenario's baseline tool calls a run (uniform): the planner's model reads it too. */
export const SIMULATED_TOOL_CALLS = [3, 10] as const

export const DEFAULT_MODEL: SimulationModel = {
  scenario_spread: 0.3,
  cv_pct: 30,
  block_sd: 0.1,
  baseline_success_pct: 95,
  success_correlation: 0.3,
  candidate_reliability: REALISTIC_RELIABILITY,
  tokens: DEFAULT_TOKEN_MIX,
}
