/**
 * The catalogue: every suite, scenario, set and profile under the suites folder, each validated
 * against its schema, then checked across files (ids unique, references real, read-only honoured,
 * placeholders bound, condition parameters valid for their condition).
 */
import {stat, readdir} from 'node:fs/promises'
import path from 'node:path'
import type {ConditionSpec} from '../plugins/api.js'
import type {PluginRegistry} from '../plugins/registry.js'
import {isCapability, isMutation, CAPABILITY_IDS, MUTATION_TAGS} from './capabilities.js'
import {suggestionSuffix, type Diagnostic} from '../shared/diagnostics.js'
import {BUILT_IN_VARIABLES, CHECK_VARIABLES, findPlaceholders} from './placeholders.js'
import {applyDefaults, validateDocument, validateWithSchema} from '../shared/schema-validator.js'
import {profileSchema, type Profile} from '../schemas/profile.js'
import {scenarioSetSchema, type ScenarioSet} from '../schemas/scenario-set.js'
import {scenarioSchema, type Scenario} from '../schemas/scenario.js'
import {suiteSchema, type PluginRef, type Suite} from '../schemas/suite.js'
import {
  displayPath,
  readSource,
  type ParsedSource,
  type PointerSegment,
  type SourceDocument,
} from '../shared/source-document.js'

export type SpecKind = 'suite' | 'scenario' | 'set' | 'profile'

const SPEC_SCHEMAS = {
  suite: suiteSchema,
  scenario: scenarioSchema,
  set: scenarioSetSchema,
  profile: profileSchema,
} as const

export interface SpecFile<T> {
  kind: SpecKind
  absolutePath: string
  document: SourceDocument
  /** The document's data with its schema's defaults filled in. */
  value: T
}

export interface Catalogue {
  root: string
  scenarios: Map<string, SpecFile<Scenario>>
  sets: Map<string, SpecFile<ScenarioSet>>
  profiles: Map<string, SpecFile<Profile>>
  suites: Map<string, SpecFile<Suite>>
  /** Findings per absolute file path; a file with findings is not in the maps above. */
  diagnostics: Map<string, Diagnostic[]>
  /** Loaded with `focus`: the files it names and those they reference, whose findings are theirs to report. */
  referenced?: Set<string>
  /** Loaded with `focus`: the names (file names) of the files not read, for did-you-mean hints. */
  unreadNames?: string[]
}

export interface LoadCatalogueOptions {
  /** The suites folder. */
  root: string
  /** Files outside the folder to load too (validate's arguments). */
  extraFiles?: string[]
  /** Conditions come from plugins: their params are checked against each one's schema. */
  registry: PluginRegistry
  cwd?: string
  /** Profiles every project can name (the package's verify_pr, verify_release); a project file of the same name wins. */
  builtInProfilesDir?: string
  /**
   * Read only these files and what they reference, not the whole folder (validate's named files): see
   * focusedFiles. `profiles` are profile names referenced from outside the catalogue (the configuration's gate).
   */
  focus?: {files: string[]; profiles?: string[]}
}

