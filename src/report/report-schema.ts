/**
 * The documented shapes of `report` and `gate` JSON (schemas/report.schema.json, gate.schema.json).
 * Figures that have no data are null; rates and reductions are percentages.
 */
import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from '../schemas/common.js'

const figure = {type: ['number', 'null']} as const
const interval = {type: ['array', 'null'], items: figure, minItems: 2, maxItems: 2, description: '95% interval [low, high]'} as const
const passK = {
  type: 'object',
  additionalProperties: false,
  required: ['k', 'value'],
  properties: {k: {type: 'integer', minimum: 0}, value: figure},
} as const
const counts = {type: 'object', additionalProperties: {type: 'integer', minimum: 0}} as const
const estimate = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'interval'],
  properties: {value: figure, interval},
} as const
const reduction = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'interval', 'scenarios'],
  properties: {value: figure, interval, scenarios: {type: 'integer', minimum: 0}},
} as const
const metrics = {
  type: 'object',
  additionalProperties: false,
  required: ['tokens_active', 'latency_wall', 'tool_calls', 'cost'],
  properties: {tokens_active: figure, latency_wall: figure, tool_calls: figure, cost: figure},
} as const

export const modeSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'runs', 'success_rate', 'success_rate_ci', 'output_validity_rate', 'runner_failure_rate', 'timeout_stall_rate',
    'retry_rate', 'median_latency_ms_wall', 'median_latency_ms_agent', 'p90_latency_ms_agent', 'p95_latency_ms_agent',
    'iqr_latency_ms_agent', 'cv_latency_agent_pct', 'median_tokens_total', 'median_tokens_active', 'p90_tokens_active',
    'p95_tokens_active', 'median_tool_calls', 'median_tool_schema_tokens', 'median_cost_usd', 'pass_hat_k', 'models', 'providers',
    'tool_calls_by_category', 'tool_calls_by_operation',
  ],
  properties: {
    runs: {type: 'integer', minimum: 0},
    success_rate: figure,
    success_rate_ci: {...interval, description: 'Wilson 95% interval of the success rate'},
    output_validity_rate: figure,
    runner_failure_rate: figure,
    timeout_stall_rate: figure,
    retry_rate: figure,
    median_latency_ms_wall: figure,
    median_latency_ms_agent: figure,
    p90_latency_ms_agent: figure,
    p95_latency_ms_agent: figure,
    iqr_latency_ms_agent: figure,
    cv_latency_agent_pct: figure,
    median_tokens_total: figure,
    median_tokens_active: figure,
    p90_tokens_active: figure,
    p95_tokens_active: figure,
    median_tool_calls: figure,
    median_tool_schema_tokens: {...figure, description: 'tokens of the tool definitions sent every turn (the schema tax), null where rows do not record it'},
    median_cost_usd: figure,
    pass_hat_k: {...passK, description: 'mean over scenarios of pass^k at the k every scenario reaches'},
    models: {type: 'array', items: {type: 'string'}},
    providers: {type: 'array', items: {type: 'string'}},
    tool_calls_by_category: counts,
    tool_calls_by_operation: counts,
  },
} as const

const scenarioModeSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'scenario_id', 'mode', 'runs', 'success_rate', 'median_latency_ms_wall', 'median_latency_ms_agent',
    'median_tokens_total', 'median_tokens_active', 'median_tool_calls', 'median_cost_usd', 'pass_at_k', 'pass_hat_k',
  ],
  properties: {
    scenario_id: {type: 'string'},
    mode: {type: 'string'},
    runs: {type: 'integer', minimum: 0},
    success_rate: figure,
    median_latency_ms_wall: figure,
    median_latency_ms_agent: figure,
    median_tokens_total: figure,
    median_tokens_active: figure,
    median_tool_calls: figure,
    median_cost_usd: figure,
    pass_at_k: passK,
    pass_hat_k: passK,
    total_latency_ms_wall: {type: 'number', minimum: 0, description: 'wall latency summed over the runs (JUnit time)'},
  },
} as const

const clippedText = {type: ['string', 'null'], description: 'JSON text of the value (strings as they are), cut at 300 characters'} as const
const outcomeCounts = {type: 'object', additionalProperties: {type: 'integer', minimum: 1}} as const

