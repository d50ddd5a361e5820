/**
 * A small shell tokenizer: enough of bash (and zsh) to find the simple commands of a line, for the
 * tool accounting (accounting.ts) to count the gh and tool-layer commands an agent's shell call ran.
 * It does not run or expand anything: quotes ('…', "…", $'…') and escapes are removed from words, while
 * expansions ($x, ${x}, $(…), `…`) stay in the word as written; the commands inside $(…), `…`,
 * <(…) and unquoted here-document bodies are read as commands of their own, listed before the
 * command that holds them (they run first). A here-document body is the command's stdin, never a
 * command line. Reserved words (if, then, do, done, {, }, …) are dropped where a command starts,
 * `for NAME in …` and `case WORD in` headers and case patterns are not commands.
 *
 * Hand-written, not a parser from npm: shell-quote only splits words and operators (it reads
 * `$(…)` and backquotes as loose tokens, drops `$n` and reads here-document bodies as words);
 * bash-parser is unmaintained and fails on `$(echo $(…))`, `2>&1`, arrays; mvdan/sh's JavaScript
 * builds are a 1.5 MB GopherJS bundle (mvdan-sh, superseded) or WASM behind an async API (sh-syntax)
 * and parse bash/mksh only: zsh lines and cut-off lines, which agents write, fail where this reads
 * them as far as they go.
 */

/** One simple command of a shell line. */
export interface ShellCommand {
  /** The words, quotes and escapes removed; expansions kept as written. */
  words: string[]
  /** The command as written, from its first word to its last (here-document body excluded). */
  text: string
  /** What it reads from a here-document (`<<EOF`) or here-string (`<<<`). */
  stdin?: string
}

/** Reserved words that may stand where a command starts and are no command themselves. */
const RESERVED = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'esac'])

class ShellReader {
  i = 0
  readonly commands: ShellCommand[] = []
  constructor(private readonly s: string) {}

