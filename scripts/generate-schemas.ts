// Writes schemas/*.schema.json from the TypeScript source of truth.
import {mkdir, writeFile} from 'node:fs/promises'
import {renderSchema, SCHEMA_FILES} from '../src/app/schema-files.js'

const outDir = new URL('../schemas/', import.meta.url)
await mkdir(outDir, {recursive: true})
for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
  await writeFile(new URL(file, outDir), renderSchema(schema))
  console.log(`wrote schemas/${file}`)
}
