/**
 * `ghx-bench validate`: the config, the plugins it names and the whole catalogue, every finding
 * at once. Named files are validated with what they reference, and only that is read (catalogue.ts,
 * focusedFiles): an error in a file they do not reference is not theirs.
 */
import path from 'node:path'
import {selectScenarios, type Catalogue, type SpecFile} from '../catalogue/catalogue.js'
import type {Suite} from '../schemas/suite.js'
import {sortDiagnostics, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {refName} from '../runner/select-suite.js'
import {inspectProject, type ProjectOptions} from './project.js'

export interface ValidationReport {
  ok: boolean
  config?: string
  counts: {suites: number; scenarios: number; sets: number; profiles: number; files: number}
  diagnostics: Diagnostic[]
  /** Suites that cannot pass their own gate at their size (not errors: a larger run can). */
  warnings?: string[]
}

export interface ValidateOptions extends ProjectOptions {
  files?: string[]
}

export async function validateProject(options: ValidateOptions = {}): Promise<ValidationReport> {
  const cwd = options.cwd ?? process.cwd()
  const named = (options.files ?? []).map((f) => path.resolve(cwd, f))
  const {config, catalogue, findings} = await inspectProject({
    ...options,
    extraFiles: named,
    focus: named.length > 0 ? named : undefined,
  })
  const diagnostics = [...findings]
  const reported = catalogue.referenced ?? new Set(catalogue.diagnostics.keys())
  for (const [file, fileFindings] of catalogue.diagnostics) if (reported.has(file)) diagnostics.push(...fileFindings)
  // A suite read only as a namesake of a named one (for its name's uniqueness) is not warned about.
  const suites = [...catalogue.suites.values()].filter((suite) => reported.has(suite.absolutePath))
  return {
    ok: diagnostics.length === 0,
    config: config.file ? displayPath(config.file, cwd) : undefined,
    counts: {
      suites: catalogue.suites.size,
      scenarios: catalogue.scenarios.size,
      sets: catalogue.sets.size,
      profiles: catalogue.profiles.size,
      files: catalogue.diagnostics.size,
    },
    diagnostics: sortDiagnostics(diagnostics),
    warnings: [
      ...(await gateWarnings(suites, catalogue)),
      ...(config.values.model === 'oracle' ? planWarnings(suites, catalogue) : []),
    ],
  }
}

/** Under the oracle a run plays its scenario's reference plan for the mode: with none, every such run fails. */
function planWarnings(suites: Array<SpecFile<Suite>>, catalogue: Catalogue): string[] {
  const warnings: string[] = []
  for (const suite of suites) {
    const scenarios = selectScenarios(suite.value, catalogue).flatMap((id) => catalogue.scenarios.get(id)?.value ?? [])
    for (const mode of suite.value.modes.map(refName)) {
      const missing = scenarios
        .filter((scenario) => !scenario.reference?.[mode] && !scenario.not_applicable?.[mode])
        .map((scenario) => scenario.id)
      if (missing.length === 0) continue
      warnings.push(
        `suite ${suite.value.name}: the oracle model has no reference plan under ${mode} for ${missing.join(', ')}: every such run fails (give reference.${mode}, or not_applicable.${mode}: reason)`,
      )
    }
  }
  return warnings
}

/**
 * Each suite's gate checked against its size (src/report/gate/reliability-rules.ts). The gate's rules and
 * their statistics are loaded only for a suite with a gate: validate of a scenario needs none of them.
 */
async function gateWarnings(suites: Array<SpecFile<Suite>>, catalogue: Catalogue): Promise<string[]> {
  const gated = suites.flatMap((suite) => {
    const profile = suite.value.gate?.profile ? catalogue.profiles.get(suite.value.gate.profile)?.value : undefined
    return profile ? [{suite, profile}] : []
  })
  if (gated.length === 0) return []
  const [{MIN_CI_RUNS}, {MIN_POPULATION_SCENARIOS}, {gateSizeWarnings}, {undersizedSuiteWarning}] = await Promise.all([
    import('../report/gate/gate.js'),
    import('../stats/log-ratio.js'),
    import('../report/gate/reliability-rules.js'),
    import('../report/gate/power.js'),
  ])
  return gated.flatMap(({suite, profile}) => {
    const [scenarios, repetitions] = [selectScenarios(suite.value, catalogue).length, suite.value.repetitions ?? 1]
    const cannotPass = gateSizeWarnings(
      suite.value.name,
      profile,
      scenarios,
      repetitions,
      MIN_POPULATION_SCENARIOS,
      MIN_CI_RUNS,
    )
    // A suite that cannot pass at all says so already; one that can, but seldom for a good candidate, is undersized.
    const undersized =
      cannotPass.length === 0 && profile.decision === 'ci'
        ? undersizedSuiteWarning(suite.value.name, profile, scenarios, repetitions)
        : null
    return undersized ? [...cannotPass, undersized] : cannotPass
  })
}
