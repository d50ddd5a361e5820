/**
 * Loads plugins into a registry: the built-ins in plugins/ first, then those named in the config's
 * `plugins:` list, resolved from the config file's folder (npm names, `package:export`, or paths).
 * Every problem of every plugin is collected before anything is reported, so one broken plugin
 * never hides another's diagnostics. A plugin's loading (its import, top-level awaits included, and
 * its factory) has a time limit, and a plugin may not end ghx-bench while it loads (process.exit):
 * both are reported as the plugin's problem (exit 2), never a hang, a silent exit 13 or a false 0.
 */
import {existsSync, statSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {PACKAGE_ROOT, packageModulePath} from '../shared/package-paths.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {compileSchema} from '../shared/schema-validator.js'
import {PLUGIN_API_VERSION, type Plugin} from './api.js'
import {PluginRegistry, type PluginSource} from './registry.js'

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

/** How long a plugin may take to load, or a mode to answer its preflight, before it is reported as hung. */
const DEFAULT_PLUGIN_TIME_LIMIT_MS = 60_000
/** Sets the limit in milliseconds (a slow machine; tests). */
const PLUGIN_TIME_LIMIT_VARIABLE = 'GHX_BENCH_PLUGIN_TIME_LIMIT_MS'

export function pluginTimeLimitMs(): number {
  const value = Number(process.env[PLUGIN_TIME_LIMIT_VARIABLE])
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_PLUGIN_TIME_LIMIT_MS
}

/** The limit as the messages say it ("60 s", "0.5 s"), with the variable that sets it. */
export function describeTimeLimit(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s (${PLUGIN_TIME_LIMIT_VARIABLE} sets it)`
}

/**
 * `work`, or a rejection with `message` once `ms` have passed. The timer keeps the process alive: a
 * plugin's top-level await that never settles would otherwise end it (exit 13) with no word.
 */
export function withinTimeLimit<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}

/** Plugins loading now: module URL -> specifier. */
const loading = new Map<string, string>()
type ExitCode = number | string | null | undefined
/** Plugins that called process.exit while loading: specifier -> the code they asked for. */
const exitRequests = new Map<string, ExitCode>()
let realExit: ((code?: ExitCode) => never) | undefined
/** ghx-bench's own code (a second Ctrl-C ends the process through process.exit, also while plugins load). */
const OWN_CODE = ['src', path.join('dist', 'src'), 'bin', path.join('node_modules', '@oclif')].map(
  (dir) => path.join(PACKAGE_ROOT, dir) + path.sep,
)

/**
 * While a plugin loads, process.exit does not end ghx-bench: the call is recorded for the plugin
 * whose code made it (found in the stack; every plugin loading, when no frame names one and none
 * is ghx-bench's own) and throws, which ends the plugin's module. Returns the release.
 */
function refuseExitWhileLoading(url: string, specifier: string): () => void {
  loading.set(url, specifier)
  if (!realExit) {
    const original = (realExit = process.exit.bind(process))
    process.exit = function exitUnlessAPluginLoads(code?: ExitCode): never {
      // The callers' frames (this function's own is in ghx-bench's code).
      const stack = (new Error('process.exit').stack ?? '').split('\n').slice(2).join('\n')
      const named = [...loading].filter(([module]) => stack.includes(module) || stack.includes(fileURLToPath(module)))
      const culprits = named.length > 0 ? named : OWN_CODE.some((dir) => stack.includes(dir)) ? [] : [...loading]
      if (culprits.length === 0) return original(code)
      for (const [, culprit] of culprits) exitRequests.set(culprit, code)
      throw new Error(`called process.exit(${code ?? ''}) while loading`)
    }
  }
  return () => {
    loading.delete(url)
    if (loading.size === 0 && realExit) {
      process.exit = realExit
      realExit = undefined
    }
  }
}

/** The problem of a plugin that called process.exit while it loaded (once), or undefined. */
function exitProblem(specifier: string): string | undefined {
  if (!exitRequests.has(specifier)) return undefined
  const code = exitRequests.get(specifier)
  exitRequests.delete(specifier)
  return `called process.exit(${code ?? ''}) while loading: a plugin may not end ghx-bench (throw an Error to report a problem)`
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
  const requests: Array<PluginRequest & {source?: PluginSource; file?: string}> = [
    ...BUILT_IN_PLUGINS.map((name) => ({specifier: name, source: 'built-in' as const, file: builtInPluginPath(name)})),
    ...options.plugins,
  ]
  const limitMs = options.timeLimitMs ?? pluginTimeLimitMs()
  // Import in parallel; register in list order so that which plugin wins a name is deterministic.
  const outcomes = await Promise.all(
    requests.map(async (request) => {
      try {
        const target = request.file
          ? {url: pathToFileURL(request.file).href, exportName: undefined, source: request.source!}
          : await resolveSpecifier(request.specifier, options.fromDir)
        const release = refuseExitWhileLoading(target.url, request.specifier)
        let plugin: unknown
        try {
          plugin = await withinTimeLimit(
            importPlugin(target.url, target.exportName, request.options),
            limitMs,
            `did not finish loading within ${describeTimeLimit(limitMs)}: its module (a top-level await) or its factory never settled`,
          )
        } finally {
          release()
        }
        // Also when the plugin caught what process.exit threw and went on.
        const exited = exitProblem(request.specifier)
        if (exited) throw new Error(exited)
        return {ok: true as const, request, target, plugin}
      } catch (error) {
        return {
          ok: false as const,
          request,
          error: new Error(exitProblem(request.specifier) ?? (error as Error).message),
        }
      }
    }),
  )
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      report(outcome.request.specifier, outcome.error.message)
      continue
    }
    const {request, target, plugin} = outcome
    const shapeProblems = checkShape(plugin)
    if (shapeProblems.length > 0) {
      for (const problem of shapeProblems) report(request.specifier, problem)
      continue
    }
    const valid = plugin as Plugin
    for (const conflict of registry.register(valid, target.source, request.specifier, fileURLToPath(target.url))) {
      report(request.specifier, conflict)
    }
  }
  return {registry, diagnostics: problems}
}

interface ResolvedTarget {
  url: string
  exportName?: string
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

async function importPlugin(
  url: string,
  exportName: string | undefined,
  options?: Record<string, unknown>,
): Promise<unknown> {
  let module: Record<string, unknown>
  try {
    module = (await import(url)) as Record<string, unknown>
  } catch (error) {
    throw new Error(`threw while loading: ${(error as Error).message}`, {cause: error})
  }
  let exported: unknown
  if (exportName) {
    if (!(exportName in module))
      throw new Error(`has no export "${exportName}" (exports: ${Object.keys(module).join(', ')})`)
    exported = module[exportName]
  } else {
    // CommonJS interop can wrap the default export twice.
    const first = module.default as Record<string, unknown> | undefined
    exported = first && typeof first === 'object' && 'default' in first ? first.default : (first ?? module)
  }
  // A factory export takes the options given in the config.
  if (typeof exported === 'function') {
    try {
      exported = await (exported as (o: Record<string, unknown>) => unknown)(options ?? {})
    } catch (error) {
      throw new Error(`factory threw: ${(error as Error).message}`, {cause: error})
    }
  }
  return exported
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
          compileSchema(item[schemaKey])
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
          compileSchema(envelopeSchema as object)
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
