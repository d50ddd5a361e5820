import type {FromSchema} from 'json-schema-to-ts'
import {
  endpointSchema,
  fixturesSchema,
  gateSelectionSchema,
  pluginRefSchema,
  SCHEMA_BASE,
  SCHEMA_DIALECT,
  targetSchema,
} from '../schemas/common.js'

const pricePerMillion = {type: 'number', minimum: 0, description: 'USD per 1M tokens'} as const

export const configSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'config.schema.json',
  title: 'ghx-bench configuration (.ghxbenchrc.yml)',
  description: 'Project defaults; suites override them and flags and GHX_BENCH_* variables override both.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {type: 'string'},
    target: targetSchema,
    github: {
      type: 'object',
      additionalProperties: false,
      properties: {
        api_url: {type: 'string', format: 'uri', description: 'REST base URL, e.g. https://ghe.example.com/api/v3'},
      },
    },
    provider: pluginRefSchema,
    model: {type: 'string', minLength: 1},
    endpoint: endpointSchema,
    plugins: {type: 'array', items: pluginRefSchema, description: 'npm packages, package:export specifiers or paths'},
    suites_dir: {type: 'string', minLength: 1, description: 'the catalogue folder (suites, scenarios, sets, profiles)'},
    results_dir: {type: 'string', minLength: 1},
    reports_dir: {type: 'string', minLength: 1},
    fixtures: fixturesSchema,
    pricing: {
      type: 'object',
      propertyNames: {pattern: '^[A-Za-z0-9._-]+(?:/[A-Za-z0-9._:-]+)?$'},
      description: 'model (provider/model or model) -> token prices',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input', 'output'],
        properties: {
          input: pricePerMillion,
          output: pricePerMillion,
          cache_read: pricePerMillion,
          cache_write: pricePerMillion,
        },
      },
    },
    gate: gateSelectionSchema,
  },
} as const

export type ConfigFile = FromSchema<typeof configSchema>
