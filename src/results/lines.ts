/**
 * Streams a file's lines without loading it whole, a chunk's worth at a time (one await per chunk,
 * not per line: on a million rows the per-line await alone costs a second). The last line is flagged
 * when the file does not end with a newline: a row being written when the process died has none yet.
 * A line is at most MAX_LINE_BYTES: a longer one is bad input, refused as soon as it is that long, so
 * a file of one endless line never has to fit in memory.
 */
import {createReadStream} from 'node:fs'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {checkReadable} from './no-follow.js'

export interface Line {
  number: number
  text: string
  /** True for a final line with no newline after it. */
  unterminated: boolean
}

/** A byte range of a file: from start up to (not including) end. */
export interface ByteRange {
  start: number
  end: number
}

/** A row's most, in bytes: some hundred times a long run's row with every checkpoint's stored results. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

export interface ReadLinesOptions {
  range?: ByteRange
  /** The file as findings name it (default: relative to the working folder). */
  shown?: string
  /** Longer lines are bad input (default MAX_LINE_BYTES). */
  maxLineBytes?: number
}

export async function* readLineBatches(file: string, options: ReadLinesOptions = {}): AsyncGenerator<Line[]> {
  const {range, shown = displayPath(file), maxLineBytes = MAX_LINE_BYTES} = options
  await checkReadable(file, shown)
  // Bytes, not text: a line's length is counted before it is decoded, and a character split between
  // two chunks is decoded whole.
  let pending: Buffer[] = []
  let pendingBytes = 0
  let number = 0
  const tooLong = (): BadInputError =>
    new BadInputError([
      {
        file: shown,
        line: number + 1,
        col: 1,
        code: 'schema',
        message: `this line is longer than ${maxLineBytes} bytes, more than a row may be: not a results file of ghx-bench, ghx-router or ghx eval`,
      },
    ])
  // 64 KiB chunks: a chunk and the rows parsed from it die young. With 1 MiB chunks they outlived a
  // scavenge, and the old space of every reading thread grew by some 60 MB before a full collection.
  const stream = createReadStream(file, {
    highWaterMark: 1 << 16,
    ...(range ? {start: range.start, end: range.end - 1} : {}),
  })
  let first = (range?.start ?? 0) === 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const batch: Line[] = []
    // A byte order mark (a Windows editor's) is no part of the first row.
    let start = first && chunk.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0
    first = false
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      if (pendingBytes + newline - start > maxLineBytes) throw tooLong()
      // Only the first line of a chunk joins the previous chunks' tail; the chunk itself is never copied.
      const text =
        pendingBytes === 0
          ? chunk.toString('utf8', start, newline)
          : Buffer.concat([...pending, chunk.subarray(start, newline)]).toString('utf8')
      pending = []
      pendingBytes = 0
      batch.push({number: ++number, text, unterminated: false})
      start = newline + 1
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start
      if (pendingBytes > maxLineBytes) throw tooLong()
      pending.push(chunk.subarray(start))
    }
    if (batch.length > 0) yield batch
  }
  if (pendingBytes > 0) yield [{number: number + 1, text: Buffer.concat(pending).toString('utf8'), unterminated: true}]
}
