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

  /**
   * Registers a plugin; returns one message per name another plugin already holds (nothing of it is
   * then added). Each item's name is read once, before anything is added: all of a plugin or none.
   */
  register(plugin: Plugin, source: PluginSource, specifier: string, resolved: string): string[] {
    if (this.frozen) throw new Error('the plugin registry is frozen: plugins register before the first run')
    if (this.loaded.some((p) => p.name === plugin.name)) return [`plugin name "${plugin.name}" is already loaded`]
    const modes = named(plugin.modes)
    const providers = named(plugin.providers)
    const conditions = named(plugin.conditions)
    const readTasks = named(plugin.readTasks)
    const conflicts = [
      ...clashes('mode', modes, this.modeEntries),
      ...clashes('provider', providers, this.providerEntries),
      ...clashes('condition', conditions, this.conditionEntries),
      ...clashes('read task', readTasks, this.readTaskEntries),
    ]
    if (conflicts.length > 0) return conflicts
    const add = <T>(entries: Map<string, Entry<T>>, items: Array<[string, T]>) => {
      for (const [name, item] of items) entries.set(name, {item, plugin: plugin.name})
    }
    add(this.modeEntries, modes)
    add(this.providerEntries, providers)
    add(this.conditionEntries, conditions)
    add(this.readTaskEntries, readTasks)
    this.loaded.push({
      name: plugin.name,
      version: plugin.version,
      source,
      specifier,
      resolved,
      modes: modes.map(([name]) => name),
      providers: providers.map(([name]) => name),
      conditions: conditions.map(([name]) => name),
      readTasks: readTasks.map(([name]) => name),
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

/** A plugin's items of one kind with their names, each read once. */
function named<T extends {name: string}>(items: readonly T[] | undefined): Array<[string, T]> {
  return (items ?? []).map((item) => [item.name, item])
}

function clashes(kind: string, items: Array<[string, unknown]>, existing: Map<string, Entry<unknown>>): string[] {
  return items
    .filter(([name]) => existing.has(name))
    .map(([name]) => `${kind} "${name}" is already registered by plugin "${existing.get(name)!.plugin}"`)
}
