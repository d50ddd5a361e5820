import type {FromSchema} from 'json-schema-to-ts'
import {
  endpointSchema,
  fixturesSchema,
  gateSelectionSchema,
  MAX_SEED,
  nameSchema,
  pluginRefSchema,
  SCHEMA_BASE,
  SCHEMA_DIALECT,
  targetSchema,
} from './common.js'

export const suiteSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'suite.schema.json',
  title: 'ghx-bench suite',
  description: 'Which scenarios, under which modes, how often, with which model, provider, target and gate.',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'scenarios', 'modes'],
  properties: {
    $schema: {type: 'string'},
    name: nameSchema,
    description: {type: 'string'},
    scenarios: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        set: nameSchema,
        ids: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: {type: 'string', pattern: '^[a-z0-9*?-]+$'},
          description: 'scenario ids or globs over ids (issue-*)',
        },
        exclude: {type: 'array', uniqueItems: true, items: {type: 'string', pattern: '^[a-z0-9*?-]+$'}},
      },
      description: 'a set, ids or globs; exclude removes ids or globs from the selection',
    },
    modes: {type: 'array', minItems: 1, items: pluginRefSchema, description: 'modes to compare'},
    repetitions: {type: 'integer', minimum: 1, maximum: 1000, default: 1, description: 'iterations per scenario and mode'},
    provider: {...pluginRefSchema, description: 'the agent runtime that drives the model (default: the config’s provider, agent-loop); or providers'},
    providers: {
      type: 'array',
      minItems: 1,
      items: pluginRefSchema,
      description: 'several agent runtimes: every run is played under each (scenario x mode x provider x iteration), and each provider is reported and gated apart; not with provider',
    },
    model: {type: 'string', minLength: 1, description: 'oracle, noop, or provider/model of an OpenAI-compatible endpoint'},
    endpoint: endpointSchema,
    target: targetSchema,
    fixtures: fixturesSchema,
    concurrency: {type: 'integer', minimum: 1, maximum: 64, default: 1, description: 'runs at once (runs that share a fixture never overlap)'},
    timeouts: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        run_ms: {type: 'integer', minimum: 1000, default: 60000, description: 'default for scenarios without timeout_ms'},
        stall_ms: {type: 'integer', minimum: 1000, default: 60000, description: 'no model or tool progress for this long ends a run'},
        checkpoint_ms: {
          type: 'integer',
          minimum: 0,
          description: 'how long checkpoints are polled (when left out, the target’s own: 12 s on live GitHub, which is eventually consistent; 2 s on the sandbox, which is consistent at once)',
        },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_turns: {type: 'integer', minimum: 1, description: 'model turns per run'},
        max_tokens: {type: 'integer', minimum: 1, description: 'tokens per run, all turns together'},
      },
    },
    infra_retries: {type: 'integer', minimum: 0, maximum: 10, default: 2, description: 'retries of a run that failed for an infrastructure reason; a failed check is never retried'},
    seed: {type: 'integer', minimum: 0, maximum: MAX_SEED, default: 1, description: 'seeds the run order and the bootstrap (0 to 4294967295: the generator keeps 32 bits)'},
    read_only: {type: 'boolean', default: false, description: 'refuse scenarios tagged mutation'},
    warmup: {type: 'boolean', default: false, description: 'one unrecorded warm-up run before the first recorded one'},
    gate: gateSelectionSchema,
  },
  // One way to name the providers: `provider` beside `providers` is refused at the `provider` key.
  dependentSchemas: {
    providers: {properties: {provider: {not: {}, description: 'is not allowed beside providers: name one provider, or list them all under providers'}}},
  },
} as const

/** A suite as read, after the defaults pass: every key with a `default` in the schema is there. */
export type Suite = FromSchema<typeof suiteSchema>
/** A suite as written (a file, or one built in memory): keys with a default may be left out. */
export type SuiteInput = FromSchema<typeof suiteSchema, {keepDefaultedPropertiesOptional: true}>
export type PluginRef = Suite['modes'][number]
