/**
 * REST representations of git objects and what is built on them (GitHub's shapes): git commits
 * (`git/commits`, the `commit` of PUT/DELETE contents, timeline `committed` events), trees, blobs,
 * directory listings, tags and comparisons.
 */
import {
  blobSha,
  commitPeople,
  directoryEntries,
  recursiveEntries,
  treeSha,
  type TreeEntry,
} from '../core/git-objects.js'
import type {Json, SerializerCore} from '../core/serializer-core.js'
import type {Commit, Repo} from '../core/state.js'

const api = (ser: SerializerCore, repo: Repo) => `${ser.links.api}/repos/${repo.owner}/${repo.name}`
const html = (ser: SerializerCore, repo: Repo) => `${ser.links.html}/${repo.owner}/${repo.name}`

/** The author's and committer's git identities: as given, or the login and its no-reply address. */
export function gitPeople(commit: Commit): {author: Json; committer: Json} {
  const {author, committer} = commitPeople(commit)
  return {
    author: {name: author.name, email: author.email, date: commit.date},
    committer: {name: committer.name, email: committer.email, date: commit.date},
  }
}

/** A commit as the git database describes it (GET/POST git/commits, file-commit). */
export function gitCommit(ser: SerializerCore, repo: Repo, commit: Commit): Json {
  const tree = treeSha(commit.tree)
  return {
    sha: commit.sha,
    node_id: `C_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
    url: `${api(ser, repo)}/git/commits/${commit.sha}`,
    html_url: `${html(ser, repo)}/commit/${commit.sha}`,
    ...gitPeople(commit),
    tree: {sha: tree, url: `${api(ser, repo)}/git/trees/${tree}`},
    message: commit.message,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api(ser, repo)}/git/commits/${sha}`,
      html_url: `${html(ser, repo)}/commit/${sha}`,
    })),
    verification: {verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null},
  }
}

function treeEntry(ser: SerializerCore, repo: Repo, entry: TreeEntry, dir: string): Json {
  const path = dir === '' ? entry.path : entry.path.slice(dir.length + 1)
  return {
    path,
    mode: entry.mode,
    type: entry.type,
    sha: entry.sha,
    ...(entry.size === undefined ? {} : {size: entry.size}),
    url: `${api(ser, repo)}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`,
  }
}

/** GET git/trees/{sha}: a directory's entries, relative to it; `recursive` lists every descendant. */
export function gitTree(
  ser: SerializerCore,
  repo: Repo,
  tree: Record<string, string>,
  dir: string,
  recursive: boolean,
): Json {
  const sha = treeSha(tree, dir)
  const entries = recursive ? recursiveEntries(tree, dir) : directoryEntries(tree, dir)
  return {
    sha,
    url: `${api(ser, repo)}/git/trees/${sha}`,
    tree: entries.map((e) => treeEntry(ser, repo, e, dir)),
    truncated: false,
  }
}

export function gitBlob(ser: SerializerCore, repo: Repo, content: string): Json {
  const sha = blobSha(content)
  return {
    sha,
    node_id: `B_kw${Buffer.from(sha.slice(0, 16)).toString('base64url')}`,
    size: Buffer.byteLength(content),
    url: `${api(ser, repo)}/git/blobs/${sha}`,
    content: Buffer.from(content).toString('base64'),
    encoding: 'base64',
  }
}

/** A file of GET contents (with its content) or an entry of a directory listing (without). */
export function contentEntry(
  ser: SerializerCore,
  repo: Repo,
  ref: string,
  path: string,
  content: string | null,
  withContent = true,
): Json {
  const self = `${api(ser, repo)}/contents/${path}?ref=${encodeURIComponent(ref)}`
  if (content === null) {
    const sha = '' // replaced by the caller for directories
    const web = `${html(ser, repo)}/tree/${ref}/${path}`
    return {
      type: 'dir',
      size: 0,
      name: path.split('/').pop(),
      path,
      sha,
      url: self,
      git_url: null,
      html_url: web,
      download_url: null,
      _links: {self, git: null, html: web},
    }
  }
  const sha = blobSha(content)
  const web = `${html(ser, repo)}/blob/${ref}/${path}`
  const git = `${api(ser, repo)}/git/blobs/${sha}`
  return {
    type: 'file',
    ...(withContent ? {encoding: 'base64'} : {}),
    size: Buffer.byteLength(content),
    name: path.split('/').pop(),
    path,
    ...(withContent ? {content: Buffer.from(content).toString('base64')} : {}),
    sha,
    url: self,
    git_url: git,
    html_url: web,
    download_url: `${ser.links.html.replace('://', '://raw.')}/${repo.owner}/${repo.name}/${ref}/${path}`,
    _links: {self, git, html: web},
  }
}

/** GET contents of a directory: its entries, files and sub-directories, in git's order. */
export function directoryListing(
  ser: SerializerCore,
  repo: Repo,
  ref: string,
  tree: Record<string, string>,
  dir: string,
): Json[] {
  return directoryEntries(tree, dir).map((entry) => {
    if (entry.type === 'blob') return contentEntry(ser, repo, ref, entry.path, tree[entry.path]!, false)
    const listing = contentEntry(ser, repo, ref, entry.path, null)
    const git = `${api(ser, repo)}/git/trees/${entry.sha}`
    return {...listing, sha: entry.sha, git_url: git, _links: {...(listing._links as Json), git}}
  })
}
