/**
 * The documented shapes of `report` and `gate` JSON (schemas/report.schema.json, gate.schema.json).
 * Figures that have no data are null; rates and reductions are percentages.
 */
import type {FromSchema} from 'json-schema-to-ts'
import {SCHEMA_BASE, SCHEMA_DIALECT} from '../../schemas/common.js'

const figure = {type: ['number', 'null']} as const
const interval = {
  type: ['array', 'null'],
  items: figure,
  minItems: 2,
  maxItems: 2,
  description: '95% interval [low, high]',
} as const
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
  properties: {
    value: figure,
    interval,
    runs: {
      type: 'integer',
      minimum: 0,
      description: 'the runs the rate is over (a difference: the fewer of the two modes’)',
    },
    count: {
      type: 'integer',
      minimum: 0,
      description:
        'the events the rate counts (a difference: the candidate’s successes); the gate’s exact tests read it',
    },
    candidate_runs: {type: 'integer', minimum: 0, description: 'a difference: the candidate’s runs'},
    baseline_count: {type: 'integer', minimum: 0, description: 'a difference: the baseline’s successes'},
    baseline_runs: {type: 'integer', minimum: 0, description: 'a difference: the baseline’s runs'},
    paired: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['pairs', 'pass_to_fail', 'fail_to_pass'],
      description:
        'a difference: the runs as pairs of one run of each mode per iteration block, when every run is so paired (null: not paired)',
      properties: {
        pairs: {type: 'integer', minimum: 0},
        pass_to_fail: {type: 'integer', minimum: 0, description: 'pairs the baseline passed and the candidate failed'},
        fail_to_pass: {type: 'integer', minimum: 0, description: 'pairs the baseline failed and the candidate passed'},
      },
    },
    method: {
      type: 'string',
      enum: ['wilson', 'newcombe', 'tango', 'count'],
      description:
        'wilson: score interval of a rate; newcombe: hybrid score interval of a difference of independent rates; tango: score interval of a difference of paired rates; count: exact, no interval',
    },
  },
} as const
/**
 * An efficiency reduction. `value` and `interval` are the suite effect on the log ratio (1 - e^θ, θ the
 * mean over scenarios of the log ratio of the modes' geometric means; tool calls: plain means) with the hierarchical bootstrap
 * interval; `median_of_scenarios` is the predecessors' figure, which --decision point judges. Fields
 * beyond the first three are absent from summary.json files written before they were recorded.
 */
const reduction = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'interval', 'scenarios'],
  properties: {
    value: {...figure, description: 'the suite effect as a reduction in %: (1 - e^θ) x 100'},
    interval,
    scenarios: {type: 'integer', minimum: 0, description: 'scenarios comparable on this metric'},
    paired_scenarios: {
      type: 'integer',
      minimum: 0,
      description: 'of them, scenarios whose runs were paired by iteration block',
    },
    median_of_scenarios: {
      ...figure,
      description:
        'the median over scenarios of the per-scenario reduction of the medians (the predecessors’ rule, judged under decision point)',
    },
    worst_scenario: {type: ['string', 'null'], description: 'the scenario with the smallest reduction of the medians'},
    worst_pct: {...figure, description: 'that scenario’s reduction of the medians'},
    missing: {
      type: ['string', 'null'],
      description:
        'why there is no value although one mode has data (one side without cost): the check is inconclusive',
    },
    log_variance: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['between', 'within', 'df'],
      description:
        'the variance of θ’s parts, on the log scale: between scenarios (τ²), within (mean run-level variance of a scenario’s θ), and the interval’s degrees of freedom; what a further look projects from',
      properties: {between: figure, within: figure, df: figure},
    },
    estimand: {
      type: 'string',
      enum: ['suite', 'population'],
      description:
        'what the interval covers: the effect on these scenarios (suite), or over scenarios like them (population)',
    },
    between_sd: {
      ...figure,
      description: 'τ, the SD of the effect between scenarios beyond their run noise, on the log scale',
    },
    prediction_interval: {
      ...interval,
      description:
        'where a scenario like these is expected to lie, as a reduction in % (θ ± t_{S-2} √(τ² + v̄ + SE²)); null below 3 scenarios',
    },
  },
} as const
const metrics = {
  type: 'object',
  additionalProperties: false,
  required: ['tokens_active', 'latency_wall', 'tool_calls', 'cost'],
  properties: {tokens_active: figure, latency_agent: figure, latency_wall: figure, tool_calls: figure, cost: figure},
} as const