export async function loadCatalogue(options: LoadCatalogueOptions): Promise<Catalogue> {
  const cwd = options.cwd ?? process.cwd()
  const builtInProfiles =
    options.builtInProfilesDir && path.relative(options.root, options.builtInProfilesDir).startsWith('..')
      ? await listYamlFiles(options.builtInProfilesDir)
      : []
  const files = new Set([
    ...(await listYamlFiles(options.root)),
    ...(options.extraFiles ?? []).map((f) => path.resolve(cwd, f)),
  ])
  const catalogue: Catalogue = {
    root: options.root,
    scenarios: new Map(),
    sets: new Map(),
    profiles: new Map(),
    suites: new Map(),
    diagnostics: new Map(),
  }
  // A suites folder that is not there is a setting to fix (suites_dir: nope), not an empty catalogue.
  const root = await stat(options.root).catch(() => undefined)
  if (!root?.isDirectory()) {
    catalogue.diagnostics.set(options.root, [
      {
        file: displayPath(options.root, cwd),
        code: 'config',
        message: `suites_dir: ${root ? 'not a folder' : 'no such folder'} (set suites_dir in the config to the folder of your suites and scenarios)`,
      },
    ])
  }
  const sources = new Map<string, Promise<ParsedSource>>()
  const read = (file: string): Promise<ParsedSource> => {
    let source = sources.get(file)
    if (!source) sources.set(file, (source = readSource(file, cwd)))
    return source
  }
  let loaded = [...files]
  let builtIns = builtInProfiles
  if (options.focus) {
    const focused = await focusedFiles(options.focus, loaded, options.root, read)
    loaded = focused.loaded
    catalogue.referenced = focused.referenced
    builtIns = builtInProfiles.filter((file) => focused.profileNames.has(fileStem(file)))
    const kept = new Set([...focused.loaded, ...builtIns])
    catalogue.unreadNames = [...files, ...builtInProfiles].filter((file) => !kept.has(file)).map(fileStem)
  }
  const parsed = await Promise.all(loaded.sort().map(async (file) => ({file, result: await read(file)})))
  for (const {file, result} of parsed) {
    const findings: Diagnostic[] = [...result.diagnostics]
    catalogue.diagnostics.set(file, findings)
    const document = result.document
    if (!document) continue
    const kind = detectKind(file, document, options.root)
    if (!kind) {
      findings.push(
        document.diagnosticAt(
          {line: 1, col: 1},
          'schema',
          'cannot tell what this file is: add a "# yaml-language-server: $schema=" line naming suite, scenario, scenario-set or profile, or move it under suites/',
        ),
      )
      continue
    }
    findings.push(...validateDocument(SPEC_SCHEMAS[kind], document))
    // Placeholders are checked even in a file with schema errors: all of a file's findings at once.
    if (kind === 'scenario') findings.push(...checkPlaceholders(document))
    if (findings.length > 0) continue
    // The value is the document read with its schema's defaults (a suite's repetitions, timeouts, ...).
    const spec: SpecFile<never> = {
      kind,
      absolutePath: file,
      document,
      value: applyDefaults(SPEC_SCHEMAS[kind], document.data) as never,
    }
    const map = mapFor(catalogue, kind)
    const key = keyOf(kind, document.data)
    const existing = map.get(key)
    if (existing) {
      const first = existing.document.positionOf(['id' in (existing.value as object) ? 'id' : 'name'])
      findings.push(
        document.diagnostic(
          [kind === 'scenario' ? 'id' : 'name'],
          'duplicate_id',
          `duplicate ${kind} ${kind === 'scenario' ? 'id' : 'name'} "${key}" (first defined at ${existing.document.file}:${first.line}:${first.col})`,
        ),
      )
      continue
    }
    map.set(key, spec)
  }
  for (const file of builtIns) {
    const {document} = await read(file)
    const value = document?.data as Profile | undefined
    if (
      document &&
      value &&
      !catalogue.profiles.has(value.name) &&
      validateDocument(profileSchema, document).length === 0
    ) {
      catalogue.profiles.set(value.name, {kind: 'profile', absolutePath: file, document, value})
    }
  }
  for (const scenario of catalogue.scenarios.values()) {
    addFindings(catalogue, scenario, checkScenario(scenario, options.registry))
  }
  for (const set of catalogue.sets.values()) addFindings(catalogue, set, checkSet(set, catalogue))
  for (const profile of catalogue.profiles.values())
    if (catalogue.diagnostics.has(profile.absolutePath)) addFindings(catalogue, profile, checkProfile(profile))
  for (const suite of catalogue.suites.values())
    addFindings(catalogue, suite, checkSuite(suite, catalogue, options.registry))
  return catalogue
}

/** The names a reference may mean, for a did-you-mean hint: those loaded, and with `focus` those of the files not read. */
function known(catalogue: Catalogue, loaded: Map<string, unknown>): string[] {
  return [...loaded.keys(), ...(catalogue.unreadNames ?? [])]
}

function addFindings(catalogue: Catalogue, spec: SpecFile<unknown>, findings: Diagnostic[]): void {
  catalogue.diagnostics.get(spec.absolutePath)!.push(...findings)
}

function mapFor(catalogue: Catalogue, kind: SpecKind): Map<string, SpecFile<unknown>> {
  const maps = {
    suite: catalogue.suites,
    scenario: catalogue.scenarios,
    set: catalogue.sets,
    profile: catalogue.profiles,
  }
  return maps[kind]
}

function keyOf(kind: SpecKind, data: unknown): string {
  const value = data as {id?: string; name?: string}
  return kind === 'scenario' ? value.id! : value.name!
}

