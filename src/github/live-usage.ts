/**
 * The agent's API cost on live GitHub, from the token's own rate-limit usage (see liveUsage).
 */
import type {GithubClient} from './client.js'
import type {AccessCounts} from './target.js'

/** The token's rate-limit usage as GET /rate_limit says it (that request costs nothing): used and reset per resource. */
interface Usage {
  core: {used: number; reset: number}
  graphql: {used: number; reset: number}
}

/**
 * The agent's API cost on live GitHub. Its tools talk to GitHub directly, with nothing of ours in
 * between, so the only view is the token's own usage (GET /rate_limit) before and after the agent:
 * the difference is the agent's REST requests (core) and GraphQL points (graphql) when nothing else
 * spent with the token meanwhile. A run that overlapped another's metering, or whose window reset
 * meanwhile, records null: not a figure that holds another's requests. Secondary-limit waits and the
 * number of GraphQL calls are not visible from here (null).
 */
export function liveUsage(client: GithubClient): {
  meter(): {startCounting(): Promise<void>; counts(): Promise<AccessCounts>}
} {
  const read = async (): Promise<Usage | undefined> => {
    try {
      const {resources} = (await client.rest.rateLimit.get()).data
      const of = (r: {used: number; reset: number} | undefined) => ({used: r?.used ?? Number.NaN, reset: r?.reset ?? 0})
      return {core: of(resources.core), graphql: of(resources.graphql)}
    } catch {
      return undefined
    }
  }
  // Meters counting now: one that starts while another counts spoils both.
  let metering = 0
  const open = new Set<{overlapped: boolean}>()
  return {
    meter() {
      const own = {overlapped: false}
      let before: Usage | undefined
      return {
        async startCounting() {
          before = await read()
          if (metering > 0) {
            own.overlapped = true
            for (const other of open) other.overlapped = true
          }
          metering++
          open.add(own)
        },
        async counts() {
          const after = before ? await read() : undefined
          if (open.delete(own)) metering--
          const delta = (resource: 'core' | 'graphql') =>
            before && after && !own.overlapped && before[resource].reset === after[resource].reset
              ? after[resource].used - before[resource].used
              : Number.NaN
          const rest = delta('core')
          const points = delta('graphql')
          const known = (value: number) => (Number.isFinite(value) && value >= 0 ? value : null)
          const api =
            known(rest) === null && known(points) === null
              ? null
              : {
                  source: 'live_rate_limit' as const,
                  rest_requests: known(rest),
                  graphql_requests: null,
                  graphql_points: known(points),
                  secondary_limit_waits: null,
                  retry_after_s: null,
                }
          return {apiCalls: null, api, injectedFaults: 0}
        },
      }
    },
  }
}
