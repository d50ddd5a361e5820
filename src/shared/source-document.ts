/**
 * A YAML (or JSON) file parsed with its source positions kept, so that any finding about a value
 * can name file:line:col and show the offending line.
 */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {type Document, isMap, isNode, isScalar, LineCounter, parseDocument, visit} from 'yaml'
import type {Diagnostic, DiagnosticCode, SourcePosition} from './diagnostics.js'

export type PointerSegment = string | number

export class SourceDocument {
  readonly file: string
  readonly data: unknown
  private readonly doc: Document
  private readonly lines: LineCounter
  private readonly textLines: string[]

  constructor(file: string, text: string, doc: Document, lines: LineCounter) {
    this.file = file
    this.doc = doc
    this.lines = lines
    this.textLines = text.split(/\r?\n/)
    // maxAliasCount guards against alias bombs in untrusted suites.
    this.data = doc.toJS({maxAliasCount: 100}) as unknown
  }

  /** The leading comment lines, where a `# yaml-language-server: $schema=` line says what the file is. */
  headerText(): string {
    const header: string[] = []
    for (const line of this.textLines) {
      if (!line.startsWith('#') && line.trim() !== '') break
      header.push(line)
    }
    return header.join('\n')
  }

  /**
   * Where a value (or, with target 'key', its key) starts. A path that does not exist points at its
   * nearest existing parent, which is where a missing property belongs.
   */
  positionOf(pointer: PointerSegment[] | string, target: 'key' | 'value' = 'value'): SourcePosition {
    const segments = typeof pointer === 'string' ? parsePointer(pointer) : pointer
    if (target === 'key' && segments.length > 0) {
      const parent = this.doc.getIn(segments.slice(0, -1), true)
      const name = segments.at(-1)
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(name))
        if (pair && isNode(pair.key) && pair.key.range) return this.offsetToPosition(pair.key.range[0])
      }
    }
    for (let n = segments.length; n >= 0; n--) {
      const node = n === 0 ? this.doc.contents : this.doc.getIn(segments.slice(0, n), true)
      if (isNode(node) && node.range) return this.offsetToPosition(node.range[0])
    }
    return {line: 1, col: 1}
  }

  /** Where a literal piece of text (a `{{placeholder}}`) stands inside the scalar at pointer. */
  positionOfText(pointer: PointerSegment[], text: string): SourcePosition {
    const node = this.doc.getIn(pointer, true)
    if (isNode(node) && node.range) {
      const source = this.sourceSlice(node.range[0], node.range[1])
      const index = source.indexOf(text)
      if (index >= 0) return this.offsetToPosition(node.range[0] + index)
      return this.offsetToPosition(node.range[0])
    }
    return this.positionOf(pointer)
  }

  diagnostic(
    pointer: PointerSegment[] | string,
    code: DiagnosticCode,
    message: string,
    target: 'key' | 'value' = 'value',
  ): Diagnostic {
    const position = this.positionOf(pointer, target)
    const segments = typeof pointer === 'string' ? parsePointer(pointer) : pointer
    return this.diagnosticAt(position, code, message, toPointer(segments))
  }

  diagnosticAt(position: SourcePosition, code: DiagnosticCode, message: string, pointer?: string): Diagnostic {
    return {
      file: this.file,
      line: position.line,
      col: position.col,
      pointer,
      code,
      message,
      sourceLine: this.textLines[position.line - 1],
    }
  }

  private offsetToPosition(offset: number): SourcePosition {
    const {line, col} = this.lines.linePos(offset)
    return {line, col}
  }

  private sourceSlice(start: number, end: number): string {
    const from = this.lines.linePos(start)
    const to = this.lines.linePos(end)
    const lines = this.textLines.slice(from.line - 1, to.line)
    if (lines.length === 0) return ''
    lines[lines.length - 1] = lines.at(-1)!.slice(0, from.line === to.line ? to.col - 1 : to.col - 1)
    lines[0] = lines[0]!.slice(from.col - 1)
    return lines.join('\n')
  }
}

export interface ParsedSource {
  document?: SourceDocument
  diagnostics: Diagnostic[]
}