async function listYamlFiles(root: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(root, {recursive: true, withFileTypes: true})
  } catch {
    return []
  }
  return entries.filter((e) => e.isFile() && /\.ya?ml$/.test(e.name)).map((e) => path.join(e.parentPath, e.name))
}

const fileStem = (file: string) => path.basename(file).replace(/\.ya?ml$/, '')

/** The catalogue entries a document names: a suite's set, scenarios (ids or patterns) and profile; a set's scenarios and sets. */
function referencesOf(kind: SpecKind | undefined, data: unknown): Array<{kind: SpecKind; name: string}> {
  const strings = (value: unknown): string[] =>
    Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string')
      : typeof value === 'string'
        ? [value]
        : []
  const spec = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
  const field = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  const named = (refKind: SpecKind, names: string[]) => names.map((name) => ({kind: refKind, name}))
  if (kind === 'suite')
    return [
      ...named('set', strings(field(spec.scenarios, 'set'))),
      ...named('scenario', [...strings(field(spec.scenarios, 'ids')), ...strings(field(spec.scenarios, 'exclude'))]),
      ...named('profile', strings(field(spec.gate, 'profile'))),
    ]
  if (kind === 'set') return [...named('scenario', strings(spec.scenarios)), ...named('set', strings(spec.include))]
  return []
}

/**
 * What a focused catalogue reads: the named files and, transitively, the files they reference, found by
 * file name (a scenario's id and a set's or profile's name are its file's name: a file that breaks that
 * is its own error) or, for a suite's scenario patterns, every file whose name matches; then the
 * namesakes of each (files of the same name elsewhere, and for a suite every suite at the folder's top),
 * which could define the same id or name. Only the named and the referenced files' findings are theirs;
 * `profileNames` are the profiles named, found or not (a built-in profile is read only when named).
 */
async function focusedFiles(
  focus: {files: string[]; profiles?: string[]},
  files: string[],
  root: string,
  read: (file: string) => Promise<ParsedSource>,
): Promise<{loaded: string[]; referenced: Set<string>; profileNames: Set<string>}> {
  const byStem = new Map<string, string[]>()
  for (const file of files) byStem.set(fileStem(file), [...(byStem.get(fileStem(file)) ?? []), file])
  const kindOf = async (file: string): Promise<SpecKind | undefined> => {
    const {document} = await read(file)
    return document && detectKind(file, document, root)
  }
  const referenced = new Set<string>()
  const queue: string[] = []
  const reference = (file: string) => {
    if (referenced.has(file)) return
    referenced.add(file)
    queue.push(file)
  }
  const profileNames = new Set<string>()
  const resolve = async (kind: SpecKind, name: string) => {
    if (kind === 'profile') profileNames.add(name)
    const pattern = GLOB.test(name) ? globToRegExp(name) : undefined
    const candidates = pattern
      ? [...byStem].filter(([stem]) => pattern.test(stem)).flatMap(([, found]) => found)
      : (byStem.get(name) ?? [])
    for (const file of candidates) if ((await kindOf(file)) === kind) reference(file)
  }
  for (const file of focus.files) reference(file)
  for (const name of focus.profiles ?? []) await resolve('profile', name)
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!
    const {document} = await read(file)
    for (const {kind, name} of referencesOf(document && detectKind(file, document, root), document?.data))
      await resolve(kind, name)
  }
  const loaded = new Set(referenced)
  const topLevel = files.filter((file) => path.dirname(file) === root)
  for (const file of referenced) {
    for (const namesake of byStem.get(fileStem(file)) ?? []) loaded.add(namesake)
    if ((await kindOf(file)) === 'suite') for (const suite of topLevel) loaded.add(suite)
  }
  return {loaded: [...loaded], referenced, profileNames}
}

const SCHEMA_COMMENT = /^#\s*yaml-language-server:\s*\$schema=\S*?([a-z-]+)\.schema\.json/m
const KIND_BY_SCHEMA: Record<string, SpecKind> = {
  suite: 'suite',
  scenario: 'scenario',
  'scenario-set': 'set',
  profile: 'profile',
}
const KIND_BY_FOLDER: Record<string, SpecKind> = {scenarios: 'scenario', sets: 'set', profiles: 'profile'}

