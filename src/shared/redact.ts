/**
 * Secrets never reach results, traces, logs or reports: every string written is passed through a
 * redactor that knows the run's own secrets (tokens, API keys, the values of every secret variable
 * the harness captured at start-up, URL credentials, bearer tokens) and the shapes of common ones.
 */
import {
  hideSecrets,
  isSecretName,
  knownSecrets,
  looksLikeToken,
  registerSecret,
  secretForms,
  withoutCredentials,
} from './process/secret-env.js'

/** A suite's mode or provider as it names it: a name, or a name with options (schemas/suite.ts PluginRef). */
type NamedPlugin = string | {options?: Record<string, unknown>}

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
  const given = [...secrets].filter((s): s is string => typeof s === 'string').flatMap(secretForms)
  const known = [...new Set([...given, ...knownSecrets()].filter((s) => s.length >= 8))].sort(
    (a, b) => b.length - a.length,
  )
  const redactText = (text: string): string => {
    let out = text
    for (const secret of known) out = out.split(secret).join('[REDACTED]')
    for (const shape of SECRET_SHAPES)
      out = out.replace(shape, (match, prefix?: unknown) =>
        typeof prefix === 'string' && match.startsWith(prefix)
          ? `${prefix}[REDACTED]${match.endsWith('@') ? '@' : ''}`
          : '[REDACTED]',
      )
    return out
  }
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value)
    if (Array.isArray(value)) return value.map(redact)
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]))
    return value
  }
  return redact as Redactor
}

/**
 * Secrets a suite names by variable (an MCP server's token_env, the endpoint's api_key_env) leave the
 * environment now, like the ones captured at start-up; secrets written into a mode's or a provider's
 * options are known to the redactor, whatever their option is called (optionSecrets).
 */
export function hideSuiteSecrets(
  modes: readonly NamedPlugin[],
  providers: readonly NamedPlugin[],
  config: {endpoint?: {api_key_env?: string}},
): void {
  const names: string[] = []
  if (config.endpoint?.api_key_env) names.push(config.endpoint.api_key_env)
  for (const ref of [...modes, ...providers]) {
    const found = optionSecrets(typeof ref === 'object' ? (ref.options ?? {}) : {})
    names.push(...found.variables)
    for (const value of found.values) registerSecret(value)
  }
  hideSecrets(names)
}

/** A variable's name, as `token_env: MCP_TOKEN` gives it. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Objects whose every value is a secret's place: a server's environment, request headers. */
const SECRET_MAPS = /^(env|environment|headers)$/i

/**
 * The secrets in a plugin's options: a value under a secret's name (token, authToken, api-key), every
 * value of an `env` or `headers` object, an argument after a secret's flag (`--token X`) or in one
 * (`--token=X`, `TOKEN=X`), the credentials and secret query parameters of a URL, and any value shaped
 * like a generated token wherever it is (an array item, an innocuously named option). `variables` are
 * the names of variables that hold secrets (`token_env: MCP_TOKEN`).
 */
export function optionSecrets(options: unknown): {values: string[]; variables: string[]} {
  const values: string[] = []
  const variables: string[] = []
  const visit = (value: unknown, key: string, secretPlace: boolean): void => {
    if (typeof value === 'string') {
      if (/(^|_)env$/i.test(key) && VARIABLE_NAME.test(value)) variables.push(value)
      else if (secretPlace || isSecretName(key) || looksLikeToken(value)) values.push(value)
      values.push(...secretsInText(value))
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, key, secretPlace || isSecretFlag(value[i - 1])))
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, k, SECRET_MAPS.test(key) && typeof v === 'string')
    }
  }
  visit(options, '', false)
  return {values, variables}
}

/** `--token`, `-api-key`, `--client-secret`: a flag whose next argument is a secret. */
function isSecretFlag(item: unknown): boolean {
  return (
    typeof item === 'string' &&
    /^--?[A-Za-z]/.test(item) &&
    !item.includes('=') &&
    isSecretName(item.replace(/^-+/, ''))
  )
}

/** The secrets inside one string: `--token=X` or `TOKEN=X`, a URL's user:password and its secret query parameters. */
function secretsInText(text: string): string[] {
  const found: string[] = []
  const assignment = /^-{0,2}([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$/s.exec(text)
  if (assignment && isSecretName(assignment[1]!)) found.push(assignment[2]!)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    // For its effect: the URL's user and password become the process's known secrets (every redactor's).
    withoutCredentials(text)
    try {
      for (const [name, value] of new URL(text).searchParams)
        if (isSecretName(name) || looksLikeToken(value)) found.push(value)
    } catch {
      // not a URL after all: nothing more in it
    }
  }
  return found
}
