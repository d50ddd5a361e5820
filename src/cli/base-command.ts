/**
 * What every command shares: the --config flag, --json, and the edge where findings become
 * output. Bad input prints one clear message per finding and exits 2, as does a failure of the
 * environment (a full disk, a port in use: environment-errors.ts); anything else that goes wrong
 * is an internal error, exit 4 (never 1, which is a gate's fail); nothing prints a stack (set
 * DEBUG=ghx-bench to see one), and no message shows a secret the process knows. Under --json every
 * outcome, errors included, is JSON on stdout: one document, or for a command that streams JSON lines
 * (`jsonLines`), one more line. Before a command runs, secrets leave the process's environment and
 * temporary folders go under a root removed at exit (src/shared/process/guard.ts).
 */
import {Command, Flags, type Interfaces} from '@oclif/core'
import type {ProjectOptions} from '../app/project.js'
import type {ConfigFile} from '../config/schema.js'
import {guardProcess} from '../shared/process/guard.js'
import {createRedactor} from '../shared/redact.js'
import {BadInputError, formatDiagnostics, suggestionSuffix, type Diagnostic} from '../shared/diagnostics.js'
import {environmentProblem} from './environment-errors.js'

export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BaseCommand)['baseFlags'] & T['flags']
>
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/** oclif's parse errors (an unknown flag, a missing argument, a value not among the options): they carry the parse. */
type ParseError = Error & {parse: unknown; flags?: string[]}
const isParseError = (error: Error): error is ParseError =>
  'parse' in error && (error as {parse?: unknown}).parse !== undefined

/** oclif's message on one line, without its notes and its pointer to --help (ours follows). */
const parseMessage = (message: string): string => {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const notes = lines.findIndex((line) => /^(Note:|See more help|Alternatively)/.test(line))
  // An argument's line is "name  description": said as "name (description)".
  return lines
    .slice(0, notes > 0 ? notes : lines.length)
    .map((line, index) => (index > 0 ? line.replace(/^(\S+)\s{2,}(.+)$/, '$1 ($2)') : line))
    .join(' ')
}

/** oclif's error for a flag value its parser refused: `Parsing --seed \n\tExpected an integer …`. */
const REFUSED_FLAG_VALUE = /^Parsing (--[\w-]+) \n\t([^\n]*)/

export const EXIT_BAD_INPUT = 2
/** Inconclusive: no verdict can be given on what ran (a run stopped before its plan was done). */
export const EXIT_INCONCLUSIVE = 3
/** An internal error: a bug in ghx-bench or a plugin, or a failure it did not foresee (not a verdict, not bad input). */
const EXIT_INTERNAL = 4

