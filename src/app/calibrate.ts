/**
 * `ghx-bench validate --calibrate`: proof that the scenarios discriminate. For every scenario and
 * mode with a reference plan, the oracle (which plays the plan) must pass, and noop (which does
 * nothing) and every adversary (src/runner/adversaries.ts: a liar, an empty answer, the wrong target,
 * a read-only run) must fail, each played through the real mode and provider. A scenario the oracle
 * fails or noop passes is mis-calibrated; one an adversary passes is weak: its checks accept work not
 * done. A plan that rests on a fallback (the mode's own tool fails, another does the work) is listed
 * as a defect of the tool layer under test.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {ADVERSARIES, type AdversaryName} from '../agent/scripted-model-names.js'
import {isMutationScenario} from '../catalogue/catalogue.js'
import type {Project} from '../catalogue/project.js'
import {resolveConfigPath} from '../config/load-config.js'
import type {Row} from '../results/row-schema.js'
import {readRows} from '../results/sources.js'
import {changesGithub, wrongTargetVariables} from '../runner/adversaries.js'
import {referencePlan} from '../runner/model-source.js'
import type {MutationReport} from '../runner/mutation.js'
import {runSuite, type SuiteEvent} from '../runner/run-suite.js'
import {selectSuite} from '../runner/select-suite.js'
import type {Scenario} from '../schemas/scenario.js'
import type {SuiteInput} from '../schemas/suite.js'
import {resolveVariables} from '../seeding/bindings.js'
import type {Manifest} from '../seeding/manifest.js'
import {readManifest} from '../seeding/service.js'
import {BadInputError} from '../shared/diagnostics.js'
import {openProject, type ProjectOptions} from './project.js'

type Outcome = {success: boolean; error: string | null}

interface CalibrationEntry {
  scenario_id: string
  mode: string
  /**
   * calibrated: oracle passed, noop and every adversary failed; miscalibrated: the oracle failed or
   * noop passed; weak: an adversary passed; not_run: the mode is not available here.
   */
  status: 'calibrated' | 'miscalibrated' | 'weak' | 'not_run'
  oracle: Outcome | null
  noop: Outcome | null
  /** Each adversary's outcome, or why it does not apply (no other resource to act on, nothing to leave out). */
  adversaries: Partial<Record<AdversaryName, Outcome | {not_applicable: string}>>
  /** The adversaries that passed. */
  passed_by: AdversaryName[]
  /** Why the mode's plan rests on a fallback: the scenario's `fallbacks`, or what the oracle's row showed (`fallback`); null when it does not. */
  fallback: string | null
  reason: string | null
}

export interface CalibrationReport {
  ok: boolean
  entries: CalibrationEntry[]
  miscalibrated: CalibrationEntry[]
  /** Entries an adversary passed, each with the adversaries named. */
  weak: CalibrationEntry[]
  /**
   * Calibrated plans that rest on a fallback: defects of the tool layer under test, not of the scenario;
   * `declared` false when the oracle's run fell back although the scenario does not say so.
   */
  fallbacks: Array<{scenario_id: string; mode: string; reason: string; declared: boolean}>
  unavailable: Array<{mode: string; reason: string}>
  /** Checkpoint mutation testing of every scenario the oracle passed, in every mode (sandbox only). */
  mutation: {
    modes: string[]
    reports: MutationReport[]
    weak: MutationReport[]
    /** Runs of scenarios that change GitHub whose oracle run changed nothing the checkpoints read: their checks were not put to the test. */
    untested: Array<{scenario_id: string; mode: string}>
    skipped: string | null
  }
}

export interface CalibrateOptions extends ProjectOptions {
  scenarios?: string[]
  modes?: string[]
  /** The provider every pass is played through (default: the configuration's, agent-loop). */
  provider?: string
  /** Runs at once (the calibration suite's own: 4). */
  concurrency?: number
  /** How long checkpoints are polled per run (runs that fail use all of it). */
  checkpointMs?: number
  /** The adversaries to play (default: all); one left out is reported as not played, never as failed. */
  adversaries?: AdversaryName[]
  /** Progress of each pass: the oracle's runs, noop's, each adversary's, and the mutation pass. */
  onEvent?: (event: SuiteEvent, phase: string) => void
}

