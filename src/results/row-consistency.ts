/**
 * A row is evidence, not a claim: its success follows from its outcome, and a pass from its checkpoints.
 * A row that disagrees with itself (success true on a failed outcome, a pass whose checkpoints failed)
 * was edited or written by something other than a run: the report and the gate refuse it (bad input,
 * naming its line) rather than take either field on its word.
 */
import type {Row} from './row-schema.js'

type Checked = Pick<Row, 'outcome' | 'success' | 'output_valid' | 'error' | 'checkpoints' | 'scenario_type'> & {
  expected_outcome?: Row['expected_outcome']
}

/** Why the row contradicts itself; null when it does not. */
export function rowContradiction(row: Checked): string | null {
  const pass = row.outcome === 'pass'
  if (row.success !== pass)
    return `success is ${row.success} but the outcome is ${JSON.stringify(row.outcome)}: success is the outcome pass, nothing else`
  if (!pass) return null
  if (row.error !== null)
    return `the outcome is pass with an error (${JSON.stringify(row.error.type)}): a pass has none`
  const failed = row.checkpoints.filter((c) => !c.passed).map((c) => c.name)
  // A workflow expecting an error passes when the task was not done: some checkpoint fails, by design.
  if (row.scenario_type === 'workflow' && row.expected_outcome === 'expected_error') {
    if (failed.length === 0)
      return 'the outcome is pass for a workflow expecting an error, yet every checkpoint passed: the task was done'
  } else if (failed.length > 0)
    return `the outcome is pass but checkpoint(s) ${failed.join(', ')} failed: a pass needs every checkpoint to hold`
  if (!row.output_valid) return 'the outcome is pass but output_valid is false: a pass needs a valid output'
  return null
}
