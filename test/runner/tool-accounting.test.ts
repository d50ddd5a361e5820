import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {accountToolCalls, shellCommands} from '../../src/runner/tool-accounting.js'
import {PROJECT_ROOT} from '../support/cli.js'

const call = (tool: string, args: Record<string, unknown>, output = '') => ({tool, args, output, ok: true, ms: 1})

describe('tool-call accounting', () => {
  it('splits a shell line into its commands, quotes respected', () => {
    expect(shellCommands(`gh label create bug --force && gh issue edit 3 --add-label 'a;b' | jq .x; echo "$(gh pr view 1 --json headRefOid)"`)).to.deep.equal([
      'gh label create bug --force',
      "gh issue edit 3 --add-label 'a;b'",
      'jq .x',
      'echo "$(gh pr view 1 --json headRefOid)"',
    ])
  })

  it('maps gh porcelain, gh api REST and GraphQL to canonical operations', () => {
    const result = accountToolCalls(
      [
        call('shell', {command: 'gh issue view 3 -R o/r --json labels'}),
        call('shell', {command: "gh issue edit 3 -R o/r --remove-label triage --add-label bug"}),
        call('shell', {command: "gh api -X POST repos/o/r/issues/3/comments -f body='hi' --jq '{id}'"}),
        call('shell', {command: "gh api 'repos/o/r/issues/3/comments?per_page=50'"}),
        call('shell', {command: "gh api graphql -f query='mutation($t:ID!){resolveReviewThread(input:{threadId:$t}){thread{id}}}' -f t=X"}),
        call('shell', {command: 'gh run rerun 9 -R o/r --failed'}),
        call('shell', {command: 'ls -la'}),
      ],
      new Set(),
    )
    expect(result.by_category).to.deep.equal({gh_cli: 6, shell: 1})
    expect(result.by_operation).to.deep.equal({
      'issue.view': 1,
      'issue.labels.remove': 1,
      'issue.labels.add': 1,
      'issue.comments.create': 1,
      'issue.comments.list': 1,
      'pr.threads.resolve': 1,
      'workflow.run.rerun.failed': 1,
    })
  })

  it('counts MCP tools by name, refining update_issue by its arguments', () => {
    const tools = new Set(['get_issue', 'update_issue', 'add_issue_comment'])
    const result = accountToolCalls([call('get_issue', {issue_number: 1}), call('update_issue', {labels: ['a']}), call('update_issue', {state: 'closed'}), call('add_issue_comment', {body: 'x'})], tools)
    expect(result.by_category).to.deep.equal({mcp_tool: 4})
    expect(result.by_operation).to.deep.equal({'issue.view': 1, 'issue.labels.set': 1, 'issue.close': 1, 'issue.comments.create': 1})
  })

  it('reads ghx capabilities, their routes and internal retries from the envelopes ghx prints', () => {
    const envelope = (route: string, attempts: string[]) => JSON.stringify({ok: true, data: {}, error: null, meta: {route_used: route, attempts: attempts.map((status) => ({status}))}})
    const result = accountToolCalls(
      [
        call('shell', {command: `ghx run issue.labels.add --input '{"issueNumber": 3}'`}, envelope('graphql', ['error', 'ok'])),
        call('shell', {command: `ghx chain --steps '[{"task":"issue.view"},{"task":"issue.comments.create"}]'`}, `${envelope('cli', ['ok'])}\n${envelope('cli', ['ok'])}`),
      ],
      new Set(),
    )
    expect(result.by_category).to.deep.equal({ghx_capability: 2})
    expect(result.by_operation).to.deep.equal({'issue.labels.add': 1, 'issue.view': 1, 'issue.comments.create': 1})
    expect(result.by_route).to.deep.equal({graphql: 1, cli: 2})
    expect(result.internal_retries).to.equal(1)
  })
})

describe('tool-call accounting on real sessions (ghx eval, pr-review-comment-001)', () => {
  const folder = path.join(PROJECT_ROOT, '..', 'shared', 'datasets', 'ghx-eval-2026-03', 'sessions', 'pr-review-comment-001')
  const OFFICIAL_MCP_TOOLS = new Set(['pull_request_read', 'pull_request_review_write', 'add_comment_to_pending_review'])

  function session(file: string): ReturnType<typeof call>[] {
    const trace = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as {events: Array<{type: string; name: string; input: Record<string, unknown>; output?: string; success?: boolean}>}
    return trace.events.filter((e) => e.type === 'tool_call').map((e) => call(e.name, e.input, e.output ?? ''))
  }

  it('every session classifies into its own arm and its review operations', function () {
    if (!existsSync(folder)) this.skip()
    for (const file of readdirSync(folder).sort()) {
      const result = accountToolCalls(session(file), OFFICIAL_MCP_TOOLS)
      const arm = file.split('-')[0]!
      const kinds = Object.keys(result.by_category)
      if (arm === 'baseline') {
        // The agent with gh: gh calls, plus a jq or a file read now and then.
        expect(result.by_category.gh_cli, file).to.be.at.least(3)
        expect(kinds.filter((k) => k !== 'gh_cli' && k !== 'shell' && k !== 'other'), file).to.deep.equal([])
        expect(result.by_operation, file).to.have.property('pr.view')
      } else if (arm === 'ghx') {
        expect(kinds, file).to.deep.equal(['ghx_capability'])
        expect(result.by_operation, file).to.include.keys('pr.view', 'pr.reviews.submit')
      } else {
        expect(kinds, file).to.deep.equal(['mcp_tool'])
        expect(result.by_operation, file).to.include.keys('pr.view', 'pr.reviews.submit', 'pr.reviews.comment')
      }
      expect(Object.keys(result.by_operation).filter((op) => op.startsWith('rest.') || op === 'graphql.other'), file).to.deep.equal([])
    }
  })
})
