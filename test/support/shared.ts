/**
 * ../shared beside the project: the predecessors' published datasets and ghx's capability cards. CI
 * always has it; a bare clone does not, and the tests that read it leave themselves out there, each
 * saying so in one line (every other test passes without it).
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import Mocha from 'mocha'
import {PROJECT_ROOT} from './cli.js'

export const SHARED_DIR = path.resolve(PROJECT_ROOT, '..', 'shared')

/** A path under ../shared. */
export const sharedPath = (...parts: string[]): string => path.join(SHARED_DIR, ...parts)

/** Skips the test (or, called from a `before`, its suite) when `where` is missing, printing one line that says so. */
export function skipWithoutShared(context: Mocha.Context, where: string): void {
  if (existsSync(where)) return
  // From a hook the suite is left out, from a test the test alone.
  const runnable = context.test
  const title = (runnable instanceof Mocha.Hook ? runnable.parent?.fullTitle() : runnable?.fullTitle()) ?? ''
  console.log(`    skipped: ${title}: needs ${where} (../shared is not beside the project)`)
  context.skip()
}
