/**
 * Where a report's rows come from: files and folders given with --input, a run id, or the newest run
 * in results_dir; each file's format recognised by its content; a row seen twice (results.json and
 * results.csv of the same run) counted once, the richer format winning; a run one file gives twice
 * refused as bad input.
 */
import {lstat, open, readdir, readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {detectRowFormat, evalRowFromCsv, fromGhxEval, fromGhxRouter, parseCsv, routerFacts} from './importers.js'
import {readLineBatches, type ByteRange} from './lines.js'
import {checkRunId} from './names.js'
import {checkReadable, linkDiagnostic, readProblem} from './no-follow.js'
import {regradedFileFor} from './regraded.js'
import {rowContradiction} from './row-consistency.js'
import type {Row} from './row-schema.js'
import {conflictingRunError, FileDeduplication, RunKeys} from './run-keys.js'
import {isShardHeader} from './shard-file.js'
import {isRow, listRuns, rowSchemaErrors, runFile, type ReadWarning} from './store.js'

export interface RowSourceOptions {
  inputs?: string[]
  runId?: string
  resultsDir: string
  cwd?: string
}

/**
 * Files in reading order: JSONL and JSON before CSV, so the richer copy of a duplicated row wins. Each
 * is a regular file (no-follow.ts, readProblem), looked at before anything is opened: every problem
 * of every input is named at once.
 */
export async function resolveInputFiles(options: RowSourceOptions): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd()
  const files: string[] = []
  const problems: Diagnostic[] = []
  const take = async (file: string, shown = displayPath(file, cwd)): Promise<void> => {
    const problem = await readProblem(file, shown)
    if (problem) problems.push(problem)
    else files.push(file)
  }
  if (options.runId) {
    // A run id is a file name under results_dir, never a path (../../x).
    checkRunId(options.runId, '--run-id')
    const file = runFile(options.resultsDir, options.runId)
    const info = await lstat(file).catch(() => undefined)
    if (info?.isSymbolicLink()) problems.push(linkDiagnostic(file, 'read', cwd))
    else if (info) await take(file)
    else problems.push({file: displayPath(file, cwd), code: 'io', message: `no results for run id "${options.runId}"`})
  }
  for (const input of options.inputs ?? []) {
    const target = path.resolve(cwd, input)
    if ((await stat(target).catch(() => undefined))?.isDirectory()) {
      // Folders in it are not results files (a run's own folder may be named like one: run id "x.json").
      const found = (await readdir(target, {withFileTypes: true})).filter(
        (entry) => /\.(jsonl|json|csv)$/.test(entry.name) && !entry.isDirectory(),
      )
      if (found.length === 0)
        problems.push({file: input, code: 'io', message: 'the folder holds no .jsonl, .json or .csv file'})
      // The folder is the user's word; a link found in it is not.
      for (const entry of found) {
        const file = path.join(target, entry.name)
        if (entry.isSymbolicLink()) problems.push(linkDiagnostic(file, 'read', cwd))
        else await take(file)
      }
    } else await take(target, input)
  }
  if (!options.runId && (options.inputs ?? []).length === 0) {
    const newest = (await listRuns(options.resultsDir))[0]
    if (newest?.link) problems.push(linkDiagnostic(newest.file, 'read', cwd))
    else if (newest) await take(newest.file)
    else
      problems.push({
        file: displayPath(options.resultsDir, cwd),
        code: 'io',
        message: 'no results yet: run a suite first, or pass --input',
      })
  }
  if (problems.length > 0) throw new BadInputError(problems)
  const rank = (file: string): number => (file.endsWith('.csv') ? 1 : 0)
  return [...new Set(files)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

/**
 * What a results file holds, row by row, in the reader's order. ghx-bench rows (and ghx eval's, which
 * are normalized first) come whole; ghx-router rows come as they were parsed, so that a reader that
 * needs only their figures (the report) never builds the normalized row.
 */
export interface RowVisitor {
  /**
   * `line`: the row's line (JSONL), element (JSON array) or record after the header (CSV), from 1;
   * `text`: the JSONL line the row was parsed from, when it is the row exactly as it is in the file.
   */
  row(row: Row, line: number, text?: string): void
  router(source: Record<string, unknown>, line: number): void
}

/** Where a reader is within a file: the last line read, so that a later byte range's line numbers can be made absolute. */
export interface ReadPosition {
  lines: number
}

/**
 * Streams normalized rows from every file; `warn` hears of torn lines and duplicates. A row whose run,
 * scenario, mode and iteration an earlier file already gave is counted once (the results.json and the
 * results.csv of one run); a run one file gives twice is bad input (see FileDeduplication), thrown
 * before any row of that file's batch in which it shows is handed on.
 */
export async function* readRows(
  files: string[],
  warn: (w: ReadWarning) => void,
  cwd = process.cwd(),
): AsyncGenerator<Row> {
  const earlier = files.length > 1 ? new RunKeys() : undefined
  for (const [index, file] of files.entries()) {
    const shown = displayPath(file, cwd)
    const once = new FileDeduplication(earlier, replacedByRegraded(files, index))
    let batch: Row[] = []
    const keep = (row: Row, line: number): void => {
      if (once.fresh(row, row.iteration, row.success)) batch.push(row)
      if (once.conflicting) throw conflictingRunError(shown, line, once.conflicting)
    }
    const visitor: RowVisitor = {row: keep, router: (source, line) => keep(fromGhxRouter(source), line)}
    for await (const _ of visitFile(file, shown, warn, visitor)) {
      if (once.repeated) throw await repeatedRunError(file, shown)
      yield* batch
      batch = []
    }
    earlier?.addAll(once.keys)
    if (once.duplicates > 0) warn(duplicatesWarning(shown, once.duplicates))
  }
}

/** Whether files[index] is an original whose re-graded rows were read before it (regraded.ts): its outcomes may differ from theirs. */
export function replacedByRegraded(files: readonly string[], index: number): boolean {
  const regraded = regradedFileFor(files[index]!)
  return regraded !== files[index] && files.slice(0, index).includes(regraded)
}

/**
 * Bad input naming where a file first gives a run twice: the line of the repeat and the line it
 * repeats. Only a refused file pays for this: two more passes over it, no line kept per row.
 */
export async function repeatedRunError(file: string, shown: string): Promise<BadInputError> {
  type Key = Pick<Row, 'run_id' | 'scenario_id' | 'mode' | 'provider' | 'iteration'>
  const scan = async (look: (row: Key, line: number) => boolean): Promise<{row: Key; line: number} | undefined> => {
    let found: {row: Key; line: number} | undefined
    const visit = (row: Key, line: number): void => {
      if (!found && look(row, line)) found = {row, line}
    }
    for await (const _ of visitFile(file, shown, () => {}, {
      row: visit,
      router: (source, line) => visit(routerFacts(source), line),
    }))
      if (found) break
    return found
  }
  const keys = new RunKeys()
  const repeat = await scan((row) => !keys.addIfNew(row, row.iteration))
  const run = repeat?.row
  const first =
    run &&
    (await scan(
      (row) =>
        row.run_id === run.run_id &&
        row.scenario_id === run.scenario_id &&
        row.mode === run.mode &&
        row.provider === run.provider &&
        row.iteration === run.iteration,
    ))
  const provider = run?.provider ? `, provider ${JSON.stringify(run.provider)}` : ''
  const what = run
    ? `run_id ${JSON.stringify(run.run_id)}, scenario ${JSON.stringify(run.scenario_id)}, mode ${JSON.stringify(run.mode)}${provider}, iteration ${run.iteration}`
    : 'the same run id, scenario, mode, provider and iteration'
  const why =
    'a results file holds each run once, so one of the copies is not that run (files concatenated, rows pasted twice?) and counting either could hide a failure; remove the repeated rows'
  const kind = fileKind(file, await readHead(file))
  // A CSV record may span lines: it is named by its number, as the CSV reader's other findings are.
  if (kind === 'csv') {
    return new BadInputError([
      {
        file: shown,
        code: 'duplicate_id',
        message: `record ${repeat?.line ?? '?'} after the header repeats the run of record ${first?.line ?? '?'} (${what}): ${why}`,
      },
    ])
  }
  const unit = kind === 'json' ? 'element' : 'line'
  const message = `this ${unit} repeats the run of ${unit} ${first?.line ?? '?'} (${what}): ${why}`
  return new BadInputError([
    {file: shown, ...(repeat ? {line: repeat.line, col: 1} : {}), code: 'duplicate_id', message},
  ])
}

export function duplicatesWarning(shown: string, duplicates: number): ReadWarning {
  return {
    file: shown,
    line: 0,
    message: `${duplicates} row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once`,
  }
}

export type FileKind = 'csv' | 'json' | 'jsonl'

/** A results file's kind, from its name and first bytes: ghx eval's results.csv, a JSON array, or JSON lines. */
export function fileKind(file: string, head: string): FileKind {
  if (file.endsWith('.csv') || /^[a-z_]+(,[a-z_]+)+\r?\n/.test(head)) return 'csv'
  return head.trimStart().startsWith('[') ? 'json' : 'jsonl'
}

/**
 * Hands every row of one file (or of a byte range of a JSONL file: a worker's share) to the visitor,
 * in file order; it yields after each chunk's worth, so a consumer can drain what the visitor kept.
 */
export async function* visitFile(
  file: string,
  shown: string,
  warn: (w: ReadWarning) => void,
  visit: RowVisitor,
  range?: ByteRange,
  position: ReadPosition = {lines: 0},
): AsyncGenerator<void> {
  const kind = fileKind(file, await readHead(file))
  if (kind === 'csv') {
    for (const [index, row] of (await csvRows(file, shown)).entries()) visit.row(row, index + 1)
    yield
    return
  }
  if (kind === 'json') {
    const text = await readWhole(file, shown)
    let values: unknown
    try {
      values = JSON.parse(text)
    } catch (error) {
      throw bad(shown, 1, `not JSON (a truncated file?): ${printable((error as Error).message)}`)
    }
    if (!Array.isArray(values)) throw bad(shown, 1, 'a JSON results file must hold an array of rows')
    for (const [index, value] of values.entries()) visitValue(value, shown, index + 1, 'element', visit)
    yield
    return
  }
  for await (const lines of readLineBatches(file, {range, shown})) {
    for (const line of lines) {
      position.lines = line.number
      if (line.text.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line.text)
      } catch (error) {
        if (line.unterminated) {
          warn({
            file: shown,
            line: line.number,
            message: 'the last line is incomplete (a run was cut off mid-write); it is left out',
          })
          break
        }
        // A row appended after a crash, by a version that did not repair the torn line first, sits glued to the fragment.
        const glued = gluedRow(line.text)
        if (glued === undefined) throw bad(shown, line.number, `not JSON: ${printable((error as Error).message)}`)
        warn({
          file: shown,
          line: line.number,
          message:
            'a torn line (a run cut off mid-write) is glued to the row after it: the fragment is left out, the row kept',
        })
        visitValue(glued, shown, line.number, 'line', visit)
        continue
      }
      visitValue(value, shown, line.number, 'line', visit, line.text)
    }
    yield
  }
}

/** A parser's message, which quotes the text: its control characters escaped, so that it stays one line. */
const printable = (message: string): string =>
  message.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

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

async function csvRows(file: string, shown: string): Promise<Row[]> {
  const [header, ...records] = parseCsv(await readWhole(file, shown))
  if (!header?.includes('scenario_id') || !header.includes('timing_wall_ms')) {
    throw bad(
      shown,
      1,
      'a CSV file must be ghx eval results.csv (columns run_id, scenario_id, mode, ..., timing_wall_ms)',
    )
  }
  return records.map((record, index) => {
    // A record with more or fewer fields than the header is a broken file, not a row with gaps.
    if (record.length !== header.length) {
      throw new BadInputError([
        {
          file: shown,
          code: 'schema',
          message: `record ${index + 1} after the header has ${record.length} field(s), the header has ${header.length}: not a well-formed CSV file`,
        },
      ])
    }
    const object = Object.fromEntries(header.map((column, i) => [column, record[i] ?? '']))
    return fromGhxEval(evalRowFromCsv(object))
  })
}

function visitValue(
  value: unknown,
  shown: string,
  line: number,
  unit: 'line' | 'element',
  visit: RowVisitor,
  text?: string,
): void {
  // A shard's results file starts with its header (src/results/shard-file.ts): what the rows are, not a row.
  if (isShardHeader(value)) return
  switch (detectRowFormat(value)) {
    case 'ghx-bench': {
      if (!isRow(value)) throw bad(shown, line, `not a valid ghx-bench row: ${rowSchemaErrors(value)}`)
      const contradiction = rowContradiction(value)
      if (contradiction) throw bad(shown, line, `this row contradicts itself: ${contradiction}`)
      visit.row(value, line, text)
      return
    }
    case 'ghx-router':
      visit.router(value as Record<string, unknown>, line)
      return
    case 'ghx-eval':
      visit.row(fromGhxEval(value as Record<string, unknown>), line)
      return
    default:
      throw bad(shown, line, `this ${unit} is not a row of ghx-bench, ghx-router or ghx eval`)
  }
}

function bad(file: string, line: number, message: string): BadInputError {
  return new BadInputError([{file, line, col: 1, code: 'schema', message}])
}

/** A JSON or CSV file's most, in bytes: such a file is parsed whole (JSON lines are streamed, a row at a time). */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024 * 1024

/** A JSON or CSV results file's text: bad input when it is too large to parse whole. */
async function readWhole(file: string, shown: string): Promise<string> {
  const {size} = await stat(file)
  if (size > MAX_WHOLE_FILE_BYTES)
    throw new BadInputError([
      {
        file: shown,
        code: 'io',
        message: `${size} bytes: a JSON or CSV results file is read whole, and may hold at most ${MAX_WHOLE_FILE_BYTES}; give the rows as JSON lines (.jsonl, one a line)`,
      },
    ])
  // A byte order mark (a Windows editor's) is no part of the first row or the CSV header.
  return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '')
}

/** A file's first bytes; bad input, before it is opened, when it is no regular file. */
export async function readHead(file: string): Promise<string> {
  await checkReadable(file)
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(512)
    const {bytesRead} = await handle.read(buffer, 0, 512, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}
