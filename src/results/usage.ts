/**
 * A run's usage as a row holds it: its tokens (total, active = total - cache reads) and its cost from
 * a price table. The runner writes them into rows; the simulation prices the runs it plays the same way.
 */
import type {Usage} from '../plugins/api.js'
import type {Tokens} from './row-schema.js'

/** Dollars per million tokens; cache reads and writes at the input price unless given. */
export interface Price {
  input: number
  output: number
  cache_read?: number
  cache_write?: number
}

export function tokensOf(usage: Usage): Tokens {
  const total = usage.input + usage.output + usage.reasoning + usage.cache_read + usage.cache_write
  return {...usage, total, active: total - usage.cache_read}
}

export function priceOf(usage: Usage, price: Price): number {
  const perToken = (perMillion: number) => perMillion / 1_000_000
  return (
    usage.input * perToken(price.input) +
    (usage.output + usage.reasoning) * perToken(price.output) +
    usage.cache_read * perToken(price.cache_read ?? price.input) +
    usage.cache_write * perToken(price.cache_write ?? price.input)
  )
}
