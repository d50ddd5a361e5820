// Issue 27, item 3: secrets written into plugins' options under names that do not look secret
// (authToken, accessToken, a server's args and env, array items), and the base64 of a base_url's
// user:password and of an MCP bearer that an endpoint echoes, reach no byte ghx-bench writes: rows,
// traces, reports (md, json, html, junit) and its output. A mode plugin echoes its options into its
// instructions and a tool's output; the endpoints answer with the base64 of what they were sent.
import {randomBytes} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {expect} from 'chai'
import {startScriptedModels} from '../../src/agent/scripted-models.js'
import {project, rowsOf, runCli} from '../support/reliability.js'

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, {recursive: true}) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
}

/** A random credential of the kind a generator makes: letters and digits, no telling prefix. */
const token = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`

/** A mode that shows its options to the agent (instructions) and answers its one tool with them. */
const ECHO_PLUGIN = `export default {apiVersion: 1, name: 'echo-plugin', version: '1.0.0', modes: [{
  name: 'echo_options', optionsSchema: {type: 'object'},
  available: async () => ({available: true}),
  open: async (context) => ({
    instructions: 'options: ' + JSON.stringify(context.options), env: {},
    tools: [{name: 'show_options', description: 'shows the options', inputSchema: {type: 'object'}}],
    call: async () => ({ok: true, output: JSON.stringify(context.options)}),
    close: async () => {},
  }),
}]}
`

/** An endpoint that fails every request, echoing the base64 of the Authorization header it got (and the header). */
async function echoingEndpoint(): Promise<{url: string; close: () => Promise<void>}> {
  const server = http.createServer((req, res) => {
    const authorization = req.headers.authorization ?? ''
    res.writeHead(500, {'content-type': 'text/plain'})
    res.end(`got ${authorization} = ${Buffer.from(authorization).toString('base64')}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe('reliability: secrets in options and their base64 forms', function () {
  this.timeout(90_000)

  it('writes none of them, in any form, anywhere', async () => {
    const planted = {
      authToken: token('at'),
      accessToken: token('ac'),
      arg: token('ar'),
      flagged: `pw-${randomBytes(4).toString('hex')}`,
      env: token('en'),
      item: token('it'),
      bearer: token('br'),
      password: token('pw'),
    }
    const models = await startScriptedModels()
    const echo = await echoingEndpoint()
    try {
      const {baseUrl} = models.register({
        model: 'oracle',
        steps: [{tool: 'show_options', args: {}}],
        final: {kind: 'text', answer: 'done'},
      })
      const options = JSON.stringify({
        authToken: planted.authToken,
        nested: {accessToken: planted.accessToken},
        server: {
          command: 'node',
          args: ['server.js', planted.arg, '--client-secret', planted.flagged],
          env: {INNOCUOUS: planted.env},
        },
        list: ['plain', planted.item],
      })
      const dir = await project(
        {
          'plug/index.js': ECHO_PLUGIN,
          'catalogue/options.yml': [
            'name: options',
            'scenarios: {ids: [repo-view-001]}',
            `modes: [{name: echo_options, options: ${options}}]`,
            'repetitions: 1',
            'infra_retries: 0',
            '',
          ].join('\n'),
          'catalogue/bearer.yml': [
            'name: bearer',
            'scenarios: {ids: [repo-view-001]}',
            `modes: [{name: mcp, options: {server: {url: "${echo.url}/mcp", token_env: MCP_BEARER}}}]`,
            'repetitions: 1',
            'infra_retries: 0',
            '',
          ].join('\n'),
          'catalogue/basic.yml': [
            'name: basic',
            'scenarios: {ids: [repo-view-001]}',
            'modes: [agent_direct]',
            'repetitions: 1',
            'infra_retries: 0',
            `endpoint: {base_url: "${echo.url.replace('http://', `http://bench:${planted.password}@`)}/v1"}`,
            '',
          ].join('\n'),
        },
        `plugins: [./plug/index.js]\nendpoint: {base_url: "${baseUrl}"}`,
      )
      const env = {CI: '1', MCP_BEARER: planted.bearer}
      const outputs: string[] = []
      for (const suite of ['options', 'bearer', 'basic']) {
        const run = await runCli(
          ['run', `catalogue/${suite}.yml`, '--model', 'acme/agent-7', '--run-id', suite, '--no-report'],
          {cwd: dir, env},
        )
        expect(run.code, run.stderr).to.be.oneOf([0, 1, 3])
        outputs.push(run.stdout, run.stderr)
        const report = await runCli(['report', '--run-id', suite, '--format', 'md,json,html,junit'], {cwd: dir, env})
        expect(report.code, report.stderr).to.equal(0)
        outputs.push(report.stdout, report.stderr)
      }
      // The leaks were there to make: the options reached the agent, the endpoints answered with what they got.
      const [shown] = rowsOf(dir, 'options')
      expect(readFileSync(path.join(dir, 'results', shown!.trace!), 'utf8')).to.include(
        String.raw`\"authToken\":\"[REDACTED]\"`,
      )
      expect(rowsOf(dir, 'bearer')[0]!.error?.message).to.match(/got Bearer \[REDACTED\] = \S{0,12}\[REDACTED\]/)
      expect(rowsOf(dir, 'basic')[0]!.error?.message).to.match(/got Basic \S{0,3}\[REDACTED\]/)

      const forms = (secret: string) => [
        secret,
        Buffer.from(secret).toString('base64').slice(0, -4),
        Buffer.from(`Bearer ${secret}`).toString('base64').slice(8, -4),
      ]
      const secrets = [
        ...Object.values(planted).flatMap(forms),
        Buffer.from(`bench:${planted.password}`).toString('base64').slice(0, -4),
      ]
      const files = ['results', 'reports'].flatMap((folder) => filesUnder(path.join(dir, folder)))
      expect(files.filter((f) => /\.(md|json|html|xml)$/.test(f)).length).to.be.at.least(12)
      const texts = [...files.map((f) => readFileSync(f, 'latin1')), ...outputs]
      for (const secret of secrets) {
        for (const [index, text] of texts.entries())
          expect(text.includes(secret), `${secret.slice(0, 12)}… in ${files[index] ?? 'the CLI output'}`).to.equal(
            false,
          )
      }
    } finally {
      await models.close()
      await echo.close()
    }
  })
})