export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true
  /** Its --json output is JSON lines (one compact object a line), so is its result or error. */
  static jsonLines = false
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
    guardProcess()
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

  /**
   * How the use case opens the project: --config, and the flags that set configuration keys as the
   * configuration's top layer (--model -> model, --repo -> fixtures.repo, ...).
   */
  protected project(overrides?: ConfigFile): ProjectOptions {
    return {configPath: this.flags.config, overrides}
  }

  /** A flag's value is bad input: exit 2, naming the flag. */
  protected badFlag(flag: string, message: string): never {
    throw new BadInputError([{file: flag, code: 'config', message}])
  }

  /** `ghx-bench <command>`, as typed. */
  private commandLine(): string {
    return `ghx-bench ${this.id?.replaceAll(':', ' ') ?? ''}`.trim()
  }

  /** Said after a flag or a flag's value is refused. */
  private helpHint(): string {
    return `${this.commandLine()} --help lists its flags`
  }

  /** oclif's parse error as bad input: an unknown flag named with the nearest of this command's flags. */
  private parseProblem(error: ParseError): BadInputError {
    const command = this.commandLine()
    const help = this.helpHint()
    if (error.flags?.length) {
      const known = Object.keys({
        ...this.ctor.flags,
        ...(this.ctor as typeof BaseCommand).baseFlags,
        ...(this.ctor.enableJsonFlag ? {json: true} : {}),
      }).map((name) => `--${name}`)
      return new BadInputError(
        error.flags.map((flag) => ({
          file: flag,
          code: 'config' as const,
          message: `unknown flag${suggestionSuffix(flag.split('=')[0]!, known)}; ${help}`,
        })),
      )
    }
    return new BadInputError([{file: command, code: 'config', message: `${parseMessage(error.message)}; ${help}`}])
  }

  /** Findings, one per line at file:line:col, on stderr. */
  protected printDiagnostics(diagnostics: Diagnostic[]): void {
    this.logToStderr(formatDiagnostics(diagnostics))
  }

  private get streamsJsonLines(): boolean {
    return (this.ctor as typeof BaseCommand).jsonLines
  }

  /** JSON on stdout: pretty for a one-document command, one compact line for a JSON-lines one. */
  protected override logJson(json: unknown): void {
    if (this.streamsJsonLines) process.stdout.write(JSON.stringify(json) + '\n')
    else super.logJson(json)
  }

  /** An error under --json: `{ok: false, error: {name, message, exit}}` (led by `type: "error"` in a JSON-lines stream). */
  protected override toErrorJson(error: unknown): unknown {
    const e = (error instanceof Error ? error : new Error(String(error))) as Error & {
      code?: unknown
      oclif?: {exit?: number}
    }
    const exit = e.oclif?.exit ?? EXIT_INTERNAL
    return {
      ...(this.streamsJsonLines ? {type: 'error'} : {}),
      ok: false,
      error: {name: e.name, message: e.message, ...(typeof e.code === 'string' ? {code: e.code} : {}), exit},
    }
  }

  protected override async catch(error: Error & {code?: string; oclif?: {exit?: number}}): Promise<unknown> {
    // this.exit(n) throws; let it through untouched (oclif's own catch would print it under --json and exit 1).
    if (error.code === 'EEXIT') throw error
    // A full disk, a read-only folder, a port in use: the environment's to fix, said as bad input.
    const environment = error instanceof BadInputError ? undefined : environmentProblem(error)
    if (environment) return this.catch(environment)
    // A mistyped flag or argument: one line naming it (with the flag it was probably meant to be), not a usage dump.
    if (isParseError(error)) return this.catch(this.parseProblem(error))
    // A flag's value its parser refused (-r 1e12, --seed -1): one line naming the flag.
    const refused = error instanceof BadInputError ? null : REFUSED_FLAG_VALUE.exec(error.message)
    if (refused)
      return this.catch(
        new BadInputError([{file: refused[1]!, code: 'config', message: `${refused[2]!.trim()}; ${this.helpHint()}`}]),
      )
    if (error instanceof BadInputError) {
      if (this.jsonEnabled())
        this.logJson({...(this.streamsJsonLines ? {type: 'error'} : {}), ok: false, diagnostics: error.diagnostics})
      else this.logToStderr(formatDiagnostics(error.diagnostics))
      this.exit(EXIT_BAD_INPUT)
    }
    // No secret the process knows reaches a message (an error body may echo a token).
    const redact = createRedactor()
    try {
      error.message = redact(error.message)
      if (error.stack) error.stack = redact(error.stack)
    } catch {
      // a frozen error keeps its message
    }
    // Under --json every error is a JSON document (or line) on stdout, with the exit code it has without --json.
    if (this.jsonEnabled()) {
      this.logJson(this.toErrorJson(error))
      this.exit(error.oclif?.exit ?? EXIT_INTERNAL)
    }
    if (error.oclif?.exit !== undefined) return super.catch(error)
    this.logToStderr(
      process.env.DEBUG?.includes('ghx-bench')
        ? `internal error: ${error.stack ?? error.message}`
        : `internal error: ${error.message} (a bug in ghx-bench or a plugin; DEBUG=ghx-bench shows the stack)`,
    )
    this.exit(EXIT_INTERNAL)
  }
}