const apiFigure = {
  type: 'object',
  additionalProperties: false,
  required: ['median', 'total'],
  properties: {
    median: {...figure, description: 'per run, over the runs that recorded it'},
    total: {type: 'number', minimum: 0, description: 'over the runs that recorded it'},
  },
} as const

/** What a mode's runs cost against GitHub's rate limits (the rows' github_api). */
const githubApiSummarySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['runs', 'rest_requests', 'graphql_points', 'secondary_limit_waits'],
  description:
    'the agent’s GitHub API cost over all the mode’s runs (stable or not: a failed run spends too), from the rows’ github_api; null when no row records it',
  properties: {
    runs: {type: 'integer', minimum: 0, description: 'runs whose row records its API cost'},
    rest_requests: {...apiFigure, description: 'REST requests (rate-limit resource core)'},
    graphql_points: {...apiFigure, description: 'GraphQL points (resource graphql)'},
    secondary_limit_waits: {...apiFigure, description: 'answers that told the agent to wait (retry-after)'},
  },
} as const

export const modeSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'runs',
    'success_rate',
    'success_rate_ci',
    'output_validity_rate',
    'runner_failure_rate',
    'timeout_stall_rate',
    'retry_rate',
    'median_latency_ms_wall',
    'median_latency_ms_agent',
    'p90_latency_ms_agent',
    'p95_latency_ms_agent',
    'iqr_latency_ms_agent',
    'cv_latency_agent_pct',
    'median_tokens_total',
    'median_tokens_active',
    'p90_tokens_active',
    'p95_tokens_active',
    'median_tool_calls',
    'median_tool_schema_tokens',
    'median_cost_usd',
    'pass_hat_k',
    'models',
    'providers',
    'tool_calls_by_category',
    'tool_calls_by_operation',
  ],
  properties: {
    runs: {type: 'integer', minimum: 0},
    stable_runs: {
      type: 'integer',
      minimum: 0,
      description: 'runs with success, valid output and no runner failure: the sample the medians are over',
    },
    success_rate: figure,
    success_rate_ci: {...interval, description: 'Wilson 95% interval of the success rate'},
    output_validity_rate: figure,
    runner_failure_rate: figure,
    timeout_stall_rate: figure,
    retry_rate: figure,
    median_latency_ms_wall: figure,
    median_latency_ms_agent: figure,
    median_latency_ms_harness: {
      ...figure,
      description: 'the harness’s own time per run (wall - agent): fixture resets, server start-up, checkpoints',
    },
    p90_latency_ms_agent: figure,
    p95_latency_ms_agent: figure,
    iqr_latency_ms_agent: figure,
    cv_latency_agent_pct: figure,
    median_tokens_total: figure,
    median_tokens_active: figure,
    p90_tokens_active: figure,
    p95_tokens_active: figure,
    median_tool_calls: figure,
    median_tool_schema_tokens: {
      ...figure,
      description: 'tokens of the tool definitions sent every turn (the schema tax), null where rows do not record it',
    },
    median_cost_usd: figure,
    pass_hat_k: {...passK, description: 'mean over scenarios of pass^k at the k every scenario reaches'},
    models: {type: 'array', items: {type: 'string'}},
    providers: {type: 'array', items: {type: 'string'}},
    tool_calls_by_category: counts,
    tool_calls_by_operation: counts,
    fallback_runs: {
      type: ['integer', 'null'],
      minimum: 0,
      description:
        'runs that rest on a fallback: a call of the mode’s tool layer failed and a later gh (or MCP) call succeeded (the rows’ `fallback`); null when no row of the mode records it',
    },
    fallback_passes: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'of the fallback runs, those that passed: passes that rest on the fallback, not on the tool layer',
    },
    fallback_rate: {
      ...figure,
      description: '% of the runs that record it (`fallback` true or false) that rest on a fallback',
    },
    github_api: githubApiSummarySchema,
  },
} as const

const scenarioModeSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'scenario_id',
    'mode',
    'runs',
    'success_rate',
    'median_latency_ms_wall',
    'median_latency_ms_agent',
    'median_tokens_total',
    'median_tokens_active',
    'median_tool_calls',
    'median_cost_usd',
    'pass_at_k',
    'pass_hat_k',
  ],
  properties: {
    scenario_id: {type: 'string'},
    mode: {type: 'string'},
    runs: {type: 'integer', minimum: 0},
    stable_runs: {type: 'integer', minimum: 0, description: 'the runs the medians are over'},
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
    fallback_runs: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'runs that rest on a fallback (the rows’ `fallback`); null when no row records it',
    },
  },
} as const

/** A mode's fallbacks, as counts: informational beside the reliability rates (judged only where a profile sets max_fallback_rate_pct). */
const fallbackCounts = {
  type: 'object',
  additionalProperties: false,
  required: ['runs', 'recorded', 'fallbacks', 'passes'],
  properties: {
    runs: {type: 'integer', minimum: 0},
    recorded: {type: 'integer', minimum: 0, description: 'runs whose row records whether it fell back'},
    fallbacks: {type: 'integer', minimum: 0, description: 'runs that rest on a fallback'},
    passes: {type: 'integer', minimum: 0, description: 'of them, the passes'},
  },
} as const

const clippedText = {
  type: ['string', 'null'],
  description: 'JSON text of the value (strings as they are), cut at 300 characters',
} as const
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
          error_types: {
            ...outcomeCounts,
            description: 'error type -> failed runs; "none" when a failed run recorded no error',
          },
        },
      },
    },
    runs: {
      type: 'array',
      description:
        'the first failed runs read, at most 20 per scenario x mode and 1000 in all: outcome, error, failing checkpoints, trace',
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
              properties: {
                name: {type: 'string'},
                expected: clippedText,
                actual: clippedText,
                message: {type: ['string', 'null']},
              },
            },
          },
          trace: {
            type: ['string', 'null'],
            description: 'the session trace, relative to the results folder (see trace_root)',
          },
          retries: {type: 'integer', minimum: 0},
        },
      },
    },
  },
} as const

const successFlipsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['paired_blocks', 'pass_to_fail', 'fail_to_pass', 'p_value', 'p_adjusted'],
  description:
    'the modes’ outcomes on the blocks both ran (a run passes: success, valid output, no runner failure): the discordant pairs and the exact McNemar test',
  properties: {
    paired_blocks: {type: 'integer', minimum: 0},
    pass_to_fail: {
      type: 'integer',
      minimum: 0,
      description: 'blocks where the baseline passed and the candidate failed',
    },
    fail_to_pass: {
      type: 'integer',
      minimum: 0,
      description: 'blocks where the baseline failed and the candidate passed',
    },
    p_value: {type: 'number', minimum: 0, maximum: 1, description: 'exact McNemar, two-sided'},
    p_adjusted: {type: 'number', minimum: 0, maximum: 1, description: 'Holm-adjusted across the compared scenarios'},
  },
} as const

const scenarioComparisonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'scenario_id',
    'baseline_stable_runs',
    'candidate_stable_runs',
    'eligible',
    'baseline',
    'candidate',
    'reduction_pct',
  ],
  properties: {
    scenario_id: {type: 'string'},
    baseline_runs: {type: 'integer', minimum: 0, description: 'every run of the baseline, stable or not'},
    candidate_runs: {type: 'integer', minimum: 0},
    baseline_stable_runs: {type: 'integer', minimum: 0},
    candidate_stable_runs: {type: 'integer', minimum: 0},
    paired_blocks: {type: 'integer', minimum: 0, description: 'iteration blocks with a stable run of both modes'},
    eligible: {type: 'boolean'},
    baseline: {...metrics, description: 'medians over the stable runs'},
    candidate: metrics,
    reduction_pct: {
      ...metrics,
      description: 'reduction of the medians, (b - c) / b x 100 where b > 0 (the predecessors’ per-scenario figure)',
    },
    effect_pct: {
      ...metrics,
      description:
        'reduction of the averages (geometric means; tool calls: plain means), (1 - e^θ_s) x 100: the scenario’s part in the suite effect',
    },
    success_flips: successFlipsSchema,
  },
} as const

const apiSides = {
  type: 'object',
  additionalProperties: false,
  required: ['baseline', 'candidate', 'reduction_pct'],
  properties: {baseline: figure, candidate: figure, reduction_pct: figure},
} as const

