/**
 * GitHub's GraphQL schema as the sandbox serves it (@octokit/graphql-schema, plus the fields GitHub
 * added since its last release that the sandbox models: graphql-schema-extension.ts), and the
 * validation rules GitHub applies.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {resolve} from 'import-meta-resolve'
import {
  buildSchema,
  extendSchema,
  OverlappingFieldsCanBeMergedRule,
  parse,
  specifiedRules,
  type GraphQLSchema,
} from 'graphql'
import {SCHEMA_EXTENSION} from './graphql-schema-extension.js'

let schema: GraphQLSchema | undefined

/** GitHub's schema, built once per process (about a third of a second). */
export function githubSchema(): GraphQLSchema {
  if (!schema) {
    // The package's own entry parses its 5 MB JSON copy on import; read the SDL file beside it instead.
    const entry = fileURLToPath(resolve('@octokit/graphql-schema', import.meta.url))
    const idl = readFileSync(path.join(path.dirname(entry), 'schema.graphql'), 'utf8')
    // GitHub's published SDL defines one field twice; it is valid for queries, so skip SDL validation.
    // The extension is validated: it may not redefine a type or field the package already has.
    schema = extendSchema(buildSchema(idl, {assumeValidSDL: true}), parse(SCHEMA_EXTENSION))
  }
  return schema
}

/**
 * The validation rules GitHub applies: the specification's, less OverlappingFieldsCanBeMerged, which
 * GitHub does not enforce across union members (gh's own `issue view` query selects `state` on both
 * Issue and PullRequest, whose enums differ, and GitHub answers it).
 */
export const GITHUB_RULES = specifiedRules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule)
