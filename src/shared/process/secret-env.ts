/**
 * Secrets stay out of the harness's own environment after start-up. The CLI captures every variable
 * that holds one (GH_TOKEN, OPENAI_API_KEY, GHX_BENCH_APP_PRIVATE_KEY, a custom endpoint's key, an MCP
 * server's token_env, …) and removes it from process.env; it also overwrites those bytes of the
 * process's initial environment block, which is what /proc/<pid>/environ shows to every process of the
 * same user (an agent's shell reading /proc/$PPID/environ included). The harness reads them back
 * through `harnessEnv()`; the redactor knows every captured value (`knownSecrets()`), plus the ones
 * registered at run time (URL credentials, bearer tokens of MCP servers).
 */
import {closeSync, openSync, readFileSync, readSync, writeSync} from 'node:fs'

/** Names of variables that hold secrets: tokens, keys, passwords, credentials. */
const SECRET_NAME = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|APIKEY|KEY)(_|$)/i
/** …unless the variable holds where a secret is, not the secret (a path, a variable name, a URL, an id). */
const NOT_A_SECRET = /_(PATH|FILE|ENV|DIR|URL|ID|HOST)$/i

// One keeping per process, shared by every copy of this module (a plugin may resolve another install of
// ghx-bench): a secret one copy captured or registered is known to the redactor of every other.
interface SecretKeeping {
  captured: Map<string, string>
  registered: Set<string>
}
const KEEPING = Symbol.for('ghx-bench.secret-env')
const keeping: SecretKeeping = ((globalThis as {[KEEPING]?: SecretKeeping})[KEEPING] ??= {
  captured: new Map(),
  registered: new Set(),
})
const {captured, registered} = keeping

/** Whether a name (a variable's, an option's: GH_TOKEN, authToken, api-key) says that its value is a secret. */
export function isSecretName(name: string): boolean {
  // camelCase and kebab-case words are words too: authToken reads as auth_Token, api-key as api_key.
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-.]/g, '_')
  return SECRET_NAME.test(words) && !NOT_A_SECRET.test(words)
}

/**
 * A value shaped like a generated credential whatever it is called: one word of 16 or more characters
 * of a token's alphabet, with at least six digits and four letters (a random token, hex or base64 has
 * them; a word, a path, a URL, a version or a package name has not).
 */
