/**
 * Faults on demand, for reliability tests: a seeded share of requests answered with a server error,
 * a secondary rate limit (403 + retry-after), a 429, or delayed. Rules apply to all routes ('*'),
 * to one operationId (issues/get), or to 'graphql'.
 */
import {mulberry32, type Random} from '../stats/random.js'

export type FaultKind = '502' | '503' | 'secondary_rate_limit' | '429'

export interface FaultRule {
  route: string
  /** Share of matching requests that fail, 0..1. */
  rate: number
  kind?: FaultKind
  /** Added latency for every matching request, failing or not. */
  latency_ms?: number
  retry_after_s?: number
}

export interface FaultConfig {
  seed?: number
  rules: FaultRule[]
}

export interface FaultOutcome {
  delay_ms: number
  status?: number
  headers?: Record<string, string>
  message?: string
}

export class Faults {
  private rules: FaultRule[] = []
  private random: Random = mulberry32(1)
  /** How many faults were injected, by kind: tests check that retries really happened. */
  readonly injected: Record<string, number> = {}

  configure(config: FaultConfig | undefined): void {
    this.rules = config?.rules ?? []
    this.random = mulberry32(config?.seed ?? 1)
  }

  decide(route: string): FaultOutcome {
    let delay = 0
    for (const rule of this.rules) {
      if (rule.route !== '*' && rule.route !== route) continue
      delay += rule.latency_ms ?? 0
      if (!rule.kind || this.random() >= rule.rate) continue
      this.injected[rule.kind] = (this.injected[rule.kind] ?? 0) + 1
      switch (rule.kind) {
        case '502':
          return {delay_ms: delay, status: 502, message: 'Server Error'}
        case '503':
          return {delay_ms: delay, status: 503, message: 'Service Unavailable'}
        case '429':
          return {delay_ms: delay, status: 429, headers: {'retry-after': String(rule.retry_after_s ?? 1)}, message: 'Too Many Requests'}
        case 'secondary_rate_limit':
          return {
            delay_ms: delay,
            status: 403,
            headers: {'retry-after': String(rule.retry_after_s ?? 1)},
            message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          }
      }
    }
    return {delay_ms: delay}
  }
}
