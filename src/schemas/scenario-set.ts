import type {FromSchema} from 'json-schema-to-ts'
import {nameSchema, SCHEMA_BASE, SCHEMA_DIALECT, scenarioIdSchema} from './common.js'

export const scenarioSetSchema = {
  $schema: SCHEMA_DIALECT,
  $id: SCHEMA_BASE + 'scenario-set.schema.json',
  title: 'ghx-bench scenario set',
  description: 'A named list of scenario ids, optionally including other sets.',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    $schema: {type: 'string'},
    name: nameSchema,
    description: {type: 'string'},
    read_only: {type: 'boolean', description: 'no member may be tagged mutation'},
    scenarios: {type: 'array', items: scenarioIdSchema, uniqueItems: true},
    include: {type: 'array', items: nameSchema, uniqueItems: true, description: 'other sets whose members join this one'},
  },
} as const

export type ScenarioSet = FromSchema<typeof scenarioSetSchema>
