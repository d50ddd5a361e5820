/**
 * The fixture manifest: what a seeding created, so scenarios can bind to it and reset or cleanup can
 * find it again. Validated by schemas/manifest.schema.json.
 */
import type {FromSchema} from 'json-schema-to-ts'
import {fixtureKinds, SCHEMA_BASE, SCHEMA_DIALECT} from '../schemas/common.js'

export const manifestSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'manifest.schema.json',
  title: 'ghx-bench fixture manifest',
  description: 'Resources one seeding created on a repository; scenario bindings are dotted paths into it.',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'seed_id', 'generated_at', 'repo', 'actors', 'resources'],
  properties: {
    version: {const: 1},
    seed_id: {type: 'string', pattern: '^[A-Za-z0-9_-]+$'},
    generated_at: {type: 'string'},
    repo: {
      type: 'object',
      additionalProperties: false,
      required: ['owner', 'name', 'full_name', 'default_branch'],
      properties: {
        owner: {type: 'string'},
        name: {type: 'string'},
        full_name: {type: 'string'},
        default_branch: {type: 'string'},
      },
    },
    actors: {
      type: 'object',
      additionalProperties: false,
      required: ['agent', 'reviewer'],
      properties: {
        agent: {type: 'string', description: 'the agent’s login'},
        reviewer: {type: 'string', description: 'the second identity’s login'},
      },
    },
    resources: {
      type: 'object',
      propertyNames: {enum: fixtureKinds},
      additionalProperties: {
        type: 'object',
        required: ['seeded'],
        properties: {
          seeded: {type: 'object', description: 'the state reset restores'},
          digest: {
            type: 'object',
            additionalProperties: false,
            required: ['sha256', 'snapshot'],
            properties: {
              sha256: {
                type: 'string',
                pattern: '^[0-9a-f]{64}$',
                description: 'sha256 of the snapshot’s stable JSON (keys sorted)',
              },
              snapshot: {
                type: 'object',
                description:
                  'the resource’s normalized state as read back from GitHub after seeding: what a reset must restore',
              },
            },
            description: 'the seeded state digest; after a reset the resource is read again and compared with it',
          },
        },
        description: 'the resource’s ids and numbers (what bindings read), and its seeded state',
      },
    },
  },
} as const

export type Manifest = FromSchema<typeof manifestSchema>
