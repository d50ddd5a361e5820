import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from './common.js'

/**
 * The quarantine file: scenarios the team has found flaky (`ghx-bench flakes` proposes them), each with
 * why and until when. A quarantined scenario is still run, reported and judged: the report and the
 * gate name it beside their figures so that a reader weighs its failures, and nothing is hidden. An
 * entry past its expiry date is reported as expired and no longer marks anything.
 */
export const quarantineSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'quarantine.schema.json',
  title: 'ghx-bench quarantine (quarantine.yml)',
  type: 'object',
  additionalProperties: false,
  required: ['quarantine'],
  properties: {
    $schema: {type: 'string'},
    quarantine: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scenario', 'reason', 'expires'],
        properties: {
          scenario: {type: 'string', minLength: 1, description: 'the scenario id'},
          mode: {type: 'string', minLength: 1, description: 'only under this mode (default: every mode)'},
          provider: {type: 'string', minLength: 1, description: 'only under this provider (default: every provider)'},
          reason: {type: 'string', minLength: 1, description: 'why, for the reader of the report (an issue link, say)'},
          expires: {
            type: 'string',
            pattern: '^\\d{4}-\\d{2}-\\d{2}$',
            description: 'the last day it holds (YYYY-MM-DD, UTC): a quarantine is looked at again, never forgotten',
          },
        },
      },
    },
  },
} as const

export type QuarantineFile = FromSchema<typeof quarantineSchema>
export type QuarantineEntry = QuarantineFile['quarantine'][number]