/** The $schema comment says what a file is; without one, its place under the suites folder does. */
export function detectKind(file: string, document: SourceDocument, root: string): SpecKind | undefined {
  const comment = SCHEMA_COMMENT.exec(document.headerText())
  if (comment && KIND_BY_SCHEMA[comment[1]!]) return KIND_BY_SCHEMA[comment[1]!]
  const relative = path.relative(root, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  const [first, ...rest] = relative.split(path.sep)
  if (rest.length === 0) return 'suite'
  return KIND_BY_FOLDER[first!]
}

export function isMutationScenario(scenario: Scenario): boolean {
  return (scenario.tags ?? []).some((tag) => (MUTATION_TAGS as readonly string[]).includes(tag))
}

function checkScenario(spec: SpecFile<Scenario>, registry: PluginRegistry): Diagnostic[] {
  const {document, value: scenario} = spec
  const findings: Diagnostic[] = []
  const stem = path.basename(spec.absolutePath).replace(/\.ya?ml$/, '')
  if (stem !== scenario.id) {
    findings.push(
      document.diagnostic(['id'], 'schema', `scenario id "${scenario.id}" does not match its file name "${stem}"`),
    )
  }
  const capabilityHint = (id: string): string =>
    suggestionSuffix(
      id,
      CAPABILITY_IDS.filter((c) => c.split('.')[0] === id.split('.')[0]),
    )
  const tagged = isMutationScenario(scenario)
  if (scenario.type === 'atomic') {
    const {assertions} = scenario
    if (!isCapability(scenario.task)) {
      findings.push(
        document.diagnostic(
          ['task'],
          'unknown_reference',
          `unknown capability "${scenario.task}"${capabilityHint(scenario.task)}`,
        ),
      )
    } else if (isMutation(scenario.task) && !tagged) {
      findings.push(
        document.diagnostic(
          ['task'],
          'read_only',
          `task "${scenario.task}" changes GitHub: tag the scenario "mutation"`,
        ),
      )
    }
    if (assertions.expected_outcome === 'expected_error' && !assertions.expected_error_code) {
      findings.push(
        document.diagnostic(['assertions'], 'schema', 'expected_outcome "expected_error" needs expected_error_code'),
      )
    }
    if (assertions.max_tool_calls !== undefined && assertions.max_tool_calls < assertions.min_tool_calls) {
      findings.push(
        document.diagnostic(
          ['assertions', 'max_tool_calls'],
          'schema',
          `max_tool_calls ${assertions.max_tool_calls} is below min_tool_calls ${assertions.min_tool_calls}`,
        ),
      )
    }
  } else {
    const expected = scenario.assertions.expected_capabilities ?? []
    expected.forEach((id, i) => {
      if (!isCapability(id)) {
        findings.push(
          document.diagnostic(
            ['assertions', 'expected_capabilities', i],
            'unknown_reference',
            `unknown capability "${id}"${capabilityHint(id)}`,
          ),
        )
      }
    })
    if (!tagged && expected.some(isMutation)) {
      findings.push(
        document.diagnostic(
          ['tags'],
          'read_only',
          `expected capabilities change GitHub (${expected.filter(isMutation).join(', ')}): tag the scenario "mutation"`,
        ),
      )
    }
  }
  findings.push(...checkCheckpoints(spec, registry))
  findings.push(...checkModeKeys(spec, registry))
  return findings
}

/** What a scenario says per mode (reference plans, tool versions, fallbacks, not applicable) names modes that exist. */
const PER_MODE_KEYS = ['reference', 'requires', 'fallbacks', 'not_applicable'] as const

function checkModeKeys(spec: SpecFile<Scenario>, registry: PluginRegistry): Diagnostic[] {
  const labels = {
    reference: 'reference plan',
    requires: 'tool versions',
    fallbacks: 'fallback',
    not_applicable: 'not_applicable',
  }
  return PER_MODE_KEYS.flatMap((key) =>
    Object.keys(spec.value[key] ?? {})
      .filter((mode) => !registry.mode(mode))
      .map((mode) =>
        spec.document.diagnostic(
          [key, mode],
          'unknown_reference',
          `${labels[key]} for unknown mode "${mode}"${suggestionSuffix(mode, registry.modeNames())}`,
          'key',
        ),
      ),
  )
}

/**
 * A scenario's checkpoints: read tasks of the registry, conditions their plugins accept, unique names.
 * An atomic scenario is judged by them as a workflow is: one that changes GitHub must read GitHub
 * back, and a read must compare its answer with GitHub's (a condition over `{{answer}}`): the shape
 * of an answer proves nothing (a tool layer that echoes its input has the right shape).
 */
function checkCheckpoints(spec: SpecFile<Scenario>, registry: PluginRegistry): Diagnostic[] {
  const {document, value: scenario} = spec
  const findings: Diagnostic[] = []
  const checkpoints = scenario.assertions.checkpoints ?? []
  checkpoints.forEach((checkpoint, i) => {
    const at: PointerSegment[] = ['assertions', 'checkpoints', i]
    // A checkpoint task is a read task of the registry: a built-in (named by its capability id) or a plugin's.
    if (!registry.readTask(checkpoint.task)) {
      findings.push(
        document.diagnostic(
          [...at, 'task'],
          'unknown_reference',
          `unknown checkpoint task "${checkpoint.task}"${suggestionSuffix(checkpoint.task, registry.readTaskNames())}`,
        ),
      )
    } else if (isMutation(checkpoint.task)) {
      findings.push(
        document.diagnostic(
          [...at, 'task'],
          'schema',
          `checkpoint task "${checkpoint.task}" changes GitHub; checkpoints only read`,
        ),
      )
    }
    findings.push(...checkCondition(checkpoint.condition, [...at, 'condition'], document, registry))
  })
  const names = checkpoints.map((c) => c.name)
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i) {
      findings.push(
        document.diagnostic(
          ['assertions', 'checkpoints', i, 'name'],
          'duplicate_id',
          `duplicate checkpoint name "${name}"`,
        ),
      )
    }
  })
  if (scenario.type === 'atomic' && scenario.assertions.expected_outcome === 'success' && isCapability(scenario.task)) {
    if (isMutation(scenario.task) && checkpoints.length === 0) {
      findings.push(
        document.diagnostic(
          ['assertions'],
          'schema',
          `task "${scenario.task}" changes GitHub: add a checkpoint that reads the state it must leave (README, "Writing scenarios")`,
        ),
      )
    }
    if (
      !isMutation(scenario.task) &&
      !checkpoints.some((c) => findPlaceholders(c.condition).some((use) => use.name === 'answer'))
    ) {
      findings.push(
        document.diagnostic(
          ['assertions'],
          'schema',
          `task "${scenario.task}" reads GitHub: add a checkpoint that compares {{answer}} with what GitHub holds (README, "Writing scenarios")`,
        ),
      )
    }
  }
  return findings
}

