// A query's planned execution (graphql-execute.ts) answers exactly what graphql-js's `execute` answers,
// byte for byte, or leaves the query to graphql-js: on a small schema, field by field of what execution
// does (fragments, aliases, abstract types, lists, enums, arguments and variables), and in the sandbox,
// gh's own queries answered by their plan and then by graphql-js.
import {expect} from 'chai'
import {buildSchema, execute, parse, type GraphQLFieldResolver} from 'graphql'
import {fieldValue, MISSING, planQuery} from '../../src/emulator/graphql-execute.js'
import {QUERIES} from '../../src/emulator/graphql.js'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'

const schema = buildSchema(`
  interface Node { id: ID! }
  union Item = Book | Film
  enum Kind { PAPER DIGITAL }
  scalar DateTime
  input Filter { kinds: [Kind!], from: Int = 0 }
  type Book implements Node {
    id: ID!
    title: String!
    kind: Kind
    pages: Int
    tags: [String!]!
    published: DateTime
    author(upper: Boolean = false): String
    related(first: Int): [Book]
  }
  type Film implements Node { id: ID! title: String! minutes: Float }
  type Query {
    books(first: Int, kinds: [Kind!], filter: Filter): [Book!]!
    item(id: ID!): Item
    node(id: ID!): Node
    matrix: [[Int]]
    nothing: Book
    strict: Book!
    broken: Book
    echo(text: String!): String
  }
  type Mutation { touch: Boolean }
`)

interface Book {
  id: string
  title: string
  kind: string
  pages: number
  tags: string[]
  published: string
}

const BOOKS: Book[] = [
  {id: 'b1', title: 'Dune', kind: 'PAPER', pages: 412, tags: ['sf'], published: '1965-08-01'},
  {id: 'b2', title: 'Emma', kind: 'DIGITAL', pages: 474, tags: [], published: '1815-12-23'},
  {id: 'b3', title: 'Ulysses', kind: 'PAPER', pages: 730, tags: ['modern', 'long'], published: '1922-02-02'},
]

/** The sandbox's convention: a field is its object's value, or its method called with the arguments. */
function bookObject(book: Book): Record<string, unknown> {
  return {
    __typename: 'Book',
    ...book,
    author: ({upper}: {upper: boolean}) => (upper ? 'ANON' : 'anon'),
    related: ({first}: {first?: number}) =>
      BOOKS.filter((b) => b !== book)
        .slice(0, first ?? 10)
        .map(bookObject),
  }
}

const film = {__typename: 'Film', id: 'f1', title: 'Alien', minutes: 117}

const ROOT: Record<string, unknown> = {
  books: ({first, kinds, filter}: {first?: number; kinds?: string[]; filter?: {kinds?: string[]; from: number}}) =>
    BOOKS.filter((b) => (!kinds || kinds.includes(b.kind)) && (!filter?.kinds || filter.kinds.includes(b.kind)))
      .slice(filter?.from ?? 0, first === undefined ? undefined : (filter?.from ?? 0) + first)
      .map(bookObject),
  item: ({id}: {id: string}) => (id === 'f1' ? film : (BOOKS.filter((b) => b.id === id).map(bookObject)[0] ?? null)),
  node: ({id}: {id: string}) => (id === 'f1' ? film : (BOOKS.filter((b) => b.id === id).map(bookObject)[0] ?? null)),
  matrix: () => [[1, 2], null, [3, null]],
  nothing: null,
  strict: () => bookObject(BOOKS[0]!),
  broken: () => {
    throw new Error('the resolver failed')
  },
  echo: ({text}: {text: string}) => text,
}

const fieldResolver: GraphQLFieldResolver<unknown, unknown, Record<string, unknown>> = (
  source,
  args,
  context,
  info,
) => {
  const value = fieldValue(source, info.fieldName, args, context)
  if (value === MISSING) throw new Error(`not modelled: ${info.parentType.name}.${info.fieldName}`)
  return value
}

