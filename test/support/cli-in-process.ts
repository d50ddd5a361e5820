// Runs the CLI in this process: the same oclif config as bin/dev.js (commands from src/), argv parsed and
// the command run by oclif's own `run`, an error that escapes it handled by oclif's own `handle` (what the
// bin does), its exit code read where `handle` would end the process. About 0.1 s a command against ~2 s
// for a child process (test/support/cli.ts), for every test whose subject is not a process.
//
// What a fresh process would have is set up for each command and put back after it, so nothing leaks
// between tests: argv, the working folder, the environment (NO_COLOR, the given variables), stdout and stderr
// captured and not terminals (progress comes as plain lines, as through a pipe), the secrets of the
// environment captured by the harness and gone from process.env (the CLI does that once per process, at
// its first command), and TMPDIR under the process's temporary root. Commands run one at a time.
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {Config, run, settings, type Interfaces} from '@oclif/core'
import {Exit, handle} from '@oclif/core/handle'
import {captureOutput} from '@oclif/test'
import {hideSecrets} from '../../src/shared/process/secret-env.js'
import {useProcessTempRoot} from '../../src/shared/process/temp-root.js'
import {PROJECT_ROOT, type CliResult} from './cli.js'
import {sourceHooks} from '../../bin/source-hooks.js'

let loaded: Promise<Config> | undefined

/** bin/dev.js's config: the package's, with its commands from the TypeScript source (tsx is loaded by mocha). */
function cliConfig(): Promise<Config> {
  loaded ??= (() => {
    const pjson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Interfaces.PJSON
    pjson.oclif.commands = {
      ...(pjson.oclif.commands as Exclude<Interfaces.OclifConfiguration['commands'], string | undefined>),
      target: './src/command-index.ts',
    }
    pjson.oclif.hooks = sourceHooks(pjson.oclif.hooks as Record<string, string>)
    // As in bin/dev.js: tsx (loaded by mocha) compiles; oclif's own mapping to sources is off.
    settings.enableAutoTranspile = false
    return Config.load({root: PROJECT_ROOT, pjson})
  })()
  return loaded
}

/** The secrets the harness keeps (src/shared/process/secret-env.ts), one keeping per process under a global symbol. */
interface SecretKeeping {
  captured: Map<string, string>
  registered: Set<string>
}

function secretKeeping(): SecretKeeping | undefined {
  return (globalThis as {[key: symbol]: SecretKeeping | undefined})[Symbol.for('ghx-bench.secret-env')]
}

/** Sets up what a fresh `ghx-bench` process would have; returns how to put this process back as it was. */
function enter(args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv}): () => void {
  const argv = process.argv
  const cwd = process.cwd()
  const env = {...process.env}
  const keeping = secretKeeping()
  const kept = keeping && {captured: new Map(keeping.captured), registered: new Set(keeping.registered)}
  const tty = {stdout: process.stdout.isTTY, stderr: process.stderr.isTTY}

  // oclif reads argv again for the help it shows after a usage error.
  process.argv = [process.execPath, path.join(PROJECT_ROOT, 'bin', 'dev.js'), ...args]
  process.chdir(options.cwd ?? PROJECT_ROOT)
  for (const [name, value] of Object.entries({NO_COLOR: '1', ...options.env})) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  process.env.TMPDIR = useProcessTempRoot()
  hideSecrets()
  process.stdout.isTTY = false
  process.stderr.isTTY = false

  return () => {
    process.argv = argv
    process.chdir(cwd)
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name]
    Object.assign(process.env, env)
    const now = secretKeeping()
    if (now) {
      now.captured.clear()
      now.registered.clear()
      for (const [name, value] of kept?.captured ?? []) now.captured.set(name, value)
      for (const value of kept?.registered ?? []) now.registered.add(value)
    }
    process.stdout.isTTY = tty.stdout
    process.stderr.isTTY = tty.stderr
  }
}

/** The exit code oclif's `handle` gives the process for an error, having printed what it prints. */
async function exitCodeOf(error: unknown): Promise<number> {
  const exit = Exit.exit.bind(Exit)
  let code = 1
  // oclif's own stub point for tests; ending the process is `handle`'s last act, so returning instead is safe.
  Exit.exit = ((given = 0) => {
    code = given
  }) as typeof Exit.exit
  try {
    await handle(error as Error)
  } finally {
    Exit.exit = exit
  }
  return code
}

let queue: Promise<unknown> = Promise.resolve()

/** `ghx-bench <args>` in this process, with `cwd` (default: the project root) and extra `env`. */
export function runCliInProcess(
  args: string[],
  options: {cwd?: string; env?: NodeJS.ProcessEnv} = {},
): Promise<CliResult> {
  const result = queue.then(async (): Promise<CliResult> => {
    const config = await cliConfig()
    const leave = enter(args, options)
    let code = 0
    try {
      const output = await captureOutput(async () => {
        try {
          await run(args, config)
        } catch (error) {
          code = await exitCodeOf(error)
        }
      })
      return {code, stdout: output.stdout, stderr: output.stderr}
    } finally {
      leave()
    }
  })
  queue = result.catch(() => undefined)
  return result
}
