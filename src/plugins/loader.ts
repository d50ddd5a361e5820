/**
 * Loads plugins into a registry: the built-ins in plugins/ first, then those named in the config's
 * `plugins:` list, resolved from the config file's folder (npm names, `package:export`, or paths).
 * Every problem of every plugin is collected before anything is reported, so one broken plugin
 * never hides another's diagnostics. A plugin's loading (its import, top-level awaits included, and
 * its factory) has a time limit, and a plugin may not end ghx-bench while it loads (process.exit):
 * both are reported as the plugin's problem (exit 2), never a hang, a silent exit 13 or a false 0.
 * A third party's import is checked first in a process of its own (./plugin-check.ts: an endless
 * loop, a rejection nobody handles, a process left running are its problems there, and that process
 * is ended with all it started), then imported here, one at a time and guarded the same way; its
 * shape is read once, defensively (a getter that throws makes a broken plugin, not an internal error).
 * The built-ins are ghx-bench's own: imported here at once, unchecked.
 */
import {existsSync, statSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {packageModulePath} from '../shared/package-paths.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {checkCompiles} from '../shared/schema-validator.js'
import {PLUGIN_API_VERSION, type Plugin} from './api.js'
import {firstLine, loadPluginModule, pluginTimeLimitMs, type LoadOutcome, type PluginModule} from './import-plugin.js'
import {checkPluginImport} from './plugin-check.js'
import {PluginRegistry, type PluginSource} from './registry.js'

export {describeTimeLimit, pluginTimeLimitMs, withinTimeLimit} from './import-plugin.js'

/**
 * Built-in plugins, in load order, and their modules: the folders under plugins/, and the core's own
 * checkpoint read tasks (src/github/tasks.ts, whose default export is a plugin like any other).
 */
const BUILT_IN_MODULES = {
  'conditions-core': 'plugins/conditions-core/index.ts',
  'read-tasks-core': 'src/github/tasks.ts',
  'mode-agent-direct': 'plugins/mode-agent-direct/index.ts',
  'mode-ghx': 'plugins/mode-ghx/index.ts',
  'mode-mcp': 'plugins/mode-mcp/index.ts',
  'provider-agent-loop': 'plugins/provider-agent-loop/index.ts',
  'provider-opencode': 'plugins/provider-opencode/index.ts',
  'provider-claude-code': 'plugins/provider-claude-code/index.ts',
  'provider-codex': 'plugins/provider-codex/index.ts',
} as const

const BUILT_IN_PLUGINS = Object.keys(BUILT_IN_MODULES) as Array<keyof typeof BUILT_IN_MODULES>

export interface PluginRequest {
  specifier: string
  options?: Record<string, unknown>
}

export interface LoadPluginsOptions {
  /** Folder that plugin specifiers resolve from (the config file's folder). */
  fromDir: string
  plugins: PluginRequest[]
  /** Shown in messages as where the list came from. */
  origin: string
  /** How long each plugin may take to load (default: pluginTimeLimitMs()). */
  timeLimitMs?: number
}

export function builtInPluginPath(name: keyof typeof BUILT_IN_MODULES): string {
  return packageModulePath(BUILT_IN_MODULES[name])
}

/** Loads every plugin it can and reports every problem; throws when there is any. The registry comes back frozen. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginRegistry> {
  const {registry, diagnostics} = await loadPluginsCollecting(options)
  if (diagnostics.length > 0) throw new BadInputError(diagnostics)
  return registry.freeze()
}

/** The registry of what loaded, and one finding per problem (for validate, which reports everything). */
export async function loadPluginsCollecting(
  options: LoadPluginsOptions,
): Promise<{registry: PluginRegistry; diagnostics: Diagnostic[]}> {
  const registry = new PluginRegistry()
  const problems: Diagnostic[] = []
  const report = (specifier: string, message: string): void => {
    problems.push({file: options.origin, code: 'plugin', message: `plugin "${specifier}": ${message}`})
  }
  const limitMs = options.timeLimitMs ?? pluginTimeLimitMs()
  const resolved = await Promise.all(
    options.plugins.map((request) =>
      resolveSpecifier(request.specifier, options.fromDir).then(
        (module) => ({request, module}),
        (error: Error) => ({request, problem: error.message}),
      ),
    ),
  )
  // Every check starts now, in a process of its own, before any import here is watched (a check's
  // process is no plugin's), and runs while the built-ins are imported. A check that fails is
  // ghx-bench's failure, thrown when its turn comes (handled until then).
  const checks = resolved.map((entry) =>
    'module' in entry
      ? checkPluginImport({
          module: {url: entry.module.url, ...(entry.module.exportName ? {exportName: entry.module.exportName} : {})},
          specifier: entry.request.specifier,
          ...(entry.request.options ? {options: entry.request.options} : {}),
          limitMs,
        })
      : Promise.resolve([entry.problem]),
  )
  for (const check of checks) check.catch(() => {})
  const loaded: Array<{specifier: string; module?: ResolvedTarget; outcome: LoadOutcome}> = await Promise.all(
    BUILT_IN_PLUGINS.map(async (name) => {
      const module = {url: pathToFileURL(builtInPluginPath(name)).href, source: 'built-in' as const}
      return {specifier: name, module, outcome: await loadPluginModule(module, name, undefined, limitMs, false)}
    }),
  )
  // One at a time, guarded: what an import leaves behind is that plugin's own.
  for (const [index, entry] of resolved.entries()) {
    const found = await checks[index]!
    const {specifier, options: pluginOptions} = entry.request
    loaded.push(
      'module' in entry && found.length === 0
        ? {
            specifier,
            module: entry.module,
            outcome: await loadPluginModule(entry.module, specifier, pluginOptions, limitMs, true),
          }
        : {specifier, outcome: {ok: false, problems: found}},
    )
  }
  // Registered in list order, so that which plugin wins a name is deterministic.
  for (const {specifier, module, outcome} of loaded) {
    const refused = outcome.ok
      ? register(registry, outcome.plugin, module!.source, specifier, fileURLToPath(module!.url))
      : outcome.problems
    for (const problem of refused) report(specifier, problem)
  }
  return {registry, diagnostics: problems}
}

/**
 * Checks a loaded plugin's shape and registers it; the problems that refuse it. Its members are read
 * once, here: a getter that throws (or a list that cannot be read) makes a broken plugin, named.
 */
function register(
  registry: PluginRegistry,
  plugin: unknown,
  source: PluginSource,
  specifier: string,
  resolved: string,
): string[] {
  if (typeof plugin !== 'object' || plugin === null) return checkShape(plugin)
  const members: Record<string, unknown> = {}
  for (const member of PLUGIN_MEMBERS) {
    try {
      const value = (plugin as Record<string, unknown>)[member]
      members[member] = Array.isArray(value) ? [...(value as unknown[])] : value
    } catch (error) {
      return [`is a broken plugin: reading its "${member}" threw: ${firstLine(error)}`]
    }
  }
  try {
    const problems = checkShape(members)
    return problems.length > 0 ? problems : registry.register(members as unknown as Plugin, source, specifier, resolved)
  } catch (error) {
    return [`is a broken plugin: reading its modes, providers, conditions or read tasks threw: ${firstLine(error)}`]
  }
}

/** What ghx-bench reads of a plugin object. */
const PLUGIN_MEMBERS = ['apiVersion', 'name', 'version', 'modes', 'providers', 'conditions', 'readTasks'] as const

interface ResolvedTarget extends PluginModule {
  source: PluginSource
}

async function resolveSpecifier(specifier: string, fromDir: string): Promise<ResolvedTarget> {
  if (isPathSpecifier(specifier)) {
    const file = resolvePathPlugin(path.resolve(fromDir, specifier))
    return {url: pathToFileURL(file).href, source: 'path'}
  }
  const [name, exportName] = splitExport(specifier)
  const {resolve} = await import('import-meta-resolve')
  const parent = pathToFileURL(path.join(fromDir, 'noop.js')).href
  const candidates =
    name.startsWith('ghx-bench-plugin') || name.includes('/') ? [name] : [name, `ghx-bench-plugin-${name}`]
  for (const candidate of candidates) {
    try {
      return {url: resolve(candidate, parent), exportName, source: 'npm'}
    } catch {
      // try the next naming convention
    }
  }
  throw new Error(
    `not found: tried ${candidates.map((c) => `"${c}"`).join(' and ')} from ${fromDir} (node_modules resolution); install it with npm install --save-dev ${candidates.at(-1)}`,
  )
}

function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || path.isAbsolute(specifier) || specifier.startsWith('file:')
}

