// Writes suites/oracle-counts.json from a run of the catalogue with the scripted oracle on the sandbox:
//   npx ghx-bench run suites/full-seeded.yml --run-id oracle-counts   (ghx on PATH, for the ghx mode's cells)
//   npm run oracle-counts -- results/oracle-counts.jsonl
import {recordOracleCounts} from '../src/app/oracle-counts.js'

const [resultsFile] = process.argv.slice(2)
if (!resultsFile) {
  console.error('usage: npm run oracle-counts -- <results file of an oracle run on the sandbox>')
  process.exit(2)
}
const {file, cells, runs} = await recordOracleCounts(resultsFile)
console.log(`wrote ${file}: ${cells} cells from ${runs} runs`)