/** Parses YAML 1.2 (JSON included); every syntax error comes back at once, each with its position. */
export function parseSource(text: string, file: string): ParsedSource {
  const lines = new LineCounter()
  // yaml's own uniqueKeys check compares each key with every earlier one of its map (quadratic: minutes for a
  // large map); duplicateKeys finds them in one pass instead.
  const doc = parseDocument(text, {lineCounter: lines, prettyErrors: true, uniqueKeys: false})
  const textLines = text.split(/\r?\n/)
  if (doc.errors.length === 0) {
    const duplicates = duplicateKeys(doc).map((offset): Diagnostic => {
      const {line, col} = lines.linePos(offset)
      return {
        file,
        line,
        col,
        code: 'yaml_syntax',
        message: 'YAML syntax: Map keys must be unique',
        sourceLine: textLines[line - 1],
      }
    })
    if (duplicates.length > 0) return {diagnostics: duplicates}
  }
  if (doc.errors.length > 0) {
    return {
      diagnostics: doc.errors.map((error) => {
        const pos = error.linePos?.[0] ?? {line: 1, col: 1}
        // yaml's pretty message repeats the snippet; keep the first sentence, the caret is ours.
        const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
        return {
          file,
          line: pos.line,
          col: pos.col,
          code: 'yaml_syntax' as const,
          message: `YAML syntax: ${message}`,
          sourceLine: textLines[pos.line - 1],
        }
      }),
    }
  }
  // Aliases resolve here: an alias bomb (too many) or an alias to no anchor is bad input at its place, not a crash.
  try {
    return {document: new SourceDocument(file, text, doc, lines), diagnostics: []}
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!
    const alias = /alias[^:]*:\s*(\S+)/i.exec(message)?.[1]
    const at = alias ? text.split(/\r?\n/).findIndex((line) => line.includes(`*${alias}`)) : -1
    const line = at >= 0 ? at + 1 : 1
    return {
      diagnostics: [
        {
          file,
          line,
          col: at >= 0 ? textLines[at]!.indexOf(`*${alias}`) + 1 : 1,
          code: 'yaml_syntax',
          message: `YAML: ${message}`,
          sourceLine: textLines[line - 1],
        },
      ],
    }
  }
}

/**
 * Where each key that repeats an earlier key of its map starts, in one pass over the document. Keys are
 * the same when their scalar values are (1 and "1" differ, as in yaml's own check); a complex key (a map
 * or a list as a key) is compared by its YAML text.
 */
function duplicateKeys(doc: Document): number[] {
  const offsets: number[] = []
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const {key} of map.items) {
        const identity = isScalar(key)
          ? typeof key.value === 'string'
            ? `s:${key.value}`
            : key.value
          : isNode(key)
            ? `n:${String(key)}`
            : key
        if (seen.has(identity) && isNode(key) && key.range) offsets.push(key.range[0])
        seen.add(identity)
      }
    },
  })
  return offsets.sort((a, b) => a - b)
}

/** The largest YAML file read: a thousand times the largest suite or scenario, still parsed in seconds. */
const MAX_SOURCE_BYTES = 16 * 1024 * 1024

/** Reads and parses a file; the display name is relative to the working folder, as users type it. */
export async function readSource(absolutePath: string, cwd = process.cwd()): Promise<ParsedSource> {
  const file = displayPath(absolutePath, cwd)
  let text: string
  try {
    // A pipe or a device would be read until it ends (never, for /dev/zero or a FIFO no one writes to).
    const found = await stat(absolutePath)
    if (!found.isFile())
      return {
        diagnostics: [
          {
            file,
            code: 'io',
            message: found.isDirectory()
              ? 'is a folder, not a YAML file'
              : 'not a regular file (a pipe or a device): give a YAML file',
          },
        ],
      }
    if (found.size > MAX_SOURCE_BYTES)
      return {
        diagnostics: [
          {
            file,
            code: 'io',
            message: `${found.size} bytes: larger than ${MAX_SOURCE_BYTES} bytes, not a suite, scenario or configuration`,
          },
        ],
      }
    text = await readFile(absolutePath, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message
    return {diagnostics: [{file, code: 'io', message: reason}]}
  }
  return parseSource(text, file)
}

export function displayPath(absolutePath: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, absolutePath)
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolutePath : relative
}

export function parsePointer(pointer: string): PointerSegment[] {
  if (pointer === '' || pointer === '/') return []
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

function toPointer(segments: PointerSegment[]): string {
  return segments.map((s) => '/' + String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('')
}
