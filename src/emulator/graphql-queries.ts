/**
 * A query parsed and validated against GitHub's schema once, not on every request: validation walks the
 * whole schema's type names (KnownTypeNamesRule) and took more than a third of a call's time. Prepared
 * queries are kept by their text and operation name (never their variables), least recently used first
 * out, within a bound on their number and on their texts' total length (a proxy for their syntax
 * trees' size). A query that does not parse or validate is kept as its errors, so a repeated bad query
 * is as cheap as a good one.
 */
import {GraphQLError, parse, validate, type DocumentNode} from 'graphql'
import {GITHUB_RULES, githubSchema} from './core/graphql-schema.js'
import type {QueryPlan} from './graphql-execute.js'

/** An error of a query that cannot run, as GitHub shapes it (the whole answer's `errors`). */
interface QueryError {
  path?: []
  extensions?: {code: string}
  locations: GraphQLError['locations']
  message: string
}

/**
 * A query ready to run, or why it cannot run. Once it first runs, `plan` is its execution planned
 * (graphql-execute.ts; null when graphql-js executes it), and `points` its cost when no variable changes it.
 */
export type PreparedQuery =
  | {document: DocumentNode; errors?: undefined; plan?: QueryPlan | null; points?: number | null}
  | {errors: readonly QueryError[]}

export interface QueryCacheLimits {
  /** Queries kept at most. */
  entries: number
  /** Their texts' total length (UTF-16 code units) at most; a longer query is prepared each time. */
  chars: number
}

/** Some 500 of gh's queries; a syntax tree takes about 50 times its text, so these take 50 MB at most. */
const DEFAULT_LIMITS: QueryCacheLimits = {entries: 500, chars: 1024 * 1024}

/** The query parsed and validated, or its errors as GitHub shapes them (validation's typed as `undefinedField`). */
function prepare(query: string): PreparedQuery {
  let document: DocumentNode
  try {
    document = parse(query)
  } catch (error) {
    return {errors: [{message: (error as GraphQLError).message, locations: (error as GraphQLError).locations}]}
  }
  const invalid = validate(githubSchema(), document, GITHUB_RULES)
  if (invalid.length > 0)
    return {
      errors: invalid.map((e) => ({
        path: [],
        extensions: {code: 'undefinedField'},
        locations: e.locations,
        message: e.message,
      })),
    }
  return {document}
}

/** A query's key: its operation name's length first, so that no name and query pair reads as another. */
const keyOf = (query: string, operationName: string | undefined) =>
  operationName === undefined ? `-${query}` : `${operationName.length}:${operationName}${query}`

export class QueryCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly kept = new Map<string, PreparedQuery>()
  private chars = 0

  constructor(private readonly limits: QueryCacheLimits = DEFAULT_LIMITS) {}

  /** The query prepared: from the cache when it holds it, else parsed and validated, and kept. */
  prepare(query: string, operationName?: string): PreparedQuery {
    const key = keyOf(query, operationName)
    const hit = this.kept.get(key)
    if (hit) {
      this.kept.delete(key)
      this.kept.set(key, hit)
      return hit
    }
    const prepared = prepare(query)
    if (key.length > this.limits.chars || this.limits.entries < 1) return prepared
    this.kept.set(key, prepared)
    this.chars += key.length
    for (const [oldest] of this.kept) {
      if (this.kept.size <= this.limits.entries && this.chars <= this.limits.chars) break
      this.kept.delete(oldest)
      this.chars -= oldest.length
    }
    return prepared
  }

  /** How many queries it keeps, and their texts' total length. */
  get size(): {entries: number; chars: number} {
    return {entries: this.kept.size, chars: this.chars}
  }

  /** Whether it keeps this query (without touching its place in the order). */
  has(query: string, operationName?: string): boolean {
    return this.kept.has(keyOf(query, operationName))
  }
}
