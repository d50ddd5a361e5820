/**
 * Which runs (run id, scenario, mode, iteration) have been read: the key a row seen twice (results.json
 * and results.csv of the same run) is recognised by. One bit per iteration, per run id x scenario x
 * mode, so ten million rows take about a megabyte, not a string each.
 */

/** Iterations at or above this, or not whole numbers, are kept as strings (no bitmap that large). */
const BITMAP_LIMIT = 1 << 24

/** The keys as plain data, to cross a worker boundary. */
export interface PortableRunKeys {
  bitmaps: Array<[string, Uint8Array]>
  others: string[]
}

const groupKey = (runId: string, scenario: string, mode: string): string => `${runId}\u0000${scenario}\u0000${mode}`
const inBitmap = (iteration: number): boolean => Number.isInteger(iteration) && iteration >= 0 && iteration < BITMAP_LIMIT

export class RunKeys {
  private readonly bitmaps = new Map<string, Uint8Array>()
  private readonly others = new Set<string>()

  get empty(): boolean {
    return this.bitmaps.size === 0 && this.others.size === 0
  }

  has(runId: string, scenario: string, mode: string, iteration: number): boolean {
    if (!inBitmap(iteration)) return this.others.has(`${groupKey(runId, scenario, mode)}\u0000${iteration}`)
    const bits = this.bitmaps.get(groupKey(runId, scenario, mode))
    return bits !== undefined && iteration >> 3 < bits.length && (bits[iteration >> 3]! & (1 << (iteration & 7))) !== 0
  }

  add(runId: string, scenario: string, mode: string, iteration: number): void {
    const key = groupKey(runId, scenario, mode)
    if (!inBitmap(iteration)) {
      this.others.add(`${key}\u0000${iteration}`)
      return
    }
    let bits = this.bitmaps.get(key)
    if (bits === undefined || iteration >> 3 >= bits.length) {
      const grown = new Uint8Array(Math.max(16, (iteration >> 3) + 1, (bits?.length ?? 0) * 2))
      if (bits) grown.set(bits)
      this.bitmaps.set(key, (bits = grown))
    }
    bits[iteration >> 3]! |= 1 << (iteration & 7)
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
 * One file's share of counting each run once: a row whose key an earlier file gave is a duplicate
 * (counted, left out); the others' keys are kept for the files still to come.
 */
export class FileDeduplication {
  duplicates = 0
  /** This file's keys, when a later file will look them up. */
  readonly keys: RunKeys | undefined
  private readonly earlier: RunKeys | undefined

  constructor(earlier: RunKeys | undefined, keepKeys: boolean) {
    this.earlier = earlier && !earlier.empty ? earlier : undefined
    this.keys = keepKeys ? new RunKeys() : undefined
  }

  /** Whether the row is new; a duplicate is counted. */
  fresh(runId: string, scenario: string, mode: string, iteration: number): boolean {
    if (this.earlier?.has(runId, scenario, mode, iteration)) {
      this.duplicates++
      return false
    }
    this.keys?.add(runId, scenario, mode, iteration)
    return true
  }
}
