/**
 * Every command, for oclif's explicit discovery (no directory scan at start-up). Command modules
 * import their services lazily inside run(), so `--help` loads no more than the command classes.
 */
import FixturesCleanup from './commands/fixtures/cleanup.js'
import FixturesReset from './commands/fixtures/reset.js'
import FixturesSeed from './commands/fixtures/seed.js'
import FixturesStatus from './commands/fixtures/status.js'
import Flakes from './commands/flakes.js'
import Gate from './commands/gate.js'
import Init from './commands/init.js'
import Merge from './commands/merge.js'
import Plan from './commands/plan.js'
import Plugins from './commands/plugins.js'
import Regrade from './commands/regrade.js'
import Report from './commands/report.js'
import Run from './commands/run.js'
import SandboxServe from './commands/sandbox/serve.js'
import Simulate from './commands/simulate.js'
import Validate from './commands/validate.js'

export const commands = {
  'fixtures:cleanup': FixturesCleanup,
  'fixtures:reset': FixturesReset,
  'fixtures:seed': FixturesSeed,
  'fixtures:status': FixturesStatus,
  flakes: Flakes,
  gate: Gate,
  init: Init,
  merge: Merge,
  plan: Plan,
  plugins: Plugins,
  regrade: Regrade,
  report: Report,
  run: Run,
  'sandbox:serve': SandboxServe,
  simulate: Simulate,
  validate: Validate,
}