  /** Reads commands to the end of the text or, when `closing`, up to and past the `)` that closes a `$(`. */
  read(closing: boolean): void {
    const s = this.s
    let command: ShellCommand = {words: [], text: ''}
    let word: string | null = null // the word being read; null between words
    let plain = true // the word has no quoting, escape or expansion (only then can it be a reserved word)
    let wordStart = 0
    let start = -1 // source span of the command
    let end = -1
    let target: 'file' | 'herestring' | 'heredoc' | null = null // the next word is a redirection's target
    let stripTabs = false
    let header: 'for' | 'case' | 'function' | null = null // words that are not a command
    let cases = 0 // open case statements
    let pattern = false // reading a case pattern (`a|b)`), up to its `)`
    let subshells = 0
    const heredocs: Array<{command: ShellCommand; delimiter: string; stripTabs: boolean; expand: boolean}> = []

    const endWord = () => {
      if (word === null) return
      const value = word
      word = null
      if (target) {
        if (target === 'heredoc') heredocs.push({command, delimiter: value, stripTabs, expand: plain})
        else if (target === 'herestring') command.stdin = value
        target = null
        if (start >= 0) end = this.i
      } else if (header) {
        // `for NAME in …` runs to the end of the command; `case WORD in` ends at `in`; `function NAME`.
        if (header === 'function' || (header === 'case' && plain && value === 'in')) {
          if (header === 'case') {
            cases++
            pattern = true
          }
          header = null
        }
      } else if (pattern || (command.words.length === 0 && plain && RESERVED.has(value))) {
        if (plain && value === 'esac' && cases > 0) {
          cases--
          pattern = false
        }
      } else if (
        command.words.length === 0 &&
        plain &&
        (value === 'for' || value === 'select' || value === 'case' || value === 'function')
      ) {
        header = value === 'select' ? 'for' : value
      } else {
        if (command.words.length === 0) start = wordStart
        command.words.push(value)
        end = this.i
      }
    }
    const dropWords = () => {
      word = null
      command.words = []
      start = end = -1
    }
    const flush = () => {
      endWord()
      if (command.words.length > 0) {
        command.text = s.slice(start, end).trim()
        this.commands.push(command)
      }
      command = {words: [], text: ''}
      start = end = -1
      target = null
      header = null
    }

    while (this.i < s.length) {
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === '\\' && next === '\n') {
        this.i += 2 // line continuation
      } else if (c === ' ' || c === '\t') {
        endWord()
        this.i++
      } else if (c === '\n') {
        flush()
        this.i++
        this.heredocBodies(heredocs.splice(0))
      } else if (c === '#' && word === null) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++ // a comment
      } else if (c === ';') {
        flush() // ; and the case terminators ;; ;& ;;&, after which comes a pattern
        if (cases > 0 && (next === ';' || next === '&')) pattern = true
        this.i += s.startsWith(';;&', this.i) ? 3 : next === ';' || next === '&' ? 2 : 1
      } else if (pattern && (c === '|' || c === '(')) {
        endWord() // a|b) or (a) in a case pattern
        this.i++
      } else if (c === '|' || (c === '&' && next !== '>')) {
        flush() // | || |& & &&
        this.i += next === c || (c === '|' && next === '&') ? 2 : 1
      } else if ((c === '<' || c === '>' || c === '&') && next !== '(') {
        // A redirection: `2>` drops its fd number; the next word is its target, not an argument.
        if (word !== null && plain && /^\d+$/.test(word)) word = null
        else endWord()
        if (s.startsWith('<<<', this.i)) {
          target = 'herestring'
          this.i += 3
        } else if (s.startsWith('<<', this.i)) {
          stripTabs = s[this.i + 2] === '-'
          target = 'heredoc'
          this.i += stripTabs ? 3 : 2
        } else {
          target = 'file' // < > >> >& <& <> >| &> &>>
          this.i++
          while (this.i < s.length && '<>&|'.includes(s[this.i]!)) this.i++
        }
      } else if (c === '(' && word === null && command.words.length === 0) {
        subshells++
        this.i++
      } else if (c === '(' && !(word ?? '').endsWith('=')) {
        // `name() { …; }`: a function definition; the name is no command.
        const close = s.indexOf(')', this.i)
        this.i = close < 0 ? s.length : close + 1
        dropWords()
      } else if (c === ')') {
        endWord()
        this.i++
        if (pattern) {
          pattern = false // the end of a case pattern
        } else {
          flush()
          if (subshells > 0) subshells--
          else if (closing) return
        }
      } else {
        // A character of a word.
        if (word === null) {
          word = ''
          plain = true
          wordStart = this.i
        }
        if (c === '\\') {
          word += next ?? ''
          plain = false
          this.i += 2
        } else if (c === "'") {
          const close = s.indexOf("'", this.i + 1)
          word += s.slice(this.i + 1, close < 0 ? s.length : close)
          plain = false
          this.i = close < 0 ? s.length : close + 1
        } else if (c === '"') {
          word += this.doubleQuoted()
          plain = false
        } else if (c === '$' && next === "'") {
          word += this.ansiC()
          plain = false
        } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
          word += this.substitution() // $(…), $((…)), <(…), >(…)
          plain = false
        } else if (c === '(') {
          word += this.substitution() // an array assignment a=(…): its words are no commands
          plain = false
        } else if (c === '$' && next === '{') {
          word += this.braced()
          plain = false
        } else if (c === '`') {
          word += this.backquoted()
          plain = false
        } else {
          if (c === '$') plain = false
          word += c
          this.i++
        }
      }
    }
    flush()
    this.heredocBodies(heredocs.splice(0)) // a here-document opened on the last line has no body
  }

  /** `$(…)`, `<(…)`, `>(…)` at the cursor: its commands are read; `$((…))` and `a=(…)` have none. Returns the text. */
  substitution(): string {
    const s = this.s
    const start = this.i
    if (s.startsWith('$((', this.i) || s[this.i] === '(') {
      if (s[this.i] === '$') this.i++
      let depth = 0
      do {
        if (s[this.i] === '(') depth++
        else if (s[this.i] === ')') depth--
        this.i++
      } while (this.i < s.length && depth > 0)
    } else {
      this.i += 2
      this.read(true)
    }
    return s.slice(start, this.i)
  }

  /** `` `…` `` at the cursor: its commands are read. Returns the text. */
  backquoted(): string {
    const s = this.s
    let close = this.i + 1
    while (close < s.length && s[close] !== '`') close += s[close] === '\\' ? 2 : 1
    const inner = new ShellReader(s.slice(this.i + 1, close).replace(/\\([`$\\])/g, '$1'))
    inner.read(false)
    this.commands.push(...inner.commands)
    const text = s.slice(this.i, close + 1)
    this.i = close + 1
    return text
  }

  /** `${…}` at the cursor, as written. */
  braced(): string {
    const start = this.i
    let depth = 0
    this.i++ // the $
    do {
      if (this.s[this.i] === '{') depth++
      else if (this.s[this.i] === '}') depth--
      this.i++
    } while (this.i < this.s.length && depth > 0)
    return this.s.slice(start, this.i)
  }

  /** `"…"` at the cursor: its value; \ escapes only $ ` " \ and newline; substitutions are read. */
  doubleQuoted(): string {
    const s = this.s
    let value = ''
    this.i++
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === '\\') {
        if (next !== '\n') value += next !== undefined && '$`"\\'.includes(next) ? next : c + (next ?? '')
        this.i += 2
      } else if (c === '$' && next === '(') value += this.substitution()
      else if (c === '$' && next === '{') value += this.braced()
      else if (c === '`') value += this.backquoted()
      else {
        value += c
        this.i++
      }
    }
    this.i++
    return value
  }

  /** `$'…'` at the cursor: its value, with the usual backslash escapes. */
  ansiC(): string {
    const s = this.s
    const escapes: Record<string, string> = {n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v'}
    let value = ''
    this.i += 2
    while (this.i < s.length && s[this.i] !== "'") {
      if (s[this.i] === '\\' && this.i + 1 < s.length) {
        const next = s[this.i + 1]!
        value += escapes[next] ?? next
        this.i += 2
      } else value += s[this.i++]
    }
    this.i++
    return value
  }

  /** The bodies of the here-documents opened on the line just ended: stdin of their commands. */
  heredocBodies(docs: Array<{command: ShellCommand; delimiter: string; stripTabs: boolean; expand: boolean}>): void {
    const s = this.s
    for (const doc of docs) {
      const lines: string[] = []
      while (this.i < s.length) {
        const lineEnd = s.indexOf('\n', this.i) < 0 ? s.length : s.indexOf('\n', this.i)
        const line = doc.stripTabs ? s.slice(this.i, lineEnd).replace(/^\t+/, '') : s.slice(this.i, lineEnd)
        this.i = lineEnd + 1
        if (line === doc.delimiter) break
        lines.push(line)
      }
      this.i = Math.min(this.i, s.length)
      const body = lines.length > 0 ? `${lines.join('\n')}\n` : ''
      doc.command.stdin = (doc.command.stdin ?? '') + body
      // An unquoted delimiter (<<EOF) lets $(…) and `…` run inside the body.
      if (doc.expand) {
        const inner = new ShellReader(body)
        while (inner.i < body.length) {
          const c = body[inner.i]
          if (c === '\\') inner.i += 2
          else if (c === '$' && body[inner.i + 1] === '(') inner.substitution()
          else if (c === '`') inner.backquoted()
          else inner.i++
        }
        this.commands.push(...inner.commands)
      }
    }
  }
}

/** The simple commands of a shell line, in the order they run (see the header). */
function parseShellCommands(line: string): ShellCommand[] {
  const reader = new ShellReader(line)
  reader.read(false)
  return reader.commands
}

/** The simple commands of a shell line, each as written. */
export function shellCommands(line: string): string[] {
  return parseShellCommands(line).map((command) => command.text)
}

/**
 * Words that run the command after them, with their options that take a value
 * (`noglob gh …`, `env -u X gh …`, `xargs -n 1 gh …`, `timeout 30 gh …`).
 */
const RUNNERS: Record<string, readonly string[]> = {
  noglob: [],
  nohup: [],
  builtin: [],
  time: [],
  command: [],
  exec: ['-a'],
  env: ['-u', '-C', '-S', '--unset', '--chdir'],
  nice: ['-n'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  xargs: ['-n', '-I', '-L', '-P', '-d', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  npx: ['-p', '--package'],
}

const basename = (word: string) => word.slice(word.lastIndexOf('/') + 1)
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

/** The program a command runs and its arguments, past assignments (`A=1`) and runners; none for `command -v gh`. */
export function programOf(words: readonly string[]): {name: string; args: string[]} | undefined {
  let k = 0
  while (k < words.length) {
    const word = words[k]!
    if (ASSIGNMENT.test(word)) {
      k++
      continue
    }
    const name = basename(word)
    const withValue = RUNNERS[name]
    if (!withValue) return {name, args: words.slice(k + 1)}
    if (name === 'command' && /^-[vV]$/.test(words[k + 1] ?? '')) return undefined // a lookup, not a run
    for (k++; k < words.length && words[k]!.startsWith('-');) {
      if (words[k] === '--') {
        k++
        break
      }
      k += withValue.includes(words[k]!) ? 2 : 1
    }
    if (name === 'timeout') k++ // its duration
  }
  return undefined
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash'])

/** The commands of a line, with those of the scripts it hands to a shell (`bash -c '…'`, `bash <<EOF`, `eval …`) added. */
export function commandsOf(line: string, depth = 0): ShellCommand[] {
  return parseShellCommands(line).flatMap((command) => {
    const run = programOf(command.words)
    let script: string | undefined
    if (run && SHELLS.has(run.name)) {
      const flag = run.args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a))
      script = flag >= 0 ? run.args[flag + 1] : run.args.every((a) => a.startsWith('-')) ? command.stdin : undefined
    } else if (run?.name === 'eval') script = run.args.join(' ')
    return script !== undefined && depth < 4 ? [command, ...commandsOf(script, depth + 1)] : [command]
  })
}

/** Shell builtins: a glob error on one of them stops the whole script in zsh. */
const BUILTINS = new Set([
  'echo',
  'print',
  'printf',
  'read',
  'test',
  '[',
  'cd',
  'export',
  'local',
  'declare',
  'typeset',
  'set',
  'eval',
  'source',
  '.',
  'let',
  'return',
  'exit',
])

/**
 * The commands of a call the shell says it never ran, read from its output (so, best effort).
 * A glob that matches nothing (zsh `zsh:1: no matches found: a[0]=x`, bash with failglob
 * `bash: line 1: no match: a[0]=x`): the command that holds it, and, when that is a builtin, all
 * after it (zsh stops the script there). A program not installed (`bash: line 1: ghx: command not
 * found`, `zsh:1: command not found: ghx`, `sh: 1: ghx: not found`): the first command that runs it.
 */
export function notRun(commands: readonly ShellCommand[], output: string): Set<ShellCommand> {
  const skipped = new Set<ShellCommand>()
  for (const m of output.matchAll(/^(?:zsh|bash)\b[^\n]*?: no match(?:es found)?: (.+)$/gm)) {
    const at = commands.findIndex((c) => !skipped.has(c) && c.words.includes(m[1]!))
    if (at < 0) continue
    const builtin = BUILTINS.has(programOf(commands[at]!.words)?.name ?? '')
    for (const c of commands.slice(at, builtin ? undefined : at + 1)) skipped.add(c)
  }
  for (const m of output.matchAll(
    /^(?:[a-z]*sh: (?:line )?(?:\d+: )?(\S+): (?:command )?not found|zsh(?::\d+)?: command not found: (\S+))$/gm,
  )) {
    // The missing program may be the command's runner: bash has no `noglob`, so `noglob gh …` runs nothing.
    const name = basename(m[1] ?? m[2]!)
    const runs = (c: ShellCommand) =>
      basename(c.words.find((w) => !ASSIGNMENT.test(w)) ?? '') === name || programOf(c.words)?.name === name
    const command = commands.find((c) => !skipped.has(c) && runs(c))
    if (command) skipped.add(command)
  }
  return skipped
}
