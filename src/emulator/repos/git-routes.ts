/**
 * REST routes over the repository's git data: contents (files, directories, the README), refs
 * (branches and tags, in the current `git/ref` and the legacy `git/refs/{ref}` forms), the git
 * database (blobs, trees, commits), commit lists, tags and comparisons.
 */
import {notFound, refused, SandboxError, unprocessable} from '../core/errors.js'
import {renderDiff, diffTrees} from '../core/git.js'
import {isDirectory} from '../core/git-objects.js'
import {checkRefName, treePathProblem} from '../core/git-names.js'
import {checkRequired, checkTypes, invalidRequest} from '../core/request-schema.js'
import {
  assertNotEmpty,
  flag,
  repoOf,
  resolveCommitish,
  str,
  type RestContext,
  type RouteDef,
} from '../core/rest-support.js'
import type {Repo} from '../core/state.js'
import type {GitIdentities} from './git-store.js'
import {contentEntry, directoryListing, gitBlob, gitCommit, gitTree} from './serialize-git.js'
import {history, touches} from './history.js'

const repoApi = (ctx: RestContext, repo: Repo) => `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`

/** A ref as GitHub describes it: `heads/x` or `tags/x`, pointing at a commit. */
function refEntry(ctx: RestContext, repo: Repo, ref: string, sha: string): Record<string, unknown> {
  return {
    ref: `refs/${ref}`,
    node_id: `REF_kw${Buffer.from(`${repo.id}:${ref}`).toString('base64url')}`,
    url: `${repoApi(ctx, repo)}/git/refs/${ref}`,
    object: {type: 'commit', sha, url: `${repoApi(ctx, repo)}/git/commits/${sha}`},
  }
}

/** Every ref of the repository, `heads/…` then `tags/…`, each sorted by name. */
function allRefs(ctx: RestContext, repo: Repo): Array<[string, string]> {
  const byName = (a: [string, string], b: [string, string]) => a[0].localeCompare(b[0])
  return [
    ...Object.entries(repo.branches)
      .map(([name, sha]): [string, string] => [`heads/${name}`, sha])
      .sort(byName),
    ...Object.entries(ctx.store.git.tagRefs(repo))
      .map(([name, sha]): [string, string] => [`tags/${name}`, sha])
      .sort(byName),
  ]
}

