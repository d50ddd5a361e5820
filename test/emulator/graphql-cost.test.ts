// GitHub's GraphQL point cost, and the rate-limit headers and per-token cost the sandbox keeps from it.
import {expect} from 'chai'
import {parse} from 'graphql'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {costReadsVariables, graphqlPoints, graphqlRequests} from '../../src/emulator/graphql-cost.js'
import {OWNER, REPO} from '../support/sandbox.js'

describe('sandbox: GraphQL point cost', () => {
  it('counts GitHub’s published example: 1 + 100 + 100 × 50 requests, 51 points', () => {
    const query = parse(`query {
      viewer {
        login
        repositories(first: 100) {
          edges { node { id
            issues(first: 50) {
              totalCount
              edges { node { id labels(first: 60) { edges { node { name } } } } }
            }
          } }
        }
      }
    }`)
    expect(graphqlRequests(query)).to.equal(5101)
    expect(graphqlPoints(query)).to.equal(51)
  })

  it('reads page sizes from variables, through fragments, takes the larger of first and last, and costs at least 1', () => {
    const query = parse(`query Q($n: Int!) {
      repository(owner: "o", name: "r") { ...Issues }
    }
    fragment Issues on Repository {
      issues(first: $n) { nodes { ... on Issue { comments(first: 10, last: 30) { nodes { body } } } } }
    }`)
    // 1 request for the issues, then one comments page per issue: 1 + 40.
    expect(graphqlRequests(query, {n: 40}, 'Q')).to.equal(41)
    expect(graphqlPoints(query, {n: 40}, 'Q')).to.equal(1)
    expect(graphqlRequests(query, {n: 100}, 'Q')).to.equal(101)
    // A connection needs one request per node of the pages above it: 1 + 100 + 100 × 100 = 10,101 requests, 101 points.
    const wide = parse(
      '{ a: search(query: "x", type: ISSUE, first: 100) { nodes { ... on Issue { labels(first: 100) { nodes { issues(first: 5) { totalCount } } } } } } }',
    )
    expect(graphqlRequests(wide)).to.equal(10101)
    expect(graphqlPoints(wide)).to.equal(101)
    expect(graphqlPoints(parse('{ viewer { login } }'))).to.equal(1)
    expect(graphqlPoints(parse('mutation { addStar(input: {starrableId: "x"}) { clientMutationId } }'))).to.equal(1)
  })

  it('tells a query whose cost its variables set (a page size that is one, in a fragment too) from one whose cost its text sets', () => {
    expect(costReadsVariables(parse('query($n: Int!) { viewer { repositories(first: $n) { totalCount } } }'))).to.equal(
      true,
    )
    expect(
      costReadsVariables(
        parse('query($n: Int!) { viewer { ...R } } fragment R on User { repositories(last: $n) { totalCount } }'),
      ),
    ).to.equal(true)
    expect(
      costReadsVariables(
        parse('query($q: String!) { search(query: $q, type: ISSUE, first: 10) { nodes { ... on Issue { title } } } }'),
      ),
    ).to.equal(false)
  })

  describe('over HTTP', () => {
    let sandbox: Sandbox
    beforeEach(async () => {
      sandbox = await startSandbox()
    })
    afterEach(() => sandbox.close())

    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${sandbox.url}${path}`, {
        ...init,
        headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
      })
    const graphql = (query: string, variables: Record<string, unknown> = {}) =>
      call('/graphql', {method: 'POST', body: JSON.stringify({query, variables})})

    it('charges REST a request against core and GraphQL its points against graphql, in GitHub’s headers and rateLimit', async () => {
      const rest = await call(`/repos/${OWNER}/${REPO}`)
      expect(rest.status).to.equal(200)
      expect(rest.headers.get('x-ratelimit-resource')).to.equal('core')
      expect(rest.headers.get('x-ratelimit-used')).to.equal('1')
      expect(rest.headers.get('x-ratelimit-remaining')).to.equal('4999')
      // 1 + 100 + 100 × 100 requests: 101 points, with rateLimit's cost the same.
      const query = `query($n: Int!) { rateLimit { cost used remaining limit } repository(owner: "${OWNER}", name: "${REPO}") {
        issues(first: $n) { nodes { labels(first: 100) { nodes { issues(first: 1) { totalCount } } } } } } }`
      const first = await graphql(query, {n: 100})
      const body = (await first.json()) as {
        data: {rateLimit: {cost: number; used: number; remaining: number; limit: number}}
      }
      expect(first.headers.get('x-ratelimit-resource')).to.equal('graphql')
      expect(first.headers.get('x-ratelimit-used')).to.equal('101')
      expect(first.headers.get('x-ratelimit-remaining')).to.equal('4899')
      expect(body.data.rateLimit).to.deep.equal({cost: 101, used: 101, remaining: 4899, limit: 5000})
      const second = await graphql('{ viewer { login } }')
      expect(second.headers.get('x-ratelimit-used')).to.equal('102')
      expect(Number(second.headers.get('x-ratelimit-reset'))).to.equal(Number(first.headers.get('x-ratelimit-reset')))
      // REST's window is its own.
      expect((await call(`/repos/${OWNER}/${REPO}`)).headers.get('x-ratelimit-used')).to.equal('2')
      expect(sandbox.requests.costByToken.get(sandbox.token)).to.deep.include({
        rest_requests: 2,
        graphql_requests: 2,
        graphql_points: 102,
        secondary_limit_waits: 0,
        retry_after_s: 0,
      })
    })

    it('charges one query text what each call’s variables make it cost', async () => {
      const query = `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") {
        issues(first: $n) { nodes { labels(first: 100) { nodes { issues(first: 1) { totalCount } } } } } } }`
      const used = async (response: Promise<Response>) => Number((await response).headers.get('x-ratelimit-used'))
      // 1 + 1 + 100 requests: 1 point; then 1 + 100 + 100 × 100: 101 points; then 1 point again.
      expect(await used(graphql(query, {n: 1}))).to.equal(1)
      expect(await used(graphql(query, {n: 100}))).to.equal(102)
      expect(await used(graphql(query, {n: 1}))).to.equal(103)
      const fixed = `{ repository(owner: "${OWNER}", name: "${REPO}") { issues(first: 100) { nodes { labels(first: 100) { nodes { issues(first: 1) { totalCount } } } } } } }`
      expect(await used(graphql(fixed))).to.equal(204)
      expect(await used(graphql(fixed))).to.equal(305)
    })

    it('counts the waits a secondary rate limit or a 429 asked for, and charges the refused call the minimum', async () => {
      sandbox.faults.configure({
        seed: 1,
        rules: [{route: '*', rate: 1, kind: 'secondary_rate_limit', retry_after_s: 3}],
      })
      const refused = await call(`/repos/${OWNER}/${REPO}`)
      expect(refused.status).to.equal(403)
      expect(refused.headers.get('retry-after')).to.equal('3')
      expect(refused.headers.get('x-ratelimit-used')).to.equal('1')
      sandbox.faults.configure({seed: 1, rules: [{route: '*', rate: 1, kind: '429', retry_after_s: 2}]})
      expect((await graphql('{ viewer { login } }')).status).to.equal(429)
      sandbox.faults.configure({seed: 1, rules: [{route: '*', rate: 1, kind: '502'}]})
      expect((await call(`/repos/${OWNER}/${REPO}`)).status).to.equal(502)
      expect(sandbox.requests.costByToken.get(sandbox.token)).to.deep.include({
        rest_requests: 2,
        graphql_requests: 1,
        graphql_points: 1,
        secondary_limit_waits: 2,
        retry_after_s: 5,
      })
    })
  })
})
