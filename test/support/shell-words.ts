/**
 * A small reader of the POSIX shell, enough to find the commands of a reference plan's shell step:
 * words with their quoting removed, the dynamic parts left as such ($(...), `...`, $name), pipes,
 * redirections and here-documents. It does not run anything and does not expand anything.
 */

export type Part = {kind: 'text'; text: string} | {kind: 'subst'; script: string} | {kind: 'var'; name: string}

export interface Word {
  parts: Part[]
}

export interface Redirect {
  /** `<`, `>`, `>>`, `>&`, `&>`, `<<<` (a here-string: its target is the command's input). */
  op: string
  target: Word
}

export interface SimpleCommand {
  words: Word[]
  redirects: Redirect[]
  /** The body of a here-document (`<<EOF`), as a word: quoted delimiters keep it literal. */
  heredoc?: Word
}

/** Commands joined by `|`. */
export interface Pipeline {
  commands: SimpleCommand[]
}

const BLANK = new Set([' ', '\t'])

/** The literal text of a word when it has no dynamic part, else undefined. */
export function literal(word: Word | undefined): string | undefined {
  if (!word) return undefined
  let text = ''
  for (const part of word.parts) {
    if (part.kind !== 'text') return undefined
    text += part.text
  }
  return text
}

/** A word's text with each dynamic part replaced by what `resolve` gives for it. */
export function wordText(word: Word, resolve: (part: Exclude<Part, {kind: 'text'}>) => string): string {
  return word.parts.map((part) => (part.kind === 'text' ? part.text : resolve(part))).join('')
}

class Reader {
  i = 0
  constructor(readonly s: string) {}

  /** The script inside `$(`…`)`, the reader standing just after `$(`; leaves it after the `)`. */
  balanced(): string {
    const start = this.i
    let depth = 1
    while (this.i < this.s.length) {
      const c = this.s[this.i]!
      if (c === '\\') this.i += 2
      else if (c === "'") this.i = this.s.indexOf("'", this.i + 1) + 1 || this.s.length
      else if (c === '"') this.skipDouble()
      else if (c === '(') {
        depth++
        this.i++
      } else if (c === ')') {
        if (--depth === 0) {
          this.i++
          return this.s.slice(start, this.i - 1)
        }
        this.i++
      } else this.i++
    }
    throw new Error(`unbalanced $( in: ${this.s}`)
  }

