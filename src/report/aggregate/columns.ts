/**
 * Columns of numbers, one per row of a cell, in the narrowest encoding that gives every value back
 * exactly. A column is a list of chunks (64 values at first, doubling up to CHUNK_MAX), so it grows
 * without ever copying what it holds; each chunk is encoded on its own:
 *
 * - constant: no array at all while every value is the same (an all-missing or constant column costs
 *   nothing per row);
 * - u8 / u16 / u32 with a decimal scale d: the integer k stands for k / 10^d. Integers are d = 0;
 *   0.001779 is k = 1779, d = 6. Both k / 10^d and the parsed decimal are the correctly rounded double
 *   of the same rational, so decoding gives back the very double that was pushed (pushing checks it
 *   anyway). The type's largest value stands for a missing value (NaN);
 * - f64: any other double.
 *
 * A value that does not fit its chunk upgrades that chunk only (a wider type, a larger scale, or
 * f64): a copy of at most CHUNK_MAX values. A new chunk starts in its predecessor's encoding, so a
 * column of fractions does not find out again with every chunk.
 */

/** Values per chunk, at most: an upgrade or a trim copies no more than this. */
export const CHUNK_MAX = 16_384
const CHUNK_FIRST = 64
/** Decimal places a scaled integer may have (more: f64). */
const SCALE_MAX = 9
const POWERS_OF_TEN = Array.from({length: SCALE_MAX + 1}, (_, d) => 10 ** d)

/**
 * Reused buffers for decoding a cell's columns: a report decodes thousands of them, and a fresh array
 * for each leaves freed blocks that the allocator keeps (a 10M-row report peaked at 1 GB RSS that way).
 * Buffers up to SCRATCH_KEEP_BYTES are kept, larger ones are allocated each time. Each slot has one
 * user at a time: the functions that take one never call each other.
 */
const SCRATCH_KEEP_BYTES = 32 << 20
type ScratchSlot =
  | 'values'
  | 'flags'
  | 'sorted'
  | 'baseline values'
  | 'baseline keys'
  | 'candidate values'
  | 'candidate keys'
  | 'wall'
  | 'agent'
  | 'blocks'
  | 'radix'
const scratchBuffers = new Map<ScratchSlot, ArrayBuffer>()

function scratchBuffer(slot: ScratchSlot, bytes: number): ArrayBuffer {
  const kept = scratchBuffers.get(slot)
  if (kept && kept.byteLength >= bytes) return kept
  const buffer = new ArrayBuffer(bytes)
  if (bytes <= SCRATCH_KEEP_BYTES) scratchBuffers.set(slot, buffer)
  return buffer
}

export function scratchFloat64(slot: ScratchSlot, length: number): Float64Array {
  return new Float64Array(scratchBuffer(slot, length * 8), 0, length)
}

export function scratchUint8(slot: ScratchSlot, length: number): Uint8Array {
  return new Uint8Array(scratchBuffer(slot, length), 0, length)
}

type IntArray = Uint8Array | Uint16Array | Uint32Array
type ChunkData = IntArray | Float64Array

/** One chunk: plain data, so that it crosses a worker boundary as it is (its array transferred). */
export interface Chunk {
  /** null: every value is `constant`. */
  data: ChunkData | null
  length: number
  capacity: number
  /** The value of a constant chunk (NaN: missing). */
  constant: number
  /** Integer chunks: the decimal scale d (k stands for k / 10^d). */
  scale: number
  /** Integer chunks: the largest k stored. */
  max: number
  /** Integer chunks: the type's largest value, which marks a missing value; 0 for the others. */
  mark: number
}

const missingMark = (data: ChunkData | null): number =>
  data instanceof Uint8Array
    ? 0xff
    : data instanceof Uint16Array
      ? 0xffff
      : data instanceof Uint32Array
        ? 0xffffffff
        : 0

