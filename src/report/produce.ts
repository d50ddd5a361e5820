/**
 * The stages judge.ts puts together: read the rows once into an aggregate per provider, compute (each
 * provider's rows apart: a report each, a gate each), write markdown and JSON under the reports folder,
 * and append the markdown to $GITHUB_STEP_SUMMARY when it is set.
 */
import {lstatSync, statSync} from 'node:fs'
import {appendFile, mkdir} from 'node:fs/promises'
import path from 'node:path'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {notApplicableTo, readRunInfoFor, type RunInfo} from '../results/run-info.js'
import {describeSuperseded, explicitFiles, originalFileFor, withRegraded} from '../results/regraded.js'
import {nameProblem} from '../results/names.js'
import {linkRefused} from '../results/no-follow.js'
import {resolveInputFiles} from '../results/sources.js'
import {BadInputError} from '../shared/diagnostics.js'
import {loadProfile} from '../catalogue/profiles.js'
import type {Profile} from '../schemas/profile.js'
import {displayPath} from '../shared/source-document.js'
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from '../stats/bootstrap.js'
import {withoutScenarios, type Aggregate, type ProviderAggregates} from './aggregate.js'
import {aggregateFiles} from './read-aggregate.js'
import {compareModes, DEFAULT_CONFIDENCE} from './compare.js'
import {DEFAULT_ESTIMAND, EXIT_CODES, evaluateGate, resolveThresholds, type Decision} from './gate.js'
import {freezeVerdicts, type FrozenVerdicts} from './sequential.js'
import type {GateDocument} from './report-schema.js'
import {buildProvidersReport, runIdsOf, summarizeFailures, traceRoot, type Report} from './summary.js'

export interface RowSelection {
  inputs?: string[]
  runId?: string
  cwd?: string
  /** Rows already read (the run's report and gate read them once). */
  loaded?: LoadedRows
}

export interface LoadedRows {
  /** The rows of each provider apart, in name order: a report shows each, a gate judges each alone. */
  providers: ProviderAggregates
  inputs: string[]
  warnings: string[]
  /** run.json of the runs the rows come from (not applicable pairs, modes left out). */
  runInfos: RunInfo[]
}

export async function loadRows(config: LoadedConfig, selection: RowSelection): Promise<LoadedRows> {
  const cwd = selection.cwd ?? process.cwd()
  const resolved = await resolveInputFiles({inputs: selection.inputs, runId: selection.runId, resultsDir: resolveConfigPath(config, config.values.results_dir), cwd})
  // Rows re-graded by `regrade` take the place of their originals.
  const {files, superseding} = await withRegraded(resolved, await explicitFiles(selection.inputs, cwd))
  const warnings: string[] = []
  const providers = await aggregateFiles(files, (warning) => {
    const w = describeSuperseded(warning, superseding, cwd)
    warnings.push(`${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`)
  }, cwd)
  if ([...providers.values()].every((aggregate) => aggregate.rows === 0)) throw new BadInputError(files.map((f) => ({file: displayPath(f, cwd), code: 'io', message: 'holds no rows'})))
  const infoFiles = [...new Set(files.map((f) => originalFileFor(f) ?? f))]
  const runInfos = (await Promise.all(infoFiles.map(readRunInfoFor))).filter((info): info is RunInfo => info !== undefined)
  for (const info of runInfos) {
    for (const {mode, reason} of info.unavailable) warnings.push(`run ${info.run_id}: mode ${mode} was left out: ${reason}`)
    const byMode = new Map<string, number>()
    for (const item of info.not_applicable) byMode.set(item.mode, (byMode.get(item.mode) ?? 0) + 1)
    for (const [mode, count] of byMode) warnings.push(`run ${info.run_id}: ${count} scenario(s) not applicable to ${mode} (declared by the scenarios), shown as n/a, not failed`)
  }
  return {providers, inputs: files.map((f) => displayPath(f, cwd)), warnings, runInfos}
}

export type Format = 'md' | 'json' | 'junit' | 'html'