export const comparisonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['baseline', 'candidate', 'min_samples', 'reliability', 'efficiency', 'scenarios'],
  properties: {
    baseline: {type: 'string'},
    candidate: {type: 'string'},
    min_samples: {type: 'integer', minimum: 1},
    confidence: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description: 'the confidence of the intervals (0.95 unless a sequential look asked for another)',
    },
    reliability: {
      type: 'object',
      additionalProperties: false,
      required: [
        'success_rate_delta_pp',
        'success_rate',
        'output_validity_rate',
        'runner_failure_rate',
        'timeout_stall_rate',
        'retry_rate',
      ],
      properties: {
        success_rate_delta_pp: estimate,
        success_rate: estimate,
        output_validity_rate: estimate,
        runner_failure_rate: estimate,
        timeout_stall_rate: estimate,
        retry_rate: estimate,
        fallback_rate: {
          ...estimate,
          description:
            '% of the candidate’s runs that record it which rest on a fallback (Wilson interval): informational unless the profile sets max_fallback_rate_pct',
        },
        fallbacks: {
          type: 'object',
          additionalProperties: false,
          required: ['baseline', 'candidate'],
          description: 'each mode’s fallbacks: a call of its tool layer failed and a later gh (or MCP) call succeeded',
          properties: {baseline: fallbackCounts, candidate: fallbackCounts},
        },
      },
    },
    efficiency: {
      type: 'object',
      additionalProperties: false,
      required: [
        'total_scenarios',
        'eligible_scenarios',
        'coverage_pct',
        'tokens_active_reduction_pct',
        'latency_reduction_pct',
        'tool_call_reduction_pct',
        'cost_reduction_pct',
      ],
      properties: {
        total_scenarios: {type: 'integer', minimum: 0},
        eligible_scenarios: {type: 'integer', minimum: 0},
        coverage_pct: estimate,
        tokens_active_reduction_pct: reduction,
        latency_reduction_pct: reduction,
        tool_call_reduction_pct: reduction,
        cost_reduction_pct: {
          ...reduction,
          type: ['object', 'null'],
          description: 'like the other reductions (the worst scenario beside it); null when neither mode has a cost',
        },
        latency_wall_reduction_pct: {
          ...reduction,
          description:
            'wall latency, harness time included: shown beside the gate’s latency (the agent’s time), never judged',
        },
        harness_latency_ms: {
          type: 'object',
          additionalProperties: false,
          required: ['baseline', 'candidate'],
          description:
            'median harness time per stable run (wall - agent: fixture resets, server start-up, checkpoints), reported beside the gate’s latency',
          properties: {baseline: figure, candidate: figure},
        },
      },
    },
    scenarios: {type: 'array', items: scenarioComparisonSchema},
    github_api: {
      type: 'object',
      additionalProperties: false,
      required: ['rest_requests', 'graphql_points'],
      description:
        'the agent’s GitHub API cost per run of each mode, the median over all its runs that record it (a failed run spends too), and the candidate’s reduction in % (positive: it spends less; null without a baseline figure above 0)',
      properties: {
        rest_requests: apiSides,
        graphql_points: apiSides,
      },
    },
    success_flips: {
      type: 'object',
      additionalProperties: false,
      required: ['method', 'pass_to_fail', 'fail_to_pass', 'significant'],
      description: 'the scenarios whose paired outcomes flipped, each list ordered by p-value',
      properties: {
        method: {type: 'string'},
        pass_to_fail: {
          type: 'array',
          items: {type: 'string'},
          description: 'scenarios with more PASS→FAIL than FAIL→PASS blocks',
        },
        fail_to_pass: {
          type: 'array',
          items: {type: 'string'},
          description: 'scenarios with more FAIL→PASS than PASS→FAIL blocks',
        },
        significant: {
          type: 'array',
          items: {type: 'string'},
          description: 'of them, those whose Holm-adjusted p-value is below 1 - confidence',
        },
      },
    },
  },
} as const

const provenance = {
  schema_version: {const: 1},
  generated_at: {type: 'string'},
  inputs: {type: 'array', items: {type: 'string'}},
  run_ids: {type: 'array', items: {type: 'string'}},
  rows: {type: 'integer', minimum: 0},
  warnings: {type: 'array', items: {type: 'string'}},
  quarantine: {
    type: 'array',
    description:
      'the quarantine file’s entries for scenarios in these rows: reported beside the figures, never taken out of them; an expired entry marks nothing',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['scenario', 'reason', 'expires', 'expired'],
      properties: {
        scenario: {type: 'string'},
        mode: {type: 'string'},
        provider: {type: 'string'},
        reason: {type: 'string'},
        expires: {type: 'string'},
        expired: {type: 'boolean'},
      },
    },
  },
  bootstrap: {
    type: 'object',
    additionalProperties: false,
    required: ['seed', 'resamples'],
    properties: {seed: {type: 'integer'}, resamples: {type: 'integer', minimum: 1}},
  },
} as const

