/**
 * The REST operations the sandbox models, by GitHub's operationIds: every resource's route table
 * (each folder's routes.ts and *-routes.ts), in one router. Handlers translate HTTP into store
 * operations and store state into GitHub's representations; none decides a rule of its own.
 */
import {actionsRoutes} from './actions/routes.js'
import {checkRoutes} from './actions/check-routes.js'
import {statusRoutes} from './actions/status-routes.js'
import type {RestRoute, RouteDef} from './core/rest-support.js'
import {Router} from './http/router.js'
import {eventRoutes} from './issues/event-routes.js'
import {issueRoutes} from './issues/routes.js'
import {metaRoutes} from './meta/routes.js'
import {pullRoutes} from './pulls/routes.js'
import {reactionRoutes} from './reactions/routes.js'
import {reviewRoutes} from './pulls/review-routes.js'
import {releaseRoutes} from './releases/routes.js'
import {gitRoutes} from './repos/git-routes.js'
import {repoRoutes} from './repos/routes.js'
import {searchRoutes} from './search/routes.js'
import {userRoutes} from './users/routes.js'

let router: Router<RestRoute> | undefined

/** Every modelled route, by resource. */
const allRoutes = (): RouteDef[] => [
  ...metaRoutes,
  ...userRoutes,
  ...repoRoutes,
  ...gitRoutes,
  ...issueRoutes,
  ...eventRoutes,
  ...pullRoutes,
  ...reviewRoutes,
  ...reactionRoutes,
  ...actionsRoutes,
  ...checkRoutes,
  ...statusRoutes,
  ...releaseRoutes,
  ...searchRoutes,
]

export function restRouter(): Router<RestRoute> {
  if (!router) {
    router = new Router()
    for (const [method, template, operationId, handler] of allRoutes())
      router.add(method, template, {operationId, handler})
  }
  return router
}

/** The operationIds the sandbox models, for the contract tests and the docs. */
export function modelledOperations(): Array<{method: string; template: string; operationId: string}> {
  return allRoutes().map(([method, template, operationId]) => ({method, template, operationId}))
}
