// `npm run bench` writes what it measured into docs/performance.md, between two markers: the hand-written
// part of the file (above and below them) stays as it is. Each section keeps the bench's own text, in a
// fenced block (its tables are aligned for a terminal). BENCH_DOC=0 leaves the file alone; BENCH_DOC=<file>
// writes another file.
import {readFileSync, renameSync, writeFileSync} from 'node:fs'

export const BEGIN_MARKER = '<!-- bench:begin (written by `npm run bench`; edit above or below, not between) -->'
export const END_MARKER = '<!-- bench:end -->'

export interface BenchSection {
  title: string
  text: string
}

export interface BenchMachine {
  /** When the bench ended, ISO 8601. */
  date: string
  node: string
  platform: string
  cpus: string
  /** The BENCH_* settings the run used, e.g. BENCH_REPORT_SIZES=100k,1M. */
  settings: string[]
}

/** A fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  return '`'.repeat(longest + 1)
}

/** The measured part: the machine, then each section under its own heading. */
export function renderMeasured(sections: BenchSection[], machine: BenchMachine): string {
  const lines = [
    BEGIN_MARKER,
    '',
    '## Last measured',
    '',
    `${machine.date}, Node ${machine.node}, ${machine.platform}, ${machine.cpus}${machine.settings.length > 0 ? `; settings: ${machine.settings.map((s) => `\`${s}\``).join(', ')}` : ''}.`,
    '',
  ]
  for (const section of sections) {
    const body = section.text.replace(/\s+$/, '')
    const marks = fence(body)
    lines.push(`### ${section.title}`, '', `${marks}text`, body, marks, '')
  }
  lines.push(END_MARKER)
  return lines.join('\n')
}

/** `document` with the text between the markers replaced (the markers appended when it has none). */
export function replaceMeasured(document: string, measured: string): string {
  const begin = document.indexOf(BEGIN_MARKER.slice(0, BEGIN_MARKER.indexOf(' (')))
  const end = document.indexOf(END_MARKER)
  if (begin === -1 || end === -1 || end < begin) return `${document.replace(/\s*$/, '')}\n\n${measured}\n`
  return document.slice(0, begin) + measured + document.slice(end + END_MARKER.length)
}

/** Writes the sections into `file` between the markers, whole or not at all (a temporary file, then a rename). */
export function writeMeasured(file: string, sections: BenchSection[], machine: BenchMachine): void {
  const updated = replaceMeasured(readFileSync(file, 'utf8'), renderMeasured(sections, machine))
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, updated)
  renameSync(temporary, file)
}
