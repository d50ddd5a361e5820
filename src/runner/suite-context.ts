/** What every run of a suite shares: the target, the model, the providers, the modes, the limits, the fixtures. */
import type {Manifest} from '../seeding/manifest.js'
import type {Mode, Provider, ProviderProgress} from '../plugins/api.js'
import type {PluginRegistry} from '../plugins/registry.js'
import type {GitHubTarget} from '../github/target.js'
import type {Row} from '../results/row-schema.js'
import type {FixtureKind} from '../schemas/scenario.js'
import type {ModelSource} from './model-source.js'
import type {MutationReport} from './mutation.js'
import type {PlannedRun} from './plan.js'
import type {Redactor} from '../shared/redact.js'
import type {Price} from '../results/usage.js'

export interface SuiteContext {
  runId: string
  /** Where the run's record is under results_dir: the run id, or a shard's <run-id>.shard-<i>-of-<N>. */
  recordName: string
  suite: string | null
  scenarioSet: string | null
  registry: PluginRegistry
  target: GitHubTarget
  /** The seeding the fixtures belong to (fixtures.seed_id). */
  seedId: string
  model: ModelSource
  /** The providers by name: a run is played under its own (PlannedRun.provider). */
  providers: Map<string, {plugin: Provider; options: Record<string, unknown>}>
  modes: Map<string, {mode: Mode; options: Record<string, unknown>; tools?: Record<string, string>}>
  /** The suite's manifest; runs that share a kind never overlap, so each may update its own kinds. */
  fixtures: {manifest: Manifest; update(manifest: Manifest, kinds: readonly FixtureKind[]): void}
  manifestFile: string
  /** results_dir: traces go to <results_dir>/<record name>/traces. */
  resultsDir: string
  timeouts: {run_ms: number; stall_ms: number; checkpoint_ms: number; checkpoint_interval_ms: number}
  limits: {max_turns?: number; max_tokens?: number}
  infraRetries: number
  price?: Price
  versions: Row['versions']
  git: Row['git']
  redact: Redactor
  /** Ctrl-C: in-flight runs are aborted and not recorded (resume runs them again). */
  signal: AbortSignal
  onProgress?: (run: PlannedRun, event: ProviderProgress) => void
  /** --inject-faults is on: rows count the faults their traffic received. */
  injectFaults?: boolean
  /** Work a run leaves to finish on its own (releasing what it held; background-work.ts); the suite waits for it before it closes. */
  inBackground(work: Promise<unknown>): void
  /** Calibration's mutation testing (sandbox only): called with each run that passed. */
  mutation?: (report: MutationReport) => void
}