/** Why runs failed: every failed run counted per scenario x mode, the first ones in detail. */
export const failuresSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['failed_runs', 'by_scenario_mode', 'runs'],
  description: 'the runs that did not succeed (success false)',
  properties: {
    failed_runs: {type: 'integer', minimum: 0, description: 'every failed run, listed or not'},
    by_scenario_mode: {
      type: 'array',
      description: 'per scenario x mode with a failure: the failed runs by outcome and by error type (all of them)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['scenario_id', 'mode', 'runs', 'failed', 'outcomes', 'error_types'],
        properties: {
          scenario_id: {type: 'string'},
          mode: {type: 'string'},
          runs: {type: 'integer', minimum: 0},
          failed: {type: 'integer', minimum: 1},
          outcomes: {...outcomeCounts, description: 'outcome (fail, timeout, infra_error) -> failed runs'},
          error_types: {...outcomeCounts, description: 'error type -> failed runs; "none" when a failed run recorded no error'},
        },
      },
    },
    runs: {
      type: 'array',
      description: 'the first failed runs read, at most 20 per scenario x mode and 1000 in all: outcome, error, failing checkpoints, trace',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['run_id', 'scenario_id', 'mode', 'iteration', 'outcome', 'error', 'checkpoints', 'trace', 'retries'],
        properties: {
          run_id: {type: 'string'},
          scenario_id: {type: 'string'},
          mode: {type: 'string'},
          iteration: {type: 'integer', minimum: 1},
          outcome: {type: 'string', enum: ['pass', 'fail', 'timeout', 'infra_error']},
          error: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['type', 'message'],
            properties: {type: {type: 'string'}, message: {type: 'string', description: 'cut at 300 characters'}},
          },
          checkpoints: {
            type: 'array',
            description: 'the checkpoints that failed',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'expected', 'actual', 'message'],
              properties: {name: {type: 'string'}, expected: clippedText, actual: clippedText, message: {type: ['string', 'null']}},
            },
          },
          trace: {type: ['string', 'null'], description: 'the session trace, relative to the results folder (see trace_root)'},
          retries: {type: 'integer', minimum: 0},
        },
      },
    },
  },
} as const

const scenarioComparisonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scenario_id', 'baseline_stable_runs', 'candidate_stable_runs', 'eligible', 'baseline', 'candidate', 'reduction_pct'],
  properties: {
    scenario_id: {type: 'string'},
    baseline_stable_runs: {type: 'integer', minimum: 0},
    candidate_stable_runs: {type: 'integer', minimum: 0},
    eligible: {type: 'boolean'},
    baseline: metrics,
    candidate: metrics,
    reduction_pct: metrics,
  },
} as const

export const comparisonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['baseline', 'candidate', 'min_samples', 'reliability', 'efficiency', 'scenarios'],
  properties: {
    baseline: {type: 'string'},
    candidate: {type: 'string'},
    min_samples: {type: 'integer', minimum: 1},
    reliability: {
      type: 'object',
      additionalProperties: false,
      required: ['success_rate_delta_pp', 'success_rate', 'output_validity_rate', 'runner_failure_rate', 'timeout_stall_rate', 'retry_rate'],
      properties: {
        success_rate_delta_pp: estimate,
        success_rate: estimate,
        output_validity_rate: estimate,
        runner_failure_rate: estimate,
        timeout_stall_rate: estimate,
        retry_rate: estimate,
      },
    },
    efficiency: {
      type: 'object',
      additionalProperties: false,
      required: [
        'total_scenarios', 'eligible_scenarios', 'coverage_pct', 'tokens_active_reduction_pct', 'latency_reduction_pct',
        'tool_call_reduction_pct', 'cost_reduction_pct',
      ],
      properties: {
        total_scenarios: {type: 'integer', minimum: 0},
        eligible_scenarios: {type: 'integer', minimum: 0},
        coverage_pct: estimate,
        tokens_active_reduction_pct: reduction,
        latency_reduction_pct: reduction,
        tool_call_reduction_pct: reduction,
        cost_reduction_pct: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['value', 'interval', 'scenarios', 'worst_scenario'],
          properties: {value: figure, interval, scenarios: {type: 'integer', minimum: 0}, worst_scenario: {type: ['string', 'null']}},
          description: 'the worst eligible scenario’s reduction; null when no row has a cost',
        },
      },
    },
    scenarios: {type: 'array', items: scenarioComparisonSchema},
  },
} as const