/** An integer array type that holds every k up to `max` (and its missing marker), or undefined. */
function intTypeFor(max: number): typeof Uint8Array | typeof Uint16Array | typeof Uint32Array | undefined {
  if (max < 0xff) return Uint8Array
  if (max < 0xffff) return Uint16Array
  if (max < 0xffffffff) return Uint32Array
  return undefined
}

/** k with k / 10^scale === value exactly (k a non-negative integer below 2^32 - 1), or -1. */
function scaledInteger(value: number, scale: number): number {
  if (!(value > 0 || Object.is(value, 0))) return -1
  const power = POWERS_OF_TEN[scale]!
  const k = scale === 0 ? value : Math.round(value * power)
  return Number.isInteger(k) && k < 0xffffffff && k / power === value ? k : -1
}

function decodeInto(chunk: Chunk, out: Float64Array, offset: number): void {
  const {data, length} = chunk
  if (data === null) {
    out.fill(chunk.constant, offset, offset + length)
    return
  }
  if (data instanceof Float64Array) {
    out.set(data.subarray(0, length), offset)
    return
  }
  const mark = chunk.mark
  const power = POWERS_OF_TEN[chunk.scale]!
  if (chunk.scale === 0) for (let i = 0; i < length; i++) out[offset + i] = data[i] === mark ? Number.NaN : data[i]!
  else for (let i = 0; i < length; i++) out[offset + i] = data[i] === mark ? Number.NaN : data[i]! / power
}

/** A chunk re-encoded so that it also holds `value`: the smallest scale and narrowest type that fit both, else f64. */
function upgraded(chunk: Chunk, value: number): Chunk {
  // What the chunk holds so far, as (scale, largest k); a constant chunk holds one value (or none: missing).
  let from = chunk.data === null ? 0 : chunk.scale
  let existing = chunk.data === null ? 0 : chunk.max
  if (chunk.data === null && !Number.isNaN(chunk.constant)) {
    for (; from <= SCALE_MAX && scaledInteger(chunk.constant, from) < 0; from++);
    existing = from <= SCALE_MAX ? scaledInteger(chunk.constant, from) : -1
  }
  let target: ChunkData | undefined
  let scale = from
  if (!(chunk.data instanceof Float64Array) && existing >= 0) {
    for (; scale <= SCALE_MAX; scale++) if (Number.isNaN(value) || scaledInteger(value, scale) >= 0) break
    if (scale <= SCALE_MAX) {
      existing *= POWERS_OF_TEN[scale - from]!
      const Type = intTypeFor(Math.max(existing, Number.isNaN(value) ? 0 : scaledInteger(value, scale)))
      if (Type) target = new Type(chunk.capacity)
    }
  }
  target ??= new Float64Array(chunk.capacity)
  const out: Chunk = {
    data: target,
    length: chunk.length,
    capacity: chunk.capacity,
    constant: Number.NaN,
    scale: 0,
    max: 0,
    mark: missingMark(target),
  }
  if (target instanceof Float64Array) {
    decodeInto(chunk, target, 0)
    return out
  }
  out.scale = scale
  if (chunk.data === null) {
    const missing = Number.isNaN(chunk.constant)
    target.fill(missing ? out.mark : existing, 0, chunk.length)
    out.max = missing ? 0 : existing
  } else {
    const old = chunk.data as IntArray
    const factor = POWERS_OF_TEN[scale - chunk.scale]!
    for (let i = 0; i < chunk.length; i++) target[i] = old[i] === chunk.mark ? out.mark : old[i]! * factor
    out.max = existing
  }
  return out
}

/**
 * A column of numbers, one per row. A missing value (no agent latency, no cost) is NaN, so every
 * column of a cell stays aligned with its rows.
 */
export class Column {
  chunks: Chunk[] = []
  length = 0
  /** The chunk being filled (the last one). */
  private last: Chunk | undefined

