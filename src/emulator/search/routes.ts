/**
 * GitHub's REST search (issues.ts, repositories.ts, code.ts, commits.ts and users.ts beside it do the
 * searching): issues and pull requests, repositories, code
 * (the default branch's files), commits (the default branch's history), users and labels. Answers
 * are GitHub's `{total_count, incomplete_results, items}`, paginated with `per_page`/`page` and a
 * Link header; `text_matches` come with the `application/vnd.github.text-match+json` media type.
 * A query that names a repository or user that does not exist is GitHub's 422.
 */
import {SandboxError} from '../core/errors.js'
import {treeSha} from '../core/git-objects.js'
import {str, type RestContext, type RestResult, type RouteDef} from '../core/rest-support.js'
import {reviewDecision} from '../pulls/graphql.js'
import {searchCode} from './code.js'
import {searchCommits} from './commits.js'
import {searchIssues} from './issues.js'
import {SearchInvalid} from './query.js'
import {searchRepos} from './repositories.js'
import {textMatches} from './text-matches.js'
import {searchUsers} from './users.js'

/** GitHub's 422 for a missing or unsearchable `q`. */
function query(ctx: RestContext): string {
  const q = ctx.query.get('q')
  if (q === null || q.trim() === '')
    throw new SandboxError(422, 'Validation Failed', [{resource: 'Search', field: 'q', code: 'missing'}])
  return q
}

function searching<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof SearchInvalid)
      throw new SandboxError(422, 'Validation Failed', [
        {message: error.message, resource: 'Search', field: 'q', code: error.code},
      ])
    throw error
  }
}

const results = (items: unknown[], extra: Record<string, unknown> = {}): RestResult => ({
  list: items,
  wrap: {key: 'items', extra: {incomplete_results: false, ...extra}},
})
const withMatches = (ctx: RestContext) => ctx.accept.includes('text-match')

export const searchRoutes: RouteDef[] = [
  [
    'GET',
    '/search/issues',
    'search/issues-and-pull-requests',
    (ctx) => {
      const q = query(ctx)
      const advanced = ['true', '1'].includes(ctx.query.get('advanced_search') ?? '')
      const hits = searching(() =>
        searchIssues({store: ctx.store, viewer: ctx.viewer, reviewDecision}, q, {
          advanced,
          sort: ctx.query.get('sort'),
          order: ctx.query.get('order'),
        }),
      )
      const items = hits.map(({repo, issue, score}) => {
        const pull = issue.is_pull ? repo.pulls[issue.number] : undefined
        const comments = issue.comments.map((id) => repo.comments[id]?.body ?? '').join('\n')
        return {
          ...ctx.ser.issues.issue(repo, issue),
          // GitHub's description types a search result's body as a string (an issue's own answer has null).
          body: issue.body ?? '',
          ...(pull ? {draft: pull.draft} : {}),
          score,
          ...(withMatches(ctx)
            ? {
                text_matches: textMatches(q, {title: issue.title, body: issue.body, 'comments.body': comments}).map(
                  (m) => ({
                    object_url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/issues/${issue.number}`,
                    object_type: 'Issue',
                    ...m,
                  }),
                ),
              }
            : {}),
        }
      })
      return results(items, {search_type: 'lexical'})
    },
  ],
  [
    'GET',
    '/search/repositories',
    'search/repos',
    (ctx) => {
      const q = query(ctx)
      const hits = searching(() =>
        searchRepos(ctx.store, ctx.viewer, q, {sort: ctx.query.get('sort'), order: ctx.query.get('order')}),
      )
      return results(
        hits.map(({repo, score}) => ({
          ...ctx.ser.repos.repo(repo),
          score,
          ...(withMatches(ctx)
            ? {
                text_matches: textMatches(q, {name: repo.name, description: repo.description}).map((m) => ({
                  object_url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`,
                  object_type: 'Repository',
                  ...m,
                })),
              }
            : {}),
        })),
      )
    },
  ],
  [
    'GET',
    '/search/code',
    'search/code',
    (ctx) => {
      const q = query(ctx)
      const hits = searching(() => searchCode(ctx.store, ctx.viewer, q))
      return results(
        hits.map(({repo, path, sha, commit, content, score}) => {
          const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`
          return {
            name: path.split('/').pop(),
            path,
            sha,
            url: `${api}/contents/${path.split('/').map(encodeURIComponent).join('/')}?ref=${commit}`,
            git_url: `${api}/git/blobs/${sha}`,
            html_url: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/blob/${commit}/${path}`,
            repository: ctx.ser.repos.minimal(repo),
            score,
            ...(withMatches(ctx)
              ? {
                  text_matches: textMatches(q, {content}).map((m) => ({
                    object_url: `${api}/contents/${path}?ref=${commit}`,
                    object_type: 'FileContent',
                    ...m,
                  })),
                }
              : {}),
          }
        }),
      )
    },
  ],
  [
    'GET',
    '/search/commits',
    'search/commits',
    (ctx) => {
      const q = query(ctx)
      const hits = searching(() =>
        searchCommits(ctx.store, ctx.viewer, q, {
          sort: ctx.query.get('sort'),
          order: ctx.query.get('order'),
          treeOf: (c) => treeSha(c.tree),
        }),
      )
      return results(
        hits.map(({repo, commit, score}) => {
          const rest = ctx.ser.repos.commit(repo, commit) as Record<string, unknown> & {
            commit: Record<string, unknown>
            author: unknown
          }
          const {comments_url: commentsUrl, ...fields} = rest
          return {
            ...fields,
            comments_url: commentsUrl,
            committer: rest.author,
            repository: ctx.ser.repos.minimal(repo),
            score,
            node_id: rest.node_id,
          }
        }),
      )
    },
  ],
  [
    'GET',
    '/search/users',
    'search/users',
    (ctx) => {
      const q = query(ctx)
      return results(
        searchUsers(ctx.store, q, {sort: ctx.query.get('sort'), order: ctx.query.get('order')}).map((user) => ({
          ...ctx.ser.users.user(user.login),
          score: 1,
        })),
      )
    },
  ],
  [
    'GET',
    '/search/labels',
    'search/labels',
    (ctx) => {
      const id = Number(ctx.query.get('repository_id'))
      const q = str({q: ctx.query.get('q')}, 'q')
      if (!Number.isInteger(id) || !ctx.query.get('repository_id') || !q)
        throw new SandboxError(422, 'Validation Failed', [
          {resource: 'Search', field: q ? 'repository_id' : 'q', code: 'missing'},
        ])
      const repo = Object.values(ctx.store.state.repos).find((r) => r.id === id)
      if (!repo) throw new SandboxError(404, 'Not Found')
      const words = q.toLowerCase().split(/\s+/).filter(Boolean)
      // Labels whose name or description holds any of the words, best (most words) first.
      const scored = Object.values(repo.labels)
        .map((label) => ({
          label,
          score: words.filter(
            (w) => label.name.toLowerCase().includes(w) || (label.description ?? '').toLowerCase().includes(w),
          ).length,
        }))
        .filter((l) => l.score > 0)
        .sort((a, b) => b.score - a.score || a.label.name.localeCompare(b.label.name))
      return results(scored.map(({label, score}) => ({...ctx.ser.issues.label(repo, label), score})))
    },
  ],
]
