// The oracle's recorded counts that ship with the catalogue (suites/oracle-counts.json) are the counts of the
// scenarios as they are: a scenario changed, added or removed without recording them again fails here, with
// the commands that record them.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {openProject} from '../../src/app/project.js'
import type {OracleCounts} from '../../src/schemas/oracle-counts.js'
import {selectSuite} from '../../src/runner/select-suite.js'
import {ORACLE_COUNTS_FILE, readOracleCounts} from '../../src/runner/oracle-counts.js'
import {jsonSha256} from '../../src/shared/digest.js'
import {PROJECT_ROOT} from '../support/cli.js'

const RECORD_AGAIN =
  'record them again: PATH=<ghx>:$PATH npx ghx-bench run suites/full-seeded.yml --run-id oracle-counts, then npm run oracle-counts -- results/oracle-counts.jsonl'

describe('the oracle’s recorded counts', () => {
  it('hold every scenario x mode of the main job as the catalogue has it, and nothing stale', async () => {
    const project = await openProject({cwd: PROJECT_ROOT, env: {}})
    const {suite, scenarios} = selectSuite(project, {suitePath: path.join('suites', 'full-seeded.yml')})
    const recorded = await readOracleCounts([...project.catalogue.scenarios.values()].map((spec) => spec.value))
    expect(recorded, `${ORACLE_COUNTS_FILE} is missing: ${RECORD_AGAIN}`).to.not.equal(undefined)
    const missing = scenarios.flatMap((scenario) =>
      suite.modes
        .map((ref) => (typeof ref === 'string' ? ref : ref.name))
        // Not applicable, or needing a tool version a machine may lack: the recording run may have left it out.
        .filter((mode) => !scenario.not_applicable?.[mode] && !scenario.requires?.[mode])
        .map((mode) => `${scenario.id}/${mode}/agent-loop`)
        .filter((cell) => !recorded!.cells.has(cell)),
    )
    expect(missing, RECORD_AGAIN).to.deep.equal([])
    const {cells} = JSON.parse(await readFile(ORACLE_COUNTS_FILE, 'utf8')) as OracleCounts
    const stale = cells
      .filter((cell) => {
        const scenario = project.catalogue.scenarios.get(cell.scenario)?.value
        return !scenario || jsonSha256(scenario) !== cell.scenario_sha256
      })
      .map((cell) => cell.scenario)
    expect([...new Set(stale)], RECORD_AGAIN).to.deep.equal([])
  })
})
