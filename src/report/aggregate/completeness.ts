/**
 * Whether the rows are a whole run: a verdict is about a run, so rows that lack part of it (a shard
 * judged alone, a run cut short by Ctrl-C, rows deleted from the file) are incomplete, never judged as
 * if they were the run. The rows are compared with the run's plan recorded in run.json (its
 * comparability key: scenarios, repetitions, modes, providers; the pairs not applicable and the
 * blocks a budget left out, which are said apart) and with themselves. Rows with no plan beside them
 * (hand-made, a predecessor's) are checked across modes only: every block (scenario x iteration) that
 * one mode and provider of the run has, the others have too; the verdict says the plan is unknown.
 * What the rows hold is a bit an iteration (RunsSeen): nothing is kept per row.
 */
import type {RunInfo} from '../../results/run-info.js'
import {iterationOfBlock, runOfBlock, type ProviderAggregates} from './aggregate.js'
import {scratchFloat64} from './columns.js'
import {bitOf, setBit} from '../../results/run-keys.js'

export interface Completeness {
  /** "incomplete: …", naming what is missing and the command that completes it; null when nothing is. */
  incomplete: string | null
  /** Runs whose plan is unknown, said beside the verdict; null when every run's plan was known. */
  planUnknown: string | null
  /** Rows of scenarios, modes or providers their run's plan does not have (rows pasted in): said, never counted as missing. */
  beyondPlan: string | null
}

/** How many missing runs a sentence names before it counts the rest. */
const NAMED = 6

interface RunHeld {
  providers: Set<string | null>
  modes: Set<string>
  scenarios: Set<string>
}

/**
 * Which runs the rows hold: a bit per iteration, per run x provider x mode x scenario, and which
 * providers, modes and scenarios each run has rows of. Filled row by row (`add`), or from aggregates.
 */
export class RunsSeen {
  /** A bitmap of iterations a run x provider x mode x scenario (RunsSeen.key). */
  private readonly bits = new Map<string, Uint8Array>()
  readonly runs = new Map<string, RunHeld>()

  private static key(run: string, provider: string | null, mode: string, scenario: string): string {
    return `${run}\u0000${provider ?? ''}\u0000${mode}\u0000${scenario}`
  }

  /** The key of a run x provider x mode x scenario, its run's providers, modes and scenarios noted when new. */
  private keyOf(run: string, provider: string | null, mode: string, scenario: string): string {
    const key = RunsSeen.key(run, provider, mode, scenario)
    if (this.bits.has(key)) return key
    let held = this.runs.get(run)
    if (!held) this.runs.set(run, (held = {providers: new Set(), modes: new Set(), scenarios: new Set()}))
    held.providers.add(provider)
    held.modes.add(mode)
    held.scenarios.add(scenario)
    return key
  }

  add(row: {run_id: string; provider: string | null; mode: string; scenario_id: string; iteration: number}): void {
    setBit(this.bits, this.keyOf(row.run_id, row.provider, row.mode, row.scenario_id), row.iteration)
  }

  iterations(run: string, provider: string | null, mode: string, scenario: string): Uint8Array | undefined {
    return this.bits.get(RunsSeen.key(run, provider, mode, scenario))
  }

  /** The runs aggregated rows hold, read from their cells' block columns: a key made per run of a cell, not per row. */
  static ofAggregates(providers: ProviderAggregates): RunsSeen {
    const seen = new RunsSeen()
    for (const [provider, aggregate] of providers) {
      const ids = [...aggregate.run_index.keys()]
      for (const [mode, byScenario] of aggregate.cells)
        for (const [scenario, cell] of byScenario) {
          let run = -1
          let key = ''
          for (const block of cell.blocks.valuesInto(scratchFloat64('blocks', cell.blocks.length))) {
            if (runOfBlock(block) !== run) key = seen.keyOf(ids[(run = runOfBlock(block))]!, provider, mode, scenario)
            setBit(seen.bits, key, iterationOfBlock(block))
          }
        }
    }
    return seen
  }

  /** Each mode x provider's bitmap of a run's scenario (modes not applicable to it left out), fetched once. */
  sides(
    run: string,
    scenario: string,
    modes: readonly string[],
    providers: Iterable<string | null>,
    notApplicable: ReadonlySet<string>,
  ): Array<{mode: string; provider: string | null; bits: Uint8Array | undefined}> {
    return modes
      .filter((mode) => !notApplicable.has(`${scenario}\u0000${mode}`))
      .flatMap((mode) =>
        [...providers].map((provider) => ({mode, provider, bits: this.iterations(run, provider, mode, scenario)})),
      )
  }
}

/** Blocks ("scenario/iteration") by scenario: the iterations of each. */
function blocksByScenario(blocks: readonly string[]): Map<string, Set<number>> {
  const byScenario = new Map<string, Set<number>>()
  for (const block of blocks) {
    const at = block.lastIndexOf('/')
    const scenario = block.slice(0, at)
    if (!byScenario.has(scenario)) byScenario.set(scenario, new Set())
    byScenario.get(scenario)!.add(Number(block.slice(at + 1)))
  }
  return byScenario
}

/** The iterations a bitmap holds. */
function* iterationsOf(bits: Uint8Array | undefined): Generator<number> {
  if (!bits) return
  for (let byte = 0; byte < bits.length; byte++)
    for (let bit = 0; bit < 8; bit++) if ((bits[byte]! & (1 << bit)) !== 0) yield byte * 8 + bit
}

interface Missing {
  count: number
  named: string[]
}

