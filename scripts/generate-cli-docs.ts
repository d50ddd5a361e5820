// Writes docs/cli.md from the commands (scripts/cli-docs.ts): `npm run docs:cli`.
import {writeFile} from 'node:fs/promises'
import {CLI_DOCS_FILE, loadCliConfig, renderCliDocs} from './cli-docs.js'

await writeFile(CLI_DOCS_FILE, renderCliDocs(await loadCliConfig()))
console.log('wrote docs/cli.md')
