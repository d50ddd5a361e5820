/** `ghx-bench plugins`: what the config's plugin list and the built-ins register. */
import type {LoadedConfig} from '../config/load-config.js'
import {displayPath} from '../shared/source-document.js'
import {loadPlugins} from './loader.js'
import type {LoadedPlugin} from './registry.js'
import {pluginRequests} from './requests.js'

export async function listPlugins(config: LoadedConfig, cwd = process.cwd()): Promise<LoadedPlugin[]> {
  const registry = await loadPlugins({
    fromDir: config.dir,
    plugins: pluginRequests(config.values.plugins),
    origin: config.file ? displayPath(config.file, cwd) : '(config)',
  })
  return registry.plugins().map((plugin) => ({...plugin, resolved: displayPath(plugin.resolved, cwd)}))
}
