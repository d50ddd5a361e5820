// The npm GitHub MCP server, unmodified, against the sandbox through the origin-rewriting preload,
// driven by a real MCP client over stdio.
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {expect} from 'chai'
import {connectNpmMcpServer, type ToolResult} from '../support/mcp.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../support/sandbox.js'

describe('sandbox: @modelcontextprotocol/server-github', function () {
  this.timeout(60_000)
  let s: Seeded
  let client: Client

  before(async () => {
    s = await seedSandbox()
    client = await connectNpmMcpServer(s.sandbox)
  })
  after(async () => {
    await client.close()
    await s.sandbox.close()
  })

  async function call(name: string, args: Record<string, unknown>): Promise<unknown> {
    const result = (await client.callTool({name, arguments: args})) as ToolResult
    expect(result.isError, result.content[0]?.text).to.not.equal(true)
    return JSON.parse(result.content[0]!.text)
  }

  it('lists its 26 tools', async () => {
    const {tools} = await client.listTools()
    expect(tools).to.have.length(26)
    expect(tools.map((t) => t.name)).to.include.members([
      'get_issue',
      'add_issue_comment',
      'get_pull_request_files',
      'create_pull_request_review',
    ])
  })

  it('reads an issue and a pull request with its files', async () => {
    const issue = (await call('get_issue', {owner: OWNER, repo: REPO, issue_number: s.issue})) as {title: string}
    expect(issue.title).to.equal('Crash on start')
    const files = (await call('get_pull_request_files', {owner: OWNER, repo: REPO, pull_number: s.pr})) as Array<{
      filename: string
    }>
    expect(files.map((f) => f.filename)).to.deep.equal(['src/utils/stats.ts'])
  })

  it('writes: a comment, labels, and a review requesting changes with inline comments', async () => {
    await call('add_issue_comment', {
      owner: OWNER,
      repo: REPO,
      issue_number: s.issue,
      body: 'Triaged — tracking as enhancement.',
    })
    await call('update_issue', {owner: OWNER, repo: REPO, issue_number: s.issue, labels: ['enhancement']})
    await call('create_pull_request_review', {
      owner: OWNER,
      repo: REPO,
      pull_number: s.pr,
      event: 'REQUEST_CHANGES',
      body: 'Three bugs.',
      comments: [{path: 'src/utils/stats.ts', line: 4, body: 'Division by zero.'}],
    })
    const issue = await s.agent.rest.issues.get({owner: OWNER, repo: REPO, issue_number: s.issue})
    expect(issue.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).to.deep.equal(['enhancement'])
    expect(issue.data.comments).to.equal(1)
    const reviews = await s.agent.rest.pulls.listReviews({owner: OWNER, repo: REPO, pull_number: s.pr})
    expect(reviews.data.map((r) => r.state)).to.include('CHANGES_REQUESTED')
  })
})
