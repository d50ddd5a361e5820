/**
 * The published JSON Schemas: schemas/<file> is generated from these objects (npm run schemas),
 * and a test fails when a committed file differs from what the source would generate. So is the
 * module of validators compiled ahead (src/shared/schema-validators.generated.ts): those of the
 * documents every command reads at start and of the built-in plugins' options and parameters.
 */
import {packagePath} from '../shared/package-paths.js'
import {renderPrecompiledValidators, type NamedSchema} from '../shared/schema-precompile.js'
import {loadPlugins} from '../plugins/loader.js'
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

/** The documents of a project, read by every command that opens one (validate above all). */
const PRECOMPILED_FILES = [
  'config.schema.json',
  'suite.schema.json',
  'scenario.schema.json',
  'scenario-set.schema.json',
  'profile.schema.json',
  'quarantine.schema.json',
]

/** Where the generated module of validators is, from the package root. */
export const PRECOMPILED_MODULE = 'src/shared/schema-validators.generated.ts'

/** The project's documents' schemas and every schema of the built-in plugins (their options and parameters). */
async function precompiledSchemas(): Promise<NamedSchema[]> {
  const schemas: NamedSchema[] = PRECOMPILED_FILES.map((file) => ({name: file, schema: SCHEMA_FILES[file]!}))
  const registry = await loadPlugins({fromDir: packagePath(), plugins: [], origin: 'the built-in plugins'})
  for (const name of registry.modeNames()) {
    const mode = registry.mode(name)!
    schemas.push({name: `mode ${name} options`, schema: mode.optionsSchema})
    if (mode.envelope?.schema) schemas.push({name: `mode ${name} envelope`, schema: mode.envelope.schema})
  }
  for (const name of registry.providerNames())
    schemas.push({name: `provider ${name} options`, schema: registry.provider(name)!.optionsSchema})
  for (const name of registry.conditionNames())
    schemas.push({name: `condition ${name} params`, schema: registry.condition(name)!.paramsSchema})
  for (const name of registry.readTaskNames())
    schemas.push({name: `read task ${name} params`, schema: registry.readTask(name)!.paramsSchema})
  return schemas
}

/** The text of PRECOMPILED_MODULE. */
export async function renderPrecompiledModule(): Promise<string> {
  return renderPrecompiledValidators(await precompiledSchemas())
}

export function renderSchema(schema: object): string {
  return JSON.stringify(schema, null, 2) + '\n'
}
