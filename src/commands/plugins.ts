import {BaseCommand} from '../cli/base-command.js'
import type {LoadedPlugin} from '../app/plugins.js'

export default class PluginsCommand extends BaseCommand<typeof PluginsCommand> {
  static override summary = 'List the loaded plugins and what each registers'
  static override description =
    'Loads the built-in plugins and those named under plugins: in the config (resolved from its folder) and lists each with its version, source (built-in, npm, path) and the modes, providers, conditions and checkpoint read tasks it registers. A plugin that cannot load is reported with its name and the reason (exit 2).'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  async run(): Promise<{plugins: LoadedPlugin[]}> {
    const {projectPlugins} = await import('../app/plugins.js')
    const plugins = await projectPlugins(this.project())
    if (!this.jsonEnabled()) {
      for (const plugin of plugins) {
        this.log(
          `${plugin.name}@${plugin.version} (${plugin.source}: ${plugin.source === 'built-in' ? plugin.specifier : plugin.resolved})`,
        )
        for (const [kind, label] of [
          ['modes', 'modes'],
          ['providers', 'providers'],
          ['conditions', 'conditions'],
          ['readTasks', 'read tasks'],
        ] as const) {
          if (plugin[kind].length > 0) this.log(`  ${label}: ${plugin[kind].join(', ')}`)
        }
      }
    }
    return {plugins}
  }
}
