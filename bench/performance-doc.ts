// `npm run bench` writes what it measured into docs/performance.md, between two markers: the hand-written
// part of the file (above and below them) stays as it is, and so do the sections this run did not measure.
// Each section keeps the bench's own text, in a fenced block (its tables are aligned for a terminal), under
// the machine and settings that measured it. BENCH_DOC=0 leaves the file alone; BENCH_DOC=<file>
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

/** The machine and settings a section was measured with, as its first line says them. */
function machineLine(machine: BenchMachine): string {
  const settings =
    machine.settings.length > 0 ? `; settings: ${machine.settings.map((s) => `\`${s}\``).join(', ')}` : ''
  return `${machine.date}, Node ${machine.node}, ${machine.platform}, ${machine.cpus}${settings}.`
}

/** One section: its heading, the machine that measured it, the bench's own text in a fence. */
export function renderSection(section: BenchSection, machine: BenchMachine): string {
  const body = section.text.replace(/\s+$/, '')
  const marks = fence(body)
  return [`### ${section.title}`, '', machineLine(machine), '', `${marks}text`, body, marks, ''].join('\n')
}

/** The measured part: each section under its own heading, in the order given. */
export function renderMeasured(sectionTexts: string[]): string {
  const intro =
    'Each section as the latest bench run that measured it left it, with the machine and settings of that run.'
  return [BEGIN_MARKER, '', '## Last measured', '', intro, '', ...sectionTexts, END_MARKER].join('\n')
}

/**
 * The sections between the markers, by title, each as rendered. A block written before sections carried
 * their own machine line has one line for all, under "## Last measured": each of its sections gets it.
 */
export function measuredSections(document: string): Map<string, string> {
  const sections = new Map<string, string>()
  const begin = document.indexOf(BEGIN_MARKER)
  const end = document.indexOf(END_MARKER)
  if (begin === -1 || end === -1 || end < begin) return sections
  const block = document.slice(begin + BEGIN_MARKER.length, end)
  const [head = '', ...parts] = sectionsOutsideFences(block)
  const shared = head
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^\d{4}-\d\d-\d\dT/.test(line))
  for (const part of parts) {
    const newline = part.indexOf('\n')
    const title = part.slice(0, newline)
    let rest = part.slice(newline + 1).replace(/^\n+/, '')
    if (!/^\d{4}-\d\d-\d\dT/.test(rest) && shared) rest = `${shared.replace(/^(.*?)(\.)?$/, '$1')}.\n\n${rest}`
    sections.set(title, `### ${title}\n\n${rest.replace(/\s+$/, '')}\n`)
  }
  return sections
}

/**
 * The block split before each "### " heading that stands outside a fence (a bench's own text, fenced, may
 * hold headings of its own), each part without its "### ".
 */
function sectionsOutsideFences(block: string): string[] {
  const parts: string[] = ['']
  let fenceOpen: string | null = null
  for (const line of block.split('\n')) {
    const marks = /^(`{3,})/.exec(line)?.[1]
    if (marks && fenceOpen === null) fenceOpen = marks
    else if (marks && fenceOpen !== null && marks.length >= fenceOpen.length && line.trim() === marks) fenceOpen = null
    if (fenceOpen === null && line.startsWith('### ') && !marks) parts.push(line.slice(4))
    else parts[parts.length - 1] += `${parts.length === 1 && parts[0] === '' ? '' : '\n'}${line}`
  }
  return parts
}

/**
 * `document` with the sections measured now written between the markers: each replaces the section of
 * its title and the others stay as the runs that measured them left them, so a run of some sections
 * (BENCH_SECTIONS) never drops the rest. The markers are appended to a document that has none.
 */
export function replaceMeasured(document: string, sections: BenchSection[], machine: BenchMachine): string {
  const merged = measuredSections(document)
  for (const section of sections) merged.set(section.title, renderSection(section, machine))
  const measured = renderMeasured([...merged.values()])
  const begin = document.indexOf(BEGIN_MARKER)
  const end = document.indexOf(END_MARKER)
  if (begin === -1 || end === -1 || end < begin) return `${document.replace(/\s*$/, '')}\n\n${measured}\n`
  return document.slice(0, begin) + measured + document.slice(end + END_MARKER.length)
}

/** Writes the sections into `file` between the markers, whole or not at all (a temporary file, then a rename). */
export function writeMeasured(file: string, sections: BenchSection[], machine: BenchMachine): void {
  const updated = replaceMeasured(readFileSync(file, 'utf8'), sections, machine)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, updated)
  renameSync(temporary, file)
}
