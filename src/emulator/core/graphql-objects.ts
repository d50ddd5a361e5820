/**
 * What every resource's GraphQL resolvers share. Objects are plain resolver objects (a field is a
 * value, or a function of its arguments); a field the sandbox does not model raises NotModelled,
 * which names it (HTTP 501), never a silent null. Connections page as GitHub's do.
 */
import {GraphQLError} from 'graphql'
import type {Links} from './serializer-core.js'
import type {Store} from '../store.js'

export class NotModelled extends GraphQLError {}

export type Obj = Record<string, unknown>
export type Args = Record<string, unknown>

export interface Context {
  store: Store
  viewer: string
  links: Links
}

export const cursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64')
const fromCursor = (value: unknown) => (typeof value === 'string' ? Number(Buffer.from(value, 'base64').toString().split(':')[1]) : undefined)

export function connection<T>(items: T[], args: Args): Obj {
  let start = 0
  let end = items.length
  const after = fromCursor(args.after)
  const before = fromCursor(args.before)
  if (after !== undefined && Number.isFinite(after)) start = after + 1
  if (before !== undefined && Number.isFinite(before)) end = before
  if (typeof args.first === 'number') end = Math.min(end, start + args.first)
  if (typeof args.last === 'number') start = Math.max(start, end - args.last)
  const slice = items.slice(start, end)
  return {
    totalCount: items.length,
    nodes: slice,
    edges: slice.map((node, i) => ({node, cursor: cursor(start + i)})),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursor(start) : null,
      endCursor: slice.length ? cursor(end - 1) : null,
    },
  }
}

export const empty = (args: Args) => connection([], args)
/** A string argument, or the fallback when it is absent or not a string. */
export const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback)
export const upper = (value: string) => value.toUpperCase()

/** Orders by the given field (a creation order or a name) and direction; ASC unless DESC is asked. */
export function ordered<T>(items: T[], orderBy: unknown, keys: Record<string, (item: T) => number | string>, fallback: string): T[] {
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
