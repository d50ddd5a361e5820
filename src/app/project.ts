/**
 * Opening the project, once per command: the configuration (file, environment, flags), then the
 * plugins it names (the built-ins always), then the catalogue under suites_dir (the built-in profiles
 * always). Every finding names its file the same way: relative to the working folder, the config as
 * its file name or "(config)" when there is none.
 */
import path from 'node:path'
import {
  defaultConfig,
  loadConfig,
  resolveConfigPath,
  type ConfigFile,
  type LoadedConfig,
} from '../config/load-config.js'
import {loadCatalogue} from '../catalogue/catalogue.js'
import {checkConfig} from '../catalogue/config-checks.js'
import {BUILT_IN_PROFILES_DIR} from '../catalogue/profiles.js'
import type {Project} from '../catalogue/project.js'
import {loadPluginsCollecting} from '../plugins/loader.js'
import {pluginRequests} from '../plugins/requests.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'

export type {Project} from '../catalogue/project.js'

export interface ProjectOptions {
  /** The working folder (default: the process's). */
  cwd?: string
  /** --config: the config file, instead of searching for one. */
  configPath?: string
  env?: NodeJS.ProcessEnv
  /** Flags that set configuration keys (--model, --repo, --manifest, ...): the configuration's top layer. */
  overrides?: ConfigFile
}

export interface OpenOptions extends ProjectOptions {
  /** Files outside suites_dir to load into the catalogue too (a suite named by path, validate's arguments). */
  extraFiles?: string[]
  /** Read only these files of the catalogue and what they reference (validate's arguments). */
  focus?: string[]
}

/** The configuration alone, for commands that need no plugin and no catalogue (report, gate, fixtures status). */
export function openConfig(options: ProjectOptions = {}): Promise<LoadedConfig> {
  return loadConfig({cwd: options.cwd, configPath: options.configPath, env: options.env, overrides: options.overrides})
}

/** The project, or every finding at once as bad input (exit 2). */
export async function openProject(options: OpenOptions = {}): Promise<Project> {
  const {findings, ...project} = await readProject(await openConfig(options), options)
  const diagnostics = [...findings, ...[...project.catalogue.diagnostics.values()].flat()]
  if (diagnostics.length > 0) throw new BadInputError(diagnostics)
  project.registry.freeze()
  return project
}

/**
 * The project as far as it can be read, for validate: `findings` are the config's and the plugins'
 * (a config that fails to load is reported, and the defaults stand in for it so that the rest is
 * checked too); the catalogue's are in `catalogue.diagnostics`, per file.
 */
export async function inspectProject(options: OpenOptions = {}): Promise<Project & {findings: Diagnostic[]}> {
  const findings: Diagnostic[] = []
  let config: LoadedConfig
  try {
    config = await openConfig(options)
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error
    findings.push(...error.diagnostics)
    config = defaultConfig(options.cwd ?? process.cwd())
  }
  const project = await readProject(config, options)
  return {...project, findings: [...findings, ...project.findings]}
}

async function readProject(config: LoadedConfig, options: OpenOptions): Promise<Project & {findings: Diagnostic[]}> {
  const cwd = options.cwd ?? process.cwd()
  const {registry, diagnostics: findings} = await loadPluginsCollecting({
    fromDir: config.dir,
    plugins: pluginRequests(config.values.plugins),
    origin: config.origin,
  })
  const root = resolveConfigPath(config, config.values.suites_dir)
  const extraFiles = (options.extraFiles ?? [])
    .map((file) => path.resolve(cwd, file))
    .filter((file) => path.relative(root, file).startsWith('..'))
  // The configuration's gate profile (in any layer) is a reference too: checkConfig looks it up.
  const focus = options.focus && {
    files: options.focus.map((file) => path.resolve(cwd, file)),
    profiles: Object.values(config.layers).flatMap((layer) => layer?.gate?.profile ?? []),
  }
  const catalogue = await loadCatalogue({
    root,
    registry,
    cwd,
    extraFiles,
    builtInProfilesDir: BUILT_IN_PROFILES_DIR,
    focus,
  })
  // The configuration's plugin references and gate profile are checked as a suite's are, once the plugins and profiles are known.
  findings.push(...(await checkConfig(config, registry, catalogue, cwd)))
  return {cwd, config, registry, catalogue, findings}
}
