/**
 * The effective configuration, in layers: the schema's defaults < the config file < GHX_BENCH_*
 * environment < a suite's own settings (for its run) < flags. The file is found by cosmiconfig from
 * the working folder up to the project root, parsed with source positions and validated, so that a
 * bad key is reported at its file:line:col; the environment and flags are validated too, each finding
 * naming the variable or flag. Defaults live in the schema only (`default`), applied once to the merge.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {applyDefaults, describePath, validateDocument, validateWithSchema} from '../shared/schema-validator.js'
import {displayPath, parseSource, readSource, type SourceDocument} from '../shared/source-document.js'
import {CONFIG_PATH_KEYS, configSchema, type ConfigFile, type ConfigValues} from './schema.js'
import {environmentVariable, readEnvironmentOverrides} from './environment.js'
import {isObject} from '../shared/is-object.js'

export type {ConfigFile} from './schema.js'

const CONFIG_SEARCH_PLACES = [
  '.ghxbenchrc.yml',
  '.ghxbenchrc.yaml',
  '.ghxbenchrc.json',
  'ghxbench.config.js',
  'ghxbench.config.mjs',
] as const

/**
 * Where a layer's values come from, lowest precedence first: the config file, GHX_BENCH_* variables,
 * a suite's own settings (for its run), a fixture manifest's facts (its repository and seed id, for
 * the commands that work on it), flags.
 */
const LAYER_ORDER = ['file', 'environment', 'suite', 'manifest', 'flags', 'shard'] as const
export type LayerName = (typeof LAYER_ORDER)[number]

export interface LoadedConfig {
  /** Absolute path of the config file, when one was found. */
  file?: string
  /** The folder relative paths resolve from: the config file's folder, else the working folder. */
  dir: string
  /** The config file as findings name it (relative to the working folder), or "(config)" when there is none. */
  origin: string
  values: ConfigValues
  /** The layers merged into `values` over the schema's defaults, in LAYER_ORDER. */
  layers: Partial<Record<LayerName, ConfigFile>>
}

export interface LoadConfigOptions {
  cwd?: string
  /** An explicit --config path; no search when given. */
  configPath?: string
  env?: NodeJS.ProcessEnv
  /** Values from flags, highest precedence; their paths are relative to `cwd`. */
  overrides?: ConfigFile
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  const found = await findConfigFile(cwd, options.configPath)
  const diagnostics: Diagnostic[] = []
  let fileValues: ConfigFile = {}
  let fileDocument: SourceDocument | undefined
  if (found) {
    const {values, diagnostics: fileDiagnostics, document} = await readConfigFile(found, cwd)
    diagnostics.push(...fileDiagnostics)
    fileValues = values
    fileDocument = document
  }
  const envLayer = readEnvironmentOverrides(configSchema, env)
  diagnostics.push(
    ...envLayer.diagnostics,
    ...validateLayer(envLayer.values, (pointer) => '$' + environmentVariable(pointer)),
  )
  const flags = withoutUndefined(options.overrides ?? {})
  diagnostics.push(...validateLayer(flags, (pointer) => `flag for ${describePath(pointer)}`))
  if (diagnostics.length > 0) throw new BadInputError(diagnostics)
  const dir = found ? path.dirname(found) : cwd
  const layers = {file: fileValues, environment: envLayer.values as ConfigFile, flags: resolvePaths(flags, cwd)}
  const values = merge(layers)
  const roles = gateRolesFinding(values, layers, fileDocument)
  if (roles) throw new BadInputError([roles])
  return {file: found, dir, origin: found ? displayPath(found, cwd) : '(config)', values, layers}
}

/** Where each layer's gate roles are set, as findings name them (a flag, a variable; the file by its document). */
const ROLE_FLAGS = {baseline: '--baseline', candidate: '--candidate'} as const

/**
 * A gate whose candidate is its baseline compares a mode with itself and passes whatever it does: the
 * finding names the highest layer that set either role (a flag, a variable, the file's line).
 */
function gateRolesFinding(
  values: ConfigValues,
  layers: Partial<Record<LayerName, ConfigFile>>,
  document?: SourceDocument,
): Diagnostic | undefined {
  const {baseline, candidate} = values.gate
  if (baseline !== candidate) return undefined
  const message = `gate candidate "${candidate}" is the baseline: the gate compares two different modes (set gate.candidate or gate.baseline to another)`
  for (const name of [...LAYER_ORDER].reverse()) {
    const gate = layers[name]?.gate
    const role = gate?.candidate !== undefined ? 'candidate' : gate?.baseline !== undefined ? 'baseline' : undefined
    if (!role) continue
    if (name === 'file' && document) return document.diagnostic(['gate', role], 'config', message)
    return {
      file:
        name === 'flags'
          ? ROLE_FLAGS[role]
          : name === 'environment'
            ? '$' + environmentVariable(`/gate/${role}`)
            : `gate.${role}`,
      code: 'config',
      message,
    }
  }
  return {file: 'gate.candidate', code: 'config', message}
}

/** The configuration when none could be loaded: the schema's defaults, so that validate can go on to the catalogue. */
export function defaultConfig(cwd = process.cwd()): LoadedConfig {
  return {dir: cwd, origin: '(config)', values: merge({}), layers: {}}
}