/** The calibration suite's settings: one repetition, four runs at once, one retry, a short checkpoint budget. */
const CALIBRATION_SUITE = {repetitions: 1, concurrency: 4, infra_retries: 1, timeouts: {checkpoint_ms: 2000}} as const

/** The models of the passes, in order; wrong_target's runs one at a time, each restoring the sandbox it found. */
const PASSES = ['oracle', 'noop', 'liar', 'empty', 'read_only', 'wrong_target'] as const satisfies ReadonlyArray<
  'oracle' | 'noop' | AdversaryName
>

export async function calibrate(options: CalibrateOptions = {}): Promise<CalibrationReport> {
  // The rows of the passes are scratch: read back here, then removed.
  const resultsDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-calibrate-'))
  try {
    return await calibrateIn(
      await openProject({...options, overrides: {...options.overrides, results_dir: resultsDir}}),
      options,
    )
  } finally {
    await rm(resultsDir, {recursive: true, force: true})
  }
}

async function calibrateIn(project: Project, options: CalibrateOptions): Promise<CalibrationReport> {
  const {catalogue, registry} = project
  if (options.provider && !registry.provider(options.provider)) {
    throw new BadInputError([
      {
        file: '--provider',
        code: 'unknown_reference',
        message: `unknown provider "${options.provider}" (providers: ${registry.providerNames().join(', ')})`,
      },
    ])
  }
  const providers = options.provider ? [options.provider] : undefined
  // Which scenario has a plan for which mode.
  const pairs: Array<{scenario_id: string; mode: string}> = []
  for (const [id, spec] of catalogue.scenarios) {
    if (options.scenarios?.length && !options.scenarios.includes(id)) continue
    for (const mode of Object.keys(spec.value.reference ?? {})) {
      if (options.modes?.length && !options.modes.includes(mode)) continue
      pairs.push({scenario_id: id, mode})
    }
  }
  const modes = [...new Set(pairs.map((p) => p.mode))].filter((m) => registry.mode(m)).sort()
  const scenarioIds = [...new Set(pairs.map((p) => p.scenario_id))].sort()
  const rows = new Map<string, Row>()
  let unavailable: Array<{mode: string; reason: string}> = []
  let notApplicable: Array<{scenario_id: string; mode: string; reason: string}> = []
  const timeouts = {checkpoint_ms: options.checkpointMs ?? CALIBRATION_SUITE.timeouts.checkpoint_ms}
  if (modes.length > 0 && scenarioIds.length > 0) {
    const played = new Set<string>(options.adversaries ?? ADVERSARIES)
    const sandbox = project.config.values.target === 'sandbox'
    // wrong_target acts on resources that are not its scenario's: only the sandbox, where each run has a
    // world of its own (GitHubTarget.openRun), keeps that from the other runs.
    if (!sandbox) played.delete('wrong_target')
    for (const model of PASSES.filter((m) => m === 'oracle' || m === 'noop' || played.has(m))) {
      const suite: SuiteInput = {
        name: 'calibration',
        scenarios: {ids: scenarioIds},
        modes,
        model,
        ...CALIBRATION_SUITE,
        timeouts,
      }
      const selected = selectSuite(project, {
        suite: {value: suite, origin: '(calibration)'},
        providers,
        concurrency: options.concurrency,
      })
      const summary = await runSuite(selected, {runId: model}, (event) => options.onEvent?.(event, model))
      if (model === 'oracle') {
        unavailable = summary.unavailable
        notApplicable = summary.not_applicable
      }
      for await (const row of readRows([summary.results_file], () => {}, project.cwd))
        rows.set(`${model}/${row.scenario_id}/${row.mode}`, row)
    }
  }
  const applicability = await adversaryApplicability(project, pairs)
  for (const adversary of ADVERSARIES.filter((a) => options.adversaries && !options.adversaries.includes(a))) {
    for (const {scenario_id, mode} of pairs)
      applicability.set(`${adversary}/${scenario_id}/${mode}`, 'not played (--adversary)')
  }
  if (project.config.values.target !== 'sandbox') {
    for (const {scenario_id, mode} of pairs)
      applicability.set(
        `wrong_target/${scenario_id}/${mode}`,
        'not played: it acts on fixtures of other scenarios, which only the sandbox can restore',
      )
  }
  const mutation = await mutationPass(project, pairs, rows, timeouts, options, unavailable)
  const outcomeOf = (row: Row | undefined): Outcome | null =>
    row ? {success: row.success, error: row.error ? `${row.error.type}: ${row.error.message}` : null} : null
  const entries = pairs.map(({scenario_id, mode}): CalibrationEntry => {
    const scenario = catalogue.scenarios.get(scenario_id)!.value
    const oracle = outcomeOf(rows.get(`oracle/${scenario_id}/${mode}`))
    const noop = outcomeOf(rows.get(`noop/${scenario_id}/${mode}`))
    const observed = rows.get(`oracle/${scenario_id}/${mode}`)?.fallback === true
    const fallback = scenario.fallbacks?.[mode] ?? (observed ? UNDECLARED_FALLBACK : null)
    const base = {scenario_id, mode, oracle, noop, adversaries: {}, passed_by: [], fallback}
    if (!registry.mode(mode)) return {...base, status: 'not_run', reason: `no plugin provides mode ${mode}`}
    const missing = unavailable.find((u) => u.mode === mode)
    if (missing) return {...base, status: 'not_run', reason: missing.reason}
    const inapplicable = notApplicable.find((n) => n.scenario_id === scenario_id && n.mode === mode)
    if (inapplicable) return {...base, status: 'not_run', reason: inapplicable.reason}
    const adversaries: CalibrationEntry['adversaries'] = {}
    for (const adversary of ADVERSARIES) {
      const why = applicability.get(`${adversary}/${scenario_id}/${mode}`)
      adversaries[adversary] = why
        ? {not_applicable: why}
        : (outcomeOf(rows.get(`${adversary}/${scenario_id}/${mode}`)) ?? {success: false, error: 'no row'})
    }
    const passedBy = ADVERSARIES.filter((a) => {
      const outcome = adversaries[a]
      return outcome !== undefined && 'success' in outcome && outcome.success
    })
    const problems: string[] = []
    if (!oracle?.success) problems.push(`oracle did not pass (${oracle?.error ?? 'no row'})`)
    if (!noop || noop.success) problems.push('noop passed: the checks accept an agent that did nothing')
    if (problems.length)
      return {...base, adversaries, passed_by: passedBy, status: 'miscalibrated', reason: problems.join('; ')}
    if (passedBy.length)
      return {
        ...base,
        adversaries,
        passed_by: passedBy,
        status: 'weak',
        reason: `passed by ${passedBy.map(describeAdversary).join(', ')}: the checks accept work not done`,
      }
    return {...base, adversaries, passed_by: passedBy, status: 'calibrated', reason: null}
  })
  const miscalibrated = entries.filter((e) => e.status === 'miscalibrated')
  const weak = entries.filter((e) => e.status === 'weak')
  const fallbacks = entries
    .filter((e) => e.status === 'calibrated' && e.fallback)
    .map((e) => ({
      scenario_id: e.scenario_id,
      mode: e.mode,
      reason: e.fallback!,
      declared: e.fallback !== UNDECLARED_FALLBACK,
    }))
  const weakMutation = mutation.reports.filter((r) => r.weak.length > 0)
  return {
    ok: miscalibrated.length === 0 && weak.length === 0 && weakMutation.length === 0,
    entries,
    miscalibrated,
    weak,
    fallbacks,
    unavailable,
    mutation: {...mutation, weak: weakMutation},
  }
}