  push(value: number): void {
    let chunk = this.last
    if (chunk === undefined || chunk.length === chunk.capacity) chunk = this.nextChunk(chunk)
    const data = chunk.data
    // The common case first: an integer into an integer chunk of scale 0 (0 checked for -0, which only f64 keeps).
    if (
      data !== null &&
      chunk.scale === 0 &&
      value >>> 0 === value &&
      value < chunk.mark &&
      (value !== 0 || Object.is(value, 0))
    ) {
      data[chunk.length++] = value
      if (value > chunk.max) chunk.max = value
    } else this.pushSlowly(chunk, value)
    this.length++
  }

  private nextChunk(previous: Chunk | undefined): Chunk {
    const capacity = previous ? Math.min(CHUNK_MAX, previous.capacity * 2) : CHUNK_FIRST
    // A new chunk starts in its predecessor's encoding (a constant one starts constant again).
    const data = previous?.data ? new (previous.data.constructor as new (n: number) => ChunkData)(capacity) : null
    const chunk: Chunk = {
      data,
      length: 0,
      capacity,
      constant: Number.NaN,
      scale: previous?.data ? previous.scale : 0,
      max: 0,
      mark: missingMark(data),
    }
    this.chunks.push(chunk)
    this.last = chunk
    return chunk
  }

  private pushSlowly(chunk: Chunk, value: number): void {
    if (chunk.data === null) {
      if (chunk.length === 0 || Object.is(chunk.constant, value)) {
        chunk.constant = value
        chunk.length++
        return
      }
    } else if (chunk.data instanceof Float64Array) {
      chunk.data[chunk.length++] = value
      return
    } else {
      const k = Number.isNaN(value) ? chunk.mark : scaledInteger(value, chunk.scale)
      if (k >= 0 && (k < chunk.mark || Number.isNaN(value))) {
        chunk.data[chunk.length++] = k
        if (!Number.isNaN(value) && k > chunk.max) chunk.max = k
        return
      }
    }
    const wider = upgraded(chunk, value)
    this.chunks[this.chunks.length - 1] = wider
    this.last = wider
    this.pushSlowly(wider, value)
  }

  /** Every value in row order (NaN where missing), decoded into a new array. */
  values(): Float64Array {
    return this.valuesInto(new Float64Array(this.length))
  }

  /** Every value in row order, decoded into `out` (at least `length` long). */
  valuesInto(out: Float64Array): Float64Array {
    let offset = 0
    for (const chunk of this.chunks) {
      decodeInto(chunk, out, offset)
      offset += chunk.length
    }
    return out
  }

  /** Adds another column's chunks after this one's, without copying them (they now belong to this column). */
  appendChunks(chunks: Chunk[]): void {
    this.seal()
    for (const chunk of chunks) {
      if (chunk.length === 0) continue
      this.chunks.push({...chunk, capacity: chunk.length})
      this.length += chunk.length
    }
    this.last = this.chunks.at(-1)
  }

  /** Frees the unused room of the last chunk (before the column is handed on, or read for good). */
  seal(): void {
    const last = this.chunks.at(-1)
    if (!last || last.length === last.capacity) return
    if (last.data) last.data = last.data.slice(0, last.length)
    last.capacity = last.length
  }

  /** The column's chunks, sealed, to cross a worker boundary. */
  portable(): Chunk[] {
    this.seal()
    return this.chunks
  }

  static fromChunks(chunks: Chunk[]): Column {
    const column = new Column()
    column.appendChunks(chunks)
    return column
  }

  /** Bytes the column's arrays take (the chunk objects aside). */
  byteLength(): number {
    return this.chunks.reduce((n, c) => n + (c.data?.byteLength ?? 0), 0)
  }
}

/** A column of 0/1 flags, aligned with a cell's rows. */
export class FlagColumn {
  readonly column = new Column()

  get length(): number {
    return this.column.length
  }

  push(flag: boolean): void {
    this.column.push(flag ? 1 : 0)
  }

  values(): Uint8Array {
    return this.valuesInto(new Uint8Array(this.length))
  }

