/**
 * Secrets never reach results, traces, logs or reports: every string written is passed through a
 * redactor that knows the run's own secrets (tokens, API keys, the values of every secret variable
 * the harness captured at start-up, URL credentials, bearer tokens) and the shapes of common ones.
 * A known secret is found in the forms it travels in (secretForms: percent-encoded, base64, base64
 * twice), whole-byte percent-encoding (decoded here), and cut by line breaks (wrapped base64, a token
 * split over two lines): in one pass over each string however many forms there are (SecretIndex).
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

/** Common secrets' shapes; `hints`, where given, are texts every match holds: a string without one is not searched. */
const SECRET_SHAPES: Array<{shape: RegExp; hints?: string[]}> = [
  {shape: /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, hints: ['_']}, // GitHub tokens
  {shape: /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, hints: ['github_pat_']},
  {shape: /\bsk-[A-Za-z0-9_-]{20,}\b/g, hints: ['sk-']}, // OpenAI-style keys
  {shape: /(authorization:\s*(?:bearer|token|basic)\s+)[^\s"']+/gi},
  {shape: /(\bbearer\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi}, // a bearer token anywhere (an error body that echoes it)
  // PEM keys, raw or with escaped newlines
  {
    shape: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
    hints: ['PRIVATE KEY-----'],
  },
  {shape: /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'<>]*:[^\s/@"'<>]+@/gi, hints: ['://', '@']}, // credentials in a URL: scheme://user:password@
]

export type Redactor = <T>(value: T) => T

/** A redactor for these secrets and every secret the process knows (captured variables, registered values). */
export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const given = [...secrets].filter((s): s is string => typeof s === 'string').flatMap(secretForms)
  const index = new SecretIndex(searchForms([...given, ...knownSecrets()]))
  const redactText = (text: string): string => {
    let out = redactKnown(text, index)
    for (const {shape, hints = []} of SECRET_SHAPES)
      if (hints.every((hint) => out.includes(hint)))
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
 * What is searched for: each form as the joined view writes it (its own line breaks inside a run of
 * token characters removed), trimmed too (a PEM file's last newline), and as the latin1 text of its
 * UTF-8 bytes (how a percent-decoded run reads); 8 characters at least.
 */
function searchForms(forms: readonly string[]): Set<string> {
  const found = new Set<string>()
  for (const form of new Set(forms.flatMap((f) => [f, f.trim()]))) {
    const joined = joinedView(form).text
    if (joined.length < 8) continue
    found.add(joined)
    if (Buffer.byteLength(joined) !== joined.length) found.add(Buffer.from(joined, 'utf8').toString('latin1'))
  }
  return found
}

/** Every known secret in `text`, in any form it knows, each occurrence (overlapping ones as one) replaced by [REDACTED]. */
function redactKnown(text: string, index: SecretIndex): string {
  const found: Array<[number, number]> = []
  findSecrets(text, index, found, true)
  if (found.length === 0) return text
  found.sort((a, b) => a[0] - b[0])
  let out = ''
  let copied = 0
  for (const [start, end] of found) {
    if (end <= copied) continue
    if (start >= copied) out += `${text.slice(copied, start)}[REDACTED]`
    copied = end
  }
  return out + text.slice(copied)
}

/**
 * Pushes [start, end) of each known secret in `text`. The search runs on the joined view, so a secret
 * cut by line breaks (wrapped base64, a token split over two lines, escaped "\n" in JSON) is found
 * whole; a run of percent-encoded bytes (%67%68%70…, either case) is decoded and searched too.
 */
function findSecrets(text: string, index: SecretIndex, found: Array<[number, number]>, decodePercent: boolean): void {
  const view = joinedView(text)
  const inView: Array<[number, number]> = []
  index.find(view.text, inView)
  if (decodePercent)
    for (const [at, bytes] of percentRuns(view.text)) {
      const decoded = Buffer.from(view.text.slice(at, at + bytes * 3).replaceAll('%', ''), 'hex').toString('latin1')
      const inRun: Array<[number, number]> = []
      findSecrets(decoded, index, inRun, false)
      for (const [start, end] of inRun) inView.push([at + start * 3, at + end * 3])
    }
  for (const [start, end] of inView) found.push([view.toText(start, false), view.toText(end, true)])
}

/** [start, bytes] of each run of 8 or more percent-encoded bytes (%67%68%70…, hex digits of either case): a secret encoded whole. */
function percentRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = []
  for (let at = text.indexOf('%'); at >= 0;) {
    let bytes = 0
    while (isHex(text.charCodeAt(at + bytes * 3 + 1)) && isHex(text.charCodeAt(at + bytes * 3 + 2))) {
      bytes++
      if (text.charCodeAt(at + bytes * 3) !== 37) break
    }
    if (bytes >= 8) runs.push([at, bytes])
    at = text.indexOf('%', at + Math.max(1, bytes * 3))
  }
  return runs
}

const isHex = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102)

/**
 * Characters of a token, a key, base64 (either alphabet), hex or percent escapes: a line break between
 * two of them, real or escaped as in JSON, is where wrapping or a split may have cut a secret.
 */
const RUN_CHARACTER = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=%.~-')
  RUN_CHARACTER[c.charCodeAt(0)] = 1
const inRun = (text: string, at: number): boolean => RUN_CHARACTER[text.charCodeAt(at)] === 1

/** [start, length] of each line break in `text` that falls inside a run of token characters, in order. */
function breaksInRuns(text: string): Array<[number, number]> {
  const breaks: Array<[number, number]> = []
  const push = (start: number, end: number) => {
    if (inRun(text, start - 1) && inRun(text, end)) breaks.push([start, end - start])
  }
  // A real newline, after a carriage return or not.
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1))
    push(text.charCodeAt(at - 1) === 13 ? at - 1 : at, at + 1)
  // One escaped as JSON writes it ("\n", "\r\n"), once or more (JSON in a JSON string: "\\n").
  for (let at = text.indexOf('\\n'); at >= 0; at = text.indexOf('\\n', at + 2)) {
    let start = backslashesBefore(text, at + 1)
    if (text.charCodeAt(start - 1) === 114 && text.charCodeAt(start - 2) === 92)
      start = backslashesBefore(text, start - 1)
    push(start, at + 2)
  }
  // Both kinds in one text: in order again.
  return breaks.sort((a, b) => a[0] - b[0])
}

