/**
 * Where a report's rows come from: files and folders given with --input, a run id, or the newest run
 * in results_dir; each file's format recognised by its content; a row seen twice (results.json and
 * results.csv of the same run) counted once, the richer format winning.
 */
import {open, readdir, readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {detectRowFormat, evalRowFromCsv, fromGhxEval, fromGhxRouter, parseCsv} from './importers.js'
import {readLineBatches, type ByteRange} from './lines.js'
import {checkRunId} from './names.js'
import type {Row} from './row-schema.js'
import {isRow, listRuns, rowSchemaErrors, runFile, type ReadWarning} from './store.js'

export interface RowSourceOptions {
  inputs?: string[]
  runId?: string
  resultsDir: string
  cwd?: string
}

/** Files in reading order: JSONL and JSON before CSV, so the richer copy of a duplicated row wins. */
export async function resolveInputFiles(options: RowSourceOptions): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd()
  const files: string[] = []
  const problems: Diagnostic[] = []
  if (options.runId) {
    // A run id is a file name under results_dir, never a path (../../x).
    checkRunId(options.runId, '--run-id')
    const file = runFile(options.resultsDir, options.runId)
    if (await exists(file)) files.push(file)
    else problems.push({file: displayPath(file, cwd), code: 'io', message: `no results for run id "${options.runId}"`})
  }
  for (const input of options.inputs ?? []) {
    const target = path.resolve(cwd, input)
    const info = await stat(target).catch(() => undefined)
    if (!info) problems.push({file: input, code: 'io', message: 'no such file or folder'})
    else if (info.isDirectory()) {
      const found = (await readdir(target)).filter((name) => /\.(jsonl|json|csv)$/.test(name)).map((name) => path.join(target, name))
      if (found.length === 0) problems.push({file: input, code: 'io', message: 'the folder holds no .jsonl, .json or .csv file'})
      files.push(...found)
    } else files.push(target)
  }
  if (!options.runId && (options.inputs ?? []).length === 0) {
    const newest = (await listRuns(options.resultsDir))[0]
    if (newest) files.push(newest.file)
    else problems.push({file: displayPath(options.resultsDir, cwd), code: 'io', message: 'no results yet: run a suite first, or pass --input'})
  }
  if (problems.length > 0) throw new BadInputError(problems)
  const rank = (file: string): number => (file.endsWith('.csv') ? 1 : 0)
  return [...new Set(files)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

/**
 * Streams normalized rows from every file; `warn` hears of torn lines and duplicates. Duplicates are
 * looked for across files only (one file never repeats a run), so one file costs no key set.
 */
export async function* readRows(files: string[], warn: (w: ReadWarning) => void, cwd = process.cwd()): AsyncGenerator<Row> {
  const seen = files.length > 1 ? new Set<string>() : undefined
  for (const file of files) {
    const shown = displayPath(file, cwd)
    let duplicates = 0
    for await (const row of rowsOfFile(file, shown, warn)) {
      if (seen) {
        const key = `${row.run_id}\u0000${row.scenario_id}\u0000${row.mode}\u0000${row.iteration}`
        if (seen.has(key)) {
          duplicates++
          continue
        }
        seen.add(key)
      }
      yield row
    }
    if (duplicates > 0) warn({file: shown, line: 0, message: `${duplicates} row(s) already read from another input (same run, scenario, mode, iteration) were counted once`})
  }
}

async function* rowsOfFile(file: string, shown: string, warn: (w: ReadWarning) => void): AsyncGenerator<Row> {
  const head = await readHead(file)
  if (file.endsWith('.csv') || /^[a-z_]+(,[a-z_]+)+\r?\n/.test(head)) {
    yield* csvRows(file, shown)
    return
  }
  if (head.trimStart().startsWith('[')) {
    let values: unknown
    try {
      values = JSON.parse(await readFile(file, 'utf8'))
    } catch (error) {
      throw bad(shown, 1, `not JSON (a truncated file?): ${(error as Error).message}`)
    }
    if (!Array.isArray(values)) throw bad(shown, 1, 'a JSON results file must hold an array of rows')
    for (const [index, value] of values.entries()) yield normalize(value, shown, index + 1, 'element')
    return
  }
  for await (const rows of jsonlRowBatches(file, shown, warn)) yield* rows
}

/**
 * Rows of a JSONL file, or of a byte range of one (a worker's share), a chunk's worth at a time;
 * `seen.lines` counts the lines read, so that a later range's line numbers can be made absolute.
 */
export async function* jsonlRowBatches(
  file: string,
  shown: string,
  warn: (w: ReadWarning) => void,
  range?: ByteRange,
  seen: {lines: number} = {lines: 0},
): AsyncGenerator<Row[]> {
  for await (const lines of readLineBatches(file, range)) {
    const rows: Row[] = []
    for (const line of lines) {
      seen.lines = line.number
      if (line.text.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line.text)
      } catch (error) {
        if (line.unterminated) {
          warn({file: shown, line: line.number, message: 'the last line is incomplete (a run was cut off mid-write); it is left out'})
          break
        }
        // A row appended after a crash, by a version that did not repair the torn line first, sits glued to the fragment.
        const glued = gluedRow(line.text)
        if (glued === undefined) throw bad(shown, line.number, `not JSON: ${(error as Error).message}`)
        warn({file: shown, line: line.number, message: 'a torn line (a run cut off mid-write) is glued to the row after it: the fragment is left out, the row kept'})
        value = glued
      }
      rows.push(normalize(value, shown, line.number, 'line'))
    }
    yield rows
  }
}

/** The whole row at the end of a line that starts with a torn fragment, if there is one. */
function gluedRow(text: string): unknown {
  const at = text.lastIndexOf('{"schema_version":')
  if (at <= 0) return undefined
  try {
    const value = JSON.parse(text.slice(at)) as unknown
    return isRow(value) ? value : undefined
  } catch {
    return undefined
  }
}

async function* csvRows(file: string, shown: string): AsyncGenerator<Row> {
  const [header, ...records] = parseCsv(await readFile(file, 'utf8'))
  if (!header?.includes('scenario_id') || !header.includes('timing_wall_ms')) {
    throw bad(shown, 1, 'a CSV file must be ghx eval results.csv (columns run_id, scenario_id, mode, ..., timing_wall_ms)')
  }
  for (const [index, record] of records.entries()) {
    // A record with more or fewer fields than the header is a broken file, not a row with gaps.
    if (record.length !== header.length) {
      throw new BadInputError([{file: shown, code: 'schema', message: `record ${index + 1} after the header has ${record.length} field(s), the header has ${header.length}: not a well-formed CSV file`}])
    }
    const object = Object.fromEntries(header.map((column, i) => [column, record[i] ?? '']))
    yield fromGhxEval(evalRowFromCsv(object))
  }
}

function normalize(value: unknown, shown: string, line: number, unit: 'line' | 'element'): Row {
  switch (detectRowFormat(value)) {
    case 'ghx-bench':
      if (isRow(value)) return value
      throw bad(shown, line, `not a valid ghx-bench row: ${rowSchemaErrors(value)}`)
    case 'ghx-router':
      return fromGhxRouter(value as Record<string, unknown>)
    case 'ghx-eval':
      return fromGhxEval(value as Record<string, unknown>)
    default:
      throw bad(shown, line, `this ${unit} is not a row of ghx-bench, ghx-router or ghx eval`)
  }
}

function bad(file: string, line: number, message: string): BadInputError {
  return new BadInputError([{file, line, col: 1, code: 'schema', message}])
}

export async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(512)
    const {bytesRead} = await handle.read(buffer, 0, 512, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}
