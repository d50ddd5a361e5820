/**
 * The oracle's recorded counts (suites/oracle-counts.json): what the scripted oracle spent per run of each
 * built-in scenario x mode x provider on the embedded default, recorded from a run of the catalogue
 * (`npm run oracle-counts -- <results file>`). A dry run there forecasts from them before the project has
 * a run of its own; a cell whose scenario has changed since it was recorded (its digest differs) is not
 * used, and a test fails until the counts are recorded again.
 */
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import type {Row} from '../results/row-schema.js'
import {oracleCountsSchema, type OracleCounts} from '../schemas/oracle-counts.js'
import type {Scenario} from '../schemas/scenario.js'
import {jsonSha256} from '../shared/digest.js'
import {packagePath} from '../shared/package-paths.js'
import {compileSchema} from '../shared/schema-validator.js'
import {CellSamples, cellKey, type CellSpend, type RecordedCounts} from './forecast.js'

export const ORACLE_COUNTS_FILE = packagePath('suites', 'oracle-counts.json')

/** The recorded counts of the cells whose scenario is as recorded; undefined when there is no recording. */
export async function readOracleCounts(
  scenarios: readonly Scenario[],
  file = ORACLE_COUNTS_FILE,
): Promise<RecordedCounts | undefined> {
  if (!existsSync(file)) return undefined
  const counts: unknown = JSON.parse(await readFile(file, 'utf8'))
  const validate = compileSchema(oracleCountsSchema)
  // The file ships with ghx-bench: a broken one is ghx-bench's fault, not the user's input.
  if (!validate(counts)) throw new Error(`${file}: not oracle counts: ${JSON.stringify(validate.errors)}`)
  const {recorded, cells} = counts as OracleCounts
  const digests = new Map(scenarios.map((scenario) => [scenario.id, jsonSha256(scenario)]))
  const spends = new Map<string, CellSpend>()
  for (const cell of cells) {
    if (digests.get(cell.scenario) !== cell.scenario_sha256) continue
    const {total, ...usage} = cell.tokens
    spends.set(cellKey({scenario_id: cell.scenario, mode: cell.mode, provider: cell.provider}), {
      usage,
      total,
      wall_ms: cell.wall_ms,
      cost_usd: null,
    })
  }
  return {cells: spends, recorded}
}

/** The counts of a run's rows: each cell's medians, with the digest of its scenario as the catalogue has it. */
export function oracleCountsOf(
  rows: Iterable<Row>,
  scenarios: ReadonlyMap<string, Scenario>,
  recorded: OracleCounts['recorded'],
): OracleCounts {
  const samples = new CellSamples()
  for (const row of rows) samples.add(row)
  const cells = [...samples.medians()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, spend]) => {
      const [scenario, mode, provider] = key.split('/') as [string, string, string]
      const known = scenarios.get(scenario)
      if (!known) throw new Error(`scenario ${scenario} of the run is not in the catalogue`)
      return {
        scenario,
        scenario_sha256: jsonSha256(known),
        mode,
        provider,
        tokens: {...spend.usage, total: spend.total},
        wall_ms: spend.wall_ms,
      }
    })
  return {recorded, cells}
}
