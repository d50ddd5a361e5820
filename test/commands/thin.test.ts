// Commands are thin: parse flags, call one use case of src/app, print. They import src/app and
// src/cli only (and oclif), so no logic can hide in them.
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'

const COMMANDS = path.join(PROJECT_ROOT, 'src', 'commands')

describe('commands', () => {
  it('import only src/app, src/cli and oclif', async () => {
    const files = (await readdir(COMMANDS, {recursive: true})).filter((f) => f.endsWith('.ts'))
    expect(files.length).to.be.above(10)
    for (const file of files) {
      const source = await readFile(path.join(COMMANDS, file), 'utf8')
      const imports = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)'([^']+)'/g)].map((m) => m[1]!)
      const outside = imports.filter((specifier) => {
        if (specifier === '@oclif/core') return false
        const target = path.relative(
          path.join(PROJECT_ROOT, 'src'),
          path.resolve(path.dirname(path.join(COMMANDS, file)), specifier),
        )
        return !/^(app|cli)\//.test(target.split(path.sep).join('/'))
      })
      expect(outside, file).to.deep.equal([])
    }
  })
})
