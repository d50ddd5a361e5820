/**
 * GraphQL v4 over the same store as REST. Every query is parsed and validated against GitHub's
 * public schema (core/graphql-schema.ts: @octokit/graphql-schema, plus the fields GitHub added since
 * its last release that the sandbox models) before it runs, so an invalid query fails as GitHub
 * fails it; each distinct query once (graphql-queries.ts). The root's fields are every resource's (each folder's graphql.ts and
 * graphql-mutations.ts) and the lookups that cross them (node, nodes, resource, search). Objects are
 * plain resolver objects; a field the sandbox does not model raises an error that names it (HTTP
 * 501), never a silent null. A query runs by its plan, made once (graphql-execute.ts), and by
 * graphql-js's `execute` when the plan cannot answer it exactly as graphql-js would.
 */
import {execute, type GraphQLFieldResolver} from 'graphql'
import {SandboxError} from './core/errors.js'
import {costReadsVariables, graphqlPoints} from './graphql-cost.js'
import {fieldValue, MISSING, planQuery} from './graphql-execute.js'
import {QueryCache} from './graphql-queries.js'
import {locate, type Located} from './core/graphql-nodes.js'
import {
  NotModelled,
  notFoundError,
  text,
  type Args,
  type Context,
  type NodeBuilders,
  type Obj,
} from './core/graphql-objects.js'
import {githubSchema} from './core/graphql-schema.js'
import type {Links} from './core/serializer-core.js'
import {parseNodeId} from './core/store-core.js'
import {issueMutations} from './issues/graphql-mutations.js'
import {commentNode, issueNode, issueTypeNode, labelNode, milestoneNode} from './issues/graphql.js'
import {projectItemNode, projectMutations, projectNode} from './projects/graphql.js'
import {pullMutations} from './pulls/graphql-mutations.js'
import {pullNode, reviewCommentNode, reviewNode, threadNode} from './pulls/graphql.js'
import {reactionMutations} from './reactions/graphql.js'
import {releaseNode} from './releases/graphql.js'
import {commitNode, repoMutations, repoQueries, repositoryNode} from './repos/graphql.js'
import {searchConnection} from './search/graphql.js'
import type {Store} from './store.js'
import {actor, userQueries} from './users/graphql.js'

/** Every resource's builders, by the GraphQL type they build: how one resource's objects embed another's. */
const NODE_BUILDERS: NodeBuilders = {
  Actor: actor,
  Repository: repositoryNode,
  Commit: commitNode,
  Issue: issueNode,
  IssueComment: commentNode,
  IssueType: issueTypeNode,
  Label: labelNode,
  Milestone: milestoneNode,
  PullRequest: pullNode,
  PullRequestReview: reviewNode,
  PullRequestReviewComment: reviewCommentNode,
  PullRequestReviewThread: threadNode,
  ProjectV2: projectNode,
  ProjectV2Item: projectItemNode,
  Release: releaseNode,
}

/** The process's prepared queries: the schema they are validated against is the process's too. */
export const QUERIES = new QueryCache()

const fieldResolver: GraphQLFieldResolver<Obj, Context, Args> = (source, args, context, info) => {
  const value = fieldValue(source, info.fieldName, args, context)
  if (value === MISSING)
    throw new NotModelled(`ghx-bench sandbox does not model ${info.parentType.name}.${info.fieldName}`)
  return value
}

/** Query.resource: the sandbox's own web URLs of a user, a repository, an issue or a pull request; null for any other URL. */
function resourceByUrl(ctx: Context, url: string): Obj | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.host !== new URL(ctx.links.html).host) return null
  const [owner, name, kind, number, ...rest] = parsed.pathname.split('/').filter(Boolean)
  if (!owner) return null
  if (!name) return ctx.store.state.users[owner] ? actor(ctx, owner) : null
  const repo = ctx.store.state.repos[`${owner}/${name}`]
  if (!repo) return null
  if (!kind) return repositoryNode(ctx, repo)
  const issue =
    (kind === 'issues' || kind === 'pull') && rest.length === 0 && /^\d+$/.test(number ?? '')
      ? repo.issues[Number(number)]
      : undefined
  if (!issue || (kind === 'pull' && !issue.is_pull)) return null
  return issueNode(ctx, repo, issue)
}

