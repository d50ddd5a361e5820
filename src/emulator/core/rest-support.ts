/**
 * What every resource's REST routes share: the route table's shape, the context a handler gets and
 * the result it gives (the server turns it into a reply), and small readers of a request.
 */
import type {Serializer} from '../serialize.js'
import type {Store} from '../store.js'
import {notFound, SandboxError} from './errors.js'
import type {Repo} from './state.js'

export interface RestContext {
  store: Store
  ser: Serializer
  params: Record<string, string>
  query: URLSearchParams
  body: Record<string, unknown>
  viewer: string
  accept: string
}

export interface RestResult {
  status?: number
  body?: unknown
  /** A list the server paginates (per_page, page, Link). */
  list?: unknown[]
  /** A text or binary body (diffs, logs, log archives). */
  text?: string | Buffer
  contentType?: string
  /** For list endpoints wrapped in an object ({total_count, workflow_runs: [...]}); `extra` fields go between (search's incomplete_results). */
  wrap?: {key: string; extra?: Record<string, unknown>}
  /** Content GitHub serves from elsewhere: answered with a 302 to a one-time download URL. */
  download?: {content: string | Buffer; contentType: string}
}

type Handler = (ctx: RestContext) => RestResult
/** [method, GitHub's path template, GitHub's operationId, handler] */
export type RouteDef = [string, string, string, Handler]

export interface RestRoute {
  operationId: string
  handler: Handler
}

export const repoOf = (ctx: RestContext): Repo => ctx.store.repos.get(ctx.params.owner!, ctx.params.repo!)

export function num(value: string | undefined, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n)) throw notFound(`${name} must be a number`)
  return n
}

export const str = (body: Record<string, unknown>, key: string): string | undefined =>
  typeof body[key] === 'string' ? body[key] : undefined

/** A list of strings, or one string as a list of one. */
export const strings = (body: Record<string, unknown>, key: string): string[] | undefined =>
  Array.isArray(body[key])
    ? (body[key] as unknown[]).map(String)
    : typeof body[key] === 'string'
      ? [body[key]]
      : undefined

/** A query flag GitHub reads as true: `1`, `true` or present without a value. */
export const flag = (query: URLSearchParams, key: string): boolean =>
  query.has(key) && !['0', 'false'].includes(query.get(key)!.toLowerCase())

/** The commit a ref names: a branch, a tag, a full commit id or an unambiguous prefix (7+), or 404. */
export function resolveCommitish(repo: Repo, ref: string, tags: Record<string, string>): string {
  const named =
    repo.branches[ref] ??
    tags[ref] ??
    repo.branches[ref.replace(/^refs\/heads\//, '')] ??
    tags[ref.replace(/^refs\/tags\//, '')]
  if (named) return named
  if (repo.commits[ref]) return ref
  if (/^[0-9a-f]{7,39}$/i.test(ref)) {
    const matches = Object.keys(repo.commits).filter((sha) => sha.startsWith(ref.toLowerCase()))
    if (matches.length === 1) return matches[0]!
  }
  throw new SandboxError(404, `No commit found for the ref ${ref}`)
}

/** The commit a ref names (resolveCommitish), or GitHub's 422 for one it cannot resolve, as `commits/{ref}/…` answer. */
export function commitOf(ctx: RestContext, repo: Repo, ref: string): string {
  try {
    return resolveCommitish(repo, ref, ctx.store.git.tagRefs(repo))
  } catch {
    throw new SandboxError(422, `No commit found for SHA: ${ref}`)
  }
}

/** GitHub's 409 for what an empty repository (no commits yet) cannot answer. */
export function assertNotEmpty(repo: Repo): void {
  if (Object.keys(repo.branches).length === 0) throw new SandboxError(409, 'Git Repository is empty.')
}
