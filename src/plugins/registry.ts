/**
 * One registry for modes, providers, conditions and checkpoint read tasks. Built-ins and third-party
 * plugins register through the same call; the registry is frozen before any run so the set cannot
 * change mid-suite.
 */
import type {Condition, ConditionResult, ConditionSpec, Mode, Plugin, Provider, ReadTask} from './api.js'

export type PluginSource = 'built-in' | 'npm' | 'path'

export interface LoadedPlugin {
  name: string
  version: string
  source: PluginSource
  /** The specifier it was loaded by and the file it resolved to. */
  specifier: string
  resolved: string
  modes: string[]
  providers: string[]
  conditions: string[]
  readTasks: string[]
}

interface Entry<T> {
  item: T
  plugin: string
}

export class PluginRegistry {
  private readonly loaded: LoadedPlugin[] = []
  private readonly modeEntries = new Map<string, Entry<Mode>>()
  private readonly providerEntries = new Map<string, Entry<Provider>>()
  private readonly conditionEntries = new Map<string, Entry<Condition>>()
  private readonly readTaskEntries = new Map<string, Entry<ReadTask>>()
  private frozen = false

  /** Registers a plugin; returns one message per name another plugin already holds (nothing of it is then added). */
  register(plugin: Plugin, source: PluginSource, specifier: string, resolved: string): string[] {
    if (this.frozen) throw new Error('the plugin registry is frozen: plugins register before the first run')
    if (this.loaded.some((p) => p.name === plugin.name)) return [`plugin name "${plugin.name}" is already loaded`]
    const conflicts = [
      ...clashes('mode', plugin.modes ?? [], this.modeEntries),
      ...clashes('provider', plugin.providers ?? [], this.providerEntries),
      ...clashes('condition', plugin.conditions ?? [], this.conditionEntries),
      ...clashes('read task', plugin.readTasks ?? [], this.readTaskEntries),
    ]
    if (conflicts.length > 0) return conflicts
    for (const mode of plugin.modes ?? []) this.modeEntries.set(mode.name, {item: mode, plugin: plugin.name})
    for (const provider of plugin.providers ?? [])
      this.providerEntries.set(provider.name, {item: provider, plugin: plugin.name})
    for (const condition of plugin.conditions ?? [])
      this.conditionEntries.set(condition.name, {item: condition, plugin: plugin.name})
    for (const task of plugin.readTasks ?? []) this.readTaskEntries.set(task.name, {item: task, plugin: plugin.name})
    this.loaded.push({
      name: plugin.name,
      version: plugin.version,
      source,
      specifier,
      resolved,
      modes: (plugin.modes ?? []).map((m) => m.name),
      providers: (plugin.providers ?? []).map((p) => p.name),
      conditions: (plugin.conditions ?? []).map((c) => c.name),
      readTasks: (plugin.readTasks ?? []).map((t) => t.name),
    })
    return []
  }

  freeze(): this {
    this.frozen = true
    return this
  }

  get isFrozen(): boolean {
    return this.frozen
  }

  plugins(): readonly LoadedPlugin[] {
    return this.loaded
  }

  mode(name: string): Mode | undefined {
    return this.modeEntries.get(name)?.item
  }

  provider(name: string): Provider | undefined {
    return this.providerEntries.get(name)?.item
  }

  condition(name: string): Condition | undefined {
    return this.conditionEntries.get(name)?.item
  }

  /** The checkpoint read task scenarios name `name` (`issue.view`). */
  readTask(name: string): ReadTask | undefined {
    return this.readTaskEntries.get(name)?.item
  }

  modeNames(): string[] {
    return [...this.modeEntries.keys()].sort()
  }

  providerNames(): string[] {
    return [...this.providerEntries.keys()].sort()
  }

  conditionNames(): string[] {
    return [...this.conditionEntries.keys()].sort()
  }

  readTaskNames(): string[] {
    return [...this.readTaskEntries.keys()].sort()
  }

  /** Which plugin registered a mode, provider, condition or read task (for row metadata and messages). */
  ownerOf(kind: 'mode' | 'provider' | 'condition' | 'read task', name: string): LoadedPlugin | undefined {
    const maps = {
      mode: this.modeEntries,
      provider: this.providerEntries,
      condition: this.conditionEntries,
      'read task': this.readTaskEntries,
    }
    const owner = (maps[kind] as Map<string, Entry<unknown>>).get(name)?.plugin
    return this.loaded.find((p) => p.name === owner)
  }

  /** Evaluates a condition spec; specs were validated against paramsSchema when the scenario loaded. */
  evaluate(spec: ConditionSpec, actual: unknown): ConditionResult {
    const condition = this.condition(spec.type)
    if (!condition) {
      return {passed: false, expected: spec, actual, message: `unknown condition "${spec.type}"`}
    }
    const {type: _type, ...params} = spec
    return condition.evaluate(actual, params, {evaluate: (nested, value) => this.evaluate(nested, value)})
  }
}

function clashes<T extends {name: string}>(kind: string, items: T[], existing: Map<string, Entry<unknown>>): string[] {
  return items
    .filter((item) => existing.has(item.name))
    .map((item) => `${kind} "${item.name}" is already registered by plugin "${existing.get(item.name)!.plugin}"`)
}
