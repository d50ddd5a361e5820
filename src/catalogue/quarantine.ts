/**
 * Reads the project's quarantine file (config `quarantine_file`, default quarantine.yml beside the
 * config): absent, nothing is quarantined; malformed, it is bad input at its file:line:col. Each entry
 * comes back with whether it has expired (its `expires` day is before today, UTC).
 */
import {stat} from 'node:fs/promises'
import {BadInputError} from '../shared/diagnostics.js'
import {validateDocument} from '../shared/schema-validator.js'
import {readSource} from '../shared/source-document.js'
import {quarantineSchema, type QuarantineEntry, type QuarantineFile} from '../schemas/quarantine.js'

export interface Quarantined extends QuarantineEntry {
  expired: boolean
}

export async function loadQuarantine(file: string, cwd: string, today = new Date()): Promise<Quarantined[]> {
  if (!(await stat(file).catch(() => undefined))) return []
  const parsed = await readSource(file, cwd)
  if (!parsed.document) throw new BadInputError(parsed.diagnostics)
  const problems = validateDocument(quarantineSchema, parsed.document)
  if (problems.length > 0) throw new BadInputError(problems)
  const day = today.toISOString().slice(0, 10)
  return (parsed.document.data as QuarantineFile).quarantine.map((entry) => ({...entry, expired: entry.expires < day}))
}

/** The unexpired entry that covers a scenario under a mode and provider, if any. */
export function quarantineOf(
  entries: readonly Quarantined[],
  cell: {scenario_id: string; mode: string; provider: string | null},
): Quarantined | undefined {
  return entries.find(
    (e) =>
      !e.expired &&
      e.scenario === cell.scenario_id &&
      (e.mode === undefined || e.mode === cell.mode) &&
      (e.provider === undefined || e.provider === cell.provider),
  )
}
