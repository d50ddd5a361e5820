/**
 * Faults on demand, for reliability tests: a seeded share of requests answered with a server error,
 * a secondary rate limit (403 + retry-after), a 429, or delayed. Rules apply to all routes ('*'),
 * to one operationId (issues/get), or to 'graphql'. Scoped (`scopeTo`), faults hit only requests
 * made with the given tokens: the runner scopes them to its runs' agent tokens, so the system under
 * test gets them and the harness's own traffic (seeding, resets, checkpoints) never does. Faults are
 * counted per token, so a run knows how many its traffic received.
 */
import {mulberry32, type Random} from '../stats/random.js'

type FaultKind = '502' | '503' | 'secondary_rate_limit' | '429'

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
  private scope: ReadonlySet<string> | undefined
  /** How many faults were injected, by kind: tests check that retries really happened. */
  readonly injected: Record<string, number> = {}
  /** How many faults requests with each token received. */
  readonly injectedByToken = new Map<string, number>()

  configure(config: FaultConfig | undefined): void {
    this.rules = config?.rules ?? []
    this.random = mulberry32(config?.seed ?? 1)
  }

  /** Only requests with one of these tokens get faults (undefined: every request). The set is read live. */
  scopeTo(tokens: ReadonlySet<string> | undefined): void {
    this.scope = tokens
  }

  decide(route: string, token?: string): FaultOutcome {
    if (this.scope && (token === undefined || !this.scope.has(token))) return {delay_ms: 0}
    let delay = 0
    for (const rule of this.rules) {
      if (rule.route !== '*' && rule.route !== route) continue
      delay += rule.latency_ms ?? 0
      if (!rule.kind || this.random() >= rule.rate) continue
      this.injected[rule.kind] = (this.injected[rule.kind] ?? 0) + 1
      if (token !== undefined) this.injectedByToken.set(token, (this.injectedByToken.get(token) ?? 0) + 1)
      switch (rule.kind) {
        case '502':
          return {delay_ms: delay, status: 502, message: 'Server Error'}
        case '503':
          return {delay_ms: delay, status: 503, message: 'Service Unavailable'}
        case '429':
          return {
            delay_ms: delay,
            status: 429,
            headers: {'retry-after': String(rule.retry_after_s ?? 1)},
            message: 'Too Many Requests',
          }
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
