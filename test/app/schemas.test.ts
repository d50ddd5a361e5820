import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {PRECOMPILED_MODULE, renderPrecompiledModule, renderSchema, SCHEMA_FILES} from '../../src/app/schema-files.js'
import {PROJECT_ROOT} from '../support/cli.js'

describe('schemas/*.json', () => {
  for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
    it(`${file} is what the TypeScript source generates (run npm run schemas after a change)`, async () => {
      const committed = await readFile(path.join(PROJECT_ROOT, 'schemas', file), 'utf8')
      expect(committed).to.equal(renderSchema(schema))
    })
  }

  it('every schema is draft 2020-12 with an absolute $id', () => {
    for (const schema of Object.values(SCHEMA_FILES) as Array<{$schema: string; $id: string}>) {
      expect(schema.$schema).to.equal('https://json-schema.org/draft/2020-12/schema')
      expect(schema.$id).to.match(/^https:\/\/.+\.schema\.json$/)
    }
  })

  it(`${PRECOMPILED_MODULE} is what the schemas generate (run npm run schemas after a change)`, async function () {
    this.timeout(60_000)
    const committed = await readFile(path.join(PROJECT_ROOT, PRECOMPILED_MODULE), 'utf8')
    expect(committed === (await renderPrecompiledModule()), 'the validators compiled ahead are stale').to.equal(true)
  })
})