const normalizeRef = (ref: string) => ref.replace(/^refs\//, '')

/** The ref's branch or tag name, or GitHub's 422 for another kind of ref. */
function refKind(ref: string): {kind: 'heads' | 'tags'; name: string} {
  const match = /^(heads|tags)\/(.+)$/.exec(normalizeRef(ref))
  if (!match) throw refused('Reference does not exist')
  return {kind: match[1] as 'heads' | 'tags', name: match[2]!}
}

function identities(body: Record<string, unknown>): GitIdentities {
  const dates: string[] = []
  const person = (key: string) => {
    const value = body[key]
    if (value === undefined) return undefined
    if (typeof value !== 'object' || value === null)
      throw invalidRequest(`For 'properties/${key}', ${JSON.stringify(value)} is not an object.`)
    checkRequired(value as Record<string, unknown>, ['name', 'email'])
    const {name, email, date} = value as {name: unknown; email: unknown; date?: unknown}
    if (date !== undefined) {
      if (typeof date !== 'string' || Number.isNaN(Date.parse(date)))
        throw invalidRequest(`For 'properties/${key}/date', ${JSON.stringify(date)} is not a timestamp.`)
      dates.push(date)
    }
    return {name: String(name), email: String(email)}
  }
  // The committer's date when given, else the author's (a commit here has one date).
  const committer = person('committer')
  const author = person('author')
  // GitHub: the author defaults to the committer, the committer to the authenticated user.
  return {
    ...((author ?? committer) ? {author: author ?? committer} : {}),
    ...(committer ? {committer} : {}),
    ...(dates.length > 0 ? {date: dates[0]} : {}),
  }
}

/** A file path the contents API writes, or GitHub's 422 (`..`, `.git`, an empty component: never in a tree). */
function contentsPath(path: string): string {
  const problem = treePathProblem(path)
  if (problem) throw new SandboxError(422, `path ${problem}`, [{resource: 'Commit', field: 'path', code: 'invalid'}])
  return path
}

/** GET contents: a file, a directory's listing, or 404; the raw file for `Accept: …raw`. */
function getContent(ctx: RestContext, path: string) {
  const repo = repoOf(ctx)
  if (Object.keys(repo.branches).length === 0) throw notFound('This repository is empty.')
  const ref = ctx.query.get('ref') ?? repo.default_branch
  const sha = resolveCommitish(repo, ref, ctx.store.git.tagRefs(repo))
  const tree = ctx.store.git.commit(repo, sha).tree
  const file = tree[path]
  if (file !== undefined) {
    if (/\.raw\b|vnd\.github\.raw/.test(ctx.accept)) return {text: file, contentType: 'text/plain; charset=utf-8'}
    return {body: contentEntry(ctx.ser, repo, ref, path, file)}
  }
  if (!isDirectory(tree, path)) throw notFound()
  return {body: directoryListing(ctx.ser, repo, ref, tree, path)}
}

/** The README of a directory: the first file named README (any extension), as GitHub picks it. */
function getReadme(ctx: RestContext, dir: string) {
  const repo = repoOf(ctx)
  if (Object.keys(repo.branches).length === 0) throw notFound('This repository is empty.')
  const ref = ctx.query.get('ref') ?? repo.default_branch
  const tree = ctx.store.git.commit(repo, resolveCommitish(repo, ref, ctx.store.git.tagRefs(repo))).tree
  const prefix = dir === '' ? '' : `${dir.replace(/\/$/, '')}/`
  const candidates = Object.keys(tree)
    .filter(
      (path) =>
        path.startsWith(prefix) &&
        !path.slice(prefix.length).includes('/') &&
        /^readme(\.|$)/i.test(path.slice(prefix.length)),
    )
    .sort((a, b) => Number(!/\.md$/i.test(a)) - Number(!/\.md$/i.test(b)) || a.localeCompare(b))
  const path = candidates[0]
  if (!path) throw notFound()
  if (/\.raw\b|vnd\.github\.raw/.test(ctx.accept)) return {text: tree[path]!, contentType: 'text/plain; charset=utf-8'}
  return {body: contentEntry(ctx.ser, repo, ref, path, tree[path]!)}
}

/** One side of a comparison: `ref` or `owner:ref` (a fork's ref), resolved to a commit id and the repository it lives in. */
function compareSide(ctx: RestContext, repo: Repo, side: string): {sha: string; repo: Repo} {
  const colon = side.indexOf(':')
  let target = repo
  let ref = side
  if (colon > 0) {
    const owner = side.slice(0, colon)
    ref = side.slice(colon + 1)
    if (owner !== repo.owner) {
      const fullName = `${repo.owner}/${repo.name}`
      const parent = repo.fork_of
      const network = Object.values(ctx.store.state.repos).filter(
        (r) =>
          r.owner === owner &&
          (r.fork_of === fullName ||
            `${r.owner}/${r.name}` === parent ||
            (parent !== undefined && r.fork_of === parent)),
      )
      if (network.length === 0) throw notFound()
      target = network[0]!
    }
  }
  try {
    return {sha: resolveCommitish(target, ref, ctx.store.git.tagRefs(target)), repo: target}
  } catch {
    throw notFound()
  }
}

export const gitRoutes: RouteDef[] = [
  // contents and the README
  ['GET', '/repos/{owner}/{repo}/contents', 'repos/get-content', (ctx) => getContent(ctx, '')],
  [
    'GET',
    '/repos/{owner}/{repo}/contents/{path}',
    'repos/get-content',
    (ctx) => getContent(ctx, ctx.params.path!.replace(/\/+$/, '')),
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/contents/{path}',
    'repos/create-or-update-file-contents',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['message', 'content'])
      checkTypes(ctx.body, {message: 'a string', content: 'a string', sha: 'a string', branch: 'a string'})
      const branch = str(ctx.body, 'branch') ?? repo.default_branch
      const path = contentsPath(ctx.params.path!)
      const empty = Object.keys(repo.branches).length === 0
      const existing = empty ? undefined : ctx.store.git.commit(repo, ctx.store.git.branchSha(repo, branch)).tree[path]
      if (existing !== undefined) {
        const given = str(ctx.body, 'sha')
        if (given === undefined) throw invalidRequest('"sha" wasn\'t supplied.')
        if (given !== contentEntry(ctx.ser, repo, branch, path, existing).sha)
          throw new SandboxError(409, `${path} does not match ${given}`)
      }
      if (!/^[A-Za-z0-9+/=\s]*$/.test(str(ctx.body, 'content')!)) throw invalidRequest('content is not valid Base64')
      const text = Buffer.from(str(ctx.body, 'content')!, 'base64').toString('utf8')
      const sha = ctx.store.git.commitFiles(
        repo,
        branch,
        {[path]: text},
        str(ctx.body, 'message')!,
        ctx.viewer,
        identities(ctx.body),
      )
      return {
        status: existing === undefined ? 201 : 200,
        body: {
          content: contentEntry(ctx.ser, repo, branch, path, text, false),
          commit: gitCommit(ctx.ser, repo, ctx.store.git.commit(repo, sha)),
        },
      }
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/contents/{path}',
    'repos/delete-file',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['message', 'sha'])
      const branch = str(ctx.body, 'branch') ?? repo.default_branch
      const path = contentsPath(ctx.params.path!)
      const existing = ctx.store.git.commit(repo, ctx.store.git.branchSha(repo, branch)).tree[path]
      if (existing === undefined) throw notFound()
      if (str(ctx.body, 'sha') !== contentEntry(ctx.ser, repo, branch, path, existing).sha)
        throw new SandboxError(409, `${path} does not match ${String(ctx.body.sha)}`)
      const sha = ctx.store.git.commitFiles(
        repo,
        branch,
        {[path]: null},
        str(ctx.body, 'message')!,
        ctx.viewer,
        identities(ctx.body),
      )
      return {body: {content: null, commit: gitCommit(ctx.ser, repo, ctx.store.git.commit(repo, sha))}}
    },
  ],
  ['GET', '/repos/{owner}/{repo}/readme', 'repos/get-readme', (ctx) => getReadme(ctx, '')],
  [
    'GET',
    '/repos/{owner}/{repo}/readme/{dir}',
    'repos/get-readme-in-directory',
    (ctx) => getReadme(ctx, ctx.params.dir!),
  ],

  // refs
  [
    'GET',
    '/repos/{owner}/{repo}/git/ref/{ref}',
    'git/get-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const ref = normalizeRef(ctx.params.ref!)
      const found = allRefs(ctx, repo).find(([name]) => name === ref)
      if (!found) throw notFound()
      return {body: refEntry(ctx, repo, found[0], found[1])}
    },
  ],
  // The legacy form, which clients such as the npm MCP server still use: one ref when the name is
  // exact, else every ref it prefixes (an array), else 404.
  [
    'GET',
    '/repos/{owner}/{repo}/git/refs/{ref}',
    'git/get-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const ref = normalizeRef(ctx.params.ref!)
      const refs = allRefs(ctx, repo)
      const exact = refs.find(([name]) => name === ref)
      if (exact) return {body: refEntry(ctx, repo, exact[0], exact[1])}
      const prefixed = refs.filter(([name]) => name.startsWith(ref.endsWith('/') ? ref : `${ref}/`))
      if (prefixed.length === 0) throw notFound()
      return {list: prefixed.map(([name, sha]) => refEntry(ctx, repo, name, sha))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/git/refs',
    'git/list-matching-refs',
    (ctx) => {
      const repo = repoOf(ctx)
      return {list: allRefs(ctx, repo).map(([name, sha]) => refEntry(ctx, repo, name, sha))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/git/matching-refs/{ref}',
    'git/list-matching-refs',
    (ctx) => {
      const repo = repoOf(ctx)
      const prefix = normalizeRef(ctx.params.ref!)
      return {
        list: allRefs(ctx, repo)
          .filter(([name]) => name.startsWith(prefix))
          .map(([name, sha]) => refEntry(ctx, repo, name, sha)),
      }
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/git/refs',
    'git/create-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['ref', 'sha'])
      const ref = str(ctx.body, 'ref') ?? ''
      const sha = str(ctx.body, 'sha') ?? ''
      if (!ref.startsWith('refs/') || ref.split('/').length < 3)
        throw unprocessable("Reference name must start with 'refs/' and have at least two slashes.", 'ref', 'Reference')
      checkRefName(ref)
      const {kind, name} = refKind(ref)
      if (!repo.commits[sha]) throw refused('Object does not exist')
      if (kind === 'heads') ctx.store.git.createBranch(repo, name, sha)
      else ctx.store.git.createTag(repo, name, sha)
      return {status: 201, body: refEntry(ctx, repo, `${kind}/${name}`, sha)}
    },
  ],
  [
    'PATCH',
    '/repos/{owner}/{repo}/git/refs/{ref}',
    'git/update-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['sha'])
      const {kind, name} = refKind(ctx.params.ref!)
      checkRefName(`refs/${kind}/${name}`)
      const sha = str(ctx.body, 'sha') ?? ''
      if (kind === 'heads') {
        ctx.store.git.updateBranch(repo, name, sha, ctx.body.force === true)
        return {body: refEntry(ctx, repo, `heads/${name}`, repo.branches[name]!)}
      }
      if (ctx.store.git.tagRefs(repo)[name] === undefined) throw refused('Reference does not exist')
      if (ctx.body.force !== true) throw refused('Update is not a fast forward')
      ctx.store.git.moveTag(repo, name, sha)
      return {body: refEntry(ctx, repo, `tags/${name}`, sha)}
    },
  ],
  [
    'DELETE',
    '/repos/{owner}/{repo}/git/refs/{ref}',
    'git/delete-ref',
    (ctx) => {
      const repo = repoOf(ctx)
      const {kind, name} = refKind(ctx.params.ref!)
      if (kind === 'heads') ctx.store.git.deleteBranch(repo, name)
      else ctx.store.git.deleteTag(repo, name)
      return {status: 204}
    },
  ],

  // the git database
  [
    'GET',
    '/repos/{owner}/{repo}/git/trees/{tree_sha}',
    'git/get-tree',
    (ctx) => {
      const repo = repoOf(ctx)
      const {tree, dir} = ctx.store.git.tree(repo, ctx.params.tree_sha!)
      return {body: gitTree(ctx.ser, repo, tree, dir, flag(ctx.query, 'recursive'))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/git/trees',
    'git/create-tree',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['tree'])
      checkTypes(ctx.body, {tree: 'an array', base_tree: 'a string'})
      const entries = (ctx.body.tree as unknown[]).map((entry) => {
        if (typeof entry !== 'object' || entry === null)
          throw invalidRequest(`For 'items', ${JSON.stringify(entry)} is not an object.`)
        const e = entry as Record<string, unknown>
        checkTypes(e, {path: 'a string', mode: 'a string', type: 'a string', content: 'a string'})
        if (typeof e.path !== 'string') throw invalidRequest('"path" wasn\'t supplied.')
        if (e.content === undefined && e.sha === undefined)
          throw unprocessable('Must supply either tree.sha or tree.content', 'tree', 'Tree')
        return {
          path: e.path,
          type: typeof e.type === 'string' ? e.type : 'blob',
          sha: e.sha === null ? null : typeof e.sha === 'string' ? e.sha : undefined,
          content: typeof e.content === 'string' ? e.content : undefined,
        }
      })
      const sha = ctx.store.git.createTree(repo, entries, str(ctx.body, 'base_tree'))
      const {tree, dir} = ctx.store.git.tree(repo, sha)
      return {status: 201, body: gitTree(ctx.ser, repo, tree, dir, false)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/git/blobs/{file_sha}',
    'git/get-blob',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: gitBlob(ctx.ser, repo, ctx.store.git.blob(repo, ctx.params.file_sha!))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/git/blobs',
    'git/create-blob',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['content'])
      checkTypes(ctx.body, {content: 'a string', encoding: 'a string'})
      const encoding = str(ctx.body, 'encoding') ?? 'utf-8'
      if (encoding !== 'utf-8' && encoding !== 'base64')
        throw unprocessable(`encoding must be utf-8 or base64`, 'encoding', 'Blob')
      const content =
        encoding === 'base64'
          ? Buffer.from(str(ctx.body, 'content')!, 'base64').toString('utf8')
          : str(ctx.body, 'content')!
      const sha = ctx.store.git.createBlob(repo, content)
      return {status: 201, body: {url: `${repoApi(ctx, repo)}/git/blobs/${sha}`, sha}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/git/commits/{commit_sha}',
    'git/get-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      return {body: gitCommit(ctx.ser, repo, ctx.store.git.commit(repo, ctx.params.commit_sha!))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/git/commits',
    'git/create-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['message', 'tree'])
      checkTypes(ctx.body, {message: 'a string', tree: 'a string', parents: 'an array'})
      const parents = ((ctx.body.parents as unknown[] | undefined) ?? []).map(String)
      const commit = ctx.store.git.createCommit(repo, ctx.viewer, {
        message: str(ctx.body, 'message')!,
        tree: str(ctx.body, 'tree')!,
        parents,
        ...identities(ctx.body),
      })
      return {status: 201, body: gitCommit(ctx.ser, repo, commit)}
    },
  ],

  // commits, tags, comparisons
  [
    'GET',
    '/repos/{owner}/{repo}/commits',
    'repos/list-commits',
    (ctx) => {
      const repo = repoOf(ctx)
      assertNotEmpty(repo)
      const head = resolveCommitish(repo, ctx.query.get('sha') ?? repo.default_branch, ctx.store.git.tagRefs(repo))
      const path = ctx.query.get('path')
      const author = ctx.query.get('author')?.toLowerCase()
      const committer = ctx.query.get('committer')?.toLowerCase()
      const since = ctx.query.get('since')
      const until = ctx.query.get('until')
      const matches = (login: string, identity: {name: string; email: string} | undefined, who: string) =>
        login.toLowerCase() === who ||
        identity?.email.toLowerCase() === who ||
        `${login}@users.noreply.github.localhost` === who
      const commits = history(repo, head).filter(
        (c) =>
          (!path || touches(repo, c, path)) &&
          (!author || matches(c.author, c.author_git, author)) &&
          (!committer || matches(c.author, c.committer_git ?? c.author_git, committer)) &&
          (!since || Date.parse(c.date) >= Date.parse(since)) &&
          (!until || Date.parse(c.date) <= Date.parse(until)),
      )
      return {list: commits.map((c) => ctx.ser.repos.commit(repo, c))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/tags',
    'repos/list-tags',
    (ctx) => {
      const repo = repoOf(ctx)
      const tags = Object.entries(ctx.store.git.tagRefs(repo)).sort(([a], [b]) =>
        b.localeCompare(a, undefined, {numeric: true}),
      )
      return {
        list: tags.map(([name, sha]) => ({
          name,
          commit: {sha, url: `${repoApi(ctx, repo)}/commits/${sha}`},
          zipball_url: `${repoApi(ctx, repo)}/zipball/refs/tags/${name}`,
          tarball_url: `${repoApi(ctx, repo)}/tarball/refs/tags/${name}`,
          node_id: `REF_kw${Buffer.from(`${repo.id}:tags/${name}`).toString('base64url')}`,
        })),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/compare/{basehead}',
    'repos/compare-commits-with-basehead',
    (ctx) => {
      const repo = repoOf(ctx)
      const spec = ctx.params.basehead!
      const split = spec.indexOf('...')
      if (split < 0) throw notFound()
      const base = compareSide(ctx, repo, spec.slice(0, split))
      const head = compareSide(ctx, repo, spec.slice(split + 3))
      // Forks share their history: compare over the commits of both.
      const view: Repo =
        base.repo === head.repo ? repo : {...repo, commits: {...base.repo.commits, ...head.repo.commits}}
      const mergeBase = ctx.store.git.mergeBase(view, head.sha, base.sha)
      const inBase = new Set(history(view, base.sha).map((c) => c.sha))
      const inHead = new Set(history(view, head.sha).map((c) => c.sha))
      const ahead = history(view, head.sha)
        .filter((c) => !inBase.has(c.sha))
        .reverse()
      const behind = [...inBase].filter((sha) => !inHead.has(sha)).length
      const files = diffTrees(ctx.store.git.commit(view, mergeBase).tree, ctx.store.git.commit(view, head.sha).tree)
      if (/diff|patch/.test(ctx.accept)) return {text: renderDiff(files), contentType: 'text/plain; charset=utf-8'}
      const status =
        ahead.length === 0 && behind === 0
          ? 'identical'
          : behind === 0
            ? 'ahead'
            : ahead.length === 0
              ? 'behind'
              : 'diverged'
      const web = `${ctx.ser.links.html}/${repo.owner}/${repo.name}/compare/${spec}`
      return {
        body: {
          url: `${repoApi(ctx, repo)}/compare/${spec}`,
          html_url: web,
          permalink_url: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/compare/${base.repo.owner}:${base.sha}...${head.repo.owner}:${head.sha}`,
          diff_url: `${web}.diff`,
          patch_url: `${web}.patch`,
          base_commit: ctx.ser.repos.commit(view, ctx.store.git.commit(view, base.sha)),
          merge_base_commit: ctx.ser.repos.commit(view, ctx.store.git.commit(view, mergeBase)),
          status,
          ahead_by: ahead.length,
          behind_by: behind,
          total_commits: ahead.length,
          // GitHub lists at most 250 commits here, oldest first.
          commits: ahead.slice(0, 250).map((c) => ctx.ser.repos.commit(view, c)),
          files: files.map((change) => ctx.ser.repos.diffEntry(view, head.sha, change)),
        },
      }
    },
  ],
]
