/**
 * What every command shares: the --config flag, --json, and the edge where findings become
 * output. Bad input prints one clear message per finding and exits 2; nothing prints a stack
 * (set DEBUG=ghx-bench to see one).
 */
import {Command, Flags, type Interfaces} from '@oclif/core'
import type {LoadedConfig} from '../config/load-config.js'
import type {ConfigFile} from '../config/schema.js'
import {BadInputError, formatDiagnostics} from '../spec/diagnostics.js'

export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

export const EXIT_BAD_INPUT = 2

export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true
  static override baseFlags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: .ghxbenchrc.yml found from the working folder up to the project root)',
      helpGroup: 'GLOBAL',
    }),
  }

  protected flags!: CommandFlags<T>
  protected args!: CommandArgs<T>
  /** Every positional argument, for commands that take a list (strict = false). */
  protected positionals: string[] = []

  public override async init(): Promise<void> {
    await super.init()
    const {args, flags, argv} = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as CommandFlags<T>
    this.args = args as CommandArgs<T>
    this.positionals = argv as string[]
  }

  /** The effective configuration for this invocation (--config, environment, file, defaults). */
  protected async loadBenchConfig(overrides?: ConfigFile): Promise<LoadedConfig> {
    const {loadConfig} = await import('../config/load-config.js')
    return loadConfig({configPath: this.flags.config, overrides})
  }

  protected override async catch(error: Error & {code?: string; oclif?: {exit?: number}}): Promise<unknown> {
    // this.exit(n) throws; let it through untouched (oclif's own catch would print it under --json and exit 1).
    if (error.code === 'EEXIT') throw error
    if (error instanceof BadInputError) {
      if (this.jsonEnabled()) this.logJson({ok: false, diagnostics: error.diagnostics})
      else this.logToStderr(formatDiagnostics(error.diagnostics))
      this.exit(EXIT_BAD_INPUT)
    }
    if (error.oclif?.exit !== undefined || process.env.DEBUG?.includes('ghx-bench')) return super.catch(error)
    this.logToStderr(`error: ${error.message}`)
    this.exit(1)
  }
}
