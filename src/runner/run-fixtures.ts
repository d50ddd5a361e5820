/**
 * An attempt's fixtures: reset to the seeded state (and read back against the seeded digests), or
 * fresh resources for what GitHub cannot undo (a merge, a submitted review). What a reset replaced (a
 * rerun cannot be undone: a fresh run is dispatched) goes into the suite's manifest for later runs.
 * A run whose GitHub starts as seeded (the sandbox: its own world) is not reset: nothing has touched them.
 */
import {randomBytes} from 'node:crypto'
import {fixtureContext, seedOptionsOn} from '../seeding/context.js'
import {assertFixturesAsSeeded, resetFixtures, seedForIteration} from '../seeding/index.js'
import type {Manifest} from '../seeding/manifest.js'
import type {RunGitHub} from '../github/target.js'
import type {Scenario} from '../schemas/scenario.js'
import type {PlannedRun} from './plan.js'
import type {SuiteContext} from './suite-context.js'

/** The manifest this attempt binds against; throws when the fixtures could not be made ready. */
export async function prepareRunFixtures(
  ctx: SuiteContext,
  run: PlannedRun,
  scenario: Scenario,
  attemptNo: number,
  github: RunGitHub,
): Promise<Manifest> {
  const kinds = scenario.fixture?.requires ?? []
  const fixtureCtx = fixtureContext(ctx.target, ctx.seedId, github)
  const options = seedOptionsOn(ctx.target)
  if (scenario.fixture?.seed_per_iteration) {
    // Fresh resources get names of their own, so no two runs (nor two invocations) share one; in a run's own
    // world no other run's are there, and the same names make the same answers (the same tokens) in every world.
    const unique = github.startsAsSeeded ? '' : `-${randomBytes(3).toString('hex')}`
    const suffix = `-i${run.iteration}a${attemptNo}${unique}`
    return seedForIteration(fixtureCtx, ctx.fixtures.manifest, kinds, {...options, suffix})
  }
  if (!scenario.fixture?.reseed_per_iteration || kinds.length === 0 || github.startsAsSeeded)
    return ctx.fixtures.manifest
  const manifest = await resetFixtures(fixtureCtx, ctx.fixtures.manifest, kinds, options)
  ctx.fixtures.update(manifest, kinds)
  // Each reset resource is read back and compared with its seeded digest: what the reset missed fails
  // this run as a fixture error naming it, instead of leaking into the next run or mode (where the
  // target verifies resets: GitHubTarget.fixtures).
  if (ctx.target.fixtures.verifyResets()) {
    await assertFixturesAsSeeded(fixtureCtx, manifest, kinds)
  }
  return manifest
}
