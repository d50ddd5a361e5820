/**
 * GitHub validates REST request bodies against its JSON schemas before anything else and answers a
 * mismatch with 422 "Invalid request.\n\nFor 'properties/comments', \"…\" is not an array." (values
 * shown as Ruby inspects them: strings quoted, null as nil). The checks the sandbox's handlers need.
 */
import {SandboxError} from './errors.js'

function inspect(value: unknown): string {
  if (value === null || value === undefined) return 'nil'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

export function invalidRequest(detail: string): SandboxError {
  return new SandboxError(422, `Invalid request.\n\n${detail}`)
}

type Kind = 'an array' | 'an integer' | 'a string' | 'an object' | 'a boolean'

function is(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'an array':
      return Array.isArray(value)
    case 'an integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'a string':
      return typeof value === 'string'
    case 'a boolean':
      return typeof value === 'boolean'
    case 'an object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
  }
}

/** Checks optional properties' types: `{comments: 'an array'}`; absent (or null, when nullable) passes. */
export function checkTypes(body: Record<string, unknown>, types: Record<string, Kind>, nullable: string[] = []): void {
  for (const [key, kind] of Object.entries(types)) {
    const value = body[key]
    if (value === undefined || (value === null && nullable.includes(key))) continue
    if (!is(value, kind)) throw invalidRequest(`For 'properties/${key}', ${inspect(value)} is not ${kind}.`)
  }
}

export function checkRequired(body: Record<string, unknown>, keys: string[]): void {
  for (const key of keys) if (body[key] === undefined) throw invalidRequest(`"${key}" wasn't supplied.`)
}

/** A review's `comments`: an array of objects with a path, a body and integer places. */
export function reviewCommentsOf(
  body: Record<string, unknown>,
): Array<Record<string, unknown> & {body: string}> | undefined {
  checkTypes(body, {comments: 'an array'})
  if (body.comments === undefined) return undefined
  return (body.comments as unknown[]).map((comment) => {
    if (!is(comment, 'an object')) throw invalidRequest(`For 'items', ${inspect(comment)} is not an object.`)
    const c = comment as Record<string, unknown>
    checkRequired(c, ['path', 'body'])
    checkTypes(c, {
      path: 'a string',
      body: 'a string',
      line: 'an integer',
      position: 'an integer',
      start_line: 'an integer',
      side: 'a string',
      start_side: 'a string',
    })
    return c as Record<string, unknown> & {body: string}
  })
}
