/**
 * Recording the oracle's counts (suites/oracle-counts.json) from a run of the catalogue with the scripted
 * oracle on the sandbox: what a first dry run on the embedded default forecasts from.
 */
import path from 'node:path'
import type {Row} from '../results/row-schema.js'
import {readRunInfoFor} from '../results/run-info.js'
import {readRows} from '../results/sources.js'
import {ORACLE_COUNTS_FILE, oracleCountsOf} from '../runner/oracle-counts.js'
import {writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'
import {openProject, type ProjectOptions} from './project.js'

const ORACLE_MODEL = 'ghx-bench/oracle'

export async function recordOracleCounts(
  resultsFile: string,
  options: ProjectOptions & {file?: string} = {},
): Promise<{file: string; cells: number; runs: number}> {
  const cwd = options.cwd ?? process.cwd()
  const absolute = path.resolve(cwd, resultsFile)
  const info = await readRunInfoFor(absolute)
  if (info?.key?.model !== ORACLE_MODEL || info.key.target !== 'sandbox')
    throw new BadInputError([
      {
        file: resultsFile,
        code: 'config',
        message: `not a run of the scripted oracle on the sandbox (its run.json says model ${info?.key?.model ?? 'unknown'}, target ${info?.key?.target ?? 'unknown'})`,
      },
    ])
  const {catalogue} = await openProject(options)
  const rows: Row[] = []
  for await (const row of readRows([absolute], () => {}, cwd)) rows.push(row)
  const scenarios = new Map([...catalogue.scenarios].map(([id, spec]) => [id, spec.value]))
  const counts = oracleCountsOf(rows, scenarios, {
    run_id: info.run_id,
    ghx_bench: info.key.ghx_bench,
    date: new Date().toISOString().slice(0, 10),
  })
  const file = options.file ?? ORACLE_COUNTS_FILE
  await writeFileAtomic(file, JSON.stringify(counts, null, 2) + '\n')
  return {file, cells: counts.cells.length, runs: rows.length}
}
