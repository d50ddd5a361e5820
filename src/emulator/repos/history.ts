/** A repository's history as GitHub lists it: REST's list-commits and compare, GraphQL's Commit.history. */
import type {Commit, Repo} from '../core/state.js'

/** Commits reachable from a commit, newest first (GitHub's default order for list-commits). */
export function history(repo: Repo, sha: string): Commit[] {
  const seen = new Set<string>()
  const order: Commit[] = []
  const queue = [sha]
  while (queue.length > 0) {
    const next = queue.shift()!
    if (seen.has(next) || !repo.commits[next]) continue
    seen.add(next)
    order.push(repo.commits[next])
    queue.push(...repo.commits[next].parents)
  }
  return order
    .map((c, i) => ({c, i}))
    .sort((a, b) => b.c.date.localeCompare(a.c.date) || a.i - b.i)
    .map(({c}) => c)
}

/** Whether a commit changed a file, or anything under a directory, against its first parent. */
export function touches(repo: Repo, commit: Commit, path: string): boolean {
  const before = commit.parents[0] ? (repo.commits[commit.parents[0]]?.tree ?? {}) : {}
  const clean = path.replace(/^\/+|\/+$/g, '')
  const inPath = (p: string) => p === clean || p.startsWith(`${clean}/`)
  const paths = new Set([...Object.keys(before), ...Object.keys(commit.tree)].filter(inPath))
  return [...paths].some((p) => before[p] !== commit.tree[p])
}