/** The root's fields: every resource's queries and mutations, and the lookups across them. */
function rootFields(ctx: Context): Obj {
  // Object.assign rather than spreads in one literal, which cost V8 about 0.1 ms a request for these ~70 fields.
  return Object.assign(
    {
      resource: ({url}: Args) => resourceByUrl(ctx, String(url)),
      node: ({id}: Args) => nodeById(ctx, id),
      search: (args: Args) => searchConnection(ctx, args),
      // An id that names nothing is null at its place, its error at ["nodes", i] (graphql-js raises an item that is an Error there).
      nodes: ({ids}: Args) =>
        (ids as unknown[]).map((id) => {
          try {
            return nodeById(ctx, id)
          } catch (error) {
            return error
          }
        }),
    },
    userQueries(ctx),
    repoQueries(ctx),
    issueMutations(ctx),
    repoMutations(ctx),
    pullMutations(ctx),
    reactionMutations(ctx),
    projectMutations(ctx),
  )
}

/** Each store's contexts and root fields, by viewer and origin: their ~70 closures made once, not per request. */
const ROOTS = new WeakMap<Store, Map<string, {context: Context; fields: Obj}>>()

/** The context and root of one request: the viewer's fields, and the rate-limit window this call is charged in. */
function requestRoot(store: Store, viewer: string, links: Links, rate: RateWindow): {context: Context; root: Obj} {
  let kept = ROOTS.get(store)
  if (!kept) ROOTS.set(store, (kept = new Map()))
  const key = `${viewer}\n${links.api}\n${links.html}`
  let made = kept.get(key)
  if (!made) {
    // The origin comes from the request's Host header: a client that varies it must not grow this without bound.
    if (kept.size >= 16) kept.clear()
    const context: Context = {store, viewer, links, nodes: NODE_BUILDERS}
    kept.set(key, (made = {context, fields: rootFields(context)}))
  }
  const root: Obj = Object.create(made.fields) as Obj
  root.rateLimit = () => ({
    limit: rate.limit,
    cost: rate.cost,
    remaining: rate.remaining,
    used: rate.used,
    resetAt: new Date(rate.reset * 1000).toISOString(),
    nodeCount: 1,
  })
  return {context: made.context, root}
}

/** Query.node: what a global id names, or GitHub's NOT_FOUND when it names nothing. */
function nodeById(ctx: Context, id: unknown): Obj {
  const {store} = ctx
  const missing = () => notFoundError(`Could not resolve to a node with the global id of '${String(id)}'`)
  if (typeof id === 'string' && id.startsWith('PVT_')) return projectNode(ctx, store.projects.byId(id))
  if (typeof id === 'string' && id.startsWith('PVTI_')) {
    for (const project of store.state.projects) {
      const item = project.items.find((i) => i.id === id)
      if (item) return projectItemNode(ctx, project, item)
    }
    throw missing()
  }
  const parsed = typeof id === 'string' ? parseNodeId(id) : undefined
  if (parsed?.kind === 'user') {
    const user = Object.values(store.state.users).find((u) => u.id === parsed.id)
    if (!user) throw missing()
    return actor(ctx, user.login)!
  }
  if (parsed?.kind === 'issue_type') {
    const type = Object.values(store.state.repos)
      .flatMap((r) => r.issue_types)
      .find((t) => t.id === parsed.id)
    if (!type) throw missing()
    return issueTypeNode(type)
  }
  const located: Located = locate(store, id)
  const {repo, kind} = located
  switch (kind) {
    case 'issue':
    case 'pull':
      return issueNode(ctx, repo, store.issues.byId(repo, located.id))
    case 'thread':
      return threadNode(ctx, repo, store.reviews.thread(repo, located.id))
    case 'review':
      return reviewNode(ctx, repo, store.reviews.get(repo, located.id))
    case 'review_comment':
      return reviewCommentNode(ctx, repo, store.reviews.comment(repo, located.id))
    case 'comment':
      return commentNode(ctx, repo, located.id)
    case 'repo':
      return repositoryNode(ctx, repo)
    default:
      throw new NotModelled(`ghx-bench sandbox does not model node lookup of ${kind}`)
  }
}

