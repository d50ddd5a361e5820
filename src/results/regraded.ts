/**
 * Re-graded rows. `regrade` writes <run>.regraded.jsonl beside <run>.jsonl. When rows are read by run
 * id, as the newest run, or from a results folder, a run's re-graded row takes the place of its
 * original (same run_id, scenario, mode, iteration): the re-graded file is read first, and the reader
 * counts a row seen twice once, keeping the first. A rows file named on its own (--input <file>) is read
 * as it is, unless its counterpart is named too.
 */
import {lstat} from 'node:fs/promises'
import path from 'node:path'
import {displayPath} from '../shared/source-document.js'
import {linkRefused} from './no-follow.js'
import type {ReadWarning} from './store.js'

const REGRADED_SUFFIX = '.regraded.jsonl'

export function isRegradedFile(file: string): boolean {
  return file.endsWith(REGRADED_SUFFIX)
}

/** X.jsonl -> X.regraded.jsonl (and X.regraded.jsonl -> itself); other files -> <stem>.regraded.jsonl. */
export function regradedFileFor(file: string): string {
  if (isRegradedFile(file)) return file
  return file.replace(/\.(jsonl|json|csv)$/, '') + REGRADED_SUFFIX
}

/** X.regraded.jsonl -> X.jsonl; undefined for any other file. */
export function originalFileFor(file: string): string | undefined {
  return isRegradedFile(file) ? file.slice(0, -REGRADED_SUFFIX.length) + '.jsonl' : undefined
}

export interface RegradedFiles {
  /** The files in reading order: each re-graded file just before its original. */
  files: string[]
  /** original -> re-graded file read before it */
  superseding: Map<string, string>
}

/** Whether a counterpart found by its name is there; one that is a link is refused, not followed (no-follow.ts). */
async function isFile(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => undefined)
  if (info?.isSymbolicLink()) throw linkRefused(file, 'read')
  return info?.isFile() ?? false
}

/**
 * The files to read, with re-graded rows in front of their originals. `explicit` are the files named
 * on their own: their counterpart is not added, though it is ordered first when named too.
 */
export async function withRegraded(files: readonly string[], explicit: ReadonlySet<string>): Promise<RegradedFiles> {
  const all = new Set(files)
  for (const file of files) {
    if (explicit.has(file) || !file.endsWith('.jsonl')) continue
    const counterpart = originalFileFor(file) ?? regradedFileFor(file)
    if (!all.has(counterpart) && (await isFile(counterpart))) all.add(counterpart)
  }
  const superseding = new Map<string, string>()
  const ordered = new Set<string>()
  for (const file of all) {
    const original = originalFileFor(file)
    const regraded = original === undefined && file.endsWith('.jsonl') ? regradedFileFor(file) : undefined
    if (original !== undefined && all.has(original)) {
      ordered.add(file).add(original)
      superseding.set(original, file)
    } else if (regraded !== undefined && all.has(regraded)) {
      ordered.add(regraded).add(file)
      superseding.set(file, regraded)
    } else ordered.add(file)
  }
  return {files: [...ordered], superseding}
}

/**
 * A reader's warning about an original whose rows were superseded, said as what it is; other warnings
 * pass unchanged.
 */
export function describeSuperseded(
  warning: ReadWarning,
  superseding: ReadonlyMap<string, string>,
  cwd = process.cwd(),
): ReadWarning {
  const regraded = [...superseding].find(([original]) => displayPath(original, cwd) === warning.file)?.[1]
  const duplicates = /^(\d+) row\(s\) already read from another input/.exec(warning.message)
  if (!regraded || !duplicates) return warning
  return {
    ...warning,
    message: `${duplicates[1]} row(s) superseded by their re-graded rows in ${displayPath(regraded, cwd)}`,
  }
}

/** The files named on their own among --input values (folders are not), resolved. */
export async function explicitFiles(inputs: readonly string[] | undefined, cwd: string): Promise<Set<string>> {
  const named = new Set<string>()
  for (const input of inputs ?? []) {
    const target = path.resolve(cwd, input)
    if (await isFile(target)) named.add(target)
  }
  return named
}
