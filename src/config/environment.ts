/**
 * GHX_BENCH_* variables, derived from the config schema rather than listed by hand: every scalar
 * key has one (fixtures.repo -> GHX_BENCH_FIXTURES_REPO), string arrays take a comma list.
 */
import type {Diagnostic} from '../shared/diagnostics.js'

type SchemaNode = {
  type?: string
  enum?: readonly string[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  oneOf?: readonly SchemaNode[]
}

const ENV_PREFIX = 'GHX_BENCH_'

interface EnvironmentKey {
  variable: string
  path: string[]
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'list'
}

/** The variable that sets the config key at a JSON pointer (/fixtures/repo -> GHX_BENCH_FIXTURES_REPO). */
export function environmentVariable(pointer: string): string {
  const path = pointer.split('/').filter((s) => s !== '' && !/^\d+$/.test(s))
  return ENV_PREFIX + path.join('_').toUpperCase()
}

function environmentKeys(schema: SchemaNode, prefix: string[] = []): EnvironmentKey[] {
  const keys: EnvironmentKey[] = []
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (name.startsWith('$')) continue
    const path = [...prefix, name]
    const variable = environmentVariable('/' + path.join('/'))
    if (node.properties) keys.push(...environmentKeys(node, path))
    else if (node.type === 'array') keys.push({variable, path, kind: 'list'})
    else if (node.type === 'string' || node.oneOf?.some((branch) => branch.type === 'string'))
      keys.push({variable, path, kind: 'string'})
    else if (node.type === 'number' || node.type === 'integer' || node.type === 'boolean')
      keys.push({variable, path, kind: node.type})
  }
  return keys
}

export function readEnvironmentOverrides(
  schema: object,
  env: NodeJS.ProcessEnv,
): {values: Record<string, unknown>; diagnostics: Diagnostic[]} {
  const values: Record<string, unknown> = {}
  const diagnostics: Diagnostic[] = []
  for (const key of environmentKeys(schema)) {
    const raw = env[key.variable]
    if (raw === undefined || raw === '') continue
    const parsed = parseValue(raw, key.kind)
    if (parsed === undefined) {
      diagnostics.push({file: `$${key.variable}`, code: 'config', message: `"${raw}" is not a valid ${key.kind}`})
      continue
    }
    let target = values
    for (const segment of key.path.slice(0, -1)) target = (target[segment] ??= {}) as Record<string, unknown>
    target[key.path.at(-1)!] = parsed
  }
  return {values, diagnostics}
}

function parseValue(raw: string, kind: EnvironmentKey['kind']): unknown {
  switch (kind) {
    case 'string':
      return raw
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    case 'boolean':
      return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : undefined
    case 'integer':
    case 'number': {
      const n = Number(raw)
      return Number.isFinite(n) && (kind === 'number' || Number.isInteger(n)) ? n : undefined
    }
  }
}
