/**
 * A suite's plan split across N machines (`run --shard i/N`), computed by every shard alone from the plan:
 * no coordinator, the same partition everywhere. The unit is the paired block, one scenario x iteration
 * with all its modes and providers, so the modes of a block run interleaved on one machine and machine
 * effects cancel in the paired comparison. When shards share fixtures (one repository on live GitHub),
 * scenarios that share a fixture kind keep all their blocks on one shard: a reset on one machine would
 * pull the floor from a run on another. Shards are balanced by blocks, or by the blocks' wall time in a
 * previous run (`--shard-weights`): the heaviest unit first, onto the lightest shard (ties: the lower index).
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {resolveConfigPath, withLayer, type LoadedConfig} from '../config/load-config.js'
import type {GitHubTarget} from '../github/target.js'
import {readRows} from '../results/sources.js'
import {withDependencies} from '../seeding/index.js'
import type {Scenario} from '../schemas/scenario.js'
import {SHARD_FORMAT, type ComparabilityKey, type ShardHeader} from '../schemas/shard-header.js'
import {BadInputError} from '../shared/diagnostics.js'
import {jsonSha256} from '../shared/digest.js'
import {HARNESS_VERSION} from '../shared/version.js'
import type {PlannedRun} from './plan.js'
import {MAX_SHARDS} from './shard-limit.js'
import type {SelectedSuite} from './select-suite.js'
import type {SuiteContext} from './suite-context.js'

export interface ShardSpec {
  /** From 1. */
  index: number
  count: number
}

/** `i/N` as given to --shard: bad input (exit 2) unless 1 <= i <= N <= MAX_SHARDS. */
export function parseShardSpec(text: string, where = '--shard'): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  const problem =
    !match || count < 1 || index < 1 || index > count
      ? `expected i/N, this machine's shard i of N shards with 1 <= i <= N (as 2/4), got ${JSON.stringify(text)}`
      : count > MAX_SHARDS
        ? `at most ${MAX_SHARDS} shards, got ${JSON.stringify(text)}`
        : undefined
  if (problem) throw new BadInputError([{file: where, code: 'config', message: problem}])
  return {index, count}
}

export const shardLabel = (spec: ShardSpec): string => `${spec.index}/${spec.count}`

/** The name of a shard's record under results_dir: <run-id>.shard-<i>-of-<N> (its rows file and its folder). */
export const shardRecordName = (runId: string, spec: ShardSpec): string =>
  `${runId}.shard-${spec.index}-of-${spec.count}`

/**
 * What the seed ids of a run's shards start with (live GitHub: shardSeedId), so that `fixtures cleanup
 * --run-id` finds every shard's resources. A run id is kept as it is up to 20 characters of
 * [A-Za-z0-9_-] (others become _); a longer one is cut, with a digest of it, so that the seed label
 * (bench-seed:<id>) stays within GitHub's 50 characters.
 */
export function runSeedPrefix(runId: string): string {
  const slug = runId.replace(/[^A-Za-z0-9_-]/g, '_')
  const part = slug.length <= 20 ? slug : `${slug.slice(0, 11)}-${jsonSha256(runId).slice(0, 8)}`
  return `${part}-shard-`
}

/** A shard's own seed id on live GitHub: its fixtures are never another shard's. */
export const shardSeedId = (runId: string, spec: ShardSpec): string =>
  `${runSeedPrefix(runId)}${spec.index}-of-${spec.count}`

/**
 * A shard's configuration on live GitHub: fixtures of its own (its seed id, its manifest beside the
 * project's, and with fixtures.shard_repos its own repository), so that shards never write to each
 * other's resources. On the sandbox every shard has a GitHub of its own: the configuration is kept.
 */
export function withShardFixtures(config: LoadedConfig, runId: string, spec: ShardSpec): LoadedConfig {
  if (config.values.target !== 'live') return config
  const {shard_repos: repos, manifest} = config.values.fixtures
  if (repos.length > 0 && repos.length < spec.count)
    throw new BadInputError([
      {
        file: config.origin,
        code: 'config',
        message: `fixtures.shard_repos lists ${repos.length} repositories for ${spec.count} shards: list one per shard, or none to share fixtures.repo`,
      },
    ])
  const manifestFile = resolveConfigPath(config, manifest)
  return withLayer(config, 'shard', {
    fixtures: {
      seed_id: shardSeedId(runId, spec),
      manifest: path.join(path.dirname(manifestFile), `${shardRecordName(runId, spec)}.json`),
      ...(repos.length > 0 ? {repo: repos[spec.index - 1]} : {}),
    },
  })
}

