/**
 * `ghx-bench validate`: the config, the plugins it names and the whole catalogue, every finding
 * at once. Named files are validated in the context of the catalogue they reference.
 */
import path from 'node:path'
import {selectScenarios, setMembers, type Catalogue} from '../catalogue/catalogue.js'
import {sortDiagnostics, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {MIN_CI_RUNS, MIN_POPULATION_SCENARIOS} from '../report/gate/gate.js'
import {gateSizeWarnings} from '../report/gate/reliability-rules.js'
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
  const {config, catalogue, findings} = await inspectProject({...options, extraFiles: named})
  const diagnostics = [...findings]
  const reported = named.length > 0 ? dependencies(catalogue, named) : new Set(catalogue.diagnostics.keys())
  for (const [file, fileFindings] of catalogue.diagnostics) if (reported.has(file)) diagnostics.push(...fileFindings)
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
    warnings: [...gateWarnings(catalogue), ...(config.values.model === 'oracle' ? planWarnings(catalogue) : [])],
  }
}

/** Under the oracle a run plays its scenario's reference plan for the mode: with none, every such run fails. */
function planWarnings(catalogue: Catalogue): string[] {
  const warnings: string[] = []
  for (const suite of catalogue.suites.values()) {
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

/** Each suite's gate checked against its size (src/report/gate/reliability-rules.ts). */
function gateWarnings(catalogue: Catalogue): string[] {
  const warnings: string[] = []
  for (const suite of catalogue.suites.values()) {
    const profile = suite.value.gate?.profile ? catalogue.profiles.get(suite.value.gate.profile)?.value : undefined
    if (!profile) continue
    warnings.push(
      ...gateSizeWarnings(
        suite.value.name,
        profile,
        selectScenarios(suite.value, catalogue).length,
        suite.value.repetitions ?? 1,
        MIN_POPULATION_SCENARIOS,
        MIN_CI_RUNS,
      ),
    )
  }
  return warnings
}

/** Named files plus what they reference: a suite's set, scenarios and profile; a set's members. */
function dependencies(catalogue: Catalogue, named: string[]): Set<string> {
  const files = new Set(named)
  const scenarioFile = (id: string): string | undefined => catalogue.scenarios.get(id)?.absolutePath
  for (const suite of catalogue.suites.values()) {
    if (!files.has(suite.absolutePath)) continue
    const {set} = suite.value.scenarios
    if (set && catalogue.sets.has(set)) files.add(catalogue.sets.get(set)!.absolutePath)
    for (const id of selectScenarios(suite.value, catalogue)) {
      const file = scenarioFile(id)
      if (file) files.add(file)
    }
    const profile = suite.value.gate?.profile
    if (profile && catalogue.profiles.has(profile)) files.add(catalogue.profiles.get(profile)!.absolutePath)
  }
  for (const set of catalogue.sets.values()) {
    if (!files.has(set.absolutePath)) continue
    for (const id of setMembers(catalogue, set.value.name)) {
      const file = scenarioFile(id)
      if (file) files.add(file)
    }
  }
  return files
}
