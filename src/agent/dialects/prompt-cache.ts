/**
 * A run's prompt cache, as the provider behind a dialect keeps one: so that the scripted models
 * report cache reads and writes where the dialect has them, from the same tokenizer counts as the
 * input. A prefix of the prompt is known by the hash of its pieces; a later request that starts with
 * the same pieces reads it back.
 */
import {createHash} from 'node:crypto'
import type {PromptCaching, PromptSegment, TurnUsage} from './dialect.js'

/** Anthropic caches no prefix shorter than this (Opus and Sonnet); OpenAI starts caching at the same length. */
const MIN_CACHED_TOKENS = 1024
/** OpenAI reports cache hits in steps of this many tokens. */
const AUTOMATIC_CACHE_STEP = 128

/** Cache entries one run keeps: far more than a run's turns, a bound against a runaway client. */
const MAX_ENTRIES = 50_000

export class PromptCache {
  /** Prefix hash -> the prefix's tokens. */
  private readonly entries = new Map<string, number>()

  /**
   * The prompt's tokens split into input, cache read and cache write, remembering what this request
   * writes. `counts[i]` is the tokens of `segments[i]`.
   */
  account(
    caching: PromptCaching,
    segments: readonly PromptSegment[],
    counts: readonly number[],
  ): Omit<TurnUsage, 'output'> {
    const total = counts.reduce((sum, n) => sum + n, 0)
    if (caching === 'none') return {input: total, cacheRead: 0, cacheWrite: 0}
    const prefixes = prefixTotals(segments, counts)
    // Only a prefix the request asks to cache (explicit) or any prefix (automatic) can be read back.
    const lastBreakpoint = caching === 'explicit' ? segments.findLastIndex((s) => s.breakpoint) : prefixes.length - 1
    let read = 0
    for (let i = lastBreakpoint; i >= 0; i--) {
      const cached = this.entries.get(prefixes[i]!.hash)
      if (cached !== undefined) {
        read = cached
        break
      }
    }
    if (caching === 'automatic') {
      read = read >= MIN_CACHED_TOKENS ? read - (read % AUTOMATIC_CACHE_STEP) : 0
      for (const prefix of prefixes) if (prefix.tokens >= MIN_CACHED_TOKENS) this.remember(prefix.hash, prefix.tokens)
      return {input: total - read, cacheRead: read, cacheWrite: 0}
    }
    let written = 0
    for (const [index, segment] of segments.entries()) {
      const prefix = prefixes[index]!
      if (!segment.breakpoint || prefix.tokens < MIN_CACHED_TOKENS) continue
      if (!this.entries.has(prefix.hash)) written = prefix.tokens
      this.remember(prefix.hash, prefix.tokens)
    }
    const cacheWrite = Math.max(0, written - read)
    return {input: total - read - cacheWrite, cacheRead: read, cacheWrite}
  }

  private remember(hash: string, tokens: number): void {
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(hash))
      this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(hash, tokens)
  }
}

/** Each prefix of the prompt (up to and including segment i): its hash, chained, and its tokens. */
function prefixTotals(
  segments: readonly PromptSegment[],
  counts: readonly number[],
): Array<{hash: string; tokens: number}> {
  let hash = ''
  let tokens = 0
  return segments.map((segment, index) => {
    hash = createHash('sha256').update(hash).update('\0').update(segment.text).digest('hex')
    tokens += counts[index]!
    return {hash, tokens}
  })
}