/** `pkg:export` and `@scope/pkg:export` name one export of a package. */
function splitExport(specifier: string): [string, string | undefined] {
  const index = specifier.indexOf(':', specifier.startsWith('@') ? specifier.indexOf('/') : 0)
  return index < 0 ? [specifier, undefined] : [specifier.slice(0, index), specifier.slice(index + 1)]
}

function resolvePathPlugin(target: string): string {
  const file = target.startsWith('file:') ? fileURLToPath(target) : target
  if (existsSync(file) && statSync(file).isDirectory()) {
    for (const index of ['index.js', 'index.mjs', 'index.ts']) {
      if (existsSync(path.join(file, index))) return path.join(file, index)
    }
    throw new Error(`not found: ${file} is a folder with no index.js, index.mjs or index.ts`)
  }
  if (!existsSync(file)) throw new Error(`not found: no file at ${file}`)
  return file
}

/** Duck-typed check of a plugin's shape; each problem is one sentence. */
export function checkShape(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) {
    return [
      `is not a plugin: its default export is ${value === null ? 'null' : typeof value}, expected an object from definePlugin({...})`,
    ]
  }
  const plugin = value as Record<string, unknown>
  const problems: string[] = []
  if (plugin.apiVersion !== PLUGIN_API_VERSION) {
    problems.push(
      plugin.apiVersion === undefined
        ? `is not a plugin: it has no apiVersion (expected ${PLUGIN_API_VERSION})`
        : `has apiVersion ${JSON.stringify(plugin.apiVersion)}, this ghx-bench supports apiVersion ${PLUGIN_API_VERSION}`,
    )
    return problems
  }
  if (typeof plugin.name !== 'string' || plugin.name === '')
    problems.push('is not a plugin: "name" must be a non-empty string')
  if (typeof plugin.version !== 'string') problems.push('is not a plugin: "version" must be a string')
  const kinds = {
    modes: ['available', 'open'],
    providers: ['run'],
    conditions: ['evaluate'],
    readTasks: ['run'],
  } as const
  for (const [kind, methods] of Object.entries(kinds)) {
    const list = plugin[kind]
    if (list === undefined) continue
    if (!Array.isArray(list)) {
      problems.push(`"${kind}" must be an array`)
      continue
    }
    list.forEach((item: Record<string, unknown>, index) => {
      const what = `${kind}[${index}]${typeof item?.name === 'string' ? ` "${item.name}"` : ''}`
      if (typeof item !== 'object' || item === null) return problems.push(`${what} must be an object`)
      if (kind === 'readTasks') {
        // Read tasks are named like the capabilities they read (issue.view): dotted words.
        if (typeof item.name !== 'string' || !/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/.test(item.name)) {
          problems.push(`${what} needs a name of lower-case dotted words (issue.view): letters, digits, _ and -`)
        }
      } else if (typeof item.name !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(item.name)) {
        problems.push(`${what} needs a name of lower-case letters, digits, _ and -`)
      }
      const schemaKey = kind === 'conditions' || kind === 'readTasks' ? 'paramsSchema' : 'optionsSchema'
      if (typeof item[schemaKey] !== 'object' || item[schemaKey] === null)
        problems.push(`${what} needs ${schemaKey} (a JSON Schema object)`)
      else {
        // A schema that does not compile is the plugin's fault, found when it loads, not when a scenario uses it.
        try {
          checkCompiles(item[schemaKey])
        } catch (error) {
          problems.push(`${what} has a ${schemaKey} that is not a valid JSON Schema: ${(error as Error).message}`)
        }
      }
      for (const method of methods) {
        if (typeof item[method] !== 'function') problems.push(`${what} needs a function "${method}"`)
      }
      const envelopeSchema = (item.envelope as {schema?: unknown} | undefined)?.schema
      if (kind === 'modes' && envelopeSchema !== undefined) {
        try {
          checkCompiles(envelopeSchema as object)
        } catch (error) {
          problems.push(`${what} has an envelope.schema that is not a valid JSON Schema: ${(error as Error).message}`)
        }
      }
      if (kind === 'modes' && item.accounting !== undefined) problems.push(...accountingProblems(what, item.accounting))
      return undefined
    })
  }
  return problems
}