/** A paired block's key: scenario/iteration. */
export const blockKey = (scenarioId: string, iteration: number): string => `${scenarioId}/${iteration}`

/**
 * Scenarios that share a fixture kind (with the kinds it depends on), linked through any chain of them:
 * each scenario's group, named by its first scenario. A scenario without fixtures is a group of its own.
 */
export function fixtureGroups(scenarios: readonly Scenario[]): Map<string, string> {
  const parent = new Map<string, string>(scenarios.map((s) => [s.id, s.id]))
  const root = (id: string): string => (parent.get(id) === id ? id : root(parent.get(id)!))
  const holderOf = new Map<string, string>()
  for (const scenario of scenarios)
    for (const kind of withDependencies(scenario.fixture?.requires ?? [])) {
      const holder = holderOf.get(kind)
      if (holder === undefined) holderOf.set(kind, scenario.id)
      else parent.set(root(scenario.id), root(holder))
    }
  // Named by its first scenario in the suite's order, whatever the order of linking.
  const names = new Map<string, string>()
  for (const {id} of scenarios) if (!names.has(root(id))) names.set(root(id), id)
  return new Map(scenarios.map((s) => [s.id, names.get(root(s.id))!]))
}

export interface PartitionOptions {
  /** Scenarios whose blocks stay on one shard (fixtureGroups); absent: every block is placed alone. */
  groups?: ReadonlyMap<string, string>
  /** A block's weight (a previous run's wall time); absent: 1 a block. */
  weightOf?: (scenarioId: string, iteration: number) => number
}

/**
 * Each shard's blocks (partition[i - 1] are shard i's), each list in plan order: iterations in turn, the
 * scenarios in the suite's order within an iteration.
 */
export function partitionBlocks(
  scenarioIds: readonly string[],
  repetitions: number,
  count: number,
  {groups, weightOf = () => 1}: PartitionOptions = {},
): string[][] {
  const units = new Map<string, {weight: number; blocks: Set<string>; first: number}>()
  let order = 0
  for (let iteration = 1; iteration <= repetitions; iteration++)
    for (const id of scenarioIds) {
      const name = groups ? `group ${groups.get(id) ?? id}` : blockKey(id, iteration)
      const unit = units.get(name) ?? {weight: 0, blocks: new Set<string>(), first: order}
      unit.weight += weightOf(id, iteration)
      unit.blocks.add(blockKey(id, iteration))
      units.set(name, unit)
      order++
    }
  const loads = Array.from({length: count}, () => 0)
  const owner = new Map<string, number>()
  const heaviestFirst = [...units.values()].sort((a, b) => b.weight - a.weight || a.first - b.first)
  for (const unit of heaviestFirst) {
    const lightest = loads.indexOf(Math.min(...loads))
    loads[lightest]! += unit.weight
    for (const block of unit.blocks) owner.set(block, lightest)
  }
  const partition: string[][] = Array.from({length: count}, () => [])
  for (let iteration = 1; iteration <= repetitions; iteration++)
    for (const id of scenarioIds) partition[owner.get(blockKey(id, iteration))!]!.push(blockKey(id, iteration))
  return partition
}

/**
 * Each scenario's weight from a previous run's rows: the mean wall time of its blocks (a block: the sum of
 * its runs'). A scenario the rows do not hold weighs the mean of those they do.
 */
