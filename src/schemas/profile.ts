import type {FromSchema} from 'json-schema-to-ts'
import {nameSchema, SCHEMA_BASE, SCHEMA_DIALECT} from './common.js'

const percent = {type: 'number', minimum: 0, maximum: 100} as const
/** Reductions may be negative: a profile can tolerate a candidate that costs a little more. */
const reductionPercent = {type: 'number', minimum: -1000, maximum: 100} as const

export const thresholdKeys = [
  'max_success_rate_drop_pct',
  'min_output_validity_rate_pct',
  'max_runner_failure_rate_pct',
  'max_timeout_stall_rate_pct',
  'max_retry_rate_pct',
  'min_efficiency_coverage_pct',
  'min_tokens_active_reduction_pct',
  'min_latency_reduction_pct',
  'min_tool_call_reduction_pct',
  'min_cost_reduction_pct',
] as const

const thresholdProperties = {
  max_success_rate_drop_pct: {...percent, description: 'candidate success may trail the baseline by at most this many points (decision ci: the non-inferiority margin of a one-sided 5% test: the paired exact test on the runner’s blocks, Newcombe’s interval for rows not paired)'},
  min_output_validity_rate_pct: {...percent, description: 'candidate output validity, at least (decision ci: the exact binomial test of the invalid share, one-sided 5%)'},
  max_runner_failure_rate_pct: {...percent, description: 'candidate runner (infrastructure) failures, timeouts included, at most (decision ci: exact binomial test, one-sided 5%)'},
  max_timeout_stall_rate_pct: {...percent, description: 'candidate timeouts and stalls, at most (decision ci: exact binomial test, one-sided 5%)'},
  max_retry_rate_pct: {...percent, description: 'candidate runs that needed a retry, at most (decision ci: exact binomial test, one-sided 5%)'},
  min_efficiency_coverage_pct: {...percent, description: 'scenarios with min_samples stable rows in both modes, at least'},
  min_tokens_active_reduction_pct: {...reductionPercent, description: 'median per-scenario active-token reduction, at least'},
  min_latency_reduction_pct: {...reductionPercent, description: 'median per-scenario wall-latency reduction, at least'},
  min_tool_call_reduction_pct: {...reductionPercent, description: 'median per-scenario tool-call reduction, at least'},
  min_cost_reduction_pct: {...reductionPercent, description: 'cost reduction of the worst eligible scenario, at least'},
  max_fallback_rate_pct: {
    ...percent,
    description:
      'optional, off by default: candidate runs that rest on a fallback (a call of its tool layer failed and a later gh call succeeded), at most. Without it the fallback rate is shown beside the reliability checks, not judged',
  },
} as const

const decisionSchema = {
  type: 'string',
  enum: ['point', 'ci'],
  description: 'point: pass/fail on the point value (the predecessors’ rule); ci: inconclusive when the 95% interval straddles the threshold',
} as const

const estimandSchema = {
  type: 'string',
  enum: ['suite', 'population'],
  description:
    'what the efficiency checks estimate. suite (a PR gate on a fixed suite; the default): the effect on these scenarios, the interval from their runs alone, with the spread between scenarios, a prediction interval and the worst scenario shown beside it. population (release claims): the effect over scenarios like these, the spread between scenarios counted as error; refused (inconclusive) below 10 scenarios',
} as const

const minSamplesSchema = {type: 'integer', minimum: 1, description: 'stable rows per scenario per mode for efficiency'} as const

export const profileSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'profile.schema.json',
  title: 'ghx-bench gate profile',
  description: 'Named thresholds of the dual gate (reliability, efficiency), with per-model overrides.',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'decision', 'min_samples', 'thresholds'],
  properties: {
    $schema: {type: 'string'},
    name: nameSchema,
    description: {type: 'string'},
    decision: decisionSchema,
    estimand: estimandSchema,
    min_samples: minSamplesSchema,
    thresholds: {
      type: 'object',
      additionalProperties: false,
      required: [...thresholdKeys],
      properties: thresholdProperties,
    },
    overrides: {
      type: 'object',
      propertyNames: {pattern: '^[A-Za-z0-9._-]+/[A-Za-z0-9._:-]+$'},
      description: 'provider/model -> thresholds that replace the defaults for rows of that model',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          decision: decisionSchema,
          estimand: estimandSchema,
          min_samples: minSamplesSchema,
          thresholds: {type: 'object', additionalProperties: false, properties: thresholdProperties},
        },
      },
    },
  },
} as const

export type Profile = FromSchema<typeof profileSchema>
// max_fallback_rate_pct is optional: its check is made only where a profile sets it.
export type ThresholdKey = (typeof thresholdKeys)[number] | 'max_fallback_rate_pct'
export type Thresholds = Profile['thresholds']
