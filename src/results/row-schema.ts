import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from '../schemas/common.js'

const count = {type: 'integer', minimum: 0} as const
const nullableString = {type: ['string', 'null']} as const
const timestamp = {type: ['string', 'null'], description: 'ISO 8601'} as const

/** Whole-session token figures; active = total - cache_read. */
const tokensSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'output', 'reasoning', 'cache_read', 'cache_write', 'total', 'active'],
  properties: {
    input: count,
    output: count,
    reasoning: count,
    cache_read: count,
    cache_write: count,
    total: count,
    active: count,
  },
} as const

const outcomeSchema = {
  type: 'string',
  enum: ['pass', 'fail', 'timeout', 'infra_error'],
  description:
    'pass: success; fail: the agent finished but the checks failed; timeout: timed out or stalled; infra_error: provider, network or harness failure',
} as const

const errorSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['type', 'message'],
  properties: {type: {type: 'string'}, message: {type: 'string'}},
} as const

export const rowSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'row.schema.json',
  title: 'ghx-bench result row',
  description: 'One run: a scenario under a mode, one iteration, with every attempt it took.',
  type: 'object',
  additionalProperties: false,
  required: [
    'schema_version',
    'run_id',
    'suite',
    'scenario_id',
    'scenario_type',
    'scenario_set',
    'mode',
    'provider',
    'model',
    'iteration',
    'started_at',
    'finished_at',
    'outcome',
    'success',
    'output_valid',
    'error',
    'latency_ms_wall',
    'latency_ms_agent',
    'tokens',
    'cost_usd',
    'tool_calls',
    'github_api_calls',
    'checkpoints',
    'retries',
    'attempts',
    'versions',
    'git',
    'fixture_seed',
    'trace',
  ],
  properties: {
    schema_version: {const: 1},
    run_id: {type: 'string', minLength: 1},
    suite: nullableString,
    scenario_id: {type: 'string', minLength: 1},
    scenario_type: {type: ['string', 'null'], enum: ['atomic', 'workflow', null]},
    scenario_set: nullableString,
    mode: {type: 'string', minLength: 1},
    provider: nullableString,
    model: {type: ['string', 'null'], description: 'provider/model'},
    iteration: {type: 'integer', minimum: 1, description: '1-based'},
    started_at: timestamp,
    finished_at: timestamp,
    outcome: outcomeSchema,
    success: {
      type: 'boolean',
      description: 'outcome is pass: the report and the gate refuse a row where they disagree',
    },
    output_valid: {type: 'boolean'},
    expected_outcome: {
      type: 'string',
      enum: ['success', 'expected_error'],
      description:
        'the scenario’s expected outcome: a workflow expecting an error passes when a checkpoint fails (the task must not be done); absent in rows written before it',
    },
    error: errorSchema,
    latency_ms_wall: {
      type: 'number',
      minimum: 0,
      description:
        'run start to its row built: every attempt (setup, agent, checkpoints); writing its traces and the row follows',
    },
    latency_ms_agent: {
      type: ['number', 'null'],
      minimum: 0,
      description: 'the agent’s time, the session: model turns and tools; the gate’s latency',
    },
    latency_ms_harness: {
      type: ['number', 'null'],
      minimum: 0,
      description:
        'the harness’s own time, wall - agent: fixture resets, opening and closing the mode (an MCP server starting and exiting), checkpoints, retried attempts; reported beside the gate’s latency, never in it. Null when the agent time is unknown; rows without it get wall - agent when read',
    },
    tokens: tokensSchema,
    cost_usd: {
      type: ['number', 'null'],
      minimum: 0,
      description: 'null when neither the provider nor a price table gives one',
    },
    tool_calls: {
      type: 'object',
      additionalProperties: false,
      required: ['total', 'failed'],
      properties: {
        total: count,
        failed: {type: ['integer', 'null'], minimum: 0, description: 'null when the source did not record failures'},
        by_category: {
          type: 'object',
          additionalProperties: count,
          description: 'gh_cli, ghx_capability, mcp_tool, shell, other',
        },
        by_operation: {
          type: 'object',
          additionalProperties: count,
          description: 'canonical operation (issue.labels.add) -> calls',
        },
        by_route: {
          type: 'object',
          additionalProperties: count,
          description:
            'tool-layer executions (one per `ghx run`, one per chain step) by the route they took (cli, graphql, rest): as ghx’s own log of the run names them (GHX_LOG_DIR), else as its envelopes’ meta.route_used (--verbose) say; `unknown` for an execution neither names',
        },
        invocations: {
          type: 'object',
          additionalProperties: count,
          description:
            'gh and ghx processes the run started: counted as they ran where the arm logs them (a loop body counts each pass; `ghx>gh` are ghx’s own gh calls), else as written in the commands',
        },
      },
    },
    github_api_calls: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'every request the agent sent GitHub (REST and GraphQL); null where not observed',
    },
    github_api: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: [
        'source',
        'rest_requests',
        'graphql_requests',
        'graphql_points',
        'secondary_limit_waits',
        'retry_after_s',
      ],
      description:
        'what the agent’s GitHub traffic cost against GitHub’s rate limits (absent in rows before it; null where not observed). A figure is null where its source cannot see it',
      properties: {
        source: {
          type: 'string',
          enum: ['sandbox', 'live_rate_limit'],
          description:
            'sandbox: counted per request by the sandbox for the run’s own token; live_rate_limit: the token’s used counts of GET /rate_limit (core, graphql) before and after the agent ran',
        },
        rest_requests: {type: ['integer', 'null'], minimum: 0, description: 'REST requests (resource core)'},
        graphql_requests: {type: ['integer', 'null'], minimum: 0},
        graphql_points: {
          type: ['integer', 'null'],
          minimum: 0,
          description: 'GraphQL points (resource graphql): each call’s requests / 100, rounded, at least 1',
        },
        secondary_limit_waits: {
          type: ['integer', 'null'],
          minimum: 0,
          description: 'answers that told the agent to wait (secondary rate limit or 429, with retry-after)',
        },
        retry_after_s: {type: ['number', 'null'], minimum: 0, description: 'the waits those answers asked for, summed'},
      },
    },
    checkpoints: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'passed'],
        properties: {
          name: {type: 'string'},
          passed: {type: 'boolean'},
          expected: {},
          actual: {},
          message: {type: 'string'},
          description: {type: 'string'},
          task: {type: 'string', description: 'the read task the checkpoint ran'},
          result: {description: 'the task’s whole result, kept so the run can be re-graded offline'},
        },
      },
    },
    retries: {...count, description: 'attempts - 1: infrastructure retries of the run'},
    attempts: {
      type: 'array',
      description: 'every attempt of the run, the last one included',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['attempt', 'outcome', 'error', 'latency_ms_wall', 'tokens'],
        properties: {
          attempt: {type: 'integer', minimum: 1},
          outcome: outcomeSchema,
          error: errorSchema,
          started_at: timestamp,
          latency_ms_wall: {type: 'number', minimum: 0},
          tokens: tokensSchema,
          injected_faults: {
            ...count,
            description: 'faults --inject-faults put into this attempt’s traffic (GitHub and model requests)',
          },
        },
      },
    },
    versions: {
      type: 'object',
      additionalProperties: false,
      required: ['harness', 'plugins'],
      properties: {
        harness: nullableString,
        plugins: {type: 'object', additionalProperties: {type: 'string'}},
        tools: {
          type: 'object',
          additionalProperties: {type: 'string'},
          description: 'versions of the tools the mode ran (ghx, gh), as its preflight found them',
        },
        runtime: {
          type: 'object',
          additionalProperties: {type: ['string', 'null']},
          description:
            'the agent runtime the provider drove and its version (`{"claude-code": "2.1.332"}`), as the provider reported it',
        },
      },
    },
    git: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['repo', 'commit'],
      properties: {repo: nullableString, commit: nullableString},
    },
    fixture_seed: nullableString,
    trace: {type: ['string', 'null'], description: 'path of the session trace, relative to the results folder'},
    variables: {
      type: ['object', 'null'],
      description: 'the placeholder values of this run (bindings and built-ins), for re-grading',
    },
    timing: {
      type: 'object',
      additionalProperties: false,
      description:
        'where the wall time went: the harness’s own share is wall - model - tools - session - fixtures - checkpoints',
      properties: {
        model_ms: {type: 'number', minimum: 0, description: 'waiting for the model endpoint'},
        tools_ms: {type: 'number', minimum: 0, description: 'running the mode’s tools'},
        session_ms: {
          type: 'number',
          minimum: 0,
          description: 'opening and closing the mode session (an MCP server starts and exits here)',
        },
        fixtures_ms: {type: 'number', minimum: 0, description: 'resetting or seeding fixtures'},
        checkpoints_ms: {type: 'number', minimum: 0, description: 'reading GitHub for the checkpoints'},
        turns: {...count, description: 'model turns'},
      },
    },
    tool_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'tokens'],
      description:
        'the tools the mode offered: how many, and the tokens of their definitions, which every turn re-sends (the schema tax)',
      properties: {count, tokens: count, names: {type: 'array', items: {type: 'string'}}},
    },
    injected_faults: {
      ...count,
      description:
        'faults --inject-faults put into the run’s own traffic (its agent’s GitHub and model requests), over all attempts; an attempt that failed with faults in its traffic is an infra_error (injected_faults), never the agent’s fail',
    },
    github_rate_waits: {
      type: 'object',
      additionalProperties: false,
      required: ['waited_ms', 'secondary_limits'],
      description:
        'live GitHub: what rate limits cost while the run waited to start and ran: the time waited for a window to reset (github.rate_budget) or for a secondary limit’s retry-after, and how many secondary limits the harness’s requests met (absent on the sandbox, which never limits)',
      properties: {
        waited_ms: {type: 'number', minimum: 0},
        secondary_limits: count,
      },
    },
    route_used: {
      type: ['string', 'null'],
      description:
        'the route of the run’s tool layer (ghx): meta.route_used of the final answer’s envelope where it has one (--verbose); else the route of the run’s last ghx command as ghx’s log names it (with several routes in the run, the last command’s; a chain’s `cli` when every step ran cli, else `graphql`, as ghx’s chain envelope says), or as the last envelope in the calls that reports one says; null when nothing names one (modes without a tool layer)',
    },
    fallback: {
      type: ['boolean', 'null'],
      description:
        'a call of the mode’s own tool layer (ghx) failed and a later call of another GitHub tool (gh in the shell, an MCP tool) succeeded: a pass then rests on a fallback, not on the layer. False for modes without a tool layer (agent_direct, mcp); null when unknown (no trace; a layer call that could not be read; rows written before it)',
    },
    internal_retries: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'meta.attempts with status error: the tool layer’s own retries',
    },
    extra: {type: 'object', description: 'fields of an imported row that have no home here, kept verbatim'},
  },
} as const

export type Row = FromSchema<typeof rowSchema>
export type Outcome = Row['outcome']
export type Tokens = Row['tokens']
