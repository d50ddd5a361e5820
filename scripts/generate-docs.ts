// Writes the generated documentation: docs/tasks.md from the checkpoint read task definitions, and
// docs/gate.md's profile sizes from the planner (scripts/gate-sizes.ts).
import {writeFile} from 'node:fs/promises'
import {renderTasksDoc} from '../src/github/tasks.js'
import {GATE_DOC_FILE, gateDocWithSizes} from './gate-sizes.js'

await writeFile(new URL('../docs/tasks.md', import.meta.url), renderTasksDoc())
console.log('wrote docs/tasks.md')
await writeFile(GATE_DOC_FILE, await gateDocWithSizes())
console.log('wrote docs/gate.md (the profiles’ sizes)')
