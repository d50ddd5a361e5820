/** Code search (REST's `/search/code`): the legacy one, over the files of each default branch. */
import {blobSha} from '../core/git-objects.js'
import type {Repo} from '../core/state.js'
import type {Store} from '../store.js'
import {
  checkNames,
  contains,
  evaluate,
  inRange,
  legacyScopes,
  occurrences,
  parseQuery,
  scopeTest,
  SearchInvalid,
  shapeOf,
} from './query.js'

export const CODE_KEYS = new Set([
  'repo',
  'user',
  'org',
  'owner',
  'in',
  'path',
  'filename',
  'extension',
  'language',
  'size',
  'fork',
])

/** Languages by file extension, as code search's language: qualifier reads them. */
const CODE_LANGUAGES: Record<string, string[]> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs'],
  python: ['.py'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
  ruby: ['.rb'],
  shell: ['.sh', '.bash'],
  markdown: ['.md', '.markdown'],
  yaml: ['.yml', '.yaml'],
  json: ['.json'],
  html: ['.html', '.htm'],
  css: ['.css'],
  c: ['.c', '.h'],
  'c++': ['.cpp', '.cc', '.hpp'],
  'c#': ['.cs'],
  php: ['.php'],
  kotlin: ['.kt'],
  swift: ['.swift'],
  text: ['.txt'],
}

export interface CodeHit {
  repo: Repo
  path: string
  sha: string
  commit: string
  content: string
  score: number
}

export function searchCode(store: Store, viewer: string, query: string): CodeHit[] {
  const expr = legacyScopes(parseQuery(query, CODE_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  if (shape.words.length === 0) throw new SearchInvalid('Must include at least one search term.', 'missing')
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['file'])
  const forkRule = shape.qualifiers.find((q) => q.key === 'fork' && !q.negated)?.value.toLowerCase()
  const hits: CodeHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const fork = repo.fork_of !== undefined
    if (forkRule === 'only' ? !fork : forkRule !== 'true' && fork) continue
    const commit = repo.branches[repo.default_branch]
    if (!commit) continue
    for (const [path, content] of Object.entries(repo.commits[commit]!.tree)) {
      // GitHub indexes files smaller than 384 KB.
      if (Buffer.byteLength(content) >= 384 * 1024) continue
      const textOf = (word: string) =>
        (fields.has('file') && contains(content, word)) || (fields.has('path') && contains(path, word))
      const matches = evaluate(expr, (e) =>
        e.kind === 'text' ? textOf(e.text) : codeQualifier(repo, path, content, e.key, e.value),
      )
      if (!matches) continue
      const score = shape.words.reduce((n, w) => n + occurrences(content, w) + 2 * occurrences(path, w), 0)
      hits.push({repo, path, sha: blobSha(content), commit, content, score})
    }
  }
  return hits.sort((a, b) => b.score - a.score || a.repo.id - b.repo.id || a.path.localeCompare(b.path))
}

function codeQualifier(repo: Repo, path: string, content: string, key: string, value: string): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const name = path.split('/').pop()!.toLowerCase()
  switch (key) {
    case 'in':
    case 'fork':
      return true
    case 'path': {
      // path:src matches under src/; a glob or a path with a file name matches the path itself.
      const pattern = v.replace(/^\//, '')
      if (/[*?]/.test(pattern)) {
        const escape = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&')
        const glob = pattern
          .split('**')
          .map((part) =>
            part
              .split('*')
              .map((p) => p.split('?').map(escape).join('[^/]'))
              .join('[^/]*'),
          )
          .join('.*')
        return new RegExp(`^${glob}$`).test(path.toLowerCase())
      }
      return (
        pattern === '' ||
        path.toLowerCase() === pattern ||
        path.toLowerCase().startsWith(`${pattern.replace(/\/$/, '')}/`)
      )
    }
    case 'filename':
      return name === v || name.startsWith(`${v}.`)
    case 'extension':
      return name.endsWith(`.${v.replace(/^\./, '')}`)
    case 'language':
      return (CODE_LANGUAGES[v] ?? []).some((ext) => name.endsWith(ext))
    case 'size':
      return inRange(value, Buffer.byteLength(content), 'number')
    default:
      return false
  }
}
