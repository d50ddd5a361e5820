/**
 * The results store: one JSONL file per run id under results_dir. Rows are appended one at a time and
 * fsynced, so a crash loses only runs in flight (sources.ts reads them back, streaming). A crash in the
 * middle of a write leaves a torn last line: before anything is appended again it is repaired
 * (`repairTornTail`), so the next row never glues onto the fragment.
 */
import {constants} from 'node:fs'
import {appendFile, lstat, mkdir, open, readdir, type FileHandle} from 'node:fs/promises'
import path from 'node:path'
import {checkWritable, naming} from '../shared/atomic-write.js'
import {compileCheck, compileSchema} from '../shared/schema-validator.js'
import {linkRefused, refuseLinks} from './no-follow.js'
import {rowSchema, type Row} from './row-schema.js'

export function runFile(resultsDir: string, runId: string): string {
  return path.join(resultsDir, `${runId}.jsonl`)
}

export class ResultsWriter {
  private queue: Promise<void> = Promise.resolve()

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(resultsDir: string, runId: string): Promise<ResultsWriter> {
    checkWritable(resultsDir, 'folder')
    await mkdir(resultsDir, {recursive: true})
    const file = runFile(resultsDir, runId)
    // Appended to: a FIFO there would block the run, a device would swallow its rows.
    checkWritable(file, 'file')
    await repairTornTail(file, tornLinesFile(resultsDir, runId))
    // The rows and, before any run starts, the folder its traces go to (a link found later would stop the suite).
    await refuseLinks(resultsDir, file, 'write')
    await refuseLinks(resultsDir, path.join(resultsDir, runId, 'traces'), 'write')
    return new ResultsWriter(file, await open(file, 'a'))
  }

  /** Appends one row and fsyncs it; concurrent calls are written one after another, never interleaved. */
  append(row: Row): Promise<void> {
    const line = JSON.stringify(row) + '\n'
    this.queue = this.queue.then(async () => {
      try {
        await this.handle.write(line)
        await this.handle.datasync()
      } catch (error) {
        throw naming(error, this.file)
      }
    })
    return this.queue
  }

  async close(): Promise<void> {
    await this.queue
    await this.handle.close()
  }
}

/** Where fragments of torn lines are set aside: results_dir/<run-id>/torn-lines.txt. */
export function tornLinesFile(resultsDir: string, runId: string): string {
  return path.join(resultsDir, runId, 'torn-lines.txt')
}

export interface TailRepair {
  /** The torn last line parsed as a whole row: it was kept, and only its newline was missing. */
  kept: boolean
  /** Bytes of the fragment set aside (0 when kept). */
  bytes: number
  /** Where the fragment went. */
  aside: string | null
}

/**
 * A results file whose last line has no newline was cut off mid-write. A last line that is a whole
 * row gets its newline; any other fragment is appended to `asideFile` (fsynced) and then cut off the
 * results file, so appending resumes on a clean line. Null when there was nothing to repair. Neither
 * file is reached through a link (no-follow.ts): the cut must never land on a file elsewhere.
 */
export async function repairTornTail(file: string, asideFile: string): Promise<TailRepair | null> {
  let handle: FileHandle
  try {
    handle = await open(file, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'ELOOP') throw linkRefused(file, 'write')
    throw error
  }
  try {
    const {size} = await handle.stat()
    if (size === 0) return null
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    if (last[0] === 0x0a) return null
    // Find the start of the last line, reading backwards a chunk at a time (a row may be large).
    let lineStart = 0
    const chunk = Buffer.alloc(64 * 1024)
    for (let end = size; end > 0;) {
      const from = Math.max(0, end - chunk.length)
      const {bytesRead} = await handle.read(chunk, 0, end - from, from)
      const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a)
      if (newline >= 0) {
        lineStart = from + newline + 1
        break
      }
      end = from
    }
    const fragment = Buffer.alloc(size - lineStart)
    await handle.read(fragment, 0, fragment.length, lineStart)
    let whole = false
    try {
      whole = isRow(JSON.parse(fragment.toString('utf8')))
    } catch {
      whole = false
    }
    if (whole) {
      await handle.write('\n', size)
      await handle.datasync()
      return {kept: true, bytes: 0, aside: null}
    }
    await refuseLinks(path.dirname(file), asideFile, 'write')
    await mkdir(path.dirname(asideFile), {recursive: true})
    await appendFile(asideFile, Buffer.concat([fragment, Buffer.from('\n')]), {flush: true})
    await handle.truncate(lineStart)
    await handle.datasync()
    return {kept: false, bytes: fragment.length, aside: asideFile}
  } finally {
    await handle.close()
  }
}

export interface ReadWarning {
  file: string
  line: number
  message: string
}

/** Checks a parsed value against the row schema; compiled once. */
export function isRow(value: unknown): value is Row {
  return compileCheck(rowSchema)(value)
}

export function rowSchemaErrors(value: unknown): string {
  const validate = compileSchema(rowSchema)
  validate(value)
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ')
}

/** Run ids in a results folder, newest file first; a link is listed as itself (its reader refuses it). */
export async function listRuns(
  resultsDir: string,
): Promise<Array<{runId: string; file: string; mtimeMs: number; link: boolean}>> {
  let names: string[]
  try {
    names = await readdir(resultsDir)
  } catch {
    return []
  }
  const runs = await Promise.all(
    names
      .filter((name) => name.endsWith('.jsonl'))
      .map(async (name) => {
        const file = path.join(resultsDir, name)
        const info = await lstat(file)
        return {runId: name.slice(0, -'.jsonl'.length), file, mtimeMs: info.mtimeMs, link: info.isSymbolicLink()}
      }),
  )
  return runs.sort((a, b) => b.mtimeMs - a.mtimeMs)
}
