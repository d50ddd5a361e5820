/** `ghx-bench plugins`: the plugins the project loads (the built-ins and its own) and what each registers. */
import {listPlugins} from '../plugins/list-plugins.js'
import type {LoadedPlugin} from '../plugins/registry.js'
import {openConfig, type ProjectOptions} from './project.js'

export type {LoadedPlugin} from '../plugins/registry.js'

export async function projectPlugins(options: ProjectOptions): Promise<LoadedPlugin[]> {
  return listPlugins(await openConfig(options), options.cwd)
}
