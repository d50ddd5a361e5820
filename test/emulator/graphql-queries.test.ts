// Prepared GraphQL queries: parsed and validated once, kept by text and operation name within a bound on
// their number and their texts' length, least recently used out first; and the sandbox's answer to a
// query it has kept is the answer it gave before keeping it (data and errors), bad queries included.
import {randomUUID} from 'node:crypto'
import {expect} from 'chai'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {QUERIES} from '../../src/emulator/graphql.js'
import {QueryCache} from '../../src/emulator/graphql-queries.js'
import {OWNER, REPO} from '../support/sandbox.js'

/** A query no other test sends: the first request with it is the one that prepares it. */
const unique = (query: string) => `${query}\n# ${randomUUID()}`

describe('sandbox: GraphQL queries prepared once', () => {
  it('keeps at most its number of queries, the least recently used out first', () => {
    const cache = new QueryCache({entries: 3, chars: 10_000})
    const queries = ['a', 'b', 'c', 'd'].map((name) => `{ viewer { ${name}: login } }`)
    const first = cache.prepare(queries[0]!)
    cache.prepare(queries[1]!)
    cache.prepare(queries[2]!)
    // Used again: the same prepared query, and now the most recently used.
    expect(cache.prepare(queries[0]!)).to.equal(first)
    cache.prepare(queries[3]!)
    expect(cache.size.entries).to.equal(3)
    expect(queries.map((q) => cache.has(q))).to.deep.equal([true, false, true, true])
  })

  it('keeps at most its length of query text, and never a query longer than that', () => {
    const cache = new QueryCache({entries: 100, chars: 200})
    const query = (i: number) => `{ viewer { login${'_'.repeat(40)}${i}: login } }`
    for (let i = 0; i < 10; i++) cache.prepare(query(i))
    expect(cache.size.chars).to.be.at.most(200)
    expect(cache.size.entries).to.equal(Math.floor(200 / (query(0).length + 1)))
    expect(cache.has(query(9))).to.equal(true)
    expect(cache.has(query(0))).to.equal(false)
    const long = `{ viewer { ${'login '.repeat(50)}} }`
    expect(cache.prepare(long).errors).to.equal(undefined)
    expect(cache.has(long)).to.equal(false)
    expect(cache.size.chars).to.be.at.most(200)
  })

  it('keeps a query that fails as its errors, and tells operation names apart', () => {
    const cache = new QueryCache()
    const invalid = '{ viewer { nope } }'
    const errors = cache.prepare(invalid).errors
    expect(errors?.[0]?.message).to.equal('Cannot query field "nope" on type "User". Did you mean "name"?')
    expect(cache.prepare(invalid).errors).to.equal(errors)
    expect(cache.prepare('{ viewer {').errors?.[0]?.message).to.match(/^Syntax Error/)
    const two = 'query A { viewer { login } } query B { viewer { name } }'
    expect(cache.prepare(two, 'A')).to.not.equal(cache.prepare(two, 'B'))
    expect(cache.prepare(two, 'A')).to.equal(cache.prepare(two, 'A'))
    // Name and text are told apart: ("Aq", "uery A …") is not ("A", "query A …").
    expect(cache.has(two.slice(1), 'Aq')).to.equal(false)
  })

  describe('a kept query answers as it did before it was kept', () => {
    let sandbox: Sandbox

    before(async () => {
      sandbox = await startSandbox()
      for (const title of ['First', 'Second'])
        await fetch(`${sandbox.url}/repos/${OWNER}/${REPO}/issues`, {
          method: 'POST',
          headers: {authorization: `token ${sandbox.token}`},
          body: JSON.stringify({title}),
        })
    })
    after(() => sandbox.close())

    const post = async (body: Record<string, unknown>) => {
      const response = await fetch(`${sandbox.url}/graphql`, {
        method: 'POST',
        headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
        body: JSON.stringify(body),
      })
      return {status: response.status, body: (await response.json()) as {data?: unknown; errors?: unknown[]}}
    }

    /** The answer before the query is kept, then from the kept query: the same, data and errors. */
    async function twice(body: {query: string; operationName?: string; variables?: unknown}) {
      expect(QUERIES.has(body.query, body.operationName), 'not kept before').to.equal(false)
      const uncached = await post(body)
      expect(QUERIES.has(body.query, body.operationName), 'kept after').to.equal(true)
      const cached = await post(body)
      expect(cached).to.deep.equal(uncached)
      return cached
    }

    it('a query with data, and one with a NOT_FOUND error', async () => {
      const found = await twice({
        query: unique(
          `{ repository(owner: "${OWNER}", name: "${REPO}") { issues(first: 5) { nodes { number title } } } }`,
        ),
      })
      expect(found.body).to.deep.equal({
        data: {
          repository: {
            issues: {
              nodes: [
                {number: 1, title: 'First'},
                {number: 2, title: 'Second'},
              ],
            },
          },
        },
      })
      const missing = await twice({query: unique(`{ repository(owner: "${OWNER}", name: "nope") { id } }`)})
      expect(missing.body.data).to.deep.equal({repository: null})
      expect(missing.body.errors).to.have.length(1)
    })

    it('a query that fails validation, and one that does not parse', async () => {
      const invalid = await twice({query: unique('{ viewer { login nope } }')})
      expect(invalid.status).to.equal(200)
      expect(invalid.body).to.deep.equal({
        errors: [
          {
            path: [],
            extensions: {code: 'undefinedField'},
            locations: [{line: 1, column: 18}],
            message: 'Cannot query field "nope" on type "User". Did you mean "name"?',
          },
        ],
      })
      const broken = await twice({query: unique('{ viewer { login ')})
      expect(broken.body.errors).to.have.length(1)
      expect(broken.body).to.not.have.property('data')
    })

    it('two operations in one document, each selected by its operation name', async () => {
      const query =
        unique(`query First { repository(owner: "${OWNER}", name: "${REPO}") { issue(number: 1) { title } } }
query Second { repository(owner: "${OWNER}", name: "${REPO}") { issue(number: 2) { title } } }`)
      const first = await twice({query, operationName: 'First'})
      const second = await twice({query, operationName: 'Second'})
      expect(first.body).to.deep.equal({data: {repository: {issue: {title: 'First'}}}})
      expect(second.body).to.deep.equal({data: {repository: {issue: {title: 'Second'}}}})
      // Neither named: graphql-js's error, the same from the kept document.
      const unnamed = await twice({query})
      expect(unnamed.body.errors).to.have.length(1)
    })

    it('variables are not part of the key: one kept query answers each with its own', async () => {
      const query = unique(
        `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") { issue(number: $n) { title } } }`,
      )
      const one = await twice({query, variables: {n: 1}})
      const two = await post({query, variables: {n: 2}})
      expect(one.body).to.deep.equal({data: {repository: {issue: {title: 'First'}}}})
      expect(two.body).to.deep.equal({data: {repository: {issue: {title: 'Second'}}}})
    })
  })
})
