import {expect} from 'chai'
import {parseSource} from '../../src/shared/source-document.js'

describe('source documents', () => {
  const text = 'name: x\nlist:\n  - a\n  - {k: "v {{p}}"}\nblock: |\n  line one\n  has {{q}} here\n'
  const {document} = parseSource(text, 'f.yml')

  it('maps a JSON pointer to the value and, on request, to the key', () => {
    expect(document!.positionOf('/list/1/k')).to.deep.equal({line: 4, col: 9})
    expect(document!.positionOf(['list', 1, 'k'], 'key')).to.deep.equal({line: 4, col: 6})
  })

  it('points a missing path at its nearest existing parent', () => {
    expect(document!.positionOf('/list/1/missing')).to.deep.equal({line: 4, col: 5})
  })

  it('finds a piece of text inside a quoted scalar and a block scalar', () => {
    expect(document!.positionOfText(['list', 1, 'k'], '{{p}}')).to.deep.equal({line: 4, col: 12})
    expect(document!.positionOfText(['block'], '{{q}}')).to.deep.equal({line: 7, col: 7})
  })

  it('reports every syntax error with its position and no document', () => {
    const parsed = parseSource('a: [1, 2\nb: {\n', 'bad.yml')
    expect(parsed.document).to.equal(undefined)
    expect(parsed.diagnostics.length).to.be.greaterThan(0)
    expect(parsed.diagnostics.every((d) => d.code === 'yaml_syntax' && d.line !== undefined)).to.equal(true)
  })

  it('rejects duplicate keys as a syntax error', () => {
    const parsed = parseSource('a: 1\na: 2\n', 'dup.yml')
    expect(parsed.diagnostics[0]).to.include({line: 2, col: 1, code: 'yaml_syntax'})
  })
})

describe('source documents: duplicate keys in one pass', () => {
  it('finds a duplicate key at the end of a 1 MB map of 100,000 keys (a check of each key against every earlier one takes minutes)', () => {
    const lines = Array.from({length: 100_000}, (_, i) => `k${i}: ${i}`)
    lines.push('k5: again')
    const text = lines.join('\n') + '\n'
    expect(text.length).to.be.above(1_000_000)
    const {document, diagnostics} = parseSource(text, 'big.yml')
    expect(document).to.equal(undefined)
    expect(diagnostics).to.have.length(1)
    expect(diagnostics[0]).to.include({
      line: 100_001,
      col: 1,
      code: 'yaml_syntax',
      message: 'YAML syntax: Map keys must be unique',
    })
  })

  it('tells keys apart as YAML does: 1 and "1" differ, a repeat in a nested map or a flow map is found', () => {
    expect(parseSource('1: a\n"1": b\n', 'f.yml').diagnostics).to.deep.equal([])
    const nested = parseSource('a:\n  b: 1\n  c: {d: 1, d: 2}\n  b: 3\n', 'f.yml').diagnostics.map((d) => [
      d.line,
      d.col,
    ])
    expect(nested).to.deep.equal([
      [3, 13],
      [4, 3],
    ])
  })
})