/** Every `{{name}}` in prompts, inputs, checkpoints and reference plans must be bound. */
function checkPlaceholders(document: SourceDocument): Diagnostic[] {
  const data = document.data
  if (typeof data !== 'object' || data === null) return []
  const scenario = data as Record<string, unknown>
  const fixture = (scenario.fixture ?? {}) as {bindings?: unknown}
  const bindings =
    typeof fixture.bindings === 'object' && fixture.bindings !== null ? Object.keys(fixture.bindings) : []
  const variables = new Set<string>([...BUILT_IN_VARIABLES, ...bindings])
  // What the agent answered is known only once it is done: the checks may read it, the task may not.
  const checkVariables = new Set<string>([
    ...variables,
    ...CHECK_VARIABLES.filter((name) => name !== 'input' || scenario.type === 'atomic'),
  ])
  const findings: Diagnostic[] = []
  for (const key of ['prompt', 'input', 'assertions', 'reference']) {
    const bound = key === 'assertions' ? checkVariables : variables
    for (const use of findPlaceholders(scenario[key], [key])) {
      if (bound.has(use.name)) continue
      findings.push(
        document.diagnosticAt(
          document.positionOfText(use.path, use.text),
          'unbound_placeholder',
          `unbound placeholder ${use.text}: bind "${use.name}" in fixture.bindings${suggestionSuffix(use.name, bound)}${key !== 'assertions' && checkVariables.has(use.name) ? ` ("${use.name}" is known only to checkpoints)` : ''}`,
        ),
      )
    }
  }
  return findings
}

