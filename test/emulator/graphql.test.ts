// GraphQL lookups of what does not exist, answered as GitHub answers them: the field null, and an
// `errors` entry of type NOT_FOUND with GitHub's sentence, its path and its location; and gh, which
// exits non-zero printing that sentence.
import {expect} from 'chai'
import {ghFor, skipWithoutGh, type GhResult} from '../support/gh.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../support/sandbox.js'

const R = `${OWNER}/${REPO}`

describe('sandbox: GraphQL NOT_FOUND for what does not exist', function () {
  this.timeout(30_000)
  let s: Seeded
  let gh: (args: string[]) => Promise<GhResult>

  before(async () => {
    s = await seedSandbox()
    gh = await ghFor(s.sandbox)
  })
  after(() => s.sandbox.close())

  async function graphql(query: string): Promise<{data: unknown; errors?: unknown[]}> {
    const response = await fetch(`${s.sandbox.url}/graphql`, {
      method: 'POST',
      headers: {authorization: `bearer ${s.sandbox.token}`, 'content-type': 'application/json'},
      body: JSON.stringify({query}),
    })
    expect(response.status).to.equal(200)
    return (await response.json()) as {data: unknown; errors?: unknown[]}
  }

  const inRepo = (field: string) => `{ repository(owner: "${OWNER}", name: "${REPO}") { ${field} { __typename } } }`

  it('a pull request, an issue, an issue or pull request by a number that does not exist', async () => {
    const cases: Array<[string, string, string]> = [
      ['pullRequest(number: 999)', 'pullRequest', 'Could not resolve to a PullRequest with the number of 999.'],
      ['issue(number: 999)', 'issue', 'Could not resolve to an Issue with the number of 999.'],
      [
        'issueOrPullRequest(number: 999)',
        'issueOrPullRequest',
        'Could not resolve to an issue or pull request with the number of 999.',
      ],
      // A number of the other kind is not found either.
      [`issue(number: ${s.pr})`, 'issue', `Could not resolve to an Issue with the number of ${s.pr}.`],
      [
        `pullRequest(number: ${s.issue})`,
        'pullRequest',
        `Could not resolve to a PullRequest with the number of ${s.issue}.`,
      ],
    ]
    for (const [field, name, message] of cases) {
      const query = inRepo(field)
      expect(await graphql(query), field).to.deep.equal({
        data: {repository: {[name]: null}},
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['repository', name],
            locations: [{line: 1, column: query.indexOf(field) + 1}],
            message,
          },
        ],
      })
    }
  })

  it('a node id, a user, an organization and a repository that do not exist', async () => {
    expect(await graphql('{ node(id: "PR_nope") { id } }')).to.deep.equal({
      data: {node: null},
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['node'],
          locations: [{line: 1, column: 3}],
          message: "Could not resolve to a node with the global id of 'PR_nope'",
        },
      ],
    })
    const nodes = await graphql(`{ nodes(ids: ["PR_nope", "${s.threadIds[0]}"]) { id } }`)
    expect(nodes.data).to.deep.equal({nodes: [null, {id: s.threadIds[0]}]})
    expect(nodes.errors).to.deep.equal([
      {
        type: 'NOT_FOUND',
        path: ['nodes', 0],
        locations: [{line: 1, column: 3}],
        message: "Could not resolve to a node with the global id of 'PR_nope'",
      },
    ])
    expect(await graphql('{ user(login: "no-such-user") { login } }')).to.deep.equal({
      data: {user: null},
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['user'],
          locations: [{line: 1, column: 3}],
          message: "Could not resolve to a User with the login of 'no-such-user'.",
        },
      ],
    })
    expect((await graphql('{ organization(login: "no-such-org") { login } }')).errors).to.deep.equal([
      {
        type: 'NOT_FOUND',
        path: ['organization'],
        locations: [{line: 1, column: 3}],
        message: "Could not resolve to an Organization with the login of 'no-such-org'.",
      },
    ])
    expect(await graphql('{ repository(owner: "ghx-bench", name: "nope") { id } }')).to.deep.equal({
      data: {repository: null},
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          locations: [{line: 1, column: 3}],
          message: "Could not resolve to a Repository with the name 'ghx-bench/nope'.",
        },
      ],
    })
    // What exists is still found.
    expect(await graphql('{ user(login: "ghx-bench-agent") { login } }')).to.deep.equal({
      data: {user: {login: 'ghx-bench-agent'}},
    })
  })

  it('gh pr view 999 and gh issue view 999 exit non-zero with GitHub’s message', async function () {
    skipWithoutGh(this)
    const pr = await gh(['pr', 'view', '999', '-R', R])
    expect(pr.code).to.not.equal(0)
    expect(pr.stderr).to.equal(
      'GraphQL: Could not resolve to a PullRequest with the number of 999. (repository.pullRequest)\n',
    )
    const issue = await gh(['issue', 'view', '999', '-R', R])
    expect(issue.code).to.not.equal(0)
    expect(issue.stderr).to.equal(
      'GraphQL: Could not resolve to an issue or pull request with the number of 999. (repository.issue)\n',
    )
    const found = await gh(['pr', 'view', String(s.pr), '-R', R, '--json', 'number'])
    expect(found.code, found.stderr).to.equal(0)
  })
})
