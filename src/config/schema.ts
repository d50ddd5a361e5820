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

/**
 * The project's fixture settings. A suite's `fixtures` has the same keys but no defaults: what it
 * leaves out is the project's.
 */
const projectFixturesSchema = {
  ...fixturesSchema,
  default: {},
  properties: {
    ...fixturesSchema.properties,
    manifest: {...fixturesSchema.properties.manifest, default: 'fixtures/latest.json'},
    seed_id: {...fixturesSchema.properties.seed_id, default: 'default'},
    sandbox_repos: {...fixturesSchema.properties.sandbox_repos, default: []},
    shard_repos: {...fixturesSchema.properties.shard_repos, default: []},
    on_interrupt: {...fixturesSchema.properties.on_interrupt, default: 'reset'},
  },
} as const

/** The gate `gate` and `run` use when neither a suite nor a flag names one. */
const projectGateSchema = {
  ...gateSelectionSchema,
  default: {},
  properties: {
    profile: {...gateSelectionSchema.properties.profile, default: 'verify_pr'},
    baseline: {...gateSelectionSchema.properties.baseline, default: 'agent_direct'},
    candidate: {...gateSelectionSchema.properties.candidate, default: 'ghx'},
  },
} as const

export const configSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'config.schema.json',
  title: 'ghx-bench configuration (.ghxbenchrc.yml)',
  description:
    'Project settings. A key left out takes its default; GHX_BENCH_* variables override the file, a suite overrides both for its own run, and flags override all.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {type: 'string'},
    target: {...targetSchema, default: 'sandbox'},
    github: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        api_url: {
          type: 'string',
          format: 'uri',
          default: 'https://api.github.com',
          description: 'REST base URL, e.g. https://ghe.example.com/api/v3',
        },
        rate_budget: {
          type: 'object',
          additionalProperties: false,
          default: {},
          description:
            'live GitHub: each token’s rate limits, read from every response the harness gets. A run starts only with more than the reserve left of the token’s REST (core) and GraphQL points; under it, the run waits for GitHub’s window to reset, or stops (resumable, exit 3) when that is more than max_wait_s away',
          properties: {
            reserve_core: {type: 'integer', minimum: 0, default: 250, description: 'REST points kept in reserve'},
            reserve_graphql: {type: 'integer', minimum: 0, default: 250, description: 'GraphQL points kept in reserve'},
            max_wait_s: {
              type: 'number',
              minimum: 0,
              default: 1200,
              description: 'the longest wait for a window to reset before the run stops instead',
            },
          },
        },
      },
    },
    provider: {...pluginRefSchema, default: 'agent-loop'},
    model: {type: 'string', minLength: 1, default: 'oracle'},
    endpoint: endpointSchema,
    plugins: {
      type: 'array',
      items: pluginRefSchema,
      default: [],
      description: 'npm packages, package:export specifiers or paths',
    },
    suites_dir: {
      type: 'string',
      minLength: 1,
      default: 'suites',
      description: 'the catalogue folder (suites, scenarios, sets, profiles)',
    },
    results_dir: {type: 'string', minLength: 1, default: 'results'},
    reports_dir: {type: 'string', minLength: 1, default: 'reports'},
    quarantine_file: {
      type: 'string',
      minLength: 1,
      default: 'quarantine.yml',
      description: 'the quarantine file (scenarios found flaky, each with a reason and an expiry date); absent: none',
    },
    fixtures: projectFixturesSchema,
    pricing: {
      type: 'object',
      default: {},
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
    gate: projectGateSchema,
  },
} as const

/** A layer of the configuration as written (the file, the environment, a suite, flags): any key may be left out. */
export type ConfigFile = FromSchema<typeof configSchema, {keepDefaultedPropertiesOptional: true}>
/** The effective configuration: every key with a `default` in the schema is there. */
export type ConfigValues = FromSchema<typeof configSchema>

/**
 * Keys that hold a path. A path in a file or the environment is relative to the config file's folder;
 * one given as a flag is relative to the working folder, where it was typed.
 */
export const CONFIG_PATH_KEYS: ReadonlyArray<readonly string[]> = [
  ['suites_dir'],
  ['results_dir'],
  ['reports_dir'],
  ['quarantine_file'],
  ['fixtures', 'manifest'],
]
