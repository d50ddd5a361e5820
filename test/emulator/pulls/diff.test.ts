// A pull request's diff as GitHub writes it, which is git's: the same text `git diff` prints for the
// same files (index lines with abbreviated blob ids, "\ No newline at end of file" where a side lacks
// its final newline), through the diff media type and gh pr diff; files[].sha is the head's blob id;
// multi-line review threads carry their start line (single-line ones none), in GraphQL and REST.
import {execFileSync} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {blobSha} from '../../../src/emulator/core/git-objects.js'
import {ghFor, skipWithoutGh, type GhResult} from '../../support/gh.js'
import {OWNER, REPO, seedSandbox, type Seeded} from '../../support/sandbox.js'

const base = {owner: OWNER, repo: REPO}
const R = `${OWNER}/${REPO}`

/** Each file before (on main) and after (on the branch); undefined where it is absent. */
const FILES: Record<string, [string | undefined, string | undefined]> = {
  'eol-removed.txt': ['a\nb\nc\n', 'a\nb\nc'],
  'eol-added.txt': ['a\nb\nc', 'a\nB\nc\n'],
  'no-eol-both.txt': ['1\n2\n3\n4\n5\n6\n7\n8\n9', '1\n2\n3\n4\nFIVE\n6\n7\n8\n9'],
  'added.txt': [undefined, 'new\nfile\n'],
  'removed.txt': ['gone\n', undefined],
  'lines.txt': [
    Array.from({length: 12}, (_, i) => `line ${i + 1}\n`).join(''),
    Array.from({length: 12}, (_, i) => (i === 3 || i === 4 ? `LINE ${i + 1}\n` : `line ${i + 1}\n`)).join(''),
  ],
}

describe('sandbox: a pull request’s diff as git prints it', function () {
  this.timeout(30_000)
  let s: Seeded
  let gh: (args: string[]) => Promise<GhResult>
  let number: number
  let head: string

  before(async () => {
    s = await seedSandbox()
    gh = await ghFor(s.sandbox)
    const put = async (branch: string, file: string, content: string | undefined) => {
      const existing = await s.agent.rest.repos
        .getContent({...base, path: file, ref: branch})
        .then((r) => (r.data as {sha: string}).sha)
        .catch(() => undefined)
      if (content === undefined) {
        if (existing) await s.agent.rest.repos.deleteFile({...base, path: file, branch, message: 'rm', sha: existing})
        return
      }
      await s.agent.rest.repos.createOrUpdateFileContents({
        ...base,
        path: file,
        branch,
        message: `put ${file}`,
        content: Buffer.from(content).toString('base64'),
        sha: existing,
      })
    }
    for (const [file, [before]] of Object.entries(FILES)) await put('main', file, before)
    const main = (await s.agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    await s.agent.rest.git.createRef({...base, ref: 'refs/heads/diff-text', sha: main})
    for (const [file, [, after]] of Object.entries(FILES)) await put('diff-text', file, after)
    const pull = await s.agent.rest.pulls.create({...base, title: 'Diff text', head: 'diff-text', base: 'main'})
    number = pull.data.number
    head = pull.data.head.sha
  })
  after(() => s.sandbox.close())

  /** What git itself prints for FILES, committed before and after in a scratch repository. */
  async function gitDiff(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-diff-'))
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'core.abbrev=7', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: dir,
        encoding: 'utf8',
      })
    try {
      git('init', '-q')
      const commitSide = async (side: 0 | 1) => {
        for (const [file, contents] of Object.entries(FILES)) {
          const content = contents[side]
          if (content !== undefined) await writeFile(path.join(dir, file), content)
          else await rm(path.join(dir, file), {force: true})
        }
        git('add', '-A')
        git('commit', '-qm', String(side))
      }
      await commitSide(0)
      await commitSide(1)
      return git('diff', '--no-color', '--no-renames', 'HEAD~1', 'HEAD')
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  }

  it('the diff media type answers what git diff prints for the same files', async () => {
    const response = await fetch(`${s.sandbox.url}/repos/${R}/pulls/${number}`, {
      headers: {authorization: `token ${s.sandbox.token}`, accept: 'application/vnd.github.diff'},
    })
    const diff = await response.text()
    expect(diff).to.equal(await gitDiff())
    expect(diff).to.include('\\ No newline at end of file')
    expect(diff).to.match(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/m)
  })

  it('gh pr diff prints it', async function () {
    skipWithoutGh(this)
    const result = await gh(['pr', 'diff', String(number), '-R', R, '--color', 'never'])
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.equal(await gitDiff())
  })

  it('files[].sha is the file’s blob id at the head (of a removed file, its blob before)', async () => {
    const files = (await s.agent.rest.pulls.listFiles({...base, pull_number: number})).data
    for (const file of files) {
      const [before, after] = FILES[file.filename]!
      expect(file.sha, file.filename).to.equal(blobSha((after ?? before)!))
      expect(file.blob_url).to.include(`/blob/${head}/`)
    }
    expect(files.find((f) => f.filename === 'eol-removed.txt')!.patch).to.equal(
      '@@ -1,3 +1,3 @@\n a\n b\n-c\n+c\n\\ No newline at end of file',
    )
  })

  it('a multi-line review thread has its start line; a single-line one has none (GraphQL and REST)', async () => {
    const multi = await s.reviewer.rest.pulls.createReviewComment({
      ...base,
      pull_number: number,
      commit_id: head,
      path: 'lines.txt',
      start_line: 4,
      line: 5,
      side: 'RIGHT',
      body: 'These two',
    })
    expect(multi.data).to.deep.include({start_line: 4, original_start_line: 4, line: 5, start_side: 'RIGHT'})
    const single = await s.reviewer.rest.pulls.createReviewComment({
      ...base,
      pull_number: number,
      commit_id: head,
      path: 'lines.txt',
      line: 5,
      side: 'RIGHT',
      body: 'This one',
    })
    expect(single.data).to.deep.include({start_line: null, original_start_line: null, start_side: null})
    const review = await s.reviewer.rest.pulls.createReview({
      ...base,
      pull_number: number,
      commit_id: head,
      event: 'COMMENT',
      comments: [{path: 'lines.txt', start_line: 3, line: 5, body: 'Three lines'}],
    })
    const threads = await s.agent.graphql<{
      repository: {
        pullRequest: {
          reviewThreads: {
            nodes: Array<{
              line: number
              startLine: number | null
              originalStartLine: number | null
              comments: {nodes: Array<{body: string; startLine: number | null}>}
            }>
          }
        }
      }
    }>(
      `query($n: Int!) { repository(owner: "${OWNER}", name: "${REPO}") { pullRequest(number: $n) { reviewThreads(first: 10) { nodes { line startLine originalStartLine comments(first: 1) { nodes { body startLine } } } } } } }`,
      {n: number},
    )
    const byBody = Object.fromEntries(
      threads.repository.pullRequest.reviewThreads.nodes.map((t) => [t.comments.nodes[0]!.body, t]),
    )
    expect(byBody['These two']).to.deep.include({line: 5, startLine: 4, originalStartLine: 4})
    expect(byBody['This one']).to.deep.include({line: 5, startLine: null, originalStartLine: null})
    expect(byBody['Three lines']).to.deep.include({line: 5, startLine: 3, originalStartLine: 3})
    const comments = (
      await s.agent.rest.pulls.listCommentsForReview({...base, pull_number: number, review_id: review.data.id})
    ).data
    expect(comments[0]).to.deep.include({start_line: 3, line: 5})
  })
})