  valuesInto(out: Uint8Array): Uint8Array {
    let offset = 0
    for (const chunk of this.column.chunks) {
      // Flags are 0 and 1: a constant chunk, or a u8 chunk of scale 0 with no value missing.
      if (chunk.data === null) out.fill(chunk.constant, offset, offset + chunk.length)
      else out.set(chunk.data.subarray(0, chunk.length), offset)
      offset += chunk.length
    }
    return out
  }
}

/** The values that are not NaN, sorted ascending; `owned` sorts in place. */
export function presentSorted(values: Float64Array, owned = false): Float64Array {
  const own = owned ? values : values.slice()
  let n = 0
  for (let i = 0; i < own.length; i++) if (!Number.isNaN(own[i]!)) own[n++] = own[i]!
  return sortNumbers(own.subarray(0, n))
}

const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f
/** Below this many values the built-in sort is as fast. */
const RADIX_MIN = 1024
/** The radix passes over a double's two 32-bit words: [word, shift, bits], 11 bits at a time. */
const DIGITS = [
  [0, 0, 11],
  [0, 11, 11],
  [0, 22, 10],
  [1, 0, 11],
  [1, 11, 11],
  [1, 22, 10],
] as const
const BUCKETS = 2048
/** The digits' counts, reused by every sort (one sort runs at a time). */
const radixCounts = new Uint32Array(DIGITS.length * BUCKETS)

/**
 * Sorts doubles (no NaN) ascending in place, in the order Float64Array.prototype.sort gives (-0
 * before 0), by an LSD radix sort on their bits: the six 11-bit digits counted in one pass, and a
 * digit every value shares skipped (integers stored as doubles leave their low bits 0). Two to four
 * times faster than the built-in sort from a thousand values on; a 10M-row report sorts thousands of
 * cells' columns.
 */
export function sortNumbers(values: Float64Array): Float64Array {
  const n = values.length
  if (n < RADIX_MIN || !LITTLE_ENDIAN) return values.sort()
  const words = new Uint32Array(values.buffer, values.byteOffset, n * 2)
  const counts = radixCounts.fill(0)
  for (let i = 0; i < n; i++) {
    let lo = words[2 * i]!
    let hi = words[2 * i + 1]!
    // Bits to an unsigned order: a negative value flipped whole, a positive one with its sign bit set.
    if (hi & 0x80000000) {
      lo = ~lo >>> 0
      hi = ~hi >>> 0
    } else hi = (hi | 0x80000000) >>> 0
    words[2 * i] = lo
    words[2 * i + 1] = hi
    counts[lo & 0x7ff]!++
    counts[BUCKETS + ((lo >>> 11) & 0x7ff)]!++
    counts[2 * BUCKETS + (lo >>> 22)]!++
    counts[3 * BUCKETS + (hi & 0x7ff)]!++
    counts[4 * BUCKETS + ((hi >>> 11) & 0x7ff)]!++
    counts[5 * BUCKETS + (hi >>> 22)]!++
  }
  let from: Uint32Array = words
  let to: Uint32Array = new Uint32Array(scratchBuffer('radix', n * 8), 0, n * 2)
  for (const [pass, [word, shift, bits]] of DIGITS.entries()) {
    const mask = (1 << bits) - 1
    const base = pass * BUCKETS
    if (counts[base + ((from[word]! >>> shift) & mask)] === n) continue
    let total = 0
    for (let d = 0; d < BUCKETS; d++) {
      const c = counts[base + d]!
      counts[base + d] = total
      total += c
    }
    for (let i = 0; i < n; i++) {
      const at = counts[base + ((from[2 * i + word]! >>> shift) & mask)]!++
      to[2 * at] = from[2 * i]!
      to[2 * at + 1] = from[2 * i + 1]!
    }
    const swap = from
    from = to
    to = swap
  }
  if (from !== words) words.set(from)
  for (let i = 0; i < n; i++) {
    const hi = words[2 * i + 1]!
    if (hi & 0x80000000) words[2 * i + 1] = (hi & 0x7fffffff) >>> 0
    else {
      words[2 * i] = ~words[2 * i]! >>> 0
      words[2 * i + 1] = ~hi >>> 0
    }
  }
  return values
}
