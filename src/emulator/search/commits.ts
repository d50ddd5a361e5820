/** Commit search (REST's `/search/commits`): the history of each default branch. */
import type {Commit, Repo} from '../core/state.js'
import {commitPeople} from '../core/git-objects.js'
import type {Store} from '../store.js'
import {
  checkNames,
  contains,
  evaluate,
  inRange,
  isLogin,
  legacyScopes,
  lower,
  occurrences,
  parseQuery,
  scopeTest,
  shapeOf,
} from './query.js'

export const COMMIT_KEYS = new Set([
  'repo',
  'user',
  'org',
  'owner',
  'author',
  'committer',
  'author-name',
  'committer-name',
  'author-email',
  'committer-email',
  'author-date',
  'committer-date',
  'merge',
  'hash',
  'parent',
  'tree',
  'is',
  'sort',
])

export interface CommitHit {
  repo: Repo
  commit: Commit
  score: number
}

export function searchCommits(
  store: Store,
  viewer: string,
  query: string,
  options: {sort?: string | null; order?: string | null; treeOf?: (commit: Commit) => string} = {},
): CommitHit[] {
  const expr = legacyScopes(parseQuery(query, COMMIT_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  const hits: CommitHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const head = repo.branches[repo.default_branch]
    if (!head) continue
    // Commit search covers the default branch.
    const onDefault = new Set<string>()
    const stack = [head]
    while (stack.length) {
      const sha = stack.pop()!
      if (onDefault.has(sha) || !repo.commits[sha]) continue
      onDefault.add(sha)
      stack.push(...repo.commits[sha].parents)
    }
    for (const sha of onDefault) {
      const commit = repo.commits[sha]!
      const matches = evaluate(expr, (e) =>
        e.kind === 'text'
          ? contains(commit.message, e.text)
          : commitQualifier(repo, commit, viewer, e.key, e.value, options.treeOf),
      )
      if (matches)
        hits.push({
          repo,
          commit,
          score: shape.words.length ? shape.words.reduce((n, w) => n + occurrences(commit.message, w), 0) : 1,
        })
    }
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const sign = sort?.direction === 'asc' ? 1 : -1
  const order = (hit: CommitHit) => `${hit.commit.date}:${String(hit.commit.seq ?? 0).padStart(12, '0')}`
  return hits.sort((a, b) => {
    if (sort?.field === 'author-date' || sort?.field === 'committer-date')
      return (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0) * sign
    return b.score - a.score || (order(a) < order(b) ? 1 : order(a) > order(b) ? -1 : 0)
  })
}

function commitQualifier(
  repo: Repo,
  commit: Commit,
  viewer: string,
  key: string,
  value: string,
  treeOf?: (commit: Commit) => string,
): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const {author, committer} = commitPeople(commit)
  switch (key) {
    case 'sort':
      return true
    case 'author':
    case 'committer':
      return isLogin(viewer, value, commit.author)
    case 'author-name':
      return lower(author.name).includes(v)
    case 'committer-name':
      return lower(committer.name).includes(v)
    case 'author-email':
      return lower(author.email) === v
    case 'committer-email':
      return lower(committer.email) === v
    case 'author-date':
    case 'committer-date':
      return inRange(value, commit.date, 'date')
    case 'merge':
      return commit.parents.length > 1 === (v === 'true')
    case 'hash':
      return v.length >= 7 && commit.sha.startsWith(v)
    case 'parent':
      return v.length >= 7 && commit.parents.some((p) => p.startsWith(v))
    case 'tree':
      return v.length >= 7 && treeOf !== undefined && treeOf(commit).startsWith(v)
    case 'is':
      return v === 'public' ? !repo.private : v === 'private' ? repo.private : false
    default:
      return false
  }
}
