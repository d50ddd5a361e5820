/**
 * The effective configuration: defaults < config file < GHX_BENCH_* environment < flags.
 * The file is found by cosmiconfig from the working folder up to the project root, parsed with
 * source positions and validated, so that a bad key is reported at its file:line:col.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {describePath, validateDocument, validateWithSchema} from '../shared/schema-validator.js'
import {parseSource, readSource, type SourceDocument} from '../shared/source-document.js'
import {configSchema, type ConfigFile} from './schema.js'
import {environmentVariable, readEnvironmentOverrides} from './environment.js'

export const CONFIG_SEARCH_PLACES = [
  '.ghxbenchrc.yml',
  '.ghxbenchrc.yaml',
  '.ghxbenchrc.json',
  'ghxbench.config.js',
  'ghxbench.config.mjs',
] as const

export const CONFIG_DEFAULTS = {
  target: 'sandbox',
  provider: 'agent-loop',
  model: 'oracle',
  plugins: [],
  suites_dir: 'suites',
  results_dir: 'results',
  reports_dir: 'reports',
  fixtures: {manifest: 'fixtures/latest.json', seed_id: 'default', sandbox_repos: []},
  pricing: {},
  gate: {profile: 'verify_pr', baseline: 'agent_direct', candidate: 'ghx'},
} as const satisfies ConfigFile

type Defaults = typeof CONFIG_DEFAULTS
/** Config values after merging: every key that has a default is present. */
export type ConfigValues = Omit<ConfigFile, keyof Defaults> & {
  [K in keyof Defaults]-?: NonNullable<ConfigFile[K]>
} & {
  fixtures: NonNullable<ConfigFile['fixtures']> & {manifest: string; seed_id: string; sandbox_repos: string[]}
  gate: {profile: string; baseline: string; candidate: string}
}

export interface LoadedConfig {
  /** Absolute path of the config file, when one was found. */
  file?: string
  /** The folder relative paths resolve from: the config file's folder, else the working folder. */
  dir: string
  values: ConfigValues
}

export interface LoadConfigOptions {
  cwd?: string
  /** An explicit --config path; no search when given. */
  configPath?: string
  env?: NodeJS.ProcessEnv
  /** Values from flags, highest precedence. */
  overrides?: ConfigFile
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  const found = await findConfigFile(cwd, options.configPath)
  const diagnostics: Diagnostic[] = []
  let fileValues: ConfigFile = {}
  if (found) {
    const {values, diagnostics: fileDiagnostics} = await readConfigFile(found, cwd)
    diagnostics.push(...fileDiagnostics)
    fileValues = values
  }
  const envLayer = readEnvironmentOverrides(configSchema, env)
  diagnostics.push(...envLayer.diagnostics, ...validateLayer(envLayer.values, (pointer) => '$' + environmentVariable(pointer)))
  diagnostics.push(...validateLayer(options.overrides ?? {}, (pointer) => `flag for ${describePath(pointer)}`))
  if (diagnostics.length > 0) throw new BadInputError(diagnostics)

  const merged = [fileValues, envLayer.values, options.overrides ?? {}].reduce<Record<string, unknown>>(
    (acc, layer) => deepMerge(acc, layer),
    structuredClone(CONFIG_DEFAULTS) as unknown as Record<string, unknown>,
  )
  return {file: found, dir: found ? path.dirname(found) : cwd, values: merged as unknown as ConfigValues}
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

/** Resolves a configured path against the config's folder. */
export function resolveConfigPath(config: LoadedConfig, value: string): string {
  return path.resolve(config.dir, value)
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

async function readConfigFile(file: string, cwd: string): Promise<{values: ConfigFile; diagnostics: Diagnostic[]}> {
  const shown = path.relative(cwd, file) || file
  if (/\.m?js$/.test(file)) return readScriptConfig(file, shown)
  const parsed = await readSource(file, cwd)
  if (!parsed.document) return {values: {}, diagnostics: parsed.diagnostics}
  const diagnostics = validateDocument(configSchema, parsed.document)
  return {values: (parsed.document.data ?? {}), diagnostics}
}

/** ghxbench.config.js: no source positions, so findings name the key path only. */
async function readScriptConfig(file: string, shown: string): Promise<{values: ConfigFile; diagnostics: Diagnostic[]}> {
  let exported: unknown
  try {
    const module = (await import(pathToFileURL(file).href)) as {default?: unknown}
    exported = module.default
  } catch (error) {
    return {values: {}, diagnostics: [{file: shown, code: 'config', message: `cannot load: ${(error as Error).message}`}]}
  }
  const document = parseSource(JSON.stringify(exported ?? null), shown).document as SourceDocument
  const diagnostics = validateWithSchema(configSchema, exported, document).map(({file: f, code, message}) => ({file: f, code, message}))
  return {values: (exported ?? {}), diagnostics}
}

function deepMerge(base: Record<string, unknown>, layer: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {...base}
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value
  }
  return result
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
