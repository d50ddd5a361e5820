/**
 * Which runs (run id, scenario, mode, provider, iteration) have been read: the key a row seen twice
 * (results.json and results.csv of the same run) is recognised by. One bit per iteration, per run id x
 * scenario x mode x provider, so ten million rows take about a megabyte, not a string each.
 */
import {BadInputError} from '../shared/diagnostics.js'

/** Iterations at or above this, or not whole numbers, are kept as strings (no bitmap that large). */
const BITMAP_LIMIT = 1 << 24

/** The keys as plain data, to cross a worker boundary. */
export interface PortableRunKeys {
  bitmaps: Array<[string, Uint8Array]>
  others: string[]
  /** Which of them passed: a bit each, as `bitmaps`, and the `others` that did. */
  passed: Array<[string, Uint8Array]>
  othersPassed: string[]
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

/** Sets bit `iteration` of the bitmap `map` holds under `key`, made or grown as needed; the bitmap. */
export function setBit(map: Map<string, Uint8Array>, key: string, iteration: number): Uint8Array {
  let bits = map.get(key)
  if (bits === undefined || iteration >> 3 >= bits.length) {
    const grown = new Uint8Array(Math.max(16, (iteration >> 3) + 1, (bits?.length ?? 0) * 2))
    if (bits) grown.set(bits)
    map.set(key, (bits = grown))
  }
  bits[iteration >> 3]! |= 1 << (iteration & 7)
  return bits
}

/** Whether bit `iteration` of a bitmap (none: no bit) is set. */
export const bitOf = (bits: Uint8Array | undefined, iteration: number): boolean =>
  bits !== undefined && iteration >> 3 < bits.length && (bits[iteration >> 3]! & (1 << (iteration & 7))) !== 0

/** OR of two bitmaps, into a copy of the longer one when the kept one is shorter. */
function orInto(map: Map<string, Uint8Array>, key: string, bits: Uint8Array): void {
  const own = map.get(key)
  if (!own) {
    map.set(key, bits.slice())
    return
  }
  const merged = own.length >= bits.length ? own : new Uint8Array(bits.length)
  if (merged !== own) merged.set(own)
  for (let i = 0; i < bits.length; i++) merged[i]! |= bits[i]!
  map.set(key, merged)
}

export class RunKeys {
  private readonly bitmaps = new Map<string, Uint8Array>()
  private readonly others = new Set<string>()
  /** Whether each run passed: two copies of a run that disagree are two different runs, never one counted once. */
  private readonly passedBits = new Map<string, Uint8Array>()
  private readonly othersPassed = new Set<string>()

  get empty(): boolean {
    return this.bitmaps.size === 0 && this.others.size === 0
  }

  has(group: RunGroup, iteration: number): boolean {
    if (!inBitmap(iteration)) return this.others.has(`${groupKey(group)}\u0000${iteration}`)
    return bitOf(this.bitmaps.get(groupKey(group)), iteration)
  }

  /** Whether the run, as first added, passed. */
  passed(group: RunGroup, iteration: number): boolean {
    if (!inBitmap(iteration)) return this.othersPassed.has(`${groupKey(group)}\u0000${iteration}`)
    return bitOf(this.passedBits.get(groupKey(group)), iteration)
  }

  add(group: RunGroup, iteration: number, passed = false): void {
    this.addIfNew(group, iteration, passed)
  }

  /** Adds the key (and whether the run passed); false when it was there already (one lookup for both). */
  addIfNew(group: RunGroup, iteration: number, passed = false): boolean {
    const key = groupKey(group)
    if (!inBitmap(iteration)) {
      const other = `${key}\u0000${iteration}`
      if (this.others.has(other)) return false
      this.others.add(other)
      if (passed) this.othersPassed.add(other)
      return true
    }
    if (bitOf(this.bitmaps.get(key), iteration)) return false
    setBit(this.bitmaps, key, iteration)
    if (passed) setBit(this.passedBits, key, iteration)
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
    const {bitmaps, others, passed, othersPassed} = other instanceof RunKeys ? other.portable() : other
    for (const [key, bits] of bitmaps) orInto(this.bitmaps, key, bits)
    for (const [key, bits] of passed) orInto(this.passedBits, key, bits)
    for (const key of others) this.others.add(key)
    for (const key of othersPassed) this.othersPassed.add(key)
  }

  portable(): PortableRunKeys {
    return {
      bitmaps: [...this.bitmaps],
      others: [...this.others],
      passed: [...this.passedBits],
      othersPassed: [...this.othersPassed],
    }
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
 * originals), unless its outcome differs: two inputs that disagree on a run are refused, never resolved
 * by the order the files are read in (a file named to sort first would otherwise replace a failure). A key the file itself gave before is a repeat: the store never writes a run twice in one
 * file, so a repeat is a file that was concatenated or edited, and which copy is the run cannot be told;
 * the reader refuses the file (bad input), since keeping either copy could hide a failed run. The file's
 * keys are kept (a bit per iteration) to find repeats and for the files still to come.
 */
export class FileDeduplication {
  duplicates = 0
  /** The first run the file gave twice, if any. */
  repeated: RepeatedRun | undefined
  /**
   * A run an earlier file gave with the other outcome: not a copy of it but another run under its key,
   * and which is the run cannot be told; the reader refuses it (bad input) rather than keep the first.
   */
  conflicting: (RepeatedRun & {passed: boolean}) | undefined
  readonly keys = new RunKeys()
  private readonly earlier: RunKeys | undefined

  /**
   * `replaced`: the file is an original whose rows its re-graded file, read before it, replaces; their
   * outcomes may differ (that is what re-grading is for).
   */
  constructor(
    earlier: RunKeys | undefined,
    private readonly replaced = false,
  ) {
    this.earlier = earlier && !earlier.empty ? earlier : undefined
  }

  /** Whether the row is new; a duplicate of an earlier file's is counted, a repeat within the file or a conflicting copy recorded. */
  fresh(group: RunGroup, iteration: number, passed: boolean): boolean {
    if (!this.keys.addIfNew(group, iteration, passed)) {
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
      if (!this.replaced && this.earlier.passed(group, iteration) !== passed)
        this.conflicting ??= {...repeatedRun(groupKey(group), iteration), passed}
      this.duplicates++
      return false
    }
    return true
  }
}

/** Bad input naming the row that gives a run an earlier input gave with the other outcome. */
export function conflictingRunError(shown: string, line: number, run: RepeatedRun & {passed: boolean}): BadInputError {
  const provider = run.provider ? `, provider ${JSON.stringify(run.provider)}` : ''
  return new BadInputError([
    {
      file: shown,
      line,
      col: 1,
      code: 'duplicate_id',
      message: `this row gives run_id ${JSON.stringify(run.run_id)}, scenario ${JSON.stringify(run.scenario_id)}, mode ${JSON.stringify(run.mode)}${provider}, iteration ${run.iteration} as ${run.passed ? 'passed' : 'not passed'}, and an earlier input gives the same run as ${run.passed ? 'not passed' : 'passed'}: two inputs disagree on one run, and which is the run cannot be told; give one of them`,
    },
  ])
}
