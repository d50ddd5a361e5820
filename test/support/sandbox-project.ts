// A project on the embedded default (target sandbox, model oracle) over the built-in catalogue, and the
// rows its runs leave in results/.
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import {isShardHeader} from '../../src/results/shard-file.js'
import {isRow} from '../../src/results/store.js'
import {PROJECT_ROOT} from './cli.js'

export const SUITES = path.join(PROJECT_ROOT, 'suites')

/** .ghxbenchrc.yml: sandbox, oracle, the catalogue in `suitesDir`, results/ and reports/ in the project. */
export function sandboxConfig(suitesDir = SUITES, extra = ''): string {
  return [
    'target: sandbox',
    'model: oracle',
    `suites_dir: ${suitesDir}`,
    'results_dir: results',
    'reports_dir: reports',
    'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: e2e, sandbox_repos: [ghx-bench/sandbox]}',
    extra,
  ].join('\n')
}

/** The rows of one run id's (or shard's) results file, or of every results file; each must be a valid row (a shard's header aside). */
export function rowsOf(dir: string, runId?: string): Row[] {
  const results = path.join(dir, 'results')
  const files = runId === undefined ? readdirSync(results).filter((f) => f.endsWith('.jsonl')) : [`${runId}.jsonl`]
  return files.flatMap((file) =>
    readFileSync(path.join(results, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown)
      .filter((record) => !isShardHeader(record))
      .map((row) => {
        const line = JSON.stringify(row)
        expect(isRow(row), line.slice(0, 200)).to.equal(true)
        return row as Row
      }),
  )
}

export const keyOf = (row: Row) => `${row.scenario_id}/${row.mode}/${row.iteration}`