/** graphql-js's answer to a query, as JSON. */
async function executed(query: string, variables: unknown = {}, root = ROOT, operationName?: string) {
  const result = await execute({
    schema,
    document: parse(query),
    rootValue: root,
    contextValue: {},
    variableValues: variables as Record<string, unknown>,
    operationName,
    fieldResolver,
    typeResolver: (value) => (value as {__typename?: string}).__typename,
  })
  return JSON.stringify(result)
}

/** The plan's answer, as JSON; undefined when it leaves the query to graphql-js. */
function planned(query: string, variables: unknown = {}, root = ROOT, operationName?: string) {
  const plan = planQuery(schema, parse(query), operationName)
  expect(plan, 'planned').to.not.equal(undefined)
  const answer = plan!.run(root, {}, variables)
  return answer && JSON.stringify(answer)
}

describe('sandbox: GraphQL queries run by their plan', () => {
  describe('answer as graphql-js does', () => {
    const same = async (query: string, variables?: unknown, operationName?: string) => {
      const answer = planned(query, variables, ROOT, operationName)
      expect(answer).to.be.a('string')
      expect(answer).to.equal(await executed(query, variables, ROOT, operationName))
      expect(answer).to.not.include('"errors"')
    }

    it('fields in order, aliases, merged fields, fragments and __typename', async () => {
      await same('{ books { title id } }')
      await same(
        '{ __typename a: books(first: 2) { title } b: books { ...B pages } a: books(first: 2) { kind __typename } } fragment B on Book { id ... on Book { title tags } ...B2 } fragment B2 on Book { published title }',
      )
      await same('query One { books { id } } query Two { nothing { id } strict { title } }', undefined, 'Two')
    })

    it('abstract types: each object as its own type, fragments on interfaces and unions', async () => {
      await same(
        '{ f: item(id: "f1") { __typename ... on Film { minutes } ... on Node { id } } b: item(id: "b2") { ... on Book { title kind } ... on Film { minutes } } n: node(id: "b3") { id ... on Book { pages } } missing: node(id: "x") { id } }',
      )
    })

    it('lists, nested lists with nulls, enums, custom scalars, nulls', async () => {
      await same('{ matrix nothing { id } books { kind published tags related(first: 1) { title related { id } } } }')
    })

    it('arguments: literals, defaults, lists from one value, input objects, and variables with their defaults', async () => {
      await same('{ books(kinds: PAPER) { title author } d: books(kinds: [DIGITAL]) { author(upper: true) } }')
      await same('{ books(filter: {kinds: [PAPER], from: 1}, first: 1) { title } }')
      const query =
        'query($n: Int, $k: [Kind!] = [PAPER], $up: Boolean!, $f: Filter) { books(first: $n, kinds: $k, filter: $f) { id author(upper: $up) } }'
      await same(query, {n: 1, up: true})
      await same(query, {k: ['DIGITAL'], up: false, f: {from: 0}})
      await same('query($t: String!) { echo(text: $t) }', {t: 'hello'})
    })
  })

  describe('leave to graphql-js what they cannot answer as it does', () => {
    const left = async (query: string, variables?: unknown, root = ROOT) => {
      expect(planned(query, variables, root)).to.equal(undefined)
      // graphql-js's answer has errors (or it throws): what the sandbox then sends.
      const answer = await executed(query, variables, root).catch((error: Error) => error.message)
      expect(answer).to.match(/errors|Variables must be provided/)
    }

    it('a resolver that throws or returns an error, a field the object lacks', async () => {
      await left('{ books { id } broken { id } }')
      await left('{ item(id: "b1") { ... on Book { title } } }', {}, {...ROOT, item: () => new Error('no such item')})
      await left('{ books { id } }', {}, {...ROOT, books: () => [{__typename: 'Book', title: 'no id'}]})
    })

    it('a null where the schema says non-null, a value its type cannot serialize, an unknown runtime type', async () => {
      await left('{ strict { id } }', {}, {...ROOT, strict: null})
      await left('{ books { tags } }', {}, {...ROOT, books: () => [{...bookObject(BOOKS[0]!), tags: ['a', null]}]})
      await left('{ books { kind } }', {}, {...ROOT, books: () => [{...bookObject(BOOKS[0]!), kind: 'VINYL'}]})
      await left('{ books { pages } }', {}, {...ROOT, books: () => [{...bookObject(BOOKS[0]!), pages: 'many'}]})
      await left('{ books { id } }', {}, {...ROOT, books: () => 'not a list'})
      await left('{ item(id: "x") { __typename } }', {}, {...ROOT, item: () => ({__typename: 'Song'})})
      await left('{ node(id: "x") { id } }', {}, {...ROOT, node: () => ({__typename: 'Kind', id: 'x'})})
    })

    it('variables that do not coerce, or are not an object', async () => {
      await left('query($n: Int) { books(first: $n) { id } }', {n: 'three'})
      await left('query($t: String!) { echo(text: $t) }', {})
      await left('query($n: Int) { books(first: $n) { id } }', 'n=3')
    })

    it('a resolver that writes to the arguments every request shares', async () => {
      const root = {
        ...ROOT,
        books: (args: {kinds?: string[]}) => {
          args.kinds?.push('DIGITAL')
          return []
        },
      }
      expect(planned('{ books(kinds: [PAPER]) { id } }', {}, root)).to.equal(undefined)
      // graphql-js gives each request arguments of its own: the answer the sandbox sends.
      expect(await executed('{ books(kinds: [PAPER]) { id } }', {}, root)).to.equal('{"data":{"books":[]}}')
    })

    it('plans no mutation, no @skip or @include, no introspection, no __proto__ key', () => {
      for (const query of [
        'mutation { touch }',
        'query($s: Boolean!) { books { id @skip(if: $s) } }',
        '{ books { ...B } } fragment B on Book { id @include(if: false) }',
        '{ __schema { queryType { name } } }',
        '{ __type(name: "Book") { name } }',
        '{ __proto__: books { id } }',
        'query A { books { id } } query B { nothing { id } }',
      ])
        expect(planQuery(schema, parse(query), undefined), query).to.equal(undefined)
    })
  })

  describe('in the sandbox: gh’s queries answered by their plan, then by graphql-js, byte for byte', () => {
    let seeded: Seeded

    before(async function () {
      this.timeout(60_000)
      seeded = await seedSandbox()
      await waitForRun(seeded.agent, seeded.runId)
      for (const title of ['Second', 'Third'])
        await seeded.agent.rest.issues.create({owner: OWNER, repo: REPO, title, labels: ['bug'], assignees: []})
    })
    after(() => seeded.sandbox.close())

    const post = async (body: Record<string, unknown>) => {
      const response = await fetch(`${seeded.sandbox.url}/graphql`, {
        method: 'POST',
        headers: {authorization: `token ${seeded.sandbox.token}`, 'content-type': 'application/json'},
        body: JSON.stringify(body),
      })
      return `${response.status} ${await response.text()}`
    }

    /** The answer from the query's plan, then from graphql-js (its plan dropped): the same bytes. */
    async function both(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
      const text = `${query}\n# ${Math.random()}`
      const fromPlan = await post({query: text, variables, operationName})
      const prepared = QUERIES.prepare(text, operationName)
      if (prepared.errors) expect.fail(`invalid: ${JSON.stringify(prepared.errors)}`)
      expect(prepared.plan, 'planned').to.be.an('object')
      prepared.plan = null
      const fromGraphqlJs = await post({query: text, variables, operationName})
      expect(fromPlan).to.equal(fromGraphqlJs)
      return fromPlan
    }

    const repo = {owner: OWNER, repo: REPO, name: REPO}

    it('gh issue list and gh issue view', async () => {
      const list = await both(
        'fragment issue on Issue {number,title,url,state,updatedAt,labels(first:100){nodes{id,name,description,color},totalCount},assignees(first:100){nodes{id,login,name},totalCount},author{login,...on User{id,name}}} query IssueList($owner: String!, $repo: String!, $limit: Int, $endCursor: String, $states: [IssueState!] = OPEN) { repository(owner: $owner, name: $repo) { hasIssuesEnabled issues(first: $limit, after: $endCursor, orderBy: {field: CREATED_AT, direction: DESC}, states: $states) { totalCount nodes { ...issue } pageInfo { hasNextPage endCursor } } } }',
        {...repo, limit: 2},
        'IssueList',
      )
      expect(list).to.match(/^200 .*"Third"/)
      await both(
        'query IssueByNumber($owner: String!, $repo: String!, $number: Int!) { repository(owner: $owner, name: $repo) { hasIssuesEnabled issue: issueOrPullRequest(number: $number) { __typename ...on Issue { id number title body state stateReason author { login } createdAt comments(last: 1) { totalCount nodes { body } } reactionGroups { content users { totalCount } } } ...on PullRequest { id number title state } } } }',
        {...repo, number: seeded.issue},
        'IssueByNumber',
      )
    })

    it('gh pr view and gh pr list', async () => {
      await both(
        `query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) { repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) { id number title state body url isDraft headRefName baseRefName headRefOid author { login } additions deletions changedFiles mergeable reviewDecision files(first: 100) { nodes { path additions deletions } } commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 10) { nodes { __typename ... on CheckRun { name status conclusion } ... on StatusContext { context state } } } } } } } reviewThreads(first: 10) { nodes { id isResolved comments(first: 5) { nodes { body author { login } } } } } labels(first: 10) { nodes { name } } } } }`,
        {...repo, pr_number: seeded.pr},
      )
      await both(
        'fragment pr on PullRequest{number,title,state,url,headRefName,headRepositoryOwner{id,login,...on User{name}},isCrossRepository,isDraft,createdAt} query PullRequestList($owner: String!, $repo: String!, $limit: Int!, $endCursor: String, $state: [PullRequestState!] = OPEN) { repository(owner: $owner, name: $repo) { pullRequests(states: $state, first: $limit, after: $endCursor, orderBy: {field: CREATED_AT, direction: DESC}) { totalCount nodes { ...pr } pageInfo { hasNextPage endCursor } } } }',
        {...repo, limit: 30},
      )
    })

    it('gh search issues, gh repo view, node lookups and paging', async () => {
      await both(
        'query($q: String!) { search(query: $q, type: ISSUE, first: 30) { issueCount edges { cursor textMatches { fragment } } nodes { __typename ... on Issue { number title state labels(first: 10) { nodes { name } } } ... on PullRequest { number isDraft } } } }',
        {q: `repo:${OWNER}/${REPO} is:open`},
      )
      await both(
        'query RepositoryInfo($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id name nameWithOwner owner { login } description url isPrivate isFork isEmpty visibility stargazerCount forkCount pushedAt updatedAt createdAt diskUsage defaultBranchRef { name target { oid ... on Commit { messageHeadline } } } licenseInfo { key } primaryLanguage { name } languages(first: 5) { totalSize edges { size node { name } } } repositoryTopics(first: 5) { nodes { topic { name } } } viewerPermission viewerDefaultCommitEmail collaborators(first: 5) { edges { permission node { login } } } labels(first: 5, orderBy: {field: NAME, direction: ASC}) { nodes { name } } milestones(first: 5) { totalCount } releases(first: 5) { nodes { name isDraft tagName } } issueTypes(first: 5) { nodes { name } } } }',
        {owner: OWNER, name: REPO},
      )
      const id = JSON.parse(
        (
          await post({
            query: `{ repository(owner: "${OWNER}", name: "${REPO}") { issue(number: ${seeded.issue}) { id } } }`,
          })
        ).slice(4),
      ).data.repository.issue.id as string
      await both('query($id: ID!) { node(id: $id) { __typename id ... on Issue { number title } } viewer { login } }', {
        id,
      })
      await both(
        'query($after: String) { repository(owner: "ghx-bench", name: "sandbox") { issues(first: 1, after: $after, states: [OPEN], labels: ["bug"]) { nodes { number } pageInfo { hasNextPage endCursor startCursor hasPreviousPage } edges { cursor } } } }',
        {after: 'Y3Vyc29yOjA='},
      )
    })

    it('an abandoned run: a query with a NOT_FOUND answers as graphql-js does', async () => {
      const answer = await both(
        'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { name issue(number: $n) { title } } }',
        {n: 999},
      )
      expect(answer).to.match(/^200 .*"NOT_FOUND"/)
    })
  })
})
