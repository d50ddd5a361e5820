/**
 * Secrets never reach results, traces, logs or reports: every string written is passed through a
 * redactor that knows the run's own secrets (tokens, API keys, the values of every secret variable
 * the harness captured at start-up, URL credentials, bearer tokens) and the shapes of common ones.
 */
import type {ConfigValues} from '../config/schema.js'
import {hideSecrets, isSecretName, knownSecrets, registerSecret} from '../shared/process/secret-env.js'
import type {PluginRef} from '../schemas/suite.js'

const SECRET_SHAPES = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{20,}\b/g, // OpenAI-style keys
  /(authorization:\s*(?:bearer|token|basic)\s+)[^\s"']+/gi,
  /(\bbearer\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi, // a bearer token anywhere (an error body that echoes it)
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g, // PEM keys, raw or with escaped newlines
  /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'<>]*:[^\s/@"'<>]+@/gi, // credentials in a URL: scheme://user:password@
]

export type Redactor = <T>(value: T) => T

/** A redactor for these secrets and every secret the process knows (captured variables, registered values). */
export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const known = [...new Set([...secrets, ...knownSecrets()].filter((s): s is string => typeof s === 'string' && s.length >= 8))].sort((a, b) => b.length - a.length)
  const redactText = (text: string): string => {
    let out = text
    for (const secret of known) out = out.split(secret).join('[REDACTED]')
    for (const shape of SECRET_SHAPES) out = out.replace(shape, (match, prefix?: unknown) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[REDACTED]${match.endsWith('@') ? '@' : ''}` : '[REDACTED]'))
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

/**
 * Secrets a suite names by variable (an MCP server's token_env, the endpoint's api_key_env) leave the
 * environment now, like the ones captured at start-up; secrets written into a mode's or the provider's
 * options (a stdio server's env) are known to the redactor.
 */
export function hideSuiteSecrets(modes: readonly PluginRef[], config: Pick<ConfigValues, 'endpoint' | 'provider'>): void {
  const names: string[] = []
  if (config.endpoint?.api_key_env) names.push(config.endpoint.api_key_env)
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string') {
      if (/(^|_)env$/i.test(key) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) names.push(value)
      else if (isSecretName(key)) registerSecret(value)
    } else if (Array.isArray(value)) value.forEach((item) => visit(item))
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k)
  }
  for (const ref of [...modes, config.provider]) visit(typeof ref === 'object' ? (ref.options ?? {}) : {})
  hideSecrets(names)
}
