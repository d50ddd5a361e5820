/**
 * What the REST route modules share: the route table's shape and small readers of a request.
 * (rest.ts keeps its own copies of the readers; the modules beside it use these.)
 */
import {notFound, SandboxError} from './errors.js'
import type {RestContext, RestResult} from './rest.js'
import type {Repo} from './state.js'

export type Handler = (ctx: RestContext) => RestResult
/** [method, GitHub's path template, GitHub's operationId, handler] */
export type RouteDef = [string, string, string, Handler]

export const repoOf = (ctx: RestContext): Repo => ctx.store.repo(ctx.params.owner!, ctx.params.repo!)

export function num(value: string | undefined, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n)) throw notFound(`${name} must be a number`)
  return n
}

export const str = (body: Record<string, unknown>, key: string): string | undefined => (typeof body[key] === 'string' ? body[key] : undefined)

/** A query flag GitHub reads as true: `1`, `true` or present without a value. */
export const flag = (query: URLSearchParams, key: string): boolean => query.has(key) && !['0', 'false'].includes(query.get(key)!.toLowerCase())

/** The commit a ref names: a branch, a tag, a full commit id or an unambiguous prefix (7+), or 404. */
export function resolveCommitish(repo: Repo, ref: string, tags: Record<string, string>): string {
  const named = repo.branches[ref] ?? tags[ref] ?? repo.branches[ref.replace(/^refs\/heads\//, '')] ?? tags[ref.replace(/^refs\/tags\//, '')]
  if (named) return named
  if (repo.commits[ref]) return ref
  if (/^[0-9a-f]{7,39}$/i.test(ref)) {
    const matches = Object.keys(repo.commits).filter((sha) => sha.startsWith(ref.toLowerCase()))
    if (matches.length === 1) return matches[0]!
  }
  throw new SandboxError(404, `No commit found for the ref ${ref}`)
}

/** GitHub's 409 for what an empty repository (no commits yet) cannot answer. */
export function assertNotEmpty(repo: Repo): void {
  if (Object.keys(repo.branches).length === 0) throw new SandboxError(409, 'Git Repository is empty.')
}