export interface GraphqlResponse {
  status: number
  body: {data?: unknown; errors?: unknown[]; message?: string}
}

/** Parses, validates against GitHub's schema, executes; errors come back as GitHub shapes them. */
/** The caller's primary rate-limit window once a call is charged: what `rateLimit` and the headers say. */
export interface RateWindow {
  limit: number
  remaining: number
  used: number
  /** UTC epoch seconds. */
  reset: number
  /** What this call was charged. */
  cost: number
}

/**
 * Runs a call charged by `charge` with its points (graphql-cost.ts) once it parses and validates; a call
 * that does not is charged the minimum, 1 point.
 */
export async function executeGraphql(
  store: Store,
  viewer: string,
  links: Links,
  request: {query?: unknown; variables?: unknown; operationName?: unknown},
  charge: (points: number) => RateWindow,
): Promise<GraphqlResponse & {rate: RateWindow}> {
  const response = await runGraphql(store, viewer, links, request, charge)
  return 'rate' in response ? response : {...response, rate: charge(1)}
}

async function runGraphql(
  store: Store,
  viewer: string,
  links: Links,
  request: {query?: unknown; variables?: unknown; operationName?: unknown},
  charge: (points: number) => RateWindow,
): Promise<GraphqlResponse | (GraphqlResponse & {rate: RateWindow})> {
  if (typeof request.query !== 'string')
    return {status: 400, body: {message: 'A query attribute must be specified and must be a string.'}}
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined
  const prepared = QUERIES.prepare(request.query, operationName)
  if (prepared.errors) return {status: 200, body: {errors: [...prepared.errors]}}
  const {document} = prepared
  const variables = (request.variables ?? {}) as Record<string, unknown>
  // A query's points depend on its text and operation, and on its variables only when a page size is one.
  if (prepared.points === undefined)
    prepared.points = costReadsVariables(document) ? null : graphqlPoints(document, {}, operationName)
  const rate = charge(prepared.points ?? graphqlPoints(document, variables, operationName))
  const {context, root} = requestRoot(store, viewer, links, rate)
  // The query's plan answers it when it can (graphql-execute.ts); else, or when its run is abandoned, graphql-js does.
  if (prepared.plan === undefined) prepared.plan = planQuery(githubSchema(), document, operationName) ?? null
  const planned = prepared.plan?.run(root, context, variables)
  if (planned) return {status: 200, body: planned, rate}
  const result = await execute({
    schema: githubSchema(),
    document,
    rootValue: root,
    contextValue: context,
    variableValues: variables,
    operationName,
    fieldResolver,
    typeResolver: (value) => (value as {__typename?: string}).__typename,
  })
  const errors = (result.errors ?? []).map((e) => {
    const original = e.originalError
    const type =
      original instanceof SandboxError
        ? original.status === 404
          ? 'NOT_FOUND'
          : original.status === 501
            ? 'NOT_MODELLED'
            : 'UNPROCESSABLE'
        : original instanceof NotModelled
          ? 'NOT_MODELLED'
          : (e.extensions.type ?? undefined)
    const first = original instanceof SandboxError ? original.errors?.[0] : undefined
    const detail = typeof first === 'string' ? first : first?.message
    return {type, path: e.path, locations: e.locations, message: detail ? text(detail) : e.message}
  })
  const notModelled = errors.find((e) => e.type === 'NOT_MODELLED')
  if (notModelled) return {status: 501, body: {message: notModelled.message, errors, data: result.data}, rate}
  return {status: 200, body: errors.length > 0 ? {data: result.data ?? null, errors} : {data: result.data}, rate}
}