const providerField = {
  type: ['string', 'null'],
  description: 'the provider (agent runtime) whose rows these are; null: rows that name none',
} as const

const reportRequired = [
  'schema_version',
  'generated_at',
  'inputs',
  'run_ids',
  'rows',
  'warnings',
  'bootstrap',
  'baseline',
  'modes',
  'scenarios',
  'deltas',
] as const
const reportProperties = {
  ...provenance,
  baseline: {type: 'string'},
  trace_root: {
    type: ['string', 'null'],
    description:
      'the results folder the rows were read from, which traces are relative to; null when the inputs are in several folders',
  },
  failures: failuresSchema,
  not_applicable: {
    type: 'array',
    description: 'scenario x mode pairs the scenario declares the mode cannot solve: shown as n/a, never as failed',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['scenario_id', 'mode', 'reason'],
      properties: {scenario_id: {type: 'string'}, mode: {type: 'string'}, reason: {type: 'string'}},
    },
  },
  modes: {type: 'object', additionalProperties: modeSummarySchema, description: 'mode -> summary'},
  scenarios: {type: 'array', items: scenarioModeSchema},
  deltas: {type: 'array', items: comparisonSchema, description: 'each other mode against the baseline'},
} as const

export const reportSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'report.schema.json',
  title: 'ghx-bench report (summary.json)',
  type: 'object',
  additionalProperties: false,
  required: reportRequired,
  properties: {
    ...reportProperties,
    provider: providerField,
    providers: {
      type: 'array',
      description:
        'rows of several providers: a report of each provider’s rows, never mixed; the top level then has no mode, scenario or delta of its own',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [...reportRequired, 'provider'],
        properties: {...reportProperties, provider: providerField},
      },
    },
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
        'reliability_success_rate_non_inferior',
        'reliability_output_validity',
        'reliability_runner_failure_rate',
        'reliability_timeout_stall_rate',
        'reliability_retry_rate',
        'reliability_fallback_rate',
        'efficiency_coverage',
        'efficiency_tokens_active_reduction',
        'efficiency_latency_reduction',
        'efficiency_tool_call_reduction',
        'efficiency_cost_reduction',
      ],
    },
    group: {type: 'string', enum: ['reliability', 'efficiency']},
    value: figure,
    operator: {type: 'string', enum: ['>=', '<=']},
    threshold: {type: 'number'},
    interval,
    verdict: {type: 'string', enum: ['pass', 'fail', 'inconclusive', 'skipped']},
    reason: {
      type: ['string', 'null'],
      description:
        'why the check is inconclusive or skipped: the interval straddles, cells too small for decision ci, one mode without the metric, no data',
    },
    detail: {type: 'string'},
    rule: {
      type: ['string', 'null'],
      description:
        'decision ci: the sized rule the verdict applies (a reliability check: the exact test and the counts that pass and fail at these runs)',
    },
    mde: {
      ...figure,
      description:
        'minimum detectable effect at the data’s size, in the units of value: the distance from the threshold a true value needs for a decisive verdict 80% of the time, (z + 0.84) x SE with SE = the interval width / (2 x z) and z that of the interval’s confidence; null for coverage (a count) and a check without an interval',
    },
    detectable: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['value', 'text'],
      description:
        'what this run’s size can detect with 80% power, in the units of value. A reliability check: the true value its own rule passes only 20% of the time (the success check: a drop in points; a rate: its %; validity: the validity % at or below which it is caught); a regression smaller than that can pass. A reduction: the true reduction it passes 80% of the time (threshold + MDE). null: coverage, a check without data',
      properties: {
        value: {
          ...figure,
          description: 'null: no value within reach is detected (the text says why)',
        },
        text: {type: 'string', description: 'the same in a sentence, with the size and how it was computed'},
        doubling: {
          type: 'object',
          additionalProperties: false,
          required: ['baseline_success_pct', 'candidate_success_pct', 'pass_chance', 'text'],
          description:
            'the success check: a candidate that doubles the baseline’s failures, and how often this run’s test passes it (above 0.2: not detectable)',
          properties: {
            baseline_success_pct: {type: 'number'},
            candidate_success_pct: {type: 'number'},
            pass_chance: {type: 'number', minimum: 0, maximum: 1},
            text: {type: 'string'},
          },
        },
      },
    },
  },
} as const

