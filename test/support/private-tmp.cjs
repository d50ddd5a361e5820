// Every test process (mocha and its parallel workers) works in a temporary folder of its own, removed
// when it exits: what tests and the processes they start make in the system's tmp does not pile up there.
const {mkdtempSync, rmSync} = require('node:fs')
const {tmpdir} = require('node:os')
const path = require('node:path')

const root = mkdtempSync(path.join(tmpdir(), 'ghx-bench-tests-'))
process.env.TMPDIR = root
process.on('exit', () => rmSync(root, {recursive: true, force: true, maxRetries: 3}))
