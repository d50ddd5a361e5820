// Writes the generated documentation: docs/tasks.md from the checkpoint read task definitions.
import {writeFile} from 'node:fs/promises'
import {renderTasksDoc} from '../src/github/tasks.js'

await writeFile(new URL('../docs/tasks.md', import.meta.url), renderTasksDoc())
console.log('wrote docs/tasks.md')
