// The agent's API cost on live GitHub: the token's GET /rate_limit before and after, from a loopback server that plays GitHub's.
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {expect} from 'chai'
import {createClient} from '../../src/github/client.js'
import {liveUsage} from '../../src/github/live-usage.js'

describe('live GitHub: API cost from the token’s rate-limit usage', () => {
  // What GET /rate_limit says now: the test spends as an agent would between the two reads.
  const usage = {core: 100, graphql: 40, reset: 1_900_000_000}
  let server: http.Server
  let url: string
  before(async () => {
    server = http.createServer((req, res) => {
      const resource = (used: number) => ({limit: 5000, used, remaining: 5000 - used, reset: usage.reset})
      res.writeHead(req.url === '/rate_limit' ? 200 : 404, {'content-type': 'application/json'})
      res.end(
        JSON.stringify({
          resources: {core: resource(usage.core), graphql: resource(usage.graphql)},
          rate: resource(usage.core),
        }),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const meterOf = () => liveUsage(createClient({baseUrl: url, token: 'ghp_test', retries: 0}).octokit)

  it('records the REST requests and GraphQL points the token spent while the agent ran', async () => {
    const meter = meterOf().meter()
    await meter.startCounting()
    usage.core += 7
    usage.graphql += 12
    expect(await meter.counts()).to.deep.equal({
      apiCalls: null,
      api: {
        source: 'live_rate_limit',
        rest_requests: 7,
        graphql_requests: null,
        graphql_points: 12,
        secondary_limit_waits: null,
        retry_after_s: null,
      },
      injectedFaults: 0,
    })
  })

  it('records nothing for runs whose metering overlapped, or whose window reset meanwhile', async () => {
    const usages = meterOf()
    const first = usages.meter()
    const second = usages.meter()
    await first.startCounting()
    await second.startCounting()
    usage.core += 3
    expect((await first.counts()).api).to.equal(null)
    expect((await second.counts()).api).to.equal(null)
    // Alone again: counted.
    const third = usages.meter()
    await third.startCounting()
    usage.core += 2
    expect((await third.counts()).api).to.deep.include({rest_requests: 2, graphql_points: 0})
    const fourth = usages.meter()
    await fourth.startCounting()
    usage.reset += 3600
    usage.core = 1
    expect((await fourth.counts()).api).to.equal(null)
    // Counts asked for before the agent started: nothing to compare.
    expect((await usages.meter().counts()).api).to.equal(null)
  })
})
