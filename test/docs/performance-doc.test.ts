// `npm run bench` writes its sections into docs/performance.md between markers (bench/performance-doc.ts):
// the hand-written text around them stays, a second write replaces the first, and a file without the
// markers gets them at its end.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {
  BEGIN_MARKER,
  END_MARKER,
  renderMeasured,
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
  it('renders each section in a fence longer than any inside it, after the machine', () => {
    const text = renderMeasured(sections, machine)
    expect(text.startsWith(BEGIN_MARKER)).to.equal(true)
    expect(text.endsWith(END_MARKER)).to.equal(true)
    expect(text).to.include(
      '2026-11-27T07:00:00Z, Node 20.19.0, linux x64, 2 × Test CPU; settings: `BENCH_REPORT_SIZES=100k`.',
    )
    expect(text).to.include(
      '### CLI start-up\n\n```text\n## CLI start-up (median of 3 runs each)\ncase       median ms\nnode -e 0       40.0\n```\n',
    )
    expect(text).to.include('### Gate\n\n````text\na table\n```\nfenced inside\n```\n````\n')
  })

  it('replaces only what is between the markers, and again on the next run', () => {
    const document = `# Performance\n\nHand-written.\n\n${renderMeasured(sections, machine)}\n\nFooter.\n`
    const next = replaceMeasured(
      document,
      renderMeasured([{title: 'Runner', text: 'runs/s 9.5'}], {...machine, settings: []}),
    )
    expect(next.startsWith('# Performance\n\nHand-written.\n\n' + BEGIN_MARKER)).to.equal(true)
    expect(next.endsWith(`${END_MARKER}\n\nFooter.\n`)).to.equal(true)
    expect(next).to.include('runs/s 9.5').and.not.include('CLI start-up')
    expect(next.split(BEGIN_MARKER)).to.have.length(2)
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
