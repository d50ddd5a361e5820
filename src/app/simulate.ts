/**
 * `ghx-bench simulate`: how often a profile's gate decides right, measured on seeded synthetic
 * datasets with a known true effect (src/report/gate/simulate.ts): the fixed designs' error-rate tables
 * and, with looks, the `--until-decided` design's power and run savings. Writes simulate.md and
 * simulate.json to --out when given.
 */
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {resolveConfigPath} from '../config/load-config.js'
import {loadProfile} from '../catalogue/profiles.js'
import {DEFAULT_ESTIMAND, resolveThresholds, type Decision} from '../report/gate/gate.js'
import type {Estimand} from '../stats/log-ratio.js'
import {DEFAULT_ALPHA, DEFAULT_LOOKS, DEFAULT_SPENDING, parseLooks, type Spending} from '../report/gate/sequential.js'
import {BadInputError} from '../shared/diagnostics.js'
import {suiteSchema} from '../schemas/suite.js'
import {
  renderSimulationMarkdown,
  simulateFixed,
  simulateSequential,
  type SimulationReport,
} from '../report/gate/simulate.js'
import {DEFAULT_MODEL, type SimulationModel} from '../report/gate/candidate-model.js'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {DEFAULT_RESAMPLES} from '../stats/bootstrap.js'
import {openConfig, type ProjectOptions} from './project.js'

export interface SimulateOptions extends ProjectOptions {
  /** The profile whose thresholds are simulated (default: gate.profile of the config). */
  profile?: string
  /** A per-model override of the profile to apply. */
  model?: string
  decision?: Decision
  /** The estimand simulated (default: the profile's). */
  estimand?: Estimand
  scenarios?: number[]
  /** Repetitions per cell of the fixed designs. */
  repetitions?: number[]
  datasets?: number
  /** Datasets at the threshold, where false passes are counted (default: 4 × datasets). */
  thresholdDatasets?: number
  seed?: number
  resamples?: number
  /** The --until-decided design's looks; an empty list leaves it out. */
  looks?: number[]
  spending?: Spending
  /** Changes to the synthetic data's model (scenario spread, CV, ...). */
  dataModel?: Partial<SimulationModel>
  /** A folder for simulate.md and simulate.json. */
  out?: string
  onProgress?: (text: string) => void
}

const badFlag = (flag: string, message: string) => new BadInputError([{file: flag, code: 'config', message}])

/** The largest design simulated: a suite's most repetitions (larger sizes only take hours to say the same). */
const MAX_DESIGN_SIZE = suiteSchema.properties.repetitions.maximum

/** A flag's comma-separated positive integers ("4,10"), each at most MAX_DESIGN_SIZE. */
export function integerList(flag: string, text: string): number[] {
  const parts = text.split(',').map((p) => p.trim())
  if (!parts.every((p) => /^\d+$/.test(p) && Number(p) > 0 && Number(p) <= MAX_DESIGN_SIZE))
    throw badFlag(flag, `expected positive integers up to ${MAX_DESIGN_SIZE} separated by commas, got "${text}"`)
  return parts.map(Number)
}

/** A flag's non-negative number ("0.05"). */
export function nonNegative(flag: string, text: string): number {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text)) throw badFlag(flag, `expected a non-negative number, got "${text}"`)
  return Number(text)
}

/** A flag's number from 0 to 1 ("0.3"). */
export function fraction(flag: string, text: string): number {
  const value = nonNegative(flag, text)
  if (value > 1) throw badFlag(flag, `expected a number from 0 to 1, got "${text}"`)
  return value
}

/** --looks: ascending repetitions per cell, or "none" (no sequential design). */
export function looksOf(text: string): number[] {
  if (text === 'none') return []
  const looks = parseLooks(text)
  if (typeof looks === 'string') throw badFlag('--looks', looks)
  return looks
}

// The gate's own number of resamples: fewer made the simulated intervals noisier than the gate's, and the tables not quite its.
// 4 scenarios (the predecessors' suites) and 6 (the verify-pr suite's); 5 repetitions (theirs) and 20 (the size verify_pr is sized for).
export const SIMULATION_DEFAULTS = {
  scenarios: [4, 6],
  repetitions: [5, 20],
  datasets: 200,
  seed: 1,
  resamples: DEFAULT_RESAMPLES,
} as const

export interface SimulationResult {
  report: SimulationReport
  markdown: string
  files: string[]
}

export async function simulateGate(options: SimulateOptions): Promise<SimulationResult> {
  const config = await openConfig(options)
  const cwd = options.cwd ?? process.cwd()
  const profile = await loadProfile(
    options.profile ?? config.values.gate.profile,
    resolveConfigPath(config, config.values.suites_dir),
    cwd,
    options.profile ? '--profile' : undefined,
  )
  const resolved = resolveThresholds(profile, options.model, options.decision ?? 'ci')
  const common = {
    thresholds: resolved.thresholds,
    minSamples: resolved.min_samples,
    decision: resolved.decision,
    estimand: options.estimand ?? resolved.estimand ?? DEFAULT_ESTIMAND,
    scenarios: options.scenarios ?? [...SIMULATION_DEFAULTS.scenarios],
    datasets: options.datasets ?? SIMULATION_DEFAULTS.datasets,
    ...(options.thresholdDatasets === undefined ? {} : {thresholdDatasets: options.thresholdDatasets}),
    seed: options.seed ?? SIMULATION_DEFAULTS.seed,
    resamples: options.resamples ?? SIMULATION_DEFAULTS.resamples,
    model: {...DEFAULT_MODEL, ...options.dataModel},
  }
  const repetitions = options.repetitions ?? [...SIMULATION_DEFAULTS.repetitions]
  const looks = options.looks ?? [...DEFAULT_LOOKS]
  const plan = looks.length > 0 ? {looks, alpha: DEFAULT_ALPHA, spending: options.spending ?? DEFAULT_SPENDING} : null
  const progress = (label: string) => {
    let shown = -1
    return (done: number, total: number) => {
      const tenth = Math.floor((10 * done) / total)
      if (tenth !== shown) options.onProgress?.(`${label}: ${(shown = tenth) * 10}%`)
    }
  }
  const fixed = repetitions.length > 0 ? simulateFixed({...common, repetitions}, progress('fixed designs')) : []
  const sequential = plan ? simulateSequential({...common, plan}, progress('--until-decided')) : []
  const report: SimulationReport = {options: {...common, repetitions, plan}, fixed, sequential}
  const title = `# ghx-bench simulate: profile ${profile.name}${resolved.override ? ` (thresholds for ${resolved.override})` : ''}, min_samples ${resolved.min_samples}\n\n`
  const markdown = title + renderSimulationMarkdown(report)
  const files: string[] = []
  if (options.out) {
    const dir = path.resolve(cwd, options.out)
    await mkdir(dir, {recursive: true})
    files.push(path.join(dir, 'simulate.md'), path.join(dir, 'simulate.json'))
    await writeFileAtomic(files[0]!, markdown)
    await writeFileAtomic(files[1]!, JSON.stringify(report, null, 2) + '\n')
  }
  return {report, markdown, files}
}