/** Where the backslashes right before `at` begin. */
function backslashesBefore(text: string, at: number): number {
  while (text.charCodeAt(at - 1) === 92) at--
  return at
}

interface JoinedView {
  text: string
  /** The position in `text` that the view's position `at` stands for (`end`: the end of a range, before a removed break). */
  toText(at: number, end: boolean): number
}

/** `text` without the line breaks inside runs of token characters, and the way back to `text`'s positions. */
function joinedView(text: string): JoinedView {
  const cuts = breaksInRuns(text)
  if (cuts.length === 0) return {text, toText: (at) => at}
  // breaks[i]: where the i-th removed break was, in the view; removed[i]: characters removed up to it, itself included.
  const breaks: number[] = []
  const removed: number[] = []
  let view = ''
  let copied = 0
  for (const [start, length] of cuts) {
    view += text.slice(copied, start)
    copied = start + length
    breaks.push(view.length)
    removed.push((removed.at(-1) ?? 0) + length)
  }
  view += text.slice(copied)
  return {
    text: view,
    toText(at, end) {
      // How many breaks come before `at` (at it too, for a start: the range begins after the break).
      let low = 0
      let high = breaks.length
      while (low < high) {
        const middle = (low + high) >> 1
        if (end ? breaks[middle]! < at : breaks[middle]! <= at) low = middle + 1
        else high = middle
      }
      return at + (low > 0 ? removed[low - 1]! : 0)
    },
  }
}

/** Characters hashed at each sampled position of a text, and the length from which a secret is found by sampling. */
const GRAM = 8
const SAMPLED = 16
/** Sampled positions are this far apart: every occurrence of a secret of SAMPLED characters or more holds one, GRAM characters in. */
const STEP = SAMPLED - GRAM + 1

/**
 * Finds many secrets in one pass, however many forms they have: the text is hashed only at every
 * STEP-th position, looked up among the hashes of each secret's first STEP windows, and a candidate
 * is checked in place. Shorter secrets (8 to 15 characters, few) are searched for one by one.
 */
class SecretIndex {
  private readonly short: string[] = []
  private readonly windows = new Map<number, Array<{secret: string; offset: number}>>()
  /** Whether any window hashes to these low 16 bits: most samples end at this look, before the map's. */
  private readonly seen = new Uint8Array(1 << 16)

  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      if (secret.length < SAMPLED) {
        this.short.push(secret)
        continue
      }
      for (let offset = 0; offset < STEP; offset++) {
        const hash = hashAt(secret, offset)
        this.seen[hash & 0xffff] = 1
        const list = this.windows.get(hash)
        if (list) list.push({secret, offset})
        else this.windows.set(hash, [{secret, offset}])
      }
    }
  }

  /** Pushes [start, end) of every occurrence of every secret in `text`. */
  find(text: string, found: Array<[number, number]>): void {
    for (const secret of this.short)
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1))
        found.push([at, at + secret.length])
    if (this.windows.size === 0) return
    for (let sample = 0; sample + GRAM <= text.length; sample += STEP) {
      const hash = hashAt(text, sample)
      if (this.seen[hash & 0xffff] === 0) continue
      const candidates = this.windows.get(hash)
      if (!candidates) continue
      for (const {secret, offset} of candidates) {
        const start = sample - offset
        if (start >= 0 && text.startsWith(secret, start)) found.push([start, start + secret.length])
      }
    }
  }
}

function hashAt(text: string, at: number): number {
  let hash = 0
  for (let i = at; i < at + GRAM; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0
  // A small integer: a map's fastest key.
  return hash & 0x3fffffff
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
