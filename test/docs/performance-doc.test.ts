// `npm run bench` writes its sections into docs/performance.md between markers (bench/performance-doc.ts):
// the hand-written text around them stays, a later write replaces the sections it measured and keeps the
// others, and a file without the markers gets them at its end.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {
  BEGIN_MARKER,
  END_MARKER,
  measuredSections,
  renderMeasured,
  renderSection,
  replaceMeasured,
  writeMeasured,
  type BenchMachine,
} from '../../bench/performance-doc.js'

const machine: BenchMachine = {
  date: '2026-11-27T07:00:00Z',
  node: '20.19.0',
  platform: 'linux x64',
  cpus: '2 × Test CPU',
  settings: ['BENCH_REPORT_SIZES=100k'],
}
const sections = [
  {
    title: 'CLI start-up',
    text: '## CLI start-up (median of 3 runs each)\ncase       median ms\nnode -e 0       40.0\n',
  },
  {title: 'Gate', text: 'a table\n```\nfenced inside\n```'},
]

describe('docs/performance.md writer (npm run bench)', () => {
  it('renders each section under the machine that measured it, in a fence longer than any inside it', () => {
    const text = renderMeasured(sections.map((section) => renderSection(section, machine)))
    expect(text.startsWith(BEGIN_MARKER)).to.equal(true)
    expect(text.endsWith(END_MARKER)).to.equal(true)
    expect(text).to.include(
      '### CLI start-up\n\n2026-11-27T07:00:00Z, Node 20.19.0, linux x64, 2 × Test CPU; settings: `BENCH_REPORT_SIZES=100k`.\n\n```text\n## CLI start-up (median of 3 runs each)\ncase       median ms\nnode -e 0       40.0\n```\n',
    )
    expect(text).to.include('### Gate\n\n2026-11-27T07:00:00Z')
    expect(text).to.include('````text\na table\n```\nfenced inside\n```\n````\n')
  })

  it('replaces only what is between the markers, and there only the sections measured again', () => {
    const document = replaceMeasured('# Performance\n\nHand-written.\n\nFooter.\n', sections, machine)
    const later = {...machine, date: '2026-12-01T08:00:00Z', settings: ['BENCH_SECTIONS=runner']}
    const next = replaceMeasured(
      document,
      [
        {title: 'Runner', text: 'runs/s 9.5'},
        {title: 'Gate', text: 'new gate table'},
      ],
      later,
    )
    expect(next.startsWith('# Performance\n\nHand-written.\n\nFooter.\n\n' + BEGIN_MARKER)).to.equal(true)
    expect(next.endsWith(`${END_MARKER}\n`)).to.equal(true)
    expect(next.split(BEGIN_MARKER)).to.have.length(2)
    const kept = measuredSections(next)
    expect([...kept.keys()]).to.deep.equal(['CLI start-up', 'Gate', 'Runner'])
    expect(kept.get('CLI start-up')).to.include('2026-11-27T07:00:00Z').and.include('node -e 0       40.0')
    expect(kept.get('Gate'))
      .to.include('2026-12-01T08:00:00Z')
      .and.include('new gate table')
      .and.not.include('fenced inside')
    expect(kept.get('Runner')).to.include('`BENCH_SECTIONS=runner`').and.include('runs/s 9.5')
  })

  it('gives each section of a block written with one machine line for all that line', () => {
    const old = `# P\n\n${BEGIN_MARKER}\n\n## Last measured\n\n2026-11-27T22:38:07Z, Node 20.20.2, linux x64, 2 × CPU; settings: \`BENCH_SECTIONS=newcomer\`.\n\n### A newcomer’s commands\n\n\`\`\`text\nmain job 121.3\n\`\`\`\n${END_MARKER}\n`
    const next = replaceMeasured(old, [{title: 'Runner', text: 'runs/s 9.5'}], machine)
    expect(measuredSections(next).get('A newcomer’s commands')).to.equal(
      '### A newcomer’s commands\n\n2026-11-27T22:38:07Z, Node 20.20.2, linux x64, 2 × CPU; settings: `BENCH_SECTIONS=newcomer`.\n\n```text\nmain job 121.3\n```\n',
    )
  })

  it('keeps a section whose own text holds headings, inside its fence, whole', () => {
    const gate = {title: 'Gate', text: '# simulate\n\n### 6 scenarios × 20\n\n| a | b |\n'}
    const document = replaceMeasured('# P\n', [gate, {title: 'Runner', text: 'runs/s 9.5'}], machine)
    const next = replaceMeasured(document, [{title: 'Runner', text: 'runs/s 9.9'}], machine)
    expect([...measuredSections(next).keys()]).to.deep.equal(['Gate', 'Runner'])
    expect(measuredSections(next).get('Gate')).to.include('### 6 scenarios × 20\n\n| a | b |')
  })

  it('appends the markers to a file that has none, and writes the file whole', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ghx-bench-perf-doc-'))
    try {
      const file = path.join(dir, 'performance.md')
      writeFileSync(file, '# Performance\n\nHand-written.\n')
      writeMeasured(file, sections, machine)
      const once = readFileSync(file, 'utf8')
      expect(once.startsWith(`# Performance\n\nHand-written.\n\n${BEGIN_MARKER}`)).to.equal(true)
      writeMeasured(file, sections, machine)
      expect(readFileSync(file, 'utf8')).to.equal(once)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
