// Repositories and their git data as agents reach them: contents and READMEs, refs (also in the
// legacy git/refs/{ref} form), the git database (trees, blobs, commits), commit lists, comparisons,
// tags, new and forked repositories, assignees and collaborators, commit statuses; and the gh
// commands over them (gh repo view --json with every field, gh repo create / fork, gh pr checks).
import {execFile} from 'node:child_process'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {failure, OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}
const R = `${OWNER}/${REPO}`
const b64 = (text: string) => Buffer.from(text).toString('base64')

describe('sandbox: repositories and git data', function () {
  this.timeout(60_000)
  let s: Seeded
  let configDir: string

  function gh(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
    return new Promise((resolve) => {
      const child = execFile(
        'gh',
        args,
        {env: {...process.env, ...s.sandbox.ghEnv(configDir)}, timeout: 20_000},
        (error, stdout, stderr) => resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
      )
      child.stdin!.end()
    })
  }

  before(async () => {
    s = await seedSandbox()
    configDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-'))
  })
  after(() => s.sandbox.close())

  it('contents: a file (or raw), a directory, the root; the README', async () => {
    const a = s.agent
    const dir = (await a.rest.repos.getContent({...base, path: '.github/workflows'})).data as Array<{
      name: string
      type: string
    }>
    expect(dir.map((e) => [e.type, e.name])).to.deep.equal([
      ['file', 'bench-lint.yml'],
      ['file', 'bench-long-running.yml'],
      ['file', 'bench-rerun-failed.yml'],
    ])
    const root = (await a.request('GET /repos/{owner}/{repo}/contents', base)).data as Array<{
      name: string
      type: string
    }>
    expect(root.map((e) => `${e.type}:${e.name}`)).to.deep.equal(['dir:.github', 'file:README.md', 'dir:src'])
    const raw = await a.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...base,
      path: 'src/index.ts',
      headers: {accept: 'application/vnd.github.raw+json'},
    })
    expect(raw.data).to.equal("export const version = '1.0.0'\n")
    const readme = (await a.rest.repos.getReadme(base)).data
    expect(readme.path).to.equal('README.md')
    expect(Buffer.from(readme.content, 'base64').toString()).to.include('Fixtures for ghx-bench.')
    expect((await failure(a.rest.repos.getContent({...base, path: 'nope.md'}))).status).to.equal(404)
  })

  it('PUT contents answers GitHub’s commit (git identities, tree, parents); refuses a missing or wrong sha', async () => {
    const a = s.agent
    const created = await a.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'docs/guide.md',
      message: 'Add a guide',
      content: b64('# Guide\n'),
      committer: {name: 'Bench Bot', email: 'bot@example.com'},
    })
    expect(created.status).to.equal(201)
    const commit = created.data.commit
    expect(commit).to.include.keys(
      'sha',
      'node_id',
      'url',
      'html_url',
      'author',
      'committer',
      'message',
      'tree',
      'parents',
      'verification',
    )
    expect(commit.message).to.equal('Add a guide')
    expect(commit.author).to.deep.include({name: 'Bench Bot', email: 'bot@example.com'})
    expect(commit.committer).to.deep.include({name: 'Bench Bot', email: 'bot@example.com'})
    expect(commit.parents).to.have.length(1)
    const tree = await a.rest.git.getTree({...base, tree_sha: commit.tree!.sha!})
    expect(tree.data.tree.map((e) => e.path)).to.include('docs')
    const missing = await failure(
      a.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'docs/guide.md',
        message: 'Edit',
        content: b64('# Guide 2\n'),
      }),
    )
    expect(missing).to.deep.include({status: 422, message: 'Invalid request.\n\n"sha" wasn\'t supplied.'})
    const notBase64 = await failure(
      a.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'docs/other.md',
        message: 'Other',
        content: '# not base64!',
      }),
    )
    expect(notBase64).to.deep.include({status: 422, message: 'Invalid request.\n\ncontent is not valid Base64'})
    const wrong = await failure(
      a.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'docs/guide.md',
        message: 'Edit',
        content: b64('# Guide 2\n'),
        sha: 'deadbeef',
      }),
    )
    expect(wrong).to.deep.include({status: 409, message: 'docs/guide.md does not match deadbeef'})
    const updated = await a.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'docs/guide.md',
      message: 'Edit',
      content: b64('# Guide 2\n'),
      sha: created.data.content!.sha!,
    })
    expect(updated.status).to.equal(200)
    const deleted = await a.rest.repos.deleteFile({
      ...base,
      path: 'docs/guide.md',
      message: 'Remove the guide',
      sha: updated.data.content!.sha!,
    })
    expect(deleted.data.content).to.equal(null)
    expect(deleted.data.commit.message).to.equal('Remove the guide')
  })

  it('PUT contents with a committer’s date: the commit carries it, and the same file at the same date is the same commit', async () => {
    const a = s.agent
    const branch = async (name: string) => {
      const main = (await a.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
      await a.rest.git.createRef({...base, ref: `refs/heads/${name}`, sha: main})
    }
    const write = (name: string, date: string) =>
      a.rest.repos.createOrUpdateFileContents({
        ...base,
        branch: name,
        path: 'dated.md',
        message: 'A dated file',
        content: b64('dated\n'),
        committer: {name: 'Bench Bot', email: 'bot@example.com', date},
      })
    await Promise.all([branch('dated-a'), branch('dated-b'), branch('dated-c')])
    const first = await write('dated-a', '2026-01-01T00:00:00Z')
    expect(first.data.commit.committer).to.deep.include({date: '2026-01-01T00:00:00Z'})
    expect((await write('dated-b', '2026-01-01T00:00:00Z')).data.commit.sha).to.equal(first.data.commit.sha)
    expect((await write('dated-c', '2026-01-02T00:00:00Z')).data.commit.sha).to.not.equal(first.data.commit.sha)
    const badDate = await failure(
      a.rest.repos.createOrUpdateFileContents({
        ...base,
        path: 'dated-bad.md',
        message: 'Bad',
        content: b64('x\n'),
        committer: {name: 'Bench Bot', email: 'bot@example.com', date: 'yesterday'},
      }),
    )
    expect(badDate.status).to.equal(422)
    for (const name of ['dated-a', 'dated-b', 'dated-c']) await a.rest.git.deleteRef({...base, ref: `heads/${name}`})
  })

  it('refs in the current and the legacy form; tags', async () => {
    const a = s.agent
    const single = (await a.request('GET /repos/{owner}/{repo}/git/refs/{ref}', {...base, ref: 'heads/main'})).data as {
      ref: string
      object: {type: string; sha: string}
    }
    expect(single.ref).to.equal('refs/heads/main')
    const heads = (await a.request('GET /repos/{owner}/{repo}/git/refs/{ref}', {...base, ref: 'heads'})).data as Array<{
      ref: string
    }>
    expect(heads.map((r) => r.ref)).to.deep.equal(['refs/heads/bench-bugs', 'refs/heads/main'])
    expect(
      (await failure(a.request('GET /repos/{owner}/{repo}/git/refs/{ref}', {...base, ref: 'heads/nope'}))).status,
    ).to.equal(404)
    await a.rest.git.createRef({...base, ref: 'refs/tags/v0.0.1', sha: single.object.sha})
    const tag = await a.rest.git.getRef({...base, ref: 'tags/v0.0.1'})
    expect(tag.data.object.sha).to.equal(single.object.sha)
    expect((await a.rest.repos.listTags(base)).data.map((t) => t.name)).to.deep.equal(['v0.0.1'])
    const refs = await a.graphql<{
      repository: {tag: {name: string; prefix: string; target: {oid: string}}; refs: {nodes: Array<{name: string}>}}
    }>(
      '{ repository(owner: "ghx-bench", name: "sandbox") { tag: ref(qualifiedName: "refs/tags/v0.0.1") { name prefix target { oid } } refs(refPrefix: "refs/heads/", first: 10) { nodes { name } } } }',
    )
    expect(refs.repository.tag).to.deep.equal({name: 'v0.0.1', prefix: 'refs/tags/', target: {oid: single.object.sha}})
    expect(refs.repository.refs.nodes.map((r) => r.name)).to.deep.equal(['bench-bugs', 'main'])
    const duplicate = await failure(a.rest.git.createRef({...base, ref: 'refs/tags/v0.0.1', sha: single.object.sha}))
    expect(duplicate.status).to.equal(422)
    await a.rest.git.deleteRef({...base, ref: 'tags/v0.0.1'})
    expect((await a.rest.repos.listTags(base)).data).to.deep.equal([])
  })

  it('the git database: a recursive tree, blobs, a new tree on a base tree, a commit, the ref moved', async () => {
    const a = s.agent
    const main = (await a.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    const tree = (await a.rest.git.getTree({...base, tree_sha: 'main', recursive: 'true'})).data
    expect(tree.tree.filter((e) => e.type === 'blob').map((e) => e.path)).to.include.members([
      'README.md',
      'src/index.ts',
      '.github/workflows/bench-rerun-failed.yml',
    ])
    const src = tree.tree.find((e) => e.path === 'src')!
    expect(src).to.deep.include({type: 'tree', mode: '040000'})
    const sub = (await a.rest.git.getTree({...base, tree_sha: src.sha})).data
    expect(sub.tree.map((e) => e.path)).to.deep.equal(['index.ts'])
    const blob = (await a.rest.git.getBlob({...base, file_sha: sub.tree[0]!.sha})).data
    expect(Buffer.from(blob.content, 'base64').toString()).to.equal("export const version = '1.0.0'\n")
    // git's own object ids: `git hash-object` of the file.
    expect(sub.tree[0]!.sha).to.equal('4a62e45629e52266d0182b00d82081f0bf522293')
    const made = (
      await a.rest.git.createTree({
        ...base,
        base_tree: tree.sha,
        tree: [
          {path: 'src/index.ts', mode: '100644', type: 'blob', content: "export const version = '1.1.0'\n"},
          {path: 'README.md', mode: '100644', type: 'blob', sha: null},
        ],
      })
    ).data
    const commit = (
      await a.rest.git.createCommit({
        ...base,
        message: 'Bump and drop the README',
        tree: made.sha,
        parents: [main],
        author: {name: 'Release Bot', email: 'release@example.com'},
      })
    ).data
    expect(commit.author).to.deep.include({name: 'Release Bot', email: 'release@example.com'})
    expect((await a.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha).to.equal(main)
    await a.rest.git.updateRef({...base, ref: 'heads/main', sha: commit.sha})
    const after = (await a.rest.repos.getCommit({...base, ref: 'main'})).data
    expect(after.commit.message).to.equal('Bump and drop the README')
    expect(after.commit.tree.sha).to.equal(made.sha)
    expect((await failure(a.rest.repos.getContent({...base, path: 'README.md'}))).status).to.equal(404)
    const unknown = await failure(
      a.rest.git.createTree({
        ...base,
        base_tree: 'f'.repeat(40),
        tree: [{path: 'x', mode: '100644', type: 'blob', content: 'x'}],
      }),
    )
    expect(unknown.status).to.equal(422)
  })

  it('list commits with sha, path and author filters; compare two refs', async () => {
    const a = s.agent
    await a.rest.repos.createOrUpdateFileContents({...base, path: 'notes/a.md', message: 'Note a', content: b64('a\n')})
    await s.reviewer.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'notes/b.md',
      message: 'Note b',
      content: b64('b\n'),
    })
    const notes = (await a.rest.repos.listCommits({...base, path: 'notes'})).data
    expect(notes.map((c) => c.commit.message)).to.deep.equal(['Note b', 'Note a'])
    const byReviewer = (await a.rest.repos.listCommits({...base, path: 'notes', author: 'ghx-bench-reviewer'})).data
    expect(byReviewer.map((c) => c.commit.message)).to.deep.equal(['Note b'])
    const onBranch = (await a.rest.repos.listCommits({...base, sha: 'bench-bugs', per_page: 1})).data
    expect(onBranch[0]!.sha).to.equal(s.prHeadSha)
    const compare = (await a.rest.repos.compareCommitsWithBasehead({...base, basehead: 'main...bench-bugs'})).data
    expect(compare).to.deep.include({status: 'diverged', ahead_by: 1, total_commits: 1})
    expect(compare.behind_by).to.be.greaterThan(0)
    expect(compare.files!.map((f) => f.filename)).to.deep.equal(['src/utils/stats.ts'])
    const identical = (await a.rest.repos.compareCommitsWithBasehead({...base, basehead: 'main...main'})).data
    expect(identical).to.deep.include({status: 'identical', ahead_by: 0, behind_by: 0})
    const diff = await a.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
      ...base,
      basehead: 'main...bench-bugs',
      headers: {accept: 'application/vnd.github.diff'},
    })
    expect(diff.data).to.match(/^diff --git a\/src\/utils\/stats.ts b\/src\/utils\/stats.ts/)
  })

  it('a draft release is not found by its tag (its tag does not exist yet); gh release view still finds it', async () => {
    expect((await failure(s.agent.rest.repos.getReleaseByTag({...base, tag: 'v0.1.0-bench'}))).status).to.equal(404)
    const view = await gh(['release', 'view', 'v0.1.0-bench', '-R', R])
    expect(view.stdout).to.include('draft:\ttrue')
  })

  it('creates repositories of the user: empty without auto_init (its first file starts the default branch), with a README otherwise', async () => {
    const a = s.agent
    const empty = (await a.rest.repos.createForAuthenticatedUser({name: 'empty-one'})).data
    expect(empty).to.deep.include({full_name: 'ghx-bench-agent/empty-one', default_branch: 'main', fork: false})
    const repo = {owner: 'ghx-bench-agent', repo: 'empty-one'}
    expect(await failure(a.rest.repos.getContent({...repo, path: 'README.md'}))).to.deep.include({
      status: 404,
      message: 'This repository is empty.',
    })
    expect(await failure(a.rest.repos.listCommits(repo))).to.deep.include({
      status: 409,
      message: 'Git Repository is empty.',
    })
    expect((await a.rest.repos.listBranches(repo)).data).to.deep.equal([])
    await a.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'README.md',
      message: 'First',
      content: b64('# empty-one\n'),
    })
    expect((await a.rest.repos.listBranches(repo)).data.map((b) => b.name)).to.deep.equal(['main'])
    const initialised = (
      await a.rest.repos.createForAuthenticatedUser({name: 'with-readme', auto_init: true, description: 'Has a README'})
    ).data
    expect(
      Buffer.from(
        (await a.rest.repos.getReadme({owner: 'ghx-bench-agent', repo: initialised.name})).data.content,
        'base64',
      ).toString(),
    ).to.equal('# with-readme\nHas a README\n')
    expect(await failure(a.rest.repos.createForAuthenticatedUser({name: 'with-readme'}))).to.deep.include({status: 422})
    expect((await a.rest.repos.listForAuthenticatedUser()).data.map((r) => r.name)).to.include.members([
      'empty-one',
      'with-readme',
    ])
  })

  it('forks: the fork has the history, names its parent; compares across the fork; counts on the parent', async () => {
    const a = s.agent
    const fork = (await a.rest.repos.createFork(base)).data
    expect(fork).to.deep.include({full_name: 'ghx-bench-agent/sandbox', fork: true})
    expect(fork.parent!.full_name).to.equal(R)
    const forkRepo = {owner: 'ghx-bench-agent', repo: 'sandbox'}
    await a.rest.repos.createOrUpdateFileContents({
      ...forkRepo,
      path: 'FORK.md',
      message: 'Only in the fork',
      content: b64('fork\n'),
    })
    const compare = (await a.rest.repos.compareCommitsWithBasehead({...base, basehead: 'main...ghx-bench-agent:main'}))
      .data
    expect(compare.commits.map((c) => c.commit.message)).to.deep.equal(['Only in the fork'])
    expect((await a.rest.repos.listForks(base)).data.map((r) => r.full_name)).to.deep.equal(['ghx-bench-agent/sandbox'])
    expect((await a.rest.repos.get(base)).data.forks_count).to.equal(1)
    const again = (await a.rest.repos.createFork(base)).data
    expect(again.full_name).to.equal('ghx-bench-agent/sandbox')
  })

  it('assignees and collaborators: the sandbox’s users; anyone else is not', async () => {
    const a = s.agent
    expect((await a.rest.issues.listAssignees(base)).data.map((u) => u.login)).to.include.members([
      'ghx-bench-agent',
      'ghx-bench-reviewer',
    ])
    expect((await a.rest.issues.checkUserCanBeAssigned({...base, assignee: 'ghx-bench-reviewer'})).status).to.equal(204)
    expect((await failure(a.rest.issues.checkUserCanBeAssigned({...base, assignee: 'stranger'}))).status).to.equal(404)
    expect((await a.rest.repos.checkCollaborator({...base, username: 'ghx-bench-agent'})).status).to.equal(204)
    expect(
      (await a.rest.repos.getCollaboratorPermissionLevel({...base, username: 'ghx-bench-agent'})).data.permission,
    ).to.equal('admin')
  })

  it('gh repo view --json with every field gh 2.23 offers', async () => {
    await s.agent.rest.repos.replaceAllTopics({...base, names: ['benchmark']})
    await s.agent.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'LICENSE',
      message: 'License',
      content: b64(
        'MIT License\n\nCopyright (c) 2026 ghx-bench\n\nPermission is hereby granted, free of charge, ...\n',
      ),
    })
    await s.agent.rest.repos.update({...base, homepage: 'https://ghx-bench.example'})
    const list = await gh(['repo', 'view', '--json'])
    const fields = list.stderr
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean)
    expect(fields).to.have.length.greaterThan(60)
    const view = await gh(['repo', 'view', R, '--json', fields.join(',')])
    expect(view.code, view.stderr).to.equal(0)
    const json = JSON.parse(view.stdout) as Record<string, unknown>
    expect(Object.keys(json).sort()).to.deep.equal([...fields].sort())
    expect(json).to.deep.include({
      nameWithOwner: R,
      homepageUrl: 'https://ghx-bench.example',
      sshUrl: 'git@github.localhost:ghx-bench/sandbox.git',
      licenseInfo: {key: 'mit', name: 'MIT License', nickname: ''},
      primaryLanguage: {name: 'TypeScript'},
      repositoryTopics: [{name: 'benchmark'}],
      viewerDefaultMergeMethod: 'MERGE',
      stargazerCount: 0,
    })
  })

  it('gh repo create and gh repo fork', async () => {
    const created = await gh(['repo', 'create', 'gh-made', '--public', '--description', 'Made by gh'])
    expect(created.code, created.stderr).to.equal(0)
    expect((await s.agent.rest.repos.get({owner: 'ghx-bench-agent', repo: 'gh-made'})).data.description).to.equal(
      'Made by gh',
    )
    const forked = await gh(['repo', 'fork', R, '--clone=false'])
    expect(forked.code, forked.stderr).to.equal(0)
    const view = JSON.parse(
      (await gh(['repo', 'view', 'ghx-bench-agent/sandbox', '--json', 'isFork,parent'])).stdout,
    ) as {isFork: boolean; parent: {name: string; owner: {login: string}}}
    expect(view.isFork).to.equal(true)
    expect(view.parent.owner.login).to.equal('ghx-bench')
  })

  it('gh pr checks reports a pull request’s check runs (workflow jobs on its head) and commit statuses', async () => {
    const none = await gh(['pr', 'checks', String(s.pr), '-R', R])
    expect(none.stderr).to.include("no checks reported on the 'bench-bugs' branch")
    await s.agent.rest.actions.createWorkflowDispatch({
      ...base,
      workflow_id: 'bench-rerun-failed.yml',
      ref: 'bench-bugs',
    })
    const runs = await s.agent.rest.actions.listWorkflowRuns({
      ...base,
      workflow_id: 'bench-rerun-failed.yml',
      branch: 'bench-bugs',
    })
    await waitForRun(s.agent, runs.data.workflow_runs[0]!.id)
    await s.agent.rest.repos.createCommitStatus({
      ...base,
      sha: s.prHeadSha,
      state: 'success',
      context: 'ci/lint',
      target_url: 'https://ci.example/lint/1',
      description: 'Lint passed',
    })
    const checks = await gh(['pr', 'checks', String(s.pr), '-R', R])
    // Non-TTY output: name, state, elapsed, link; gh exits 1 when a check failed.
    const rows = checks.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t').slice(0, 2))
    expect(rows).to.have.deep.members([
      ['build', 'pass'],
      ['verify', 'fail'],
      ['ci/lint', 'pass'],
    ])
    expect(checks.code).to.equal(1)
    const combined = (await s.agent.rest.repos.getCombinedStatusForRef({...base, ref: s.prHeadSha})).data
    expect(combined).to.deep.include({state: 'success', total_count: 1})
    const rollup = JSON.parse(
      (await gh(['pr', 'view', String(s.pr), '-R', R, '--json', 'statusCheckRollup'])).stdout,
    ) as {statusCheckRollup: Array<{__typename: string}>}
    expect(rollup.statusCheckRollup.map((c) => c.__typename).sort()).to.deep.equal([
      'CheckRun',
      'CheckRun',
      'StatusContext',
    ])
  })
})
