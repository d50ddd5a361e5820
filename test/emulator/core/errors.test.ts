// Refusals in GitHub's REST error body: {message, documentation_url, status}, the refusal's own text
// as the message where GitHub puts it there (no "Validation Failed" wrapper), and a 422 of field
// errors as Validation Failed with `errors`.
import {expect} from 'chai'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const R = `${OWNER}/${REPO}`

describe('sandbox: GitHub’s REST error bodies', function () {
  this.timeout(30_000)
  let s: Seeded

  before(async () => {
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  async function send(method: string, path: string, body: unknown): Promise<{status: number; body: unknown}> {
    const response = await fetch(`${s.sandbox.url}/repos/${R}/${path}`, {
      method,
      headers: {authorization: `token ${s.sandbox.token}`, 'content-type': 'application/json'},
      body: JSON.stringify(body),
    })
    return {status: response.status, body: await response.json()}
  }

  const refusal = (message: string) => ({
    status: 422,
    body: {message, documentation_url: 'https://docs.github.com/rest', status: '422'},
  })

  it('answers a refusal with its own text as the message', async () => {
    const main = (await s.agent.rest.git.getRef({owner: OWNER, repo: REPO, ref: 'heads/main'})).data.object.sha
    expect(await send('POST', 'git/refs', {ref: 'refs/heads/main', sha: main})).to.deep.equal(
      refusal('Reference already exists'),
    )
    expect(await send('DELETE', 'git/refs/heads/no-such-branch', {})).to.deep.equal(refusal('Reference does not exist'))
    expect(await send('POST', 'git/refs', {ref: 'refs/heads/x', sha: '0'.repeat(40)})).to.deep.equal(
      refusal('Object does not exist'),
    )
    expect(await send('POST', 'git/commits', {message: 'm', tree: '0'.repeat(40), parents: []})).to.deep.equal(
      refusal('Tree SHA does not exist'),
    )
    expect(
      await send('POST', 'actions/workflows/bench-rerun-failed.yml/dispatches', {ref: 'no-such-branch'}),
    ).to.deep.equal(refusal('No ref found for: no-such-branch'))
    expect(await send('POST', `pulls/${s.pr}/requested_reviewers`, {reviewers: ['ghx-bench-reviewer']})).to.deep.equal(
      refusal('Review cannot be requested from pull request author.'),
    )
  })

  it('answers field errors as Validation Failed with `errors`', async () => {
    const answer = await send('POST', 'issues', {title: ''})
    expect(answer.status).to.equal(422)
    expect(answer.body).to.deep.include({message: 'Validation Failed', status: '422'})
    expect((answer.body as {errors: unknown[]}).errors).to.have.length(1)
  })
})
