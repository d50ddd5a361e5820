// Every REST operation the sandbox models, called for real and its answer validated against GitHub's
// published OpenAPI description (@octokit/openapi): status documented, JSON body valid for its schema.
import {expect} from 'chai'
import type {Octokit} from '@octokit/rest'
import {modelledOperations} from '../../src/emulator/rest.js'
import {loadGithubOpenApi, type GithubOpenApi} from '../support/openapi.js'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}

describe('sandbox: REST contract (GitHub OpenAPI description)', function () {
  this.timeout(60_000)
  let s: Seeded
  let openApi: GithubOpenApi
  const exercised = new Set<string>()
  const violations: string[] = []

  before(async () => {
    openApi = await loadGithubOpenApi()
    s = await seedSandbox()
  })
  after(() => s.sandbox.close())

  /** Calls an operation and checks its answer against the description of that operation. */
  async function check(octokit: Octokit, route: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const [method, template] = route.split(' ') as [string, string]
    const operation = openApi.operation(method, template)
    expect(operation, `${route} is in GitHub's description`).to.not.equal(undefined)
    const response = await octokit.request(route, {...base, ...params})
    exercised.add(operation!.operationId)
    // fetch follows a 302 (logs); the status GitHub documents is then the redirect's.
    const status = response.url.includes('/_downloads/') ? 302 : response.status
    const documented = operation!.responses[String(status)]
    if (!documented) violations.push(`${operation!.operationId}: status ${status} is not documented`)
    const schema = documented?.content?.['application/json']?.schema
    if (schema && typeof response.data === 'object') {
      const validate = openApi.compile(schema)
      if (!validate(response.data)) violations.push(`${operation!.operationId}: ${openApi.errorsText(validate)}`)
    }
    return response.data
  }

  it('answers every modelled operation in GitHub’s documented shapes', async () => {
    const a = s.agent
    const r = s.reviewer
    await check(a, 'GET /')
    await check(a, 'GET /user')
    await check(a, 'GET /users/{username}', {username: 'ghx-bench'})
    await check(a, 'GET /rate_limit')
    await check(a, 'GET /repos/{owner}/{repo}')
    await check(a, 'GET /repos/{owner}/{repo}/branches')
    await check(a, 'GET /repos/{owner}/{repo}/branches/{branch}', {branch: 'main'})
    await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}', {ref: 'main'})
    await check(a, 'GET /repos/{owner}/{repo}/contents/{path}', {path: 'README.md'})
    const file = (await check(a, 'PUT /repos/{owner}/{repo}/contents/{path}', {
      path: 'notes.md',
      message: 'add',
      content: Buffer.from('hi').toString('base64'),
    })) as {content: {sha: string}}
    const edited = (await check(a, 'PUT /repos/{owner}/{repo}/contents/{path}', {
      path: 'notes.md',
      message: 'edit',
      content: Buffer.from('hi!').toString('base64'),
      sha: file.content.sha,
    })) as {content: {sha: string}}
    await check(a, 'DELETE /repos/{owner}/{repo}/contents/{path}', {
      path: 'notes.md',
      message: 'remove',
      sha: edited.content.sha,
    })
    const main = (await check(a, 'GET /repos/{owner}/{repo}/git/ref/{ref}', {ref: 'heads/main'})) as {
      object: {sha: string}
    }
    await check(a, 'POST /repos/{owner}/{repo}/git/refs', {ref: 'refs/heads/contract', sha: main.object.sha})
    await check(a, 'GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {ref: 'heads/contract'})
    await check(a, 'PATCH /repos/{owner}/{repo}/git/refs/{ref}', {
      ref: 'heads/contract',
      sha: main.object.sha,
      force: true,
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/git/refs/{ref}', {ref: 'heads/contract'})

    await check(a, 'POST /repos/{owner}/{repo}/labels', {name: 'contract', color: 'a2eeef'})
    await check(a, 'GET /repos/{owner}/{repo}/labels')
    await check(a, 'GET /repos/{owner}/{repo}/labels/{name}', {name: 'contract'})
    await check(a, 'PATCH /repos/{owner}/{repo}/labels/{name}', {name: 'contract', description: 'Better'})
    await check(a, 'POST /repos/{owner}/{repo}/labels', {name: 'doomed'})
    await check(a, 'DELETE /repos/{owner}/{repo}/labels/{name}', {name: 'doomed'})
    await check(a, 'POST /repos/{owner}/{repo}/milestones', {title: 'v1'})
    await check(a, 'GET /repos/{owner}/{repo}/milestones')
    await check(a, 'GET /repos/{owner}/{repo}/milestones/{milestone_number}', {milestone_number: 1})
    await check(a, 'GET /repos/{owner}/{repo}/issue-types')

    const issue = s.issue
    const other = (await check(a, 'POST /repos/{owner}/{repo}/issues', {
      title: 'Other',
      milestone: 1,
      assignees: ['ghx-bench'],
    })) as {id: number; number: number}
    await check(a, 'GET /repos/{owner}/{repo}/issues')
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}', {issue_number: issue})
    await check(a, 'PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      issue_number: issue,
      title: 'Crash on start (edited)',
    })
    const comment = (await check(a, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      issue_number: issue,
      body: 'hello',
    })) as {id: number}
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {issue_number: issue})
    await check(a, 'GET /repos/{owner}/{repo}/issues/comments/{comment_id}', {comment_id: comment.id})
    await check(a, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {comment_id: comment.id, body: 'hello!'})
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}', {comment_id: comment.id})
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/labels', {issue_number: issue})
    await check(a, 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
      issue_number: issue,
      labels: ['enhancement'],
    })
    await check(a, 'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels', {
      issue_number: issue,
      labels: ['enhancement', 'triage'],
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', {
      issue_number: issue,
      name: 'triage',
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels', {issue_number: other.number})
    await check(a, 'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', {
      issue_number: issue,
      assignees: ['ghx-bench'],
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees', {
      issue_number: issue,
      assignees: ['ghx-bench'],
    })
    await check(a, 'POST /repos/{owner}/{repo}/issues/{issue_number}/sub_issues', {
      issue_number: issue,
      sub_issue_id: other.id,
    })
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/sub_issues', {issue_number: issue})
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/sub_issue', {
      issue_number: issue,
      sub_issue_id: other.id,
    })
    await check(a, 'POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', {
      issue_number: issue,
      issue_id: other.id,
    })
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by', {issue_number: issue})
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking', {
      issue_number: other.number,
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}', {
      issue_number: issue,
      issue_id: other.id,
    })

    const pr = s.pr
    await check(a, 'GET /repos/{owner}/{repo}/pulls')
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}', {pull_number: pr})
    await check(a, 'PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {pull_number: pr, body: 'Adds helpers (edited).'})
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {pull_number: pr})
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/commits', {pull_number: pr})
    await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
      pull_number: pr,
      reviewers: ['ghx-bench'],
    })
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {pull_number: pr})
    await check(a, 'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
      pull_number: pr,
      reviewers: ['ghx-bench'],
    })
    const pending = (await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      pull_number: pr,
      body: 'pending',
      comments: [{path: 'src/utils/stats.ts', line: 4, body: 'why?'}],
    })) as {id: number}
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', {
      pull_number: pr,
      review_id: pending.id,
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', {
      pull_number: pr,
      review_id: pending.id,
    })
    const review = (await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      pull_number: pr,
      body: 'second look',
    })) as {id: number}
    await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events', {
      pull_number: pr,
      review_id: review.id,
      event: 'REQUEST_CHANGES',
      body: 'fix it',
    })
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {pull_number: pr})
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', {
      pull_number: pr,
      review_id: review.id,
    })
    const dismissed = (await check(a, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals', {
      pull_number: pr,
      review_id: review.id,
      message: 'outdated',
    })) as {state: string}
    expect(dismissed.state).to.equal('DISMISSED')
    const rc = (await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
      pull_number: pr,
      body: 'bug',
      path: 'src/utils/stats.ts',
      line: 8,
      commit_id: s.prHeadSha,
    })) as {id: number}
    await check(a, 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', {
      pull_number: pr,
      comment_id: rc.id,
      body: 'agreed',
    })
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', {pull_number: pr})
    await check(a, 'GET /repos/{owner}/{repo}/pulls/comments/{comment_id}', {comment_id: rc.id})
    await check(a, 'PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}', {comment_id: rc.id, body: 'bug!'})
    await check(a, 'DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}', {comment_id: rc.id})
    await a.request('PUT /repos/{owner}/{repo}/contents/{path}', {
      ...base,
      path: 'CHANGELOG.md',
      message: 'main moves on',
      content: Buffer.from('x').toString('base64'),
    })
    await check(r, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch', {pull_number: pr})
    await check(a, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {pull_number: pr, merge_method: 'squash'})
    await check(a, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/merge', {pull_number: pr})
    const head = (await a.request('GET /repos/{owner}/{repo}/git/ref/{ref}', {...base, ref: 'heads/main'})).data as {
      object: {sha: string}
    }
    await a.request('POST /repos/{owner}/{repo}/git/refs', {...base, ref: 'refs/heads/second', sha: head.object.sha})
    await a.request('PUT /repos/{owner}/{repo}/contents/{path}', {
      ...base,
      path: 'b.md',
      message: 'b',
      content: Buffer.from('b').toString('base64'),
      branch: 'second',
    })
    await check(r, 'POST /repos/{owner}/{repo}/pulls', {title: 'Second', head: 'second', base: 'main'})

    await waitForRun(a, s.runId)
    await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
      ref: (await a.rest.actions.getWorkflowRun({...base, run_id: s.runId})).data.head_sha,
    })
    const jobs = (await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {run_id: s.runId})) as {
      jobs: Array<{id: number; conclusion: string}>
    }
    const failed = jobs.jobs.find((j) => j.conclusion === 'failure')!
    await check(a, 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}', {check_run_id: failed.id})
    await check(a, 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', {check_run_id: failed.id})
    const reported = (await check(r, 'POST /repos/{owner}/{repo}/check-runs', {
      head_sha: s.prHeadSha,
      name: 'ci/reported',
      status: 'completed',
      conclusion: 'success',
      output: {title: 'Passed', summary: 'All good.'},
    })) as {id: number}
    await check(a, 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}', {check_run_id: reported.id})
    await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {ref: s.prHeadSha})
    await check(a, 'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable', {
      workflow_id: 'bench-rerun-failed.yml',
    })
    await check(a, 'PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable', {
      workflow_id: 'bench-rerun-failed.yml',
    })
    const [artifact] = (
      (await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', {run_id: s.runId})) as {
        artifacts: Array<{id: number}>
      }
    ).artifacts
    await check(a, 'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', {
      artifact_id: artifact!.id,
      archive_format: 'zip',
    })
    await check(a, 'GET /repos/{owner}/{repo}/contributors')
    await check(a, 'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock', {
      issue_number: s.issue,
      lock_reason: 'resolved',
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock', {issue_number: s.issue})
    const issueComment = (await a.rest.issues.createComment({...base, issue_number: s.issue, body: 'react'})).data
    const [reviewComment] = (await a.rest.pulls.listReviewComments({...base, pull_number: s.pr})).data
    for (const [path, params] of [
      ['/repos/{owner}/{repo}/issues/{issue_number}', {issue_number: s.issue}],
      ['/repos/{owner}/{repo}/issues/comments/{comment_id}', {comment_id: issueComment.id}],
      ['/repos/{owner}/{repo}/pulls/comments/{comment_id}', {comment_id: reviewComment!.id}],
    ] as const) {
      const reaction = (await check(a, `POST ${path}/reactions`, {...params, content: 'heart'})) as {id: number}
      await check(a, `GET ${path}/reactions`, params)
      await check(a, `DELETE ${path}/reactions/{reaction_id}`, {...params, reaction_id: reaction.id})
    }
    await check(a, 'GET /repos/{owner}/{repo}/actions/workflows')
    await check(a, 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}', {workflow_id: 'bench-rerun-failed.yml'})
    await check(a, 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', {
      workflow_id: 'bench-rerun-failed.yml',
    })
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs')
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}', {run_id: s.runId})
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}', {
      run_id: s.runId,
      attempt_number: 1,
    })
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', {
      run_id: s.runId,
      attempt_number: 1,
    })
    await check(a, 'GET /repos/{owner}/{repo}/actions/jobs/{job_id}', {job_id: failed.id})
    await check(a, 'GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', {job_id: failed.id})
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs', {run_id: s.runId})
    await check(a, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', {run_id: s.runId})
    await check(a, 'GET /repos/{owner}/{repo}/actions/artifacts')
    await check(a, 'POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs', {run_id: s.runId})
    await check(a, 'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', {run_id: s.runId})
    await check(a, 'POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun', {run_id: s.runId})
    await check(a, 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
      workflow_id: 'bench-rerun-failed.yml',
      ref: 'main',
      inputs: {seed_id: 'x'},
    })
    await check(a, 'DELETE /repos/{owner}/{repo}/actions/runs/{run_id}', {run_id: s.runId})

    await check(a, 'GET /repos/{owner}/{repo}/releases')
    await check(a, 'GET /repos/{owner}/{repo}/releases/{release_id}', {release_id: s.releaseId})
    await check(a, 'PATCH /repos/{owner}/{repo}/releases/{release_id}', {release_id: s.releaseId, draft: false})
    // A draft is not found by tag (404, as on GitHub); a published release is.
    await check(a, 'GET /repos/{owner}/{repo}/releases/tags/{tag}', {tag: 'v0.1.0-bench'})
    await check(a, 'GET /repos/{owner}/{repo}/releases/latest')
    const doomed = (await check(a, 'POST /repos/{owner}/{repo}/releases', {tag_name: 'v9', draft: true})) as {
      id: number
    }
    await check(a, 'DELETE /repos/{owner}/{repo}/releases/{release_id}', {release_id: doomed.id})
    expect(violations).to.deep.equal([])
  })

  it('answers the git, repository, history and commit status operations in GitHub’s documented shapes', async () => {
    const a = s.agent
    const main = (await a.request('GET /repos/{owner}/{repo}/git/ref/{ref}', {...base, ref: 'heads/main'})).data as {
      object: {sha: string}
    }
    // contents, README, the git database
    await check(a, 'GET /repos/{owner}/{repo}/contents/{path}', {path: 'src'})
    await check(a, 'GET /repos/{owner}/{repo}/readme')
    const tree = (await check(a, 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}', {
      tree_sha: main.object.sha,
      recursive: '1',
    })) as {sha: string; tree: Array<{path: string; sha: string; type: string}>}
    const readme = tree.tree.find((e) => e.path === 'README.md')!
    await check(a, 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}', {file_sha: readme.sha})
    const blob = (await check(a, 'POST /repos/{owner}/{repo}/git/blobs', {content: 'notes\n'})) as {sha: string}
    const newTree = (await check(a, 'POST /repos/{owner}/{repo}/git/trees', {
      base_tree: tree.sha,
      tree: [
        {path: 'docs/notes.md', mode: '100644', type: 'blob', sha: blob.sha},
        {path: 'docs/README.md', mode: '100644', type: 'blob', content: '# Docs\n'},
      ],
    })) as {sha: string}
    const commit = (await check(a, 'POST /repos/{owner}/{repo}/git/commits', {
      message: 'Add notes',
      tree: newTree.sha,
      parents: [main.object.sha],
    })) as {sha: string}
    await check(a, 'GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {commit_sha: commit.sha})
    await check(a, 'PATCH /repos/{owner}/{repo}/git/refs/{ref}', {ref: 'heads/main', sha: commit.sha})
    await check(a, 'POST /repos/{owner}/{repo}/git/refs', {ref: 'refs/tags/v0.0.1-contract', sha: commit.sha})
    await check(a, 'GET /repos/{owner}/{repo}/tags')
    await check(a, 'GET /repos/{owner}/{repo}/readme/{dir}', {dir: 'docs'})
    await check(a, 'GET /repos/{owner}/{repo}/commits', {path: 'docs'})
    await check(a, 'GET /repos/{owner}/{repo}/compare/{basehead}', {basehead: `${main.object.sha}...main`})
    // the repository, forks, collaborators
    await check(a, 'PATCH /repos/{owner}/{repo}', {homepage: 'https://example.com'})
    await check(a, 'PUT /repos/{owner}/{repo}/topics', {names: ['benchmark', 'github']})
    await check(a, 'GET /repos/{owner}/{repo}/topics')
    await check(a, 'GET /repos/{owner}/{repo}/languages')
    await a.request('PUT /repos/{owner}/{repo}/contents/{path}', {
      ...base,
      path: 'LICENSE',
      message: 'license',
      content: Buffer.from('MIT License\n\nCopyright (c) 2026\n').toString('base64'),
    })
    await check(a, 'GET /repos/{owner}/{repo}/license')
    await check(a, 'POST /repos/{owner}/{repo}/forks', {default_branch_only: true})
    await check(a, 'GET /repos/{owner}/{repo}/forks')
    await check(a, 'POST /user/repos', {
      name: 'contract-new',
      auto_init: true,
      description: 'made by the contract test',
    })
    await check(a, 'GET /user/repos')
    await check(a, 'GET /users/{username}/repos', {username: 'ghx-bench-agent'})
    await check(a, 'GET /repos/{owner}/{repo}/assignees')
    await check(a, 'GET /repos/{owner}/{repo}/assignees/{assignee}', {assignee: 'ghx-bench-agent'})
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/assignees/{assignee}', {
      issue_number: s.issue,
      assignee: 'ghx-bench-reviewer',
    })
    await check(a, 'GET /repos/{owner}/{repo}/collaborators')
    await check(a, 'GET /repos/{owner}/{repo}/collaborators/{username}', {username: 'ghx-bench-reviewer'})
    await check(a, 'PUT /repos/{owner}/{repo}/collaborators/{username}', {username: 'ghx-bench-reviewer'})
    await check(a, 'GET /repos/{owner}/{repo}/collaborators/{username}/permission', {username: 'ghx-bench-reviewer'})
    // an issue's history: a labelled issue (GitHub's description has no schema for every event kind, e.g. closed)
    const history = (await a.rest.issues.create({...base, title: 'History', labels: ['bug']})).data
    await a.rest.issues.addAssignees({...base, issue_number: history.number, assignees: ['ghx-bench-agent']})
    await a.rest.issues.update({...base, issue_number: history.number, title: 'History (renamed)', milestone: 1})
    await a.rest.issues.createComment({...base, issue_number: history.number, body: 'A comment.'})
    const events = (await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/events', {
      issue_number: history.number,
    })) as Array<{id: number; event: string}>
    expect(events.map((e) => e.event)).to.deep.equal(['labeled', 'assigned', 'renamed', 'milestoned'])
    await check(a, 'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline', {issue_number: history.number})
    await check(a, 'GET /repos/{owner}/{repo}/issues/events')
    await check(a, 'GET /repos/{owner}/{repo}/issues/events/{event_id}', {event_id: events[0]!.id})
    // commit statuses
    await check(a, 'POST /repos/{owner}/{repo}/statuses/{sha}', {
      sha: commit.sha,
      state: 'success',
      context: 'ci/test',
      target_url: 'https://ci.example/1',
    })
    await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}/statuses', {ref: commit.sha})
    await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}/status', {ref: 'main'})
    expect(violations).to.deep.equal([])
  })

  it('answers search and what GitHub links to a commit in GitHub’s documented shapes', async () => {
    const a = s.agent
    // The first test deleted the seeded run: a new one.
    await a.rest.actions.createWorkflowDispatch({...base, workflow_id: 'bench-rerun-failed.yml', ref: 'main'})
    const run = (await a.rest.actions.listWorkflowRuns({...base, workflow_id: 'bench-rerun-failed.yml'})).data
      .workflow_runs[0]!
    const head = run.head_sha
    const suites = (await check(a, 'GET /repos/{owner}/{repo}/commits/{ref}/check-suites', {ref: head})) as {
      check_suites: Array<{id: number}>
    }
    await check(a, 'GET /repos/{owner}/{repo}/check-suites/{check_suite_id}', {
      check_suite_id: suites.check_suites[0]!.id,
    })
    await check(a, 'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', {commit_sha: 'bench-bugs'})
    await check(a, 'GET /repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head', {commit_sha: head})
    await check(a, 'GET /repos/{owner}/{repo}/commits/{commit_sha}/comments', {commit_sha: head})
    const issues = (await check(a, 'GET /search/issues', {
      q: `repo:${OWNER}/${REPO} is:open crash`,
      headers: {accept: 'application/vnd.github.text-match+json'},
    })) as {items: unknown[]}
    expect(issues.items).to.have.length.above(0)
    await check(a, 'GET /search/issues', {q: `repo:${OWNER}/${REPO} is:pr`})
    await check(a, 'GET /search/repositories', {q: 'sandbox user:ghx-bench'})
    await check(a, 'GET /repos/{owner}/{repo}/issues/comments')
    await check(a, 'GET /search/code', {q: `fixtures repo:${OWNER}/${REPO}`})
    await check(a, 'GET /search/commits', {q: `initial repo:${OWNER}/${REPO}`})
    await check(a, 'GET /search/users', {q: 'ghx-bench'})
    const repo = (await a.rest.repos.get(base)).data
    await check(a, 'GET /search/labels', {repository_id: repo.id, q: 'bug'})
    expect(violations).to.deep.equal([])
  })

  it('exercised every operation the sandbox models (and each is one GitHub has)', () => {
    const modelled = modelledOperations().map((o) => o.operationId)
    expect(modelled.filter((id) => !exercised.has(id))).to.deep.equal([])
  })
})
