import {expect} from 'chai'
import {didYouMean, editDistance, formatDiagnostic} from '../../src/shared/diagnostics.js'

describe('diagnostics', () => {
  it('formats file:line:col, the offending line and a caret under the column', () => {
    const text = formatDiagnostic({
      file: 'suites/x.yml',
      line: 12,
      col: 5,
      code: 'schema',
      message: 'bad',
      sourceLine: '    type: nope',
    })
    expect(text).to.equal('suites/x.yml:12:5 error: bad\n 12 |     type: nope\n    |     ^')
  })

  it('keeps tabs in the caret line so the caret lines up', () => {
    const text = formatDiagnostic({file: 'f', line: 1, col: 3, code: 'schema', message: 'm', sourceLine: '\t\tx'})
    expect(text.split('\n')[2]).to.equal('   | \t\t^')
  })

  it('names a file alone when the finding has no position', () => {
    expect(formatDiagnostic({file: '$GHX_BENCH_TARGET', code: 'config', message: 'm'})).to.equal(
      '$GHX_BENCH_TARGET error: m',
    )
  })

  it('computes edit distance and close suggestions', () => {
    expect(editDistance('kitten', 'sitting')).to.equal(3)
    expect(didYouMean('promt', ['prompt', 'name', 'tags'])).to.equal('prompt')
    expect(didYouMean('zzzzzz', ['prompt', 'name'])).to.equal(undefined)
  })
})