const gateRequired = [
  'schema_version',
  'generated_at',
  'inputs',
  'run_ids',
  'rows',
  'warnings',
  'bootstrap',
  'profile',
  'model',
  'override',
  'decision',
  'min_samples',
  'thresholds',
  'baseline',
  'candidate',
  'checks',
  'verdict',
  'exit_code',
  'comparison',
] as const
const gateProperties = {
  ...provenance,
  profile: {type: 'string'},
  model: {type: ['string', 'null'], description: 'the model whose thresholds apply'},
  override: {type: ['string', 'null'], description: 'the profile override used, if any'},
  decision: {type: 'string', enum: ['point', 'ci']},
  estimand: {
    type: 'string',
    enum: ['suite', 'population'],
    description:
      'what the efficiency checks judge: the effect on these scenarios (suite) or over scenarios like them (population)',
  },
  min_samples: {type: 'integer', minimum: 1},
  confidence: {
    type: 'number',
    exclusiveMinimum: 0,
    exclusiveMaximum: 1,
    description: 'the confidence of the checks’ intervals',
  },
  sequential: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['look', 'looks', 'repetitions', 'spending', 'alpha', 'stopped'],
    description: 'run --until-decided: the look this gate was judged at, and why the run stopped there',
    properties: {
      look: {type: 'integer', minimum: 1, description: '1-based'},
      looks: {
        type: 'array',
        items: {type: 'integer', minimum: 1},
        description: 'repetitions per cell at each planned look',
      },
      repetitions: {type: 'integer', minimum: 1},
      spending: {type: 'string', enum: ['power', 'pocock', 'obrien-fleming']},
      alpha: {type: 'number', description: 'the overall two-sided error spent over the looks'},
      stopped: {type: 'string'},
      history: {
        type: 'array',
        description: 'each look judged: its repetitions, confidence, verdict and runs so far',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['look', 'repetitions', 'confidence', 'verdict', 'runs', 'reason'],
          properties: {
            look: {type: 'integer', minimum: 1},
            repetitions: {type: 'integer', minimum: 1},
            confidence: {type: 'number'},
            verdict: {type: 'string', enum: ['pass', 'fail', 'inconclusive']},
            runs: {type: 'integer', minimum: 0},
            reason: {type: 'string'},
          },
        },
      },
    },
  },
  thresholds: {type: 'object', additionalProperties: {type: 'number'}},
  baseline: {type: 'string'},
  candidate: {type: 'string'},
  checks: {type: 'array', items: checkSchema},
  verdict: {type: 'string', enum: ['pass', 'fail', 'inconclusive']},
  unseen_doubling: {
    type: ['string', 'null'],
    description:
      'a PASS whose success test passes a candidate that doubles the baseline’s failures more than 20% of the time (its detectable drop exceeds the baseline’s failure rate): the sentence saying so; null otherwise',
  },
  exit_code: {type: 'integer', enum: [0, 1, 3]},
  comparison: comparisonSchema,
  trace_root: {type: ['string', 'null'], description: 'the results folder traces are relative to'},
  failures: {...failuresSchema, description: 'the failed runs of the baseline and the candidate'},
} as const

export const gateSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'gate.schema.json',
  title: 'ghx-bench gate result (gate.json)',
  type: 'object',
  additionalProperties: false,
  required: gateRequired,
  properties: {
    ...gateProperties,
    provider: {
      ...providerField,
      description: 'the provider whose rows the gate judged; with several, the deciding one (its verdict the worst)',
    },
    providers: {
      type: 'array',
      description:
        'rows of several providers: each provider’s gate, its baseline against its candidate on its own rows; the verdict is the worst of theirs (fail, then inconclusive, then pass), and the top level is that provider’s gate',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [...gateRequired, 'provider'],
        properties: {...gateProperties, provider: providerField},
      },
    },
  },
} as const

export type GateDocument = FromSchema<typeof gateSchema>