/** A condition's params against its plugin's schema; nested conditions (every, some, custom) too. */
function checkCondition(
  spec: ConditionSpec,
  at: PointerSegment[],
  document: SourceDocument,
  registry: PluginRegistry,
): Diagnostic[] {
  const condition = registry.condition(spec.type)
  if (!condition) {
    return [
      document.diagnostic(
        [...at, 'type'],
        'unknown_reference',
        `unknown condition "${spec.type}"${suggestionSuffix(spec.type, registry.conditionNames())}`,
      ),
    ]
  }
  const {type: _type, ...params} = spec
  const pointer = '/' + at.map(String).join('/')
  const findings = validateWithSchema(condition.paramsSchema, params, document, pointer, `condition ${spec.type}`).map(
    (d) => ({
      ...d,
      code: d.code === 'schema' || d.code === 'unknown_key' ? ('condition_params' as const) : d.code,
    }),
  )
  if (findings.length > 0) return findings
  const nested = (['where', 'condition'] as const).filter(
    (key) => typeof params[key] === 'object' && params[key] !== null,
  )
  if (nested.length > 0) {
    return nested.flatMap((key) => checkCondition(params[key] as ConditionSpec, [...at, key], document, registry))
  }
  if (spec.type === 'custom') {
    const scorer = String(params.scorer)
    const target = registry.condition(scorer)
    if (!target || scorer === 'custom') {
      return [
        document.diagnostic(
          [...at, 'scorer'],
          'unknown_reference',
          `unknown scorer "${scorer}": no plugin registers a condition by that name${suggestionSuffix(scorer, registry.conditionNames())}`,
        ),
      ]
    }
    return validateWithSchema(
      target.paramsSchema,
      params.params ?? {},
      document,
      pointer + '/params',
      `scorer ${scorer}`,
    ).map((d) => ({
      ...d,
      code: 'condition_params' as const,
    }))
  }
  return []
}

/** A set's members, its includes expanded (cycles are reported by checkSet, and cut here). */
export function setMembers(catalogue: Catalogue, name: string, seen = new Set<string>()): string[] {
  const set = catalogue.sets.get(name)
  if (!set || seen.has(name)) return []
  seen.add(name)
  const members = [...(set.value.scenarios ?? [])]
  for (const included of set.value.include ?? []) members.push(...setMembers(catalogue, included, seen))
  return [...new Set(members)]
}

function checkSet(spec: SpecFile<ScenarioSet>, catalogue: Catalogue): Diagnostic[] {
  const {document, value: set} = spec
  const findings: Diagnostic[] = []
  const stem = path.basename(spec.absolutePath).replace(/\.ya?ml$/, '')
  if ((set.scenarios ?? []).length === 0 && (set.include ?? []).length === 0) {
    findings.push(document.diagnostic(['name'], 'schema', `set "${set.name}" lists no scenarios and includes no set`))
  }
  if (stem !== set.name)
    findings.push(
      document.diagnostic(['name'], 'schema', `set name "${set.name}" does not match its file name "${stem}"`),
    )
  ;(set.scenarios ?? []).forEach((id, i) => {
    if (!catalogue.scenarios.has(id) && !catalogue.diagnostics.get(scenarioFile(catalogue, id) ?? '')?.length) {
      findings.push(
        document.diagnostic(
          ['scenarios', i],
          'unknown_reference',
          `unknown scenario "${id}" in set "${set.name}"${suggestionSuffix(id, known(catalogue, catalogue.scenarios))}`,
        ),
      )
    }
  })
  ;(set.include ?? []).forEach((name, i) => {
    if (!catalogue.sets.has(name)) {
      findings.push(
        document.diagnostic(
          ['include', i],
          'unknown_reference',
          `unknown set "${name}"${suggestionSuffix(name, known(catalogue, catalogue.sets))}`,
        ),
      )
    } else if (includesSet(catalogue, name, set.name, new Set())) {
      findings.push(
        document.diagnostic(
          ['include', i],
          'unknown_reference',
          `set "${name}" includes "${set.name}" back: sets may not include each other in a cycle`,
        ),
      )
    }
  })
  if (set.read_only) {
    for (const id of setMembers(catalogue, set.name)) {
      const scenario = catalogue.scenarios.get(id)
      if (scenario && isMutationScenario(scenario.value)) {
        const index = (set.scenarios ?? []).indexOf(id)
        findings.push(
          document.diagnostic(
            index >= 0 ? ['scenarios', index] : ['read_only'],
            'read_only',
            `set "${set.name}" is read-only but "${id}" is tagged mutation`,
          ),
        )
      }
    }
  }
  return findings
}