async function weightsFrom(file: string, cwd: string): Promise<(scenarioId: string) => number> {
  const resolved = path.resolve(cwd, file)
  if (!existsSync(resolved))
    throw new BadInputError([{file: '--shard-weights', code: 'io', message: `no such results file: ${file}`}])
  const blocks = new Map<string, {scenario: string; ms: number}>()
  for await (const row of readRows([resolved], () => {}, cwd)) {
    const key = blockKey(row.scenario_id, row.iteration)
    const block = blocks.get(key) ?? {scenario: row.scenario_id, ms: 0}
    block.ms += row.latency_ms_wall
    blocks.set(key, block)
  }
  const perScenario = new Map<string, {ms: number; blocks: number}>()
  for (const {scenario, ms} of blocks.values()) {
    const total = perScenario.get(scenario) ?? {ms: 0, blocks: 0}
    perScenario.set(scenario, {ms: total.ms + ms, blocks: total.blocks + 1})
  }
  const means = new Map([...perScenario].map(([scenario, t]) => [scenario, t.ms / t.blocks]))
  const known = [...means.values()]
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 1
  return (scenarioId) => means.get(scenarioId) ?? fallback
}

/** What this machine ran the plan with: the facts of the comparability key that preflight and the open target give. */
interface KeyFacts {
  modes: SuiteContext['modes']
  providers: string[]
  /** As rows record it (ModelSource.label). */
  model: string
  target: GitHubTarget['kind']
}

/** A shard's facts: the key's, and the run's id and the pairs its plan leaves out. */
export interface ShardFacts extends KeyFacts {
  runId: string
  unavailable: ShardHeader['unavailable']
  notApplicable: ShardHeader['not_applicable']
}

/**
 * What two runs must agree on to be compared run against run, and two shards to be one run: the
 * harness, the catalogue, the plan's shape and seed, the modes' tools, providers, plugins, model, target
 * and profile. Every run records it in run.json; a shard in its header.
 */
export function comparabilityKey({suite, scenarios, registry}: SelectedSuite, facts: KeyFacts): ComparabilityKey {
  // Concurrency is the machine's to choose: shards on machines of different sizes are still one run.
  const {concurrency: _perMachine, ...planned} = suite
  return {
    ghx_bench: HARNESS_VERSION,
    catalogue_sha256: jsonSha256({suite: planned, scenarios}),
    suite: suite.name,
    scenarios: scenarios.map((s) => s.id),
    repetitions: suite.repetitions,
    modes: Object.fromEntries(
      [...facts.modes].map(([name, {options, tools}]) => [
        name,
        {tools: tools ?? {}, options_sha256: jsonSha256(options)},
      ]),
    ),
    providers: facts.providers,
    plugins: Object.fromEntries(registry.plugins().map((p) => [p.name, p.version])),
    model: facts.model,
    target: facts.target,
    profile: suite.gate?.profile ?? null,
    seed: suite.seed,
  }
}

/** This machine's shard: its header (the key, every shard's blocks) and whether it owns a planned run. */
export async function planShard(
  selected: SelectedSuite,
  shard: {spec: ShardSpec; weights?: string},
  facts: ShardFacts,
): Promise<{header: ShardHeader; owns: (run: PlannedRun) => boolean; ownsScenario: (id: string) => boolean}> {
  const {suite, scenarios, cwd} = selected
  const scenarioIds = scenarios.map((s) => s.id)
  const weight = shard.weights ? await weightsFrom(shard.weights, cwd) : undefined
  // Each shard has a sandbox of its own, or on live GitHub with fixtures.shard_repos a repository; otherwise
  // they share one repository (each with its own fixtures, but the repository's lists are everyone's).
  const shared = facts.target === 'live' && selected.config.values.fixtures.shard_repos.length === 0
  const partition = partitionBlocks(scenarioIds, suite.repetitions, shard.spec.count, {
    groups: shared ? fixtureGroups(scenarios) : undefined,
    weightOf: weight,
  })
  const header: ShardHeader = {
    shard_format: SHARD_FORMAT,
    run_id: facts.runId,
    shard: {index: shard.spec.index, count: shard.spec.count},
    key: comparabilityKey(selected, facts),
    partition,
    unavailable: facts.unavailable,
    not_applicable: facts.notApplicable,
  }
  const owned = new Set(partition[shard.spec.index - 1])
  const ownedScenarios = new Set([...owned].map((block) => block.slice(0, block.lastIndexOf('/'))))
  return {
    header,
    owns: (run) => owned.has(blockKey(run.scenario_id, run.iteration)),
    ownsScenario: (id) => ownedScenarios.has(id),
  }
}
