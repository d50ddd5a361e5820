/**
 * The gate over rows read once (aggregate/rows.ts): the profile's thresholds, each provider's rows
 * gated alone (its candidate against its baseline, scenarios either mode cannot solve left out), after
 * the comparability guard; a look of run --until-decided lays its frozen verdicts over this one's.
 */
import {resolveConfigPath, type LoadedConfig} from '../../config/load-config.js'
import {loadProfile} from '../../catalogue/profiles.js'
import {notApplicableTo} from '../../results/run-info.js'
import type {Profile} from '../../schemas/profile.js'
import {BadInputError, suggestionSuffix} from '../../shared/diagnostics.js'
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from '../../stats/bootstrap.js'
import {withoutScenarios, type Aggregate} from '../aggregate/aggregate.js'
import {compareModes, DEFAULT_CONFIDENCE} from '../aggregate/compare.js'
import type {GateDocument} from '../aggregate/report-schema.js'
import type {LoadedRows} from '../aggregate/rows.js'
import {runIdsOf, summarizeFailures, traceRoot, type ReportSettings} from '../aggregate/summary.js'
import {unseenDoubling} from './detectable.js'
import {DEFAULT_ESTIMAND, EXIT_CODES, evaluateGate, resolveThresholds, type Decision} from './gate.js'
import type {SequentialLook} from './reliability-rules.js'
import {freezeVerdicts, type FrozenVerdicts} from './sequential.js'

export interface GateSettings {
  profile?: string
  candidate?: string
  model?: string
  decision?: Decision
  allowMixed?: boolean
  /** Confidence of the intervals (default 0.95); a sequential look sets its own. */
  confidence?: number
  /** run --until-decided: the look the gate is judged at. */
  sequential?: GateDocument['sequential']
  /** run --until-decided: the look judged, whose error the rates' sized rules spend over the looks. */
  look?: SequentialLook
  /** run --until-decided: verdicts frozen at earlier looks, laid over this look's (sequential.ts). */
  frozen?: FrozenVerdicts
  /**
   * `merge`: what the rows lack of the run (shards or blocks missing). The gate of part of a run is
   * inconclusive whatever its checks say: never a pass, and a failure of the part may not be the run's.
   */
  incomplete?: string
}

type GateOptions = ReportSettings & GateSettings

/** The profile the gate applies: --profile, else gate.profile. */
export function loadGateProfile(config: LoadedConfig, settings: GateSettings, cwd = process.cwd()): Promise<Profile> {
  // A name given by --profile (directly, or as the flags' configuration layer) is reported at the flag.
  const namedBy = settings.profile || config.layers.flags?.gate?.profile ? '--profile' : undefined
  return loadProfile(
    settings.profile ?? config.values.gate.profile,
    resolveConfigPath(config, config.values.suites_dir),
    cwd,
    namedBy,
  )
}

/**
 * The gate over the rows. Each provider's rows are gated alone, its candidate against its baseline;
 * with several providers the document is the deciding provider's gate (the worst verdict: fail, then
 * inconclusive, then pass) with every provider's gate under `providers`.
 */
export function computeGate(
  config: LoadedConfig,
  loaded: LoadedRows,
  profile: Profile,
  options: GateOptions,
): GateDocument {
  if (options.model !== undefined) checkModelFlag(loaded, options.model)
  const gates = [...loaded.providers].map(([provider, aggregate]) =>
    gateOfProvider(aggregate, provider, loaded, profile, config, options),
  )
  if (gates.length === 1) return gates[0]!.gate
  const worst = VERDICT_ORDER.map((verdict) => gates.find((g) => g.gate.verdict === verdict)).find(Boolean)!
  return {
    ...worst.gate,
    provider: worst.provider,
    inputs: loaded.inputs,
    run_ids: runIdsOf(loaded.providers),
    rows: gates.reduce((n, g) => n + g.gate.rows, 0),
    providers: gates.map(({gate, provider}) => ({...gate, provider})),
  }
}

