/**
 * oclif's `command_not_found` hook: a mistyped command is bad input (exit 2), said in one line with the
 * command it was probably meant to be. oclif joins the words after the command into its id
 * (`rn suites/x.yml` arrives as `rn:suites/x.yml`): the typed command is the id's first word, or its first two
 * for a topic's command (`fixtures sed`).
 */
import type {Hook} from '@oclif/core'
import {didYouMean} from '../shared/diagnostics.js'

// oclif awaits a hook's promise; this one decides at once.
const hook: Hook<'command_not_found'> = function ({id, config}) {
  const words = id.split(':')
  const commands = config.commandIDs.map((commandId) => commandId.replaceAll(':', ' '))
  const typed =
    commands.some((command) => command.startsWith(`${words[0]} `)) && words.length > 1
      ? `${words[0]} ${words[1]}`
      : words[0]!
  const meant = didYouMean(typed, commands)
  process.stderr.write(
    `ghx-bench ${typed} error: unknown command${meant ? ` (did you mean "ghx-bench ${meant}"?)` : ''}; ghx-bench --help lists the commands\n`,
  )
  this.exit(2)
  return Promise.resolve()
}

export default hook
