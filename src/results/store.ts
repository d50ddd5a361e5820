/**
 * The results store: one JSONL file per run id under results_dir. Rows are appended one at a time and
 * fsynced, so a crash loses only runs in flight (sources.ts reads them back, streaming).
 */
import {mkdir, open, readdir, stat, type FileHandle} from 'node:fs/promises'
import path from 'node:path'
import {compileSchema} from '../spec/schema-validator.js'
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
    await mkdir(resultsDir, {recursive: true})
    const file = runFile(resultsDir, runId)
    return new ResultsWriter(file, await open(file, 'a'))
  }

  /** Appends one row and fsyncs it; concurrent calls are written one after another, never interleaved. */
  append(row: Row): Promise<void> {
    const line = JSON.stringify(row) + '\n'
    this.queue = this.queue.then(async () => {
      await this.handle.write(line)
      await this.handle.datasync()
    })
    return this.queue
  }

  async close(): Promise<void> {
    await this.queue
    await this.handle.close()
  }
}

export interface ReadWarning {
  file: string
  line: number
  message: string
}

/** Checks a parsed value against the row schema; compiled once. */
export function isRow(value: unknown): value is Row {
  return compileSchema(rowSchema)(value)
}

export function rowSchemaErrors(value: unknown): string {
  const validate = compileSchema(rowSchema)
  validate(value)
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ')
}

/** Run ids in a results folder, newest file first. */
export async function listRuns(resultsDir: string): Promise<Array<{runId: string; file: string; mtimeMs: number}>> {
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
        return {runId: name.slice(0, -'.jsonl'.length), file, mtimeMs: (await stat(file)).mtimeMs}
      }),
  )
  return runs.sort((a, b) => b.mtimeMs - a.mtimeMs)
}