/**
 * The configuration with one more layer under the flags: a suite's own settings for its run (its
 * target, model, provider, endpoint, fixtures, gate), or what a fixture manifest records (its
 * repository and seed id). The values come from a document already validated against its schema; a
 * flag still wins over them.
 */
export function withLayer(
  config: LoadedConfig,
  name: Exclude<LayerName, 'flags' | 'file' | 'environment'>,
  values: ConfigFile,
): LoadedConfig {
  const layers = {...config.layers, [name]: withoutUndefined(values)}
  return {...config, values: merge(layers), layers}
}

/** Resolves a configured path against the config's folder (an absolute path, as flags give, stays as it is). */
export function resolveConfigPath(config: LoadedConfig, value: string): string {
  return path.resolve(config.dir, value)
}

function merge(layers: LoadedConfig['layers']): ConfigValues {
  const merged = LAYER_ORDER.reduce<Record<string, unknown>>(
    (acc, name) => mergeLayer(configSchema as SchemaNode, acc, layers[name] ?? {}),
    {},
  )
  return applyDefaults(configSchema, merged) as ConfigValues
}

/** Flags name paths from the working folder: they enter the configuration as absolute paths. */
function resolvePaths(values: ConfigFile, cwd: string): ConfigFile {
  const result = structuredClone(values) as Record<string, unknown>
  for (const keys of CONFIG_PATH_KEYS) {
    let parent = result
    for (const key of keys.slice(0, -1)) parent = (parent[key] ?? {}) as Record<string, unknown>
    const last = keys.at(-1)!
    if (typeof parent[last] === 'string') parent[last] = path.resolve(cwd, parent[last])
  }
  return result
}

/** Checks a layer that has no file (environment, flags); each finding names where the value came from. */
function validateLayer(values: object, origin: (pointer: string) => string): Diagnostic[] {
  if (Object.keys(values).length === 0) return []
  const document = parseSource(JSON.stringify(values), '(layer)').document as SourceDocument
  return validateWithSchema(configSchema, values, document).map(({code, message, pointer}) => ({
    file: origin(pointer ?? ''),
    code,
    message,
  }))
}

async function findConfigFile(cwd: string, explicit?: string): Promise<string | undefined> {
  if (explicit) return path.resolve(cwd, explicit)
  const {cosmiconfig} = await import('cosmiconfig')
  // Only locate the file here; parsing is ours so that positions survive.
  const explorer = cosmiconfig('ghxbench', {
    searchStrategy: 'project',
    searchPlaces: [...CONFIG_SEARCH_PLACES],
    loaders: {'.yml': locateOnly, '.yaml': locateOnly, '.json': locateOnly, '.js': locateOnly, '.mjs': locateOnly},
    cache: false,
  })
  const result = await explorer.search(cwd)
  return result?.filepath
}

function locateOnly(): Record<string, never> {
  return {}
}

async function readConfigFile(
  file: string,
  cwd: string,
): Promise<{values: ConfigFile; diagnostics: Diagnostic[]; document?: SourceDocument}> {
  const shown = path.relative(cwd, file) || file
  if (/\.m?js$/.test(file)) return readScriptConfig(file, shown)
  const parsed = await readSource(file, cwd)
  if (!parsed.document) return {values: {}, diagnostics: parsed.diagnostics}
  const diagnostics = validateDocument(configSchema, parsed.document)
  return {values: parsed.document.data ?? {}, diagnostics, document: parsed.document}
}

/** ghxbench.config.js: no source positions, so findings name the key path only. */
async function readScriptConfig(file: string, shown: string): Promise<{values: ConfigFile; diagnostics: Diagnostic[]}> {
  let exported: unknown
  try {
    const module = (await import(pathToFileURL(file).href)) as {default?: unknown}
    exported = module.default
  } catch (error) {
    return {
      values: {},
      diagnostics: [{file: shown, code: 'config', message: `cannot load: ${(error as Error).message}`}],
    }
  }
  const document = parseSource(JSON.stringify(exported ?? null), shown).document as SourceDocument
  const diagnostics = validateWithSchema(configSchema, exported, document).map(({file: f, code, message}) => ({
    file: f,
    code,
    message,
  }))
  return {values: exported ?? {}, diagnostics}
}

/** A layer without its unset keys (a flag not given is undefined): they must not hide a lower layer's value. */
function withoutUndefined<T>(value: T): T {
  if (!isObject(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue
    const cleaned = withoutUndefined(item)
    if (isObject(cleaned) && Object.keys(cleaned).length === 0 && isObject(item)) continue
    result[key] = cleaned
  }
  return result as T
}

type SchemaNode = {properties?: Record<string, SchemaNode>; additionalProperties?: unknown}

/**
 * A higher layer over a lower one, key by key where the schema gives an object its keys (fixtures,
 * gate, endpoint, pricing): a layer that sets fixtures.repo keeps the lower layer's fixtures.manifest.
 * Any other value is replaced whole: a plugin reference with options is one value, never two mixed.
 */
function mergeLayer(
  schema: SchemaNode,
  base: Record<string, unknown>,
  layer: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {...base}
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue
    const current = result[key]
    const node =
      schema.properties?.[key] ??
      (typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as SchemaNode) : undefined)
    const keyed = node !== undefined && (node.properties !== undefined || typeof node.additionalProperties === 'object')
    result[key] = keyed && isObject(current) && isObject(value) ? mergeLayer(node, current, value) : value
  }
  return result
}
