/**
 * Secrets never reach results, traces, logs or reports: every string written is passed through a
 * redactor that knows the run's own secrets (tokens, API keys) and the shapes of common ones.
 */

const SECRET_SHAPES = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{20,}\b/g, // OpenAI-style keys
  /(authorization:\s*(?:bearer|token)\s+)[^\s"']+/gi,
]

export type Redactor = <T>(value: T) => T

export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const known = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 8))].sort((a, b) => b.length - a.length)
  const redactText = (text: string): string => {
    let out = text
    for (const secret of known) out = out.split(secret).join('[REDACTED]')
    for (const shape of SECRET_SHAPES) out = out.replace(shape, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[REDACTED]` : '[REDACTED]'))
    return out
  }
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value)
    if (Array.isArray(value)) return value.map(redact)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]))
    return value
  }
  return redact as Redactor
}