export function looksLikeToken(value: string): boolean {
  if (value.length < 16 || value.length > 4096 || !/^[A-Za-z0-9_+/=.~:-]+$/.test(value)) return false
  if (/^[./~]|\/\//.test(value)) return false
  return value.replace(/[^0-9]/g, '').length >= 6 && value.replace(/[^A-Za-z]/g, '').length >= 4
}

/**
 * Moves secret variables out of `env` (by default every variable whose name says it holds one, plus
 * `names`) into the harness's own keeping, and scrubs them from the process's environment block.
 */
export function hideSecrets(names: Iterable<string> = [], env: NodeJS.ProcessEnv = process.env): void {
  const wanted = new Set([...Object.keys(env).filter(isSecretName), ...names])
  for (const name of wanted) {
    const value = env[name]
    if (value === undefined) continue
    captured.set(name, value)
    delete env[name]
  }
  if (env === process.env) scrubEnvironBlock(new Set(captured.keys()))
}

/** The environment as the harness sees it: process.env with the captured secrets. */
export function harnessEnv(): NodeJS.ProcessEnv {
  return {...process.env, ...Object.fromEntries(captured)}
}

/** A secret the harness learnt at run time (a password in a URL, a bearer token): redacted like the rest. */
export function registerSecret(value: string | undefined): void {
  if (value) registered.add(value)
}

/** Every secret value the harness knows, in the forms it may be written in. */
export function knownSecrets(): string[] {
  return [...new Set([...captured.values(), ...registered].flatMap(secretForms))]
}

/** A secret's forms, computed once: every redactor built after it was captured or registered asks for them. */
const formsOf = new Map<string, string[]>()

/**
 * The forms a secret may be written in: as it is, per line, with its newlines escaped or not,
 * percent-encoded, base64, and base64 twice. Every byte percent-encoded (%67%68%70…, in either case)
 * is decoded by the redactor rather than listed here, and so are line breaks inside a run of
 * token characters (wrapped base64, a token split over two lines).
 */
export function secretForms(value: string): string[] {
  const cached = formsOf.get(value)
  if (cached) return cached
  const values = new Set<string>([value])
  // An App key is often stored with escaped newlines, and read with real ones (or the other way round).
  if (value.includes('\\n')) values.add(value.replaceAll('\\n', '\n'))
  if (value.includes('\n')) values.add(value.replaceAll('\n', '\\n'))
  // Each line of a multi-line secret (a PEM key's body) is a secret on its own.
  for (const line of value.split(/\\n|\n/))
    if (line.trim().length >= 16 && !/^-----/.test(line.trim())) values.add(line.trim())
  // As it travels: percent-encoded in a URL, base64 in a Basic auth header or a git credential (an endpoint may echo either).
  for (const form of [...values]) {
    values.add(encodeURIComponent(form))
    for (const encoded of base64Forms(form)) values.add(encoded)
    // Encoded twice (`base64 | base64`, a Basic header inside a base64 blob): each alignment's base64 encoded
    // again, and a long value's base64 as `base64` (76) and openssl (64) wrap it when it starts the input.
    for (const inner of [...base64Middles(form), ...wrappedBase64(form)])
      for (const twice of base64Forms(inner)) values.add(twice)
  }
  const forms = [...values]
  formsOf.set(value, forms)
  return forms
}

/**
 * The base64 (and base64url) text that encodes `value` wherever it starts in the encoded bytes: for
 * each of the three alignments, the characters that depend on the value's bytes only (the edges also
 * depend on the bytes around it). Too short a value has no stable middle worth redacting.
 */
export function base64Forms(value: string): string[] {
  return base64Middles(value).flatMap((middle) => [middle, middle.replaceAll('+', '-').replaceAll('/', '_')])
}

/** base64Forms in the standard alphabet alone: one middle per alignment. */
function base64Middles(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  if (bytes.length < 6) return []
  const middles: string[] = []
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '')
    // Characters before `start` mix in the bytes before the value; those from `end` on, the bytes after it.
    const start = Math.ceil((shift * 4) / 3)
    const end = Math.floor(((shift + bytes.length) * 4) / 3)
    const middle = text.slice(start, end)
    if (middle.length >= 8) middles.push(middle)
  }
  return middles
}

/** The base64 of a value that starts the encoded input, wrapped at 76 and at 64 characters, where it is that long. */
function wrappedBase64(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  const own = bytes.toString('base64').slice(0, Math.floor((bytes.length * 4) / 3))
  return [76, 64]
    .filter((width) => own.length > width)
    .map((width) => own.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n'))
}

/** The user and password of a URL (`https://user:pass@host/`), registered as secrets; the URL without them. */
export function withoutCredentials(url: string): {url: string; username?: string; password?: string} {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return {url}
  }
  if (!parsed.username && !parsed.password) return {url}
  const username = decodeURIComponent(parsed.username)
  const password = decodeURIComponent(parsed.password)
  registerSecret(password)
  registerSecret(parsed.username)
  registerSecret(password && `${parsed.username}:${parsed.password}`)
  parsed.username = ''
  parsed.password = ''
  return {url: parsed.toString(), username, password}
}

/**
 * Overwrites NAME=value of the given variables in this process's initial environment block (between
 * env_start and env_end of /proc/self/stat) with asterisks, through /proc/self/mem. The variables
 * were removed from process.env first, so nothing points at those bytes any more. Best effort: on a
 * system without /proc, or where the write is refused, the block is left as it is.
 */
function scrubEnvironBlock(names: ReadonlySet<string>): boolean {
  if (names.size === 0) return true
  let fd: number | undefined
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 50 and 51 (1-based), counted from field 3 here.
    const start = Number(fields[47])
    const end = Number(fields[48])
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || end - start > 1 << 24)
      return false
    fd = openSync('/proc/self/mem', 'r+')
    const block = Buffer.alloc(end - start)
    readSync(fd, block, 0, block.length, start)
    let offset = 0
    let scrubbed = false
    while (offset < block.length) {
      let next = block.indexOf(0, offset)
      if (next < 0) next = block.length
      const entry = block.subarray(offset, next)
      const equals = entry.indexOf(0x3d)
      if (equals > 0 && names.has(entry.subarray(0, equals).toString('latin1'))) {
        const stars = Buffer.alloc(entry.length - equals - 1, 0x2a)
        writeSync(fd, stars, 0, stars.length, start + offset + equals + 1)
        scrubbed = true
      }
      offset = next + 1
    }
    return scrubbed
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
