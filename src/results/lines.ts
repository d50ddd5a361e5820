/**
 * Streams a file's lines without loading it whole, a chunk's worth at a time (one await per chunk,
 * not per line: on a million rows the per-line await alone costs a second). The last line is flagged
 * when the file does not end with a newline: a row being written when the process died has none yet.
 */
import {createReadStream} from 'node:fs'

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

export async function* readLineBatches(file: string, range?: ByteRange): AsyncGenerator<Line[]> {
  let pending = ''
  let number = 0
  // 64 KiB chunks: a chunk and the rows parsed from it die young. With 1 MiB chunks they outlived a
  // scavenge, and the old space of every reading thread grew by some 60 MB before a full collection.
  const stream = createReadStream(file, {
    encoding: 'utf8',
    highWaterMark: 1 << 16,
    ...(range ? {start: range.start, end: range.end - 1} : {}),
  })
  for await (const chunk of stream as AsyncIterable<string>) {
    const batch: Line[] = []
    let start = 0
    let newline = chunk.indexOf('\n')
    // Only the first line of a chunk joins the previous chunk's tail; the chunk itself is never copied.
    if (newline >= 0) {
      batch.push({number: ++number, text: pending + chunk.slice(0, newline), unterminated: false})
      pending = ''
      start = newline + 1
      newline = chunk.indexOf('\n', start)
    }
    while (newline >= 0) {
      batch.push({number: ++number, text: chunk.slice(start, newline), unterminated: false})
      start = newline + 1
      newline = chunk.indexOf('\n', start)
    }
    pending += chunk.slice(start)
    if (batch.length > 0) yield batch
  }
  if (pending.length > 0) yield [{number: number + 1, text: pending, unterminated: true}]
}