const provenance = {
  schema_version: {const: 1},
  generated_at: {type: 'string'},
  inputs: {type: 'array', items: {type: 'string'}},
  run_ids: {type: 'array', items: {type: 'string'}},
  rows: {type: 'integer', minimum: 0},
  warnings: {type: 'array', items: {type: 'string'}},
  bootstrap: {
    type: 'object',
    additionalProperties: false,
    required: ['seed', 'resamples'],
    properties: {seed: {type: 'integer'}, resamples: {type: 'integer', minimum: 1}},
  },
} as const

export const reportSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'report.schema.json',
  title: 'ghx-bench report (summary.json)',
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'generated_at', 'inputs', 'run_ids', 'rows', 'warnings', 'bootstrap', 'baseline', 'modes', 'scenarios', 'deltas'],
  properties: {
    ...provenance,
    baseline: {type: 'string'},
    trace_root: {type: ['string', 'null'], description: 'the results folder the rows were read from, which traces are relative to; null when the inputs are in several folders'},
    failures: failuresSchema,
    not_applicable: {
      type: 'array',
      description: 'scenario x mode pairs the scenario declares the mode cannot solve: shown as n/a, never as failed',
      items: {type: 'object', additionalProperties: false, required: ['scenario_id', 'mode', 'reason'], properties: {scenario_id: {type: 'string'}, mode: {type: 'string'}, reason: {type: 'string'}}},
    },
    modes: {type: 'object', additionalProperties: modeSummarySchema, description: 'mode -> summary'},
    scenarios: {type: 'array', items: scenarioModeSchema},
    deltas: {type: 'array', items: comparisonSchema, description: 'each other mode against the baseline'},
  },
} as const

const checkSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'group', 'value', 'operator', 'threshold', 'interval', 'verdict', 'detail'],
  properties: {
    name: {
      type: 'string',
      enum: [
        'reliability_success_rate_non_inferior', 'reliability_output_validity', 'reliability_runner_failure_rate',
        'reliability_timeout_stall_rate', 'reliability_retry_rate', 'efficiency_coverage', 'efficiency_tokens_active_reduction',
        'efficiency_latency_reduction', 'efficiency_tool_call_reduction', 'efficiency_cost_reduction',
      ],
    },
    group: {type: 'string', enum: ['reliability', 'efficiency']},
    value: figure,
    operator: {type: 'string', enum: ['>=', '<=']},
    threshold: {type: 'number'},
    interval,
    verdict: {type: 'string', enum: ['pass', 'fail', 'inconclusive', 'skipped']},
    detail: {type: 'string'},
    mde: {
      ...figure,
      description:
        'minimum detectable effect, in the units of value: the distance from the threshold a true value needs for a decisive verdict 80% of the time at 95% confidence, (1.96 + 0.84) x SE with SE = the interval width / (2 x 1.96); efficiency checks only (null for reliability rates, coverage, and a check without an interval)',
    },
  },
} as const

export const gateSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'gate.schema.json',
  title: 'ghx-bench gate result (gate.json)',
  type: 'object',
  additionalProperties: false,
  required: [
    'schema_version', 'generated_at', 'inputs', 'run_ids', 'rows', 'warnings', 'bootstrap', 'profile', 'model', 'override',
    'decision', 'min_samples', 'thresholds', 'baseline', 'candidate', 'checks', 'verdict', 'exit_code', 'comparison',
  ],
  properties: {
    ...provenance,
    profile: {type: 'string'},
    model: {type: ['string', 'null'], description: 'the model whose thresholds apply'},
    override: {type: ['string', 'null'], description: 'the profile override used, if any'},
    decision: {type: 'string', enum: ['point', 'ci']},
    min_samples: {type: 'integer', minimum: 1},
    thresholds: {type: 'object', additionalProperties: {type: 'number'}},
    baseline: {type: 'string'},
    candidate: {type: 'string'},
    checks: {type: 'array', items: checkSchema},
    verdict: {type: 'string', enum: ['pass', 'fail', 'inconclusive']},
    exit_code: {type: 'integer', enum: [0, 1, 3]},
    comparison: comparisonSchema,
    trace_root: {type: ['string', 'null'], description: 'the results folder traces are relative to'},
    failures: {...failuresSchema, description: 'the failed runs of the baseline and the candidate'},
  },
} as const

export type ReportDocument = FromSchema<typeof reportSchema>
export type GateDocument = FromSchema<typeof gateSchema>
