/**
 * The published JSON Schemas: schemas/<file> is generated from these objects (npm run schemas),
 * and a test fails when a committed file differs from what the source would generate.
 */
import {configSchema} from '../config/schema.js'
import {runComparisonSchema} from '../report/baseline-compare.js'
import {manifestSchema} from '../seeding/manifest.js'
import {gateSchema, reportSchema} from '../report/aggregate/report-schema.js'
import {rowSchema} from '../results/row-schema.js'
import {oracleCountsSchema} from '../schemas/oracle-counts.js'
import {profileSchema} from '../schemas/profile.js'
import {quarantineSchema} from '../schemas/quarantine.js'
import {scenarioSetSchema} from '../schemas/scenario-set.js'
import {scenarioSchema} from '../schemas/scenario.js'
import {shardHeaderSchema} from '../schemas/shard-header.js'
import {suiteSchema} from '../schemas/suite.js'

export const SCHEMA_FILES: Record<string, object> = {
  'config.schema.json': configSchema,
  'suite.schema.json': suiteSchema,
  'scenario.schema.json': scenarioSchema,
  'scenario-set.schema.json': scenarioSetSchema,
  'profile.schema.json': profileSchema,
  'row.schema.json': rowSchema,
  'shard-header.schema.json': shardHeaderSchema,
  'report.schema.json': reportSchema,
  'gate.schema.json': gateSchema,
  'compare.schema.json': runComparisonSchema,
  'manifest.schema.json': manifestSchema,
  'quarantine.schema.json': quarantineSchema,
  'oracle-counts.schema.json': oracleCountsSchema,
}

export function renderSchema(schema: object): string {
  return JSON.stringify(schema, null, 2) + '\n'
}