  private skipDouble(): void {
    this.i++
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      if (this.s[this.i] === '\\') this.i += 2
      else if (this.s.startsWith('$(', this.i)) {
        this.i += 2
        this.balanced()
      } else this.i++
    }
    this.i++
  }

  /** `$…` at the reader: an expansion, or a plain `$`. Returns the part and moves past it. */
  dollar(inDouble: boolean): Part {
    const next = this.s[this.i + 1]
    if (next === '(') {
      this.i += 2
      return {kind: 'subst', script: this.balanced()}
    }
    if (next === '{') {
      const end = this.s.indexOf('}', this.i)
      const name = this.s.slice(this.i + 2, end)
      this.i = end + 1
      return {kind: 'var', name}
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9?$#@*!-])/.exec(this.s.slice(this.i + 1))
    if (name) {
      this.i += 1 + name[0].length
      return {kind: 'var', name: name[0]}
    }
    if (next === "'" && !inDouble) {
      const end = this.s.indexOf("'", this.i + 2)
      const text = this.s
        .slice(this.i + 2, end)
        .replace(/\\n/g, '\n')
        .replace(/\\t/g, '\t')
        .replace(/\\(['"\\])/g, '$1')
      this.i = end + 1
      return {kind: 'text', text}
    }
    this.i++
    return {kind: 'text', text: '$'}
  }

  backquote(): Part {
    const end = this.s.indexOf('`', this.i + 1)
    const script = this.s.slice(this.i + 1, end)
    this.i = end + 1
    return {kind: 'subst', script}
  }

  /** Double-quoted content up to the closing quote (or to the end, for a here-document body). */
  double(untilQuote: boolean): Part[] {
    const parts: Part[] = []
    while (this.i < this.s.length) {
      const c = this.s[this.i]!
      if (untilQuote && c === '"') {
        this.i++
        return parts
      }
      if (c === '\\') {
        const next = this.s[this.i + 1]
        if (next === '\n') {
          this.i += 2
          continue
        }
        push(parts, next !== undefined && '$`"\\'.includes(next) ? next : c + (next ?? ''))
        this.i += 2
      } else if (c === '$') parts.push(this.dollar(true))
      else if (c === '`') parts.push(this.backquote())
      else {
        push(parts, c)
        this.i++
      }
    }
    if (untilQuote) throw new Error(`unterminated double quote in: ${this.s}`)
    return parts
  }
}

function push(parts: Part[], text: string): void {
  const last = parts.at(-1)
  if (last?.kind === 'text') last.text += text
  else parts.push({kind: 'text', text})
}

/** Reads a shell script into pipelines (`;`, `&&`, `||`, `&`, newlines and parentheses separate them). */
export function parseScript(script: string): Pipeline[] {
  const r = new Reader(script)
  const s = script
  const pipelines: Pipeline[] = []
  let pipeline: SimpleCommand[] = []
  let command: SimpleCommand = {words: [], redirects: []}
  let word: Part[] | null = null
  let redirectOp: string | null = null
  const heredocs: Array<{command: SimpleCommand; delimiter: string; quoted: boolean; stripTabs: boolean}> = []

  const endWord = () => {
    if (word === null) return
    if (redirectOp) command.redirects.push({op: redirectOp, target: {parts: word}})
    else command.words.push({parts: word})
    redirectOp = null
    word = null
  }
  const endCommand = () => {
    endWord()
    if (command.words.length > 0 || command.redirects.length > 0 || heredocs.some((h) => h.command === command))
      pipeline.push(command)
    command = {words: [], redirects: []}
  }
  const endPipeline = () => {
    endCommand()
    if (pipeline.length > 0) pipelines.push({commands: pipeline})
    pipeline = []
  }
  const text = (t: string) => push((word ??= []), t)

  while (r.i < s.length) {
    const c = s[r.i]!
    if (BLANK.has(c)) {
      endWord()
      r.i++
    } else if (c === '\n') {
      endPipeline()
      r.i++
      for (const doc of heredocs.splice(0)) {
        const lines: string[] = []
        while (r.i < s.length) {
          const end = s.indexOf('\n', r.i) === -1 ? s.length : s.indexOf('\n', r.i)
          let line = s.slice(r.i, end)
          r.i = end + 1
          if (doc.stripTabs) line = line.replace(/^\t+/, '')
          if (line === doc.delimiter) break
          lines.push(line)
        }
        const body = lines.map((l) => l + '\n').join('')
        doc.command.heredoc = doc.quoted
          ? {parts: [{kind: 'text', text: body}]}
          : {parts: new Reader(body).double(false)}
      }
    } else if (c === '#' && word === null) {
      while (r.i < s.length && s[r.i] !== '\n') r.i++
    } else if (c === '\\') {
      if (s[r.i + 1] !== '\n') text(s[r.i + 1] ?? '')
      r.i += 2
    } else if (c === "'") {
      const end = s.indexOf("'", r.i + 1)
      if (end === -1) throw new Error(`unterminated single quote in: ${s}`)
      text(s.slice(r.i + 1, end))
      r.i = end + 1
    } else if (c === '"') {
      r.i++
      word ??= []
      for (const part of r.double(true)) {
        if (part.kind === 'text') text(part.text)
        else word.push(part)
      }
      if (word.length === 0) word.push({kind: 'text', text: ''})
    } else if (c === '$') {
      const part = r.dollar(false)
      if (part.kind === 'text') text(part.text)
      else (word ??= []).push(part)
    } else if (c === '`') {
      ;(word ??= []).push(r.backquote())
    } else if (c === '|') {
      if (s[r.i + 1] === '|') {
        endPipeline()
        r.i += 2
      } else {
        endCommand()
        r.i += s[r.i + 1] === '&' ? 2 : 1
      }
    } else if (c === '&' && s[r.i + 1] === '>') {
      endWord()
      r.i += s[r.i + 2] === '>' ? 3 : 2
      redirectOp = '&>'
    } else if (c === '&' || c === ';' || c === '(' || c === ')') {
      endPipeline()
      r.i += s[r.i + 1] === c ? 2 : 1
    } else if (c === '<' || c === '>') {
      // A file descriptor number just before the operator (2>&1) belongs to it, not to the words.
      const only = word?.length === 1 ? word[0] : undefined
      if (only?.kind === 'text' && /^\d+$/.test(only.text)) word = null
      endWord()
      let op = ''
      while (r.i < s.length && (s[r.i] === '<' || s[r.i] === '>')) op += s[r.i++]!
      if (s[r.i] === '&' || (op === '<<' && s[r.i] === '-')) op += s[r.i++]!
      if (op === '<<' || op === '<<-') {
        while (BLANK.has(s[r.i] ?? '')) r.i++
        let raw = ''
        while (r.i < s.length && !BLANK.has(s[r.i]!) && !'\n;|&<>()'.includes(s[r.i]!)) raw += s[r.i++]!
        heredocs.push({
          command,
          delimiter: raw.replace(/['"\\]/g, ''),
          quoted: /['"\\]/.test(raw),
          stripTabs: op === '<<-',
        })
      } else redirectOp = op
    } else {
      text(c)
      r.i++
    }
  }
  endPipeline()
  return pipelines
}
