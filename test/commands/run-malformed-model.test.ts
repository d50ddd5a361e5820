// `ghx-bench run` against a model endpoint that answers 200 with something that is not a completion:
// the attempt is retried as a transient endpoint failure (infra_retries), and a run whose every attempt
// got one is recorded as the endpoint's fault (provider_error), not as the agent's failure.
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

describe('ghx-bench run: a malformed 200 from the model', function () {
  this.timeout(180_000)

  it('is retried within infra_retries and recorded as the endpoint’s fault', async () => {
    let requests = 0
    const server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        requests++
        res.writeHead(200, {'content-type': 'application/json'}).end('<html>upstream reset</html>')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
      const dir = await makeProject({
        '.ghxbenchrc.yml': sandboxConfig(SUITES, `endpoint: {base_url: "${baseUrl}", api_key_env: ACME_KEY}`),
      })
      const result = await runCliInProcess(
        [
          'run',
          path.join(SUITES, 'smoke.yml'),
          '--mode',
          'agent_direct',
          '--scenario',
          'repo-view-001',
          '--model',
          'acme/agent-7',
          '--run-id',
          'malformed',
        ],
        {cwd: dir, env: {CI: '1', ACME_KEY: 'sk-acme-0123456789'}},
      )
      expect(result.code, result.stderr).to.not.equal(4)
      const [row] = rowsOf(dir, 'malformed')
      expect(row!.outcome).to.equal('infra_error')
      expect(row!.error).to.deep.include({type: 'provider_error'})
      expect(row!.error!.message).to.include('model endpoint answered 200 with a body that is not JSON')
      // smoke.yml keeps the default infra_retries (2): three attempts, each one request to the model.
      expect(row!.retries).to.equal(2)
      expect(row!.attempts.map((a) => a.outcome)).to.deep.equal(['infra_error', 'infra_error', 'infra_error'])
      expect(requests).to.equal(3)
    } finally {
      server.close()
    }
  })
})
