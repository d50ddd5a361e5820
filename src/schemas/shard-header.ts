/**
 * The first line of a shard's results file (`run --shard i/N`): what the shard is, so that `merge` can
 * refuse what cannot be merged (another format, a run that cannot be compared) and find what is missing
 * (the partition names every shard's blocks) from the files alone. Readers of results files skip it.
 */
import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from './common.js'

/** The shard format this ghx-bench writes and merges. */
export const SHARD_FORMAT = 1

const versions = {type: 'object', additionalProperties: {type: 'string'}} as const
const strings = {type: 'array', items: {type: 'string'}} as const

/** What two shards must agree on for their rows to be one run, and two runs to be compared run against run. */
const comparabilityKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'ghx_bench',
    'catalogue_sha256',
    'suite',
    'scenarios',
    'repetitions',
    'modes',
    'providers',
    'plugins',
    'model',
    'target',
    'profile',
    'seed',
  ],
  properties: {
    ghx_bench: {type: 'string', description: 'the ghx-bench version'},
    catalogue_sha256: {
      type: 'string',
      description: 'SHA-256 of the suite as selected (its concurrency aside: each machine chooses its own) and of its scenarios’ definitions',
    },
    suite: {type: 'string'},
    scenarios: {...strings, description: 'the scenario ids, in the suite’s order'},
    repetitions: {type: 'integer', minimum: 1},
    modes: {
      type: 'object',
      description:
        'each mode that runs (left out by preflight: not here): its tool surface, the versions of the tools it reported and a digest of its options',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['tools', 'options_sha256'],
        properties: {tools: versions, options_sha256: {type: 'string'}},
      },
    },
    providers: {...strings, description: 'the providers every run is played under'},
    plugins: {...versions, description: 'every loaded plugin’s version, by name (modes and providers)'},
    model: {type: 'string', description: 'as rows record it'},
    target: {type: 'string', enum: ['sandbox', 'live']},
    profile: {type: ['string', 'null'], description: 'the gate profile the suite names'},
    seed: {type: 'integer'},
  },
} as const

export const shardHeaderSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'shard-header.schema.json',
  title: 'ghx-bench shard header',
  description:
    'The first line of a shard’s results file (run --shard i/N), before its rows: the format, the run, what makes shards comparable, and every shard’s blocks.',
  type: 'object',
  additionalProperties: false,
  required: ['shard_format', 'run_id', 'shard', 'key', 'partition', 'unavailable', 'not_applicable'],
  properties: {
    shard_format: {type: 'integer', minimum: 1, description: 'the shard format version (merge reads its own only)'},
    run_id: {type: 'string', description: 'the run every shard’s rows belong to'},
    shard: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'count'],
      properties: {index: {type: 'integer', minimum: 1}, count: {type: 'integer', minimum: 1}},
    },
    key: comparabilityKeySchema,
    partition: {
      type: 'array',
      items: strings,
      description:
        'the blocks (scenario/iteration) of every shard, partition[index - 1] this shard’s: every shard computes the same',
    },
    unavailable: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['mode', 'reason'],
        properties: {mode: {type: 'string'}, reason: {type: 'string'}},
      },
      description: 'the suite’s modes that preflight left out on this machine',
    },
    not_applicable: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scenario_id', 'mode', 'reason'],
        properties: {scenario_id: {type: 'string'}, mode: {type: 'string'}, reason: {type: 'string'}},
      },
      description: 'scenario x mode pairs that have no runs: the scenario says the mode cannot solve it',
    },
  },
} as const

export type ShardHeader = FromSchema<typeof shardHeaderSchema>
export type ComparabilityKey = ShardHeader['key']
