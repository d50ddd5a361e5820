// Every tool of the npm GitHub MCP server (@modelcontextprotocol/server-github), started as mode `mcp`
// starts it (npmGithubMcpServer: the unmodified server with the origin-rewriting preload), called over
// stdio by the MCP SDK's client with realistic arguments against seeded fixtures. A tool "works" when
// the server answers a result (the server throws — an MCP error — whenever GitHub's answer fails its
// own zod schemas or is an HTTP error) in the shape the tool promises.
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {expect} from 'chai'
import {connectNpmMcpServer, type ToolResult} from '../support/mcp.js'
import {BUGGY_FILE, OWNER, REPO, seedSandbox, type Seeded} from '../support/sandbox.js'

type Json = Record<string, unknown>

const base = {owner: OWNER, repo: REPO}

describe('sandbox: every tool of the npm GitHub MCP server', function () {
  this.timeout(60_000)
  let s: Seeded
  let client: Client
  const called = new Set<string>()

  before(async () => {
    s = await seedSandbox()
    client = await connectNpmMcpServer(s.sandbox)
  })
  after(async () => {
    await client?.close()
    await s?.sandbox.close()
  })

  /** Calls a tool; a failure (an MCP error or an error result) fails the test with the server's message. */
  async function call<T = Json>(name: string, args: Json): Promise<T> {
    called.add(name)
    let result: ToolResult
    try {
      result = (await client.callTool({name, arguments: args})) as ToolResult
    } catch (error) {
      throw new Error(`${name} failed: ${(error as Error).message}`, {cause: error})
    }
    expect(result.isError, result.content[0]?.text).to.not.equal(true)
    return JSON.parse(result.content[0]!.text) as T
  }

  it('lists its 26 tools', async () => {
    const {tools} = await client.listTools()
    expect(tools.map((t) => t.name).sort()).to.deep.equal(
      [
        'add_issue_comment',
        'create_branch',
        'create_issue',
        'create_or_update_file',
        'create_pull_request',
        'create_pull_request_review',
        'create_repository',
        'fork_repository',
        'get_file_contents',
        'get_issue',
        'get_pull_request',
        'get_pull_request_comments',
        'get_pull_request_files',
        'get_pull_request_reviews',
        'get_pull_request_status',
        'list_commits',
        'list_issues',
        'list_pull_requests',
        'merge_pull_request',
        'push_files',
        'search_code',
        'search_issues',
        'search_repositories',
        'search_users',
        'update_issue',
        'update_pull_request_branch',
      ].sort(),
    )
  })

  describe('files and branches', () => {
    it('get_file_contents: a file (decoded), a directory and the root (listings)', async () => {
      const file = await call<{content: string; path: string; sha: string}>('get_file_contents', {
        ...base,
        path: 'README.md',
      })
      expect(file.path).to.equal('README.md')
      expect(file.content).to.equal('# sandbox\n\nFixtures for ghx-bench.\n')
      const dir = await call<Array<{name: string; type: string}>>('get_file_contents', {...base, path: 'src'})
      expect(dir).to.deep.include.members([{...dir.find((e) => e.name === 'index.ts')!, type: 'file'}])
      const root = await call<Array<{name: string; type: string}>>('get_file_contents', {
        ...base,
        path: '',
        branch: 'main',
      })
      expect(root.map((e) => `${e.type}:${e.name}`)).to.include.members(['dir:.github', 'file:README.md', 'dir:src'])
      const onBranch = await call<{content: string}>('get_file_contents', {
        ...base,
        path: 'src/utils/stats.ts',
        branch: 'bench-bugs',
      })
      expect(onBranch.content).to.equal(BUGGY_FILE)
    })

    it('create_branch: from the default branch (found through git/refs/heads/main) and from another branch', async () => {
      const fromDefault = await call<{ref: string; object: {sha: string}}>('create_branch', {
        ...base,
        branch: 'mcp-work',
      })
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      expect(fromDefault).to.deep.include({ref: 'refs/heads/mcp-work'})
      expect(fromDefault.object.sha).to.equal(main.data.object.sha)
      const fromBranch = await call<{object: {sha: string}}>('create_branch', {
        ...base,
        branch: 'mcp-from-bugs',
        from_branch: 'bench-bugs',
      })
      expect(fromBranch.object.sha).to.equal(s.prHeadSha)
    })

    it('create_or_update_file: creates a file, then updates it (the server looks its sha up itself)', async () => {
      const created = await call<{
        content: {path: string; sha: string}
        commit: {sha: string; message: string; author: {name: string; email: string; date: string}; parents: unknown[]}
      }>('create_or_update_file', {
        ...base,
        path: 'docs/mcp.md',
        content: '# Notes\n',
        message: 'Add MCP notes',
        branch: 'mcp-work',
      })
      expect(created.content.path).to.equal('docs/mcp.md')
      expect(created.commit).to.include({message: 'Add MCP notes'})
      expect(created.commit.author).to.have.keys('name', 'email', 'date')
      expect(created.commit.parents).to.have.length(1)
      const updated = await call<{content: {sha: string}}>('create_or_update_file', {
        ...base,
        path: 'docs/mcp.md',
        content: '# Notes\n\nMore.\n',
        message: 'Expand MCP notes',
        branch: 'mcp-work',
      })
      expect(updated.content.sha).to.not.equal(created.content.sha)
      const file = await s.agent.rest.repos.getContent({...base, path: 'docs/mcp.md', ref: 'mcp-work'})
      expect(Buffer.from((file.data as {content: string}).content, 'base64').toString()).to.equal('# Notes\n\nMore.\n')
    })

    it('push_files: several files in one commit (git trees and commits, then the ref)', async () => {
      const before = await s.agent.rest.git.getRef({...base, ref: 'heads/mcp-work'})
      const ref = await call<{ref: string; object: {sha: string}}>('push_files', {
        ...base,
        branch: 'mcp-work',
        message: 'Add two files',
        files: [
          {path: 'src/add.ts', content: 'export const add = (a: number, b: number) => a + b\n'},
          {path: 'README.md', content: '# sandbox\n\nFixtures for ghx-bench, and an adder.\n'},
        ],
      })
      expect(ref.ref).to.equal('refs/heads/mcp-work')
      const commit = await s.agent.rest.repos.getCommit({...base, ref: ref.object.sha})
      expect(commit.data.parents.map((p) => p.sha)).to.deep.equal([before.data.object.sha])
      expect(commit.data.commit.message).to.equal('Add two files')
      // The base tree kept the files it had.
      const tree = await s.agent.rest.git.getTree({...base, tree_sha: ref.object.sha, recursive: '1'})
      expect(tree.data.tree.map((e) => e.path)).to.include.members([
        'src/add.ts',
        'src/index.ts',
        'docs/mcp.md',
        'README.md',
      ])
    })

    it('list_commits: a branch’s history, newest first, paginated', async () => {
      const commits = await call<Array<{sha: string; commit: {message: string}}>>('list_commits', {
        ...base,
        sha: 'mcp-work',
        perPage: 2,
      })
      expect(commits.map((c) => c.commit.message)).to.deep.equal(['Add two files', 'Expand MCP notes'])
      const all = await call<unknown[]>('list_commits', {...base})
      expect(all.length).to.be.greaterThan(0)
    })
  })

  describe('repositories', () => {
    it('create_repository: a repository of the authenticated user', async () => {
      const repo = await call<{full_name: string; private: boolean; owner: {login: string}; default_branch: string}>(
        'create_repository',
        {name: 'mcp-created', description: 'Made over MCP', private: false, autoInit: true},
      )
      expect(repo).to.deep.include({full_name: 'ghx-bench-agent/mcp-created', private: false})
      expect(repo.owner.login).to.equal('ghx-bench-agent')
    })

    it('fork_repository: a fork under the authenticated user, with its parent and source', async () => {
      const fork = await call<{
        full_name: string
        fork: boolean
        parent: {full_name: string}
        source: {full_name: string}
      }>('fork_repository', {...base})
      expect(fork).to.deep.include({full_name: 'ghx-bench-agent/sandbox', fork: true})
      expect(fork.parent.full_name).to.equal('ghx-bench/sandbox')
      expect(fork.source.full_name).to.equal('ghx-bench/sandbox')
      const branches = await s.agent.rest.repos.listBranches({owner: 'ghx-bench-agent', repo: 'sandbox'})
      expect(branches.data.map((b) => b.name)).to.include('main')
    })
  })

  describe('issues', () => {
    let created: number

    it('create_issue: with labels and an assignee', async () => {
      const issue = await call<{
        number: number
        title: string
        labels: Array<{name: string}>
        assignees: Array<{login: string}>
      }>('create_issue', {
        ...base,
        title: 'Adder needs tests',
        body: 'src/add.ts has no tests.',
        labels: ['enhancement'],
        assignees: ['ghx-bench-agent'],
      })
      created = issue.number
      expect(issue.title).to.equal('Adder needs tests')
      expect(issue.labels.map((l) => l.name)).to.deep.equal(['enhancement'])
      expect(issue.assignees.map((a) => a.login)).to.deep.equal(['ghx-bench-agent'])
    })

    it('get_issue', async () => {
      const issue = await call<{number: number; title: string; state: string}>('get_issue', {
        ...base,
        issue_number: s.issue,
      })
      expect(issue).to.deep.include({number: s.issue, title: 'Crash on start', state: 'open'})
    })

    it('list_issues: filtered by state and labels', async () => {
      const issues = await call<Array<{number: number}>>('list_issues', {
        ...base,
        state: 'open',
        labels: ['triage'],
        sort: 'created',
        direction: 'asc',
      })
      expect(issues.map((i) => i.number)).to.deep.equal([s.issue])
    })

    it('update_issue: title, labels and state', async () => {
      const issue = await call<{state: string; title: string; labels: Array<{name: string}>}>('update_issue', {
        ...base,
        issue_number: created,
        title: 'Adder needs unit tests',
        labels: ['enhancement', 'good first issue'],
        state: 'closed',
      })
      expect(issue).to.deep.include({state: 'closed', title: 'Adder needs unit tests'})
      expect(issue.labels.map((l) => l.name)).to.deep.equal(['enhancement', 'good first issue'])
    })

    it('add_issue_comment', async () => {
      const comment = await call<{body: string; user: {login: string}; html_url: string}>('add_issue_comment', {
        ...base,
        issue_number: s.issue,
        body: 'Reproduced on main.',
      })
      expect(comment.body).to.equal('Reproduced on main.')
      expect(comment.user.login).to.equal('ghx-bench-agent')
      expect(comment.html_url).to.include(`/issues/${s.issue}#issuecomment-`)
    })
  })

  describe('pull requests', () => {
    let opened: number

    it('create_pull_request: from a branch the MCP tools pushed', async () => {
      const pull = await call<{number: number; head: {ref: string}; base: {ref: string}; state: string}>(
        'create_pull_request',
        {...base, title: 'Add an adder', body: 'Adds src/add.ts.', head: 'mcp-work', base: 'main'},
      )
      opened = pull.number
      expect(pull).to.deep.include({state: 'open'})
      expect(pull.head.ref).to.equal('mcp-work')
      expect(pull.base.ref).to.equal('main')
    })

    it('get_pull_request', async () => {
      const pull = await call<{number: number; title: string; user: {login: string}}>('get_pull_request', {
        ...base,
        pull_number: s.pr,
      })
      expect(pull).to.deep.include({number: s.pr, title: 'Add stats helpers'})
      expect(pull.user.login).to.equal('ghx-bench-reviewer')
    })

    it('list_pull_requests: by state and base', async () => {
      const pulls = await call<Array<{number: number}>>('list_pull_requests', {
        ...base,
        state: 'open',
        base: 'main',
        sort: 'created',
        direction: 'desc',
        per_page: 10,
      })
      expect(pulls.map((p) => p.number)).to.include.members([s.pr, opened])
    })

    it('get_pull_request_files: real files with patches', async () => {
      const files = await call<Array<{filename: string; status: string; additions: number; patch: string}>>(
        'get_pull_request_files',
        {...base, pull_number: s.pr},
      )
      expect(files.map((f) => [f.filename, f.status, f.additions])).to.deep.equal([['src/utils/stats.ts', 'added', 12]])
      expect(files[0]!.patch).to.match(/^@@ -0,0 \+1,12 @@/)
    })

    it('create_pull_request_review: inline comments by position and by line', async () => {
      const review = await call<{state: string; body: string; user: {login: string}}>('create_pull_request_review', {
        ...base,
        pull_number: s.pr,
        event: 'REQUEST_CHANGES',
        body: 'Two problems.',
        comments: [
          {path: 'src/utils/stats.ts', position: 4, body: 'Division by zero on an empty list.'},
          {path: 'src/utils/stats.ts', line: 8, body: 'Missing await.'},
        ],
      })
      expect(review).to.deep.include({state: 'CHANGES_REQUESTED', body: 'Two problems.'})
      expect(review.user.login).to.equal('ghx-bench-agent')
    })

    it('get_pull_request_reviews', async () => {
      const reviews = await call<Array<{state: string; user: {login: string}}>>('get_pull_request_reviews', {
        ...base,
        pull_number: s.pr,
      })
      expect(reviews.map((r) => [r.user.login, r.state])).to.deep.include(['ghx-bench-agent', 'CHANGES_REQUESTED'])
    })

    it('get_pull_request_comments: with their positions and diff hunks', async () => {
      // The server keeps only the fields of its own schema (position, diff_hunk, …; not line).
      const comments = await call<Array<{body: string; position: number; diff_hunk: string}>>(
        'get_pull_request_comments',
        {...base, pull_number: s.pr},
      )
      const byPosition = comments.find((c) => c.body === 'Division by zero on an empty list.')!
      // Position 4 of a new file's patch is its line 4; the hunk runs from its header down to that line.
      expect(byPosition.position).to.equal(4)
      expect(byPosition.diff_hunk).to.equal(
        [
          '@@ -0,0 +1,12 @@',
          ...BUGGY_FILE.split('\n')
            .slice(0, 4)
            .map((l) => `+${l}`),
        ].join('\n'),
      )
      expect(comments.find((c) => c.body === 'Missing await.')).to.deep.include({position: 8})
      const rest = await s.agent.rest.pulls.listReviewComments({...base, pull_number: s.pr})
      expect(
        rest.data.filter((c) => c.user.login === 'ghx-bench-agent').map((c) => [c.line, c.side, c.position]),
      ).to.deep.equal([
        [4, 'RIGHT', 4],
        [8, 'RIGHT', 8],
      ])
    })

    it('get_pull_request_status: the head commit’s combined status', async () => {
      await s.agent.request('POST /repos/{owner}/{repo}/statuses/{sha}', {
        ...base,
        sha: s.prHeadSha,
        state: 'failure',
        context: 'ci/test',
        description: '3 tests failed',
        target_url: 'https://ci.example/runs/1',
      })
      const status = await call<{
        state: string
        sha: string
        total_count: number
        statuses: Array<{context: string; state: string}>
      }>('get_pull_request_status', {...base, pull_number: s.pr})
      expect(status).to.deep.include({state: 'failure', sha: s.prHeadSha, total_count: 1})
      expect(status.statuses.map((c) => [c.context, c.state])).to.deep.equal([['ci/test', 'failure']])
    })

    it('update_pull_request_branch: merges the moved base into the head', async () => {
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'CHANGELOG.md',
        message: 'Start a changelog',
        content: Buffer.from('# Changelog\n').toString('base64'),
      })
      const result = await call<{success: boolean}>('update_pull_request_branch', {...base, pull_number: opened})
      expect(result).to.deep.equal({success: true})
      const files = await s.agent.rest.repos.getContent({...base, path: 'CHANGELOG.md', ref: 'mcp-work'})
      expect((files.data as {path: string}).path).to.equal('CHANGELOG.md')
    })

    it('merge_pull_request: squash', async () => {
      const result = await call<{merged: boolean; sha: string; message: string}>('merge_pull_request', {
        ...base,
        pull_number: opened,
        merge_method: 'squash',
        commit_title: 'Add an adder (#PR)',
      })
      expect(result).to.deep.include({merged: true, message: 'Pull Request successfully merged'})
      const main = await s.agent.rest.git.getRef({...base, ref: 'heads/main'})
      expect(main.data.object.sha).to.equal(result.sha)
    })
  })

  describe('search', () => {
    it('search_repositories', async () => {
      const found = await call<{total_count: number; incomplete_results: boolean; items: Array<{full_name: string}>}>(
        'search_repositories',
        {query: 'sandbox user:ghx-bench'},
      )
      expect(found.items.map((r) => r.full_name)).to.include('ghx-bench/sandbox')
    })
    it('search_code', async () => {
      // src/add.ts reached main with the squash merge above; src/utils/stats.ts (average) is only on a branch,
      // and GitHub's code search indexes the default branch alone.
      const found = await call<{total_count: number; items: Array<{path: string}>}>('search_code', {
        q: 'add repo:ghx-bench/sandbox',
      })
      expect(found.items.map((i) => i.path)).to.include('src/add.ts')
      const onBranch = await call<{total_count: number}>('search_code', {q: 'average repo:ghx-bench/sandbox'})
      expect(onBranch.total_count).to.equal(0)
    })
    it('search_issues', async () => {
      const found = await call<{total_count: number; items: Array<{number: number}>}>('search_issues', {
        q: 'crash repo:ghx-bench/sandbox is:issue',
      })
      expect(found.items.map((i) => i.number)).to.include(s.issue)
    })
    it('search_users', async () => {
      const found = await call<{total_count: number; items: Array<{login: string}>}>('search_users', {
        q: 'ghx-bench-reviewer',
      })
      expect(found.items.map((u) => u.login)).to.include('ghx-bench-reviewer')
    })
  })

  // Child suites run in order, after this suite's own tests: this one runs last.
  describe('coverage', () => {
    it('called every one of the server’s 26 tools', () => {
      expect([...called]).to.have.length(26)
    })
  })
})
