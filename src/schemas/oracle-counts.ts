import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from './common.js'

const count = {type: 'number', minimum: 0} as const

/**
 * What the scripted oracle spends per run of each built-in scenario x mode x provider on the embedded
 * default (suites/oracle-counts.json, written by `npm run oracle-counts` from a run of the catalogue): a
 * dry run on the embedded default forecasts from it before the project has a run of its own. Each cell
 * names the scenario's digest it was recorded for: a scenario changed since is not forecast from it.
 */
export const oracleCountsSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'oracle-counts.schema.json',
  title: 'ghx-bench oracle counts (suites/oracle-counts.json)',
  type: 'object',
  additionalProperties: false,
  required: ['recorded', 'cells'],
  properties: {
    $schema: {type: 'string'},
    recorded: {
      type: 'object',
      additionalProperties: false,
      required: ['run_id', 'ghx_bench', 'date'],
      properties: {
        run_id: {type: 'string', minLength: 1, description: 'the run the counts are the medians of'},
        ghx_bench: {type: 'string', minLength: 1, description: 'the ghx-bench version that ran it'},
        date: {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'when it was recorded (UTC)'},
      },
    },
    cells: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scenario', 'scenario_sha256', 'mode', 'provider', 'tokens', 'wall_ms'],
        properties: {
          scenario: {type: 'string', minLength: 1},
          scenario_sha256: {type: 'string', pattern: '^[0-9a-f]{64}$', description: 'the scenario as it was run'},
          mode: {type: 'string', minLength: 1},
          provider: {type: 'string', minLength: 1},
          tokens: {
            type: 'object',
            additionalProperties: false,
            required: ['input', 'output', 'reasoning', 'cache_read', 'cache_write', 'total'],
            properties: {
              input: count,
              output: count,
              reasoning: count,
              cache_read: count,
              cache_write: count,
              total: count,
            },
            description: "each a median over the cell's runs",
          },
          wall_ms: {...count, description: "the median run's wall time"},
        },
      },
    },
  },
} as const

export type OracleCounts = FromSchema<typeof oracleCountsSchema>
