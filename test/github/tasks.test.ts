// Every built-in checkpoint read task against the sandbox, through the harness's own client; they
// register through the loader like any plugin's read tasks; and the catalogue names no task that does not exist.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {expect} from 'chai'
import {createClient} from '../../src/github/client.js'
import readTasksCore, {READ_TASKS, renderTasksDoc} from '../../src/github/tasks.js'
import {compileSchema} from '../../src/shared/schema-validator.js'
import {loadCatalogue} from '../../src/catalogue/catalogue.js'
import {builtInPluginPath, loadPlugins} from '../../src/plugins/loader.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'

describe('checkpoint read tasks', () => {
  let s: Seeded
  let client: ReturnType<typeof createClient>
  const repo = {owner: OWNER, name: REPO}
  const readTask = (name: string) => READ_TASKS.find((task) => task.name === name)
  const run = async (id: string, input: Record<string, unknown>) => {
    const task = readTask(id)!
    const inputValid = compileSchema(task.paramsSchema)
    expect(inputValid(input), `${id} input: ${JSON.stringify(inputValid.errors)}`).to.equal(true)
    const result = await task.run(client.octokit, input)
    if (task.kind === 'list') {
      expect(result, id).to.be.an('array')
      for (const item of result as object[]) expect(Object.keys(item)).to.have.members(Object.keys(task.shape))
    } else if (result !== null) expect(Object.keys(result as object)).to.have.members(Object.keys(task.shape))
    return result as never
  }

  before(async () => {
    s = await seedSandbox()
    client = createClient({baseUrl: s.sandbox.url, token: s.sandbox.token, retries: 0})
    await s.agent.rest.issues.createComment({owner: OWNER, repo: REPO, issue_number: s.issue, body: 'first'})
    await waitForRun(s.agent, s.runId)
  })
  after(() => s.sandbox.close())

  it('repo.view and repo.labels.list', async () => {
    expect(await run('repo.view', repo)).to.include({fullName: 'ghx-bench/sandbox', defaultBranch: 'main'})
    const labels: Array<{name: string}> = await run('repo.labels.list', repo)
    expect(labels.map((l) => l.name)).to.include.members(['triage', 'feature-request'])
  })

  it('issue.view, issue.comments.list', async () => {
    expect(await run('issue.view', {...repo, issueNumber: s.issue})).to.deep.include({
      state: 'OPEN',
      stateReason: null,
      labels: ['triage', 'feature-request'],
      assignees: [],
    })
    const comments: Array<{body: string; author: string; url: string}> = await run('issue.comments.list', {
      ...repo,
      issueNumber: s.issue,
    })
    expect(comments).to.have.length(1)
    expect(comments[0]).to.include({body: 'first', author: 'ghx-bench-agent'})
    expect(comments[0]!.url).to.match(/\/issues\/\d+#issuecomment-\d+$/)
  })

  it('issue.relations.prs.list follows closing keywords', async () => {
    await s.agent.rest.pulls.update({owner: OWNER, repo: REPO, pull_number: s.pr, body: `Fixes #${s.issue}`})
    const prs: Array<{number: number}> = await run('issue.relations.prs.list', {...repo, issueNumber: s.issue})
    expect(prs.map((p) => p.number)).to.deep.equal([s.pr])
  })

  it('issue.relations.view: parent, sub-issues, blocked by and blocking', async () => {
    const base = {owner: OWNER, repo: REPO}
    const make = async (title: string) => (await s.agent.rest.issues.create({...base, title})).data
    const [parent, child, blocker, blocked] = [
      await make('Epic'),
      await make('Child'),
      await make('Blocker'),
      await make('Blocked'),
    ]
    await s.agent.rest.issues.addSubIssue({...base, issue_number: parent.number, sub_issue_id: child.id})
    const middle = await make('Middle')
    await s.agent.rest.issues.addSubIssue({
      ...base,
      issue_number: middle.number,
      sub_issue_id: (await make('Grandchild')).id,
    })
    await s.agent.rest.issues.addSubIssue({...base, issue_number: parent.number, sub_issue_id: middle.id})
    await s.agent.rest.issues.addBlockedByDependency({...base, issue_number: middle.number, issue_id: blocker.id})
    await s.agent.rest.issues.addBlockedByDependency({...base, issue_number: blocked.number, issue_id: middle.id})
    const view: {
      number: number
      id: string
      parent: {number: number}
      children: Array<{number: number; id: string}>
      blockedBy: Array<{number: number; id: string; title: string}>
      blocking: Array<{number: number}>
    } = await run('issue.relations.view', {...repo, issueNumber: middle.number})
    expect(view).to.include({number: middle.number, id: middle.node_id})
    expect(view.parent).to.deep.equal({number: parent.number, id: parent.node_id, title: 'Epic'})
    expect(view.children.map((c) => c.number)).to.have.length(1)
    expect(view.blockedBy).to.deep.equal([{number: blocker.number, id: blocker.node_id, title: 'Blocker'}])
    expect(view.blocking.map((b) => b.number)).to.deep.equal([blocked.number])
    const top: {parent: null; children: Array<{number: number}>} = await run('issue.relations.view', {
      ...repo,
      issueNumber: parent.number,
    })
    expect(top.parent).to.equal(null)
    expect(top.children.map((c) => c.number)).to.deep.equal([child.number, middle.number])
  })

  it('pr.view, pr.list, pr.diff.files, pr.reviews.list, pr.threads.list', async () => {
    expect(await run('pr.view', {...repo, prNumber: s.pr})).to.include({
      state: 'OPEN',
      headRefName: 'bench-bugs',
      author: 'ghx-bench-reviewer',
      changedFiles: 1,
    })
    const byHead: Array<{number: number}> = await run('pr.list', {...repo, head: 'bench-bugs', state: 'open'})
    expect(byHead.map((p) => p.number)).to.deep.equal([s.pr])
    const files: Array<{path: string; additions: number; patch: string}> = await run('pr.diff.files', {
      ...repo,
      prNumber: s.pr,
    })
    expect(files).to.deep.equal([
      {path: 'src/utils/stats.ts', status: 'added', additions: 12, deletions: 0, patch: files[0]!.patch},
    ])
    await s.agent.rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: s.pr,
      event: 'REQUEST_CHANGES',
      body: 'no',
    })
    const reviews: Array<{state: string; author: string}> = await run('pr.reviews.list', {...repo, prNumber: s.pr})
    expect(reviews.map((r) => [r.state, r.author])).to.deep.include(['CHANGES_REQUESTED', 'ghx-bench-agent'])
    const threads: Array<{isResolved: boolean; line: number; comments: unknown[]}> = await run('pr.threads.list', {
      ...repo,
      prNumber: s.pr,
      unresolvedOnly: false,
    })
    expect(threads).to.have.length(1)
    expect(threads[0]).to.include({isResolved: false, line: 2})
    await s.agent.graphql('mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { id } } }', {
      id: s.threadIds[0],
    })
    expect(await run('pr.threads.list', {...repo, prNumber: s.pr, unresolvedOnly: true})).to.deep.equal([])
  })

  it('workflow.run.view, workflow.runs.list, workflow.job.logs.view', async () => {
    const view: {attempt: number; conclusion: string; jobs: Array<{id: number; name: string; conclusion: string}>} =
      await run('workflow.run.view', {...repo, runId: s.runId})
    expect(view).to.include({attempt: 1, conclusion: 'failure'})
    const failed = view.jobs.find((j) => j.conclusion === 'failure')!
    expect(failed.name).to.equal('verify')
    const runs: Array<{id: number}> = await run('workflow.runs.list', {...repo, workflowId: 'bench-rerun-failed.yml'})
    expect(runs.map((r) => r.id)).to.deep.equal([s.runId])
    expect(((await run('workflow.job.logs.view', {...repo, jobId: failed.id})) as {log: string}).log).to.include(
      'simulated failure on attempt 1',
    )
  })

  it('workflow.job.view, errorLines, workflow.list, workflow.view, workflow.run.artifacts.list, workflow.runs.list of the repository, a rerun’s job attempts', async () => {
    const view: {jobs: Array<{id: number; name: string; conclusion: string; attempt: number}>} = await run(
      'workflow.run.view',
      {...repo, runId: s.runId},
    )
    const failed = view.jobs.find((j) => j.conclusion === 'failure')!
    expect(await run('workflow.job.view', {...repo, jobId: failed.id})).to.deep.include({
      id: failed.id,
      runId: s.runId,
      name: 'verify',
      conclusion: 'failure',
      attempt: 1,
      failedSteps: ['Run verify'],
    })
    const logs: {errorLines: string[]} = await run('workflow.job.logs.view', {...repo, jobId: failed.id})
    expect(logs.errorLines).to.deep.equal([
      'Error: simulated failure on attempt 1 (seed test)',
      'Process completed with exit code 1.',
    ])
    const workflows: Array<{id: number; name: string; path: string; state: string}> = await run('workflow.list', repo)
    expect(workflows.map((w) => w.name)).to.have.members(['bench-rerun-failed', 'bench-long-running', 'bench-lint'])
    const workflow = workflows.find((w) => w.name === 'bench-rerun-failed')!
    expect(await run('workflow.view', {...repo, workflowId: 'bench-rerun-failed.yml'})).to.deep.equal(workflow)
    expect(workflow).to.include({path: '.github/workflows/bench-rerun-failed.yml', state: 'active'})
    const artifacts: Array<{name: string}> = await run('workflow.run.artifacts.list', {...repo, runId: s.runId})
    expect(artifacts.map((a) => a.name)).to.deep.equal(['bench-report'])
    const runs: Array<{id: number}> = await run('workflow.runs.list', repo)
    expect(runs.map((r) => r.id)).to.include(s.runId)
    await s.agent.rest.actions.reRunWorkflowFailedJobs({owner: OWNER, repo: REPO, run_id: s.runId})
    await waitForRun(s.agent, s.runId)
    const rerun: {attempt: number; jobs: Array<{name: string; attempt: number}>} = await run('workflow.run.view', {
      ...repo,
      runId: s.runId,
    })
    expect(rerun.attempt).to.equal(2)
    expect(rerun.jobs.map((j) => [j.name, j.attempt])).to.have.deep.members([
      ['build', 1],
      ['verify', 2],
    ])
  })

  it('repo.issue_types.list', async () => {
    const types: Array<{name: string; isEnabled: boolean}> = await run('repo.issue_types.list', repo)
    expect(types.map((t) => t.name)).to.deep.equal(['Bug', 'Feature', 'Task'])
  })

  it('release.view finds a draft by tag; release.list', async () => {
    expect(await run('release.view', {...repo, tagName: 'v0.1.0-bench'})).to.include({
      isDraft: true,
      name: 'Bench draft',
    })
    expect(await run('release.view', {...repo, tagName: 'v9.9.9'})).to.equal(null)
    expect(await run('release.list', repo)).to.have.length(1)
  })

  it('project_v2.items.list', async () => {
    const viewer = await s.agent.graphql<{viewer: {id: string}}>('{ viewer { id } }')
    const created = await s.agent.graphql<{createProjectV2: {projectV2: {id: string; number: number}}}>(
      'mutation($o: ID!) { createProjectV2(input: {ownerId: $o, title: "Board"}) { projectV2 { id number } } }',
      {o: viewer.viewer.id},
    )
    const issue = await s.agent.rest.issues.get({owner: OWNER, repo: REPO, issue_number: s.issue})
    await s.agent.graphql(
      'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
      {p: created.createProjectV2.projectV2.id, c: issue.data.node_id},
    )
    const items: Array<{number: number; fields: object}> = await run('project_v2.items.list', {
      owner: 'ghx-bench-agent',
      projectNumber: created.createProjectV2.projectV2.number,
    })
    expect(items.map((i) => [i.number, i.fields])).to.deep.equal([[s.issue, {}]])
    const fields: Array<{
      id: string
      name: string
      dataType: string
      options: Array<{id: string; name: string}> | null
    }> = await run('project_v2.fields.list', {
      owner: 'ghx-bench-agent',
      projectNumber: created.createProjectV2.projectV2.number,
    })
    const status = fields.find((f) => f.name === 'Status')!
    expect(status.dataType).to.equal('SINGLE_SELECT')
    expect(fields.find((f) => f.name === 'Title')?.options).to.equal(null)
    const item = (items[0] as unknown as {id: string}).id
    await s.agent.graphql(
      'mutation($p: ID!, $i: ID!, $f: ID!, $o: String!) { updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f, value: {singleSelectOptionId: $o}}) { projectV2Item { id } } }',
      {
        p: created.createProjectV2.projectV2.id,
        i: item,
        f: status.id,
        o: status.options![0]!.id,
      },
    )
    const updated: Array<{fields: object; optionIds: string[]}> = await run('project_v2.items.list', {
      owner: 'ghx-bench-agent',
      projectNumber: created.createProjectV2.projectV2.number,
    })
    expect(updated.map((i) => [i.fields, i.optionIds])).to.deep.equal([
      [{Status: status.options![0]!.name}, [status.options![0]!.id]],
    ])
    expect(
      await run('project_v2.user.view', {
        user: 'ghx-bench-agent',
        projectNumber: created.createProjectV2.projectV2.number,
      }),
    ).to.deep.include({id: created.createProjectV2.projectV2.id, title: 'Board', closed: false})
  })

  it('repo.file.view and repo.compare: a file at a ref, and each changed file’s added and removed lines', async () => {
    const base = {owner: OWNER, repo: REPO}
    const main = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/bench-code', sha: main})
    const write = (content: string, sha?: string) =>
      s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        branch: 'bench-code',
        path: 'src/code.ts',
        message: 'Write src/code.ts',
        content: Buffer.from(content).toString('base64'),
        ...(sha ? {sha} : {}),
      })
    const first = (await write('const a = 1\nconst b = 2\n')).data
    const seeded = first.commit.sha!
    await write('const a = 1\nconst b = 3\nconst c = 4\n', first.content!.sha)
    const blob = (await s.agent.rest.repos.getContent({...base, path: 'src/code.ts', ref: 'bench-code'})).data as {
      sha: string
    }
    expect(await run('repo.file.view', {...repo, path: 'src/code.ts', ref: 'bench-code'})).to.deep.equal({
      path: 'src/code.ts',
      sha: blob.sha,
      content: 'const a = 1\nconst b = 3\nconst c = 4\n',
      lines: ['const a = 1', 'const b = 3', 'const c = 4'],
    })
    expect(await run('repo.file.view', {...repo, path: 'src/code.ts', ref: seeded})).to.include({
      content: 'const a = 1\nconst b = 2\n',
    })
    expect(await run('repo.file.view', {...repo, path: 'src/missing.ts', ref: 'bench-code'})).to.equal(null)
    const compared: {status: string; aheadBy: number; files: Array<Record<string, unknown>>} = await run(
      'repo.compare',
      {...repo, base: seeded, head: 'bench-code'},
    )
    expect(compared).to.include({status: 'ahead', aheadBy: 1, behindBy: 0})
    expect(compared.files.map(({patch: _patch, ...file}) => file)).to.deep.equal([
      {
        path: 'src/code.ts',
        status: 'modified',
        additions: 2,
        deletions: 1,
        added: ['const b = 3', 'const c = 4'],
        removed: ['const b = 2'],
      },
    ])
  })

  // Last of the task tests: it dispatches a workflow run on its branch, which the runs lists above would show.
  it('pr.branch.status, pr.checks.list, pr.merge.status, repo.branches.list, pr.list first', async () => {
    const base = {owner: OWNER, repo: REPO}
    const main = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/bench-status', sha: main})
    const write = (branch: string, file: string) =>
      s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        branch,
        path: file,
        message: `Add ${file}`,
        content: Buffer.from(`${file}\n`).toString('base64'),
      })
    await write('bench-status', 'status.md')
    const pr = (await s.agent.rest.pulls.create({...base, title: 'Status', head: 'bench-status', base: 'main'})).data
      .number
    const newest: Array<{number: number}> = await run('pr.list', {...repo, state: 'all', first: 1})
    expect(newest.map((p) => p.number)).to.deep.equal([pr])
    expect(await run('pr.branch.status', {...repo, prNumber: pr})).to.include({
      baseRefName: 'main',
      headRefName: 'bench-status',
      status: 'ahead',
      aheadBy: 1,
      behindBy: 0,
      upToDate: true,
    })
    await write('main', 'moved-on.md')
    expect(await run('pr.branch.status', {...repo, prNumber: pr})).to.include({
      status: 'diverged',
      aheadBy: 1,
      behindBy: 1,
      upToDate: false,
    })
    await s.agent.rest.pulls.updateBranch({...base, pull_number: pr})
    const updated: {behindBy: number; upToDate: boolean; headSha: string} = await run('pr.branch.status', {
      ...repo,
      prNumber: pr,
    })
    expect(updated).to.include({behindBy: 0, upToDate: true})

    await s.agent.rest.repos.createCommitStatus({...base, sha: updated.headSha, context: 'ci/lint', state: 'pending'})
    await s.agent.rest.repos.createCommitStatus({
      ...base,
      sha: updated.headSha,
      context: 'ci/lint',
      state: 'failure',
      target_url: 'https://ci.example/lint',
    })
    await s.agent.rest.actions.createWorkflowDispatch({
      ...base,
      workflow_id: 'bench-rerun-failed.yml',
      ref: 'bench-status',
    })
    const checks: Array<{name: string; kind: string; state: string; url: string | null}> = await run('pr.checks.list', {
      ...repo,
      prNumber: pr,
    })
    // The latest status of a context counts; the run's jobs are its check runs, still queued.
    expect(checks.filter((c) => c.kind === 'status')).to.deep.equal([
      {name: 'ci/lint', kind: 'status', headSha: updated.headSha, state: 'FAILURE', url: 'https://ci.example/lint'},
    ])
    expect(checks.filter((c) => c.kind === 'check_run').map((c) => c.name)).to.have.members(['build', 'verify'])

    expect(await run('pr.merge.status', {...repo, prNumber: pr})).to.deep.equal({
      state: 'OPEN',
      isDraft: false,
      mergeable: 'MERGEABLE',
      mergeStateStatus: 'CLEAN',
      reviewDecision: null,
      mergeCommit: null,
    })
    await s.agent.rest.pulls.merge({...base, pull_number: pr, merge_method: 'squash'})
    const merged: {state: string; mergeCommit: {sha: string; parents: number}} = await run('pr.merge.status', {
      ...repo,
      prNumber: pr,
    })
    expect(merged.state).to.equal('MERGED')
    expect(merged.mergeCommit.parents).to.equal(1)
    const branches = async () => ((await run('repo.branches.list', repo)) as Array<{name: string}>).map((b) => b.name)
    expect(await branches()).to.include.members(['main', 'bench-status'])
    await s.agent.rest.git.deleteRef({...base, ref: 'heads/bench-status'})
    expect(await branches()).to.not.include('bench-status')
  })

  it('the client counts API calls and rate-limit points', () => {
    expect(client.usage.calls).to.be.greaterThan(10)
    expect(client.usage.points).to.be.at.least(client.usage.calls)
  })

  it('the built-in tasks are the plugin read-tasks-core, registered by the loader like any plugin’s', async () => {
    expect(readTasksCore).to.deep.include({apiVersion: 1, name: 'read-tasks-core', readTasks: READ_TASKS})
    const registry = await loadPlugins({fromDir: PROJECT_ROOT, plugins: [], origin: 'test'})
    // The loader imports the module by its file, as it imports every built-in plugin: the registry holds its tasks.
    const loaded = (await import(
      pathToFileURL(builtInPluginPath('read-tasks-core')).href
    )) as typeof import('../../src/github/tasks.js')
    for (const task of loaded.READ_TASKS) {
      expect(registry.readTask(task.name), task.name).to.equal(task)
      expect(registry.ownerOf('read task', task.name)?.name).to.equal('read-tasks-core')
    }
    expect(registry.readTaskNames()).to.deep.equal(READ_TASKS.map((t) => t.name).sort())
  })

  it('every checkpoint task of the catalogue is a read task here', async () => {
    const registry = await loadPlugins({fromDir: PROJECT_ROOT, plugins: [], origin: 'test'})
    const catalogue = await loadCatalogue({root: path.join(PROJECT_ROOT, 'suites'), registry, cwd: PROJECT_ROOT})
    const named = new Set<string>()
    for (const {value} of catalogue.scenarios.values()) {
      if (value.type === 'workflow') for (const checkpoint of value.assertions.checkpoints) named.add(checkpoint.task)
    }
    expect([...named].filter((id) => !readTask(id))).to.deep.equal([])
    expect(READ_TASKS.length).to.be.at.least(15)
  })

  it('docs/tasks.md is generated from the definitions (npm run docs)', async () => {
    expect(await readFile(path.join(PROJECT_ROOT, 'docs', 'tasks.md'), 'utf8')).to.equal(renderTasksDoc())
  })
})
