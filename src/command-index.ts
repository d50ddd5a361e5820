/**
 * Every command, for oclif's explicit discovery (no directory scan at start-up). Command modules
 * import their services lazily inside run(), so `--help` loads no more than the command classes.
 */
import Init from './commands/init.js'
import Validate from './commands/validate.js'

export const commands = {
  init: Init,
  validate: Validate,
}
