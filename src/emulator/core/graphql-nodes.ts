/** Global node ids of mutations' inputs, resolved to what they name in the state. */
import {GraphQLError} from 'graphql'
import type {Store} from '../store.js'
import {notFoundError} from './graphql-objects.js'
import type {Issue, Repo} from './state.js'
import {parseNodeId} from './store-core.js'

export interface Located {
  repo: Repo
  kind: string
  id: number
}

export function locate(store: Store, node: unknown): Located {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  if (parsed) {
    for (const repo of Object.values(store.state.repos)) {
      const found =
        parsed.kind === 'issue' || parsed.kind === 'pull'
          ? Object.values(repo.issues).some((i) => i.id === parsed.id)
          : parsed.kind === 'thread'
            ? Boolean(repo.threads[parsed.id])
            : parsed.kind === 'review'
              ? Boolean(repo.reviews[parsed.id])
              : parsed.kind === 'review_comment'
                ? Boolean(repo.review_comments[parsed.id])
                : parsed.kind === 'comment'
                  ? Boolean(repo.comments[parsed.id])
                  : parsed.kind === 'label'
                    ? Object.values(repo.labels).some((l) => l.id === parsed.id)
                    : parsed.kind === 'milestone'
                      ? repo.milestones.some((m) => m.id === parsed.id)
                      : parsed.kind === 'repo'
                        ? repo.id === parsed.id
                        : false
      if (found) return {repo, kind: parsed.kind, id: parsed.id}
    }
  }
  throw notFoundError(`Could not resolve to a node with the global id of '${String(node)}'`)
}

export function issueOf(store: Store, node: unknown): {repo: Repo; issue: Issue} {
  const {repo, kind, id} = locate(store, node)
  if (kind !== 'issue' && kind !== 'pull') throw new GraphQLError(`'${String(node)}' is not an Issue or PullRequest`)
  return {repo, issue: store.issues.byId(repo, id)}
}
