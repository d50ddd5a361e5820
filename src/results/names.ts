/**
 * Names that become parts of paths: a run id names results_dir/<id>.jsonl, results_dir/<id>/ and
 * reports_dir/<id>/, so it must be one plain path segment. Letters, digits and . _ - : + @ =,
 * starting with a letter or digit, at most 128 characters: no /, no \, no .., no control character.
 * A new run's id may not end in .regraded, the name of a run's re-graded rows (checkNewRunId).
 */
import {BadInputError} from '../shared/diagnostics.js'

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:+@=-]{0,127}$/

/** Why a name cannot be a path segment, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name === '') return 'is empty'
  if (name.length > 128) return 'is longer than 128 characters'
  if (!SAFE_NAME.test(name))
    return 'may hold only letters, digits and . _ - : + @ =, and must start with a letter or digit (it names files and folders)'
  return undefined
}

/** Throws bad input (exit 2) naming where the run id came from (a flag, a file) when it is not a safe name. */
export function checkRunId(runId: string, where: string, what = 'run id'): string {
  const problem = nameProblem(runId)
  if (problem)
    throw new BadInputError([{file: where, code: 'config', message: `${what} ${JSON.stringify(runId)} ${problem}`}])
  return runId
}

/**
 * A new run's id (`run --run-id`): a safe name that is not another run's re-graded rows. `regrade` writes
 * run X's re-graded rows to results_dir/X.regraded.jsonl, which `report` and `gate` read in place of X's
 * rows: a run named X.regraded would be destroyed by `regrade` of X and merged into X by the report. Case
 * is ignored, as a case-insensitive file system ignores it.
 */
export function checkNewRunId(runId: string, where: string): string {
  checkRunId(runId, where)
  if (/\.regraded$/i.test(runId)) {
    const run = runId.slice(0, -'.regraded'.length)
    throw new BadInputError([
      {
        file: where,
        code: 'config',
        message: `run id ${JSON.stringify(runId)} ends in ".regraded", which names the re-graded rows of run ${JSON.stringify(run)} (regrade writes them to ${run}.regraded.jsonl): choose another run id`,
      },
    ])
  }
  return runId
}