function addMissing(missing: Missing, what: string): void {
  missing.count++
  if (missing.named.length < NAMED) missing.named.push(what)
}

const runName = (scenario: string, iteration: number, mode: string, provider: string | null, many: boolean): string =>
  `${scenario}/${iteration} ${mode}${many && provider ? ` (${provider})` : ''}`

const listOf = ({count, named}: Missing): string =>
  `${named.join(', ')}${count > named.length ? `, … (${count} in all)` : ''}`

/** The command that completes a run: merge for a shard, resume otherwise. */
function completion(info: RunInfo | undefined, runId: string): string {
  if (info?.shard)
    return `this is shard ${info.shard.index}/${info.shard.count} of run ${runId}: judge the run, not a shard, with \`ghx-bench merge\` of every shard's results`
  const suite = info?.suite_file ?? (info?.suite ? `<suite ${info.suite}>` : '<suite>')
  const why = info?.stopped
    ? ` (it was ${info.stopped.reason === 'interrupted' ? 'interrupted' : 'stopped by the rate budget'})`
    : ''
  return `the run is incomplete${why}: complete it with \`ghx-bench run ${suite} --run-id ${runId}\` and the flags it was started with (recorded runs are skipped)`
}

/** The rows compared with their runs' plans (run.json) and with themselves. */
export function completenessOf(seen: RunsSeen, runInfos: readonly RunInfo[]): Completeness {
  const infos = new Map(runInfos.map((info) => [info.run_id, info]))
  const incomplete: string[] = []
  const unknown: string[] = []
  const beyond: string[] = []
  for (const [runId, held] of seen.runs) {
    const info = infos.get(runId)
    const key = info?.key
    const missing: Missing = {count: 0, named: []}
    const notApplicable = new Set((info?.not_applicable ?? []).map((n) => `${n.scenario_id}\u0000${n.mode}`))
    if (key) {
      const leftOut = blocksByScenario(info.not_run?.blocks ?? [])
      const modes = Object.keys(key.modes)
      const many = key.providers.length > 1
      let planned = 0
      for (const scenario of key.scenarios) {
        // The iterations are then bits to test.
        const sides = seen.sides(runId, scenario, modes, key.providers, notApplicable)
        const skipped = leftOut.get(scenario)
        for (let iteration = 1; iteration <= key.repetitions; iteration++) {
          if (skipped?.has(iteration)) continue
          for (const {mode, provider, bits} of sides) {
            planned++
            if (!bitOf(bits, iteration)) addMissing(missing, runName(scenario, iteration, mode, provider, many))
          }
        }
      }
      if (missing.count > 0)
        incomplete.push(
          `run ${runId} lacks ${missing.count} of its ${planned} planned runs (${listOf(missing)}): ${completion(info, runId)}`,
        )
      const outside = rowsBeyondPlan(held, key, modes)
      if (outside) beyond.push(`run ${runId}: ${outside}`)
      continue
    }
    unknown.push(runId)
    // No plan: every block a mode and provider of the run has, its other modes and providers must have.
    const modes = info?.modes ?? [...held.modes]
    const many = held.providers.size > 1
    for (const scenario of held.scenarios) {
      const sides = seen.sides(runId, scenario, modes, held.providers, notApplicable)
      const union = new Uint8Array(Math.max(0, ...sides.map((side) => side.bits?.length ?? 0)))
      for (const {bits} of sides) if (bits) for (let i = 0; i < bits.length; i++) union[i]! |= bits[i]!
      for (const iteration of iterationsOf(union))
        for (const {mode, provider, bits} of sides)
          if (!bitOf(bits, iteration)) addMissing(missing, runName(scenario, iteration, mode, provider, many))
    }
    if (missing.count > 0)
      incomplete.push(
        `run ${runId} lacks ${missing.count} run(s) that its other modes or providers have (${listOf(missing)}): ${completion(info, runId)}`,
      )
  }
  // A plan beside the rows with none of its runs among them (another run's run.json, or its rows all gone).
  for (const info of runInfos)
    if (info.key && !seen.runs.has(info.run_id))
      incomplete.push(
        `run ${info.run_id} (its run.json is beside these rows) has none of its planned runs among them: ${completion(info, info.run_id)}`,
      )
  const shown = (ids: string[]): string =>
    ids.length > NAMED ? `${ids.slice(0, NAMED).join(', ')}, … (${ids.length} runs)` : ids.join(', ')
  return {
    incomplete: incomplete.length > 0 ? `incomplete: ${incomplete.join('; ')}` : null,
    planUnknown:
      unknown.length > 0
        ? `the plan of run ${shown(unknown)} is unknown (no run.json with its plan beside the rows): completeness was checked across modes only`
        : null,
    beyondPlan: beyond.length > 0 ? beyond.join('; ') : null,
  }
}

/** What a run's rows hold that its plan does not: other scenarios, modes or providers. */
function rowsBeyondPlan(held: RunHeld, key: NonNullable<RunInfo['key']>, modes: readonly string[]): string | null {
  const planned = new Set(key.scenarios)
  const parts = [
    ...[...held.scenarios].filter((s) => !planned.has(s)).map((s) => `scenario ${s}`),
    ...[...held.modes].filter((m) => !modes.includes(m)).map((m) => `mode ${m}`),
    ...[...held.providers]
      .filter((p) => p === null || !key.providers.includes(p))
      .map((p) => `provider ${p ?? '(none)'}`),
  ]
  return parts.length > 0 ? `rows of ${parts.join(', ')} that its plan (run.json) does not have` : null
}
