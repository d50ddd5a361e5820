/** GraphQL's users: actors, the users a repository can assign or mention, the root's viewer and users. */
import {
  connection,
  NotModelled,
  notFoundError,
  ordered,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import type {Repo} from '../core/state.js'
import {nodeId, parseNodeId} from '../core/store-core.js'
import {pushedAt} from '../repos/meta.js'
import type {Store} from '../store.js'

export function actor(ctx: Context, login: string | null): Obj | null {
  if (login === null) return null
  const user = ctx.store.user(login)
  return {
    __typename: user.type === 'Bot' ? 'Bot' : 'User',
    id: nodeId('user', user.id),
    databaseId: user.id,
    login: user.login,
    name: user.name,
    url: `${ctx.links.html}/${user.login}`,
    avatarUrl: `${ctx.links.html}/avatars/${user.login}`,
    // The repositories the user owns (gh repo list): by privacy and fork-ness, in the order asked.
    repositories: (args: Args) => {
      const owned = Object.values(ctx.store.state.repos).filter(
        (r) =>
          r.owner === user.login &&
          (args.privacy == null || (args.privacy === 'PRIVATE') === r.private) &&
          (args.isFork == null || args.isFork === (r.fork_of !== undefined)),
      )
      const sorted = ordered(
        owned,
        args.orderBy,
        {
          NAME: (r: Repo) => r.name.toLowerCase(),
          CREATED_AT: (r: Repo) => r.created_at,
          PUSHED_AT: pushedAt,
          UPDATED_AT: pushedAt,
          STARGAZERS: () => 0,
        },
        'CREATED_AT',
      )
      return {
        ...connection(
          sorted.map((r) => ctx.nodes.Repository(ctx, r)),
          args,
        ),
        totalDiskUsage: 0,
      }
    },
    projectV2: ({number}: Args) => ctx.nodes.ProjectV2(ctx, ctx.store.projects.get(user.login, Number(number))),
    projectsV2: (args: Args) =>
      connection(
        ctx.store.state.projects.filter((p) => p.owner === user.login).map((p) => ctx.nodes.ProjectV2(ctx, p)),
        args,
      ),
  }
}

/** Users (not bots) the sandbox knows, filtered by `query` on login or name. */
export function knownUsers(ctx: Context, args: Args): Obj[] {
  const query = typeof args.query === 'string' ? args.query.toLowerCase() : ''
  return Object.values(ctx.store.state.users)
    .filter(
      (u) =>
        u.type === 'User' && (u.login.toLowerCase().includes(query) || (u.name ?? '').toLowerCase().includes(query)),
    )
    .sort((a, b) => a.login.localeCompare(b.login))
    .map((u) => actor(ctx, u.login)!)
}

export function userLogin(store: Store, node: unknown): string {
  const parsed = typeof node === 'string' ? parseNodeId(node) : undefined
  const user = parsed?.kind === 'user' ? Object.values(store.state.users).find((u) => u.id === parsed.id) : undefined
  if (!user) throw notFoundError(`Could not resolve to a User with the global id of '${String(node)}'`)
  return user.login
}

/** Query's fields about users: the viewer, a user, a repository owner, and organizations (none). */
export function userQueries(ctx: Context): Obj {
  const {store} = ctx
  return {
    viewer: () => actor(ctx, ctx.viewer),
    user: ({login}: Args) => {
      if (store.state.users[String(login)]?.type !== 'User')
        throw notFoundError(`Could not resolve to a User with the login of '${String(login)}'.`)
      return actor(ctx, String(login))
    },
    // GitHub answers null, without an error, for a login that does not exist.
    repositoryOwner: ({login}: Args) => (store.state.users[String(login)] ? actor(ctx, String(login)) : null),
    organization: ({login}: Args) => {
      if (store.state.users[String(login)]?.type === 'Organization')
        throw new NotModelled('ghx-bench sandbox does not model Query.organization (it has no organizations)')
      throw notFoundError(`Could not resolve to an Organization with the login of '${String(login)}'.`)
    },
  }
}
