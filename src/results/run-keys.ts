/**
 * Which runs (run id, scenario, mode, provider, iteration) have been read: the key a row seen twice
 * (results.json and results.csv of the same run) is recognised by. One bit per iteration, per run id x
 * scenario x mode x provider, so ten million rows take about a megabyte, not a string each.
 */

/** Iterations at or above this, or not whole numbers, are kept as strings (no bitmap that large). */
const BITMAP_LIMIT = 1 << 24

/** The keys as plain data, to cross a worker boundary. */
export interface PortableRunKeys {
  bitmaps: Array<[string, Uint8Array]>
  others: string[]
}

/** A run's identity without its iteration; a row without a provider (a predecessor's) has ''. */
export interface RunGroup {
  run_id: string
  scenario_id: string
  mode: string
  provider: string | null
}

const groupKey = ({run_id, scenario_id, mode, provider}: RunGroup): string =>
  `${run_id}\u0000${scenario_id}\u0000${mode}\u0000${provider ?? ''}`

/** A run a file gives twice. */
export interface RepeatedRun extends RunGroup {
  iteration: number
}

function repeatedRun(group: string, iteration: number): RepeatedRun {
  const [run_id = '', scenario_id = '', mode = '', provider = ''] = group.split('\u0000')
  return {run_id, scenario_id, mode, provider: provider || null, iteration}
}

const inBitmap = (iteration: number): boolean =>
  Number.isInteger(iteration) && iteration >= 0 && iteration < BITMAP_LIMIT

export class RunKeys {
  private readonly bitmaps = new Map<string, Uint8Array>()
  private readonly others = new Set<string>()

  get empty(): boolean {
    return this.bitmaps.size === 0 && this.others.size === 0
  }

  has(group: RunGroup, iteration: number): boolean {
    if (!inBitmap(iteration)) return this.others.has(`${groupKey(group)}\u0000${iteration}`)
    const bits = this.bitmaps.get(groupKey(group))
    return bits !== undefined && iteration >> 3 < bits.length && (bits[iteration >> 3]! & (1 << (iteration & 7))) !== 0
  }

  add(group: RunGroup, iteration: number): void {
    this.addIfNew(group, iteration)
  }

  /** Adds the key; false when it was there already (one lookup for both). */
  addIfNew(group: RunGroup, iteration: number): boolean {
    const key = groupKey(group)
    if (!inBitmap(iteration)) {
      const other = `${key}\u0000${iteration}`
      if (this.others.has(other)) return false
      this.others.add(other)
      return true
    }
    let bits = this.bitmaps.get(key)
    if (bits === undefined || iteration >> 3 >= bits.length) {
      const grown = new Uint8Array(Math.max(16, (iteration >> 3) + 1, (bits?.length ?? 0) * 2))
      if (bits) grown.set(bits)
      this.bitmaps.set(key, (bits = grown))
    }
    const bit = 1 << (iteration & 7)
    if ((bits[iteration >> 3]! & bit) !== 0) return false
    bits[iteration >> 3]! |= bit
    return true
  }

  /** A key the two sets share, if any (a worker's range repeating a run of an earlier range of the same file). */
  shared(other: RunKeys | PortableRunKeys): RepeatedRun | undefined {
    const {bitmaps, others} = other instanceof RunKeys ? other.portable() : other
    for (const [key, bits] of bitmaps) {
      const own = this.bitmaps.get(key)
      if (!own) continue
      for (let i = 0; i < Math.min(own.length, bits.length); i++) {
        const both = own[i]! & bits[i]!
        if (both !== 0) return repeatedRun(key, i * 8 + 31 - Math.clz32(both & -both))
      }
    }
    const both = others.find((key) => this.others.has(key))
    if (both === undefined) return undefined
    const at = both.lastIndexOf('\u0000')
    return repeatedRun(both.slice(0, at), Number(both.slice(at + 1)))
  }

  /** Adds every key of another set. */
  addAll(other: RunKeys | PortableRunKeys): void {
    const {bitmaps, others} = other instanceof RunKeys ? other.portable() : other
    for (const [key, bits] of bitmaps) {
      const own = this.bitmaps.get(key)
      if (!own) {
        this.bitmaps.set(key, bits.slice())
        continue
      }
      const merged = own.length >= bits.length ? own : new Uint8Array(bits.length)
      if (merged !== own) merged.set(own)
      for (let i = 0; i < bits.length; i++) merged[i]! |= bits[i]!
      this.bitmaps.set(key, merged)
    }
    for (const key of others) this.others.add(key)
  }

  portable(): PortableRunKeys {
    return {bitmaps: [...this.bitmaps], others: [...this.others]}
  }

  static from(portable: PortableRunKeys): RunKeys {
    const keys = new RunKeys()
    keys.addAll(portable)
    return keys
  }
}

/**
 * One file's share of counting each run once. A row whose key an earlier file gave is a duplicate
 * (counted, left out: the results.json and results.csv of one run, a run's re-graded rows before its
 * originals). A key the file itself gave before is a repeat: the store never writes a run twice in one
 * file, so a repeat is a file that was concatenated or edited, and which copy is the run cannot be told;
 * the reader refuses the file (bad input), since keeping either copy could hide a failed run. The file's
 * keys are kept (a bit per iteration) to find repeats and for the files still to come.
 */
export class FileDeduplication {
  duplicates = 0
  /** The first run the file gave twice, if any. */
  repeated: RepeatedRun | undefined
  readonly keys = new RunKeys()
  private readonly earlier: RunKeys | undefined

  constructor(earlier: RunKeys | undefined) {
    this.earlier = earlier && !earlier.empty ? earlier : undefined
  }

  /** Whether the row is new; a duplicate of an earlier file's is counted, a repeat within the file recorded. */
  fresh(group: RunGroup, iteration: number): boolean {
    if (!this.keys.addIfNew(group, iteration)) {
      this.repeated ??= {
        run_id: group.run_id,
        scenario_id: group.scenario_id,
        mode: group.mode,
        provider: group.provider,
        iteration,
      }
      return false
    }
    if (this.earlier?.has(group, iteration)) {
      this.duplicates++
      return false
    }
    return true
  }
}
