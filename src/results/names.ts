/**
 * Names that become parts of paths: a run id names results_dir/<id>.jsonl, results_dir/<id>/ and
 * reports_dir/<id>/, so it must be one plain path segment. Letters, digits and . _ - : + @ =,
 * starting with a letter or digit, at most 128 characters: no /, no \, no .., no control character.
 */
import path from 'node:path'
import {BadInputError} from '../shared/diagnostics.js'

export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:+@=-]{0,127}$/

/** Why a name cannot be a path segment, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name === '') return 'is empty'
  if (name.length > 128) return 'is longer than 128 characters'
  if (!SAFE_NAME.test(name)) return 'may hold only letters, digits and . _ - : + @ =, and must start with a letter or digit (it names files and folders)'
  return undefined
}

/** Throws bad input (exit 2) naming where the run id came from (a flag, a file) when it is not a safe name. */
export function checkRunId(runId: string, where: string, what = 'run id'): string {
  const problem = nameProblem(runId)
  if (problem) throw new BadInputError([{file: where, code: 'config', message: `${what} ${JSON.stringify(runId)} ${problem}`}])
  return runId
}

/** `child` resolved under `root`, refusing anything that would land outside it. */
export function inside(root: string, child: string, where: string): string {
  const resolved = path.resolve(root, child)
  const relative = path.relative(path.resolve(root), resolved)
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new BadInputError([{file: where, code: 'config', message: `${JSON.stringify(child)} would write outside ${root}`}])
  }
  return resolved
}