export interface OutputOptions {
  out?: string
  formats: Format[]
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/**
 * reports_dir/<run id>, or reports_dir/latest when the rows come from several runs. The run id comes
 * from the rows, which may come from anywhere (--input): one that is not a plain name (`../../x`) is
 * bad input naming the files, never a path. --out must be a folder (or not exist yet).
 */
export function outputDir(config: LoadedConfig, rows: {run_ids: Iterable<string>}, options: OutputOptions & {inputs?: string[]; runId?: string}): string {
  if (options.out) {
    const dir = path.resolve(options.cwd ?? process.cwd(), options.out)
    const info = statSync(dir, {throwIfNoEntry: false})
    if (info && !info.isDirectory()) throw new BadInputError([{file: '--out', code: 'io', message: `${options.out} is a file, not a folder: --out names the folder the reports go to`}])
    return dir
  }
  const runIds = [...rows.run_ids]
  const name = runIds.length === 1 ? runIds[0]! : 'latest'
  const problem = nameProblem(name)
  if (problem) {
    const where = options.inputs?.length ? options.inputs.join(', ') : options.runId ? '--run-id' : '--input'
    throw new BadInputError([{file: where, code: 'schema', message: `the rows' run_id ${JSON.stringify(name)} ${problem}; pass --out to choose the report folder`}])
  }
  const dir = resolveConfigPath(config, path.join(config.values.reports_dir, name))
  // reports_dir is the user's; a link in it is not followed (results/no-follow.ts).
  if (lstatSync(dir, {throwIfNoEntry: false})?.isSymbolicLink()) throw linkRefused(dir, 'write', options.cwd)
  return dir
}

export async function writeOutputs(dir: string, stem: string, json: unknown, markdown: string, options: OutputOptions): Promise<string[]> {
  await mkdir(dir, {recursive: true})
  const written: string[] = []
  // Written whole or not at all (write, then rename): a reader never sees half a report or gate.
  if (options.formats.includes('json')) {
    written.push(path.join(dir, `${stem}.json`))
    await writeFileAtomic(written.at(-1)!, JSON.stringify(json, null, 2) + '\n')
  }
  if (options.formats.includes('md')) {
    written.push(path.join(dir, `${stem}.md`))
    await writeFileAtomic(written.at(-1)!, markdown)
  }
  const summary = (options.env ?? process.env).GITHUB_STEP_SUMMARY
  if (summary) await appendFile(summary, markdown + '\n')
  return written
}

/** The report's baseline and bootstrap (the gate's too). */
export interface ReportSettings {
  baseline?: string
  seed?: number
  resamples?: number
}

/** The report of the rows: each provider's apart. */
export function reportOf(config: LoadedConfig, loaded: LoadedRows, options: ReportSettings): Report {
  const {providers, inputs, warnings, runInfos} = loaded
  return buildProvidersReport(providers, {
    inputs,
    warnings,
    notApplicable: runInfos.flatMap((info) => info.not_applicable),
    baseline: options.baseline ?? config.values.gate.baseline,
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  })
}

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
  /** run --until-decided: verdicts frozen at earlier looks, laid over this look's (sequential.ts). */
  frozen?: FrozenVerdicts
}

type GateOptions = ReportSettings & GateSettings

/** The profile the gate applies: --profile, else gate.profile. */
export function loadGateProfile(config: LoadedConfig, settings: GateSettings, cwd = process.cwd()): Promise<Profile> {
  return loadProfile(settings.profile ?? config.values.gate.profile, resolveConfigPath(config, config.values.suites_dir), cwd)
}

/**
 * The gate over the rows. Each provider's rows are gated alone, its candidate against its baseline;
 * with several providers the document is the deciding provider's gate (the worst verdict: fail, then
 * inconclusive, then pass) with every provider's gate under `providers`.
 */
export function computeGate(config: LoadedConfig, loaded: LoadedRows, profile: Profile, options: GateOptions): GateDocument {
  const gates = [...loaded.providers].map(([provider, aggregate]) => gateOfProvider(aggregate, provider, loaded, profile, config, options))
  if (gates.length === 1) return gates[0]!.gate
  const worst = VERDICT_ORDER.map((verdict) => gates.find((g) => g.gate.verdict === verdict)).find(Boolean)!
  return {...worst.gate, provider: worst.provider, inputs: loaded.inputs, run_ids: runIdsOf(loaded.providers), rows: gates.reduce((n, g) => n + g.gate.rows, 0), providers: gates.map(({gate, provider}) => ({...gate, provider}))}
}

