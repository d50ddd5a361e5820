/** User search (REST's `/search/users`, GraphQL's `USER`). */
import type {User} from '../core/state.js'
import type {Store} from '../store.js'
import {contains, evaluate, inRange, parseQuery, shapeOf} from './query.js'

const USER_SEARCH_KEYS = new Set([
  'type',
  'in',
  'repos',
  'followers',
  'created',
  'sort',
  'user',
  'org',
  'location',
  'language',
])

export function searchUsers(
  store: Store,
  query: string,
  options: {sort?: string | null; order?: string | null} = {},
): User[] {
  const expr = parseQuery(query, USER_SEARCH_KEYS)
  const shape = shapeOf(expr)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['login', 'name'])
  const repos = (user: User) => Object.values(store.state.repos).filter((r) => r.owner === user.login).length
  const users = Object.values(store.state.users).filter((user) =>
    evaluate(expr, (e) => {
      if (e.kind === 'text')
        return (
          (fields.has('login') && contains(user.login, e.text)) || (fields.has('name') && contains(user.name, e.text))
        )
      const v = e.value.toLowerCase()
      switch (e.key) {
        case 'type':
          return v === 'org' ? user.type === 'Organization' : v === 'user' ? user.type === 'User' : false
        case 'user':
        case 'org':
          return user.login.toLowerCase() === v
        case 'repos':
          return inRange(e.value, repos(user), 'number')
        case 'followers':
          return inRange(e.value, 0, 'number')
        case 'in':
        case 'sort':
          return true
        default:
          // location:, language:, created: — the sandbox's users have no profile to match.
          return false
      }
    }),
  )
  const sort = options.sort ?? shape.sort?.field
  const sign = (options.order ?? shape.sort?.direction) === 'asc' ? 1 : -1
  return users.sort(
    (a, b) =>
      (sort === 'repositories' ? (repos(a) - repos(b)) * sign : 0) ||
      (sort === 'joined' ? (a.id - b.id) * sign : 0) ||
      a.login.localeCompare(b.login),
  )
}
