// The real `gh` (Debian's package) against the sandbox, through its proxy settings: every command the
// published agent sessions ran, and the everyday ones.
import {execFile} from 'node:child_process'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'

const R = `${OWNER}/${REPO}`

describe('sandbox: gh', function () {
  this.timeout(60_000)
  let s: Seeded
  let configDir: string

  /** Runs gh asynchronously: the sandbox serves from this same process. */
  function gh(
    args: string[],
    options: {input?: string; token?: string} = {},
  ): Promise<{code: number; stdout: string; stderr: string}> {
    return new Promise((resolve) => {
      const child = execFile(
        'gh',
        args,
        // A configuration per token: gh's login for the sandbox host is written there.
        {
          env: {...process.env, ...s.sandbox.ghEnv(path.join(configDir, options.token ?? 'agent'), options.token)},
          timeout: 20_000,
        },
        (error, stdout, stderr) => resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
      )
      if (options.input !== undefined) child.stdin!.end(options.input)
      else child.stdin!.end()
    })
  }

  async function ok(args: string[], options?: {input?: string; token?: string}): Promise<string> {
    const result = await gh(args, options)
    expect(result.code, `gh ${args.join(' ')}\n${result.stderr}`).to.equal(0)
    return result.stdout
  }

  before(async () => {
    s = await seedSandbox()
    configDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-'))
  })
  after(() => s.sandbox.close())

  it('gh auth status (for the sandbox host)', async () => {
    const result = await gh(['auth', 'status', '--hostname', 'github.localhost'])
    expect(result.code).to.equal(0)
    expect(result.stderr).to.include('Logged in to github.localhost as ghx-bench-agent')
  })

  it('gh issue view, list, comment, edit', async () => {
    expect(await ok(['issue', 'view', String(s.issue), '-R', R])).to.match(/title:\tCrash on start\nstate:\tOPEN/)
    const json = JSON.parse(
      await ok(['issue', 'view', String(s.issue), '-R', R, '--json', 'number,title,labels,state,comments,assignees']),
    ) as {labels: Array<{name: string}>; state: string}
    expect(json.labels.map((l) => l.name)).to.deep.equal(['triage', 'feature-request'])
    expect(await ok(['issue', 'list', '-R', R])).to.include('Crash on start')
    expect(await ok(['issue', 'comment', String(s.issue), '-R', R, '--body', 'Looking into it.'])).to.include(
      `/issues/${s.issue}#issuecomment-`,
    )
    // As on GitHub, gh edit only adds labels the repository has.
    // 'bug' is one of the labels every new repository starts with.
    await ok([
      'issue',
      'edit',
      String(s.issue),
      '-R',
      R,
      '--add-label',
      'bug',
      '--remove-label',
      'triage',
      '--add-assignee',
      'ghx-bench',
    ])
    const issue = await s.agent.rest.issues.get({owner: OWNER, repo: REPO, issue_number: s.issue})
    expect(issue.data.labels.map((l) => (typeof l === 'string' ? l : l.name)).sort()).to.deep.equal([
      'bug',
      'feature-request',
    ])
    expect(issue.data.assignees!.map((a) => a.login)).to.deep.equal(['ghx-bench'])
    await ok(['issue', 'close', String(s.issue), '-R', R])
    await ok(['issue', 'reopen', String(s.issue), '-R', R])
  })

  it('gh pr view, with each --json field set the agents used, and by default', async () => {
    const fieldSets = [
      'number,title,body,headRefName,baseRefName,author,commits',
      'reviews,comments',
      'reviewDecision,reviews',
      'files',
      'headRefOid',
      'title,body,author,headRefName,baseRefName,commits,files,additions,deletions,changedFiles,url',
      'number,title,body,headRefName,baseRefName,author,mergeStateStatus,additions,deletions,changedFiles',
    ]
    for (const fields of fieldSets) {
      const view = JSON.parse(await ok(['pr', 'view', String(s.pr), '-R', R, '--json', fields])) as Record<
        string,
        unknown
      >
      expect(Object.keys(view).sort()).to.deep.equal(fields.split(',').sort())
    }
    const files = JSON.parse(await ok(['pr', 'view', String(s.pr), '-R', R, '--json', 'files,headRefOid'])) as {
      files: Array<{path: string; additions: number}>
      headRefOid: string
    }
    expect(files.files).to.deep.equal([{path: 'src/utils/stats.ts', additions: 12, deletions: 0}])
    expect(files.headRefOid).to.equal(s.prHeadSha)
    expect(await ok(['pr', 'view', String(s.pr), '-R', R])).to.match(/^title:\tAdd stats helpers/m)
    expect(await ok(['pr', 'list', '-R', R])).to.include('Add stats helpers')
  })

  it('gh pr diff', async () => {
    expect(await ok(['pr', 'diff', String(s.pr), '-R', R])).to.match(
      /^diff --git a\/src\/utils\/stats.ts b\/src\/utils\/stats.ts\nnew file mode 100644/,
    )
  })

  it('gh api for files (--paginate) and review comments (GET and POST)', async () => {
    const files = JSON.parse(await ok(['api', `repos/${R}/pulls/${s.pr}/files`, '--paginate'])) as Array<{
      filename: string
    }>
    expect(files.map((f) => f.filename)).to.deep.equal(['src/utils/stats.ts'])
    const created = JSON.parse(
      await ok([
        'api',
        `repos/${R}/pulls/${s.pr}/comments`,
        '-f',
        'body=Division by zero on empty input.',
        '-f',
        `commit_id=${s.prHeadSha}`,
        '-f',
        'path=src/utils/stats.ts',
        '-F',
        'line=4',
        '-f',
        'side=RIGHT',
      ]),
    ) as {line: number; body: string}
    expect(created).to.include({line: 4, body: 'Division by zero on empty input.'})
    const comments = JSON.parse(await ok(['api', `repos/${R}/pulls/${s.pr}/comments`])) as Array<{line: number}>
    expect(comments.map((c) => c.line)).to.deep.equal([2, 4])
  })

  it('gh api -X POST .../reviews with -f fields and with --input -', async () => {
    const withFields = JSON.parse(
      await ok([
        'api',
        `repos/${R}/pulls/${s.pr}/reviews`,
        '-X',
        'POST',
        '-f',
        `commit_id=${s.prHeadSha}`,
        '-f',
        'event=COMMENT',
        '-f',
        'body=First pass.',
      ]),
    ) as {state: string}
    expect(withFields.state).to.equal('COMMENTED')
    const input = JSON.stringify({
      event: 'REQUEST_CHANGES',
      body: 'Three bugs, see inline.',
      comments: [
        {path: 'src/utils/stats.ts', line: 8, side: 'RIGHT', body: 'Missing await.'},
        {path: 'src/utils/stats.ts', line: 12, side: 'RIGHT', body: 'Hard-coded password.'},
      ],
    })
    const withInput = JSON.parse(
      await ok(['api', `repos/${R}/pulls/${s.pr}/reviews`, '-X', 'POST', '--input', '-'], {input}),
    ) as {state: string}
    expect(withInput.state).to.equal('CHANGES_REQUESTED')
  })

  it('gh pr review --request-changes and gh pr comment', async () => {
    await ok(['pr', 'review', String(s.pr), '-R', R, '--request-changes', '--body', 'Please fix the three bugs.'])
    expect(await ok(['pr', 'comment', String(s.pr), '-R', R, '--body', 'Thanks!'])).to.include(
      `/pull/${s.pr}#issuecomment-`,
    )
    const view = JSON.parse(await ok(['pr', 'view', String(s.pr), '-R', R, '--json', 'reviewDecision'])) as {
      reviewDecision: string
    }
    expect(view.reviewDecision).to.equal('CHANGES_REQUESTED')
  })

  it('gh run list, view, view --log of a job, rerun --failed', async () => {
    await waitForRun(s.agent, s.runId)
    expect(await ok(['run', 'list', '-R', R])).to.include('bench-rerun-failed')
    expect(await ok(['run', 'view', String(s.runId), '-R', R])).to.include('verify')
    const jobs = await s.agent.rest.actions.listJobsForWorkflowRun({owner: OWNER, repo: REPO, run_id: s.runId})
    const failed = jobs.data.jobs.find((j) => j.conclusion === 'failure')!
    expect(await ok(['run', 'view', '--job', String(failed.id), '--log', '-R', R])).to.include(
      'simulated failure on attempt 1',
    )
    await ok(['run', 'rerun', String(s.runId), '--failed', '-R', R])
    expect(await waitForRun(s.agent, s.runId)).to.include({conclusion: 'success', run_attempt: 2})
  })

  it('gh release list and view', async () => {
    expect(await ok(['release', 'list', '-R', R])).to.include('v0.1.0-bench')
    expect(await ok(['release', 'view', 'v0.1.0-bench', '-R', R])).to.include('Bench draft')
  })

  it('gh api graphql', async () => {
    const out = JSON.parse(await ok(['api', 'graphql', '-f', 'query={ viewer { login } }'])) as {
      data: {viewer: {login: string}}
    }
    expect(out.data.viewer.login).to.equal('ghx-bench-agent')
  })
})
