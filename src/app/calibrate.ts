/**
 * `ghx-bench validate --calibrate`: proof that the scenarios discriminate. For every scenario and
 * mode with a reference plan, the oracle (which plays the plan) must pass, and noop (which does
 * nothing) must fail. A scenario that fails this is mis-calibrated: its checks would pass an agent
 * that did nothing, or fail one that did the work.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {Project} from '../catalogue/project.js'
import type {Row} from '../results/row-schema.js'
import {readRows} from '../results/sources.js'
import type {MutationReport} from '../runner/mutation.js'
import {runSuite, type SuiteEvent} from '../runner/run-suite.js'
import {selectSuite} from '../runner/select-suite.js'
import type {SuiteInput} from '../schemas/suite.js'
import {openProject, type ProjectOptions} from './project.js'

export interface CalibrationEntry {
  scenario_id: string
  mode: string
  /** calibrated: oracle passed and noop failed; not_run: the mode is not available here. */
  status: 'calibrated' | 'miscalibrated' | 'not_run'
  oracle: {success: boolean; error: string | null} | null
  noop: {success: boolean; error: string | null} | null
  reason: string | null
}

export interface CalibrationReport {
  ok: boolean
  entries: CalibrationEntry[]
  miscalibrated: CalibrationEntry[]
  unavailable: Array<{mode: string; reason: string}>
  /** Checkpoint mutation testing of the workflow scenarios the oracle passed (sandbox only). */
  mutation: {mode: string | null; reports: MutationReport[]; weak: MutationReport[]; skipped: string | null}
}

export interface CalibrateOptions extends ProjectOptions {
  scenarios?: string[]
  modes?: string[]
  /** Runs at once (the calibration suite's own: 4). */
  concurrency?: number
  /** How long checkpoints are polled per run (noop runs always use all of it). */
  checkpointMs?: number
  /** Progress of the three passes: the oracle's runs, noop's, and the mutation pass. */
  onEvent?: (event: SuiteEvent, phase: 'oracle' | 'noop' | 'mutation') => void
}

/** The calibration suite's settings: one repetition, four runs at once, one retry, a short checkpoint budget. */
const CALIBRATION_SUITE = {repetitions: 1, concurrency: 4, infra_retries: 1, timeouts: {checkpoint_ms: 2000}} as const

export async function calibrate(options: CalibrateOptions = {}): Promise<CalibrationReport> {
  // The rows of the three passes are scratch: read back here, then removed.
  const resultsDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-calibrate-'))
  try {
    return await calibrateIn(await openProject({...options, overrides: {...options.overrides, results_dir: resultsDir}}), options)
  } finally {
    await rm(resultsDir, {recursive: true, force: true})
  }
}

async function calibrateIn(project: Project, options: CalibrateOptions): Promise<CalibrationReport> {
  const {catalogue, registry} = project
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
    for (const model of ['oracle', 'noop'] as const) {
      const suite: SuiteInput = {name: 'calibration', scenarios: {ids: scenarioIds}, modes, model, ...CALIBRATION_SUITE, timeouts}
      const selected = selectSuite(project, {suite: {value: suite, origin: '(calibration)'}, concurrency: options.concurrency})
      const summary = await runSuite(selected, {runId: model}, (event) => options.onEvent?.(event, model))
      unavailable = summary.unavailable
      notApplicable = summary.not_applicable
      for await (const row of readRows([summary.results_file], () => {}, project.cwd)) rows.set(`${model}/${row.scenario_id}/${row.mode}`, row)
    }
  }
  const mutation = await mutationPass(project, pairs, rows, timeouts, options, unavailable)
  const outcomeOf = (row: Row | undefined) => (row ? {success: row.success, error: row.error ? `${row.error.type}: ${row.error.message}` : null} : null)
  const entries = pairs.map(({scenario_id, mode}): CalibrationEntry => {
    const oracle = outcomeOf(rows.get(`oracle/${scenario_id}/${mode}`))
    const noop = outcomeOf(rows.get(`noop/${scenario_id}/${mode}`))
    if (!registry.mode(mode)) return {scenario_id, mode, status: 'not_run', oracle, noop, reason: `no plugin provides mode ${mode}`}
    const missing = unavailable.find((u) => u.mode === mode)
    if (missing) return {scenario_id, mode, status: 'not_run', oracle, noop, reason: missing.reason}
    const inapplicable = notApplicable.find((n) => n.scenario_id === scenario_id && n.mode === mode)
    if (inapplicable) return {scenario_id, mode, status: 'not_run', oracle, noop, reason: inapplicable.reason}
    const problems: string[] = []
    if (!oracle?.success) problems.push(`oracle did not pass (${oracle?.error ?? 'no row'})`)
    if (!noop || noop.success) problems.push('noop passed: the checks accept an agent that did nothing')
    return {scenario_id, mode, status: problems.length ? 'miscalibrated' : 'calibrated', oracle, noop, reason: problems.join('; ') || null}
  })
  const miscalibrated = entries.filter((e) => e.status === 'miscalibrated')
  const weak = mutation.reports.filter((r) => r.weak.length > 0)
  return {ok: miscalibrated.length === 0 && weak.length === 0, entries, miscalibrated, unavailable, mutation: {...mutation, weak}}
}

/**
 * The mutation pass: every workflow scenario the oracle passed is played once more, one at a time
 * (each perturbation restores the sandbox's whole state), under one mode: the checkpoints are the
 * same in every mode. agent_direct is preferred (the baseline every scenario has a plan for).
 */
async function mutationPass(
  project: Project,
  pairs: Array<{scenario_id: string; mode: string}>,
  rows: Map<string, Row>,
  timeouts: {checkpoint_ms: number},
  options: CalibrateOptions,
  unavailable: Array<{mode: string; reason: string}>,
): Promise<CalibrationReport['mutation']> {
  if (project.config.values.target !== 'sandbox') return {mode: null, reports: [], weak: [], skipped: 'mutation testing restores the sandbox between perturbations: it runs on the sandbox target only'}
  const passed = pairs.filter((p) => project.catalogue.scenarios.get(p.scenario_id)?.value.type === 'workflow' && rows.get(`oracle/${p.scenario_id}/${p.mode}`)?.success)
  const available = [...new Set(passed.map((p) => p.mode))].filter((m) => !unavailable.some((u) => u.mode === m))
  const mode = available.includes('agent_direct') ? 'agent_direct' : available.sort()[0]
  const scenarioIds = [...new Set(passed.filter((p) => p.mode === mode).map((p) => p.scenario_id))].sort()
  if (!mode || scenarioIds.length === 0) return {mode: null, reports: [], weak: [], skipped: 'no workflow scenario passed under the oracle'}
  const reports: MutationReport[] = []
  // One at a time: each perturbation restores the sandbox's whole state.
  const suite: SuiteInput = {name: 'calibration-mutation', scenarios: {ids: scenarioIds}, modes: [mode], model: 'oracle', ...CALIBRATION_SUITE, concurrency: 1, timeouts}
  const selected = selectSuite(project, {suite: {value: suite, origin: '(calibration)'}})
  await runSuite(selected, {runId: 'mutation', onMutation: (report) => reports.push(report)}, (event) => options.onEvent?.(event, 'mutation'))
  return {mode, reports, weak: [], skipped: null}
}
