/**
 * An opened project: its configuration, the plugins it loads (built-ins and its own) and its
 * catalogue (built-in profiles included), read once and then shared by everything a command does.
 * src/app/project.ts opens it.
 */
import type {LoadedConfig} from '../config/load-config.js'
import type {PluginRegistry} from '../plugins/registry.js'
import type {Catalogue} from './catalogue.js'

export interface Project {
  /** The working folder: a path given on the command line is relative to it, and findings name files from it. */
  cwd: string
  config: LoadedConfig
  registry: PluginRegistry
  catalogue: Catalogue
}