/** What ghx-bench's own accounting names: a tool layer takes other names. */
const CORE_CATEGORIES = ['gh_cli', 'mcp_tool', 'shell', 'other']

/** A mode's accounting hook (Mode.accounting): its programs, its category and its function. */
function accountingProblems(what: string, value: unknown): string[] {
  if (typeof value !== 'object' || value === null)
    return [`${what} has an accounting that is not an object {programs, category, account}`]
  const accounting = value as Record<string, unknown>
  const problems: string[] = []
  const programs = accounting.programs
  if (
    !Array.isArray(programs) ||
    programs.length === 0 ||
    programs.some((p) => typeof p !== 'string' || !/^[A-Za-z0-9._+-]+$/.test(p))
  ) {
    problems.push(`${what} needs accounting.programs: a non-empty list of executable names (no paths, no spaces)`)
  } else if (programs.includes('gh')) {
    problems.push(`${what} lists gh in accounting.programs: ghx-bench counts gh itself`)
  }
  if (typeof accounting.category !== 'string' || !/^[a-z][a-z0-9_]*$/.test(accounting.category)) {
    problems.push(`${what} needs accounting.category: lower-case letters, digits and _ (ghx_capability)`)
  } else if (CORE_CATEGORIES.includes(accounting.category)) {
    problems.push(
      `${what} has accounting.category "${accounting.category}", which ghx-bench's own accounting uses: name the layer's (${CORE_CATEGORIES.join(', ')} are taken)`,
    )
  }
  if (typeof accounting.account !== 'function') problems.push(`${what} needs a function accounting.account`)
  if (accounting.readLog !== undefined && typeof accounting.readLog !== 'function')
    problems.push(`${what} has an accounting.readLog that is not a function`)
  return problems
}