/**
 * Why the gate cannot be computed from these rows: a mode of it has no row at all (it could not run
 * here, or was not run), with the reason the run recorded; null when both modes have rows. A mode named
 * by --baseline or --candidate that has no row is bad input (exit 2): the flag is the mistake. A mode the
 * suite, the run recorded or the configuration names makes the gate inconclusive: the same reason and
 * exit code from `run` and from `gate` over its rows.
 */
export function uncomputableGate(config: LoadedConfig, loaded: LoadedRows, options: GateOptions): string | null {
  const roles = {
    baseline: options.baseline ?? config.values.gate.baseline,
    candidate: options.candidate ?? config.values.gate.candidate,
  }
  const present = new Set([...loaded.providers.values()].flatMap((aggregate) => [...aggregate.cells.keys()]))
  const missing = (['baseline', 'candidate'] as const).filter((role) => !present.has(roles[role]))
  if (missing.length === 0) return null
  const modes = [...present].sort()
  const flagged = missing.filter((role) => config.layers.flags?.gate?.[role] !== undefined || options[role])
  if (flagged.length > 0)
    throw new BadInputError(
      flagged.map((role) => ({
        file: `--${role}`,
        code: 'unknown_reference',
        message: `no rows for mode "${roles[role]}"${suggestionSuffix(roles[role], modes)}`,
      })),
    )
  const leftOut = new Map(loaded.runInfos.flatMap((info) => info.unavailable.map((u) => [u.mode, u.reason] as const)))
  const why = (mode: string) => leftOut.get(mode) ?? `not run (modes in the rows: ${modes.join(', ')})`
  return `the gate compares ${roles.baseline} with ${roles.candidate}, and ${missing.map((role) => `${roles[role]}: ${why(roles[role])}`).join('; ')}`
}

/** Verdicts from the worst: the gate of several providers takes the first any of them has. */
const VERDICT_ORDER = ['fail', 'inconclusive', 'pass'] as const

/** One provider's gate: its rows only, its baseline against its candidate. */
function gateOfProvider(
  rows: Aggregate,
  provider: string | null,
  loaded: LoadedRows,
  profile: Profile,
  config: LoadedConfig,
  options: GateOptions,
): {provider: string | null; gate: GateDocument} {
  const baseline = options.baseline ?? config.values.gate.baseline
  const candidate = options.candidate ?? config.values.gate.candidate
  const {inputs, runInfos} = loaded
  // The gate's own warnings go on a copy: the rows may be shared with the report.
  const warnings = [...loaded.warnings]
  // Scenarios one of the two modes cannot solve are compared by neither: n/a is not a failure, and not a free pass.
  const excluded = notApplicableTo(
    runInfos.flatMap((info) => info.not_applicable),
    [baseline, candidate],
  )
  const aggregate = withoutScenarios(rows, [baseline, candidate], excluded.keys())
  if (excluded.size > 0)
    warnings.push(`left out of the comparison as not applicable: ${[...excluded.keys()].sort().join(', ')}`)
  const model = checkComparable(aggregate, baseline, candidate, provider, loaded.providers.size > 1, options)
  const thresholds = resolveThresholds(profile, model, options.decision)
  const seed = options.seed ?? DEFAULT_SEED
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE
  const comparison = compareModes(aggregate, {
    baseline,
    candidate,
    minSamples: thresholds.min_samples,
    seed,
    resamples,
    confidence,
    estimand: thresholds.estimand,
  })
  const judged = evaluateGate(comparison, thresholds, options.look, {detectable: true})
  const {checks, verdict: checked} = options.frozen
    ? freezeVerdicts(judged.checks, options.frozen, (options.sequential?.look ?? 1) - 1)
    : judged
  const verdict = options.incomplete ? 'inconclusive' : checked
  if (options.incomplete) warnings.push(options.incomplete)
  const gate: GateDocument = {
    schema_version: 1,
    generated_at: new Date().toISOString(),
    inputs,
    run_ids: [...aggregate.run_ids].sort(),
    rows: aggregate.rows,
    warnings,
    bootstrap: {seed, resamples},
    profile: thresholds.profile,
    model: model ?? null,
    override: thresholds.override,
    decision: thresholds.decision,
    estimand: thresholds.estimand ?? DEFAULT_ESTIMAND,
    min_samples: thresholds.min_samples,
    confidence,
    sequential: options.sequential ?? null,
    thresholds: thresholds.thresholds,
    baseline,
    candidate,
    checks,
    verdict,
    unseen_doubling: unseenDoubling(verdict, checks),
    exit_code: EXIT_CODES[verdict],
    comparison,
    trace_root: traceRoot(inputs),
    failures: summarizeFailures(aggregate, [baseline, candidate]),
  }
  return {provider, gate}
}

