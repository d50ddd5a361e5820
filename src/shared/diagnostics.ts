/**
 * Diagnostics: the one shape every bad-input finding takes, from YAML syntax to cross-file checks.
 * A finding names file:line:col, carries the offending source line for the caret, and never a stack.
 */

export interface SourcePosition {
  line: number
  col: number
}

export interface Diagnostic {
  file: string
  /** 1-based; absent when the finding has no place in a file (an environment variable, a flag). */
  line?: number
  col?: number
  /** JSON pointer of the offending value inside the file, when there is one. */
  pointer?: string
  /** A short stable identifier of the finding's class, for --json consumers and tests. */
  code: DiagnosticCode
  message: string
  /** The source line the finding points at, kept so that printing needs no second read of the file. */
  sourceLine?: string
}

export type DiagnosticCode =
  | 'yaml_syntax'
  | 'schema'
  | 'unknown_key'
  | 'duplicate_id'
  | 'unknown_reference'
  | 'unbound_placeholder'
  | 'binding_path'
  | 'read_only'
  | 'condition_params'
  | 'plugin'
  | 'config'
  | 'io'

const BAD_INPUT: unique symbol = Symbol.for('ghx-bench.BadInputError')

/**
 * Thrown by services for input that a user must fix; commands turn it into exit code 2. Recognised by
 * its brand (`isBadInputError`), so one thrown through another copy of ghx-bench (a plugin's) is too.
 */
export class BadInputError extends Error {
  readonly diagnostics: Diagnostic[]

  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => formatLocation(d) + ' ' + d.message).join('\n'))
    this.name = 'BadInputError'
    this.diagnostics = sortDiagnostics(diagnostics)
  }

  get [BAD_INPUT](): true {
    return true
  }
}

export function isBadInputError(error: unknown): error is BadInputError {
  return typeof error === 'object' && error !== null && (error as {[BAD_INPUT]?: unknown})[BAD_INPUT] === true
}

function formatLocation(d: Diagnostic): string {
  if (d.line === undefined) return d.file
  return `${d.file}:${d.line}:${d.col ?? 1}`
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0),
  )
}

/** `file:line:col error: message`, then the offending line and a caret under the column. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${formatLocation(d)} error: ${d.message}`
  if (d.line === undefined || d.sourceLine === undefined) return head
  const gutter = String(d.line)
  const pad = ' '.repeat(gutter.length)
  const caretIndent = d.sourceLine.slice(0, Math.max(0, (d.col ?? 1) - 1)).replace(/[^\t]/g, ' ')
  return `${head}\n ${gutter} | ${d.sourceLine}\n ${pad} | ${caretIndent}^`
}

export function formatDiagnostics(diagnostics: Diagnostic[]): string {
  return sortDiagnostics(diagnostics).map(formatDiagnostic).join('\n')
}

/** Levenshtein distance, for "did you mean" hints on short identifiers. */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!
    previous[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return previous[b.length]!
}

/** The closest candidate within a distance that scales with the word, or undefined. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

export function suggestionSuffix(word: string, candidates: Iterable<string>): string {
  const list = [...candidates]
  const hint = didYouMean(word, list)
  return hint
    ? ` (did you mean "${hint}"?)`
    : list.length > 0 && list.length <= 12
      ? ` (known: ${list.join(', ')})`
      : ''
}
