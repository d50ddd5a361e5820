/**
 * A GitHub App whose installation acts as the second identity (as on live GitHub, where fixtures use
 * an App for the reviewer): requests authenticated as the App itself (a JWT signed with its private
 * key) reach its installation, and installation tokens it mints act as ghx-bench-reviewer.
 */
import {createVerify, randomBytes} from 'node:crypto'
import {REVIEWER_LOGIN} from '../defaults.js'
import type {Store} from '../store.js'
import {DOCS, type Reply} from './reply.js'

/** The App: its id, and the public key its JWTs are verified with. */
export interface SandboxApp {
  id: number
  publicKey: string
}

/** Requests authenticated as the App itself (a JWT): its installation and installation tokens. */
export function appRequest(
  app: SandboxApp,
  store: Store,
  url: string,
  method: string,
  path: string,
  jwt: string,
): Reply {
  const [header, payload, signature] = jwt.split('.') as [string, string, string]
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {iss?: unknown; exp?: number}
  const valid = createVerify('RSA-SHA256')
    .update(`${header}.${payload}`)
    .verify(app.publicKey, Buffer.from(signature, 'base64url'))
  if (!valid || String(claims.iss) !== String(app.id) || (claims.exp ?? 0) * 1000 < Date.now()) {
    return {status: 401, body: {message: 'A JSON web token could not be decoded', documentation_url: DOCS}}
  }
  const installation = {
    id: app.id * 10,
    app_id: app.id,
    app_slug: 'ghx-bench-fixtures',
    target_id: 1,
    target_type: 'Organization',
    single_file_name: null,
    repository_selection: 'all',
    access_tokens_url: `${url}/app/installations/${app.id * 10}/access_tokens`,
    html_url: 'http://github.localhost/settings/installations/1',
    repositories_url: `${url}/installation/repositories`,
    events: [],
    account: {login: 'ghx-bench', id: store.user('ghx-bench').id, type: 'Organization'},
    permissions: {issues: 'write', pull_requests: 'write', contents: 'write'},
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    suspended_by: null,
    suspended_at: null,
  }
  if (method === 'GET' && path === '/app')
    return {
      status: 200,
      body: {
        id: app.id,
        slug: installation.app_slug,
        name: 'ghx-bench fixtures',
        owner: installation.account,
        permissions: installation.permissions,
        events: [],
      },
    }
  if (method === 'GET' && path === '/app/installations') return {status: 200, body: [installation]}
  if (method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/installation$/.test(path)) return {status: 200, body: installation}
  if (method === 'POST' && path === `/app/installations/${installation.id}/access_tokens`) {
    const minted = `ghs_${randomBytes(18).toString('hex')}`
    store.addToken(minted, REVIEWER_LOGIN)
    return {
      status: 201,
      body: {
        token: minted,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: installation.permissions,
        repository_selection: 'all',
      },
    }
  }
  return {status: 403, body: {message: 'A JSON web token can only access /app routes', documentation_url: DOCS}}
}
