/** GraphQL's Query.search. */
import {connection, NotModelled, text, type Args, type Context, type Obj} from '../core/graphql-objects.js'
import {reviewDecision} from '../pulls/graphql.js'
import {searchIssues} from './issues.js'
import {SearchInvalid} from './query.js'
import {searchRepos} from './repositories.js'
import {textMatches} from './text-matches.js'
import {searchUsers} from './users.js'

/**
 * Query.search (issues.ts, repositories.ts and users.ts beside it): issues and pull requests (ISSUE, and ISSUE_ADVANCED, GitHub's advanced
 * issue search), repositories, users. The sandbox has no discussions: DISCUSSION finds none. A query
 * naming a repository or user that does not exist finds nothing (REST answers it 422).
 */
export function searchConnection(ctx: Context, args: Args): Obj {
  const type = String(args.type)
  const query = text(args.query)
  const counts = {issueCount: 0, repositoryCount: 0, userCount: 0, codeCount: 0, wikiCount: 0, discussionCount: 0}
  // Objects and text matches are made for the page only (text matches when its edges are read): a search finds
  // many more than it shows.
  let found: Array<{node: () => Obj; matches: () => Obj[]}> = []
  try {
    if (type === 'ISSUE' || type === 'ISSUE_ADVANCED') {
      found = searchIssues({store: ctx.store, viewer: ctx.viewer, reviewDecision}, query, {
        advanced: type === 'ISSUE_ADVANCED',
      }).map((hit) => ({
        node: () => ctx.nodes.Issue(ctx, hit.repo, hit.issue),
        matches: () => textMatches(query, {title: hit.issue.title, body: hit.issue.body}) as unknown as Obj[],
      }))
      counts.issueCount = found.length
    } else if (type === 'REPOSITORY') {
      found = searchRepos(ctx.store, ctx.viewer, query).map((hit) => ({
        node: () => ctx.nodes.Repository(ctx, hit.repo),
        matches: () => textMatches(query, {name: hit.repo.name, description: hit.repo.description}) as unknown as Obj[],
      }))
      counts.repositoryCount = found.length
    } else if (type === 'USER') {
      const users = searchUsers(ctx.store, query)
      if (users.some((u) => u.type === 'Organization'))
        throw new NotModelled('ghx-bench sandbox does not model Organization (a user search that finds one)')
      found = users.map((u) => ({
        node: () => ctx.nodes.Actor(ctx, u.login)!,
        matches: () => textMatches(query, {login: u.login, name: u.name}) as unknown as Obj[],
      }))
      counts.userCount = found.length
    }
  } catch (error) {
    if (!(error instanceof SearchInvalid)) throw error
    found = []
  }
  const page = connection(found, args)
  const slice = page.nodes as typeof found
  const highlights = (m: Obj) =>
    ((m.highlights as Array<{text: string; indices: [number, number]}>) ?? []).map((h) => ({
      text: h.text,
      beginIndice: h.indices[0],
      endIndice: h.indices[1],
    }))
  return {
    ...counts,
    ...page,
    nodes: slice.map((f) => f.node()),
    edges: () =>
      (page.edges as Array<{node: (typeof found)[number]; cursor: string}>).map((e) => ({
        cursor: e.cursor,
        node: e.node.node(),
        textMatches: e.node
          .matches()
          .map((m) => ({fragment: m.fragment, property: m.property, highlights: highlights(m)})),
      })),
  }
}