/** A scenario file that failed to load still counts as known, so its set is not blamed for it. */
function scenarioFile(catalogue: Catalogue, id: string): string | undefined {
  return [...catalogue.diagnostics.keys()].find((file) => path.basename(file).replace(/\.ya?ml$/, '') === id)
}

function includesSet(catalogue: Catalogue, from: string, target: string, seen: Set<string>): boolean {
  if (from === target) return true
  if (seen.has(from)) return false
  seen.add(from)
  return (catalogue.sets.get(from)?.value.include ?? []).some((next) => includesSet(catalogue, next, target, seen))
}

const GLOB = /[*?]/

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    '^' +
      glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replaceAll('*', '.*')
        .replaceAll('?', '.') +
      '$',
  )
}

/** The scenario ids a suite selects, in catalogue order: its set, ids and globs, minus exclusions. */
export function unknownModeMessage(name: string, registry: PluginRegistry): string {
  return `unknown mode "${name}": no plugin provides it${suggestionSuffix(name, registry.modeNames())} (modes: ${registry.modeNames().join(', ')})`
}

export function selectScenarios(suite: Suite, catalogue: Catalogue): string[] {
  const selected: string[] = []
  if (suite.scenarios.set) selected.push(...setMembers(catalogue, suite.scenarios.set))
  for (const entry of suite.scenarios.ids ?? []) {
    if (GLOB.test(entry)) {
      const pattern = globToRegExp(entry)
      selected.push(...[...catalogue.scenarios.keys()].sort().filter((id) => pattern.test(id)))
    } else selected.push(entry)
  }
  const excluded = (suite.scenarios.exclude ?? []).map((e) => (GLOB.test(e) ? globToRegExp(e) : e))
  return [...new Set(selected)].filter(
    (id) => !excluded.some((pattern) => (typeof pattern === 'string' ? pattern === id : pattern.test(id))),
  )
}

/** A gate compares two modes: a candidate that is its own baseline compares nothing, and passes whatever it does. */
function checkGateRoles(
  document: SourceDocument,
  at: PointerSegment[],
  gate: {baseline?: string; candidate?: string} | undefined,
): Diagnostic[] {
  if (!gate?.candidate || gate.candidate !== gate.baseline) return []
  return [
    document.diagnostic(
      [...at, 'candidate'],
      'schema',
      `gate candidate "${gate.candidate}" is the baseline: the gate compares two different modes`,
    ),
  ]
}

/** A profile is named as its file is: `gate --profile NAME` and a suite's gate.profile find it by either. */
function checkProfile(spec: SpecFile<Profile>): Diagnostic[] {
  return profileNameFindings(spec.absolutePath, spec.document, spec.value.name)
}

export function profileNameFindings(file: string, document: SourceDocument, name: string): Diagnostic[] {
  const stem = path.basename(file).replace(/\.ya?ml$/, '')
  return stem === name
    ? []
    : [document.diagnostic(['name'], 'schema', `profile name "${name}" does not match its file name "${stem}"`)]
}