const UNDECLARED_FALLBACK =
  'not declared: the oracle’s run fell back (a call of the mode’s own tool failed, another tool did the work)'

const ADVERSARY_TEXT: Record<AdversaryName, string> = {
  liar: 'liar (reads, then a made-up answer)',
  empty: 'empty (reads, then a well-formed empty answer)',
  wrong_target: 'wrong_target (the plan played on another resource of the fixture)',
  read_only: 'read_only (the plan’s reads only, nothing changed)',
}
const describeAdversary = (adversary: AdversaryName) => ADVERSARY_TEXT[adversary]

/**
 * Where an adversary has nothing to try, keyed adversary/scenario/mode: `wrong_target` where no
 * binding can move to another resource, `read_only` where the plan changes nothing (a read scenario:
 * its reads are the whole work).
 */
async function adversaryApplicability(
  project: Project,
  pairs: Array<{scenario_id: string; mode: string}>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const manifestFile = resolveConfigPath(project.config, project.config.values.fixtures.manifest)
  const manifest: Manifest | undefined = await readManifest(manifestFile, project.cwd).catch(() => undefined)
  for (const {scenario_id, mode} of pairs) {
    const scenario: Scenario = project.catalogue.scenarios.get(scenario_id)!.value
    const plugin = project.registry.mode(mode)
    if (!manifest || !plugin) continue
    let variables: Record<string, unknown>
    try {
      variables = resolveVariables(scenario, manifest, manifestFile, 'calibration')
    } catch {
      continue
    }
    if (!wrongTargetVariables(scenario, variables, manifest))
      out.set(
        `wrong_target/${scenario_id}/${mode}`,
        'no binding of the scenario can move to another resource of the fixture',
      )
    const steps = referencePlan(scenario, mode, variables)?.steps ?? []
    if (!steps.some((step) => changesGithub(step, plugin)))
      out.set(`read_only/${scenario_id}/${mode}`, 'the plan changes nothing: its reads are the whole work')
  }
  return out
}

