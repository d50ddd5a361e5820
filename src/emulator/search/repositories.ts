/** Repository search (REST's `/search/repositories`, GraphQL's `REPOSITORY`). */
import type {Repo} from '../core/state.js'
import {defaultTree, diskUsage, forksOf, primaryLanguage, pushedAt} from '../repos/meta.js'
import type {Store} from '../store.js'
import {
  checkNames,
  contains,
  evaluate,
  inRange,
  legacyScopes,
  lower,
  occurrences,
  parseQuery,
  scopeTest,
  shapeOf,
} from './query.js'

export const REPO_KEYS = new Set([
  'repo',
  'user',
  'org',
  'owner',
  'in',
  'sort',
  'language',
  'topic',
  'topics',
  'is',
  'fork',
  'archived',
  'stars',
  'forks',
  'size',
  'created',
  'pushed',
  'license',
  'mirror',
  'template',
  'good-first-issues',
  'help-wanted-issues',
])

export interface RepoHit {
  repo: Repo
  score: number
}

export function searchRepos(
  store: Store,
  viewer: string,
  query: string,
  options: {sort?: string | null; order?: string | null} = {},
): RepoHit[] {
  const expr = legacyScopes(parseQuery(query, REPO_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['name', 'description', 'topics'])
  const forkRule = shape.qualifiers.find((q) => q.key === 'fork' && !q.negated)?.value.toLowerCase()
  const readme = (repo: Repo) =>
    Object.entries(defaultTree(repo)).find(([path]) => /^readme(\.[a-z]+)?$/i.test(path))?.[1] ?? ''
  const textOf = (repo: Repo, word: string) =>
    (fields.has('name') && (contains(repo.name, word) || contains(`${repo.owner}/${repo.name}`, word))) ||
    (fields.has('description') && contains(repo.description, word)) ||
    (fields.has('topics') && (repo.topics ?? []).some((t) => contains(t, word))) ||
    (fields.has('readme') && contains(readme(repo), word))
  const hits: RepoHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const fork = repo.fork_of !== undefined
    if (forkRule === 'only' ? !fork : forkRule !== 'true' && fork) continue
    const matches = evaluate(expr, (e) =>
      e.kind === 'text' ? textOf(repo, e.text) : repoQualifier(store, repo, e.key, e.value),
    )
    if (!matches) continue
    const score = shape.words.reduce(
      (n, w) =>
        n +
        2 * occurrences(repo.name, w) +
        occurrences(repo.description, w) +
        (repo.topics ?? []).filter((t) => contains(t, w)).length,
      0,
    )
    hits.push({repo, score: shape.words.length ? score : 1})
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const key = (hit: RepoHit): number | string => {
    switch (sort?.field) {
      case 'stars':
      case 'help-wanted-issues':
        return 0
      case 'forks':
        return forksOf(store.state.repos, hit.repo).length
      case 'updated':
        return pushedAt(hit.repo)
      default:
        return hit.score
    }
  }
  const sign = sort?.direction === 'asc' ? 1 : -1
  return hits.sort((a, b) => {
    const [x, y] = [key(a), key(b)]
    return (x < y ? -1 : x > y ? 1 : 0) * sign || a.repo.id - b.repo.id
  })
}

function repoQualifier(store: Store, repo: Repo, key: string, value: string): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  switch (key) {
    case 'in':
    case 'sort':
    case 'fork':
      return true
    case 'language':
      return lower(primaryLanguage(repo)?.name) === v
    case 'topic':
      return (repo.topics ?? []).some((t) => t.toLowerCase() === v)
    case 'topics':
      return inRange(value, (repo.topics ?? []).length, 'number')
    case 'is':
      return v === 'public'
        ? !repo.private
        : v === 'private'
          ? repo.private
          : v === 'fork'
            ? repo.fork_of !== undefined
            : false
    case 'archived':
    case 'mirror':
    case 'template':
      return v === 'false'
    case 'stars':
    case 'good-first-issues':
    case 'help-wanted-issues':
      // No stars in the sandbox, and no label searches of that kind: every count is 0.
      return inRange(value, 0, 'number')
    case 'forks':
      return inRange(value, forksOf(store.state.repos, repo).length, 'number')
    case 'size':
      return inRange(value, diskUsage(repo), 'number')
    case 'created':
      return inRange(value, repo.created_at, 'date')
    case 'pushed':
      return inRange(value, pushedAt(repo), 'date')
    default:
      return false
  }
}
