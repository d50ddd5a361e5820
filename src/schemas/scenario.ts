import type {FromSchema} from 'json-schema-to-ts'
import {
  bindingPathSchema,
  capabilityIdSchema,
  fixtureKinds,
  repoSchema,
  SCHEMA_BASE,
  SCHEMA_DIALECT,
  scenarioIdSchema,
} from './common.js'

/** One step of a reference plan: a tool call, or (last) how the final answer is built. */
const referenceStepSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['tool', 'args'],
      properties: {
        tool: {type: 'string', minLength: 1, description: 'the tool name the mode offers (shell, an MCP tool, ...)'},
        args: {type: 'object', description: 'the tool call arguments; strings may use {{placeholders}}'},
        allow_failure: {
          type: 'boolean',
          description: 'this step may fail (a probe whose failure the plan expects); any other failed step fails the plan',
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['answer'],
      properties: {
        answer: {
          description: 'the envelope data of an atomic scenario, built from tool outputs: "$out" is the last output (parsed JSON), "$out2" the second, followed by .field or [0]; in a list, "...$out2" spreads that output\'s list in (the pages of a paged read)',
        },
      },
    },
  ],
} as const

const conditionSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: {type: 'string', minLength: 1, description: 'a condition plugin name: non_empty, count_gte, field_equals, ...'},
  },
  description: 'a condition and its parameters, checked against the condition plugin’s paramsSchema',
} as const

const checkpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'task', 'condition'],
  properties: {
    name: {type: 'string', pattern: '^[a-z][a-z0-9_]*$'},
    description: {type: 'string'},
    task: capabilityIdSchema,
    input: {type: 'object', description: 'task input; a value that is exactly one {{var}} keeps its native type'},
    condition: {
      ...conditionSchema,
      description:
        'judges the task result (GitHub’s state after the run); besides the bindings it may use {{answer}} (the envelope data of an atomic scenario, a workflow’s final text), {{final_text}} and, in atomic scenarios, {{input}}, with dotted paths ({{answer.title}})',
    },
  },
} as const

const commonProperties = {
  $schema: {type: 'string'},
  id: scenarioIdSchema,
  name: {type: 'string', minLength: 1},
  description: {type: 'string'},
  tags: {type: 'array', items: {type: 'string', pattern: '^[a-z0-9:_-]+$'}, uniqueItems: true},
  timeout_ms: {type: 'integer', minimum: 1000},
  allowed_retries: {type: 'integer', minimum: 0, maximum: 5, default: 0, description: 'retries of an infrastructure failure beyond the suite’s infra_retries; a failed check is never retried'},
  fixture: {
    type: 'object',
    additionalProperties: false,
    properties: {
      repo: repoSchema,
      requires: {type: 'array', items: {type: 'string', enum: fixtureKinds}, uniqueItems: true},
      bindings: {
        type: 'object',
        propertyNames: {pattern: '^[A-Za-z_][A-Za-z0-9_]*$'},
        additionalProperties: bindingPathSchema,
        description: 'placeholder name -> dotted path into the fixture manifest',
      },
      reseed_per_iteration: {type: 'boolean', description: 'reset the required fixtures before every iteration'},
      seed_per_iteration: {
        type: 'boolean',
        description: 'seed fresh resources for every iteration (for state GitHub cannot undo, e.g. submitted reviews)',
      },
    },
  },
  reference: {
    type: 'object',
    propertyNames: {pattern: '^[a-z][a-z0-9_-]*$'},
    additionalProperties: {type: 'array', items: referenceStepSchema},
    description: 'per mode, the tool calls a competent agent makes (played by the oracle model)',
  },
  requires: {
    type: 'object',
    propertyNames: {pattern: '^[a-z][a-z0-9_-]*$'},
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      required: ['tools', 'reason'],
      properties: {
        tools: {
          type: 'object',
          minProperties: 1,
          propertyNames: {pattern: '^[a-z][a-z0-9_-]*$'},
          additionalProperties: {type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$'},
          description: 'tool -> the lowest version that has what the plan needs ({gh: "2.50.0"}), checked against the versions the mode reports',
        },
        reason: {type: 'string', minLength: 1, description: 'what the scenario needs of those versions'},
      },
    },
    description: 'per mode, the tool versions the scenario needs; with older tools the pair is reported as not applicable here, with the reason',
  },
  fallbacks: {
    type: 'object',
    propertyNames: {pattern: '^[a-z][a-z0-9_-]*$'},
    additionalProperties: {type: 'string', minLength: 1},
    description: 'per mode, why its reference plan rests on a fallback (the mode’s own tool fails and another tool does the work): a defect of the tool layer, listed by calibration and counted in the report',
  },
  not_applicable: {
    type: 'object',
    propertyNames: {pattern: '^[a-z][a-z0-9_-]*$'},
    additionalProperties: {type: 'string', minLength: 1},
    description: 'per mode, why the mode cannot solve this scenario (reported as not applicable, not failed)',
  },
} as const

const atomicScenarioSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'id', 'name', 'task', 'input', 'assertions'],
  properties: {
    type: {const: 'atomic'},
    ...commonProperties,
    task: capabilityIdSchema,
    input: {type: 'object'},
    prompt: {type: 'string', minLength: 1, description: 'optional prompt; the default asks for the task and input'},
    assertions: {
      type: 'object',
      additionalProperties: false,
      required: ['expected_outcome'],
      properties: {
        expected_outcome: {type: 'string', enum: ['success', 'expected_error']},
        required_fields: {type: 'array', items: {type: 'string', enum: ['ok', 'data', 'error', 'meta']}},
        required_data_fields: {type: 'array', items: {type: 'string', minLength: 1}},
        required_meta_fields: {type: 'array', items: {type: 'string', minLength: 1}},
        data_type: {type: 'string', enum: ['array', 'object']},
        expected_route_used: {type: 'string', enum: ['cli', 'graphql', 'rest']},
        expected_error_code: {type: 'string', minLength: 1},
        require_tool_calls: {type: 'boolean', default: true, description: 'the agent must call at least min_tool_calls tools'},
        min_tool_calls: {type: 'integer', minimum: 0, default: 1},
        max_tool_calls: {type: 'integer', minimum: 0},
        require_attempt_trace: {type: 'boolean'},
        checkpoints: {
          type: 'array',
          items: checkpointSchema,
          description: 'what proves the work: GitHub’s state after a change, the answer compared with GitHub’s for a read ({{answer}})',
        },
      },
    },
  },
} as const

const workflowScenarioSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'id', 'name', 'prompt', 'assertions'],
  properties: {
    type: {const: 'workflow'},
    ...commonProperties,
    prompt: {type: 'string', minLength: 1, description: 'natural-language task with {{placeholders}}'},
    assertions: {
      type: 'object',
      additionalProperties: false,
      required: ['expected_outcome', 'checkpoints'],
      properties: {
        expected_outcome: {type: 'string', enum: ['success', 'expected_error']},
        checkpoints: {type: 'array', minItems: 1, items: checkpointSchema},
        expected_capabilities: {type: 'array', items: capabilityIdSchema, uniqueItems: true},
      },
    },
  },
} as const

export const scenarioSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'scenario.schema.json',
  title: 'ghx-bench scenario',
  description: 'One GitHub task: atomic (one capability call) or workflow (a prompt solved in several steps).',
  type: 'object',
  required: ['type'],
  properties: {type: {type: 'string', description: 'atomic or workflow'}},
  discriminator: {propertyName: 'type'},
  oneOf: [atomicScenarioSchema, workflowScenarioSchema],
} as const

/** A scenario as read, after the defaults pass: every key with a `default` in the schema is there. */
export type Scenario = FromSchema<typeof scenarioSchema>
export type AtomicScenario = Extract<Scenario, {type: 'atomic'}>
export type WorkflowScenario = Extract<Scenario, {type: 'workflow'}>
export type Checkpoint = WorkflowScenario['assertions']['checkpoints'][number]

/** A scenario's checkpoints: a workflow's, or the atomic scenario's (which may have none when it expects an error). */
export const checkpointsOf = (scenario: Scenario): readonly Checkpoint[] => scenario.assertions.checkpoints ?? []
export type FixtureKind = (typeof fixtureKinds)[number]
