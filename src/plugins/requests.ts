import type {PluginRef} from '../schemas/suite.js'
import type {PluginRequest} from './loader.js'

/** Config `plugins:` entries (a name, or a name with options) as loader requests. */
export function pluginRequests(refs: readonly PluginRef[]): PluginRequest[] {
  return refs.map((ref) => (typeof ref === 'string' ? {specifier: ref} : {specifier: ref.name, options: ref.options}))
}