/** Verdicts from the worst: the gate of several providers takes the first any of them has. */
const VERDICT_ORDER = ['fail', 'inconclusive', 'pass'] as const

/** One provider's gate: its rows only, its baseline against its candidate. */
function gateOfProvider(rows: Aggregate, provider: string | null, loaded: LoadedRows, profile: Profile, config: LoadedConfig, options: GateOptions): {provider: string | null; gate: GateDocument} {
  const baseline = options.baseline ?? config.values.gate.baseline
  const candidate = options.candidate ?? config.values.gate.candidate
  const {inputs, runInfos} = loaded
  // The gate's own warnings go on a copy: the rows may be shared with the report.
  const warnings = [...loaded.warnings]
  // Scenarios one of the two modes cannot solve are compared by neither: n/a is not a failure, and not a free pass.
  const excluded = notApplicableTo(runInfos.flatMap((info) => info.not_applicable), [baseline, candidate])
  const aggregate = withoutScenarios(rows, [baseline, candidate], excluded.keys())
  if (excluded.size > 0) warnings.push(`left out of the comparison as not applicable: ${[...excluded.keys()].sort().join(', ')}`)
  const model = checkComparable(aggregate, baseline, candidate, provider, loaded.providers.size > 1, options)
  const thresholds = resolveThresholds(profile, model, options.decision)
  const seed = options.seed ?? DEFAULT_SEED
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE
  const comparison = compareModes(aggregate, {baseline, candidate, minSamples: thresholds.min_samples, seed, resamples, confidence, estimand: thresholds.estimand})
  const judged = evaluateGate(comparison, thresholds)
  const {checks, verdict} = options.frozen ? freezeVerdicts(judged.checks, options.frozen, (options.sequential?.look ?? 1) - 1) : judged
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
    exit_code: EXIT_CODES[verdict],
    comparison,
    trace_root: traceRoot(inputs),
    failures: summarizeFailures(aggregate, [baseline, candidate]),
  }
  return {provider, gate}
}

/**
 * The comparability guard: both modes present, one model, the same scenarios. Returns the model whose
 * thresholds apply (--model wins); refuses mixed rows unless --allow-mixed.
 */
function checkComparable(aggregate: Aggregate, baseline: string, candidate: string, provider: string | null, ofSeveral: boolean, options: GateOptions): string | undefined {
  const present = [...aggregate.cells.keys()].sort()
  const missing = [baseline, candidate].filter((mode) => !aggregate.cells.has(mode))
  // With several providers each is gated alone: a mode missing from one provider's rows is named with it.
  const whose = ofSeveral ? ` of provider ${JSON.stringify(provider)}` : ''
  if (missing.length > 0) {
    throw new BadInputError(missing.map((mode) => ({file: '--input', code: 'unknown_reference', message: `no rows${whose} for mode "${mode}" (modes in the rows${whose}: ${present.join(', ')}); choose them with --baseline and --candidate`})))
  }
  const problems: string[] = []
  const models = new Set([...(aggregate.models.get(baseline) ?? []), ...(aggregate.models.get(candidate) ?? [])])
  if (models.size > 1) problems.push(`rows of different models: ${[...models].sort().join(', ')}`)
  const baseScenarios = new Set(aggregate.cells.get(baseline)!.keys())
  const candScenarios = new Set(aggregate.cells.get(candidate)!.keys())
  const onlyBase = [...baseScenarios].filter((s) => !candScenarios.has(s))
  const onlyCand = [...candScenarios].filter((s) => !baseScenarios.has(s))
  if (onlyBase.length + onlyCand.length > 0) {
    problems.push(`different scenarios: only ${baseline}: ${onlyBase.join(', ') || 'none'}; only ${candidate}: ${onlyCand.join(', ') || 'none'}`)
  }
  if (problems.length > 0 && !options.allowMixed) {
    throw new BadInputError(problems.map((message) => ({file: '--input', code: 'unknown_reference', message: `not comparable: ${message} (pass --allow-mixed to gate them anyway)`})))
  }
  return options.model ?? (models.size === 1 ? [...models][0] : undefined)
}
