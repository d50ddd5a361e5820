/**
 * Replies as GitHub writes them: its headers on every answer (a request id unique per request, the
 * API version and media type), JSON bodies, lists paginated with a Link header, and content GitHub
 * serves from elsewhere (logs, archives) answered with a 302 to a one-time download URL.
 */
import {randomBytes} from 'node:crypto'
import type http from 'node:http'
import type {RestResult} from '../core/rest-support.js'

export const DOCS = 'https://docs.github.com/rest'
const JSON_TYPE = 'application/json; charset=utf-8'

export interface Reply {
  status: number
  body?: unknown
  text?: string | Buffer
  contentType?: string
  headers?: Record<string, string>
}

/** Logs and archives, served once from their own URL after a 302, as GitHub's blob storage does. */
export type Downloads = Map<string, {content: string | Buffer; contentType: string}>

/** A writer of replies with GitHub's headers, its request ids numbered from its own random prefix. */
export function replyWriter(): (res: http.ServerResponse, reply: Reply) => void {
  // Unique per request as GitHub's are; a counter under a random prefix costs nothing per request.
  const requestIdPrefix = randomBytes(4).toString('hex').toUpperCase()
  let requestCount = 0

  return function send(res: http.ServerResponse, reply: Reply): void {
    const headers: Record<string, string> = {
      'x-github-request-id': `${requestIdPrefix}:${(++requestCount).toString(16).toUpperCase().padStart(8, '0')}`,
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      ...reply.headers,
    }
    if (reply.text !== undefined) {
      headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8'
      res.writeHead(reply.status, headers)
      res.end(reply.text)
    } else if (reply.body === undefined) {
      res.writeHead(reply.status, headers)
      res.end()
    } else {
      headers['content-type'] = JSON_TYPE
      res.writeHead(reply.status, headers)
      res.end(JSON.stringify(reply.body))
    }
  }
}

/** A handler's result as a reply: lists are paginated with per_page/page and a Link header, as GitHub does. */
export function toReply(result: RestResult, target: URL, downloads: Downloads): Reply {
  if (result.download) {
    const key = randomBytes(12).toString('hex')
    downloads.set(key, result.download)
    return {status: 302, headers: {location: `${target.origin}/_downloads/${key}`}}
  }
  if (result.text !== undefined)
    return {status: result.status ?? 200, text: result.text, contentType: result.contentType}
  if (!result.list) return {status: result.status ?? 200, body: result.body}
  const perPage = Math.min(100, Math.max(1, Number(target.searchParams.get('per_page') ?? 30) || 30))
  const page = Math.max(1, Number(target.searchParams.get('page') ?? 1) || 1)
  const last = Math.max(1, Math.ceil(result.list.length / perPage))
  const items = result.list.slice((page - 1) * perPage, page * perPage)
  // One copy of the URL serves every rel: a copy each was 3% of a list's time.
  const url = new URL(target)
  url.searchParams.set('per_page', String(perPage))
  const link = (p: number, rel: string) => {
    url.searchParams.set('page', String(p))
    return `<${url.toString()}>; rel="${rel}"`
  }
  const rels = [
    ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
  ]
  const body = result.wrap ? {total_count: result.list.length, ...result.wrap.extra, [result.wrap.key]: items} : items
  return {status: result.status ?? 200, body, headers: rels.length ? {link: rels.join(', ')} : {}}
}