/**
 * The comparability guard: both modes present, one model, the same scenarios. Returns the model whose
 * thresholds apply (the rows' one model); refuses mixed rows unless --allow-mixed.
 */
function checkComparable(
  aggregate: Aggregate,
  baseline: string,
  candidate: string,
  provider: string | null,
  ofSeveral: boolean,
  options: GateOptions,
): string | undefined {
  const present = [...aggregate.cells.keys()].sort()
  const missing = [baseline, candidate].filter((mode) => !aggregate.cells.has(mode))
  // With several providers each is gated alone: a mode missing from one provider's rows is named with it.
  const whose = ofSeveral ? ` of provider ${JSON.stringify(provider)}` : ''
  if (missing.length > 0) {
    throw new BadInputError(
      missing.map((mode) => ({
        file: '--input',
        code: 'unknown_reference',
        message: `no rows${whose} for mode "${mode}" (modes in the rows${whose}: ${present.join(', ')}); choose them with --baseline and --candidate`,
      })),
    )
  }
  const problems: string[] = []
  const models = new Set([...(aggregate.models.get(baseline) ?? []), ...(aggregate.models.get(candidate) ?? [])])
  if (models.size > 1) problems.push(`rows of different models: ${[...models].sort().join(', ')}`)
  const baseScenarios = new Set(aggregate.cells.get(baseline)!.keys())
  const candScenarios = new Set(aggregate.cells.get(candidate)!.keys())
  const onlyBase = [...baseScenarios].filter((s) => !candScenarios.has(s))
  const onlyCand = [...candScenarios].filter((s) => !baseScenarios.has(s))
  if (onlyBase.length + onlyCand.length > 0) {
    problems.push(
      `different scenarios: only ${baseline}: ${onlyBase.join(', ') || 'none'}; only ${candidate}: ${onlyCand.join(', ') || 'none'}`,
    )
  }
  if (problems.length > 0 && !options.allowMixed) {
    throw new BadInputError(
      problems.map((message) => ({
        file: '--input',
        code: 'unknown_reference',
        message: `not comparable: ${message} (pass --allow-mixed to gate them anyway)`,
      })),
    )
  }
  // --model selects the override of the rows' own model: another model's thresholds never judge these rows.
  const model = models.size === 1 ? [...models][0] : undefined
  if (options.model !== undefined && models.has(options.model) && models.size > 1)
    throw new BadInputError([
      {
        file: '--model',
        code: 'unknown_reference',
        message: `--model ${JSON.stringify(options.model)}'s thresholds apply to its own rows only, and these hold ${[...models].sort().join(', ')}: gate each model's rows apart`,
      },
    ])
  return model
}

/** --model names a model of the rows (its overrides apply to its rows only): otherwise bad input, naming the rows' models. */
function checkModelFlag(loaded: LoadedRows, model: string): void {
  const models = new Set(
    [...loaded.providers.values()].flatMap((aggregate) => [...aggregate.models.values()].flatMap((m) => [...m])),
  )
  if (models.has(model)) return
  throw new BadInputError([
    {
      file: '--model',
      code: 'unknown_reference',
      message: `no rows of model ${JSON.stringify(model)} (models in the rows: ${[...models].sort().join(', ') || 'none recorded'}): a model's thresholds apply to its own rows only${suggestionSuffix(model, [...models])}`,
    },
  ])
}
