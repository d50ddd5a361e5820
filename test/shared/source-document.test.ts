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
