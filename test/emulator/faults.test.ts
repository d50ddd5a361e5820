// Faults on demand: seeded server errors, secondary rate limits, 429s and latency, per route.
import {retry} from '@octokit/plugin-retry'
import {Octokit} from '@octokit/rest'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {OWNER, REPO, octokitFor} from '../support/sandbox.js'

const issueRead = {owner: OWNER, repo: REPO, issue_number: 1}

async function statuses(octokit: Octokit, count: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    out.push(
      await octokit.rest.issues.get(issueRead).then(
        (r) => r.status,
        (e: {status: number}) => e.status,
      ),
    )
  }
  return out
}

describe('sandbox: faults', () => {
  let sandbox: Sandbox
  beforeEach(async () => {
    sandbox = await startSandbox()
    await octokitFor(sandbox).rest.issues.create({owner: OWNER, repo: REPO, title: 'target'})
  })
  afterEach(() => sandbox.close())

  it('fails a seeded share of one route’s requests with 502, the same share for the same seed', async () => {
    sandbox.faults.configure({seed: 7, rules: [{route: 'issues/get', rate: 0.3, kind: '502'}]})
    const first = await statuses(octokitFor(sandbox), 60)
    const failures = first.filter((s) => s === 502).length
    expect(failures).to.be.within(8, 30)
    expect(sandbox.faults.injected['502']).to.equal(failures)
    sandbox.faults.configure({seed: 7, rules: [{route: 'issues/get', rate: 0.3, kind: '502'}]})
    expect(await statuses(octokitFor(sandbox), 60)).to.deep.equal(first)
    // Other routes are untouched.
    expect((await octokitFor(sandbox).rest.repos.get({owner: OWNER, repo: REPO})).status).to.equal(200)
  })

  it('answers a secondary rate limit as GitHub does: 403, retry-after and the message', async () => {
    sandbox.faults.configure({rules: [{route: '*', rate: 1, kind: 'secondary_rate_limit', retry_after_s: 2}]})
    const error = (await octokitFor(sandbox)
      .rest.issues.get(issueRead)
      .catch((e: unknown) => e)) as {
      status: number
      response: {headers: Record<string, string>; data: {message: string}}
    }
    expect(error.status).to.equal(403)
    expect(error.response.headers['retry-after']).to.equal('2')
    expect(error.response.data.message).to.match(/secondary rate limit/)
  })

  it('answers 429 with retry-after, and 503, on GraphQL alone when the rule says so', async () => {
    sandbox.faults.configure({rules: [{route: 'graphql', rate: 1, kind: '429'}]})
    const error = (await octokitFor(sandbox)
      .graphql('{ viewer { login } }')
      .catch((e: unknown) => e)) as {status: number; response: {headers: Record<string, string>}}
    expect(error.status).to.equal(429)
    expect(error.response.headers['retry-after']).to.equal('1')
    expect((await octokitFor(sandbox).rest.issues.get(issueRead)).status).to.equal(200)
    sandbox.faults.configure({rules: [{route: 'graphql', rate: 1, kind: '503'}]})
    expect(
      (
        (await octokitFor(sandbox)
          .graphql('{ viewer { login } }')
          .catch((e: unknown) => e)) as {status: number}
      ).status,
    ).to.equal(503)
  })

  it('adds latency to matching requests', async () => {
    sandbox.faults.configure({rules: [{route: 'issues/get', rate: 0, latency_ms: 150}]})
    const start = Date.now()
    await octokitFor(sandbox).rest.issues.get(issueRead)
    expect(Date.now() - start).to.be.at.least(150)
  })

  it('a client that retries (Octokit’s retry plugin) completes every read through 502s', async () => {
    sandbox.faults.configure({seed: 3, rules: [{route: 'issues/get', rate: 0.4, kind: '502'}]})
    const Retrying = Octokit.plugin(retry)
    const octokit = new Retrying({
      auth: sandbox.token,
      baseUrl: sandbox.url,
      retry: {retryAfterBaseValue: 1},
      log: {debug() {}, info() {}, warn() {}, error() {}},
    })
    expect(await statuses(octokit, 20)).to.deep.equal(Array.from({length: 20}, () => 200))
    expect(sandbox.faults.injected['502']).to.be.greaterThan(0)
  })
})