/**
 * The mutation pass: every scenario the oracle passed is played once more under each mode it passed
 * in, one run at a time (each perturbation restores the sandbox's whole state): a mode's run may
 * leave other changes than another's (an MCP tool sets every label at once).
 */
async function mutationPass(
  project: Project,
  pairs: Array<{scenario_id: string; mode: string}>,
  rows: Map<string, Row>,
  timeouts: {checkpoint_ms: number},
  options: CalibrateOptions,
  unavailable: Array<{mode: string; reason: string}>,
): Promise<CalibrationReport['mutation']> {
  if (project.config.values.target !== 'sandbox')
    return {
      modes: [],
      reports: [],
      weak: [],
      untested: [],
      skipped: 'mutation testing restores the sandbox between perturbations: it runs on the sandbox target only',
    }
  const passed = pairs.filter(
    (p) => rows.get(`oracle/${p.scenario_id}/${p.mode}`)?.success && !unavailable.some((u) => u.mode === p.mode),
  )
  const modes = [...new Set(passed.map((p) => p.mode))].sort()
  if (passed.length === 0)
    return {modes: [], reports: [], weak: [], untested: [], skipped: 'no scenario passed under the oracle'}
  const reports: MutationReport[] = []
  for (const mode of modes) {
    const scenarioIds = [...new Set(passed.filter((p) => p.mode === mode).map((p) => p.scenario_id))].sort()
    // One at a time: each perturbation restores the sandbox's whole state.
    const suite: SuiteInput = {
      name: 'calibration-mutation',
      scenarios: {ids: scenarioIds},
      modes: [mode],
      model: 'oracle',
      ...CALIBRATION_SUITE,
      concurrency: 1,
      timeouts,
    }
    const selected = selectSuite(project, {
      suite: {value: suite, origin: '(calibration)'},
      providers: options.provider ? [options.provider] : undefined,
    })
    await runSuite(selected, {runId: `mutation-${mode}`, onMutation: (report) => reports.push(report)}, (event) =>
      options.onEvent?.(event, 'mutation'),
    )
  }
  const untested = reports
    .filter(
      (r) => r.perturbations.length === 0 && isMutationScenario(project.catalogue.scenarios.get(r.scenario_id)!.value),
    )
    .map(({scenario_id, mode}) => ({scenario_id, mode}))
  return {modes, reports, weak: [], untested, skipped: null}
}
