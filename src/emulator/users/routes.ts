/** The authenticated user and users by login. */
import {notFound} from '../core/errors.js'
import type {RouteDef} from '../core/rest-support.js'

export const userRoutes: RouteDef[] = [
  ['GET', '/user', 'users/get-authenticated', (ctx) => ({body: ctx.ser.users.detail(ctx.viewer)})],
  [
    'GET',
    '/users/{username}',
    'users/get-by-username',
    (ctx) => {
      if (!ctx.store.state.users[ctx.params.username!]) throw notFound()
      return {body: ctx.ser.users.detail(ctx.params.username!)}
    },
  ],
]
