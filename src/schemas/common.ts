/**
 * Pieces that several spec schemas share. Schemas are `as const` objects: the JSON Schema and the
 * TypeScript type (json-schema-to-ts) come from the same text, and schemas/*.json is generated from them.
 */

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'
export const SCHEMA_BASE = 'https://ghx-bench.dev/schemas/'

/** The largest seed: the seeded generator (src/stats/random.ts) keeps 32 bits, so a larger one would alias a smaller. */
export const MAX_SEED = 4294967295

export const scenarioIdSchema = {
  type: 'string',
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*-\\d{3}$',
  description: 'kebab-case words ending in a three-digit number, e.g. pr-view-001',
} as const

/** A capability id in ghx's dotted form (issue.labels.add, project_v2.items.list). */
export const capabilityIdSchema = {
  type: 'string',
  pattern: '^[a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)+$',
  description: 'a dotted capability id, e.g. issue.labels.add',
} as const

export const nameSchema = {
  type: 'string',
  pattern: '^[a-z][a-z0-9_-]*$',
  description: 'lower-case letters, digits, _ and -, starting with a letter',
} as const

/** A `{owner}/{name}` repository. */
export const repoSchema = {
  type: 'string',
  pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$',
  description: 'a repository as owner/name',
} as const

export const bindingPathSchema = {
  type: 'string',
  pattern: '^(?!(?:.*\\.)?(?:__proto__|constructor|prototype)(?:\\.|$))[A-Za-z_][A-Za-z0-9_-]*(?:\\.(?:[A-Za-z_][A-Za-z0-9_-]*|\\d+))+$',
  description:
    'a dotted path into the fixture manifest with at least two segments, e.g. resources.pr.number (no empty segments, no __proto__/constructor/prototype)',
} as const

export const fixtureKinds = [
  'issue',
  'issue_for_triage',
  'issue_bug_to_close',
  'issue_closed',
  'issue_with_branch',
  'pr',
  'pr_with_bugs',
  'pr_with_changes',
  'pr_with_reviews',
  'pr_with_mixed_threads',
  'pr_with_fix_request',
  'pr_conflicting',
  'pr_behind_base',
  'pr_failing_lint',
  'workflow_run',
  'workflow_run_in_progress',
  'release',
  'project',
] as const

const optionsSchema = {
  type: 'object',
  description: 'options checked against the plugin’s own optionsSchema',
} as const

/** A plugin reference: a bare name, or a name with options. */
export const pluginRefSchema = {
  oneOf: [
    {type: 'string', minLength: 1},
    {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {name: {type: 'string', minLength: 1}, options: optionsSchema},
    },
  ],
} as const

export const targetSchema = {
  type: 'string',
  enum: ['sandbox', 'live'],
  description: 'sandbox: the embedded GitHub on loopback; live: api.github.com or github.api_url',
} as const

export const fixturesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    repo: repoSchema,
    manifest: {type: 'string', minLength: 1, description: 'path of the fixture manifest JSON'},
    seed_id: {type: 'string', pattern: '^[A-Za-z0-9_-]+$'},
    sandbox_repos: {
      type: 'array',
      items: repoSchema,
      uniqueItems: true,
      description: 'the only repositories that fixtures may write to',
    },
    shard_repos: {
      type: 'array',
      items: repoSchema,
      uniqueItems: true,
      description:
        'live GitHub: a fixture repository per shard (run --shard i/N uses the i-th; each must be listed in sandbox_repos); absent: the shards share fixtures.repo, each with fixtures of its own',
    },
    on_interrupt: {
      type: 'string',
      enum: ['reset', 'cleanup', 'keep'],
      description: 'after Ctrl-C stops a run: reset the fixtures to their seeded state (default), remove them, or leave them as they are',
    },
  },
} as const

export const gateSelectionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    profile: nameSchema,
    baseline: {type: 'string', minLength: 1},
    candidate: {type: 'string', minLength: 1},
  },
} as const

/** Where a non-scripted model is served: any OpenAI-compatible chat-completions API. */
export const endpointSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    base_url: {type: 'string', format: 'uri', description: 'API base URL before /chat/completions (default: $OPENAI_BASE_URL, else https://api.openai.com/v1)'},
    api_key_env: {type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'the environment variable holding the API key (default OPENAI_API_KEY); keys never go in files'},
  },
  description: 'the model endpoint for models other than oracle and noop',
} as const
