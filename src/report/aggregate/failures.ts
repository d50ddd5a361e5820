/**
 * Why runs failed, kept while the rows stream past: per scenario x mode the failed runs counted by
 * outcome and error type (all of them), and the details of the first failed runs (their error, the
 * checkpoints that failed with expected and actual, the trace) up to a bound, so a million failing
 * rows never hold a million details in memory. The report, the gate and JUnit read this.
 */
import type {Row} from '../../results/row-schema.js'

/** Details kept per scenario x mode, and in all; every failure is still counted. */
export const DETAILS_PER_PAIR = 20
export const DETAILS_LIMIT = 1000
/** Longest error message, checkpoint message or JSON text of an expected / actual value kept. */
const TEXT_LIMIT = 300

interface FailedCheckpoint {
  name: string
  /** The condition's expectation and the value it judged, as JSON text cut at TEXT_LIMIT; null when the row has none. */
  expected: string | null
  actual: string | null
  message: string | null
}

export interface FailedRun {
  run_id: string
  scenario_id: string
  mode: string
  iteration: number
  outcome: Row['outcome']
  error: {type: string; message: string} | null
  checkpoints: FailedCheckpoint[]
  /** Relative to the results folder the row was read from. */
  trace: string | null
  retries: number
}

export interface FailureGroup {
  scenario_id: string
  mode: string
  failed: number
  /** outcome -> failed runs */
  outcomes: Record<string, number>
  /** error type -> failed runs ("none" for a failed run with no error recorded) */
  error_types: Record<string, number>
}

export interface FailureLog {
  total: number
  /** mode \u0000 scenario -> counts */
  groups: Map<string, FailureGroup>
  details: FailedRun[]
  /** mode \u0000 scenario -> details kept */
  kept: Map<string, number>
}

/** The log as plain data, to cross a worker boundary. */
export interface PortableFailures {
  total: number
  groups: FailureGroup[]
  details: FailedRun[]
}

export function emptyFailures(): FailureLog {
  return {total: 0, groups: new Map(), details: [], kept: new Map()}
}

const key = (mode: string, scenario: string): string => `${mode}\u0000${scenario}`

/** Cuts text to `limit` characters with an ellipsis. */
function clip(text: string, limit = TEXT_LIMIT): string {
  return text.length <= limit ? text : text.slice(0, limit - 1) + '…'
}

function asText(value: unknown): string | null {
  if (value === undefined) return null
  // Rows are parsed JSON, so every value has a JSON text.
  return clip(typeof value === 'string' ? value : JSON.stringify(value))
}

function failedRunOf(row: Row): FailedRun {
  return {
    run_id: row.run_id,
    scenario_id: row.scenario_id,
    mode: row.mode,
    iteration: row.iteration,
    outcome: row.outcome,
    error: row.error ? {type: row.error.type, message: clip(row.error.message)} : null,
    checkpoints: row.checkpoints
      .filter((c) => !c.passed)
      .map((c) => ({
        name: c.name,
        expected: asText(c.expected),
        actual: asText(c.actual),
        message: c.message === undefined ? null : clip(c.message),
      })),
    trace: row.trace,
    retries: row.retries,
  }
}

/** Whether a detail of this pair still has room; if so it is counted as kept. */
function makeRoom(log: FailureLog, mode: string, scenario: string): boolean {
  const pair = key(mode, scenario)
  const kept = log.kept.get(pair) ?? 0
  if (kept >= DETAILS_PER_PAIR || log.details.length >= DETAILS_LIMIT) return false
  log.kept.set(pair, kept + 1)
  return true
}

function groupOf(log: FailureLog, mode: string, scenario: string): FailureGroup {
  const pair = key(mode, scenario)
  let group = log.groups.get(pair)
  if (!group) log.groups.set(pair, (group = {scenario_id: scenario, mode, failed: 0, outcomes: {}, error_types: {}}))
  return group
}

/** Records a row if it failed (success false); a successful row costs nothing. */
export function addFailure(log: FailureLog, row: Row): void {
  if (row.success) return
  const group = groupOf(log, row.mode, row.scenario_id)
  const type = row.error?.type ?? 'none'
  group.failed++
  group.outcomes[row.outcome] = (group.outcomes[row.outcome] ?? 0) + 1
  group.error_types[type] = (group.error_types[type] ?? 0) + 1
  log.total++
  if (makeRoom(log, row.mode, row.scenario_id)) log.details.push(failedRunOf(row))
}

export function toPortableFailures(log: FailureLog): PortableFailures {
  return {total: log.total, groups: [...log.groups.values()], details: log.details}
}

/** Adds another reader's log, in reading order: the details kept are those of the first failures read. */
export function mergeFailures(into: FailureLog, other: PortableFailures): void {
  for (const group of other.groups) {
    const own = groupOf(into, group.mode, group.scenario_id)
    own.failed += group.failed
    for (const [outcome, n] of Object.entries(group.outcomes)) own.outcomes[outcome] = (own.outcomes[outcome] ?? 0) + n
    for (const [type, n] of Object.entries(group.error_types)) own.error_types[type] = (own.error_types[type] ?? 0) + n
    into.total += group.failed
  }
  for (const run of other.details) if (makeRoom(into, run.mode, run.scenario_id)) into.details.push(run)
}
