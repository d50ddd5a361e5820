/**
 * Which suite runs, and how: a suite file of the catalogue (or one named by path) or a suite built in
 * memory (calibration); its scenarios (its selection, or --set/--scenario); its modes (all, or
 * --mode); its providers (its own, or --provider); --repetitions/--concurrency/--seed over its own; and the configuration as this suite sees
 * it: its target, model, provider, endpoint, fixtures and gate as a layer of the configuration, under
 * the flags (src/config/load-config.ts).
 */
import path from 'node:path'
import {withLayer, type LoadedConfig} from '../config/load-config.js'
import type {ConfigFile} from '../config/schema.js'
import {selectScenarios, setMembers, unknownModeMessage} from '../catalogue/catalogue.js'
import type {Project} from '../catalogue/project.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {applyDefaults} from '../shared/schema-validator.js'
import {displayPath} from '../shared/source-document.js'
import type {Scenario} from '../schemas/scenario.js'
import {suiteSchema, type PluginRef, type Suite, type SuiteInput} from '../schemas/suite.js'

export interface SuiteSelection {
  /** The suite's file (relative to the project's working folder); or `suite`, built in memory and named by `origin`. */
  suitePath?: string
  suite?: {value: SuiteInput; origin: string}
  modes?: string[]
  /** --provider: these of the suite's providers (with their options), or any installed provider in their place (without). */
  providers?: string[]
  scenarios?: string[]
  set?: string
  /** Flags over the suite's own settings. */
  repetitions?: number
  concurrency?: number
  seed?: number
}

export interface SelectedSuite extends Project {
  /** The project's configuration with this suite's settings as a layer under the flags. */
  config: LoadedConfig
  /** The suite with its defaults and the flags applied. */
  suite: Suite
  /** The providers every run is played under: --provider, else the suite's providers, else the one provider of the configuration (the suite's `provider` a layer of it). */
  providers: PluginRef[]
  /** The suite's file for messages (file:line:col where there is a document). */
  origin: string
  /** The suite's file as given (relative to the working folder); none for a suite built in memory. */
  suiteFile?: string
  scenarios: Scenario[]
  /** The scenario set rows record: --set, or the suite's; none when --scenario picked the scenarios. */
  scenarioSet: string | null
}

export const refName = (ref: PluginRef): string => (typeof ref === 'string' ? ref : ref.name)
export const refOptions = (ref: PluginRef | undefined): Record<string, unknown> =>
  ref && typeof ref === 'object' ? (ref.options ?? {}) : {}

/** The suite's file among the catalogue's suites; a suite file outside suites_dir is loaded by opening the project with it. */
export function selectSuite(project: Project, selection: SuiteSelection): SelectedSuite {
  const {catalogue, registry, cwd} = project
  const suiteFile = selection.suitePath ? path.resolve(cwd, selection.suitePath) : undefined
  const spec = suiteFile ? [...catalogue.suites.values()].find((s) => s.absolutePath === suiteFile) : undefined
  if (suiteFile && !spec)
    throw new BadInputError([
      {
        file: displayPath(suiteFile, cwd),
        code: 'io',
        message: 'not a suite (suites live in the suites folder or are named with kind: suite)',
      },
    ])
  const origin = suiteFile ? displayPath(suiteFile, cwd) : (selection.suite?.origin ?? '(suite)')
  const given: Suite | undefined =
    spec?.value ?? (selection.suite ? (applyDefaults(suiteSchema, selection.suite.value) as Suite) : undefined)
  if (!given) throw new BadInputError([{file: origin, code: 'io', message: 'no suite given'}])
  const problem = (message: string): BadInputError =>
    new BadInputError([{file: origin, code: 'unknown_reference', message}])
  if (selection.set && !catalogue.sets.has(selection.set)) throw problem(`--set: unknown set "${selection.set}"`)
  let ids = selection.set ? setMembers(catalogue, selection.set) : selectScenarios(given, catalogue)
  if (selection.scenarios?.length) {
    const unknown = selection.scenarios.filter((id) => !catalogue.scenarios.has(id))
    if (unknown.length > 0) throw problem(`--scenario: unknown scenario ${unknown.join(', ')}`)
    // Each run is keyed scenario/mode/iteration: a scenario given twice would plan every key twice.
    const twice = selection.scenarios.filter((id, i) => selection.scenarios!.indexOf(id) !== i)
    if (twice.length > 0) throw problem(`--scenario: ${[...new Set(twice)].join(', ')} is given twice`)
    ids = selection.scenarios
  }
  const suite: Suite = {
    ...given,
    ...definedOnly({repetitions: selection.repetitions, concurrency: selection.concurrency, seed: selection.seed}),
  }
  if (selection.modes?.length) {
    const known = new Set(suite.modes.map(refName))
    const unknown = selection.modes.filter((m) => !known.has(m))
    if (unknown.length > 0)
      throw problem(`--mode: ${unknown.join(', ')} is not one of the suite's modes (${[...known].join(', ')})`)
    suite.modes = suite.modes.filter((m) => selection.modes!.includes(refName(m)))
  }
  // A suite file's modes were checked with the catalogue, at their file:line:col; a suite built in memory is checked here.
  const missing: Diagnostic[] = spec
    ? []
    : suite.modes
        .map(refName)
        .filter((name) => !registry.mode(name))
        .map((name) => ({
          file: origin,
          code: 'unknown_reference' as const,
          message: unknownModeMessage(name, registry),
        }))
  if (missing.length > 0) throw new BadInputError(missing)
  const config = withLayer(project.config, 'suite', suiteSettings(suite))
  return {
    ...project,
    config,
    suite,
    providers: selectProviders(suite.providers ?? [config.values.provider], selection.providers, registry, problem),
    origin,
    ...(suiteFile ? {suiteFile: displayPath(suiteFile, cwd)} : {}),
    scenarios: ids.map((id) => catalogue.scenarios.get(id)!.value),
    scenarioSet: selection.scenarios?.length ? null : (selection.set ?? suite.scenarios.set ?? null),
  }
}

/**
 * The providers a run plays every run under. --provider names some of the suite's (kept with their options)
 * or replaces them with installed ones (their default options); a name no plugin provides is bad input.
 */
function selectProviders(
  own: readonly PluginRef[],
  names: readonly string[] | undefined,
  registry: Project['registry'],
  problem: (message: string) => BadInputError,
): PluginRef[] {
  if (!names?.length) return [...own]
  const unknown = names.filter((name) => !own.some((ref) => refName(ref) === name) && !registry.provider(name))
  if (unknown.length > 0)
    throw problem(
      `--provider: unknown provider ${unknown.map((name) => `"${name}"`).join(', ')} (providers: ${registry.providerNames().join(', ')})`,
    )
  return [...new Set(names)].map((name) => own.find((ref) => refName(ref) === name) ?? name)
}

/**
 * A suite's settings that are configuration keys. The repositories fixtures may write to are not
 * among them: only the project decides that.
 */
function suiteSettings(suite: Suite): ConfigFile {
  const {sandbox_repos: _projectOnly, ...fixtures} = suite.fixtures ?? {}
  return {
    target: suite.target,
    model: suite.model,
    provider: suite.provider,
    endpoint: suite.endpoint,
    fixtures,
    gate: suite.gate,
  }
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
}
