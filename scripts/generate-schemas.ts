// Writes schemas/*.schema.json from the TypeScript source of truth, and the validators compiled ahead from them.
import {mkdir, writeFile} from 'node:fs/promises'
import {PRECOMPILED_MODULE, renderPrecompiledModule, renderSchema, SCHEMA_FILES} from '../src/app/schema-files.js'

const outDir = new URL('../schemas/', import.meta.url)
await mkdir(outDir, {recursive: true})
for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
  await writeFile(new URL(file, outDir), renderSchema(schema))
  console.log(`wrote schemas/${file}`)
}
await writeFile(new URL(`../${PRECOMPILED_MODULE}`, import.meta.url), await renderPrecompiledModule())
console.log(`wrote ${PRECOMPILED_MODULE}`)