function checkSuite(spec: SpecFile<Suite>, catalogue: Catalogue, registry: PluginRegistry): Diagnostic[] {
  const {document, value: suite} = spec
  const findings: Diagnostic[] = []
  if (suite.scenarios.set && !catalogue.sets.has(suite.scenarios.set)) {
    findings.push(
      document.diagnostic(
        ['scenarios', 'set'],
        'unknown_reference',
        `unknown set "${suite.scenarios.set}"${suggestionSuffix(suite.scenarios.set, known(catalogue, catalogue.sets))}`,
      ),
    )
  }
  ;(suite.scenarios.ids ?? []).forEach((entry, i) => {
    const matches = GLOB.test(entry)
      ? [...catalogue.scenarios.keys()].some((id) => globToRegExp(entry).test(id))
      : catalogue.scenarios.has(entry)
    if (!matches) {
      findings.push(
        document.diagnostic(
          ['scenarios', 'ids', i],
          'unknown_reference',
          GLOB.test(entry)
            ? `pattern "${entry}" matches no scenario`
            : `unknown scenario "${entry}"${suggestionSuffix(entry, known(catalogue, catalogue.scenarios))}`,
        ),
      )
    }
  })
  ;(suite.scenarios.exclude ?? []).forEach((entry, i) => {
    const matches = GLOB.test(entry)
      ? [...catalogue.scenarios.keys()].some((id) => globToRegExp(entry).test(id))
      : catalogue.scenarios.has(entry)
    if (!matches) {
      findings.push(
        document.diagnostic(
          ['scenarios', 'exclude', i],
          'unknown_reference',
          GLOB.test(entry)
            ? `exclude: pattern "${entry}" matches no scenario`
            : `exclude: unknown scenario "${entry}"${suggestionSuffix(entry, known(catalogue, catalogue.scenarios))}`,
        ),
      )
    }
  })
  if (findings.length === 0 && selectScenarios(suite, catalogue).length === 0) {
    findings.push(document.diagnostic(['scenarios'], 'unknown_reference', 'the suite selects no scenario'))
  }
  const modeNames = suite.modes.map((m) => (typeof m === 'string' ? m : m.name))
  modeNames.forEach((name, i) => {
    if (modeNames.indexOf(name) !== i)
      findings.push(document.diagnostic(['modes', i], 'duplicate_id', `mode "${name}" is listed twice`))
  })
  suite.modes.forEach((ref, i) => {
    const name = typeof ref === 'string' ? ref : ref.name
    const mode = registry.mode(name)
    if (!mode) {
      const path = typeof ref === 'string' ? ['modes', i] : ['modes', i, 'name']
      findings.push(document.diagnostic(path, 'unknown_reference', unknownModeMessage(name, registry)))
    }
    // Modes are plugins: where one is registered its options are checked here, at their place in the suite.
    if (mode && typeof ref === 'object' && ref.options) {
      findings.push(
        ...validateWithSchema(mode.optionsSchema, ref.options, document, `/modes/${i}/options`, `mode ${name} options`),
      )
    }
  })
  // The suite's provider, or each of its providers: registered, its options valid, none named twice (rows tell providers apart by name).
  const providerRefs: Array<{ref: PluginRef; at: Array<string | number>}> = suite.providers
    ? suite.providers.map((ref, i) => ({ref, at: ['providers', i]}))
    : suite.provider
      ? [{ref: suite.provider, at: ['provider']}]
      : []
  const providerNames = providerRefs.map(({ref}) => (typeof ref === 'string' ? ref : ref.name))
  providerRefs.forEach(({ref, at}, i) => {
    const name = providerNames[i]!
    if (providerNames.indexOf(name) !== i)
      findings.push(
        document.diagnostic(
          at,
          'duplicate_id',
          `provider "${name}" is listed twice (rows tell providers apart by name)`,
        ),
      )
    const plugin = registry.provider(name)
    if (!plugin) {
      findings.push(
        document.diagnostic(
          typeof ref === 'string' ? at : [...at, 'name'],
          'unknown_reference',
          `unknown provider "${name}"${suggestionSuffix(name, registry.providerNames())} (providers: ${registry.providerNames().join(', ')})`,
        ),
      )
    } else if (typeof ref === 'object' && ref.options) {
      findings.push(
        ...validateWithSchema(
          plugin.optionsSchema,
          ref.options,
          document,
          `/${at.join('/')}/options`,
          `provider ${name} options`,
        ),
      )
    }
  })
  const profile = suite.gate?.profile
  if (profile && !catalogue.profiles.has(profile)) {
    findings.push(
      document.diagnostic(
        ['gate', 'profile'],
        'unknown_reference',
        `unknown profile "${profile}"${suggestionSuffix(profile, known(catalogue, catalogue.profiles))}`,
      ),
    )
  }
  for (const role of ['baseline', 'candidate'] as const) {
    const mode = suite.gate?.[role]
    if (mode && !modeNames.includes(mode)) {
      findings.push(
        document.diagnostic(
          ['gate', role],
          'unknown_reference',
          `gate ${role} "${mode}" is not one of the suite's modes (${modeNames.join(', ')})`,
        ),
      )
    }
  }
  findings.push(...checkGateRoles(document, ['gate'], suite.gate))
  const readOnlySets = suite.scenarios.set && catalogue.sets.get(suite.scenarios.set)?.value.read_only
  if (suite.read_only || readOnlySets) {
    for (const id of selectScenarios(suite, catalogue)) {
      const scenario = catalogue.scenarios.get(id)
      if (scenario && isMutationScenario(scenario.value)) {
        findings.push(
          document.diagnostic(
            suite.read_only ? ['read_only'] : ['scenarios', 'set'],
            'read_only',
            `the suite is read-only but selects "${id}", which is tagged mutation`,
          ),
        )
      }
    }
  }
  return findings
}
