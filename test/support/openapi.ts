// GitHub's published REST description (@octokit/openapi), for checking the sandbox's answers against
// it: an operation's documented statuses, and a JSON body validated against the schema GitHub gives.
import {readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import {Ajv, type ValidateFunction} from 'ajv'
import ajvFormats from 'ajv-formats'

type Operation = {
  operationId: string
  responses: Record<string, {content?: Record<string, {schema: unknown}>}>
}

export type Spec = {
  paths: Record<string, Record<string, Operation>>
  components: {schemas: Record<string, unknown>}
}

/** OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a null alternative, refs point into the components document. */
function convert(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convert)
  if (schema === null || typeof schema !== 'object') return schema
  const source = schema as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/components/', 'github-components#/components/')
    else if (key === 'properties' || key === 'patternProperties')
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, convert(v)]))
    else out[key] = convert(value)
  }
  return source.nullable === true ? {anyOf: [out, {type: 'null'}]} : out
}

export interface GithubOpenApi {
  spec: Spec
  /** The operation at a path template (`/repos/{owner}/{repo}`) and method. */
  operation(method: string, template: string): Operation | undefined
  /** The operation a concrete path (`/repos/o/r/issues/3?state=all`) calls: the template with the most literal segments. */
  operationFor(method: string, concretePath: string): {template: string; operation: Operation} | undefined
  /** A validator for a JSON schema of the description. */
  compile(schema: unknown): ValidateFunction
  errorsText(validate: ValidateFunction): string
}

export async function loadGithubOpenApi(): Promise<GithubOpenApi> {
  const require = createRequire(import.meta.url)
  const spec = JSON.parse(
    await readFile(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8'),
  ) as Spec
  const ajv = new Ajv({strict: false, allErrors: true})
  ;(ajvFormats as unknown as {default: (a: Ajv) => void}).default(ajv)
  ajv.addSchema({$id: 'github-components', components: {schemas: convert(spec.components.schemas)}})
  // A template's last parameter may hold slashes (a ref `heads/main`, a path `docs/a.md`), or be absent (the root's contents).
  const templates = Object.keys(spec.paths).map((template) => {
    const segments = template.split('/')
    const last = segments.at(-1)!.startsWith('{') ? segments.pop() : undefined
    const fixed = segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')
    return {
      template,
      size: template.split('/').length,
      literals: segments.filter((s) => !s.startsWith('{')).length,
      pattern: new RegExp(`^${fixed}${last ? '(?:/.+)?' : ''}$`),
    }
  })
  const compiled = new Map<unknown, ValidateFunction>()
  return {
    spec,
    operation: (method, template) => spec.paths[template]?.[method.toLowerCase()],
    operationFor(method, concretePath) {
      const pathOnly = concretePath.split('?')[0]!.replace(/^\/?/, '/')
      const size = pathOnly.split('/').length
      // The most literal segments first; of equals, one of the path's length (`issues`, not `issues/{issue_number}`).
      const match = templates
        .filter((t) => t.pattern.test(pathOnly) && spec.paths[t.template]![method.toLowerCase()])
        .sort((a, b) => b.literals - a.literals || Number(b.size === size) - Number(a.size === size))[0]
      return match && {template: match.template, operation: spec.paths[match.template]![method.toLowerCase()]!}
    },
    compile(schema) {
      let validate = compiled.get(schema)
      if (!validate) compiled.set(schema, (validate = ajv.compile(convert(schema) as object)))
      return validate
    },
    errorsText: (validate) => ajv.errorsText(validate.errors?.slice(0, 6)),
  }
}
