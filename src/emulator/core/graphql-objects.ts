/**
 * What every resource's GraphQL resolvers share. Objects are plain resolver objects (a field is a
 * value, or a function of its arguments); a field the sandbox does not model raises NotModelled,
 * which names it (HTTP 501), never a silent null. Connections page as GitHub's do. A resource's
 * objects embed other resources' objects through the context's node builders (NodeBuilders), so
 * that no resource's GraphQL module imports another's builders: those imports were a cycle.
 */
import {GraphQLError} from 'graphql'
import type {Links} from './serializer-core.js'
import type {Store} from '../store.js'
import type {Issue, Project, ProjectItem, Pull, Release, Repo, Review, ReviewComment, ReviewThread} from './state.js'

export class NotModelled extends GraphQLError {}

/** GitHub's answer for a lookup of what does not exist: the field is null and `errors` holds this NOT_FOUND. */
export const notFoundError = (message: string) => new GraphQLError(message, {extensions: {type: 'NOT_FOUND'}})

export type Obj = Record<string, unknown>
export type Args = Record<string, unknown>

export interface Context {
  store: Store
  viewer: string
  links: Links
  nodes: NodeBuilders
}

/** The builder of each GraphQL object type a resource embeds in another's, registered once by ../graphql.ts. */
export interface NodeBuilders {
  Actor(ctx: Context, login: string | null): Obj | null
  Repository(ctx: Context, repo: Repo): Obj
  Commit(ctx: Context, repo: Repo, sha: string): Obj
  Issue(ctx: Context, repo: Repo, issue: Issue): Obj
  IssueComment(ctx: Context, repo: Repo, id: number): Obj
  IssueType(type: Repo['issue_types'][number]): Obj
  Label(ctx: Context, repo: Repo, name: string): Obj
  Milestone(ctx: Context, repo: Repo, number: number | null): Obj | null
  PullRequest(ctx: Context, repo: Repo, issue: Issue, pull: Pull): Obj
  PullRequestReview(ctx: Context, repo: Repo, review: Review): Obj
  PullRequestReviewComment(ctx: Context, repo: Repo, comment: ReviewComment): Obj
  PullRequestReviewThread(ctx: Context, repo: Repo, thread: ReviewThread): Obj
  ProjectV2(ctx: Context, project: Project): Obj
  ProjectV2Item(ctx: Context, project: Project, item: ProjectItem): Obj
  Release(ctx: Context, repo: Repo, release: Release): Obj
}

/**
 * The maker of objects whose fields are those of `fields` (their prototype), each object holding what its
 * fields read under `key`; a field is a value, or a function of the object it is read on (`this`). Made by
 * a class's constructor: V8 builds these some five times faster than a literal with `__proto__`.
 */
export function objectsOn<T>(fields: Obj, key: symbol): (of: T) => Obj {
  class Made {
    constructor(of: T) {
      ;(this as unknown as Record<symbol, T>)[key] = of
    }
  }
  Object.setPrototypeOf(Made.prototype, fields)
  return (of) => new Made(of) as unknown as Obj
}

const makeCursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64')
/** Cursors made so far, by index: a connection makes one for every item of its page, read or not. */
const cursors: string[] = []
export const cursor = (index: number): string =>
  Number.isInteger(index) && index >= 0 && index < 100_000 ? (cursors[index] ??= makeCursor(index)) : makeCursor(index)
const fromCursor = (value: unknown) =>
  typeof value === 'string' ? Number(Buffer.from(value, 'base64').toString().split(':')[1]) : undefined

/** The page of a list of `length` items that first/last/after/before ask for: [start, end). */
function bounds(length: number, args: Args): [number, number] {
  let start = 0
  let end = length
  const after = fromCursor(args.after)
  const before = fromCursor(args.before)
  if (after !== undefined && Number.isFinite(after)) start = after + 1
  if (before !== undefined && Number.isFinite(before)) end = before
  if (typeof args.first === 'number') end = Math.min(end, start + args.first)
  if (typeof args.last === 'number') start = Math.max(start, end - args.last)
  return [start, end]
}

/** A connection's page of its nodes, from `start` in a list of `total`. */
function page(slice: unknown[], start: number, end: number, total: number): Obj {
  return {
    totalCount: total,
    nodes: slice,
    edges: slice.map((node, i) => ({node, cursor: cursor(start + i)})),
    pageInfo: {
      hasNextPage: end < total,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursor(start) : null,
      endCursor: slice.length ? cursor(end - 1) : null,
    },
  }
}

export function connection<T>(items: T[], args: Args): Obj {
  const [start, end] = bounds(items.length, args)
  return page(items.slice(start, end), start, end, items.length)
}

/** connection(items.map(build), args), building the nodes of the page asked for only. */
export function pageOf<T>(items: T[], args: Args, build: (item: T) => unknown): Obj {
  const [start, end] = bounds(items.length, args)
  return page(items.slice(start, end).map(build), start, end, items.length)
}

export const empty = (args: Args) => connection([], args)
/** A string argument, or the fallback when it is absent or not a string. */
export const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback)
export const upper = (value: string) => value.toUpperCase()

/** Orders by the given field (a creation order or a name) and direction; ASC unless DESC is asked. */
export function ordered<T>(
  items: T[],
  orderBy: unknown,
  keys: Record<string, (item: T) => number | string>,
  fallback: string,
): T[] {
  const order = (orderBy ?? {}) as {field?: string; direction?: string}
  const key = keys[order.field ?? fallback] ?? keys[fallback]!
  const sign = order.direction === 'DESC' ? -1 : 1
  return [...items].sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y)) * sign
  })
}

/** A mutation's input object. */
export const input = (args: Args) => (args.input ?? {}) as Record<string, unknown>
/** A mutation payload's clientMutationId, echoed from its input. */
export const mutationId = (args: Args) => ({clientMutationId: input(args).clientMutationId ?? null})
