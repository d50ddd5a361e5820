/**
 * The plan: every scenario x mode x provider x iteration. Iterations are blocks (all of iteration 1
 * before any of iteration 2), and inside a block the order is shuffled with the suite's seed, so modes
 * (and providers) are interleaved: the predecessors ran one mode after the other, which confounds time
 * with mode.
 */
import {mulberry32} from '../stats/random.js'

export interface PlannedRun {
  /** scenario/mode/provider/iteration: the identity of a row, used to resume. */
  key: string
  scenario_id: string
  mode: string
  /** The provider (agent runtime) the run is played under, by name. */
  provider: string
  iteration: number
}

export function runKey(scenarioId: string, mode: string, provider: string, iteration: number): string {
  return `${scenarioId}/${mode}/${provider}/${iteration}`
}

export function buildPlan(
  scenarioIds: readonly string[],
  modes: readonly string[],
  providers: readonly string[],
  repetitions: number,
  seed: number,
): PlannedRun[] {
  const random = mulberry32(seed)
  const plan: PlannedRun[] = []
  for (let iteration = 1; iteration <= repetitions; iteration++) {
    const block = scenarioIds.flatMap((scenario_id) =>
      modes.flatMap((mode) =>
        providers.map((provider) => ({
          key: runKey(scenario_id, mode, provider, iteration),
          scenario_id,
          mode,
          provider,
          iteration,
        })),
      ),
    )
    // Fisher-Yates with the seeded generator: the same seed gives the same order.
    for (let i = block.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[block[i], block[j]] = [block[j]!, block[i]!]
    }
    plan.push(...block)
  }
  return plan
}
